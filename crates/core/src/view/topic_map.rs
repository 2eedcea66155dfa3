//! The topic map: where each paper is placed (at build time, `build::topic_map`),
//! and at run time how dots are drawn and coloured, a region brushed on it
//! (kept in the URL as `map=x0,y0,x1,y1`, thousandths of the map's width
//! and height), the papers inside it, and the words that say what it is
//! about. The component that draws it only binds these to the page.

use crate::model::map_part::MapData;
use crate::model::{Corpus, DecodeError};
use crate::search::engine::Engine;

/// A rectangle on the map, in thousandths (0 to 1000), `x0 < x1`, `y0 < y1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Region {
    /// Left edge.
    pub x0: u16,
    /// Top edge.
    pub y0: u16,
    /// Right edge.
    pub x1: u16,
    /// Bottom edge.
    pub y1: u16,
}

/// Thousandths across the map.
pub const SCALE: u16 = 1000;

impl Region {
    /// A region from two corners in any order, clamped to the map; `None`
    /// when it has no area.
    pub fn from_corners(a: (f64, f64), b: (f64, f64)) -> Option<Region> {
        let c = |v: f64| (v.clamp(0.0, 1.0) * f64::from(SCALE)).round() as u16;
        let (x0, x1) = (c(a.0.min(b.0)), c(a.0.max(b.0)));
        let (y0, y1) = (c(a.1.min(b.1)), c(a.1.max(b.1)));
        (x0 < x1 && y0 < y1).then_some(Region { x0, y0, x1, y1 })
    }

    /// Reads `x0,y0,x1,y1`; anything else (or an empty area) is `None`.
    pub fn parse(s: &str) -> Option<Region> {
        let mut it = s.split(',').map(|p| p.trim().parse::<u16>().ok());
        let (x0, y0, x1, y1) = (it.next()??, it.next()??, it.next()??, it.next()??);
        if it.next().is_some() || x1 > SCALE || y1 > SCALE || x0 >= x1 || y0 >= y1 {
            return None;
        }
        Some(Region { x0, y0, x1, y1 })
    }

    /// The region as its URL parameter (`x0,y0,x1,y1`).
    pub fn to_param(self) -> String {
        format!("{},{},{},{}", self.x0, self.y0, self.x1, self.y1)
    }

    /// Whether a paper's place (0..=65535 each way) is inside.
    pub fn contains(self, place: [u16; 2]) -> bool {
        let at = |v: u16| u32::from(v) * u32::from(SCALE);
        let inside = |v: u16, lo: u16, hi: u16| {
            (u32::from(lo) * u32::from(u16::MAX)..=u32::from(hi) * u32::from(u16::MAX))
                .contains(&at(v))
        };
        inside(place[0], self.x0, self.x1) && inside(place[1], self.y0, self.y1)
    }
}

/// How many words describe a region.
pub const REGION_TERMS: usize = 5;

impl Engine {
    /// Whether the papers' places are in: always, but for a long list's
    /// before its map's file came ([`Engine::add_map_part`]).
    pub fn has_map(&self) -> bool {
        self.map.get().is_some()
    }

    /// The map's file while it is not in: its name (beside the papers
    /// part) and its size in bytes.
    pub fn map_file(&self) -> Option<(String, usize)> {
        let r = self.corpus.map_part.filter(|_| !self.has_map())?;
        Some((crate::model::map_part_file_name(r.hash), r.len as usize))
    }

    /// Adds the map's file, fetched: checked against its hash and the
    /// corpus before any of it is used. A map already in is left as it is.
    pub fn add_map_part(&self, bytes: &[u8]) -> Result<(), DecodeError> {
        if self.has_map() {
            return Ok(());
        }
        let part = self.corpus.decode_map_part(bytes)?;
        let _ = self.map.set(MapData::new(part));
        Ok(())
    }

    /// Paper `doc`'s place on the map (0..=65535 each way), once the map
    /// is in.
    pub fn place(&self, doc: u32) -> Option<[u16; 2]> {
        self.map.get()?.part.places.get(doc as usize).copied()
    }

    /// The papers whose place on the map is inside `region` (none before
    /// the map is in).
    pub fn region_docs(&self, region: Region) -> Vec<u32> {
        self.map.get().map_or_else(Vec::new, |m| {
            m.part
                .places
                .iter()
                .enumerate()
                .filter(|&(_, &place)| region.contains(place))
                .map(|(d, _)| d as u32)
                .collect()
        })
    }

    /// What a set of papers is about: the keywords most of them have and
    /// few others do (count in the set × log inverse share in the corpus).
    pub fn region_terms(&self, docs: &[u32]) -> Vec<&str> {
        let Some(map) = self.map.get() else {
            return Vec::new();
        };
        let n = self.len() as f32;
        let mut count = vec![0u32; map.part.terms.len()];
        for &d in docs {
            if let Some(keywords) = map.part.keywords.get(d as usize) {
                for &k in keywords {
                    if let Some(c) = count.get_mut(k as usize) {
                        *c += 1;
                    }
                }
            }
        }
        // A word of a single paper describes that paper, not a region.
        let min = if docs.len() >= 4 { 2 } else { 1 };
        let mut scored: Vec<(u32, f32)> = count
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c >= min)
            .map(|(t, &c)| {
                let df = map.keyword_df[t].max(1) as f32;
                (t as u32, c as f32 * crate::model::math::ln(1.0 + n / df))
            })
            .collect();
        scored.sort_unstable_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        scored
            .into_iter()
            .take(REGION_TERMS)
            .map(|(t, _)| map.part.terms[t as usize].as_str())
            .collect()
    }
}

/// The map's drawing units: a square this many across.
pub const SIZE: f64 = 1000.0;
/// A drag smaller than this share of the map is a click, not a region.
pub const MIN_DRAG: f64 = 0.015;
/// A facet colours the map when it has this many values (more cannot be
/// told apart, fewer say nothing).
pub const COLOURABLE: std::ops::RangeInclusive<usize> = 2..=40;

/// A paper's dot centre in drawing units, from its place (0..=65535 each way).
pub fn dot_centre(place: [u16; 2]) -> (f64, f64) {
    let at = |v: u16| f64::from(v) / f64::from(u16::MAX) * SIZE;
    (at(place[0]), at(place[1]))
}

/// Dots as large as a crowd allows: 14 units of 1,000 for a list of fifty
/// papers, 4 for twenty thousand (never under 3).
pub fn dot_radius(papers: usize) -> f64 {
    (600.0 / (papers.max(1) as f64).sqrt()).clamp(3.0, 14.0)
}

/// A drawing coordinate as SVG text, to a tenth of a unit (of 1,000 across
/// the map): written with integers, so that the WebAssembly carries no
/// float formatting (about 12 KB of it).
pub fn tenths(v: f64) -> String {
    let t = (v * 10.0).round() as i64;
    let sign = if t < 0 { "-" } else { "" };
    format!("{sign}{}.{}", t.abs() / 10, t.abs() % 10)
}

/// A rectangle in drawing units: x, y, width, height.
pub type Rect = (f64, f64, f64, f64);

/// The box between two corners given as shares of the map (any order).
pub fn brush_box(a: (f64, f64), b: (f64, f64)) -> Rect {
    (
        a.0.min(b.0) * SIZE,
        a.1.min(b.1) * SIZE,
        (a.0 - b.0).abs() * SIZE,
        (a.1 - b.1).abs() * SIZE,
    )
}

/// Whether a drag from `a` to `b` (shares of the map) draws a region
/// rather than being a click: at least [`MIN_DRAG`] both ways.
pub fn is_brush(a: (f64, f64), b: (f64, f64)) -> bool {
    (a.0 - b.0).abs() >= MIN_DRAG && (a.1 - b.1).abs() >= MIN_DRAG
}

impl Region {
    /// The region's box in drawing units.
    pub fn rect(self) -> Rect {
        let s = |v: u16| f64::from(v) / f64::from(SCALE);
        brush_box((s(self.x0), s(self.y0)), (s(self.x1), s(self.y1)))
    }
}

/// The facets the map can be coloured by ([`COLOURABLE`]), and the one it
/// starts with: the topics when they can, else the first.
pub fn colour_facets(corpus: &Corpus) -> (Vec<usize>, Option<usize>) {
    let facets: Vec<usize> = corpus
        .facets
        .iter()
        .enumerate()
        .filter(|(_, f)| COLOURABLE.contains(&f.values.len()))
        .map(|(i, _)| i)
        .collect();
    let first = corpus
        .facet_index(crate::model::facet::FacetKind::Topic)
        .filter(|f| facets.contains(f))
        .or(facets.first().copied());
    (facets, first)
}

/// The map coloured by one facet: its `colours` most common values get a
/// colour each (0 the most common), the rest are "other".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Colouring {
    /// Per paper, its colour: that of its least common coloured value (the
    /// most telling), or `None` for other.
    pub per_paper: Vec<Option<u8>>,
    /// Per colour, in order, the facet value it stands for.
    pub legend: Vec<u32>,
}

impl Engine {
    /// The map coloured by facet `facet` with `colours` colours.
    pub fn colouring(&self, facet: usize, colours: usize) -> Colouring {
        let totals = self.facet_totals(facet);
        let mut ranked: Vec<u32> = (0..totals.len() as u32).collect();
        ranked
            .sort_unstable_by(|&a, &b| totals[b as usize].cmp(&totals[a as usize]).then(a.cmp(&b)));
        ranked.truncate(colours.min(usize::from(u8::MAX)));
        // Each paper takes the colour of its least common coloured value
        // (the first colour on a tie). Before the tags are in, none.
        let docs = self.tagging().facet_docs.get(facet);
        let mut best: Vec<Option<(u32, u8)>> = vec![None; self.len()];
        for (c, &v) in ranked.iter().enumerate() {
            let key = (totals[v as usize], c as u8);
            for &d in docs
                .and_then(|vs| vs.get(v as usize))
                .map_or(&[][..], Vec::as_slice)
            {
                let slot = &mut best[d as usize];
                if slot.is_none_or(|b| key < b) {
                    *slot = Some(key);
                }
            }
        }
        let per_paper = best.into_iter().map(|b| b.map(|(_, c)| c)).collect();
        Colouring {
            per_paper,
            legend: ranked,
        }
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn coordinates_are_written_to_a_tenth() {
        assert_eq!(tenths(0.0), "0.0");
        assert_eq!(tenths(12.34), "12.3");
        assert_eq!(tenths(999.96), "1000.0");
        assert_eq!(tenths(14.0), "14.0");
        assert_eq!(tenths(-3.25), "-3.3");
        assert_eq!(tenths(-0.04), "0.0");
    }

    use super::*;

    #[test]
    fn regions_round_trip_and_refuse_garbage() {
        let r = Region::parse("100,200,300,400").unwrap();
        assert_eq!(Region::parse(&r.to_param()), Some(r));
        for bad in [
            "",
            "1,2,3",
            "1,2,3,4,5",
            "3,2,1,4",
            "1,4,3,2",
            "0,0,1001,5",
            "a,b,c,d",
            "-1,0,5,5",
            "5,5,5,5",
            "1,,3,4",
            "99999999999,0,1,1",
        ] {
            assert_eq!(Region::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn corners_in_any_order_make_one_region() {
        let a = Region::from_corners((0.9, 0.1), (0.2, 0.6)).unwrap();
        assert_eq!(a, Region::from_corners((0.2, 0.6), (0.9, 0.1)).unwrap());
        assert_eq!(a.to_param(), "200,100,900,600");
        assert_eq!(Region::from_corners((0.5, 0.5), (0.5, 0.9)), None);
        assert_eq!(
            Region::from_corners((-3.0, -1.0), (7.0, 2.0))
                .unwrap()
                .to_param(),
            "0,0,1000,1000"
        );
    }

    #[test]
    fn a_brush_is_a_drag_both_ways_and_boxes_either_direction() {
        assert!(!is_brush((0.5, 0.5), (0.51, 0.9)), "too narrow: a click");
        assert!(!is_brush((0.5, 0.5), (0.9, 0.505)), "too flat: a click");
        assert!(is_brush((0.5, 0.5), (0.4, 0.4)));
        assert_eq!(
            brush_box((0.625, 0.25), (0.125, 0.75)),
            (125.0, 250.0, 500.0, 500.0)
        );
        assert_eq!(
            brush_box((0.1, 0.7), (0.6, 0.2)),
            brush_box((0.6, 0.2), (0.1, 0.7))
        );
        let r = Region::parse("250,0,750,1000").unwrap();
        assert_eq!(r.rect(), (250.0, 0.0, 500.0, 1000.0));
    }

    #[test]
    fn dots_shrink_with_the_crowd_within_bounds() {
        assert_eq!(dot_radius(0), 14.0);
        assert_eq!(dot_radius(50), 14.0);
        assert!((dot_radius(20_000) - 4.24).abs() < 0.01);
        assert_eq!(dot_radius(10_000_000), 3.0);
        assert_eq!(dot_centre([0, u16::MAX]), (0.0, SIZE));
    }

    #[test]
    fn edges_are_inside() {
        let r = Region::parse("0,0,500,1000").unwrap();
        assert!(r.contains([0, 0]));
        assert!(r.contains([32767, 65535]));
        assert!(!r.contains([32768, 0]));
        assert!(Region::parse("0,0,1000,1000")
            .unwrap()
            .contains([65535, 65535]));
    }
}
