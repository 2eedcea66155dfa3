//! Tagging: topics from the lab-editable taxonomy, contribution types from
//! cue phrases, code links, source list and defined acronyms. Every tag
//! carries the reason it was assigned.
//!
//! Terms are matched on the same folded, stemmed tokens that search uses, so
//! `language models` in the taxonomy matches “Language Model” in a paper.

use serde::Deserialize;

use crate::model::text::{tokenize, Token};

/// The taxonomy file (`corpus/taxonomy.toml`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Taxonomy {
    #[serde(default, rename = "topic")]
    /// Topics, tagged from the text.
    pub topics: Vec<Rule>,
    #[serde(default, rename = "contribution")]
    /// Kinds of contribution, tagged from the text.
    pub contributions: Vec<Rule>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
/// One tagging rule: a name and the terms that give it.
pub struct Rule {
    /// The value it gives.
    pub name: String,
    #[serde(default)]
    /// Words and phrases any one of which gives it.
    pub terms: Vec<String>,
    /// Words matched as written (after case and diacritic folding) but not
    /// stemmed: for words whose stem is too broad (`tokenizer` → `token`).
    #[serde(default)]
    pub exact: Vec<String>,
    /// How many matches a paper needs before it gets the tag.
    #[serde(default = "one")]
    pub min: usize,
}

fn one() -> usize {
    1
}

/// A rule compiled to stem sequences.
pub struct Matcher {
    /// The value it gives.
    pub name: String,
    /// (term as written, its words, whether to compare stems or folded words)
    phrases: Vec<(String, Vec<String>, bool)>,
    min: usize,
}

impl Matcher {
    /// The rule compiled.
    pub fn new(rule: &Rule) -> Matcher {
        Matcher {
            name: rule.name.clone(),
            phrases: rule
                .terms
                .iter()
                .map(|t| (t, true))
                .chain(rule.exact.iter().map(|t| (t, false)))
                .map(|(t, stemmed)| {
                    let words = tokenize(t)
                        .into_iter()
                        .map(|w| if stemmed { w.stem } else { w.folded })
                        .collect::<Vec<_>>();
                    (t.clone(), words, stemmed)
                })
                .filter(|(_, w, _)| !w.is_empty())
                .collect(),
            min: rule.min.max(1),
        }
    }

    /// The reason this rule applies to a text with these tokens, if it does.
    pub fn apply(&self, tokens: &[Token]) -> Option<String> {
        let mut hits: Vec<(&str, usize)> = Vec::new();
        for (term, phrase, stemmed) in &self.phrases {
            let n = tokens
                .windows(phrase.len())
                .filter(|w| {
                    w.iter().zip(phrase).all(|(t, p)| {
                        if *stemmed {
                            t.stem == *p
                        } else {
                            t.folded == *p
                        }
                    })
                })
                .count();
            if n > 0 {
                hits.push((term, n));
            }
        }
        let total: usize = hits.iter().map(|h| h.1).sum();
        if total < self.min {
            return None;
        }
        hits.sort_by_key(|h| std::cmp::Reverse(h.1));
        let listed: Vec<String> = hits
            .iter()
            .take(4)
            .map(|(t, n)| {
                if *n > 1 {
                    format!("“{t}” ×{n}")
                } else {
                    format!("“{t}”")
                }
            })
            .collect();
        Some(format!("mentions {}", listed.join(", ")))
    }
}

const CODE_HOSTS: &[&str] = &[
    "github.com",
    "gitlab.com",
    "anonymous.4open.science",
    "bitbucket.org",
    "codeberg.org",
    "huggingface.co",
];

/// Whether a link points at a code repository (GitHub, an anonymous review
/// repository, …).
pub(crate) fn is_code_link(href: &str) -> bool {
    let rest = href.split_once("://").map_or(href, |(_, r)| r);
    let host = rest.split('/').next().unwrap_or("").to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host);
    CODE_HOSTS.contains(&host)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_match_stemmed_phrases_with_reasons() {
        let m = Matcher::new(&Rule {
            name: "LLMs".into(),
            terms: vec!["large language model".into(), "LLM".into()],
            exact: vec![],
            min: 1,
        });
        let toks = tokenize("Large Language Models (LLMs) and more LLMs.");
        assert_eq!(
            m.apply(&toks).unwrap(),
            "mentions “LLM” ×2, “large language model”"
        );
        assert_eq!(m.apply(&tokenize("language models")), None);
    }

    #[test]
    fn exact_terms_are_not_stemmed() {
        let m = Matcher::new(&Rule {
            name: "Tokenization".into(),
            terms: vec![],
            exact: vec!["tokenizer".into()],
            min: 1,
        });
        assert!(m.apply(&tokenize("a new Tokenizer")).is_some());
        assert_eq!(m.apply(&tokenize("each token")), None);
    }

    #[test]
    fn code_links() {
        assert!(is_code_link("https://github.com/NJU-RL/DIVER"));
        assert!(is_code_link("https://anonymous.4open.science/r/TraMark"));
        assert!(!is_code_link("https://arxiv.org/abs/1234"));
    }
}
