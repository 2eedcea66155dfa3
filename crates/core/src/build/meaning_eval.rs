//! The judged query set: natural-language queries with the papers a
//! researcher expects, and how well each ranking finds them (recall@10 and
//! mean reciprocal rank), for words only, meaning only and the two fused.

use serde::Deserialize;

use crate::search::engine::Engine;
use crate::Sort;

/// One judged query.
#[derive(Debug, Clone, Deserialize)]
pub struct Judged {
    /// `lexical` (in the abstracts' words) or `paraphrase` (in others).
    pub kind: String,
    /// The query as typed.
    pub query: String,
    /// Ids of the papers that answer it.
    pub relevant: Vec<String>,
}

/// A line of the judged set that is not a judged query.
#[derive(Debug)]
pub struct BadLine {
    /// The 1-based line.
    pub line: usize,
    /// Why it does not read.
    pub source: serde_json::Error,
}

impl std::fmt::Display for BadLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.source)
    }
}

impl std::error::Error for BadLine {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// Reads the judged set (one JSON object per line).
pub fn read(text: &str) -> Result<Vec<Judged>, BadLine> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).map_err(|source| BadLine {
                line: i + 1,
                source,
            })
        })
        .collect()
}

/// Recall@10 and MRR of one ranking over a set of queries.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Scores {
    /// Mean share of each query's papers in its first ten.
    pub recall_at_10: f64,
    /// Mean of 1 / rank of each query's first relevant paper.
    pub mrr: f64,
    /// Queries scored.
    pub queries: usize,
}

impl Scores {
    /// How many queries found their paper in the first ten (one paper
    /// meant per query): ties between rankings show where the rounded
    /// recall hides them.
    pub fn found_in_ten(&self) -> usize {
        (self.recall_at_10 * self.queries as f64).round() as usize
    }

    /// A table cell: recall@10 (how many found in the first ten) / MRR,
    /// the MRR to `digits` places.
    pub fn cell(&self, digits: usize) -> String {
        format!(
            "{:.3} ({}) / {:.digits$}",
            self.recall_at_10,
            self.found_in_ten(),
            self.mrr
        )
    }
}

/// The rankings compared.
pub const RANKINGS: [&str; 4] = ["lexical", "meaning", "hybrid (page)", "hybrid (RRF)"];

/// Every paper in order of meaning for `query` (evaluation): all of
/// them, nearest first.
pub(crate) fn meaning_ranking(e: &Engine, query: &str) -> Vec<u32> {
    let q = e.parse_query(query);
    let Some(m) = e.meaning() else {
        return Vec::new();
    };
    let Some(v) = m.embed_query(&Engine::meaning_text(&q)) else {
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

/// What the search finds for `query` with meaning weighing `weight` in the
/// best matches (0: words only), the engine's own weight left as it was.
pub(crate) fn found_with(e: &Engine, query: &str, weight: f32) -> Vec<u32> {
    let own = e.meaning_weight();
    e.set_meaning_weight(weight);
    let found = e.search(query, &e.no_selection(), Sort::Relevance).docs();
    e.set_meaning_weight(own);
    found
}

/// The page's order: what the search finds (meaning weighing `weight`),
/// then every other paper in `meaning` order (the related papers).
pub(crate) fn page_order(e: &Engine, query: &str, weight: f32, meaning: &[u32]) -> Vec<u32> {
    let mut page = found_with(e, query, weight);
    let mut shown = vec![false; e.len()];
    page.iter().for_each(|&d| shown[d as usize] = true);
    page.extend(meaning.iter().filter(|&&d| !shown[d as usize]));
    page
}

/// The four rankings of one query: the matches; every paper by meaning;
/// the page's order (the matches, then the rest by meaning); reciprocal
/// rank fusion of the first two (k = 60).
pub fn rankings(e: &Engine, query: &str) -> [Vec<u32>; 4] {
    // Words only: the best matches without the papers nearest in meaning.
    let lexical = found_with(e, query, 0.0);
    let meaning = meaning_ranking(e, query);
    let page = page_order(e, query, e.meaning_weight(), &meaning);
    let mut fused: Vec<(u32, f64)> = (0..e.len() as u32)
        .map(|d| {
            let r = |list: &[u32]| {
                list.iter()
                    .position(|&x| x == d)
                    .map_or(0.0, |p| 1.0 / (60.0 + p as f64 + 1.0))
            };
            (d, r(&lexical) + r(&meaning))
        })
        .collect();
    fused.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    [
        lexical,
        meaning,
        page,
        fused.into_iter().map(|(d, _)| d).collect(),
    ]
}

/// Scores per ranking ([`RANKINGS`]) over the queries of `kind` (all with
/// `None`).
pub fn evaluate(e: &Engine, judged: &[Judged], kind: Option<&str>) -> [Scores; 4] {
    let mut out = [Scores::default(); 4];
    for j in judged.iter().filter(|j| kind.is_none_or(|k| j.kind == k)) {
        let relevant: Vec<u32> = j.relevant.iter().filter_map(|id| e.doc_of(id)).collect();
        if relevant.is_empty() {
            continue;
        }
        for (s, ranking) in out.iter_mut().zip(rankings(e, &j.query)) {
            let found = ranking
                .iter()
                .take(10)
                .filter(|d| relevant.contains(d))
                .count();
            s.recall_at_10 += found as f64 / relevant.len() as f64;
            s.mrr += ranking
                .iter()
                .position(|d| relevant.contains(d))
                .map_or(0.0, |p| 1.0 / (p as f64 + 1.0));
            s.queries += 1;
        }
    }
    for s in &mut out {
        if s.queries > 0 {
            s.recall_at_10 /= s.queries as f64;
            s.mrr /= s.queries as f64;
        }
    }
    out
}
