//! The model's own tokenizer: BERT's basic tokenization (clean the text,
//! space out CJK ideographs, lowercase and strip accents, split on
//! whitespace and punctuation), then WordPiece, greedy longest match first
//! with `##` continuations, as all-MiniLM-L6-v2's `tokenizer.json` says.
//! Tested against that file's reference outputs (`tests/native/meaning.rs`).

use crate::model::text::fold;

/// Longer words are one unknown token, as in the reference tokenizer.
const MAX_WORD_CHARS: usize = 100;

/// A vocabulary: a token's id, or `None`.
pub trait Vocab {
    /// The id of `token` (`##`-prefixed for a continuation).
    fn id(&self, token: &str) -> Option<u32>;
    /// The id of `[UNK]`.
    fn unknown(&self) -> u32;
}

/// One word of the text, as the basic tokenizer splits it: its byte range
/// in the original text and its normalized form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    /// Byte offsets in the original text.
    pub start: usize,
    /// One past its last byte.
    pub end: usize,
    /// Lowercased, accents stripped.
    pub normal: String,
}

/// Whether BERT counts `c` as punctuation: ASCII symbols and Unicode's
/// punctuation categories (the blocks where they live).
fn is_punctuation(c: char) -> bool {
    let u = c as u32;
    (33..=47).contains(&u)
        || (58..=64).contains(&u)
        || (91..=96).contains(&u)
        || (123..=126).contains(&u)
        || matches!(
            u,
            0xA1 | 0xA7 | 0xAB | 0xB6 | 0xB7 | 0xBB | 0xBF | 0x37E | 0x387
        )
        || (0x2010..=0x2027).contains(&u)
        || (0x2030..=0x205E).contains(&u)
        || (0x3001..=0x3003).contains(&u)
        || (0x3008..=0x3011).contains(&u)
        || (0x3014..=0x301F).contains(&u)
        || matches!(u, 0x30FB | 0xFE10..=0xFE19 | 0xFE30..=0xFE4F | 0xFE50..=0xFE6B)
        || matches!(
            u,
            0xFF01..=0xFF03
                | 0xFF05..=0xFF0A
                | 0xFF0C..=0xFF0F
                | 0xFF1A
                | 0xFF1B
                | 0xFF1F
                | 0xFF20
                | 0xFF3B..=0xFF3D
                | 0xFF3F
                | 0xFF5B
                | 0xFF5D
                | 0xFF5F..=0xFF65
        )
}

/// CJK ideographs: each is a word of its own.
fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x4E00..=0x9FFF
        | 0x3400..=0x4DBF
        | 0x20000..=0x2A6DF
        | 0x2A700..=0x2B73F
        | 0x2B740..=0x2B81F
        | 0x2B820..=0x2CEAF
        | 0xF900..=0xFAFF
        | 0x2F800..=0x2FA1F)
}

/// Characters the cleaner drops: NUL, the replacement character, and
/// control and format characters other than whitespace.
fn is_dropped(c: char) -> bool {
    c == '\0'
        || c == '\u{FFFD}'
        || (c.is_control() && !c.is_whitespace())
        || matches!(c, '\u{200B}'..='\u{200F}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}' | '\u{00AD}')
}

/// The basic tokenizer's words.
pub fn words(text: &str) -> Vec<Word> {
    let mut out = Vec::new();
    let mut cur: Option<(usize, usize, String)> = None;
    let flush = |cur: &mut Option<(usize, usize, String)>, out: &mut Vec<Word>| {
        if let Some((start, end, normal)) = cur.take() {
            if !normal.is_empty() {
                out.push(Word { start, end, normal });
            }
        }
    };
    for (i, c) in text.char_indices() {
        let end = i + c.len_utf8();
        if c.is_whitespace() {
            flush(&mut cur, &mut out);
        } else if is_dropped(c) {
            continue;
        } else if is_cjk(c) || is_punctuation(c) {
            // Lowercasing and stripping accents leave these as they are.
            flush(&mut cur, &mut out);
            out.push(Word {
                start: i,
                end,
                normal: c.to_string(),
            });
        } else if c.is_ascii() {
            // Most of an abstract: lowercased in place, no allocation.
            let lower = c.to_ascii_lowercase();
            match &mut cur {
                Some((_, e, s)) => {
                    *e = end;
                    s.push(lower);
                }
                None => cur = Some((i, end, lower.to_string())),
            }
        } else {
            let n = normalize(c);
            // A compatibility form may fold to punctuation (full-width
            // letters do not, `…` does): split as the reference does.
            if n.chars().any(is_punctuation) {
                flush(&mut cur, &mut out);
                for p in n.chars() {
                    out.push(Word {
                        start: i,
                        end,
                        normal: p.to_string(),
                    });
                }
                continue;
            }
            match &mut cur {
                Some((_, e, s)) => {
                    *e = end;
                    s.push_str(&n);
                }
                None => cur = Some((i, end, n)),
            }
        }
    }
    flush(&mut cur, &mut out);
    out
}

/// BERT's normalization of one character: lowercased, and accents
/// stripped (canonical decomposition, marks dropped). [`fold`] decomposes
/// by compatibility too (`²` → `2`), which BERT does not: it is used only
/// in the blocks of accented letters, where the two agree.
fn normalize(c: char) -> String {
    let u = c as u32;
    if (0x0300..=0x036F).contains(&u) {
        return String::new();
    }
    let accented =
        matches!(u, 0x00C0..=0x024F | 0x0370..=0x03FF | 0x0400..=0x04FF | 0x1E00..=0x1EFF);
    if c.is_ascii() || accented {
        let mut buf = [0u8; 4];
        fold(c.encode_utf8(&mut buf))
    } else {
        c.to_lowercase().collect()
    }
}

/// A word's WordPiece tokens, appended to `out`.
pub fn pieces(word: &str, vocab: &impl Vocab, out: &mut Vec<u32>) {
    if word.chars().count() > MAX_WORD_CHARS {
        out.push(vocab.unknown());
        return;
    }
    let mark = out.len();
    let mut start = 0;
    let mut buf = String::new();
    while start < word.len() {
        let mut end = word.len();
        let mut found = None;
        while end > start {
            if !word.is_char_boundary(end) {
                end -= 1;
                continue;
            }
            buf.clear();
            if start > 0 {
                buf.push_str("##");
            }
            buf.push_str(&word[start..end]);
            if let Some(id) = vocab.id(&buf) {
                found = Some(id);
                break;
            }
            end -= 1;
        }
        match found {
            Some(id) => {
                out.push(id);
                start = end;
            }
            None => {
                out.truncate(mark);
                out.push(vocab.unknown());
                return;
            }
        }
    }
}

/// The token ids of a text.
pub fn tokenize(text: &str, vocab: &impl Vocab) -> Vec<u32> {
    let mut out = Vec::new();
    for w in words(text) {
        pieces(&w.normal, vocab, &mut out);
    }
    out
}
