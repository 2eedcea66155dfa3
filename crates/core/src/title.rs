//! Display titles for papers that have none, and the acronyms an abstract
//! defines.
//!
//! Acronym definitions are found with the Schwartz–Hearst algorithm
//! (“A simple algorithm for identifying abbreviation definitions in
//! biomedical text”, 2003): a short form in parentheses is matched right to
//! left against the words before it, or a long form in parentheses against
//! the word before it.

/// An acronym defined in a text: `Long Form (SHORT)` or `SHORT (Long Form)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Definition {
    pub short: String,
    pub long: String,
    /// Byte offset of the opening parenthesis.
    pub paren: usize,
}

/// Every acronym definition in `text`, in order.
pub fn definitions(text: &str) -> Vec<Definition> {
    let mut out = Vec::new();
    let mut search = 0;
    while let Some(rel) = text[search..].find('(') {
        let open = search + rel;
        search = open + 1;
        let Some(close_rel) = text[open + 1..].find([')', '(']) else {
            break;
        };
        if text[open + 1 + close_rel..].starts_with('(') {
            continue;
        }
        let inner = text[open + 1..open + 1 + close_rel].trim();
        let before = sentence_tail(&text[..open]);
        let inner_words = inner.split_whitespace().count();
        if inner_words == 0 {
            continue;
        }
        let def = if inner_words <= 2 && inner.chars().count() <= 12 {
            // `long form (SHORT)`
            let short = inner.trim_end_matches([',', ';']);
            let max_words = (short.chars().count() + 5).min(short.chars().count() * 2);
            let window = last_words(before, max_words);
            best_long_form(short, window).map(|long| (short.to_string(), long.to_string()))
        } else {
            // `SHORT (long form)`
            let short = before
                .split_whitespace()
                .last()
                .unwrap_or("")
                .trim_matches(|c: char| !c.is_alphanumeric());
            if short.chars().count() < 2 {
                continue;
            }
            best_long_form(short, inner).map(|long| (short.to_string(), long.to_string()))
        };
        if let Some((short, long)) = def {
            if is_acronym(&short)
                && long.split_whitespace().count() >= 1
                && long.len() > short.len()
            {
                out.push(Definition {
                    short,
                    long,
                    paren: open,
                });
            }
        }
    }
    out
}

/// A short form worth treating as an acronym: a single word with a letter,
/// starting alphanumerically, at least two capitals (`RLVR`, `DevFT`, `LLMs`)
/// or an initial capital (`Lorsa`).
fn is_acronym(short: &str) -> bool {
    let first = short.chars().next();
    !short.contains(char::is_whitespace)
        && first.is_some_and(char::is_alphanumeric)
        && short.chars().any(char::is_alphabetic)
        && (short.chars().filter(|c| c.is_uppercase()).count() >= 2
            || first.is_some_and(char::is_uppercase))
}

/// Acronyms as a facet value: `LLMs` and `LLM` are one acronym.
pub fn acronym_key(short: &str) -> String {
    let upper = short.chars().filter(|c| c.is_uppercase()).count();
    match short.strip_suffix('s') {
        Some(stem) if upper >= 2 && stem.chars().last().is_some_and(char::is_uppercase) => {
            stem.to_string()
        }
        _ => short.to_string(),
    }
}

/// Whether the acronym is one a reader would look for in a facet: at least
/// two capitals, so `Lorsa` or `Echo` stay out of the list.
pub fn is_facet_acronym(short: &str) -> bool {
    short.chars().filter(|c| c.is_uppercase()).count() >= 2
}

/// The text after the last sentence end in `s`.
fn sentence_tail(s: &str) -> &str {
    match s.rfind(". ") {
        Some(i) => &s[i + 2..],
        None => s,
    }
}

fn last_words(s: &str, n: usize) -> &str {
    let mut count = 0;
    let mut start = s.len();
    let mut in_word = false;
    for (i, c) in s.char_indices().rev() {
        if c.is_whitespace() {
            if in_word {
                count += 1;
                if count == n {
                    break;
                }
            }
            in_word = false;
        } else {
            in_word = true;
            start = i;
        }
    }
    s[start..].trim()
}

/// Schwartz–Hearst: the shortest suffix of `long` whose characters contain
/// those of `short` in order, the first at the start of a word.
fn best_long_form<'a>(short: &str, long: &'a str) -> Option<&'a str> {
    // A short form without a letter or digit (`(-)`, `(%)`) matches nothing:
    // the scan below needs at least one character to anchor on.
    if !short.chars().any(char::is_alphanumeric) {
        return None;
    }
    let s: Vec<char> = short.chars().flat_map(char::to_lowercase).collect();
    let l: Vec<(usize, char)> = long
        .char_indices()
        .map(|(i, c)| (i, c.to_lowercase().next().unwrap_or(c)))
        .collect();
    let mut si = s.len() as isize - 1;
    let mut li = l.len() as isize - 1;
    while si >= 0 {
        let c = s[si as usize];
        if !c.is_alphanumeric() {
            si -= 1;
            continue;
        }
        while li >= 0
            && (l[li as usize].1 != c
                || (si == 0 && li > 0 && l[li as usize - 1].1.is_alphanumeric()))
        {
            li -= 1;
        }
        if li < 0 {
            return None;
        }
        li -= 1;
        si -= 1;
    }
    let start = l[(li + 1) as usize].0;
    let word_start = long[..start]
        .rfind(char::is_whitespace)
        .map_or(0, |i| i + 1);
    let form = long[word_start..].trim();
    (!form.is_empty()).then_some(form)
}

const CUES: &[&str] = &[
    "we propose ",
    "we introduce ",
    "we present ",
    "we develop ",
    "we design ",
    "we build ",
    "we construct ",
    "our framework, ",
    "our method, ",
    "our approach, ",
    "our model, ",
    "called ",
    "dubbed ",
    "named ",
    "termed ",
];

/// How far after a cue (“we introduce a framework (CRD)”) a definition may stand.
const NEAR_WORDS: usize = 8;

const CONNECTORS: &[&str] = &[
    "for", "of", "and", "with", "in", "via", "on", "the", "as", "to",
];

/// A display title for an abstract without one: the proposed method or
/// benchmark name with its expansion when the abstract defines one
/// (`DPH-RL — Diversity-Preserving Hybrid RL`), else the first sentence
/// shortened at a word boundary.
pub fn derive_title(text: &str) -> String {
    let lower = text.to_ascii_lowercase();
    let defs = definitions(text);
    let mut cues: Vec<usize> = CUES
        .iter()
        .flat_map(|cue| lower.match_indices(cue).map(|(i, c)| i + c.len()))
        .collect();
    cues.sort_unstable();
    for at in cues {
        if let Some(t) = name_after(text, at, &defs) {
            return t;
        }
    }
    shorten(first_sentence(text), 90)
}

fn name_after(text: &str, at: usize, defs: &[Definition]) -> Option<String> {
    let sentence_end = text[at..].find(". ").map_or(text.len(), |i| at + i);
    let rest = &text[at..sentence_end];
    let words: Vec<(usize, &str)> = rest
        .split_whitespace()
        .map(|w| (w.as_ptr() as usize - text.as_ptr() as usize, w))
        .collect();
    let mut run: Vec<&str> = Vec::new();
    let mut run_end = at;
    let mut i = 0;
    while i < words.len() && run.len() < 8 {
        let (pos, w) = words[i];
        let bare = w.trim_end_matches([',', ';', ':', '.']);
        if is_name_word(bare) {
            run.push(bare);
            run_end = pos + bare.len();
            if bare.len() != w.len() {
                break;
            }
        } else if !run.is_empty()
            && CONNECTORS.contains(&bare)
            && words.get(i + 1).is_some_and(|(_, n)| is_name_word(n))
        {
            run.push(bare);
        } else {
            break;
        }
        i += 1;
    }
    if run.is_empty() {
        // “we propose a novel …”: a definition later in the same sentence.
        // Only close to the cue: a definition deep in the sentence names
        // something the paper uses, not what it proposes.
        let near = rest
            .split_whitespace()
            .take(NEAR_WORDS)
            .last()
            .map_or(at, |w| {
                w.as_ptr() as usize - text.as_ptr() as usize + w.len()
            });
        if let Some(open) = rest.find('(').map(|i| at + i).filter(|&o| o < near) {
            if let Some(d) = defs.iter().find(|d| d.paren == open) {
                return Some(format!("{} — {}", d.short, d.long));
            }
            if let Some(a) = bare_acronym_in(&text[open..sentence_end]) {
                return Some(a);
            }
        }
        // “we propose a novel watermarking method, TraMark, which …”
        return appositive_name(&text[at..near.max(at)]);
    }
    let name = run.join(" ");
    let after = text[run_end..].trim_start();
    let paren = run_end + (text[run_end..].len() - after.len());
    if after.starts_with('(') {
        if let Some(d) = defs.iter().find(|d| d.paren == paren) {
            return Some(if d.short == name {
                format!("{} — {}", d.short, d.long)
            } else {
                format!("{} — {}", d.short, name)
            });
        }
    }
    Some(name)
}

/// A name set off by commas: `…, TraMark, which` or `…, NC0, whose`.
fn appositive_name(s: &str) -> Option<String> {
    s.split(", ").skip(1).find_map(|part| {
        let word = part.split_whitespace().next()?;
        let bare = word.trim_end_matches(',');
        let ends_here = word.ends_with(',') || part.trim() == bare;
        (ends_here && is_name_word(bare) && bare.chars().count() >= 3).then(|| bare.to_string())
    })
}

/// `We introduce a framework (CRD) to …`: an acronym in parentheses.
fn bare_acronym_in(s: &str) -> Option<String> {
    let open = s.find('(')?;
    let close = s[open..].find(')')? + open;
    let inner = &s[open + 1..close];
    (is_facet_acronym(inner) && !inner.contains(' ') && inner.len() <= 12)
        .then(|| inner.to_string())
}

/// A word that can be part of a name: capitalised (`Echo`, `Diversity-Preserving`),
/// or with a capital inside (`reAR`, `mm-TEM`); not a TeX command.
fn is_name_word(w: &str) -> bool {
    let Some(first) = w.chars().next() else {
        return false;
    };
    !w.starts_with(['\\', '(', '"', '\''])
        && (first.is_uppercase() || w.chars().skip(1).any(char::is_uppercase))
}

fn first_sentence(text: &str) -> &str {
    let mut from = 0;
    while let Some(rel) = text[from..].find(". ") {
        let end = from + rel;
        let last_word = text[..end].rsplit(' ').next().unwrap_or("");
        if !matches!(last_word, "e.g" | "i.e" | "al" | "vs" | "cf" | "Fig" | "Eq") {
            return &text[..end];
        }
        from = end + 2;
    }
    text.trim_end_matches('.')
}

/// Shortens at a word boundary to at most `max` characters, with an ellipsis.
pub fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let cut = s.char_indices().nth(max).map_or(s.len(), |(i, _)| i);
    let head = &s[..cut];
    let head = match head.rfind(' ') {
        Some(i) if i > max / 2 => &head[..i],
        _ => head,
    };
    format!("{}…", head.trim_end_matches([',', ';', ':', ' ']))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schwartz_hearst_definitions() {
        let d = definitions(
            "fine-tuning Large Language Models (LLMs) with Reinforcement Learning with Verifiable Reward (RLVR) is",
        );
        let pairs: Vec<(&str, &str)> = d
            .iter()
            .map(|d| (d.short.as_str(), d.long.as_str()))
            .collect();
        assert_eq!(
            pairs,
            [
                ("LLMs", "Large Language Models"),
                ("RLVR", "Reinforcement Learning with Verifiable Reward")
            ]
        );
        let d = definitions(
            "we propose DIVER (Diversity-Incentivized Exploration for VersatilE Reasoning), an",
        );
        assert_eq!(d[0].short, "DIVER");
        assert_eq!(
            d[0].long,
            "Diversity-Incentivized Exploration for VersatilE Reasoning"
        );
        assert!(definitions("results (see Table 1) and (a) or (e.g., GSM8K)").is_empty());
    }

    /// A real ICLR 2026 abstract listed its questions as `(-) What …`: a
    /// short form with no letter or digit once indexed past the end.
    #[test]
    fn short_forms_without_letters_define_nothing() {
        let text = "We ask three questions. (-) What fundamental constraints set native VLMs apart from modular ones? (%) and ( ) and (--) too.";
        assert!(definitions(text).is_empty());
        assert!(!derive_title(text).is_empty());
    }

    #[test]
    fn acronym_keys_merge_plurals() {
        assert_eq!(acronym_key("LLMs"), "LLM");
        assert_eq!(acronym_key("MLLMs"), "MLLM");
        assert_eq!(acronym_key("RLVR"), "RLVR");
        assert_eq!(acronym_key("Pass"), "Pass");
    }

    #[test]
    fn shorten_cuts_at_words() {
        assert_eq!(shorten("one two three four", 12), "one two…");
        assert_eq!(shorten("short", 12), "short");
    }
}
