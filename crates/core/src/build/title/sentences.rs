//! Sentences of an abstract and the words in them, with their offsets.

/// A sentence of the abstract and where it starts.
#[derive(Debug, Clone, Copy)]
pub(super) struct Sentence<'a> {
    pub(super) start: usize,
    pub(super) text: &'a str,
}

/// Sentences: ends at `.`, `?` or `!` before a space and a capital, digit
/// or opening mark, not after `e.g.`, `i.e.`, `et al.`, `vs.`, `Fig.` and
/// the like; a line break ends one too.
pub(super) fn sentences(text: &str) -> Vec<Sentence<'_>> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let end_here = match b {
            b'\n' => true,
            b'.' | b'?' | b'!' => {
                let next = text[i + 1..].chars().next();
                let after = text[i + 1..].trim_start().chars().next();
                let before = text[..i].chars().next_back();
                // `… recently.This paper proposes`: a missing space.
                let run_together = b == b'.'
                    && before.is_some_and(char::is_lowercase)
                    && next.is_some_and(char::is_uppercase)
                    && text[i + 1..].chars().nth(1).is_some_and(char::is_lowercase);
                run_together
                    || next.is_some_and(char::is_whitespace)
                        && after.is_some_and(|c| {
                            c.is_uppercase() || c.is_ascii_digit() || "(\"“[".contains(c)
                        })
                        && !is_abbreviation(text[start..i].rsplit(' ').next().unwrap_or(""))
            }
            _ => false,
        };
        if end_here {
            push_sentence(&mut out, text, start, i);
            start = i + 1;
        }
        i += 1;
    }
    push_sentence(&mut out, text, start, text.len());
    out
}

pub(super) fn push_sentence<'a>(
    out: &mut Vec<Sentence<'a>>,
    text: &'a str,
    start: usize,
    end: usize,
) {
    let raw = &text[start..end];
    let trimmed = raw.trim();
    if !trimmed.is_empty() {
        let lead = raw.len() - raw.trim_start().len();
        out.push(Sentence {
            start: start + lead,
            text: trimmed.trim_end_matches(['.', '?', '!']),
        });
    }
}

pub(super) fn is_abbreviation(word: &str) -> bool {
    let w = word.trim_start_matches(['(', '[']);
    matches!(
        w.to_ascii_lowercase().as_str(),
        "e.g"
            | "i.e"
            | "al"
            | "vs"
            | "cf"
            | "fig"
            | "eq"
            | "etc"
            | "approx"
            | "resp"
            | "sec"
            | "no"
            | "viz"
    ) || (w.len() == 1 && w.chars().all(char::is_uppercase))
}

/// The words of `s` with their byte offsets.
pub(super) fn word_offsets(s: &str) -> Vec<(usize, &str)> {
    // An em dash or a TeX `---` joins words without a space (`CARE—a new
    // dataset`, `in this work---FastGCN`).
    s.split(|c: char| c.is_whitespace() || c == '—')
        .flat_map(|w| w.split("---"))
        .filter(|w| !w.is_empty())
        .map(|w| (w.as_ptr() as usize - s.as_ptr() as usize, w))
        .collect()
}

/// Where the phrase ends: the sentence end (`. ` or the end).
pub(super) fn sentence_end_in(s: &str) -> usize {
    let mut from = 0;
    while let Some(rel) = s[from..].find(". ") {
        let end = from + rel;
        if !is_abbreviation(s[..end].rsplit(' ').next().unwrap_or("")) {
            return end;
        }
        from = end + 2;
    }
    s.trim_end_matches('.').len()
}
