//! The analysis as one HTML page with SVG charts (`--out`):
//! for the main measures, each character's mean under A and under B as
//! bars with their 95% intervals as whiskers, and the whole table below.
//! One self-contained file, readable in any browser, no scripts.

use std::fmt::Write;

use super::stats::{fixed, three};
use super::{ALL, Analysis, Row};
use crate::site::capitalised;
use crate::site::charts::escape;

/// The measures charted, in order.
const CHARTED: [&str; 7] = [
    "victory points",
    "deaths",
    "natives killed",
    "monsters killed",
    "fame",
    "notoriety",
    "gold",
];

const A_COLOUR: &str = "#1f77b4";
const B_COLOUR: &str = "#d62728";

/// The page of `analysis`.
pub fn html(analysis: &Analysis) -> String {
    let mut out = String::from(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>realmgm analysis</title>\n<style>\n\
         body { font-family: sans-serif; max-width: 70em; margin: 0 auto; padding: 0 1em 2em; color: #222; }\n\
         svg { max-width: 100%; height: auto; }\n\
         table { border-collapse: collapse; font-size: .9em; }\n\
         td, th { border: 1px solid #ccc; padding: .15em .5em; text-align: right; }\n\
         td:first-child, th:first-child, td:nth-child(2) { text-align: left; }\n\
         .sig { font-weight: bold; background: #fff3c4; }\n\
         .charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(28em, 1fr)); gap: 1em; }\n\
         </style>\n</head>\n<body>\n",
    );
    let _ = writeln!(out, "<h1>What the rules change</h1>");
    let _ = writeln!(
        out,
        "<p>{} months played by the planning bot (seeds {} on), characters: {}.</p>",
        analysis.months,
        analysis.seed,
        escape(&analysis.characters.join(", "))
    );
    let _ = writeln!(
        out,
        "<p><span style=\"color:{A_COLOUR}\">■</span> A: {}{}</p>",
        escape(&analysis.a),
        analysis.b.as_ref().map_or_else(String::new, |b| format!(
            "<br><span style=\"color:{B_COLOUR}\">■</span> B: {}",
            escape(b)
        ))
    );
    if let Some(failure) = &analysis.failure {
        let _ = writeln!(
            out,
            "<p><strong>A month failed:</strong> {}</p>",
            escape(failure)
        );
    }
    out.push_str("<div class=\"charts\">\n");
    for measure in CHARTED {
        let rows: Vec<&Row> = analysis
            .measures
            .iter()
            .filter(|r| r.measure == measure && r.scope != ALL)
            .collect();
        out.push_str(&bar_chart(measure, &rows));
    }
    out.push_str("</div>\n<h2>Every measure, per month</h2>\n<table>\n");
    out.push_str(
        "<tr><th>Scope</th><th>Measure</th><th>A</th><th>A 95%</th><th>B</th><th>B 95%</th>\
         <th>B − A</th><th>B − A 95%</th></tr>\n",
    );
    for row in analysis.measures.iter().chain(&analysis.events) {
        // With the months it is made of, when some months lack the measure.
        let interval = |e: &super::stats::Estimate| {
            let mut cell = match (e.low, e.high) {
                (Some(l), Some(h)) => format!("{} – {}", three(l), three(h)),
                _ => String::new(),
            };
            if e.n < analysis.months {
                let _ = write!(cell, " ({} of {} months)", e.n, analysis.months);
            }
            cell
        };
        let b = row.b.as_ref();
        let d = row.difference.as_ref();
        let _ = writeln!(
            out,
            "<tr{}><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            if row.significant {
                " class=\"sig\""
            } else {
                ""
            },
            escape(&row.scope),
            escape(&row.measure),
            three(row.a.mean),
            interval(&row.a),
            b.map_or_else(String::new, |b| three(b.mean)),
            b.map_or_else(String::new, interval),
            d.map_or_else(String::new, |d| three(d.mean)),
            d.map_or_else(String::new, interval),
        );
    }
    out.push_str("</table>\n</body>\n</html>\n");
    out
}

/// Bars of `measure` per character, A beside B, whiskers for the intervals.
fn bar_chart(measure: &str, rows: &[&Row]) -> String {
    const WIDTH: f64 = 560.0;
    const LEFT: f64 = 110.0;
    const BAR: f64 = 9.0;
    let group = BAR * 2.0 + 8.0;
    #[allow(clippy::cast_precision_loss)] // a few characters
    let height = 52.0 + group * rows.len() as f64;
    let ends = rows.iter().flat_map(|r| {
        let estimates = [Some(&r.a), r.b.as_ref()];
        estimates
            .into_iter()
            .flatten()
            .flat_map(|e| [e.mean, e.low.unwrap_or(e.mean), e.high.unwrap_or(e.mean)])
            .collect::<Vec<_>>()
    });
    // The scale always holds 0, where every bar starts; a count's intervals
    // never go below it, so its scale starts there.
    let (low, high) = ends.fold((0.0_f64, 0.0_f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let high = if (high - low).abs() < f64::EPSILON {
        low + 1.0
    } else {
        high
    };
    let x = |v: f64| LEFT + (v - low) / (high - low) * (WIDTH - LEFT - 20.0);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {WIDTH} {height}\" width=\"{WIDTH}\" height=\"{height}\" font-size=\"11\" role=\"img\" aria-label=\"{m}\">\n\
         <text x=\"4\" y=\"16\" font-size=\"14\" font-weight=\"bold\">{m} per month</text>\n\
         <path d=\"M{zero:.1} 24V{bottom:.1}\" stroke=\"#888\"/>\n",
        m = escape(&capitalised(measure)),
        zero = x(0.0),
        bottom = height - 6.0
    );
    // The scale: the lowest and highest value the bars and whiskers reach.
    for value in [low, high] {
        let _ = writeln!(
            svg,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"#555\">{}</text>",
            x(value),
            height - 2.0,
            short(value)
        );
    }
    for (i, row) in rows.iter().enumerate() {
        #[allow(clippy::cast_precision_loss)]
        let top = 28.0 + group * i as f64;
        let _ = writeln!(
            svg,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            LEFT - 6.0,
            top + BAR + 3.0,
            escape(&row.scope)
        );
        let bars = [(Some(&row.a), A_COLOUR), (row.b.as_ref(), B_COLOUR)];
        for (j, (estimate, colour)) in bars.into_iter().enumerate() {
            let Some(e) = estimate else { continue };
            #[allow(clippy::cast_precision_loss)]
            let y = top + BAR * j as f64;
            let (from, to) = (x(0.0).min(x(e.mean)), x(0.0).max(x(e.mean)));
            let _ = writeln!(
                svg,
                "<rect x=\"{from:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{colour}\" opacity=\"0.8\"><title>{}</title></rect>",
                (to - from).max(0.5),
                BAR - 1.0,
                three(e.mean)
            );
            if let (Some(l), Some(h)) = (e.low, e.high) {
                let _ = writeln!(
                    svg,
                    "<path d=\"M{:.1} {:.1}H{:.1}\" stroke=\"#222\"/>",
                    x(l),
                    y + BAR / 2.0,
                    x(h)
                );
            }
        }
    }
    svg.push_str("</svg>\n");
    svg
}

/// A value as the chart's scale writes it: whole numbers bare, others to
/// two decimals, a zero without a sign.
fn short(value: f64) -> String {
    if (value - value.round()).abs() < 1e-9 {
        fixed(value, 0)
    } else {
        fixed(value, 2)
    }
}
