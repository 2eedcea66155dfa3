//! How a list's vocabulary grows with its papers: distinct words, the words
//! found in one paper only, words an abstract, how many words a two- or
//! three-letter prefix opens, and Heaps' law (`V = K·N^β`) fitted over
//! nested subsets of the papers. `explorer-cli vocab` prints it; the
//! synthetic lists are made to follow what it measured on a real list
//! (`synth`).
//!
//! Words are counted as the index's word list holds them: each abstract's
//! visible text (its markup parsed as the compiler parses it) split by
//! [`text::words`] and folded by [`text::fold`], not stemmed (`models` and
//! `model` are two words, as typing a prefix finds them). Titles and
//! authors are left out: the figures are the abstracts'.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use crate::build::markup;
use crate::build::records::RecordList;
use crate::model::text;

/// The two-letter prefixes reported by name.
pub const NAMED_2: [&str; 4] = ["di", "co", "re", "pr"];
/// The three-letter prefixes reported by name.
pub const NAMED_3: [&str; 3] = ["dif", "con", "pre"];
/// Subsets smaller than this many papers are not measured.
const SMALLEST_SUBSET: usize = 16;
/// How many times the list is halved for its nested subsets (1/64 … all).
const HALVINGS: u32 = 6;

/// The visible text of an abstract as written: what the index reads.
pub fn visible(abstract_src: &str) -> String {
    markup::parse(abstract_src).text
}

/// The visible texts of a list's abstracts, in its order; records without
/// one are left out. Each record is let go once read: a list of 250,000
/// papers is 400 MB.
pub fn abstracts(list: RecordList) -> Vec<String> {
    list.records
        .into_iter()
        .filter_map(|r| r.abstract_text)
        .filter(|a| !a.trim().is_empty())
        .map(|a| visible(&a))
        .collect()
}

/// How many words a prefix of one length opens.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fanout {
    /// The mean over the prefixes of ASCII letters that open at least one
    /// word.
    pub mean: f64,
    /// The mean as a reader meets it: each prefix weighted by how many of
    /// the text's words begin with it.
    pub typed_mean: f64,
    /// The named prefixes ([`NAMED_2`], [`NAMED_3`]) and the words each
    /// opens.
    pub named: BTreeMap<String, usize>,
}

/// A list's (or a subset's) vocabulary.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Figures {
    /// Papers (abstracts) read.
    pub papers: usize,
    /// Words read, repeats included.
    pub tokens: u64,
    /// Distinct folded words.
    pub words: usize,
    /// Words found in one paper only.
    pub hapax: usize,
    /// `hapax / words`.
    pub hapax_share: f64,
    /// The share of the words a two-letter prefix opens: those that begin
    /// with two ASCII letters.
    pub letter_share: f64,
    /// The share of the words that begin with a digit.
    pub digit_share: f64,
    /// The median abstract's length in words.
    pub median_length: f64,
    /// How the abstracts' lengths spread: the standard deviation of their
    /// logarithm.
    pub length_spread: f64,
    /// Two-letter prefixes.
    pub prefix2: Fanout,
    /// Three-letter prefixes.
    pub prefix3: Fanout,
}

/// Heaps' law, `V = K·N^β`, `N` papers or words read.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Heaps {
    /// `K`.
    pub k: f64,
    /// `β`.
    pub beta: f64,
}

impl Heaps {
    /// The distinct words it predicts for `n`.
    pub fn at(&self, n: f64) -> f64 {
        self.k * n.powf(self.beta)
    }

    /// The least-squares line through `(ln n, ln v)` of `points` (`n`,
    /// `v`); `None` below two distinct `n`.
    pub fn fit(points: &[(f64, f64)]) -> Option<Heaps> {
        let xy: Vec<(f64, f64)> = points
            .iter()
            .filter(|(n, v)| *n > 0.0 && *v > 0.0)
            .map(|(n, v)| (n.ln(), v.ln()))
            .collect();
        let m = xy.len() as f64;
        let (mx, my) = xy
            .iter()
            .fold((0.0, 0.0), |(a, b), (x, y)| (a + x / m, b + y / m));
        let sxx: f64 = xy.iter().map(|(x, _)| (x - mx).powi(2)).sum();
        let sxy: f64 = xy.iter().map(|(x, y)| (x - mx) * (y - my)).sum();
        if xy.len() < 2 || sxx <= 0.0 {
            return None;
        }
        let beta = sxy / sxx;
        Some(Heaps {
            k: (my - beta * mx).exp(),
            beta,
        })
    }
}

/// A list's vocabulary, whole and in nested subsets, with Heaps' law.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// The nested subsets, smallest first; the last is the whole list.
    pub subsets: Vec<Figures>,
    /// Heaps' law over papers (`N` papers), fitted on the subsets.
    pub heaps_papers: Option<Heaps>,
    /// Heaps' law over words read (`N` tokens), fitted on the subsets.
    pub heaps_tokens: Option<Heaps>,
    /// The whole list's words by their first two letters (those beginning
    /// with two ASCII letters).
    pub prefix2_words: BTreeMap<String, usize>,
}

impl Report {
    /// The whole list's figures.
    pub fn all(&self) -> Option<&Figures> {
        self.subsets.last()
    }
}

/// One word's counts so far.
#[derive(Default)]
struct Seen {
    /// Papers it is in.
    papers: u32,
    /// Times it was read.
    tokens: u32,
    /// The last paper it was read in, plus one (0: none yet).
    last: u32,
}

/// The words of the papers read so far.
#[derive(Default)]
struct Tally {
    words: HashMap<String, Seen>,
    tokens: u64,
    lengths: Vec<u32>,
}

impl Tally {
    fn read(&mut self, text: &str) {
        let paper = self.lengths.len() as u32 + 1;
        let mut length = 0;
        for (_, w) in text::words(text) {
            let seen = self.words.entry(text::fold(w)).or_default();
            if seen.last != paper {
                seen.last = paper;
                seen.papers += 1;
            }
            seen.tokens += 1;
            length += 1;
        }
        self.tokens += u64::from(length);
        self.lengths.push(length);
    }

    fn figures(&self) -> Figures {
        let words = self.words.len();
        let hapax = self.words.values().filter(|s| s.papers == 1).count();
        let digits = self
            .words
            .keys()
            .filter(|w| w.starts_with(|c: char| c.is_ascii_digit()))
            .count();
        let letters = self
            .words
            .keys()
            .filter(|w| begins_with_letters(w, 2))
            .count();
        let share = |n: usize| {
            if words == 0 {
                0.0
            } else {
                n as f64 / words as f64
            }
        };
        Figures {
            papers: self.lengths.len(),
            tokens: self.tokens,
            words,
            hapax,
            hapax_share: share(hapax),
            letter_share: share(letters),
            digit_share: share(digits),
            median_length: median(&self.lengths),
            length_spread: log_spread(&self.lengths),
            prefix2: self.fanout(2, &NAMED_2),
            prefix3: self.fanout(3, &NAMED_3),
        }
    }

    /// The words each prefix of `len` ASCII letters opens.
    fn fanout(&self, len: usize, named: &[&str]) -> Fanout {
        // Per prefix: words it opens, and the tokens they were read as.
        let mut by_prefix: HashMap<&str, (usize, u64)> = HashMap::new();
        for (w, seen) in &self.words {
            let Some(p) = w
                .get(..len)
                .filter(|p| p.bytes().all(|b| b.is_ascii_lowercase()))
            else {
                continue;
            };
            let e = by_prefix.entry(p).or_default();
            e.0 += 1;
            e.1 += u64::from(seen.tokens);
        }
        let opened: usize = by_prefix.values().map(|e| e.0).sum();
        let typed: u64 = by_prefix.values().map(|e| e.1).sum();
        let typed_sum: f64 = by_prefix.values().map(|e| e.0 as f64 * e.1 as f64).sum();
        Fanout {
            mean: opened as f64 / by_prefix.len().max(1) as f64,
            typed_mean: typed_sum / typed.max(1) as f64,
            named: named
                .iter()
                .map(|p| (p.to_string(), by_prefix.get(p).map_or(0, |e| e.0)))
                .collect(),
        }
    }
}

/// Whether `word` begins with `n` ASCII letters (folded: lowercase).
pub fn begins_with_letters(word: &str, n: usize) -> bool {
    word.len() >= n && word.bytes().take(n).all(|b| b.is_ascii_lowercase())
}

fn median(lengths: &[u32]) -> f64 {
    let mut sorted = lengths.to_vec();
    sorted.sort_unstable();
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => f64::from(sorted[n / 2]),
        n => (f64::from(sorted[n / 2 - 1]) + f64::from(sorted[n / 2])) / 2.0,
    }
}

/// The standard deviation of the logarithms of the non-zero `lengths`.
fn log_spread(lengths: &[u32]) -> f64 {
    let logs: Vec<f64> = (lengths.iter())
        .filter(|&&n| n > 0)
        .map(|&n| f64::from(n).ln())
        .collect();
    let n = logs.len().max(1) as f64;
    let mean = logs.iter().sum::<f64>() / n;
    (logs.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / n).sqrt()
}

/// The order nested subsets are taken in: a fixed shuffle of the papers'
/// positions, so that each subset is a sample of the whole list, not its
/// first file.
fn shuffled(n: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| (xxhash_rust::xxh3::xxh3_64(&(i as u64).to_le_bytes()), i));
    order
}

/// The subsets' sizes: the list halved up to [`HALVINGS`] times, none
/// below [`SMALLEST_SUBSET`] papers (the whole list always), smallest first.
fn subset_sizes(n: usize) -> Vec<usize> {
    let mut sizes: Vec<usize> = (0..=HALVINGS)
        .rev()
        .map(|h| n >> h)
        .filter(|&s| s >= SMALLEST_SUBSET)
        .collect();
    sizes.push(n);
    sizes.dedup();
    sizes
}

/// Measures the abstracts `texts` (visible text, as [`abstracts`] gives),
/// whole and in nested subsets, and fits Heaps' law on the subsets.
pub fn measure(texts: &[String]) -> Report {
    let mut tally = Tally::default();
    let mut subsets = Vec::new();
    let sizes = subset_sizes(texts.len());
    let mut next = sizes.iter().peekable();
    for (read, i) in shuffled(texts.len()).into_iter().enumerate() {
        tally.read(&texts[i]);
        if next.next_if(|&&s| s == read + 1).is_some() {
            subsets.push(tally.figures());
        }
    }
    if texts.is_empty() {
        subsets.push(tally.figures());
    }
    let points = |n: fn(&Figures) -> f64| -> Vec<(f64, f64)> {
        subsets.iter().map(|f| (n(f), f.words as f64)).collect()
    };
    let mut prefix2_words = BTreeMap::new();
    for w in tally.words.keys().filter(|w| begins_with_letters(w, 2)) {
        *prefix2_words.entry(w[..2].to_string()).or_default() += 1;
    }
    Report {
        prefix2_words,
        heaps_papers: Heaps::fit(&points(|f| f.papers as f64)),
        heaps_tokens: Heaps::fit(&points(|f| f.tokens as f64)),
        subsets,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heaps_fit_recovers_a_power_law() {
        let points: Vec<(f64, f64)> = [10.0, 100.0, 1000.0]
            .iter()
            .map(|&n: &f64| (n, 3.0 * n.powf(0.6)))
            .collect();
        let h = Heaps::fit(&points).unwrap();
        assert!(
            (h.k - 3.0).abs() < 1e-9 && (h.beta - 0.6).abs() < 1e-9,
            "{h:?}"
        );
        assert_eq!(Heaps::fit(&points[..1]), None);
    }

    #[test]
    fn counts_folded_words_by_paper() {
        let texts: Vec<String> = ["Diffusion models, $x$ diffusion.", "Direct models 2024"]
            .iter()
            .map(|t| visible(t))
            .collect();
        let r = measure(&texts);
        let all = r.all().unwrap();
        // diffusion, models, x, direct, 2024; `models` is in both papers.
        assert_eq!((all.papers, all.tokens, all.words, all.hapax), (2, 7, 5, 4));
        assert_eq!(all.prefix2.named["di"], 2);
        assert_eq!(all.prefix3.named["dif"], 1);
        assert_eq!(all.median_length, 3.5);
        assert!((all.digit_share - 0.2).abs() < 1e-9);
        assert!((all.letter_share - 0.6).abs() < 1e-9);
        assert_eq!(r.prefix2_words.get("di"), Some(&2));
        assert_eq!(subset_sizes(100), [25, 50, 100]);
        assert_eq!(subset_sizes(3_891)[..2], [60, 121]);
        assert_eq!(subset_sizes(3), [3]);
    }
}
