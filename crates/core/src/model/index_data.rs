//! The index as the build ships it and the page receives it
//! ([`IndexData`]): its fields, its packs' names, and the field numbers
//! its positions are counted in. Built and opened by
//! [`crate::search::index`]; its byte arrays travel as raw sections of its
//! frame ([`crate::model::Corpus::to_bytes`]).

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

/// Where each field's token positions start (title at 0), so that a phrase
/// never spans two fields.
pub const TEXT_BASE: u32 = 1 << 24;
/// Where the author list's token positions start.
pub const AUTHORS_BASE: u32 = 1 << 31;

/// The title's field number.
pub const FIELD_TITLE: usize = 0;
/// The abstract's field number.
pub const FIELD_TEXT: usize = 1;
/// The author list's field number.
pub const FIELD_AUTHORS: usize = 2;
/// How many fields are indexed.
pub const N_FIELDS: usize = 3;
pub(crate) const FIELD_BASES: [u32; N_FIELDS] = [0, TEXT_BASE, AUTHORS_BASE];

/// The index's large byte arrays: owned when built or decoded from a
/// buffer, borrowed from the app's embedded corpus (opened without a copy).
pub type Bytes = Cow<'static, [u8]>;

/// The index as shipped: part of the compiled corpus format. The byte arrays
/// are not in its serde form: the corpus writes them as raw sections after
/// the rest ([`crate::model::Corpus::to_bytes`]), so that they can be used
/// where they lie.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct IndexData {
    /// Stem → stem id ([`Words`], as shipped), for the stems that
    /// [`stem_through_words`] does not find (at 100,000 papers, 67 of
    /// 59,954: mostly plural acronyms' and numbered names').
    #[serde(skip)]
    pub stray_stems: Bytes,
    /// How many stems there are (ids `0..stem_count`, in sorted order).
    pub stem_count: u32,
    /// Folded surface word → the stem id it was indexed under ([`Words`],
    /// as shipped); empty when the words come in packs (`word_packs`).
    #[serde(skip)]
    pub surface: Bytes,
    /// Empty when `surface` holds every word; else the word list comes in
    /// packs of consecutive words, files of their own fetched when a query
    /// looks a word up in their range ([`IndexData::in_packs`]). At 100,000
    /// papers the words were two thirds of the head (377 KB of 554,
    /// brotli), fetched before any answer.
    pub word_packs: Vec<WordPackRef>,
    /// The stems the function words ("the", "for"…) are indexed under,
    /// sorted: never highlighted outside a phrase. Worked out by the build,
    /// so that the page need not look them up in the word list's packs.
    pub function_stems: Vec<u32>,
    /// Every stem's compressed postings, then the prefix lists', as one
    /// block ([`Block`]) with each one's length and number of documents,
    /// when they are whole; empty when they come in packs.
    #[serde(skip)]
    pub postings: Bytes,
    /// Tokens per document per field, as BM25 reads them: rounded down to
    /// a length a byte names ([`norms`]), and shipped as that byte.
    #[serde(with = "norms")]
    pub doc_len: Vec<[u32; N_FIELDS]>,
    /// Empty when `postings` holds every stem's postings; else the
    /// postings come in packs, files of their own fetched when a query
    /// needs them ([`IndexData::in_packs`]), and `postings` is empty.
    pub packs: Vec<PackRef>,
    /// Per pack of `packs`, the pack of its stems' token positions
    /// (empty when the postings are whole).
    pub position_packs: Vec<PositionsRef>,
    /// Every stem's token positions, as one block ([`Block`]), when the
    /// postings are whole; empty when they come in packs.
    #[serde(skip)]
    pub positions: Bytes,
    /// The short prefixes whose words' postings are many
    /// ([`PREFIX_LISTS_FROM`]), sorted: each has a list of its own after
    /// the stems' (id `stem_count + i`, in the postings and their packs), per
    /// document the best score any word it begins has there as a prefix
    /// match. Typing the second letter of a word reads that one list
    /// instead of the postings of every word the two letters begin.
    pub prefixes: Vec<String>,
}

/// A field's length as a byte (as Lucene's norms): exact up to 63 words,
/// then to 1/32 of its size (its top six bits), up to 4,095 words, past
/// which every length is one. BM25 reads a length only against the
/// average, so 3 % changes a score by less than that; the lengths were the
/// largest piece of the index's head (238 KB of 634, brotli, at 100,000
/// papers: each field's column of bytes compresses to 154 KB). Lengths
/// are rounded when the index is built, so the build's own scoring (the
/// prefix lists) reads what the page reads. Shipped field by field.
pub mod norms {
    use super::N_FIELDS;
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    /// The byte of a length.
    pub fn code(len: u32) -> u8 {
        match len {
            0..64 => len as u8,
            64..4096 => {
                let shift = 32 - len.leading_zeros() - 6;
                (64 + 32 * (shift - 1) + ((len >> shift) & 31)) as u8
            }
            _ => 255,
        }
    }

    /// The length a byte names: the least of those it is the byte of.
    pub fn len(code: u8) -> u32 {
        match u32::from(code) {
            c @ 0..64 => c,
            c => (32 + (c - 64) % 32) << ((c - 64) / 32 + 1),
        }
    }

    /// A length as BM25 reads it.
    pub fn rounded(len: u32) -> u32 {
        self::len(code(len))
    }

    pub fn serialize<S: Serializer>(lens: &[[u32; N_FIELDS]], s: S) -> Result<S::Ok, S::Error> {
        let column = |f: usize| lens.iter().map(move |l| code(l[f]));
        let codes: Vec<u8> = (0..N_FIELDS).flat_map(column).collect();
        s.collect_seq(codes)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<[u32; N_FIELDS]>, D::Error> {
        let codes = Vec::<u8>::deserialize(d)?;
        if codes.len() % N_FIELDS != 0 {
            return Err(D::Error::custom("field lengths of part of a paper"));
        }
        let n = codes.len() / N_FIELDS;
        Ok((0..n)
            .map(|doc| std::array::from_fn(|f| len(codes[f * n + doc])))
            .collect())
    }
}

/// One pack of an index's postings: the block ([`Block`]) of the stems
/// from `first_stem` up to the next pack's first stem (stems are numbered
/// in sorted order, so a pack is a range of the vocabulary, and a prefix's
/// words lie in few packs), in a file named for its content. The head
/// names only the packs: each pack's own table gives its stems' lengths
/// and numbers of documents, which only a query reading them needs (in
/// the head they were 108 KB of 595, brotli, at 100,000 papers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackRef {
    /// Its first stem.
    pub first_stem: u32,
    /// The xxh3-64 of its bytes: its file's name ([`pack_file_name`]),
    /// and checked when it arrives.
    pub hash: u64,
    /// Its length in bytes (what saving for offline use counts).
    pub len: u32,
}

/// One pack of an index's word list ([`IndexData::word_packs`]): the
/// words from `first` up to the next pack's first. The build never cuts
/// between two words of one stem, nor between a stray stem and its words
/// ([`IndexData::stray_stems`]), so that every word a stem was indexed from
/// lies in the pack where a query found it: what lets a card be
/// highlighted from the packs in, without the rest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WordPackRef {
    /// Its first word (empty for the first pack).
    pub first: String,
    /// The xxh3-64 of its bytes: its file's name
    /// ([`crate::search::words_file_name`]), and checked when it arrives.
    pub hash: u64,
    /// Its length in bytes.
    pub len: u32,
}

/// The pack of token positions of a pack of postings ([`PackRef`]): read
/// only by a quoted phrase, so fetched only then. Its file is named as the
/// postings' are ([`pack_file_name`]), for its content.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PositionsRef {
    /// The xxh3-64 of its bytes.
    pub hash: u64,
    /// Its length in bytes (what saving for offline use counts).
    pub len: u32,
}

impl IndexData {
    /// The byte arrays, in the order they follow the corpus body.
    pub(crate) fn sections(&self) -> [&[u8]; 4] {
        [
            &self.stray_stems,
            &self.surface,
            &self.postings,
            &self.positions,
        ]
    }

    pub(crate) fn sections_mut(&mut self) -> [&mut Bytes; 4] {
        [
            &mut self.stray_stems,
            &mut self.surface,
            &mut self.postings,
            &mut self.positions,
        ]
    }
}
