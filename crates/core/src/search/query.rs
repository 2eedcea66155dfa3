//! The query language.
//!
//! - words are AND-ed: `diffusion video`
//! - the last word is also prefix-matched while typing (no trailing space),
//!   from its second letter on
//! - `"quoted phrases"` anywhere; a hyphenated word (`DPH-RL`) is a phrase too;
//!   while a phrase's last word is typed (quote unclosed, no trailing
//!   space), the words before it are the phrase and it is a prefix
//! - `-word` or `-"a phrase"` excludes
//! - `OR` (or `|`) between two items matches either
//! - `key:value` filters by a facet (`topic:agents`, `code:yes`, `acronym:RLVR`,
//!   `list:papers`), `tag:value` by any facet
//! - words of 5+ letters forgive one typo, of 9+ letters two; such matches
//!   rank below exact and prefix matches
//!
//! Parsing never fails: unbalanced quotes close at the end, stray operators
//! are ignored.

#[cfg(test)]
use crate::model::text::fold;
use crate::model::text::tokenize;

#[derive(Debug, Clone, PartialEq, Eq, Default)]
/// A parsed query.
pub struct Query {
    /// AND of groups; each group is an OR of clauses.
    pub groups: Vec<Vec<Clause>>,
    /// Clauses whose documents are excluded (`-word`).
    pub excluded: Vec<Clause>,
    /// `key:value` facet filters.
    pub filters: Vec<Filter>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
/// One clause of a group.
pub enum Clause {
    /// One word (prefix and typo matching apply).
    Term(Term),
    /// Consecutive words, each exact (after folding and stemming).
    Phrase(Vec<Term>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
/// A query word.
pub struct Term {
    /// Case- and accent-folded.
    pub folded: String,
    /// Its stem, as the index has it.
    pub stem: String,
    /// Also match words starting with `folded` (the word being typed).
    pub prefix: bool,
}

/// `key:value`: a facet filter; `key` is `tag` for any facet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filter {
    /// The facet key (`topic`), or `tag` for every facet.
    pub key: String,
    /// The value wanted (matched folded, by word prefix).
    pub value: String,
    /// `-key:value`: papers with the value are excluded.
    pub negated: bool,
}

impl Query {
    /// Whether the query asks for nothing (no words, no filters).
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty() && self.excluded.is_empty() && self.filters.is_empty()
    }
}

#[derive(Debug)]
enum Item {
    Or,
    Atom {
        negated: bool,
        quoted: bool,
        /// A quote opened and never closed: the phrase runs to the end.
        open: bool,
        text: String,
        key: Option<String>,
    },
}

/// Longest query text considered; the rest is ignored so a pasted essay
/// cannot stall the page.
pub const MAX_QUERY_CHARS: usize = 1000;

/// The English function words a query's words are searched for but never
/// highlighted by, outside a quoted phrase: in “remembering long chat
/// histories for conversational assistants” a card's “for” says nothing
/// of why it was found. Sorted, folded.
pub(crate) const FUNCTION_WORDS: &[&str] = &[
    "a", "about", "after", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been",
    "being", "between", "both", "but", "by", "can", "could", "did", "do", "does", "each", "for",
    "from", "had", "has", "have", "how", "i", "if", "in", "into", "is", "it", "its", "more",
    "most", "my", "no", "nor", "not", "of", "on", "or", "other", "our", "over", "same", "so",
    "some", "such", "than", "that", "the", "their", "them", "then", "there", "these", "they",
    "this", "those", "through", "to", "too", "under", "up", "very", "was", "we", "were", "what",
    "when", "where", "which", "while", "who", "why", "will", "with", "would", "you", "your",
];

/// Parses a query. `is_filter_key` says which `key:` prefixes are facet
/// filters (others are searched as text).
pub fn parse(input: &str, is_filter_key: &dyn Fn(&str) -> bool) -> Query {
    let input = match input.char_indices().nth(MAX_QUERY_CHARS) {
        Some((i, _)) => &input[..i],
        None => input,
    };
    let items = lex(input, is_filter_key);
    let typing = !input.ends_with(|c: char| c.is_whitespace() || c == '"');
    let last_atom = items.iter().rposition(|i| matches!(i, Item::Atom { .. }));

    let mut q = Query::default();
    let mut pending_or = false;
    for (idx, item) in items.into_iter().enumerate() {
        let Item::Atom {
            negated,
            quoted,
            open,
            text,
            key,
        } = item
        else {
            // `OR`: the next clause joins the last group.
            pending_or = !q.groups.is_empty();
            continue;
        };
        if let Some(key) = key {
            if !text.trim().is_empty() {
                q.filters.push(Filter {
                    key,
                    value: text,
                    negated,
                });
            }
            pending_or = false;
            continue;
        }
        let terms: Vec<Term> = tokenize(&text)
            .into_iter()
            .map(|t| Term {
                folded: t.folded,
                stem: t.stem,
                prefix: false,
            })
            .collect();
        let is_last = Some(idx) == last_atom;
        if quoted && open && typing && !negated && !pending_or && is_last {
            q.push_typed_phrase(terms);
            continue;
        }
        let Some(clause) = clause_of(terms, quoted, typing && !negated && is_last) else {
            continue;
        };
        if negated {
            q.excluded.push(clause);
        } else if pending_or {
            q.groups.last_mut().unwrap().push(clause);
        } else {
            q.groups.push(vec![clause]);
        }
        pending_or = false;
    }
    q
}

impl Query {
    /// A phrase still being typed (`"catastrophic forg`): its last word is
    /// not a word yet. Until the quote closes or a space follows, the words
    /// before it are the phrase and the last one is a prefix anywhere, so
    /// the list narrows as the phrase grows instead of emptying at every
    /// letter that ends no word.
    fn push_typed_phrase(&mut self, mut terms: Vec<Term>) {
        let Some(mut last) = terms.pop() else { return };
        if !terms.is_empty() {
            self.groups.push(vec![Clause::Phrase(terms)]);
        }
        last.prefix = true;
        if !is_lone_letter(&last.folded) {
            self.groups.push(vec![Clause::Term(last)]);
        }
    }
}

/// The clause of an atom's words: a term (a prefix while `being_typed`), a
/// phrase, or nothing for no words or a lone letter being typed.
fn clause_of(mut terms: Vec<Term>, quoted: bool, being_typed: bool) -> Option<Clause> {
    match terms.len() {
        0 => None,
        1 if !quoted => {
            let mut t = terms.pop()?;
            t.prefix = being_typed;
            // A lone letter being typed is not a word yet: matching every
            // word that starts with it would only light up the whole page.
            (!(t.prefix && is_lone_letter(&t.folded))).then_some(Clause::Term(t))
        }
        _ => Some(Clause::Phrase(terms)),
    }
}

/// One ASCII letter or digit.
fn is_lone_letter(folded: &str) -> bool {
    folded.len() == 1 && folded.chars().all(|c| c.is_ascii_alphanumeric())
}

fn lex(input: &str, is_filter_key: &dyn Fn(&str) -> bool) -> Vec<Item> {
    let mut items = Vec::new();
    let mut chars = input.char_indices().peekable();
    while let Some(&(start, c)) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        let mut negated = false;
        let mut pos = start;
        if c == '-' {
            // `-word` excludes; a lone `-` is nothing.
            chars.next();
            match chars.peek() {
                Some(&(p, n)) if !n.is_whitespace() => {
                    negated = true;
                    pos = p;
                }
                _ => continue,
            }
        }
        let rest = &input[pos..];
        // A facet filter `key:value` or `key:"quoted value"`.
        let mut key = None;
        let mut body_start = pos;
        if let Some(colon) = rest.find(':') {
            let k = &rest[..colon];
            if !k.is_empty()
                && k.chars().all(|c| c.is_ascii_alphabetic())
                && is_filter_key(&k.to_ascii_lowercase())
            {
                key = Some(k.to_ascii_lowercase());
                body_start = pos + colon + 1;
            }
        }
        let body = &input[body_start..];
        let (text, quoted, open, consumed) = if let Some(inner) = body.strip_prefix('"') {
            match inner.find('"') {
                Some(end) => (&inner[..end], true, false, 1 + end + 1),
                None => (inner, true, true, body.len()),
            }
        } else {
            let end = body.find(char::is_whitespace).unwrap_or(body.len());
            (&body[..end], false, false, end)
        };
        let end = body_start + consumed;
        while chars.peek().is_some_and(|&(i, _)| i < end) {
            chars.next();
        }
        if !quoted && !negated && key.is_none() && (text == "OR" || text == "|") {
            items.push(Item::Or);
            continue;
        }
        items.push(Item::Atom {
            negated,
            quoted,
            open,
            text: text.to_string(),
            key,
        });
    }
    items
}

/// Case- and accent-insensitive comparison of facet filter values (the
/// engine folds once and calls [`folded_value_matches`]; the tests use this).
#[cfg(test)]
fn value_matches(label: &str, wanted: &str) -> bool {
    folded_value_matches(&fold(label), &fold(wanted.trim()))
}

/// Case- and accent-insensitive comparison used for facet filter values, of
/// a label and a wanted value both already folded ([`crate::model::fold`], the wanted
/// value trimmed first): the engine folds each facet's
/// labels once, not on every keystroke.
pub(crate) fn folded_value_matches(label: &str, wanted: &str) -> bool {
    if wanted.is_empty() {
        return false;
    }
    label == wanted
        || label
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| w.starts_with(wanted))
        || label.starts_with(wanted)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Query {
        parse(s, &|k| matches!(k, "tag" | "topic" | "code"))
    }

    fn term(folded: &str, stem: &str, prefix: bool) -> Clause {
        Clause::Term(Term {
            folded: folded.into(),
            stem: stem.into(),
            prefix,
        })
    }

    #[test]
    fn words_are_anded_and_the_last_is_a_prefix() {
        let q = p("Diffusion mod");
        assert_eq!(
            q.groups,
            vec![
                vec![term("diffusion", "diffus", false)],
                vec![term("mod", "mod", true)]
            ]
        );
        assert_eq!(
            p("diffusion m").groups.len(),
            1,
            "a lone letter being typed waits"
        );
        assert_eq!(
            p("diffusion m ").groups.len(),
            2,
            "a finished one-letter word counts"
        );
        assert!(p("d").is_empty());
        let q = p("diffusion models ");
        assert_eq!(q.groups[1], vec![term("models", "model", false)]);
    }

    #[test]
    fn phrases_exclusions_and_or() {
        let q = p(r#""catastrophic forgetting" -video agents OR agentic"#);
        assert_eq!(q.groups.len(), 2);
        assert!(matches!(&q.groups[0][0], Clause::Phrase(t) if t.len() == 2));
        assert_eq!(q.groups[1].len(), 2);
        assert_eq!(q.excluded, vec![term("video", "video", false)]);
        // A hyphenated word is a phrase.
        assert!(matches!(&p("DPH-RL ").groups[0][0], Clause::Phrase(t) if t.len() == 2));
    }

    #[test]
    fn a_phrase_being_typed_ends_in_a_prefix() {
        let q = p(r#""catastrophic forg"#);
        assert_eq!(q.groups.len(), 2, "{q:?}");
        assert!(
            matches!(&q.groups[0][0], Clause::Phrase(t) if t.len() == 1 && t[0].folded == "catastrophic")
        );
        assert!(matches!(&q.groups[1][0], Clause::Term(t) if t.folded == "forg" && t.prefix));
        // One word, a lone letter: the phrase so far.
        assert_eq!(p(r#""catastrophic f"#).groups.len(), 1);
        // Closed, or followed by a space, or excluded, or after OR: a phrase.
        for s in [
            r#""catastrophic forg""#,
            r#""catastrophic forg "#,
            r#"-"catastrophic forg"#,
            r#"agents OR "catastrophic forg"#,
        ] {
            let q = p(s);
            let phrase = q
                .groups
                .iter()
                .chain([&q.excluded])
                .flatten()
                .any(|c| matches!(c, Clause::Phrase(t) if t.len() == 2));
            assert!(phrase, "{s}: {q:?}");
        }
    }

    #[test]
    fn filters_and_unknown_keys() {
        let q = p(r#"topic:"time series" code:yes pass@k: foo:bar"#);
        assert_eq!(q.filters.len(), 2);
        assert_eq!(q.filters[0].value, "time series");
        assert_eq!(
            q.groups.len(),
            2,
            "unknown keys are searched as text: {q:?}"
        );
        assert!(matches!(&q.groups[1][0], Clause::Term(t) if t.folded == "foo:bar"));
    }

    #[test]
    fn nonsense_never_fails() {
        for s in [
            "",
            "\"",
            "\"\"",
            "-",
            "- -",
            "OR",
            "OR OR a",
            "a OR",
            "-\"",
            "::",
            "tag:",
            "\"unclosed phrase",
            // An unclosed phrase being typed that has no word yet.
            "\"...",
            "\"😀",
            "—",
            "😀",
        ] {
            let _ = p(s);
        }
        assert!(p("OR OR").is_empty());
        let long = "word ".repeat(5000);
        assert!(p(&long).groups.len() <= MAX_QUERY_CHARS / 5 + 1);
    }

    #[test]
    fn facet_values_match_loosely() {
        assert!(value_matches("Reinforcement learning", "reinforcement"));
        assert!(value_matches("Reinforcement learning", "learn"));
        assert!(value_matches("Code released", "code"));
        assert!(!value_matches("Agents", "vision"));
    }
}
