//! Related by meaning: the papers closest to a query, a text or the
//! reading list in the meaning space ([`crate::meaning`]), under the same
//! facet selection and filters as the matches, and each with the words
//! that bring it.

use fixedbitset::FixedBitSet;

use super::{Engine, Extras, Selection};
use crate::meaning::{Meaning, PaperWords, Vector};
use crate::model::DecodeError;
use crate::query::{Clause, Query};

/// How many related papers a query lists.
pub const RELATED: usize = 10;
/// How many papers' explaining words the engine keeps: a few screens of
/// related papers (a paper's words are about 1 KB).
pub const KEPT_PAPER_WORDS: usize = 512;
/// Reciprocal rank fusion's constant: a paper's share from a ranking is
/// `1 / (FUSION_K + rank)`.
pub const FUSION_K: f32 = 60.0;

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
            return Err(DecodeError::Corrupt(format!(
                "meaning file has {} papers, the corpus {}",
                meaning.paper_count(),
                self.len()
            )));
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

    /// The words of a query that carry meaning: its words and phrases, not
    /// its exclusions or filters.
    pub fn meaning_text(q: &Query) -> String {
        let mut words = Vec::new();
        for clause in q.groups.iter().flatten() {
            match clause {
                Clause::Term(t) => words.push(t.folded.as_str()),
                Clause::Phrase(ts) => words.extend(ts.iter().map(|t| t.folded.as_str())),
            }
        }
        words.join(" ")
    }

    /// Up to `limit` papers closest in meaning to `query`, among those the
    /// selection, the extras and the query's filters and exclusions allow,
    /// leaving out `shown` (the matches already listed). Empty without the
    /// meaning file or words.
    pub fn related(
        &self,
        query: &str,
        selection: &Selection,
        extras: Extras,
        shown: &[u32],
        limit: usize,
    ) -> Vec<Related> {
        let q = self.parse_query(query);
        let Some(m) = self.meaning.get() else {
            return Vec::new();
        };
        let Some(v) = m.embed_query(&Self::meaning_text(&q)) else {
            return Vec::new();
        };
        let base = if self.has_index() {
            self.restrict(&q, None)
        } else {
            let mut all = FixedBitSet::with_capacity(self.len());
            all.insert_range(..);
            all
        };
        // Facet counts are not needed here: with nothing selected, the
        // papers allowed are the base (the common case, and every keystroke).
        let narrowed =
            selection.iter().any(|s| !s.is_empty()) || extras.all().iter().any(|e| e.active);
        let mut allowed = if narrowed {
            self.facets(&base, selection, extras.all()).0
        } else {
            base
        };
        for &d in shown {
            if (d as usize) < self.len() {
                allowed.set(d as usize, false);
            }
        }
        self.nearest(m, &v, &allowed, limit)
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
            if let Some(p) = self.corpus.papers.get(s as usize) {
                for (rank, sim) in p.similar.iter().enumerate() {
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

    /// The words of a paper that explain it, tokenized on first use and
    /// kept (up to [`KEPT_PAPER_WORDS`] papers, then forgotten at once).
    fn paper_words(&self, m: &Meaning, doc: u32) -> std::sync::Arc<PaperWords> {
        let mut kept = self.paper_words.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(w) = kept.get(&doc) {
            return w.clone();
        }
        if kept.len() >= KEPT_PAPER_WORDS {
            kept.clear();
        }
        let text = crate::meaning::paper_text(&self.corpus.papers[doc as usize]);
        let words = std::sync::Arc::new(m.paper_words(&text));
        kept.insert(doc, words.clone());
        words
    }

    /// The papers of `allowed` nearest to `v`, nearest first (those with a
    /// positive cosine: no fixed threshold holds across queries).
    fn nearest(
        &self,
        m: &Meaning,
        v: &Vector,
        allowed: &FixedBitSet,
        limit: usize,
    ) -> Vec<Related> {
        let sims = m.similarities(v);
        let mut best: Vec<(u32, f32)> = allowed
            .ones()
            .filter_map(|d| sims.get(d).map(|&s| (d as u32, s)))
            .filter(|&(_, s)| s > 0.0)
            .collect();
        let by_score = |a: &(u32, f32), b: &(u32, f32)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
        if best.len() > limit && limit > 0 {
            best.select_nth_unstable_by(limit - 1, by_score);
        }
        best.truncate(limit);
        best.sort_unstable_by(by_score);
        let mut why = m.explainer(v);
        best.into_iter()
            .map(|(doc, score)| Related {
                doc,
                score,
                via: why.explain_words(&self.paper_words(m, doc)),
            })
            .collect()
    }

    /// Every paper in order of meaning for `query` (evaluation): all of
    /// them, nearest first.
    pub fn meaning_ranking(&self, query: &str) -> Vec<u32> {
        let q = self.parse_query(query);
        let Some(m) = self.meaning.get() else {
            return Vec::new();
        };
        let Some(v) = m.embed_query(&Self::meaning_text(&q)) else {
            return Vec::new();
        };
        let sims = m.similarities(&v);
        let mut order: Vec<u32> = (0..sims.len() as u32).collect();
        order.sort_unstable_by(|&a, &b| {
            sims[b as usize]
                .total_cmp(&sims[a as usize])
                .then(a.cmp(&b))
        });
        order
    }
}
