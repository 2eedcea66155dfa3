//! Similar papers, computed at build time from the index: each paper's
//! TF-IDF vector over the stems of its title and abstract, pruned to its
//! most telling terms, and the papers nearest to it by cosine similarity,
//! with the shared terms that explain each match. The same vectors give
//! each paper its keywords and place it on the topic map (`layout`).

use std::collections::HashMap;

use crate::model::Similar;
use crate::search::index::{Index, IndexData, FIELD_TEXT, FIELD_TITLE};

/// How many similar papers each paper lists.
pub const PER_PAPER: usize = 5;
/// How many shared terms explain a match.
pub const SHARED_TERMS: usize = 3;
/// A paper's vector keeps only its heaviest terms: the ones that say what it
/// is about, and a bounded amount of work per paper at 100,000 papers.
const TERMS_PER_PAPER: usize = 24;
/// A title word counts this many times one in the abstract.
const TITLE_WEIGHT: f32 = 2.0;
/// The most papers a term may be in and still relate them: past this, the
/// term is vocabulary, and a large corpus's work stays linear.
const MAX_DF: usize = 1000;
/// Below this cosine, papers share little more than vocabulary.
const MIN_SIMILARITY: f32 = 0.05;
/// How many neighbours place a paper on the map (more than it lists: the
/// layout needs a denser graph than a reader needs suggestions).
const MAP_NEIGHBOURS: usize = 15;
/// How many keywords a paper keeps (what a region of the map is about).
pub const KEYWORDS: usize = 5;

/// What build time finds out about papers' neighbourhoods.
pub struct Discovery {
    /// Per paper, the most similar papers, nearest first.
    pub similar: Vec<Vec<Similar>>,
    /// Per paper, its heaviest terms, heaviest first (indexes into `words`).
    pub keywords: Vec<Vec<u32>>,
    /// Per paper, its place on the topic map.
    pub map: Vec<[u16; 2]>,
    /// The words shared terms and keywords index (each stem shown as its
    /// shortest surface form in the corpus).
    pub words: Vec<String>,
}

/// Each paper's similar papers, keywords and place on the map.
/// `derived_titles[d]` says that paper `d`'s title was derived from its
/// abstract: such a title restates the abstract's words, so it adds no
/// weight of its own (a real title counts `TITLE_WEIGHT` times).
pub(crate) fn discover(data: &IndexData, derived_titles: &[bool]) -> Discovery {
    let docs = derived_titles.len();
    let Some(index) = Index::open(data.clone(), docs) else {
        return Discovery {
            similar: vec![Vec::new(); docs],
            keywords: vec![Vec::new(); docs],
            map: vec![[u16::MAX / 2; 2]; docs],
            words: Vec::new(),
        };
    };
    let shown = shortest_words(&index);
    let vectors = vectors(&index, &shown, derived_titles);
    let near = neighbours(&vectors, index.stem_count() as usize);
    let mut words = Words::new(&shown);
    let similar = near
        .iter()
        .enumerate()
        .map(|(d, best)| {
            best.iter()
                .take(PER_PAPER)
                .map(|&(e, _)| {
                    let shared = shared_terms(&vectors[d], &vectors[e as usize]);
                    let mut terms = [Similar::NO_TERM; SHARED_TERMS];
                    for (slot, s) in terms.iter_mut().zip(shared) {
                        *slot = words.id(s);
                    }
                    Similar { doc: e, terms }
                })
                .collect()
        })
        .collect();
    let keywords = vectors
        .iter()
        .map(|v| {
            let mut heaviest = v.clone();
            heaviest.sort_by(heaviest_first);
            heaviest
                .into_iter()
                .take(KEYWORDS)
                .map(|(s, _)| words.id(s))
                .collect()
        })
        .collect();
    let graph: Vec<Vec<u32>> = near
        .iter()
        .map(|best| best.iter().map(|&(e, _)| e).collect())
        .collect();
    let map = crate::build::topic_map::layout(&vectors, index.stem_count() as usize, &graph);
    Discovery {
        similar,
        keywords,
        map,
        words: words.words,
    }
}

/// Each paper's TF-IDF vector over its telling stems, pruned to its
/// [`TERMS_PER_PAPER`] heaviest, unit length, sorted by stem.
fn vectors(index: &Index, shown: &[String], derived_titles: &[bool]) -> Vec<Vec<(u32, f32)>> {
    let docs = derived_titles.len();
    let stop = crate::build::stop_words();
    // A term found in one paper relates it to none; one found in a tenth of
    // the corpus (or more than ten papers of a small one, or a thousand of a
    // large one) is vocabulary, not topic.
    let max_df = (docs / 10).clamp(10, MAX_DF) as u32;
    let mut vectors: Vec<Vec<(u32, f32)>> = vec![Vec::new(); docs];
    for stem in 0..index.stem_count() {
        let df = index.df(stem);
        let word = &shown[stem as usize];
        // Words, not stop words, numbers, letters or web addresses.
        let telling = word.chars().count() > 1
            && word.chars().any(char::is_alphabetic)
            && !word.contains(['.', '/'])
            && !stop.contains(word.as_str());
        if df < 2 || df > max_df || !telling {
            continue;
        }
        let idf = crate::model::math::ln(docs as f32 / df as f32);
        for p in index.postings_iter(stem, false) {
            let title_weight = if derived_titles[p.doc as usize] {
                0.0
            } else {
                TITLE_WEIGHT
            };
            let tf = title_weight * p.tf[FIELD_TITLE] as f32 + p.tf[FIELD_TEXT] as f32;
            if tf > 0.0 {
                vectors[p.doc as usize].push((stem, (1.0 + crate::model::math::ln(tf)) * idf));
            }
        }
    }
    for v in &mut vectors {
        v.sort_by(heaviest_first);
        v.truncate(TERMS_PER_PAPER);
        let norm = v.iter().map(|(_, w)| w * w).sum::<f32>().sqrt();
        for (_, w) in v.iter_mut() {
            *w /= norm.max(f32::MIN_POSITIVE);
        }
        v.sort_by_key(|&(s, _)| s);
    }
    vectors
}

/// Per paper, its [`MAP_NEIGHBOURS`] nearest papers by cosine (at least
/// [`MIN_SIMILARITY`]), nearest first: through the vectors inverted, so
/// that a paper meets only the papers it shares a term with.
fn neighbours(vectors: &[Vec<(u32, f32)>], stems: usize) -> Vec<Vec<(u32, f32)>> {
    let docs = vectors.len();
    // The pruned vectors, inverted: per stem, the papers keeping it.
    let mut keeping: Vec<Vec<(u32, f32)>> = vec![Vec::new(); stems];
    for (d, v) in vectors.iter().enumerate() {
        for &(s, w) in v {
            keeping[s as usize].push((d as u32, w));
        }
    }
    let mut score = vec![0f32; docs];
    let mut touched: Vec<u32> = Vec::new();
    let mut out = Vec::with_capacity(docs);
    for (d, v) in vectors.iter().enumerate() {
        for &(s, w) in v {
            for &(e, we) in &keeping[s as usize] {
                if e as usize != d {
                    if score[e as usize] == 0.0 {
                        touched.push(e);
                    }
                    score[e as usize] += w * we;
                }
            }
        }
        let mut best: Vec<(u32, f32)> = touched
            .drain(..)
            .map(|e| (e, std::mem::take(&mut score[e as usize])))
            .filter(|&(_, s)| s >= MIN_SIMILARITY)
            .collect();
        // The top few of thousands of candidates: select, then sort those.
        if best.len() > MAP_NEIGHBOURS {
            best.select_nth_unstable_by(MAP_NEIGHBOURS - 1, heaviest_first);
            best.truncate(MAP_NEIGHBOURS);
        }
        best.sort_by(heaviest_first);
        out.push(best);
    }
    out
}

/// The words that shared terms and keywords name, each stem once, in the
/// order first used.
struct Words<'a> {
    shown: &'a [String],
    words: Vec<String>,
    ids: HashMap<u32, u32>,
}

impl<'a> Words<'a> {
    fn new(shown: &'a [String]) -> Words<'a> {
        Words {
            shown,
            words: Vec::new(),
            ids: HashMap::new(),
        }
    }

    fn id(&mut self, stem: u32) -> u32 {
        *self.ids.entry(stem).or_insert_with(|| {
            self.words.push(self.shown[stem as usize].clone());
            self.words.len() as u32 - 1
        })
    }
}

/// Orders (id, weight) pairs by weight, heaviest first, then by id.
fn heaviest_first(a: &(u32, f32), b: &(u32, f32)) -> std::cmp::Ordering {
    b.1.total_cmp(&a.1).then(a.0.cmp(&b.0))
}

/// The stems two (stem-sorted) vectors share, heaviest product first.
fn shared_terms(a: &[(u32, f32)], b: &[(u32, f32)]) -> Vec<u32> {
    let mut shared = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                shared.push((a[i].0, a[i].1 * b[j].1));
                i += 1;
                j += 1;
            }
        }
    }
    shared.sort_by(heaviest_first);
    shared.into_iter().map(|(s, _)| s).collect()
}

/// Every folded surface word with the stem id it was indexed under, in
/// byte order.
fn surface_words(index: &Index) -> Vec<(String, u32)> {
    let words = index.surface_words();
    words.map(|(w, id)| (w.to_string(), id)).collect()
}

/// Per stem id, the shortest folded word indexed under it (`model` for
/// `model`, `models`, `modeling`), alphabetically first among equals.
fn shortest_words(index: &Index) -> Vec<String> {
    let mut shown = vec![String::new(); index.stem_count() as usize];
    for (word, stem) in surface_words(index) {
        let slot = &mut shown[stem as usize];
        if slot.is_empty() || (word.len(), &word) < (slot.len(), slot) {
            *slot = word;
        }
    }
    shown
}
