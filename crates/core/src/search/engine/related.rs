//! Related by meaning: the papers closest to a query, a text or the
//! reading list in the meaning space ([`crate::search::meaning`]), under the same
//! facet selection and filters as the matches, and each with the words
//! that bring it.

use fixedbitset::FixedBitSet;

use super::{Engine, ExtraCounts, Extras, Selection};
use crate::model::{Corrupt, DecodeError};
use crate::search::meaning::{Meaning, PaperWords};
use crate::search::query::{Clause, Query};

/// How many related papers a query lists.
pub const RELATED: usize = 10;
/// How many papers' explaining words the engine keeps: a few screens of
/// related papers, and every paper of a list up to this size (a page
/// prepares them while idle). A paper's words are about 3 KB
/// ([`PaperWords`]). At 512, typing the bench's seven queries into the
/// 20,000-paper list met 579 related papers: the cache was emptied in the
/// middle, and the prefixes after it tokenized their papers again.
pub const KEPT_PAPER_WORDS: usize = 1024;
/// Reciprocal rank fusion's constant: a paper's share from a ranking is
/// `1 / (FUSION_K + rank)`.
pub const FUSION_K: f32 = 60.0;

/// How many of the papers closest in meaning to a query are its related
/// set: what the filters narrow and count when the query matches nothing.
pub const RELATED_POOL: usize = 100;

/// The papers related by meaning to a query under the filters, and their
/// counts ([`Engine::related_set`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RelatedSet {
    /// The first papers of the set, nearest first, with their words.
    pub papers: Vec<Related>,
    /// How many papers the set holds under the filters.
    pub total: usize,
    /// `counts[f][v]`: papers of the set with value `v` of facet `f`, the
    /// facet's own selection lifted (as [`super::Response::counts`]);
    /// empty when not asked for.
    pub counts: Vec<Vec<u32>>,
    /// Papers of each of the reader's own filters in the set, likewise.
    pub extra_counts: ExtraCounts,
}

/// What the engine keeps of the papers it explained: each paper's words,
/// and the tokens of every word met.
#[derive(Debug, Default)]
pub(super) struct KeptWords {
    papers: std::collections::HashMap<u32, std::sync::Arc<PaperWords>>,
    pieces: crate::search::meaning::PiecesMemo,
}

/// A paper related by meaning.
#[derive(Debug, Clone, PartialEq)]
pub struct Related {
    /// The document.
    pub doc: u32,
    /// Its cosine similarity with the query.
    pub score: f32,
    /// The words of the paper closest in meaning to the query, best first.
    pub via: Vec<String>,
}

impl Engine {
    /// Attaches the meaning file ([`Meaning::from_bytes`]); it must be of
    /// this corpus (one vector per paper).
    pub fn open_meaning(&self, meaning: Meaning) -> Result<(), DecodeError> {
        if meaning.paper_count() != self.len() {
            return Err(DecodeError::Corrupt(Corrupt::MeaningMismatch {
                meaning: meaning.paper_count(),
                corpus: self.len(),
            }));
        }
        let _ = self.meaning.set(meaning);
        Ok(())
    }

    /// Whether the meaning file is loaded.
    pub fn has_meaning(&self) -> bool {
        self.meaning.get().is_some()
    }

    /// The meaning file, once loaded.
    pub fn meaning(&self) -> Option<&Meaning> {
        self.meaning.get()
    }

    /// The lists of the papers' vectors ([`crate::search::meaning::lists`])
    /// that a ranking by meaning needed since last asked and did not have:
    /// the page fetches them ([`Engine::add_vectors`]) and ranks again.
    pub fn take_wanted_vectors(&self) -> Vec<u32> {
        self.meaning
            .get()
            .map_or(Vec::new(), Meaning::take_wanted_lists)
    }

    /// Whether list `l` of the papers' vectors is in (false without the
    /// meaning file).
    pub fn has_vectors(&self, l: u32) -> bool {
        self.meaning.get().is_some_and(|m| m.has_list(l))
    }

    /// The file of list `l` of the papers' vectors, beside the meaning file.
    pub fn vectors_file(&self, l: u32) -> Option<String> {
        self.meaning.get()?.list_file(l)
    }

    /// Adds list `l` of the papers' vectors; a file that is not the one
    /// the meaning file names is refused.
    pub fn add_vectors(
        &self,
        l: u32,
        bytes: crate::search::index::Bytes,
    ) -> Result<(), DecodeError> {
        (self.meaning.get())
            .ok_or(DecodeError::Corrupt(Corrupt::PackMismatch))?
            .add_list(l, bytes)
    }

    /// The lists of the papers' vectors not in, each with its file's size
    /// (what saving for offline use fetches once the meaning file is open).
    pub fn vectors_not_in(&self) -> Vec<(u32, usize)> {
        self.meaning.get().map_or(Vec::new(), Meaning::lists_not_in)
    }

    /// The words of a query that carry meaning: its words and phrases, not
    /// its exclusions or filters.
    pub(crate) fn meaning_text(q: &Query) -> String {
        let mut words = Vec::new();
        for clause in q.groups.iter().flatten() {
            match clause {
                Clause::Term(t) => words.push(t.folded.as_str()),
                Clause::Phrase(ts) => words.extend(ts.iter().map(|t| t.folded.as_str())),
            }
        }
        words.join(" ")
    }

    /// Up to `limit` papers closest in meaning to `query` that it does not
    /// match ([`Engine::related_set`]'s first papers).
    pub fn related(
        &self,
        query: &str,
        selection: &Selection,
        extras: Extras,
        shown: &[u32],
        limit: usize,
    ) -> Vec<Related> {
        self.related_set(query, selection, extras, shown, limit, false)
            .map(|set| set.papers)
            .unwrap_or_default()
    }

    /// The papers related by meaning to `query`, as a set the filters
    /// narrow like the matches: the [`RELATED_POOL`] papers closest to it
    /// (positive cosine) among those its own filters and exclusions allow,
    /// leaving out `shown` (the matches already listed), then narrowed by
    /// the facet selection and the extras, with disjunctive counts over
    /// the pool, as the matches have (when `counted`: counting every
    /// facet's values is most of the work at 20,000 papers, and only a
    /// query that matches nothing shows them). The first `limit`, nearest
    /// first, come with the words that bring them. `None` without the
    /// meaning file or words.
    pub fn related_set(
        &self,
        query: &str,
        selection: &Selection,
        extras: Extras,
        shown: &[u32],
        limit: usize,
        counted: bool,
    ) -> Option<RelatedSet> {
        let q = self.parse_query(query);
        let m = self.meaning.get()?;
        let v = m.embed_query(&Self::meaning_text(&q))?;
        let mut base = if self.has_index() {
            let (allowed, missed) = self.index().missed_while(|| self.restrict(&q));
            // Its exclusions read a pack not in yet: not until it is.
            if missed {
                return None;
            }
            allowed
        } else {
            let mut all = FixedBitSet::with_capacity(self.len());
            all.insert_range(..);
            all
        };
        for &d in shown {
            if (d as usize) < self.len() {
                base.set(d as usize, false);
            }
        }
        let sims = m.similarities(&v);
        let mut pool = FixedBitSet::with_capacity(self.len());
        for (d, _) in nearest_first(&sims, &base, RELATED_POOL) {
            pool.insert(d as usize);
        }
        let narrows =
            selection.iter().any(|s| !s.is_empty()) || extras.all().iter().any(|e| e.active);
        let (narrowed, counts, extra) = if counted || narrows {
            self.facets(&pool, selection, extras.all())
        } else {
            (pool, Vec::new(), ExtraCounts::default())
        };
        let kept = nearest_first(&sims, &narrowed, usize::MAX);
        let mut why = m.explainer(&v);
        let papers = kept
            .iter()
            .take(limit)
            .map(|&(doc, score)| Related {
                doc,
                score,
                via: why.explain_words(&self.paper_words(m, doc)),
            })
            .collect();
        Some(RelatedSet {
            papers,
            total: kept.len(),
            counts: if counted { counts } else { Vec::new() },
            extra_counts: extra,
        })
    }

    /// Up to `limit` papers like the starred ones, leaving those out:
    /// "more like my reading list". Two rankings fused by reciprocal rank:
    /// closeness in meaning to the starred papers' centre, and the starred
    /// papers' own similar papers (shared telling words, TF-IDF). On the
    /// seeds the meaning centre alone misses the one other paper on machine
    /// unlearning that the words find (`tests/native/meaning.rs`).
    pub fn like_these(&self, docs: &[u32], limit: usize) -> Vec<Related> {
        let n = self.len();
        let starred = |d: usize| docs.contains(&(d as u32));
        let mut fused = vec![0f32; n];
        for &s in docs {
            if let Some(b) = self.body(s) {
                for (rank, sim) in b.similar.iter().enumerate() {
                    if let Some(f) = fused.get_mut(sim.doc as usize) {
                        *f += 1.0 / (FUSION_K + rank as f32 + 1.0);
                    }
                }
            }
        }
        let m = self.meaning.get();
        let centre = m.and_then(|m| m.centre(docs));
        if let (Some(m), Some(v)) = (m, &centre) {
            let sims = m.similarities(v);
            let mut order: Vec<usize> = (0..n).filter(|&d| !starred(d)).collect();
            order.sort_unstable_by(|&a, &b| sims[b].total_cmp(&sims[a]).then(a.cmp(&b)));
            for (rank, d) in order.into_iter().enumerate() {
                fused[d] += 1.0 / (FUSION_K + rank as f32 + 1.0);
            }
        }
        let mut best: Vec<(u32, f32)> = (0..n)
            .filter(|&d| !starred(d) && fused[d] > 0.0)
            .map(|d| (d as u32, fused[d]))
            .collect();
        best.sort_unstable_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        best.truncate(limit);
        let mut why = match (m, &centre) {
            (Some(m), Some(v)) => Some(m.explainer(v)),
            _ => None,
        };
        best.into_iter()
            .map(|(doc, score)| Related {
                doc,
                score,
                via: match (why.as_mut(), m) {
                    (Some(w), Some(m)) => w.explain_words(&self.paper_words(m, doc)),
                    _ => Vec::new(),
                },
            })
            .collect()
    }

    /// Tokenizes a paper's words for explaining ahead of use (a page does
    /// it while idle, so that the first related list a reader meets does
    /// not wait for it); false when there is no meaning file or no room
    /// left to keep them (nothing kept is forgotten for this).
    pub fn prepare_explaining(&self, doc: u32) -> bool {
        match self.meaning.get() {
            Some(m) if (doc as usize) < self.len() => self.kept_words(m, doc, false).is_some(),
            _ => false,
        }
    }

    /// The words of a paper that explain it, tokenized on first use and
    /// kept (up to [`KEPT_PAPER_WORDS`] papers, then forgotten at once).
    /// A paper whose body is not in yet is explained by its title's words
    /// (not kept).
    fn paper_words(&self, m: &Meaning, doc: u32) -> std::sync::Arc<PaperWords> {
        self.kept_words(m, doc, true).unwrap_or_else(|| {
            let title = self.title(doc).unwrap_or_default();
            std::sync::Arc::new(m.paper_words_with(title, &mut Default::default()))
        })
    }

    /// A paper's kept words, tokenized and kept if they were not, up to
    /// [`KEPT_PAPER_WORDS`] papers (the rule of [`crate::search::kept::kept_or_made`]:
    /// when full, all forgotten to make room, or, without `make_room`, `None`).
    fn kept_words(
        &self,
        m: &Meaning,
        doc: u32,
        make_room: bool,
    ) -> Option<std::sync::Arc<PaperWords>> {
        // A paper whose body is not in yet has no words to explain with
        // (and none are kept for it).
        let body = self.body(doc)?;
        let mut kept = self.paper_words.lock().unwrap_or_else(|e| e.into_inner());
        let KeptWords { papers, pieces } = &mut *kept;
        crate::search::kept::kept_or_made(papers, doc, KEPT_PAPER_WORDS, make_room, || {
            let text = crate::search::meaning::paper_text_with(
                &self.corpus.papers[doc as usize],
                self.title(doc).unwrap_or_default(),
                body.text,
            );
            std::sync::Arc::new(m.paper_words_with(&text, pieces))
        })
        .cloned()
    }
}

/// The papers of `allowed` with a positive cosine in `sims`, nearest first,
/// `limit` at most (no fixed threshold holds across queries). Kept in a
/// heap of `limit` while scanning: at 20,000 papers, no list of every
/// paper with a positive cosine is made to be cut.
pub(super) fn nearest_first(sims: &[f32], allowed: &FixedBitSet, limit: usize) -> Vec<(u32, f32)> {
    use std::cmp::{Ordering, Reverse};
    use std::collections::BinaryHeap;
    /// Nearer first; among equals, the lower id.
    #[derive(PartialEq)]
    struct Near(f32, u32);
    impl Eq for Near {}
    impl Ord for Near {
        fn cmp(&self, other: &Self) -> Ordering {
            self.0.total_cmp(&other.0).then(other.1.cmp(&self.1))
        }
    }
    impl PartialOrd for Near {
        fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
            Some(self.cmp(other))
        }
    }
    let mut heap: BinaryHeap<Reverse<Near>> = BinaryHeap::with_capacity(limit.min(1024) + 1);
    for d in allowed.ones() {
        let Some(&s) = sims.get(d) else { continue };
        if s <= 0.0 {
            continue;
        }
        let near = Near(s, d as u32);
        if heap.len() < limit {
            heap.push(Reverse(near));
        } else if heap.peek().is_some_and(|Reverse(worst)| near > *worst) {
            heap.pop();
            heap.push(Reverse(near));
        }
    }
    heap.into_sorted_vec()
        .into_iter()
        .map(|Reverse(Near(s, d))| (d, s))
        .collect()
}
