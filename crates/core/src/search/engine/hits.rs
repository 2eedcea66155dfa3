//! A response's hits, put in order only as far as they are read.
//!
//! The first letters typed into a long list find nearly every paper: at
//! 100,000 papers, ordering all of them was half of such a keystroke's
//! search, yet the page shows a screenful and lays out at most a window
//! of them. So an answer orders its first [`ORDERED_FIRST`] hits (found
//! through a heap, then sorted), and the rest the first time they are
//! read in order: a reader scrolling past them, an export, a test.

use std::collections::BinaryHeap;
use std::sync::OnceLock;

use fixedbitset::FixedBitSet;

use super::Hit;

/// How many hits an answer puts in order at once: more than the page's
/// window of cards (60) from the top, with room to scroll.
pub const ORDERED_FIRST: usize = 240;

/// A response's hits in display order ([`Hits::in_order`], or as a slice
/// through `Deref`), put in order lazily past the first
/// [`ORDERED_FIRST`]. What does not depend on their order (how many,
/// whether a paper is among them) reads them as they lie
/// ([`Hits::partly_ordered`]) and orders nothing.
#[derive(Debug, Clone, Default)]
pub struct Hits {
    /// Every hit: the first `ordered` in display order, the rest after
    /// them in no order.
    hits: Vec<Hit>,
    /// How many of `hits` are in order.
    ordered: usize,
    /// Every hit in order, once they have been read so.
    all: OnceLock<Vec<Hit>>,
    /// The hits' papers ([`Hits::contains`]).
    papers: FixedBitSet,
}

impl Hits {
    /// The hits, each with its place ([`Hit::place`]), the first
    /// [`ORDERED_FIRST`] of them put in order.
    pub(super) fn new(mut hits: Vec<Hit>, papers: FixedBitSet) -> Hits {
        let ordered = hits.len().min(ORDERED_FIRST);
        if hits.len() > ordered {
            // The first `ordered` places, kept in a heap whose top is the
            // last of them: most hits only compare with that top, where a
            // selection would move every hit about (a third of a broad
            // keystroke's ordering at 100,000 papers).
            let mut first: BinaryHeap<(u64, u32)> =
                hits[..ordered].iter().map(Hit::order).collect();
            for h in &hits[ordered..] {
                if let Some(mut last) = first.peek_mut().filter(|last| h.order() < **last) {
                    *last = h.order();
                }
            }
            // Then moved to the front, each swapped with the hit there.
            if let Some(&last) = first.peek() {
                let mut front = 0;
                for i in 0..hits.len() {
                    if hits[i].order() <= last {
                        hits.swap(front, i);
                        front += 1;
                    }
                }
            }
        }
        hits[..ordered].sort_unstable_by_key(Hit::order);
        Hits {
            hits,
            ordered,
            all: OnceLock::new(),
            papers,
        }
    }

    /// Whether paper `doc` is among the hits.
    pub fn contains(&self, doc: u32) -> bool {
        self.papers.contains(doc as usize)
    }

    /// How many hits there are.
    pub fn len(&self) -> usize {
        self.hits.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.hits.is_empty()
    }

    /// Every hit, and how many of the first are in display order (at
    /// least [`ORDERED_FIRST`], or all): the rest follow in no order.
    /// Counting them, or asking whether a paper is among them, orders
    /// nothing.
    pub fn partly_ordered(&self) -> (&[Hit], usize) {
        match self.all.get() {
            Some(all) => (all, all.len()),
            None => (&self.hits, self.ordered),
        }
    }

    /// The first hits in display order: at least [`ORDERED_FIRST`] of
    /// them, or all.
    pub fn first_ordered(&self) -> &[Hit] {
        let (hits, ordered) = self.partly_ordered();
        &hits[..ordered]
    }

    /// Every hit, in no promised order: for what does not depend on it
    /// (whether a paper is among them, a set of them).
    pub fn any_order(&self) -> &[Hit] {
        self.partly_ordered().0
    }

    /// Every hit in display order (the first call past the first
    /// [`ORDERED_FIRST`] orders the rest).
    pub fn in_order(&self) -> &[Hit] {
        if self.ordered == self.hits.len() {
            return &self.hits;
        }
        self.all.get_or_init(|| {
            let mut all = self.hits.clone();
            all[self.ordered..].sort_unstable_by_key(Hit::order);
            all
        })
    }
}

impl std::ops::Deref for Hits {
    type Target = [Hit];

    fn deref(&self) -> &[Hit] {
        self.in_order()
    }
}

/// Equal when the same hits lie in the same places: an answer worked out
/// again from the same view is equal to the last, ordered or not.
impl PartialEq for Hits {
    fn eq(&self, other: &Hits) -> bool {
        self.ordered == other.ordered && self.hits == other.hits
    }
}

impl<'a> IntoIterator for &'a Hits {
    type Item = &'a Hit;
    type IntoIter = std::slice::Iter<'a, Hit>;

    fn into_iter(self) -> Self::IntoIter {
        self.in_order().iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::engine::MatchClass;

    /// `n` hits of scattered places (some tied, so the paper's number
    /// decides), in paper order as a search gathers them.
    fn scattered(n: u32) -> Vec<Hit> {
        (0..n)
            .map(|doc| Hit {
                doc,
                score: 0.0,
                tier: MatchClass::Exact,
                all_words: true,
                by_meaning: false,
                place: u64::from(doc.wrapping_mul(2_654_435_761) % 997),
            })
            .collect()
    }

    #[test]
    fn the_first_hits_come_in_order_and_the_rest_when_read() {
        let mut sorted = scattered(5_000);
        sorted.sort_by_key(Hit::order);
        let papers = |n| FixedBitSet::with_capacity_and_blocks(n, [usize::MAX; 128]);
        let hits = Hits::new(scattered(5_000), papers(5_000));
        let (lying, ordered) = hits.partly_ordered();
        assert_eq!(ordered, ORDERED_FIRST);
        assert_eq!(&lying[..ordered], &sorted[..ordered]);
        // The rest lie in no order until read so; then every one is in
        // its place, and no hit is lost or doubled.
        assert_ne!(&lying[ordered..], &sorted[ordered..]);
        assert_eq!(hits.in_order(), &sorted[..]);
        assert_eq!(hits.len(), 5_000);
        assert!(hits.contains(4_999) && !hits.contains(5_000));
        assert_eq!(hits.partly_ordered(), (&sorted[..], 5_000));
        // Few hits are all in order at once.
        let few = Hits::new(scattered(100), papers(100));
        assert_eq!(few.partly_ordered().1, 100);
        assert!(few.windows(2).all(|w| w[0].order() < w[1].order()));
    }
}
