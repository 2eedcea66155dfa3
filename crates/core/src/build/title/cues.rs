//! Cues: the sentences that say what the paper does (`we propose …`,
//! `this paper studies …`) and where their object starts.

use super::*;

/// What a sentence says the paper does: the verb of a contribution cue and
/// the words after it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Cue<'a> {
    pub(super) sentence: Sentence<'a>,
    /// Byte offset in the abstract where the cue's object starts.
    pub(super) object: usize,
    /// The object: the rest of the sentence after the verb.
    pub(super) rest: &'a str,
    /// A verb that introduces something new (propose, introduce, …), not
    /// one that studies something (study, investigate, …).
    pub(super) proposes: bool,
}

pub(super) const PROPOSE_VERBS: &[&str] = &[
    "propose",
    "introduce",
    "present",
    "develop",
    "design",
    "build",
    "construct",
    "release",
    "curate",
    "create",
    "contribute",
    "devise",
    "formulate",
    "offer",
    "establish",
    "collect",
    "describe",
    "term",
    "coin",
    "call",
    "name",
    "dub",
    "unveil",
    "launch",
    "provide",
];

pub(super) const STUDY_VERBS: &[&str] = &[
    "study",
    "investigate",
    "explore",
    "examine",
    "analyze",
    "analyse",
    "address",
    "tackle",
    "consider",
    "focus",
    "show",
    "demonstrate",
    "evaluate",
    "revisit",
    "extend",
    "leverage",
    "apply",
    "aim",
    "seek",
    "identify",
    "characterize",
    "characterise",
    "quantify",
    "improve",
    "learn",
    "train",
    "compare",
    "argue",
    "find",
    "prove",
    "establish",
    "report",
    "use",
];

/// `verb`, or one of its inflections (`proposes`, `proposed`, `proposing`).
pub(super) fn verb_in(word: &str, verbs: &[&str]) -> bool {
    let w = word
        .trim_matches(|c: char| !c.is_alphabetic())
        .to_ascii_lowercase();
    verbs.iter().any(|v| {
        w == *v
            || w.strip_prefix(v).is_some_and(|rest| {
                matches!(rest, "s" | "es" | "d" | "ed" | "ing")
                    || (v.ends_with('e') && matches!(rest, "s" | "d"))
            })
            || v.strip_suffix('e')
                .is_some_and(|stem| w == format!("{stem}ing"))
            || v.strip_suffix('y')
                .is_some_and(|stem| w == format!("{stem}ies") || w == format!("{stem}ied"))
    })
}

/// The first contribution cue of a sentence: `we [adverb] VERB`, `this
/// paper|work|study VERB`, `here VERB…`.
pub(super) fn cue_in<'a>(s: &Sentence<'a>) -> Option<Cue<'a>> {
    let words: Vec<(usize, &str)> = word_offsets(s.text);
    for (i, &(_, w)) in words.iter().enumerate() {
        let lw = w
            .trim_matches(|c: char| !c.is_alphabetic())
            .to_ascii_lowercase();
        // `The proposed technique, Weightless, …`, `the resulting model,
        // named X`: as `our` below.
        let ours = lw == "our"
            || (lw == "the"
                && words
                    .get(i + 1)
                    .is_some_and(|n| matches!(n.1, "proposed" | "resulting")));
        if ours {
            if let Some(cue) = our_named_thing(s, &words, i) {
                return Some(cue);
            }
        }
        if is_subject(&words, i, &lw) {
            if let Some(cue) = verb_after_subject(s, &words, i) {
                return Some(cue);
            }
        }
    }
    None
}

/// Nouns that `our NOUN X` names (`our framework AWESOME uses …`), and
/// that name what follows them set off (`a new approach, Ethos, that …`).
pub(super) const NAMED_NOUNS: &[&str] = &[
    "framework",
    "task",
    "technique",
    "strategy",
    "architecture",
    "metric",
    "corpus",
    "resource",
    "platform",
    "pipeline",
    "paradigm",
    "mechanism",
    "network",
    "model",
    "method",
    "approach",
    "system",
    "dataset",
    "benchmark",
    "tool",
    "algorithm",
    "toolkit",
    "library",
];

/// `Our proposed technique, called X`, `our new model X`, `our model,
/// GLiNER`: the cue whose object follows the word after `our` (at `i`).
pub(super) fn our_named_thing<'a>(
    s: &Sentence<'a>,
    words: &[(usize, &str)],
    i: usize,
) -> Option<Cue<'a>> {
    let &(off, next) = words.get(i + 1)?;
    let noun = next.trim_end_matches(',').to_ascii_lowercase();
    let names_next = words.get(i + 2).is_some_and(|n| is_coined(bare_word(n.1)));
    let names = matches!(noun.as_str(), "proposed" | "new" | "novel")
        || (names_next && NAMED_NOUNS.contains(&noun.as_str()));
    // Past the word and the one character after it (a space, or `—`).
    let end = off + next.len();
    let object = end + s.text.get(end..)?.chars().next().map_or(0, char::len_utf8);
    (names && object <= s.text.len()).then(|| Cue {
        sentence: *s,
        object: s.start + object,
        rest: &s.text[object..],
        proposes: true,
    })
}

/// Whether the word at `i` (lower-cased `lw`) is the subject of a
/// contribution: `we`, or `paper|work|study…` after `this|the|our|present`.
pub(super) fn is_subject(words: &[(usize, &str)], i: usize, lw: &str) -> bool {
    match lw {
        "we" => true,
        "paper" | "work" | "study" | "article" | "thesis" => {
            i > 0 && {
                let prev = words[i - 1].1.to_ascii_lowercase();
                matches!(prev.as_str(), "this" | "the" | "our" | "present")
            }
        }
        _ => false,
    }
}

/// The cue of a propose or study verb up to two words after the subject at
/// `i` (`we further propose`, `this paper first introduces`).
pub(super) fn verb_after_subject<'a>(
    s: &Sentence<'a>,
    words: &[(usize, &str)],
    i: usize,
) -> Option<Cue<'a>> {
    for j in i + 1..(i + 4).min(words.len()) {
        let v = words[j].1;
        let proposes = verb_in(v, PROPOSE_VERBS);
        if proposes || verb_in(v, STUDY_VERBS) {
            // `aim to study`, `focus on`, `seek to`: the next verb or
            // preposition belongs to the cue.
            let mut k = j + 1;
            while k < words.len()
                && matches!(
                    words[k].1.to_ascii_lowercase().as_str(),
                    "on" | "to" | "that"
                )
            {
                k += 1;
            }
            let object = words.get(k).map_or(s.text.len(), |w| w.0);
            return Some(Cue {
                sentence: *s,
                object: s.start + object,
                rest: &s.text[object..],
                proposes,
            });
        }
        if !v.chars().all(|c| c.is_alphabetic() || c == ',') {
            break;
        }
    }
    None
}
