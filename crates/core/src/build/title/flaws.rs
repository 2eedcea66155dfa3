//! What makes a derived title read as broken, whatever its overlap with
//! the title a researcher wrote: `derive_title` skips candidates that have
//! a flaw, and `eval-titles` counts the titles that still do.

/// A way a derived title reads as broken, whatever its overlap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Flaw {
    /// A bracket or double quote opened and not closed, or closed and not
    /// opened (`eNeRgy-GPT: NRGPT), is …`, `RoMA: “Routing …`).
    Unbalanced,
    /// A pronoun first (`Its role in …`, `This research question …`).
    PronounFirst,
    /// A connector or relative word first (`And …`, `Whether …`, `Of …`).
    FunctionWordFirst,
    /// A function word last (`… to address`, `… is based`, `… of the`).
    FunctionWordLast,
    /// A clause begun mid-sentence: a verb left at the front (`Significantly
    /// improves …`) or a second clause joined by `and` (`Ablations on … and
    /// expect our findings …`).
    ClauseCut,
    /// The name of a baseline or prior work the abstract compares with, as
    /// the paper's name (`… outperforms OPGD` → `OGD+: … (OPGD)`).
    BaselineName,
}

impl Flaw {
    /// Every flaw, in the order reports list them.
    pub const ALL: [Flaw; 6] = [
        Flaw::Unbalanced,
        Flaw::PronounFirst,
        Flaw::FunctionWordFirst,
        Flaw::FunctionWordLast,
        Flaw::ClauseCut,
        Flaw::BaselineName,
    ];

    /// A short label for reports.
    pub fn label(self) -> &'static str {
        match self {
            Flaw::Unbalanced => "unbalanced bracket or quote",
            Flaw::PronounFirst => "pronoun first",
            Flaw::FunctionWordFirst => "function word first",
            Flaw::FunctionWordLast => "function word last",
            Flaw::ClauseCut => "clause begun mid-sentence",
            Flaw::BaselineName => "a baseline's name as the paper's",
        }
    }
}

/// What makes `title`, derived from `abstract_text`, read as broken.
pub fn flaws(title: &str, abstract_text: &str) -> Vec<Flaw> {
    let mut out = Vec::new();
    if unbalanced(title) {
        out.push(Flaw::Unbalanced);
    }
    // After a name, its description is judged as the title.
    let (name, desc) = match name_prefix(title) {
        Some((n, desc)) => (Some(n), desc.trim()),
        None => (None, title),
    };
    let words: Vec<String> = desc
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric() && c != '-')
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect();
    let first = words.first().map_or("", String::as_str);
    if PRONOUNS.contains(&first) {
        out.push(Flaw::PronounFirst);
    } else if LEADING_CONNECTORS.contains(&first) {
        out.push(Flaw::FunctionWordFirst);
    }
    // A name alone ends with itself, not a function word.
    let last = title
        .split_whitespace()
        .next_back()
        .unwrap_or("")
        .trim_end_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase();
    if words.len() > 1 && TRAILING_FUNCTION_WORDS.contains(&last.as_str()) {
        out.push(Flaw::FunctionWordLast);
    }
    if clause_cut(&words) {
        out.push(Flaw::ClauseCut);
    }
    let baseline = name
        .into_iter()
        .chain(parenthesised(title))
        .any(|n| is_baseline(n, abstract_text));
    if baseline {
        out.push(Flaw::BaselineName);
    }
    out
}

const PRONOUNS: &[&str] = &[
    "it", "its", "this", "these", "those", "that", "we", "our", "us", "they", "their", "them",
    "he", "she", "his", "her", "i", "my", "you", "your", "there",
];

/// Words no title starts with: they join or subordinate a clause.
const LEADING_CONNECTORS: &[&str] = &[
    "and",
    "or",
    "but",
    "nor",
    "of",
    "than",
    "which",
    "whose",
    "whom",
    "whereas",
    "whether",
    "thus",
    "hence",
    "therefore",
    "then",
    "so",
    "is",
    "are",
    "was",
    "were",
    "be",
    "been",
    "has",
    "have",
    "had",
    "can",
    "could",
    "will",
    "would",
    "may",
    "might",
    "should",
    "must",
    "also",
    "not",
    "further",
    "however",
    "moreover",
    "furthermore",
    "additionally",
];

/// Words no title ends with: a phrase was cut after them.
const TRAILING_FUNCTION_WORDS: &[&str] = &[
    "of", "the", "and", "or", "for", "with", "to", "in", "on", "a", "an", "by", "via", "from",
    "as", "at", "into", "onto", "that", "which", "than", "its", "their", "our", "this", "these",
    "is", "are", "was", "were", "be", "been", "can", "could", "will", "would", "may", "might",
    "should", "between", "through", "using", "across", "within", "without", "under", "over",
    "whose", "where", "while", "when", "both", "such", "not", "also", "each", "very", "upon",
    "about", "toward", "towards", "based", "but", "whether", "we", "it", "has", "have", "do",
    "does", "more", "most",
];

/// Verbs an abstract's sentences carry after `we` or a subject: at the
/// front of a title, or after `and`, they show a clause cut out of one.
const CLAUSE_VERBS: &[&str] = &[
    "propose",
    "present",
    "introduce",
    "show",
    "demonstrate",
    "find",
    "expect",
    "provide",
    "release",
    "evaluate",
    "achieve",
    "conduct",
    "discuss",
    "analyze",
    "analyse",
    "investigate",
    "compare",
    "perform",
    "obtain",
    "report",
    "describe",
    "explore",
    "examine",
    "hope",
    "believe",
    "argue",
    "observe",
    "suggest",
    "reveal",
    "outperform",
    "improve",
    "leverage",
    "employ",
    "utilize",
    "apply",
    "augment",
    "denoise",
    "exploit",
    "adopt",
    "extend",
    "make",
    "build",
    "construct",
    "develop",
    "design",
    "create",
    "offer",
    "highlight",
    "identify",
    "establish",
    "verify",
    "validate",
    "confirm",
    "address",
    "tackle",
    "study",
    "focus",
    "aim",
    "seek",
    "attempt",
    "try",
    "enable",
    "allow",
    "help",
    "require",
    "yield",
    "publish",
    "train",
    "test",
];

/// Whether `w` is one of [`CLAUSE_VERBS`], bare or with `-s`/`-es`/`-ies`.
pub(crate) fn is_clause_verb(w: &str, bare_only: bool) -> bool {
    // A set, not a scan of the list: every word of every candidate title
    // is asked (a third of the time titles took to derive).
    static VERBS: std::sync::OnceLock<std::collections::HashSet<&str>> = std::sync::OnceLock::new();
    let verbs = VERBS.get_or_init(|| CLAUSE_VERBS.iter().copied().collect());
    let w = w.trim_end_matches([',', ';', ':', '.']).to_lowercase();
    let is = |v: &str| verbs.contains(v);
    is(&w)
        || (!bare_only
            && (w.strip_suffix('s').is_some_and(is)
                || w.strip_suffix("es").is_some_and(is)
                || w.strip_suffix("ies")
                    .is_some_and(|stem| is(&format!("{stem}y")))))
}

/// A verb at the front (`Improves …`, `Significantly improves …`, `Augment
/// the objective …`) or `and VERB` inside (`… and introduce the …`).
fn clause_cut(words: &[String]) -> bool {
    let first = words.first().map_or("", String::as_str);
    let second = words.get(1).map_or("", String::as_str);
    let front =
        is_clause_verb(first, false) || (first.ends_with("ly") && is_clause_verb(second, false));
    // `to train and evaluate` joins two verbs, not two clauses.
    let joined = (1..words.len()).any(|i| {
        words[i - 1] == "and"
            && is_clause_verb(&words[i], true)
            && !words[i.saturating_sub(3)..i - 1].iter().any(|w| w == "to")
    });
    front || joined
}

/// Whether brackets and double quotes pair up.
fn unbalanced(title: &str) -> bool {
    let count = |c: char| title.chars().filter(|&x| x == c).count();
    let mut depth = 0i32;
    for c in title.chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => {
                depth -= 1;
                if depth < 0 {
                    return true;
                }
            }
            _ => {}
        }
    }
    depth != 0 || count('“') != count('”') || count('"') % 2 == 1
}

/// Words in parentheses (`… Descent (OPGD)`).
fn parenthesised(title: &str) -> impl Iterator<Item = &str> {
    title.split('(').skip(1).filter_map(|rest| {
        let inner = rest.split(')').next()?.trim();
        (!inner.is_empty() && !inner.contains(char::is_whitespace)).then_some(inner)
    })
}

/// Whether the abstract compares the paper with `name` (`outperforms X`,
/// `than X`, `over X`, `compared to X`, `such as X`), and never says it
/// proposes it.
pub(crate) fn is_baseline(name: &str, text: &str) -> bool {
    let mut compared = false;
    for (i, _) in text.match_indices(name) {
        let before = text[..i].chars().next_back();
        let after = text[i + name.len()..].chars().next();
        if before.is_some_and(char::is_alphanumeric) || after.is_some_and(char::is_alphanumeric) {
            continue;
        }
        let tail: Vec<String> = text[..i]
            .split_whitespace()
            .rev()
            .take(3)
            .map(|w| {
                w.trim_matches(|c: char| !c.is_alphanumeric() && c != '.')
                    .to_lowercase()
            })
            .collect();
        let t = |k: usize| tail.get(k).map_or("", String::as_str);
        let cue = |w: &str| {
            matches!(
                w,
                "outperforms"
                    | "outperform"
                    | "outperforming"
                    | "outperformed"
                    | "surpasses"
                    | "surpassing"
                    | "beats"
                    | "than"
                    | "over"
                    | "versus"
                    | "vs."
                    | "vs"
                    | "e.g."
                    | "baseline"
                    | "baselines"
            )
        };
        if cue(t(0))
            || (matches!(t(0), "to" | "with") && t(1) == "compared")
            || (t(0) == "as" && t(1) == "such")
            || (t(0) == "the" && cue(t(1)))
        {
            compared = true;
        }
        if matches!(
            t(0),
            "propose" | "introduce" | "present" | "called" | "named" | "dubbed" | "termed"
        ) || matches!(
            t(1),
            "propose" | "introduce" | "present" | "called" | "named" | "dubbed" | "termed"
        ) {
            return false;
        }
    }
    compared
}

/// `NAME` of `NAME: description` (one word before the first colon), and
/// what follows the colon.
fn name_prefix(title: &str) -> Option<(&str, &str)> {
    let (head, rest) = title.split_once(':')?;
    let head = head.trim();
    (!rest.trim().is_empty()
        && head.chars().count() >= 2
        && !head.contains(char::is_whitespace)
        && head.chars().any(char::is_alphabetic))
    .then_some((head, rest))
}

/// Whether a title may not end with `w` (lower-cased).
pub(crate) fn is_trailing_function_word(w: &str) -> bool {
    TRAILING_FUNCTION_WORDS.contains(&w)
}
