//! How derived titles compare with the titles researchers wrote: the
//! measures of `explorer-cli eval-titles`, on records that carry real
//! titles. Each paper's title is derived from its abstract alone and set
//! against the real one.

use std::collections::HashSet;

use crate::build::markup;
use crate::build::records::Record;
use crate::build::stop_words;
use crate::build::title::derive_title_with;
pub use crate::build::title::flaws::{flaws, Flaw};
/// The names of a candidate's features, in their order.
pub use crate::build::title::rank::FEATURES;
use crate::build::title::rank::{self, Features};

/// One paper: its real title and the one derived from its abstract.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    /// The record's title, as visible text.
    pub real: String,
    /// The title [`derive_title`] gives the abstract.
    pub derived: String,
    /// Content-word overlap of the two (ROUGE-1 F1, stop words out).
    pub overlap: f64,
    /// `Some(name)` when the real title is `NAME: …` and the abstract
    /// contains NAME.
    pub name: Option<String>,
    /// What makes the derived title read as broken (empty when nothing).
    pub flaws: Vec<Flaw>,
}

/// The four measures, over every record with a title and an abstract.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// Every compared paper, in input order.
    pub cases: Vec<Case>,
}

impl Report {
    /// Derives a title for each record with a title and an abstract.
    pub fn new<'a>(records: impl IntoIterator<Item = &'a Record>) -> Report {
        Report::with_weights(records, |_| &rank::WEIGHTS)
    }

    /// As [`Report::new`], each paper's title chosen by the ranker weights
    /// fitted without its fold ([`rank::FOLD_WEIGHTS`]): held-out figures.
    pub fn held_out<'a>(records: impl IntoIterator<Item = &'a Record>) -> Report {
        Report::with_weights(records, |r| &rank::FOLD_WEIGHTS[rank::fold(&fold_key(r))])
    }

    /// As [`Report::new`], with the ranker weights `weights` gives a record.
    pub fn with_weights<'a>(
        records: impl IntoIterator<Item = &'a Record>,
        weights: impl Fn(&Record) -> &'static Features,
    ) -> Report {
        let stop = stop_words();
        let cases = records
            .into_iter()
            .filter_map(|r| {
                let real = markup::parse(r.title.as_deref()?).text;
                let text = markup::parse(r.abstract_text.as_deref()?).text;
                let derived = derive_title_with(&text, weights(r));
                let overlap = rouge1(&real, &derived, stop);
                let name = named_prefix(&real)
                    .filter(|n| contains_word(&text, n))
                    .map(str::to_string);
                let flaws = flaws(&derived, &text);
                Some(Case {
                    real,
                    derived,
                    overlap,
                    name,
                    flaws,
                })
            })
            .collect();
        Report { cases }
    }

    /// Of the real titles `NAME: …` whose NAME is in the abstract, the share
    /// whose derived title starts with NAME (`None` when there are none).
    pub fn name_kept(&self) -> Option<f64> {
        let named: Vec<&Case> = self.cases.iter().filter(|c| c.name.is_some()).collect();
        share(named.len(), |i| {
            let c = named[i];
            starts_with_name(&c.derived, c.name.as_deref().unwrap_or(""))
        })
    }

    /// The share of derived titles cut short with an ellipsis.
    pub fn truncated(&self) -> Option<f64> {
        share(self.cases.len(), |i| self.cases[i].derived.ends_with('…'))
    }

    /// How many derived titles show markup: emphasis stars, TeX quotes,
    /// dollars, backslashes, braces.
    pub fn with_markup(&self) -> usize {
        self.cases.iter().filter(|c| has_markup(&c.derived)).count()
    }

    /// The median content-word overlap with the real titles.
    pub fn median_overlap(&self) -> Option<f64> {
        let mut v: Vec<f64> = self.cases.iter().map(|c| c.overlap).collect();
        if v.is_empty() {
            return None;
        }
        v.sort_by(f64::total_cmp);
        let m = v.len() / 2;
        Some(if v.len() % 2 == 1 {
            v[m]
        } else {
            (v[m - 1] + v[m]) / 2.0
        })
    }

    /// The mean content-word overlap with the real titles.
    pub fn mean_overlap(&self) -> Option<f64> {
        let n = self.cases.len();
        (n > 0).then(|| self.cases.iter().map(|c| c.overlap).sum::<f64>() / n as f64)
    }

    /// The share of derived titles with at least one [`Flaw`].
    pub fn broken(&self) -> Option<f64> {
        share(self.cases.len(), |i| !self.cases[i].flaws.is_empty())
    }

    /// How many derived titles have `flaw`.
    pub fn with_flaw(&self, flaw: Flaw) -> usize {
        self.cases
            .iter()
            .filter(|c| c.flaws.contains(&flaw))
            .count()
    }

    /// The `n` cases with the least overlap, worst first (ties in input order).
    pub fn worst(&self, n: usize) -> Vec<&Case> {
        let mut v: Vec<&Case> = self.cases.iter().collect();
        v.sort_by(|a, b| a.overlap.total_cmp(&b.overlap));
        v.truncate(n);
        v
    }
}

/// What decides a record's fold: its id, else its title.
pub fn fold_key(r: &Record) -> String {
    r.id.clone().or_else(|| r.title.clone()).unwrap_or_default()
}

/// One candidate title of one paper, for fitting the ranker.
#[derive(Debug, Clone, PartialEq)]
pub struct CandidateRow {
    /// The paper's place among the records with a title and an abstract.
    pub paper: usize,
    /// The paper's fold ([`rank::fold`]).
    pub fold: usize,
    /// The candidate's overlap with the real title.
    pub overlap: f64,
    /// The candidate.
    pub candidate: rank::Candidate,
}

/// Every candidate of every record with a title and an abstract.
pub fn candidate_rows<'a>(records: impl IntoIterator<Item = &'a Record>) -> Vec<CandidateRow> {
    let stop = stop_words();
    let mut rows = Vec::new();
    let with_both = records
        .into_iter()
        .filter(|r| r.title.is_some() && r.abstract_text.is_some());
    for (paper, r) in with_both.enumerate() {
        let real = markup::parse(r.title.as_deref().unwrap_or("")).text;
        let text = markup::parse(r.abstract_text.as_deref().unwrap_or("")).text;
        let fold = rank::fold(&fold_key(r));
        let rule = derive_title_with(&text, &[0.0; rank::N_FEATURES]);
        for candidate in rank::candidates(&text, &rule) {
            rows.push(CandidateRow {
                paper,
                fold,
                overlap: rouge1(&real, &candidate.text, stop),
                candidate,
            });
        }
    }
    rows
}

fn share(n: usize, hit: impl Fn(usize) -> bool) -> Option<f64> {
    (n > 0).then(|| (0..n).filter(|&i| hit(i)).count() as f64 / n as f64)
}

/// Characters no researcher puts in a title: markup the parser left as text.
pub fn has_markup(title: &str) -> bool {
    title.contains(['*', '`', '$', '\\', '{', '}']) || title.contains("''")
}

/// `NAME` of a title `NAME: description`: one word-like name of at least two
/// characters before the first colon (`ScaleCap`, `DPH-RL`, `$\pi$-Flow` is
/// not one).
pub fn named_prefix(title: &str) -> Option<&str> {
    let (head, rest) = title.split_once(':')?;
    let head = head.trim();
    (!rest.trim().is_empty()
        && head.chars().count() >= 2
        && !head.contains(char::is_whitespace)
        && head.chars().any(char::is_alphabetic)
        && head
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | '+' | '²' | '³')))
    .then_some(head)
}

fn contains_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

fn starts_with_name(derived: &str, name: &str) -> bool {
    derived
        .strip_prefix(name)
        .is_some_and(|rest| !rest.starts_with(char::is_alphanumeric))
}

/// Lower-cased content words: letters and digits, stop words out.
fn content_words(s: &str, stop: &HashSet<&str>) -> Vec<String> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .filter(|w| !stop.contains(w.as_str()))
        .collect()
}

/// ROUGE-1 F1 over content words: clipped unigram overlap.
fn rouge1(reference: &str, candidate: &str, stop: &HashSet<&str>) -> f64 {
    let r = content_words(reference, stop);
    let c = content_words(candidate, stop);
    if r.is_empty() || c.is_empty() {
        return 0.0;
    }
    let mut pool = r.clone();
    let mut hits = 0usize;
    for w in &c {
        if let Some(i) = pool.iter().position(|p| p == w) {
            pool.swap_remove(i);
            hits += 1;
        }
    }
    if hits == 0 {
        return 0.0;
    }
    let p = hits as f64 / c.len() as f64;
    let rec = hits as f64 / r.len() as f64;
    2.0 * p * rec / (p + rec)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rouge_counts_content_words_once_each() {
        let stop = stop_words();
        assert_eq!(rouge1("A model of the world", "the world model", stop), 1.0);
        assert_eq!(rouge1("Diffusion models", "Transformers", stop), 0.0);
        let half = rouge1(
            "sparse attention kernels",
            "sparse kernels kernels gpu",
            stop,
        );
        assert!((half - 4.0 / 7.0).abs() < 1e-9, "{half}");
    }

    #[test]
    fn names_are_single_words_before_a_colon() {
        assert_eq!(
            named_prefix("ScaleCap: scalable captions"),
            Some("ScaleCap")
        );
        assert_eq!(named_prefix("DPH-RL: hybrid RL"), Some("DPH-RL"));
        assert_eq!(named_prefix("Diffusion models: a survey"), None);
        assert_eq!(named_prefix("Plain title"), None);
        assert!(starts_with_name("ScaleCap: …", "ScaleCap"));
        assert!(!starts_with_name("ScaleCapX", "ScaleCap"));
        assert!(contains_word("we call it ScaleCap, a", "ScaleCap"));
        assert!(!contains_word("ScaleCaps", "ScaleCap"));
    }

    #[test]
    fn broken_titles_are_seen() {
        let f = |t: &str| flaws(t, "We propose X. X outperforms OPGD and Adam.");
        assert_eq!(f("RoMA: “Routing Manifold Alignment"), [Flaw::Unbalanced]);
        assert_eq!(f("Its role in the denoising process"), [Flaw::PronounFirst]);
        assert_eq!(f("Algorithms for parsing and"), [Flaw::FunctionWordLast]);
        assert_eq!(
            f("Ablations on SFT settings and expect our findings to benefit research"),
            [Flaw::ClauseCut]
        );
        assert_eq!(f("Significantly improves the quality"), [Flaw::ClauseCut]);
        assert_eq!(
            f("OGD+: Orthogonal Penalized Gradient Descent (OPGD)"),
            [Flaw::BaselineName]
        );
        assert!(f("Effectiveness of our algorithm on real-world datasets").is_empty());
        assert!(f("Lemma overlap inflates morphological inflection scores").is_empty());
        assert!(f("X: Orthogonal gradient descent for speech and text").is_empty());
    }

    #[test]
    fn markup_in_a_title_is_seen() {
        assert!(has_markup("*DyME*: dynamic"));
        assert!(has_markup("`NatADiff'"));
        assert!(has_markup("O($n$)"));
        assert!(!has_markup("LEXam: a legal exam benchmark"));
    }
}
