//! The normalizer: one tokenizer, folder and stemmer shared by the corpus
//! compiler, the index and the query parser, so that what is indexed and what
//! is asked are always spelled the same way.

use std::borrow::Cow;
use std::sync::OnceLock;

use pagefind_stem::{Algorithm, Stemmer};
use unicode_segmentation::UnicodeSegmentation;

/// One word of a text: where it stands (byte offsets into the original text,
/// always on character boundaries), its folded surface form and its stem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// Byte offset of its first character.
    pub start: usize,
    /// Byte offset after its last character.
    pub end: usize,
    /// Case- and diacritic-folded word (`Bokmål` → `bokmal`).
    pub folded: String,
    /// English Snowball stem of the folded word (`models` → `model`).
    pub stem: String,
}

fn stemmer() -> &'static Stemmer {
    static STEMMER: OnceLock<Stemmer> = OnceLock::new();
    STEMMER.get_or_init(|| Stemmer::create(Algorithm::English))
}

/// Writes one non-ASCII character's compatibility decomposition (NFKD)
/// into `out`, its combining marks (general category M) left out, not yet
/// lowercased.
pub type Decompose = fn(char, &mut String);

static DECOMPOSE: OnceLock<Decompose> = OnceLock::new();

/// The decomposition [`fold`] uses where this build has no Unicode tables
/// of its own (the `unicode-tables` feature, off in the WebAssembly, whose
/// bytes they would be a seventh of): the app gives the browser's
/// `String.prototype.normalize("NFKD")`. The first call wins.
pub fn set_decompose(f: Decompose) {
    let _ = DECOMPOSE.set(f);
}

/// NFKD of one character, marks left out, from the Unicode tables of the
/// `unicode-normalization` crate.
#[cfg(feature = "unicode-tables")]
fn decompose_with_tables(c: char, out: &mut String) {
    use unicode_normalization::char::{decompose_compatible, is_combining_mark};
    decompose_compatible(c, |d| {
        if !is_combining_mark(d) {
            out.push(d);
        }
    });
}

fn decompose(c: char, out: &mut String) {
    #[cfg(feature = "unicode-tables")]
    if DECOMPOSE.get().is_none() {
        return decompose_with_tables(c, out);
    }
    match DECOMPOSE.get() {
        Some(f) => f(c, out),
        None => out.push(c),
    }
}

/// Folds case, compatibility forms and diacritics: `Bokmål` → `bokmal`,
/// `K²` → `k2`, `ﬁne` → `fine`, typographic apostrophes → `'`.
pub fn fold(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    for c in word.chars() {
        if c.is_ascii() {
            out.push(c.to_ascii_lowercase());
            continue;
        }
        if matches!(c, '\u{2018}' | '\u{2019}' | '\u{02BC}') {
            out.push('\'');
            continue;
        }
        let mut d = String::new();
        decompose(c, &mut d);
        out.extend(d.chars().flat_map(char::to_lowercase));
    }
    out
}

/// Stems a folded word. Words with digits or non-Latin letters are left whole:
/// the English stemmer has nothing useful to say about `gpt-3` or `论文`.
pub fn stem(folded: &str) -> Cow<'_, str> {
    if folded.chars().all(|c| c.is_ascii_lowercase() || c == '\'') {
        let s = stemmer().stem(folded);
        // A trailing possessive is not part of the word.
        match s {
            Cow::Borrowed(b) => Cow::Borrowed(b.trim_end_matches('\'')),
            Cow::Owned(o) => Cow::Owned(o.trim_end_matches('\'').to_string()),
        }
    } else {
        Cow::Borrowed(folded)
    }
}

/// Splits text into words on Unicode (UAX #29) word boundaries; punctuation
/// and spaces are skipped. Offsets refer to `text`.
pub fn tokenize(text: &str) -> Vec<Token> {
    words(text)
        .map(|(start, w)| {
            let folded = fold(w);
            let stem = stem_word(w, &folded);
            Token {
                start,
                end: start + w.len(),
                folded,
                stem,
            }
        })
        .collect()
}

/// The stem of a raw word `w` whose folded form is `folded`.
pub(crate) fn stem_word(w: &str, folded: &str) -> String {
    if is_plural_acronym(w) {
        folded[..folded.len() - 1].to_string()
    } else {
        stem(folded).into_owned()
    }
}

/// `LLMs`, `MLLMs`, `GPUs`: an all-capitals word with a plural `s`, which
/// the English stemmer leaves alone for want of a vowel.
pub(crate) fn is_plural_acronym(w: &str) -> bool {
    w.strip_suffix('s').is_some_and(|head| {
        head.chars().count() >= 2
            && head
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
            && head.chars().any(|c| c.is_ascii_uppercase())
    })
}

/// The raw words of `text` with their byte offsets, before folding.
pub fn words(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split_word_bound_indices()
        .filter(|(_, w)| w.chars().any(char::is_alphanumeric))
        .flat_map(|(start, w)| JoinedSentences { start, rest: w })
}

/// The pieces of one UAX #29 word that two sentences make when the space
/// after the full stop was lost (`data.We`, `ontology.Our`: common in
/// abstracts extracted from PDFs). A `.` between letters joins a word (`e.g`,
/// `node.js`); it is a sentence's end when a lowercase letter comes before
/// it and a capitalised word after (`U.S`, `arXiv.org` stay whole).
struct JoinedSentences<'a> {
    start: usize,
    rest: &'a str,
}

impl<'a> Iterator for JoinedSentences<'a> {
    type Item = (usize, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        if self.rest.is_empty() {
            return None;
        }
        let ends_sentence = |i: usize| {
            let before = self.rest[..i].chars().next_back();
            let mut after = self.rest[i + 1..].chars();
            before.is_some_and(char::is_lowercase)
                && after.next().is_some_and(char::is_uppercase)
                && after.next().is_some_and(char::is_lowercase)
        };
        let cut = self
            .rest
            .match_indices('.')
            .map(|(i, _)| i)
            .find(|&i| ends_sentence(i));
        let (piece, start) = (self.rest, self.start);
        match cut {
            Some(i) => {
                self.rest = &piece[i + 1..];
                self.start = start + i + 1;
                Some((start, &piece[..i]))
            }
            None => {
                self.rest = "";
                Some((start, piece))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stems(text: &str) -> Vec<String> {
        tokenize(text).into_iter().map(|t| t.stem).collect()
    }

    #[test]
    fn folds_case_and_diacritics() {
        assert_eq!(fold("Bokmål"), "bokmal");
        assert_eq!(fold("Éclair"), "eclair");
        assert_eq!(fold("K²"), "k2");
        assert_eq!(fold("model’s"), "model's");
    }

    #[test]
    fn stems_english_and_leaves_codes_alone() {
        assert_eq!(
            stems("models modelling modeled"),
            ["model", "model", "model"]
        );
        assert_eq!(stems("the model's policies"), ["the", "model", "polici"]);
        assert_eq!(stems("GPT-3 LLaVA-1.5"), ["gpt", "3", "llava", "1.5"]);
        assert_eq!(stems("LLMs LLM MLLMs Pass"), ["llm", "llm", "mllm", "pass"]);
    }

    #[test]
    fn offsets_point_into_the_original_text() {
        let text = "Bokmål — “Pass@k” 论文";
        let toks = tokenize(text);
        let words: Vec<&str> = toks.iter().map(|t| &text[t.start..t.end]).collect();
        assert_eq!(words, ["Bokmål", "Pass", "k", "论", "文"]);
        assert_eq!(toks[0].folded, "bokmal");
    }

    #[test]
    fn two_sentences_whose_space_was_lost_are_two_words() {
        let text = "geospatial data.We propose an ontology.Our model";
        let found: Vec<(usize, &str)> = words(text).collect();
        assert_eq!(
            found,
            [
                (0, "geospatial"),
                (11, "data"),
                (16, "We"),
                (19, "propose"),
                (27, "an"),
                (30, "ontology"),
                (39, "Our"),
                (43, "model")
            ]
        );
        // A full stop inside a word is not a sentence's end.
        let kept: Vec<&str> = words("e.g. node.js U.S. arXiv.org GPT-3.5 i.e.The")
            .map(|(_, w)| w)
            .collect();
        assert_eq!(
            kept,
            [
                "e.g",
                "node.js",
                "U.S",
                "arXiv.org",
                "GPT",
                "3.5",
                "i.e",
                "The"
            ]
        );
    }
}
