//! Phrases cut to a title's length at phrase boundaries, and cleaned of
//! markup.

use super::*;

/// A sentence or phrase without its lead-in: `In this paper,`, `To this
/// end,`, a leading article or `that`.
pub(super) fn strip_lead(s: &str) -> &str {
    let mut s = s.trim();
    loop {
        // A TeX macro standing for a name the abstract never spells out.
        if s.starts_with('\\') {
            match s.find(char::is_whitespace) {
                Some(i) => {
                    s = s[i..].trim_start();
                    continue;
                }
                None => return s,
            }
        }
        let lower = s.to_ascii_lowercase();
        let cut = [
            "that ",
            "how ",
            "here, ",
            "to this end, ",
            "in this paper, ",
            "in this work, ",
            "moreover, ",
            "specifically, ",
            "finally, ",
            "first, ",
            "second, ",
            "additionally, ",
            "furthermore, ",
            "the ",
            "a ",
            "an ",
        ]
        .iter()
        .find(|p| lower.starts_with(*p))
        .map(|p| p.len());
        match cut {
            Some(n) if s.len() > n => s = s[n..].trim_start(),
            _ => return s,
        }
    }
}

/// Words before which a phrase ends wherever they stand (after 3 words):
/// a relative clause or a result (`…, thereby`, `…, achieving`).
pub(super) const STRONG_BOUNDARIES: &[&str] = &[
    "which",
    "where",
    "whereas",
    "while",
    "whose",
    "thereby",
    "allowing",
    "enabling",
    "achieving",
    "resulting",
    "outperforming",
    "yielding",
    "leading",
];

/// Words that, after a comma, start a new clause (`…, and`, `…, which`);
/// a comma before anything else is inside a list (`speech, text and images`).
pub(super) const CLAUSE_STARTS: &[&str] = &[
    "which",
    "where",
    "and",
    "while",
    "but",
    "thus",
    "thereby",
    "allowing",
    "enabling",
    "achieving",
    "that",
    "we",
    "as",
    "by",
    "leading",
    "making",
    "yielding",
    "resulting",
    "i.e.,",
    "e.g.,",
    "namely",
    "such",
    "including",
    "especially",
    "particularly",
    "without",
    "using",
    "based",
    "via",
    "through",
];

/// Prepositions and conjunctions that start a new phrase: where a phrase
/// over budget may be cut.
pub(super) const WEAK_BOUNDARIES: &[&str] = &[
    "that", "by", "to", "for", "with", "via", "in", "on", "from", "through", "using", "and",
    "across", "under", "without", "as", "at", "into", "within", "while", "when",
];

/// Compresses a phrase to at most `max` words, cutting at a phrase
/// boundary: before a relative clause, a comma, a semicolon or a
/// preposition, never on a function word, never mid-word.
pub fn compress(phrase: &str, max: usize) -> String {
    let words: Vec<&str> = phrase.split_whitespace().collect();
    let mut words = &words[..clause_end(&words)];
    if words.len() > max {
        words = &words[..weak_cut(words, max)];
    }
    while let Some((last, rest)) = words.split_last() {
        let bare = last.trim_end_matches([',', ';', ':']).to_ascii_lowercase();
        if (is_function_word(last) || is_trailing_function_word(&bare)) && !rest.is_empty() {
            words = rest;
        } else {
            break;
        }
    }
    words
        .join(" ")
        .trim_end_matches([',', ';', ':', '.', '(', '—', '-'])
        .trim()
        .to_string()
}

/// Where the first clause of `words` ends: before a strong boundary, or
/// after a `;`, a `:` or a comma that starts a new clause (never in the
/// first 3 words).
pub(super) fn clause_end(words: &[&str]) -> usize {
    for (i, w) in words.iter().enumerate().skip(1) {
        // `… dataset and show that …`: a second clause of the sentence.
        let and = matches!(*w, "and" | "and,");
        let verb = words.get(i + 1).is_some_and(|n| is_clause_verb(n, false));
        let joined_verbs = words[i.saturating_sub(2)..i].contains(&"to");
        if and && verb && !joined_verbs {
            return i;
        }
        if i < 3 {
            continue;
        }
        if STRONG_BOUNDARIES.contains(&w.to_ascii_lowercase().as_str()) {
            return i;
        }
        let Some(next) = words.get(i + 1) else { break };
        let new_clause = w.ends_with(';')
            || w.ends_with(':')
            || (w.ends_with(',') && CLAUSE_STARTS.contains(&next.to_ascii_lowercase().as_str()));
        if new_clause {
            return i + 1;
        }
    }
    words.len()
}

/// Where to cut `words` (longer than `max`): the latest weak boundary
/// within the budget, not so early that half the budget is lost, else
/// `max`.
pub(super) fn weak_cut(words: &[&str], max: usize) -> usize {
    (max.div_ceil(2).max(4)..=max)
        .rev()
        .find(|&i| {
            WEAK_BOUNDARIES.contains(&words[i].to_ascii_lowercase().as_str())
                || words[i - 1].ends_with(',')
        })
        .unwrap_or(max)
}

pub(super) fn is_function_word(w: &str) -> bool {
    matches!(
        w.trim_end_matches([',', ';', ':'])
            .to_ascii_lowercase()
            .as_str(),
        "a" | "an"
            | "the"
            | "of"
            | "and"
            | "or"
            | "for"
            | "to"
            | "in"
            | "on"
            | "with"
            | "by"
            | "via"
            | "that"
            | "which"
            | "from"
            | "as"
            | "at"
            | "into"
            | "is"
            | "are"
            | "its"
            | "their"
            | "our"
            | "this"
            | "these"
            | "both"
            | "we"
            | "can"
            | "be"
            | "while"
            | "when"
            | "under"
            | "through"
            | "using"
            | "across"
            | "without"
            | "within"
            | "between"
            | "than"
            | "such"
            | "not"
            | "but"
            | "it"
            | "also"
            | "each"
    )
}

/// Content words: those that are not function words, numbers or lone marks.
pub(super) fn content_count(s: &str) -> usize {
    s.split_whitespace()
        .filter(|w| !is_function_word(w) && w.chars().any(char::is_alphabetic))
        .filter(|w| {
            !matches!(
                w.to_ascii_lowercase().as_str(),
                "method"
                    | "approach"
                    | "framework"
                    | "technique"
                    | "techniques"
                    | "methods"
                    | "model"
                    | "simple"
                    | "effective"
                    | "problem"
                    | "problems"
                    | "two"
                    | "three"
                    | "issue"
                    | "way"
                    | "novel"
                    | "new"
            )
        })
        .count()
}

pub(super) fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) if f.is_lowercase() => f.to_uppercase().chain(c).collect(),
        Some(f) => std::iter::once(f).chain(c).collect(),
        None => String::new(),
    }
}

/// No markup in a title: emphasis stars, TeX quotes and braces, dollars and
/// backslashes left as text by the parser go; spaces are collapsed.
pub(super) fn clean(title: &str) -> String {
    let t: String = title
        .replace("``", "“")
        .replace("''", "”")
        .chars()
        .map(|c| match c {
            '`' => '‘',
            c => c,
        })
        .filter(|c| !matches!(c, '*' | '$' | '\\' | '{' | '}'))
        .collect();
    // A parenthesis emptied of its TeX (`framework (\\name)`) goes too.
    let t = t
        .split_whitespace()
        .filter(|w| !matches!(*w, "()" | "(" | ")" | "( )"))
        .collect::<Vec<_>>()
        .join(" ");
    let t = t.replace("( )", "").replace("()", "");
    let t = t.trim_matches(|c: char| c == ',' || c == ';' || c == ':' || c.is_whitespace());
    // A title of a hundred characters reads as one; beyond, cut at a word.
    if t.chars().count() > MAX_CHARS {
        let cut = t.char_indices().nth(MAX_CHARS).map_or(t.len(), |(i, _)| i);
        let head = &t[..cut];
        let mut words: Vec<&str> = head[..head.rfind(' ').unwrap_or(cut)]
            .split_whitespace()
            .collect();
        // Not on a word that leads into what was cut (`… weights by`).
        while words.len() > 1
            && words.last().is_some_and(|w| {
                let bare = w.trim_end_matches([',', ';', ':']).to_ascii_lowercase();
                is_function_word(w) || is_trailing_function_word(&bare)
            })
        {
            words.pop();
        }
        words
            .join(" ")
            .trim_end_matches([',', ';', ':'])
            .to_string()
    } else {
        t.to_string()
    }
}
