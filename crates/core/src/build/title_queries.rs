//! Finding a paper by its title: a list's real titles typed as queries
//! over the same list built as abstracts only (titles derived, so the real
//! title is not on the page), and where each ranking puts the paper meant.
//!
//! The rankings are the page's own (the matches, best matches included,
//! then the rest by meaning), words only, meaning only, and a textbook
//! BM25 over the abstracts with an OR of the query's words
//! ([`Bm25`]), the peer a researcher would otherwise reach for.

use crate::build::meaning_eval::{found_with, meaning_ranking, page_order, Scores};
use crate::build::{compile_sources, parse_taxonomy, write_seed, Record, Source, DEFAULT_TAXONOMY};
use crate::model::text::tokenize;
use crate::model::Corpus;
use crate::search::engine::{Engine, MEANING_WEIGHT};

/// One title typed as a query, and the paper it names.
#[derive(Debug, Clone, PartialEq)]
pub struct TitleQuery {
    /// The real title, as typed.
    pub query: String,
    /// The paper, in the abstracts-only corpus.
    pub doc: u32,
}

/// The records with an abstract, as one seed list of bare abstracts,
/// compiled: its papers in the records' order (one per record kept), and
/// the records kept.
pub fn abstracts_only(records: &[Record]) -> (Corpus, Vec<&Record>) {
    let kept: Vec<&Record> = records
        .iter()
        .filter(|r| {
            r.abstract_text
                .as_deref()
                .is_some_and(|a| !a.trim().is_empty())
        })
        .collect();
    let text = write_seed(
        "Abstracts",
        kept.iter().filter_map(|r| r.abstract_text.as_deref()),
    );
    let taxonomy =
        parse_taxonomy("taxonomy.toml", DEFAULT_TAXONOMY).expect("the default taxonomy reads");
    let corpus = compile_sources(
        &[Source {
            file: "abstracts.txt".into(),
            bytes: text.into_bytes(),
        }],
        &taxonomy,
    )
    .expect("a list written by write_seed compiles");
    (corpus, kept)
}

/// `n` of the records with a real title, spread evenly over the list (the
/// same ones on every run), each title typed as a query for its paper.
pub fn sample(kept: &[&Record], n: usize) -> Vec<TitleQuery> {
    let titled: Vec<(u32, &str)> = kept
        .iter()
        .enumerate()
        .filter_map(|(i, r)| Some((i as u32, r.title.as_deref()?.trim())))
        .filter(|(_, t)| !t.is_empty())
        .collect();
    let n = n.min(titled.len());
    (0..n)
        .map(|k| {
            let (doc, title) = titled[k * titled.len() / n];
            TitleQuery {
                query: title.to_string(),
                doc,
            }
        })
        .collect()
}

/// A title without its leading `NAME:` (`BERTScore: Evaluating text
/// generation` → `Evaluating text generation`); the title itself when it
/// has none.
pub fn without_name(title: &str) -> &str {
    match title.split_once(": ") {
        Some((name, rest)) if name.split_whitespace().count() <= 4 && !rest.trim().is_empty() => {
            rest.trim()
        }
        _ => title,
    }
}

/// Textbook BM25 (k1 = 1.2, b = 0.75) over the papers' abstracts, a query
/// scored as an OR of its words (stemmed as the engine stems them): the
/// peer.
pub struct Bm25 {
    /// Per stem, its postings: (paper, term frequency).
    postings: std::collections::HashMap<String, Vec<(u32, u32)>>,
    /// Each paper's length in words.
    len: Vec<u32>,
    avg_len: f32,
}

impl Bm25 {
    /// The index over the corpus's abstracts.
    pub fn new(corpus: &Corpus) -> Bm25 {
        let mut postings: std::collections::HashMap<String, Vec<(u32, u32)>> = Default::default();
        let mut len = Vec::with_capacity(corpus.papers.len());
        for (d, p) in corpus.papers.iter().enumerate() {
            let tokens = tokenize(&p.text);
            len.push(tokens.len() as u32);
            let mut tf: std::collections::HashMap<String, u32> = Default::default();
            for t in tokens {
                *tf.entry(t.stem).or_default() += 1;
            }
            for (stem, n) in tf {
                postings.entry(stem).or_default().push((d as u32, n));
            }
        }
        let avg_len = len.iter().map(|&l| l as f32).sum::<f32>() / len.len().max(1) as f32;
        Bm25 {
            postings,
            len,
            avg_len,
        }
    }

    /// Every paper holding a word of the query, best first.
    pub fn ranking(&self, query: &str) -> Vec<u32> {
        let (k1, b) = (1.2f32, 0.75f32);
        let n = self.len.len() as f32;
        let mut stems: Vec<String> = tokenize(query).into_iter().map(|t| t.stem).collect();
        stems.sort();
        stems.dedup();
        let mut score = vec![0f32; self.len.len()];
        for stem in &stems {
            let Some(list) = self.postings.get(stem) else {
                continue;
            };
            let df = list.len() as f32;
            let idf = ((n - df + 0.5) / (df + 0.5)).ln_1p();
            for &(d, tf) in list {
                let tf = tf as f32;
                let norm = 1.0 - b + b * self.len[d as usize] as f32 / self.avg_len;
                score[d as usize] += idf * tf * (k1 + 1.0) / (tf + k1 * norm);
            }
        }
        let mut order: Vec<u32> = (0..score.len() as u32)
            .filter(|&d| score[d as usize] > 0.0)
            .collect();
        order.sort_by(|&a, &b| {
            score[b as usize]
                .total_cmp(&score[a as usize])
                .then(a.cmp(&b))
        });
        order
    }
}

/// The rankings compared, in the order [`evaluate`] scores them.
pub const RANKINGS: [&str; 4] = [
    "the page (matches and best matches, then by meaning)",
    "words only (matches and best matches, no meaning)",
    "meaning only",
    "BM25 over the abstracts, an OR of the words (peer)",
];

/// Where each of [`RANKINGS`] puts the paper meant: its rank, if at all.
fn ranks(e: &Engine, bm25: &Bm25, q: &TitleQuery, text: &str, weight: f32) -> [Option<usize>; 4] {
    let words = found_with(e, text, 0.0);
    let meaning = meaning_ranking(e, text);
    let page = page_order(e, text, weight, &meaning);
    let peer = bm25.ranking(text);
    [page, words, meaning, peer].map(|r| r.iter().position(|&d| d == q.doc))
}

/// Recall@10 and MRR of each of [`RANKINGS`] over the queries, each typed
/// as `typed` makes it of the title, the page's best matches fused with
/// meaning at `weight` ([`Engine::set_meaning_weight`]; the engine is left
/// with its own).
pub fn evaluate(
    e: &Engine,
    bm25: &Bm25,
    queries: &[&TitleQuery],
    typed: impl Fn(&str) -> &str,
    weight: f32,
) -> [Scores; 4] {
    let mut out = [Scores::default(); 4];
    for q in queries {
        let text = typed(&q.query);
        let found = ranks(e, bm25, q, text, weight);
        for (s, rank) in out.iter_mut().zip(found) {
            s.recall_at_10 += f64::from(u8::from(rank.is_some_and(|r| r < 10)));
            s.mrr += rank.map_or(0.0, |r| 1.0 / (r as f64 + 1.0));
            s.queries += 1;
        }
    }
    e.set_meaning_weight(MEANING_WEIGHT);
    for s in &mut out {
        if s.queries > 0 {
            s.recall_at_10 /= s.queries as f64;
            s.mrr /= s.queries as f64;
        }
    }
    out
}
