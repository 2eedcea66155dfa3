//! What a named thing is for, when its description does not say.

use super::*;

/// `CLaP: A label projection approach` → `… for cross-lingual structured
/// prediction`: a title that names a thing without what it is for gets
/// the phrase after `for` that carries the words the abstract repeats
/// most, as researchers' titles do (`X for Y`). (`in`/`on` phrases were
/// tried: they gain overlap but read as `… in French`, `… on GLUE`.) Not for
/// a name's expansion, which is its title, nor for a description that is
/// already a clause or a list.
pub(super) fn with_topic(
    title: &str,
    text: &str,
    defs: &[Definition],
    phrases: &[Phrase],
) -> String {
    let desc = match title.split_once(": ") {
        Some((name, desc)) => {
            let expansion = defs
                .iter()
                .any(|d| d.short == name && d.long.eq_ignore_ascii_case(desc));
            if expansion {
                return title.to_string();
            }
            desc
        }
        None => title,
    };
    let clause = is_clause_or_purpose(desc);
    let dangling = lost_its_object(desc);
    if clause || dangling {
        return title.to_string();
    }
    let Some((prep, phrase)) = topic_for(text, title, phrases) else {
        return title.to_string();
    };
    let words = title.split_whitespace().count() + 1 + phrase.split_whitespace().count();
    let out = format!("{title} {prep} {phrase}");
    // (Added after the title was cleaned: it must keep within its length.)
    if words <= MAX_WORDS && out.chars().count() <= MAX_CHARS && flaws(&out, text).is_empty() {
        out
    } else {
        title.to_string()
    }
}

/// Whether a description is a clause or a list, or already says what it
/// is for.
fn is_clause_or_purpose(desc: &str) -> bool {
    // (`… for X` says what it is for already.)
    desc.contains([',', ';', '('])
        || desc.split_whitespace().any(|w| {
            matches!(
                w.to_ascii_lowercase().as_str(),
                "that"
                    | "which"
                    | "to"
                    | "by"
                    | "whether"
                    | "who"
                    | "where"
                    | "while"
                    | "when"
                    | "is"
                    | "are"
                    | "was"
                    | "were"
                    | "can"
                    | "could"
                    | "will"
                    | "has"
                    | "have"
                    | "for"
                    | "in"
                    | "on"
                    | "over"
                    | "of"
            )
        })
}

/// Whether a description ends on a word that lost its object (`… a
/// framework combining`, `… based`): what it lacks is that, not a purpose.
fn lost_its_object(desc: &str) -> bool {
    desc.split_whitespace().next_back().is_some_and(|w| {
        (w.ends_with("ing") && w.chars().all(char::is_lowercase))
            || matches!(
                w,
                "based"
                    | "related"
                    | "due"
                    | "according"
                    | "compared"
                    | "relative"
                    | "such"
                    | "than"
                    | "wherein"
                    | "whereby"
                    | "thereby"
            )
            // (`… models tend`: a clause, not a thing.)
            || is_clause_verb(w, false)
    })
}

/// Lower-cased words of `s`, split at anything but letters and digits.
pub(super) fn plain_words(s: &str) -> impl Iterator<Item = String> + '_ {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

/// The phrase after `for` (one to four words, up to a
/// function word or a mark) whose words the abstract repeats most: each
/// at least twice, one at least three times, none already in `title`.
pub(super) fn topic_phrase(text: &str, title: &str) -> Option<(String, String)> {
    let mut freq: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for w in plain_words(text) {
        *freq.entry(w).or_default() += 1;
    }
    let have: Vec<String> = plain_words(title).collect();
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let mut best: Option<(usize, String, String)> = None;
    for (i, t) in tokens.iter().enumerate() {
        if *t != "for" {
            continue;
        }
        let mut phrase: Vec<&str> = Vec::new();
        for u in tokens.iter().skip(i + 1).take(5) {
            let bare = u.trim_end_matches(['.', ',', ';', ':', ')']);
            let word_like = bare.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                && bare.chars().all(|c| c.is_alphanumeric() || c == '-');
            if !word_like
                || is_function_word(bare)
                || is_trailing_function_word(&bare.to_ascii_lowercase())
            {
                break;
            }
            phrase.push(bare);
            if bare.len() != u.len() {
                break;
            }
        }
        if phrase.is_empty() || phrase.len() > 4 {
            continue;
        }
        let last = phrase[phrase.len() - 1].to_ascii_lowercase();
        // `for answering`, `for speed`: no topic; `for NER` is one.
        let thin = phrase.len() == 1 && !phrase[0].chars().any(char::is_uppercase);
        if thin || GENERIC_HEADS.contains(&last.as_str()) {
            continue;
        }
        let counts: Vec<usize> = phrase
            .iter()
            .flat_map(|w| plain_words(w))
            // (`NC0` already says `NC`.)
            .map(|w| {
                if have
                    .iter()
                    .any(|h| h.starts_with(w.as_str()) || w.starts_with(h.as_str()))
                {
                    0
                } else {
                    freq.get(&w).copied().unwrap_or(0)
                }
            })
            .collect();
        if counts.iter().any(|&c| c < 2) || counts.iter().all(|&c| c < 3) {
            continue;
        }
        let score: usize = counts.iter().sum();
        if best.as_ref().is_none_or(|b| score > b.0) {
            best = Some((score, (*t).to_string(), phrase.join(" ")));
        }
    }
    best.map(|(_, prep, phrase)| (prep, phrase))
}

/// A run of two to four content words the abstract repeats (`word
/// alignment`, `radiology report generation`), a topic a title can be for.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Phrase {
    /// As first written.
    text: String,
    /// Its plain words ([`plain_words`]).
    words: Vec<String>,
}

/// The abstract's repeated phrases, most repeated (times words) first:
/// runs of content words between stop words and punctuation, each as long
/// as it always is (`triangular machine` always followed by `translation`
/// is no phrase of its own), none ending in a generic head (`framework`).
pub(super) fn frequent_phrases(text: &str) -> Vec<Phrase> {
    use std::collections::HashMap;
    let stop = crate::build::stop_words();
    let mut counts: HashMap<String, (usize, String)> = HashMap::new();
    for chunk in text.split(|c: char| ".,;:()[]\"“”?!".contains(c)) {
        let words: Vec<&str> = chunk.split_whitespace().collect();
        for run in words.split(|w| {
            stop.contains(w.to_lowercase().as_str())
                || !w.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                || !w.chars().all(|c| c.is_alphanumeric() || c == '-')
        }) {
            for n in 2..=5 {
                for phrase in run.windows(n) {
                    let surface = phrase.join(" ");
                    let e = counts.entry(surface.to_lowercase()).or_insert((0, surface));
                    e.0 += 1;
                }
            }
        }
    }
    // A phrase as often followed (or preceded) by the same word as it
    // occurs is part of a longer one.
    let mut partial: std::collections::HashSet<&str> = std::collections::HashSet::new();
    for (key, (count, _)) in &counts {
        let (Some((head, _)), Some((_, tail))) = (key.rsplit_once(' '), key.split_once(' ')) else {
            continue;
        };
        for part in [head, tail] {
            if counts.get(part).is_some_and(|(c, _)| c == count) {
                partial.insert(part);
            }
        }
    }
    let mut phrases: Vec<(usize, Phrase)> = counts
        .iter()
        .filter(|(key, (count, _))| {
            let n = key.split(' ').count();
            *count >= 2
                && n <= 4
                && !partial.contains(key.as_str())
                // (`automatically detect` is what a paper does, no topic.)
                && !key.split(' ').any(|w| w.ends_with("ly") || is_clause_verb(w, false))
                // (`favoring exploitation` neither.)
                && !key.split(' ').next().is_some_and(|w| w.ends_with("ing"))
                && !key
                    .rsplit(' ')
                    .next()
                    .is_some_and(|w| GENERIC_HEADS.contains(&w) || PROPOSAL_HEADS.contains(&w))
        })
        .map(|(key, (count, surface))| {
            let n = key.split(' ').count();
            let words = plain_words(surface).collect();
            (
                count * n,
                Phrase {
                    text: surface.clone(),
                    words,
                },
            )
        })
        .collect();
    phrases.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.text.cmp(&b.1.text)));
    phrases.into_iter().map(|(_, p)| p).collect()
}

/// What `title` can say it is for, as (preposition, phrase): the
/// abstract's `for …` phrase ([`topic_phrase`]), else the first of its
/// repeated `phrases` that shares no word with `title`.
pub(super) fn topic_for(text: &str, title: &str, phrases: &[Phrase]) -> Option<(String, String)> {
    topic_phrase(text, title).or_else(|| {
        let have: Vec<String> = plain_words(title).collect();
        phrases
            .iter()
            .find(|p| !p.words.iter().any(|w| have.contains(w)))
            .map(|p| ("for".to_string(), p.text.clone()))
    })
}

/// What a paper proposes, never what it is for.
const PROPOSAL_HEADS: &[&str] = &[
    "framework",
    "frameworks",
    "approaches",
    "system",
    "systems",
    "architecture",
    "pipeline",
    "technique",
    "techniques",
    "strategy",
    "strategies",
    "module",
];

/// Words that end no topic: what every abstract evaluates on.
pub(super) const GENERIC_HEADS: &[&str] = &[
    "task",
    "tasks",
    "data",
    "dataset",
    "datasets",
    "model",
    "models",
    "method",
    "methods",
    "approach",
    "results",
    "performance",
    "experiments",
    "benchmark",
    "benchmarks",
    "baselines",
    "work",
    "paper",
    "settings",
    "setting",
    "way",
    "cases",
    "set",
    "number",
    "languages",
    "language",
    "accuracy",
    "speed",
    "metrics",
    "improvement",
    "style",
    "source",
    "terms",
    "practice",
    "future",
    "order",
    "addition",
    "contrast",
    "time",
    "training",
    "evaluation",
    "domains",
    "domain",
    "scenarios",
    "general",
    "particular",
    "detail",
    "English",
];
