//! Scoring: a query clause's documents with their BM25F scores and match
//! classes (exact, prefix, typo), from the index's postings.

use std::sync::Arc;

use crate::search::index::{
    prefix_score, Index, Posting, FIELD_AUTHORS, FIELD_TEXT, FIELD_TITLE, N_FIELDS,
    PREFIX_LIST_CHARS,
};
use crate::search::query::{Clause, Term};

use super::{Engine, MatchClass, Matched, NO_MATCH};

/// How many clauses' answers [`Engine::eval_clause`] keeps: a query's
/// words, and one more for the word being typed. Each holds up to 12
/// bytes per paper.
pub(super) const KEPT_CLAUSES: usize = 4;

/// What one clause found ([`Engine::eval_clause`]).
#[derive(Debug, Default)]
pub(super) struct ClauseFound {
    /// The documents, each with its score and class.
    pub(super) docs: Vec<(u32, f32, MatchClass)>,
    /// The stems a word matched (for highlighting).
    stems: Vec<u32>,
    /// A phrase's stems.
    phrase: Option<Vec<u32>>,
}

/// BM25 saturation and length normalisation.
const K1: f32 = 1.2;
const B: f32 = 0.75;
/// A match in the derived (or real) title counts this many times one in the abstract.
pub const TITLE_WEIGHT: f32 = 3.0;
/// A match in the author list counts this many times one in the abstract
/// (a name typed is meant).
pub const AUTHORS_WEIGHT: f32 = 2.0;

/// A word whose stems as typed are in fewer papers than this is also
/// looked for in near spellings ([`Engine::few_as_typed`]): a typo, or a
/// rare word the list may hold misspelt.
pub const NEAR_SPELLINGS_BELOW: usize = 3;

/// BM25's inverse document frequency of what `df` of `n` papers hold.
pub(super) fn idf(n: usize, df: usize) -> f32 {
    let (n, df) = (n as f32, df as f32);
    crate::model::math::ln(1.0 + (n - df + 0.5) / (df + 0.5))
}

/// Per document, what each field's term frequency is multiplied by: the
/// field's weight over its BM25 length normalisation. Worked out once per
/// index rather than for every posting: a two-letter prefix reaches more
/// than 100,000 postings at 20,000 papers.
fn field_scales(index: &Index) -> Vec<[f32; N_FIELDS]> {
    let mut weight = [1.0; N_FIELDS];
    weight[FIELD_TITLE] = TITLE_WEIGHT;
    weight[FIELD_TEXT] = 1.0;
    weight[FIELD_AUTHORS] = AUTHORS_WEIGHT;
    index
        .doc_len
        .iter()
        .map(|len| {
            std::array::from_fn(|f| {
                weight[f] / (1.0 - B + B * len[f] as f32 / index.avg_len[f].max(1.0))
            })
        })
        .collect()
}

/// The saturated, length-normalised, field-weighted term frequency of a
/// posting, given every paper's [`field_scales`].
fn bm25f_tf(scales: &[[f32; N_FIELDS]], p: &Posting) -> f32 {
    let scale = scales.get(p.doc as usize).copied().unwrap_or_default();
    let tf: f32 = (0..N_FIELDS).map(|f| p.tf[f] as f32 * scale[f]).sum();
    tf * (K1 + 1.0) / (tf + K1)
}

/// Per document holding any of `stems` (a prefix's words), the best score
/// one of them gives it as a prefix match, in document order: what
/// [`Engine::eval_clause`] works out for those words, computed by the
/// build once for the prefixes whose words are many
/// ([`crate::search::IndexData::prefixes`]). Scored by [`stem_scores`],
/// as the search scores them, so the scores are the same floats.
pub(crate) fn prefix_list(index: &Index, stems: &[u32]) -> Vec<(u32, f32)> {
    let scales = field_scales(index);
    let mut best = vec![f32::NAN; index.doc_count()];
    for &stem in stems {
        for (d, s) in stem_scores(index, &scales, stem, MatchClass::Prefix, true) {
            let b = &mut best[d as usize];
            if b.is_nan() || s > *b {
                *b = s;
            }
        }
    }
    best.into_iter()
        .enumerate()
        .filter(|(_, s)| !s.is_nan())
        .map(|(d, s)| (d as u32, s))
        .collect()
}

/// Each document of `stem`'s postings with the score the stem gives it when
/// a query word matches it by `class` (`short`: a prefix of at most
/// [`PREFIX_LIST_CHARS`]' characters): the one place both the search and
/// the build's prefix lists ([`prefix_list`]) compute it.
fn stem_scores<'a>(
    index: &'a Index,
    scales: &'a [[f32; N_FIELDS]],
    stem: u32,
    class: MatchClass,
    short: bool,
) -> impl Iterator<Item = (u32, f32)> + 'a {
    let idf = idf(index.doc_count(), index.df(stem) as usize);
    let listed = class == MatchClass::Prefix;
    index.postings_iter(stem, false).map(move |p| {
        let score = idf * bm25f_tf(scales, &p) * class.weight();
        // A prefix match scores as the prefix lists ship it, whichever
        // way it is read.
        (
            p.doc,
            match (listed, short) {
                (true, true) => prefix_score::as_listed_short(score),
                (true, false) => prefix_score::as_listed(score),
                (false, _) => score,
            },
        )
    })
}

impl Engine {
    /// The stems a query word matches, each with the best class by which it
    /// matched.
    fn resolve(&self, t: &Term) -> Vec<(u32, MatchClass)> {
        let mut stems: Vec<(u32, MatchClass)> = Vec::new();
        let add = |id: u32, class: MatchClass, stems: &mut Vec<(u32, MatchClass)>| match stems
            .iter_mut()
            .find(|(s, _)| *s == id)
        {
            Some(e) => e.1 = e.1.min(class),
            None => stems.push((id, class)),
        };
        for id in self.exact_ids(t) {
            add(id, MatchClass::Exact, &mut stems);
        }
        if t.prefix {
            for id in self.index().prefix_stems(&t.folded) {
                add(id, MatchClass::Prefix, &mut stems);
            }
        }
        let len = t.folded.chars().count();
        let distance = match len {
            0..=4 => 0,
            5..=8 => 1,
            _ => 2,
        };
        if distance > 0 && t.folded.chars().all(char::is_alphabetic) && self.few_as_typed(t, &stems)
        {
            for id in self.index().fuzzy_stems(&t.folded, distance) {
                add(id, MatchClass::Fuzzy, &mut stems);
            }
        }
        stems
    }

    /// Whether near spellings of `t` are looked for: only when the
    /// stems it matches as typed hold fewer than [`NEAR_SPELLINGS_BELOW`]
    /// papers (Typesense's `typo_tokens_threshold`). A word the list knows
    /// well is not searched again under every word one letter from it: at
    /// 100,000 papers that read every pack of words of its first letter,
    /// about 80 KB before the first answer, and their postings after. Not
    /// decided (no) while a pack the count needs is not in; it is asked
    /// for, and the query is run again when it comes.
    fn few_as_typed(&self, t: &Term, stems: &[(u32, MatchClass)]) -> bool {
        let index = self.index();
        if !(index.words_in_for(&t.folded) && index.words_in_for(&t.stem)) {
            return false;
        }
        let mut held = 0u32;
        for &(stem, _) in stems {
            match index.df_if_in(stem) {
                Some(df) => held = held.saturating_add(df),
                None => return false,
            }
        }
        (held as usize) < NEAR_SPELLINGS_BELOW
    }

    /// The stems a word matches as written: its own stem, and the stem its
    /// folded form was indexed under.
    fn exact_ids(&self, t: &Term) -> impl Iterator<Item = u32> {
        self.index()
            .stem_id(&t.stem)
            .into_iter()
            .chain(self.index().surface_id(&t.folded))
    }

    /// A phrase's stem ids, or `None` when one of its words is not in the
    /// corpus (then nothing matches it).
    /// Every word is looked up, so that the word packs they all need are
    /// asked for at once.
    fn phrase_ids(&self, words: &[Term]) -> Option<Vec<u32>> {
        let ids: Vec<Option<u32>> = (words.iter())
            .map(|w| self.index().stem_id(&w.stem))
            .collect();
        ids.into_iter().collect()
    }

    /// [`field_scales`] of the open index, worked out on its first search.
    fn field_scales(&self) -> &[[f32; N_FIELDS]] {
        self.field_scales.get_or_init(|| field_scales(self.index()))
    }

    fn idf(&self, stem: u32) -> f32 {
        idf(self.index().doc_count(), self.index().df(stem) as usize)
    }

    /// Documents matching a clause, with score and class; the stems or
    /// phrase it matched are added to `matched`. The last few clauses'
    /// answers are kept: typing the second word of a query asks for the
    /// first word's again on every keystroke, and a long word's typo
    /// expansion and postings cost milliseconds at 20,000 papers.
    pub(super) fn eval_clause(&self, clause: &Clause, matched: &mut Matched) -> Arc<ClauseFound> {
        let kept = {
            let mut clauses = self.clauses.lock().unwrap_or_else(|e| e.into_inner());
            match clauses.iter().position(|(c, _)| c == clause) {
                Some(i) => {
                    let entry = clauses.remove(i);
                    let found = entry.1.clone();
                    clauses.insert(0, entry);
                    Some(found)
                }
                None => None,
            }
        };
        let found = kept.unwrap_or_else(|| {
            let (found, missed) = self.index().missed_while(|| self.clause_found(clause));
            let found = Arc::new(found);
            // An answer read with a pack of postings missing is not kept.
            if !missed {
                let mut clauses = self.clauses.lock().unwrap_or_else(|e| e.into_inner());
                clauses.insert(0, (clause.clone(), found.clone()));
                clauses.truncate(KEPT_CLAUSES);
            }
            found
        });
        matched.stems.extend_from_slice(&found.stems);
        matched.phrases.extend(found.phrase.iter().cloned());
        found
    }

    /// [`Engine::eval_clause`] worked out.
    fn clause_found(&self, clause: &Clause) -> ClauseFound {
        match clause {
            Clause::Term(t) => {
                let scales = self.field_scales();
                // A short prefix with a list of its own: its words' best
                // prefix scores are read from it, not from their postings.
                let list = t
                    .prefix
                    .then(|| self.index().prefix_list_id(&t.folded))
                    .flatten();
                let resolved = self.resolve(t);
                let stems: Vec<u32> = resolved.iter().map(|&(stem, _)| stem).collect();
                let short = t.folded.chars().count() <= *PREFIX_LIST_CHARS.end();
                let read = |&&(_, class): &&(u32, MatchClass)| {
                    list.is_none() || class != MatchClass::Prefix
                };
                // One list to read (a short prefix's own, or one word's
                // postings): its documents, each once, as they come.
                let docs: Option<Vec<_>> = match (list, resolved.iter().filter(read).count()) {
                    (Some(list), 0) => Some(
                        (self.index().prefix_scores(list))
                            .map(|(d, s)| (d, s, MatchClass::Prefix))
                            .collect(),
                    ),
                    (None, 1) => resolved.iter().find(read).map(|&(stem, class)| {
                        stem_scores(self.index(), scales, stem, class, short)
                            .map(|(d, s)| (d, s, class))
                            .collect()
                    }),
                    _ => None,
                };
                if let Some(docs) = docs {
                    return ClauseFound {
                        docs,
                        stems,
                        phrase: None,
                    };
                }
                // Else several lists, merged.
                let docs = self.best_per_doc(scales, resolved.iter().filter(read), list, short);
                ClauseFound {
                    docs,
                    stems,
                    phrase: None,
                }
            }
            Clause::Phrase(words) => self.phrase_found(words),
        }
    }

    /// Per document, the best (class, score) over a word's expansions
    /// `stems` and, with `list`, a short prefix's own list, in the order
    /// first found: dense arrays, as a short prefix reaches thousands of
    /// words and most documents.
    fn best_per_doc<'a>(
        &self,
        scales: &[[f32; N_FIELDS]],
        stems: impl Iterator<Item = &'a (u32, MatchClass)>,
        list: Option<u32>,
        short: bool,
    ) -> Vec<(u32, f32, MatchClass)> {
        let n = self.len();
        let mut class_of = vec![NO_MATCH; n];
        let mut score_of = vec![0f32; n];
        let mut touched = Vec::new();
        let mut keep = |d: u32, c: u8, s: f32| {
            let i = d as usize;
            if class_of[i] == NO_MATCH {
                touched.push(d);
            }
            if (c, -s) < (class_of[i], -score_of[i]) {
                (class_of[i], score_of[i]) = (c, s);
            }
        };
        for &(stem, class) in stems {
            for (d, s) in stem_scores(self.index(), scales, stem, class, short) {
                keep(d, class as u8, s);
            }
        }
        if let Some(list) = list {
            for (d, s) in self.index().prefix_scores(list) {
                keep(d, MatchClass::Prefix as u8, s);
            }
        }
        touched
            .into_iter()
            .map(|d| {
                let i = d as usize;
                (d, score_of[i], MatchClass::from_u8(class_of[i]))
            })
            .collect()
    }

    /// A quoted phrase's documents ([`Engine::clause_found`]): where its
    /// stems occur consecutively, each scored by their summed BM25F.
    fn phrase_found(&self, words: &[Term]) -> ClauseFound {
        let Some(ids) = self.phrase_ids(words) else {
            return ClauseFound::default();
        };
        let scales = self.field_scales();
        let docs = self
            .phrase_docs(&ids)
            .into_iter()
            .map(|(d, postings)| {
                let s = ids
                    .iter()
                    .zip(&postings)
                    .map(|(&id, p)| self.idf(id) * bm25f_tf(scales, p))
                    .sum();
                (d, s, MatchClass::Exact)
            })
            .collect();
        ClauseFound {
            docs,
            stems: Vec::new(),
            phrase: Some(ids),
        }
    }

    /// Documents where the stems occur consecutively, with their postings.
    fn phrase_docs(&self, ids: &[u32]) -> Vec<(u32, Vec<Posting>)> {
        let lists: Vec<Vec<Posting>> = ids
            .iter()
            .map(|&i| self.index().postings(i, true))
            .collect();
        let mut out = Vec::new();
        'doc: for first in &lists[0] {
            let mut ps = vec![first];
            for list in &lists[1..] {
                match list.binary_search_by_key(&first.doc, |p| p.doc) {
                    Ok(i) => ps.push(&list[i]),
                    Err(_) => continue 'doc,
                }
            }
            let found = first.positions.iter().any(|&start| {
                ps.iter()
                    .enumerate()
                    .skip(1)
                    .all(|(k, p)| p.positions.binary_search(&(start + k as u32)).is_ok())
            });
            if found {
                out.push((first.doc, ps.into_iter().cloned().collect()));
            }
        }
        out
    }

    /// Documents matching a clause exactly (no prefix or typo expansion):
    /// what `-word` removes.
    pub(super) fn clause_docs_exact(&self, clause: &Clause) -> Vec<u32> {
        match clause {
            Clause::Term(t) => self
                .exact_ids(t)
                .flat_map(|i| self.index().postings_iter(i, false).map(|p| p.doc))
                .collect(),
            Clause::Phrase(words) => match self.phrase_ids(words) {
                Some(ids) => self.phrase_docs(&ids).into_iter().map(|(d, _)| d).collect(),
                None => Vec::new(),
            },
        }
    }
}
