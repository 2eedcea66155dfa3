//! The acronyms an abstract defines, found with the Schwartz–Hearst
//! algorithm (“A simple algorithm for identifying abbreviation definitions
//! in biomedical text”, 2003): a short form in parentheses is matched right
//! to left against the words before it, or a long form in parentheses
//! against the word before it.

/// An acronym defined in a text: `Long Form (SHORT)` or `SHORT (Long Form)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Definition {
    /// The short form as written (`LLMs`).
    pub short: String,
    /// The long form it stands for (`Large Language Models`).
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
    // After the last whitespace character, whatever its width (U+0085 NEL,
    // U+3000 are more than one byte).
    let word_start = long[..start]
        .char_indices()
        .rev()
        .find(|(_, c)| c.is_whitespace())
        .map_or(0, |(i, c)| i + c.len_utf8());
    let form = long[word_start..].trim();
    (!form.is_empty()).then_some(form)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wide_whitespace_before_the_long_form_is_no_panic() {
        // Found by the property test: NEL (two bytes) before the long form.
        let text =
            "aligning large language models (LLMs)\u{85}Vision-language models (VLMs) face costs";
        let _ = definitions(text);
        let text = "models\u{3000}Vision-language models (VLMs) face costs";
        let _ = definitions(text);
    }

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
    /// short form with no letter or digit once indexed past the end (and
    /// the title derived from it with it).
    #[test]
    fn short_forms_without_letters_define_nothing() {
        let text = "We ask three questions. (-) What fundamental constraints set native VLMs apart from modular ones? (%) and ( ) and (--) too.";
        assert!(definitions(text).is_empty());
        assert!(!crate::build::title::derive_title(text).is_empty());
    }

    #[test]
    fn acronym_keys_merge_plurals() {
        assert_eq!(acronym_key("LLMs"), "LLM");
        assert_eq!(acronym_key("MLLMs"), "MLLM");
        assert_eq!(acronym_key("RLVR"), "RLVR");
        assert_eq!(acronym_key("Pass"), "Pass");
    }
}
