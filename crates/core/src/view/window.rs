//! The arithmetic of the windowed result list, apart from the DOM: which
//! slice of the ranked results is in the document, and how much space the
//! rest takes above and below it.

/// A slice `start..end` of the ranked results, with the height of the
/// results before it (`above`) and after it (`below`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Window {
    /// The first result in the document.
    pub start: usize,
    /// One past the last.
    pub end: usize,
    /// The height of the results before `start`.
    pub above: f64,
    /// The height of the results from `end` on.
    pub below: f64,
}

/// When the span asked for lies past the end of the list (the list got
/// shorter while the page was scrolled down), this many last results.
pub const TAIL: usize = 10;

/// The results of `n` that overlap `from..to` (in the list's own
/// coordinates, 0 at its top), at most `most` of them; `height(i)` is the
/// `i`-th result's height, measured or estimated, gap included.
pub fn window(n: usize, height: impl Fn(usize) -> f64, from: f64, to: f64, most: usize) -> Window {
    let total = (0..n).map(&height).sum();
    window_within(n, height, total, from, to, most)
}

/// [`window`] over results whose heights sum to `total`
/// ([`Heights::total`]): the results after the window are not read one
/// by one. At 100,000 results, summing their heights was most of laying
/// out a keystroke's window.
pub fn window_within(
    n: usize,
    height: impl Fn(usize) -> f64,
    total: f64,
    from: f64,
    to: f64,
    most: usize,
) -> Window {
    let (mut i, mut y) = (0, 0.0);
    while i < n && y + height(i) <= from {
        y += height(i);
        i += 1;
    }
    if i == n {
        // Scrolled past the end: the last few results.
        let start = n.saturating_sub(TAIL);
        let last: f64 = (start..n).map(&height).sum();
        return Window {
            start,
            end: n,
            above: (total - last).max(0.0),
            below: 0.0,
        };
    }
    let (start, above) = (i, y);
    y += height(i);
    i += 1;
    while i < n && y <= to && i - start < most {
        y += height(i);
        i += 1;
    }
    Window {
        start,
        end: i,
        above,
        below: if i == n { 0.0 } else { (total - y).max(0.0) },
    }
}

impl Window {
    /// Whether the rendered slice covers `from..to` of the list, given the
    /// heights: if not, the window must move before the user sees a gap.
    pub fn covers(&self, height: impl Fn(usize) -> f64, from: f64, to: f64) -> bool {
        let bottom = self.above + (self.start..self.end).map(height).sum::<f64>();
        self.above <= from.max(0.0) && (bottom >= to || self.below == 0.0)
    }

    /// The number of results rendered.
    pub fn len(&self) -> usize {
        self.end - self.start
    }

    /// True when nothing is rendered.
    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }
}

/// How the page's first results are written when the list is short enough
/// to be whole in the page: the first [`Fill::now`] before the page's first
/// paint, the rest in the task after it (the first screen waits for
/// nothing it does not show). Keystrokes and clicks write a short list
/// whole, in their own task: a list that changed over two frames left the
/// page changing for 20–35 ms after a keystroke on a real list of 3,946
/// papers, where writing the whole list at once took about 10 ms (measured
/// with the bench's last-mutation script).
#[derive(Debug, Clone, PartialEq)]
pub struct Fill {
    /// How many results to write before the first paint: the first
    /// `at_least`, and every one that starts before `to`.
    pub now: usize,
    /// The height of the others: the list's padding until they come, so
    /// that the page is as long as it will be.
    pub later_height: f64,
}

/// Splits `n` results into those written before the page's first paint
/// and those after it (see [`Fill`]): `to` is the end of the span to fill,
/// in the list's coordinates.
pub fn fill(n: usize, height: impl Fn(usize) -> f64, to: f64, at_least: usize) -> Fill {
    let mut f = Fill {
        now: 0,
        later_height: 0.0,
    };
    let mut y = 0.0;
    for i in 0..n {
        let h = height(i);
        if i < at_least || y < to {
            f.now = i + 1;
        } else {
            f.later_height += h;
        }
        y += h;
    }
    f
}

/// Cards' measured heights by paper, and an estimate for the papers not
/// measured yet. One slot per paper: the window over 20,000 results reads
/// 20,000 heights on a keystroke, and a hash map's lookup for each was the
/// largest part of the list's own script at 20,000 papers (the bench's CPU
/// profile of the typing, `BENCH_PROFILE=1`).
#[derive(Debug, Clone)]
pub struct Heights {
    /// Per paper, its height, or 0 until measured.
    measured: Vec<f32>,
    /// The papers measured, each once.
    known: Vec<u32>,
    estimate: f64,
}

impl Heights {
    /// No paper of `papers` measured yet: each is `estimate` high.
    pub fn new(papers: usize, estimate: f64) -> Heights {
        Heights {
            measured: vec![0.0; papers],
            known: Vec::new(),
            estimate,
        }
    }

    /// The summed heights of `n` papers, those for which `among` holds:
    /// the estimate times `n`, corrected for the papers measured (a few
    /// hundred, where the results may be 100,000).
    pub fn total(&self, n: usize, among: impl Fn(u32) -> bool) -> f64 {
        let measured = self.known.iter().filter(|&&d| among(d));
        n as f64 * self.estimate + measured.map(|&d| self.of(d) - self.estimate).sum::<f64>()
    }

    /// A paper's height: measured, or the estimate.
    pub fn of(&self, doc: u32) -> f64 {
        match self.measured.get(doc as usize) {
            Some(&h) if h > 0.0 => f64::from(h),
            _ => self.estimate,
        }
    }

    /// Keeps a paper's measured height. A card not laid out (0 high, as a
    /// hidden one is) or a paper past the list leaves what was known.
    pub fn measured(&mut self, doc: u32, height: f64) {
        if let Some(slot) = self.measured.get_mut(doc as usize) {
            if height > 0.0 && height.is_finite() {
                if *slot == 0.0 {
                    self.known.push(doc);
                }
                *slot = height as f32;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: fn(usize) -> f64 = |_| 100.0;

    #[test]
    fn takes_the_results_overlapping_the_span() {
        // Results 2 (200..300) to 5 (500..600) overlap 250..520.
        let w = window(10, H, 250.0, 520.0, 50);
        assert_eq!((w.start, w.end, w.above, w.below), (2, 6, 200.0, 400.0));
        assert!(w.covers(H, 250.0, 520.0));
        assert!(!w.covers(H, 250.0, 700.0));
        assert!(!w.covers(H, 150.0, 520.0));
    }

    #[test]
    fn starts_at_the_top_and_ends_at_the_end() {
        let w = window(5, H, -900.0, 300.0, 50);
        assert_eq!((w.start, w.end, w.above, w.below), (0, 4, 0.0, 100.0));
        let w = window(5, H, 300.0, 5000.0, 50);
        assert_eq!((w.start, w.end, w.above, w.below), (3, 5, 300.0, 0.0));
        assert!(w.covers(H, 300.0, 5000.0), "nothing is left below");
    }

    #[test]
    fn a_paper_is_as_high_as_measured_or_estimated() {
        let mut h = Heights::new(3, 260.0);
        h.measured(1, 312.5);
        // Not laid out, not a number, not a paper: nothing learnt.
        h.measured(2, 0.0);
        h.measured(2, f64::NAN);
        h.measured(7, 50.0);
        assert_eq!(
            [h.of(0), h.of(1), h.of(2), h.of(7)],
            [260.0, 312.5, 260.0, 260.0]
        );
        h.measured(1, 0.0);
        assert_eq!(h.of(1), 312.5, "a hidden card keeps its last height");
        // The window over the papers 1, 0, 2 in that order.
        let ranked = [1u32, 0, 2];
        let w = window(3, |i| h.of(ranked[i]), 320.0, 330.0, 10);
        assert_eq!((w.start, w.above), (1, 312.5));
    }

    #[test]
    fn the_results_heights_sum_without_reading_each() {
        let mut h = Heights::new(10, 100.0);
        h.measured(3, 40.0);
        h.measured(3, 50.0);
        h.measured(8, 300.0);
        // Papers 0..8 are the results: 8 of them, one measured at 50.
        assert_eq!(h.total(8, |d| d < 8), 750.0);
        let ranked: Vec<u32> = (0..8).rev().collect();
        let height = |i: usize| h.of(ranked[i]);
        for (from, to) in [
            (-500.0, 120.0),
            (130.0, 260.0),
            (600.0, 900.0),
            (5000.0, 6000.0),
        ] {
            let w = window(8, height, from, to, 3);
            assert_eq!(
                window_within(8, height, h.total(8, |d| d < 8), from, to, 3),
                w
            );
        }
        // Below the window (results 1 and 2): four papers of 100 and the one of 50.
        assert_eq!(window(8, height, 130.0, 260.0, 3).below, 4.0 * 100.0 + 50.0);
    }

    #[test]
    fn uses_each_results_own_height() {
        let h = |i: usize| if i == 0 { 1000.0 } else { 50.0 };
        let w = window(100, h, 1020.0, 1120.0, 50);
        assert_eq!((w.start, w.end, w.above), (1, 4, 1000.0));
        assert_eq!(w.below, 96.0 * 50.0);
    }

    #[test]
    fn never_renders_more_than_asked() {
        let w = window(20_000, |_| 1.0, 0.0, 1e9, 40);
        assert_eq!((w.start, w.end, w.len()), (0, 40, 40));
        assert_eq!(w.below, 19_960.0);
    }

    #[test]
    fn a_short_list_is_written_whole_when_it_fits() {
        let f = fill(5, H, 800.0, 0);
        assert_eq!((f.now, f.later_height), (5, 0.0));
    }

    #[test]
    fn results_below_the_span_wait_for_the_first_paint() {
        // Results start at 0, 100, 200…: 0 to 2 start before 250; the
        // other seven wait, 700 px of them.
        let f = fill(10, H, 250.0, 0);
        assert_eq!((f.now, f.later_height), (3, 700.0));
        // At least the first screenful, whatever the span.
        let f = fill(10, H, 0.0, 4);
        assert_eq!((f.now, f.later_height), (4, 600.0));
    }

    #[test]
    fn a_span_past_the_end_shows_the_last_results() {
        let w = window(30, H, 10_000.0, 11_000.0, 50);
        assert_eq!((w.start, w.end, w.above, w.below), (20, 30, 2000.0, 0.0));
        let w = window(0, H, 0.0, 100.0, 50);
        assert!(w.is_empty());
    }
}
