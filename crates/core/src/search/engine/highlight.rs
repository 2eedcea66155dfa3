//! Highlights: which byte ranges of a paper's title, abstract and authors
//! the query matched, and how to cut text at them.

use std::ops::Range;

use super::{Engine, Matched};

impl Engine {
    /// Byte ranges to highlight in a document's title, abstract text and
    /// author list: the words the query matched, found by the same word
    /// splitter and folding the index was built with. Only the documents on
    /// screen are looked at; the index keeps no per-document token lists.
    pub fn highlights(&self, doc: u32, matched: &Matched) -> Highlights {
        if matched.is_empty() {
            return Highlights::default();
        }
        self.doc_words(doc).highlights(matched)
    }

    /// A document's words with their stem ids, for highlighting it query
    /// after query: a card on screen keeps them, so that a keystroke costs
    /// it a lookup per word instead of splitting and stemming its text again.
    pub fn doc_words(&self, doc: u32) -> DocWords {
        match self.corpus.papers.get(doc as usize) {
            Some(paper) if self.has_index() => DocWords {
                fields: {
                    let mut kept = self.word_ids.lock().unwrap_or_else(|e| e.into_inner());
                    let body = self.body(doc);
                    let text = body.map_or("", |b| b.text);
                    let title = self.title(doc).unwrap_or_default();
                    crate::search::index::fields(title, text, paper.authors_with(body))
                        .map(|(_, s, _)| self.index().spans(&s, &mut kept))
                },
            },
            _ => DocWords::default(),
        }
    }
}

impl Matched {
    /// True when the query matched no word (nothing to highlight).
    pub fn is_empty(&self) -> bool {
        self.stems.is_empty() && self.phrases.is_empty()
    }
}

/// A document's title, abstract and author words as (stem id, byte range);
/// see [`Engine::doc_words`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DocWords {
    fields: [Vec<(u32, Range<usize>)>; crate::search::index::N_FIELDS],
}

impl DocWords {
    /// The ranges of these words that the query matched.
    pub fn highlights(&self, matched: &Matched) -> Highlights {
        let [title, text, authors] = &self.fields;
        Highlights {
            title: ranges(title, matched),
            text: ranges(text, matched),
            authors: ranges(authors, matched),
        }
    }
}

fn ranges(toks: &[(u32, Range<usize>)], matched: &Matched) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = Vec::new();
    for (id, r) in toks {
        if matched.stems.binary_search(id).is_ok() {
            out.push(r.clone());
        }
    }
    for phrase in &matched.phrases {
        let n = phrase.len();
        for w in 0..toks.len().saturating_sub(n - 1) {
            if phrase.iter().enumerate().all(|(k, &s)| toks[w + k].0 == s) {
                out.push(toks[w].1.start..toks[w + n - 1].1.end);
            }
        }
    }
    merge(out)
}

/// Highlight ranges (byte offsets, on character boundaries, sorted, disjoint).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Highlights {
    /// In the title.
    pub title: Vec<Range<usize>>,
    /// In the abstract's visible text.
    pub text: Vec<Range<usize>>,
    /// In the authors joined by “, ”.
    pub authors: Vec<Range<usize>>,
}

fn merge(mut ranges: Vec<Range<usize>>) -> Vec<Range<usize>> {
    ranges.sort_unstable_by_key(|r| (r.start, r.end));
    let mut out: Vec<Range<usize>> = Vec::with_capacity(ranges.len());
    for r in ranges {
        match out.last_mut() {
            Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
            _ => out.push(r),
        }
    }
    out
}

/// Splits `range` of a text into pieces that are inside or outside the
/// (sorted, disjoint) highlight ranges: how a run of styled text is rendered
/// with `<mark>`s without breaking the run.
pub(crate) fn split_by_marks(
    range: Range<usize>,
    marks: &[Range<usize>],
) -> Vec<(Range<usize>, bool)> {
    let mut out = Vec::new();
    let mut pos = range.start;
    for m in marks {
        if m.end <= pos || m.start >= range.end {
            continue;
        }
        let (s, e) = (m.start.max(pos), m.end.min(range.end));
        if s > pos {
            out.push((pos..s, false));
        }
        out.push((s..e, true));
        pos = e;
    }
    if pos < range.end {
        out.push((pos..range.end, false));
    }
    out
}

/// Whether any highlight touches `range` (a formula is marked whole).
pub(crate) fn overlaps(range: &Range<usize>, marks: &[Range<usize>]) -> bool {
    marks
        .iter()
        .any(|m| m.start < range.end && m.end > range.start)
}

#[cfg(test)]
#[allow(clippy::single_range_in_vec_init)] // one highlight range is a real case
mod tests {
    use super::*;

    #[test]
    fn splits_runs_at_marks() {
        assert_eq!(split_by_marks(0..10, &[]), vec![(0..10, false)]);
        assert_eq!(
            split_by_marks(2..10, &[0..3, 5..6, 9..20]),
            vec![
                (2..3, true),
                (3..5, false),
                (5..6, true),
                (6..9, false),
                (9..10, true)
            ]
        );
        assert_eq!(split_by_marks(4..6, &[0..3, 7..9]), vec![(4..6, false)]);
        assert!(overlaps(&(4..6), &[5..9]));
        assert!(!overlaps(&(4..6), &[6..9]));
    }
}
