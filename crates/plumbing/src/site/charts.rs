//! Line charts as SVG for the standings pages: one line per
//! character over the days, drawn in a `viewBox` so the picture scales to
//! any screen, with a legend a reader takes in at a glance. Pure text
//! output, no scripts.

use std::fmt::Write;

/// One line of a chart: a name and its (day, value) points in day order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Series {
    pub name: String,
    pub points: Vec<(u32, i64)>,
}

/// Colours told apart on screen and in print, one per series, repeating
/// with a dash after the first round.
const COLOURS: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
];

const WIDTH: f64 = 640.0;
const PLOT_LEFT: f64 = 48.0;
const PLOT_RIGHT: f64 = 470.0;
const PLOT_TOP: f64 = 28.0;
const PLOT_BOTTOM: f64 = 220.0;
const LEGEND_LINE: f64 = 16.0;

/// A chart titled `title` of `series` against the day.
pub fn line_chart(title: &str, series: &[Series]) -> String {
    let days = series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
    let (first, last) = days.fold((u32::MAX, 0), |(lo, hi), d| (lo.min(d), hi.max(d)));
    let values = series.iter().flat_map(|s| s.points.iter().map(|p| p.1));
    let (low, high) = values.fold((0_i64, 0_i64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let high = if high == low { low + 1 } else { high };
    let (first, last) = if first > last { (1, 1) } else { (first, last) };
    let span = f64::from((last - first).max(1));
    let x = |day: u32| PLOT_LEFT + f64::from(day - first) / span * (PLOT_RIGHT - PLOT_LEFT);
    #[allow(clippy::cast_precision_loss)] // chart values are small
    let y = |value: i64| {
        PLOT_BOTTOM - (value - low) as f64 / (high - low) as f64 * (PLOT_BOTTOM - PLOT_TOP)
    };
    let legend_height = PLOT_TOP + LEGEND_LINE * series.len() as f64;
    let height = (PLOT_BOTTOM + 30.0).max(legend_height + 8.0);
    let mut svg = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}" font-family="sans-serif" font-size="11" role="img" aria-label="{}">
<title>{}</title>
<rect width="100%" height="100%" fill="#fff"/>
<text x="{PLOT_LEFT}" y="16" font-size="14" font-weight="bold">{}</text>
"##,
        escape(title),
        escape(title),
        escape(title)
    );
    // Axes, with the lowest and highest value and the first and last day.
    let _ = writeln!(
        svg,
        r##"<path d="M{PLOT_LEFT} {PLOT_TOP}V{PLOT_BOTTOM}H{PLOT_RIGHT}" fill="none" stroke="#888"/>"##
    );
    for value in [low, high] {
        let _ = writeln!(
            svg,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="end">{value}</text>"##,
            PLOT_LEFT - 4.0,
            y(value) + 4.0
        );
    }
    if low < 0 {
        let _ = writeln!(
            svg,
            r##"<path d="M{PLOT_LEFT} {:.1}H{PLOT_RIGHT}" stroke="#ccc" stroke-dasharray="2 3"/>"##,
            y(0)
        );
    }
    for day in if first == last {
        vec![first]
    } else {
        vec![first, last]
    } {
        let _ = writeln!(
            svg,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="middle">day {day}</text>"##,
            x(day),
            PLOT_BOTTOM + 16.0
        );
    }
    for (index, s) in series.iter().enumerate() {
        let colour = COLOURS[index % COLOURS.len()];
        let dash = if index >= COLOURS.len() {
            r#" stroke-dasharray="6 3""#
        } else {
            ""
        };
        let path: Vec<String> = s
            .points
            .iter()
            .map(|&(day, value)| format!("{:.1},{:.1}", x(day), y(value)))
            .collect();
        if path.len() == 1 {
            let _ = writeln!(
                svg,
                r#"<circle cx="{}" r="3" fill="{colour}"/>"#,
                path[0].replacen(',', "\" cy=\"", 1)
            );
        } else if !path.is_empty() {
            let _ = writeln!(
                svg,
                r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>"#,
                path.join(" ")
            );
        }
        #[allow(clippy::cast_precision_loss)] // a handful of legend lines
        let legend_y = PLOT_TOP + LEGEND_LINE * index as f64;
        let latest = s
            .points
            .last()
            .map_or_else(String::new, |p| format!(": {}", p.1));
        let _ = writeln!(
            svg,
            r#"<path d="M{:.1} {:.1}h18" stroke="{colour}" stroke-width="3"{dash}/><text x="{:.1}" y="{:.1}">{}{latest}</text>"#,
            PLOT_RIGHT + 14.0,
            legend_y,
            PLOT_RIGHT + 36.0,
            legend_y + 4.0,
            escape(&s.name)
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// Text made safe inside SVG and HTML.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series(name: &str, points: &[(u32, i64)]) -> Series {
        Series {
            name: name.to_string(),
            points: points.to_vec(),
        }
    }

    #[test]
    fn a_chart_draws_each_series_with_its_latest_value_in_the_legend() {
        let svg = line_chart(
            "Fame",
            &[
                series("Amazon", &[(1, 0), (2, 5), (3, 12)]),
                series("Black Knight", &[(1, 10), (2, -4), (3, 3)]),
            ],
        );
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert!(svg.contains(">Amazon: 12<") && svg.contains(">Black Knight: 3<"));
        assert!(svg.contains("viewBox"), "the picture scales");
        assert!(
            svg.contains("stroke-dasharray=\"2 3\""),
            "a zero line for negative values"
        );
        // The highest value sits at the top of the plot, the lowest at the bottom.
        assert!(svg.contains(&format!(",{PLOT_TOP:.1}")));
        assert!(svg.contains(&format!(",{PLOT_BOTTOM:.1}")));
    }

    #[test]
    fn one_day_draws_points_and_names_are_escaped() {
        let svg = line_chart("Gold & glory", &[series("<Elf>", &[(4, 7)])]);
        assert!(svg.contains("<circle"));
        assert!(svg.contains("Gold &amp; glory") && svg.contains("&lt;Elf&gt;: 7"));
        assert!(!svg.contains("<Elf>"));
    }

    #[test]
    fn series_past_the_palette_are_dashed() {
        let many: Vec<Series> = (0..10)
            .map(|i| series(&format!("C{i}"), &[(1, i), (2, i + 1)]))
            .collect();
        let svg = line_chart("Notoriety", &many);
        assert_eq!(
            svg.matches("stroke-dasharray=\"6 3\"").count(),
            4,
            "2 lines, 2 legend keys"
        );
    }
}
