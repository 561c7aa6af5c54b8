//! An SVG picture of the map, for the GM and the players to find their way.
//!
//! Tiles are drawn as flat-topped hexes tinted by group, with their name.
//! The reference gives no positions for clearings inside a tile, so realmgm
//! lays them out itself, for readability rather than likeness to the printed
//! tiles: a clearing with roads to tile edges sits halfway toward those
//! edges; the others sit near the clearings they connect to, on a fixed grid
//! of spots around the tile's name that keeps circles apart. The layout turns with the tile.
//! Clearings are numbered circles coloured by type; roads are solid lines,
//! hidden paths dashed, secret passages dotted, cave tunnels broad and dark;
//! a road that ends at a tile edge with nothing beyond gets a red bar.
//!
//! [`render_view`] draws one reader's view: a player's known map shows only
//! the tiles he has explored in full (the others as bare named hexes, as
//! the map lies open on the table), the hidden paths and secret passages he
//! has discovered, and marked clearings (where he stands).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use super::{Board, ClearingId};
use crate::data::terms::TileGroup;
use crate::data::tiles::{ClearingKind, Edge, PathEnd, PathKind, Side, TileSide};

/// Hex radius (centre to corner) in SVG units.
const R: f64 = 110.0;
const SQRT3: f64 = 1.732_050_807_568_877_2;

type Point = (f64, f64);

/// The screen angle in degrees (y grows downward) of a direction.
fn angle(direction: Edge) -> f64 {
    -90.0 + 60.0 * direction.index() as f64
}

fn polar(radius: f64, degrees: f64) -> Point {
    let rad = degrees.to_radians();
    (radius * rad.cos(), radius * rad.sin())
}

fn distance(a: Point, b: Point) -> f64 {
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
}

/// Clearing spots on an unturned tile of radius 1.
fn layout(side: &TileSide) -> BTreeMap<u8, Point> {
    const CLEARANCE: f64 = 0.36;
    const TIGHT: f64 = 0.29;
    // Twelve spots on a ring; the centre, where the tile's name is written,
    // only when the ring is full.
    let mut ring: Vec<Point> = Vec::new();
    for i in 0..6 {
        ring.push(polar(0.52, -90.0 + 60.0 * f64::from(i)));
        ring.push(polar(0.6, -60.0 + 60.0 * f64::from(i)));
    }
    let centre: Point = (0.0, 0.0);
    let mut spots: BTreeMap<u8, Point> = BTreeMap::new();
    let clearance = |spots: &BTreeMap<u8, Point>, p: Point| {
        spots
            .values()
            .map(|&q| distance(p, q))
            .fold(f64::INFINITY, f64::min)
    };
    // The free ring spot nearest to `target`: roomy spots first, then
    // tight ones, then the centre, then the least crowded spot.
    let nearest_free = |spots: &BTreeMap<u8, Point>, target: Point| -> Point {
        for room in [CLEARANCE, TIGHT] {
            let nearest = ring
                .iter()
                .copied()
                .filter(|&s| clearance(spots, s) >= room)
                .min_by(|a, b| distance(*a, target).total_cmp(&distance(*b, target)));
            if let Some(spot) = nearest {
                return spot;
            }
        }
        if clearance(spots, centre) >= CLEARANCE {
            return centre;
        }
        ring.iter()
            .copied()
            .max_by(|a, b| clearance(spots, *a).total_cmp(&clearance(spots, *b)))
            .unwrap_or(centre)
    };
    // Clearings with roads leaving the tile, toward those edges.
    for clearing in &side.clearings {
        let edges: Vec<Edge> = side
            .paths
            .iter()
            .filter_map(|p| match p.to {
                PathEnd::Edge(edge) if p.from == clearing.number => Some(edge),
                _ => None,
            })
            .collect();
        if edges.is_empty() {
            continue;
        }
        let sum = edges.iter().fold((0.0, 0.0), |acc, &e| {
            let v = polar(1.0, angle(e));
            (acc.0 + v.0, acc.1 + v.1)
        });
        let length = distance(sum, (0.0, 0.0));
        let wanted = if length < 1e-6 {
            (0.0, 0.0)
        } else {
            (0.5 * sum.0 / length, 0.5 * sum.1 / length)
        };
        let spot = nearest_free(&spots, wanted);
        spots.insert(clearing.number, spot);
    }
    // The rest, each near the clearings it already links to.
    while let Some(next) = side
        .clearings
        .iter()
        .filter(|c| !spots.contains_key(&c.number))
        .max_by_key(|c| {
            (
                linked(side, c.number, &spots).len(),
                std::cmp::Reverse(c.number),
            )
        })
    {
        let near = linked(side, next.number, &spots);
        let target = if near.is_empty() {
            (0.0, 0.0)
        } else {
            let n = near.len() as f64;
            (
                near.iter().map(|p| p.0).sum::<f64>() / n,
                near.iter().map(|p| p.1).sum::<f64>() / n,
            )
        };
        let spot = nearest_free(&spots, target);
        spots.insert(next.number, spot);
    }
    spots
}

/// Spots of the already placed clearings that `number` has a path to.
fn linked(side: &TileSide, number: u8, spots: &BTreeMap<u8, Point>) -> Vec<Point> {
    side.paths
        .iter()
        .filter_map(|p| match p.to {
            PathEnd::Clearing(to) if p.from == number => spots.get(&to).copied(),
            PathEnd::Clearing(to) if to == number => spots.get(&p.from).copied(),
            _ => None,
        })
        .collect()
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn path_style(kind: PathKind) -> &'static str {
    match kind {
        PathKind::Normal => r##"stroke="#7a5230" stroke-width="4""##,
        PathKind::Hidden => r##"stroke="#7a5230" stroke-width="3" stroke-dasharray="11 7""##,
        PathKind::Secret => {
            r##"stroke="#7a5230" stroke-width="4" stroke-dasharray="1 7" stroke-linecap="round""##
        }
        PathKind::Cave => r##"stroke="#3b3b3b" stroke-width="9" stroke-opacity="0.7""##,
    }
}

fn clearing_fill(kind: ClearingKind) -> (&'static str, &'static str) {
    match kind {
        ClearingKind::Normal => ("#f7f0d8", "#222"),
        ClearingKind::Woods => ("#5d9c48", "#fff"),
        ClearingKind::Mountain => ("#a9825a", "#fff"),
        ClearingKind::Cave => ("#444", "#fff"),
    }
}

fn tile_fill(group: TileGroup) -> &'static str {
    match group {
        TileGroup::Valley => "#eef3cf",
        TileGroup::Woods => "#d3e6c4",
        TileGroup::Mountain => "#ebdfcc",
        TileGroup::Cave => "#dcd6e6",
    }
}

/// What one picture of the map shows.
#[derive(Clone, Debug, Default)]
pub struct MapView<'a> {
    /// Tiles drawn with their clearings and roads; `None`: every tile.
    pub explored: Option<&'a BTreeSet<String>>,
    /// Hidden paths and secret passages drawn, as (lower, higher)
    /// clearings; `None`: all of them.
    pub known_routes: Option<&'a BTreeSet<(ClearingId, ClearingId)>>,
    /// Clearings ringed and labelled (a character's position); several in
    /// one clearing share the ring, their labels stacked above it.
    pub marks: Vec<(ClearingId, String)>,
    /// Small notes stacked below a clearing: the dwellings, sites and
    /// denizens the reader knows to be there.
    pub notes: Vec<(ClearingId, String)>,
}

impl MapView<'_> {
    fn shows_tile(&self, code: &str) -> bool {
        self.explored.is_none_or(|tiles| tiles.contains(code))
    }

    /// Whether the hidden route from `a` to `b` (nowhere: `None`) is drawn.
    pub fn knows(&self, a: &ClearingId, b: Option<&ClearingId>) -> bool {
        self.known_routes.is_none_or(|routes| {
            b.is_some_and(|b| {
                let pair = if a <= b {
                    (a.clone(), b.clone())
                } else {
                    (b.clone(), a.clone())
                };
                routes.contains(&pair)
            })
        })
    }
}

/// The whole map as an SVG document.
pub fn render(board: &Board) -> String {
    render_view(board, &MapView::default())
}

/// The map as one reader sees it (see [`MapView`]).
pub fn render_view(board: &Board, view: &MapView<'_>) -> String {
    let centre = |q: i32, r: i32| {
        (
            1.5 * R * f64::from(q),
            SQRT3 * R * (f64::from(r) + f64::from(q) / 2.0),
        )
    };
    let centres: Vec<Point> = board.placements().map(|p| centre(p.at.q, p.at.r)).collect();
    let min_x = centres.iter().map(|c| c.0).fold(0.0, f64::min) - R - 10.0;
    let max_x = centres.iter().map(|c| c.0).fold(0.0, f64::max) + R + 10.0;
    let min_y = centres.iter().map(|c| c.1).fold(0.0, f64::min) - R - 10.0;
    let max_y = centres.iter().map(|c| c.1).fold(0.0, f64::max) + R + 10.0;
    let legend_height = 70.0;
    let (width, height) = (max_x - min_x, max_y - min_y + legend_height);

    let mut hexes = String::new();
    let mut paths = String::new();
    let mut circles = String::new();
    let mut labels = String::new();
    let mut marks = String::new();
    for (placed, &(cx, cy)) in board.placed.iter().zip(&centres) {
        let p = &placed.placement;
        let side = placed.tile.side(p.side);
        let turn = 60.0 * f64::from(p.rotation);
        let corners: Vec<String> = (0..6)
            .map(|i| {
                let (x, y) = polar(R, 60.0 * f64::from(i));
                format!("{:.1},{:.1}", cx + x, cy + y)
            })
            .collect();
        let explored = view.shows_tile(&p.tile);
        let _ = writeln!(
            hexes,
            r##"<polygon points="{}" fill="{}" stroke="#555" stroke-width="2"/>"##,
            corners.join(" "),
            if explored {
                tile_fill(placed.tile.group)
            } else {
                UNEXPLORED_FILL
            }
        );
        let spots: BTreeMap<u8, Point> = layout(side)
            .into_iter()
            .map(|(n, (x, y))| {
                let (dist, deg) = (distance((x, y), (0.0, 0.0)), y.atan2(x).to_degrees());
                let (x, y) = polar(dist * R, deg + turn);
                (n, (cx + x, cy + y))
            })
            .collect();
        if explored {
            for (n, &(x, y)) in &spots {
                let here = |list: &'_ [(ClearingId, String)]| -> Vec<String> {
                    list.iter()
                        .filter(|(id, _)| id.tile == p.tile && id.clearing == *n)
                        .map(|(_, label)| label.clone())
                        .collect()
                };
                let labels = here(&view.marks);
                if !labels.is_empty() {
                    let id = ClearingId::new(&p.tile, *n);
                    let _ = writeln!(
                        marks,
                        r##"<circle cx="{x:.1}" cy="{y:.1}" r="22" fill="none" stroke="#c0392b" stroke-width="4" data-mark="{id}"/>"##
                    );
                    // Stacked upwards, one line each, so names never overlap.
                    for (i, label) in labels.iter().enumerate() {
                        let _ = writeln!(
                            marks,
                            r##"<text x="{x:.1}" y="{:.1}" font-size="13" font-weight="bold" text-anchor="middle" fill="#c0392b" stroke="#fff" stroke-width="3" paint-order="stroke">{}</text>"##,
                            y - 26.0 - 15.0 * i as f64,
                            escape(label)
                        );
                    }
                }
                for (i, note) in here(&view.notes).iter().enumerate() {
                    let _ = writeln!(
                        marks,
                        r##"<text x="{x:.1}" y="{:.1}" font-size="10" text-anchor="middle" fill="#222" stroke="#fff" stroke-width="3" paint-order="stroke" data-note="{}">{}</text>"##,
                        y + 33.0 + 11.0 * i as f64,
                        escape(note),
                        escape(note)
                    );
                }
            }
        }
        for path in side.paths.iter().filter(|_| explored) {
            let Some(&from) = spots.get(&path.from) else {
                continue;
            };
            let from_id = ClearingId::new(&p.tile, path.from);
            let route = match path.to {
                PathEnd::Clearing(n) => Some(ClearingId::new(&p.tile, n)),
                PathEnd::Edge(edge) => beyond(board, &from_id, p.facing(edge)),
            };
            let secret = matches!(path.kind, PathKind::Hidden | PathKind::Secret);
            if secret && !view.knows(&from_id, route.as_ref()) {
                continue;
            }
            let data = match (&route, secret) {
                (Some(to), true) => format!(r#" data-route="{from_id}-{to}""#),
                _ => String::new(),
            };
            let to = match path.to {
                PathEnd::Clearing(n) => spots.get(&n).copied(),
                PathEnd::Edge(edge) => {
                    let (x, y) = polar(R * SQRT3 / 2.0, angle(p.facing(edge)));
                    Some((cx + x, cy + y))
                }
            };
            let Some(to) = to else { continue };
            let _ = writeln!(
                paths,
                r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" {}{data}/>"#,
                from.0,
                from.1,
                to.0,
                to.1,
                path_style(path.kind)
            );
        }
        for clearing in side.clearings.iter().filter(|_| explored) {
            let Some(&(x, y)) = spots.get(&clearing.number) else {
                continue;
            };
            let (fill, ink) = clearing_fill(clearing.kind);
            let _ = writeln!(
                circles,
                r##"<circle cx="{x:.1}" cy="{y:.1}" r="15" fill="{fill}" stroke="#222" stroke-width="2"/><text x="{x:.1}" y="{:.1}" font-size="17" font-weight="bold" text-anchor="middle" fill="{ink}">{}</text>"##,
                y + 6.0,
                clearing.number
            );
        }
        let enchanted = if p.side == Side::Enchanted {
            " (enchanted)"
        } else {
            ""
        };
        let _ = writeln!(
            labels,
            r##"<text x="{cx:.1}" y="{:.1}" font-size="13" font-weight="bold" text-anchor="middle" fill="#333" stroke="#fff" stroke-width="3" paint-order="stroke">{}<tspan x="{cx:.1}" dy="14" font-size="12">{}{enchanted}</tspan></text>"##,
            cy - 2.0,
            escape(&placed.tile.name),
            escape(&placed.tile.code)
        );
    }
    for end in board.dead_ends() {
        let Some(p) = board.placement_of(&end.from.tile) else {
            continue;
        };
        if !view.shows_tile(&p.tile) {
            continue;
        }
        let (cx, cy) = centre(p.at.q, p.at.r);
        let (mx, my) = polar(R * SQRT3 / 2.0, angle(end.toward));
        let (ax, ay) = polar(9.0, angle(end.toward) + 90.0);
        let _ = writeln!(
            paths,
            r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#c0392b" stroke-width="5"/>"##,
            cx + mx - ax,
            cy + my - ay,
            cx + mx + ax,
            cy + my + ay
        );
    }
    let legend = legend(min_x + 10.0, max_y + 10.0);
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="{min_x:.1} {min_y:.1} {width:.1} {height:.1}" width="{width:.0}" height="{height:.0}" font-family="sans-serif">
<rect x="{min_x:.1}" y="{min_y:.1}" width="{width:.1}" height="{height:.1}" fill="#ffffff"/>
{hexes}{paths}{circles}{labels}{marks}{legend}</svg>
"##
    )
}

/// The fill of a tile the reader has not explored.
const UNEXPLORED_FILL: &str = "#e4e4e4";

/// The clearing a road leaving `from` toward map direction `direction`
/// reaches on the next tile, if any.
fn beyond(board: &Board, from: &ClearingId, direction: Edge) -> Option<ClearingId> {
    board
        .neighbours(from)
        .into_iter()
        .find(|link| link.across == Some(direction))
        .map(|link| link.to)
}

/// A key to the line styles and clearing colours.
fn legend(x: f64, y: f64) -> String {
    let mut out = String::new();
    let lines = [
        (PathKind::Normal, "road"),
        (PathKind::Hidden, "hidden path"),
        (PathKind::Secret, "secret passage"),
        (PathKind::Cave, "cave tunnel"),
    ];
    for (i, (kind, label)) in lines.iter().enumerate() {
        let lx = x + 170.0 * i as f64;
        let _ = writeln!(
            out,
            r#"<line x1="{lx:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" {}/><text x="{:.1}" y="{:.1}" font-size="14">{label}</text>"#,
            y + 15.0,
            lx + 40.0,
            y + 15.0,
            path_style(*kind),
            lx + 48.0,
            y + 20.0
        );
    }
    let kinds = [
        (ClearingKind::Normal, "normal clearing"),
        (ClearingKind::Woods, "woods clearing"),
        (ClearingKind::Mountain, "mountain clearing"),
        (ClearingKind::Cave, "cave clearing"),
    ];
    for (i, (kind, label)) in kinds.iter().enumerate() {
        let lx = x + 170.0 * i as f64;
        let (fill, _) = clearing_fill(*kind);
        let _ = writeln!(
            out,
            r##"<circle cx="{:.1}" cy="{:.1}" r="9" fill="{fill}" stroke="#222" stroke-width="2"/><text x="{:.1}" y="{:.1}" font-size="14">{label}</text>"##,
            lx + 10.0,
            y + 45.0,
            lx + 26.0,
            y + 50.0
        );
    }
    let _ = writeln!(
        out,
        r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#c0392b" stroke-width="5"/><text x="{:.1}" y="{:.1}" font-size="14">road leads nowhere</text>"##,
        x + 680.0,
        y + 8.0,
        x + 680.0,
        y + 24.0,
        x + 690.0,
        y + 20.0
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::generate::generate;
    use crate::board::tests::tiles;
    use realmgm_core::dice::Dice;

    #[test]
    fn every_tile_and_clearing_is_drawn() {
        let board = generate(tiles(), &mut Dice::new(7, 0));
        let svg = render(&board);
        assert!(svg.starts_with("<svg"));
        assert_eq!(svg.matches("<polygon").count(), 20);
        assert_eq!(svg.matches("<circle").count(), board.clearings().len() + 4);
        assert!(svg.contains(">Borderland<"));
        assert_eq!(svg, render(&board), "the picture is deterministic");
    }

    #[test]
    fn clearings_do_not_overlap_on_any_tile() {
        for tile in tiles().all() {
            for side in [&tile.normal, &tile.enchanted] {
                let spots: Vec<Point> = layout(side).into_values().collect();
                assert_eq!(spots.len(), side.clearings.len(), "{}", tile.name);
                for (i, a) in spots.iter().enumerate() {
                    for b in &spots[..i] {
                        assert!(distance(*a, *b) > 0.3, "{}: clearings too close", tile.name);
                    }
                }
            }
        }
    }
}
