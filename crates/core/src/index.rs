//! The inverted index, built from the decoded corpus once at start-up.
//!
//! Postings are keyed by stem; positions give phrase search. A second
//! vocabulary of folded surface words (a finite-state transducer, `fst`)
//! maps prefixes and near-miss spellings to the stems they belong to; edit
//! distances are computed with `strsim` on the few words sharing a first letter.

use std::collections::{BTreeMap, HashMap};

use fst::automaton::Str;
use fst::{Automaton, IntoStreamer, Map, Streamer};

use crate::model::{Corpus, Paper};
use crate::text::tokenize;

/// Where each field's token positions start (title at 0), so that a phrase
/// never spans two fields.
pub const TEXT_BASE: u32 = 1 << 24;
pub const AUTHORS_BASE: u32 = 1 << 31;

pub const FIELD_TITLE: usize = 0;
pub const FIELD_TEXT: usize = 1;
pub const FIELD_AUTHORS: usize = 2;
pub const FIELDS: usize = 3;

/// The searchable fields of a paper, with their position bases. Authors are
/// searched as one text, “Ann Lee, Bo Chen”, which is how cards show them.
pub fn fields(paper: &Paper) -> [(usize, std::borrow::Cow<'_, str>, u32); FIELDS] {
    [
        (FIELD_TITLE, paper.title.as_str().into(), 0),
        (FIELD_TEXT, paper.text.as_str().into(), TEXT_BASE),
        (FIELD_AUTHORS, paper.authors.join(", ").into(), AUTHORS_BASE),
    ]
}

#[derive(Debug, Clone)]
pub struct Posting {
    pub doc: u32,
    /// Term frequency in each field.
    pub tf: [u16; FIELDS],
    /// Sorted token positions (title first, abstract from [`TEXT_BASE`],
    /// authors from [`AUTHORS_BASE`]).
    pub positions: Vec<u32>,
}

pub struct Index {
    stem_ids: HashMap<String, u32>,
    pub postings: Vec<Vec<Posting>>,
    /// Folded surface word → stem id.
    surface: Map<Vec<u8>>,
    /// Tokens per document per field.
    pub doc_len: Vec<[u32; FIELDS]>,
    pub avg_len: [f32; FIELDS],
}

impl Index {
    pub fn build(corpus: &Corpus) -> Index {
        let mut stem_ids: HashMap<String, u32> = HashMap::new();
        let mut postings: Vec<Vec<Posting>> = Vec::new();
        let mut surface: BTreeMap<String, u32> = BTreeMap::new();
        let mut doc_len = Vec::with_capacity(corpus.papers.len());
        for (doc, paper) in corpus.papers.iter().enumerate() {
            let doc = doc as u32;
            let mut lens = [0u32; FIELDS];
            for (field, text, base) in fields(paper) {
                let toks = tokenize(&text);
                lens[field] = toks.len() as u32;
                for (i, t) in toks.into_iter().enumerate() {
                    let next = stem_ids.len() as u32;
                    let id = *stem_ids.entry(t.stem).or_insert_with(|| {
                        postings.push(Vec::new());
                        next
                    });
                    surface.entry(t.folded).or_insert(id);
                    let list = &mut postings[id as usize];
                    if list.last().is_none_or(|p| p.doc != doc) {
                        list.push(Posting {
                            doc,
                            tf: [0; FIELDS],
                            positions: Vec::new(),
                        });
                    }
                    let p = list.last_mut().unwrap();
                    p.tf[field] = p.tf[field].saturating_add(1);
                    p.positions.push(base + i as u32);
                }
            }
            doc_len.push(lens);
        }
        let n = doc_len.len().max(1) as f32;
        let avg_len: [f32; FIELDS] =
            std::array::from_fn(|f| doc_len.iter().map(|l| l[f] as f32).sum::<f32>() / n);
        let surface = Map::from_iter(surface.iter().map(|(k, v)| (k.as_bytes(), *v as u64)))
            .expect("sorted, unique keys");
        Index {
            stem_ids,
            postings,
            surface,
            doc_len,
            avg_len,
        }
    }

    pub fn stem_id(&self, stem: &str) -> Option<u32> {
        self.stem_ids.get(stem).copied()
    }

    pub fn surface_id(&self, folded: &str) -> Option<u32> {
        self.surface.get(folded).map(|v| v as u32)
    }

    /// Stems of the surface words starting with `prefix`.
    pub fn prefix_stems(&self, prefix: &str) -> Vec<u32> {
        let mut out = Vec::new();
        let mut stream = self
            .surface
            .search(Str::new(prefix).starts_with())
            .into_stream();
        while let Some((_, v)) = stream.next() {
            out.push(v as u32);
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Stems of the surface words within `distance` edits of `word` that
    /// share its first letter (a typo in the first letter is rare, and without
    /// this rule `unlearning` would reach every `learning`). Only words of a
    /// compatible length under that first letter are compared.
    pub fn fuzzy_stems(&self, word: &str, distance: u32) -> Vec<u32> {
        let Some(first) = word.chars().next() else {
            return Vec::new();
        };
        let len = word.chars().count();
        let d = distance as usize;
        let mut out = Vec::new();
        let mut first_buf = [0u8; 4];
        let first = first.encode_utf8(&mut first_buf);
        let mut stream = self
            .surface
            .search(Str::new(first).starts_with())
            .into_stream();
        while let Some((key, v)) = stream.next() {
            let Ok(candidate) = std::str::from_utf8(key) else {
                continue;
            };
            if candidate.chars().count().abs_diff(len) > d {
                continue;
            }
            if strsim::levenshtein(word, candidate) <= d {
                out.push(v as u32);
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    pub fn doc_count(&self) -> usize {
        self.doc_len.len()
    }
}
