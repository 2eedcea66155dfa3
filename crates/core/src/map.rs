//! The topic map at run time: a region drawn on it (kept in the URL as
//! `map=x0,y0,x1,y1`, thousandths of the map's width and height), the
//! papers inside it, and the words that say what it is about.

use crate::engine::Engine;

/// A rectangle on the map, in thousandths (0 to 1000), `x0 < x1`, `y0 < y1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Region {
    pub x0: u16,
    pub y0: u16,
    pub x1: u16,
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
    /// The papers whose place on the map is inside `region`.
    pub fn region_docs(&self, region: Region) -> Vec<u32> {
        self.corpus
            .papers
            .iter()
            .enumerate()
            .filter(|(_, p)| region.contains(p.map))
            .map(|(d, _)| d as u32)
            .collect()
    }

    /// What a set of papers is about: the keywords most of them have and
    /// few others do (count in the set × log inverse share in the corpus).
    pub fn region_terms(&self, docs: &[u32]) -> Vec<&str> {
        let n = self.len() as f32;
        let mut count = vec![0u32; self.corpus.similar_terms.len()];
        for &d in docs {
            if let Some(p) = self.corpus.papers.get(d as usize) {
                for &k in &p.keywords {
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
                let df = self.keyword_df[t].max(1) as f32;
                (t as u32, c as f32 * (1.0 + n / df).ln())
            })
            .collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        scored
            .into_iter()
            .take(REGION_TERMS)
            .map(|(t, _)| self.corpus.similar_terms[t as usize].as_str())
            .collect()
    }
}

#[cfg(test)]
mod tests {
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
