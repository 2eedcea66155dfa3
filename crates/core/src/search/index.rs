//! The inverted index. Built once, at build time, by [`IndexData::build`] and
//! shipped inside the compiled corpus; the app only opens it ([`Index::open`]),
//! so start-up does no tokenizing.
//!
//! Postings are keyed by stem and stored compressed: per document, the gap
//! from the previous document and the term frequency in each field, as
//! LEB128 varints, decoded when a query needs them. The token positions,
//! which only a quoted phrase reads, are kept apart ([`IndexData::positions`]):
//! they were four fifths of a common word's postings, fetched by every query
//! that typed it.
//! A sorted list of the folded surface words maps each to its stem's id
//! ([`Words`]); prefixes and near-miss spellings are found on it, edit
//! distances computed with `strsim` on the few words sharing a first
//! letter. A stem's id is found through the words that begin as it does
//! ([`stem_through_words`]): a map of every stem was a quarter of the
//! index's head, and the few stems no word leads to have a list of their
//! own. In an index in packs the word list comes in packs too
//! ([`crate::search::word_packs`]).

use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, OnceLock};

use super::word_packs::{cut_points, words_file_name, Miss, Surface, WORD_PACK_BYTES};
use crate::model::index_data::FIELD_BASES;
pub use crate::model::index_data::{
    norms, Bytes, IndexData, PackRef, PositionsRef, WordPackRef, AUTHORS_BASE, FIELD_AUTHORS,
    FIELD_TEXT, FIELD_TITLE, N_FIELDS, TEXT_BASE,
};
use crate::model::text;
use crate::model::Paper;

/// The searchable fields of a paper, with their position bases. Authors are
/// searched as one text, “Ann Lee, Bo Chen”, which is how cards show them.
/// The title, the abstract's `text` and the `authors` are the paper's own,
/// or (in the page, when they are apart) from their packs.
pub fn fields<'a>(
    title: &'a str,
    text: &'a str,
    authors: &[String],
) -> [(usize, std::borrow::Cow<'a, str>, u32); N_FIELDS] {
    [
        (FIELD_TITLE, title.into(), 0),
        (FIELD_TEXT, text.into(), TEXT_BASE),
        (FIELD_AUTHORS, authors.join(", ").into(), AUTHORS_BASE),
    ]
}

/// Words in sorted order (by their bytes), each with an id: the word map
/// (folded word → its stem's id) and the stray stems'. Shipped as a list:
/// how many words, each word as the bytes it shares with the one before
/// and the rest (their lengths, then the rest's bytes), then each word's
/// id as the change from the one before (zigzag). At 100,000 papers the
/// word map as an FST (`fst`) was 160 KB brotli, for it does not compress;
/// this list is 72 KB. Opened, the words lie in one buffer: a word is found
/// by binary search, the words a prefix begins are a range.
#[derive(Debug, Default)]
pub(crate) struct Words {
    text: Vec<u8>,
    /// Where each word starts in `text`, and where the last ends.
    starts: Vec<u32>,
    ids: Vec<u32>,
}

impl Words {
    /// The list of `words`, which must be in order and each once.
    pub(crate) fn write<'a>(words: impl IntoIterator<Item = (&'a [u8], u32)>) -> Vec<u8> {
        let (mut list, mut ids, mut n) = (Vec::new(), Vec::new(), 0u32);
        let (mut last, mut last_id) = (&[][..], 0i64);
        for (word, id) in words {
            assert!(n == 0 || last < word, "words in order, each once");
            let shared = last.iter().zip(word).take_while(|(a, b)| a == b).count();
            put(&mut list, shared as u32);
            put(&mut list, (word.len() - shared) as u32);
            list.extend_from_slice(&word[shared..]);
            let change = i64::from(id) - last_id;
            assert!(
                change.unsigned_abs() < 1 << 31,
                "an id's change fits a varint"
            );
            put(&mut ids, ((change << 1) ^ (change >> 63)) as u32);
            (last, last_id, n) = (word, i64::from(id), n + 1);
        }
        if n == 0 {
            return Vec::new();
        }
        let mut out = Vec::with_capacity(list.len() + ids.len() + 5);
        put(&mut out, n);
        out.extend_from_slice(&list);
        out.extend_from_slice(&ids);
        out
    }

    /// A list opened, or `None` unless `bytes` are words in order, each
    /// once, with ids that fit in 32 bits (an empty list has none).
    pub(crate) fn read(bytes: &[u8]) -> Option<Words> {
        let mut words = Words {
            text: Vec::new(),
            starts: vec![0],
            ids: Vec::new(),
        };
        if bytes.is_empty() {
            return Some(words);
        }
        let mut at = 0;
        let n = get_checked(bytes, &mut at)? as usize;
        // Each word takes two bytes at least.
        if n > bytes.len() / 2 {
            return None;
        }
        words.starts.reserve(n);
        // Front coding lets a few bytes stand for a long word: a list may
        // open to at most this much text (real lists open to about twice
        // their size), so that a damaged one cannot ask for gigabytes.
        let room = bytes.len().saturating_mul(64).saturating_add(1 << 20);
        let mut last = 0..0;
        for i in 0..n {
            let shared = get_checked(bytes, &mut at)? as usize;
            let rest = get_checked(bytes, &mut at)? as usize;
            let end = at.checked_add(rest).filter(|&e| e <= bytes.len())?;
            if shared > last.len() || words.text.len() + shared + rest > room {
                return None;
            }
            let start = words.text.len();
            words
                .text
                .extend_from_within(last.start..last.start + shared);
            words.text.extend_from_slice(&bytes[at..end]);
            at = end;
            let word = start..words.text.len();
            // Out of order, or twice.
            if i > 0 && words.text[last.clone()] >= words.text[word.clone()] {
                return None;
            }
            words.starts.push(u32::try_from(word.end).ok()?);
            last = word;
        }
        let mut id = 0i64;
        for _ in 0..n {
            let zigzag = i64::from(get_checked(bytes, &mut at)?);
            id += (zigzag >> 1) ^ -(zigzag & 1);
            words.ids.push(u32::try_from(id).ok()?);
        }
        (at == bytes.len()).then_some(words)
    }

    /// How many words there are.
    pub(crate) fn len(&self) -> usize {
        self.ids.len()
    }

    /// Each word's id, in order.
    pub(crate) fn ids(&self) -> &[u32] {
        &self.ids
    }

    /// Word `i`.
    pub(crate) fn word(&self, i: usize) -> &[u8] {
        &self.text[self.starts[i] as usize..self.starts[i + 1] as usize]
    }

    /// The id of `word`.
    pub(crate) fn get(&self, word: &str) -> Option<u32> {
        let word = word.as_bytes();
        let at = self.first_from(word);
        (at < self.len() && self.word(at) == word).then(|| self.ids[at])
    }

    /// The place of the first word not before `word`.
    fn first_from(&self, word: &[u8]) -> usize {
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.word(mid) < word {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// The words `prefix` begins, in order, with their ids.
    pub(crate) fn starting_with<'a>(
        &'a self,
        prefix: &'a str,
    ) -> impl Iterator<Item = (&'a str, u32)> + 'a {
        let prefix = prefix.as_bytes();
        let from = self.first_from(prefix);
        (from..self.len())
            .map(|i| (self.word(i), self.ids[i]))
            .take_while(move |(w, _)| w.starts_with(prefix))
            .filter_map(|(w, id)| Some((std::str::from_utf8(w).ok()?, id)))
    }

    /// Every word, in order, with its id.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&str, u32)> + '_ {
        self.starting_with("")
    }
}

/// A prefix whose words' postings number at least this many gets a list
/// of its own ([`IndexData::prefixes`]): at 100,000 papers `re` begins
/// words in 99,616 of them, and reading all their postings took 10 ms
/// natively on the first keystroke that typed it.
pub const PREFIX_LISTS_FROM: usize = 50_000;

/// The lengths, in characters, of the prefixes that may get lists: a
/// lone letter is not searched, and from four letters on a prefix's words
/// are few.
pub const PREFIX_LIST_CHARS: std::ops::RangeInclusive<usize> = 2..=3;

/// A block of a range of stems' bytes, of all stems or of a pack's: their
/// postings, or their token positions. It gives how many stems of the
/// range it holds (from the first; a stem past them has nothing, as the
/// prefix lists have no positions), each one's length in bytes and, for
/// postings, its number of documents (BM25's document frequency), then
/// each one's bytes. Positions are, per posting in the postings' order,
/// those in each field as gaps from the field's start (`tf[f]` of them
/// per field).
#[derive(Debug)]
struct Block {
    bytes: Bytes,
    /// Where each stem's bytes start, and where the last ends.
    starts: Vec<u32>,
    /// Each stem's number of documents (postings only).
    docs: Vec<u32>,
}

impl Block {
    /// A block of `stems`' bytes, with their numbers of documents when
    /// given.
    fn write<S: AsRef<[u8]>>(stems: &[S], docs: Option<&[u32]>) -> Vec<u8> {
        let mut out = Vec::new();
        put(&mut out, stems.len() as u32);
        for (i, s) in stems.iter().enumerate() {
            put(&mut out, s.as_ref().len() as u32);
            if let Some(docs) = docs {
                put(&mut out, docs[i]);
            }
        }
        for s in stems {
            out.extend_from_slice(s.as_ref());
        }
        out
    }

    /// A block of a range of `stems` stems, with numbers of documents when
    /// `counted`: `None` unless it is one (its count past the range, its
    /// lengths past its bytes or short of them). An empty block holds
    /// nothing.
    fn open(bytes: Bytes, stems: usize, counted: bool) -> Option<Block> {
        if bytes.is_empty() {
            let starts = vec![0];
            return Some(Block {
                bytes,
                starts,
                docs: Vec::new(),
            });
        }
        let mut at = 0;
        let count = get_checked(&bytes, &mut at)? as usize;
        // A stem's entry takes a byte at least (two when counted).
        let entries = if counted { 2 } else { 1 };
        if count > stems || count > (bytes.len() - at) / entries || bytes.len() > u32::MAX as usize
        {
            return None;
        }
        let mut lens = Vec::with_capacity(count);
        let mut docs = Vec::with_capacity(if counted { count } else { 0 });
        for _ in 0..count {
            lens.push(get_checked(&bytes, &mut at)?);
            if counted {
                docs.push(get_checked(&bytes, &mut at)?);
            }
        }
        let mut starts = Vec::with_capacity(count + 1);
        starts.push(at as u32);
        let mut end = at as u64;
        for len in lens {
            end += u64::from(len);
            starts.push(u32::try_from(end).ok()?);
        }
        (end == bytes.len() as u64).then_some(Block {
            bytes,
            starts,
            docs,
        })
    }

    /// How many stems of its range it holds.
    fn held(&self) -> usize {
        self.starts.len() - 1
    }

    /// The bytes of the `i`th stem of its range.
    fn of(&self, i: usize) -> &[u8] {
        match (self.starts.get(i), self.starts.get(i + 1)) {
            (Some(&a), Some(&b)) => &self.bytes[a as usize..b as usize],
            _ => &[],
        }
    }

    /// The number of documents of the `i`th stem of its range.
    fn docs(&self, i: usize) -> u32 {
        self.docs.get(i).copied().unwrap_or(0)
    }

    /// The stems of `range` (of the block's own range) as a block of
    /// their own.
    fn cut(&self, range: std::ops::Range<usize>, counted: bool) -> Vec<u8> {
        let held = range.start..range.end.min(self.held()).max(range.start);
        let stems: Vec<&[u8]> = held.clone().map(|i| self.of(i)).collect();
        let docs: Vec<u32> = held.map(|i| self.docs(i)).collect();
        Block::write(&stems, counted.then_some(docs.as_slice()))
    }
}

/// How large a pack of postings is made, at least (a stem whose postings
/// are larger has a pack of its own), each with a pack of its stems'
/// positions. The real list (3,891 papers) has 51 packs of postings, the
/// synthetic field of 100,000 papers 1,063 (its most common stems have
/// packs of their own); `tests/native/packs.rs` checks that a typed title
/// reads a small part of the postings.
pub const PACK_BYTES: usize = 32 * 1024;

/// Up to this many bytes of postings in all (a list of about 1,500
/// papers), the page fetches every pack as soon as the index's head is in,
/// and the service worker precaches them (`explorer_core::build::service_worker`): a
/// small list then searches without a round trip per new word, and
/// offline as a whole after one visit.
pub const EAGER_POSTINGS_BYTES: usize = 1_000_000;

/// The file name of a pack of postings or of their positions, from its
/// hash.
pub fn pack_file_name(hash: u64) -> String {
    crate::model::file_name("postings", hash)
}

/// An index in packs ([`IndexData::in_packs`]).
pub struct Packed {
    /// The index without its postings and positions, and the packs'
    /// table.
    pub head: IndexData,
    /// Each pack's bytes, in [`IndexData::pack_hashes`]' order: the
    /// postings' packs, then their positions'.
    pub packs: Vec<Vec<u8>>,
}

#[derive(Debug, Clone, PartialEq)]
/// One document of a stem's postings.
pub struct Posting {
    /// The document.
    pub doc: u32,
    /// Term frequency in each field.
    pub tf: [u32; N_FIELDS],
    /// Sorted token positions (title first, abstract from [`TEXT_BASE`],
    /// authors from [`AUTHORS_BASE`]); empty unless asked for, and while
    /// their pack is not in.
    pub positions: Vec<u32>,
}

/// A stem's postings, decoded one at a time ([`Index::postings_iter`]).
///
/// Bounds-checked: a truncated varint, a document id past the last paper,
/// a document repeated or more positions than bytes end the list there, so
/// that a corrupt index answers less instead of indexing out of range.
#[derive(Debug, Clone)]
pub struct Postings<'a> {
    bytes: &'a [u8],
    at: usize,
    /// The previous posting's document.
    last: Option<u32>,
    /// How many documents the index has.
    docs: u32,
    /// The stem's positions, when asked for and in, and how far they
    /// have been read.
    positions: Option<&'a [u8]>,
    positions_at: usize,
}

impl Postings<'_> {
    fn decode(&mut self) -> Option<Posting> {
        let (bytes, at) = (self.bytes, &mut self.at);
        let doc = self
            .last
            .unwrap_or(0)
            .checked_add(get_checked(bytes, at)?)?;
        if doc >= self.docs || self.last == Some(doc) {
            return None;
        }
        self.last = Some(doc);
        let tf = [
            get_checked(bytes, at)?,
            get_checked(bytes, at)?,
            get_checked(bytes, at)?,
        ];
        let mut positions = Vec::new();
        if let Some(bytes) = self.positions {
            let at = &mut self.positions_at;
            let total = tf.iter().map(|&t| u64::from(t)).sum::<u64>();
            if total > (bytes.len() - *at) as u64 {
                return None;
            }
            let total = total as usize;
            positions.reserve(total);
            for (field, &n) in tf.iter().enumerate() {
                let mut p = FIELD_BASES[field];
                for _ in 0..n {
                    p = p.wrapping_add(get_checked(bytes, at)?);
                    positions.push(p);
                }
            }
        }
        Some(Posting { doc, tf, positions })
    }
}

impl Iterator for Postings<'_> {
    type Item = Posting;

    fn next(&mut self) -> Option<Posting> {
        if self.at >= self.bytes.len() {
            return None;
        }
        let posting = self.decode();
        if posting.is_none() {
            // The rest of a corrupt list is not read.
            self.at = self.bytes.len();
        }
        posting
    }
}

/// A prefix match's score as the prefix lists ship it: one byte, the
/// float's exponent and its first four bits of mantissa (sixteen steps an
/// octave, from 2⁻⁸ to 2⁸), read back as the middle of its step. A short
/// prefix's list is a byte of gap and a byte of score a paper: with the
/// float's four bytes, `re`'s list was 412 KB at 100,000 papers, fetched
/// by the keystroke that typed it. Taken from the float's bits, not its
/// logarithm, so that the build and the page agree to the bit. Every
/// prefix match's score is rounded so ([`as_listed`](prefix_score::as_listed)),
/// whether it is read from a list or worked out from the words' postings.
pub(crate) mod prefix_score {
    /// The bits (exponent and four of mantissa) of 2⁻⁸, the first step.
    const FIRST: u32 = (127 - 8) << 4;

    /// The step of a score (0 for 2⁻⁸ and below, 255 for 2⁸ and above).
    pub(crate) fn code(score: f32) -> u8 {
        if score.is_nan() || score <= 0.0 {
            return 0;
        }
        (score.to_bits() >> 19).saturating_sub(FIRST).min(255) as u8
    }

    /// The score a step stands for.
    pub(crate) fn value(code: u8) -> f32 {
        f32::from_bits(((FIRST + u32::from(code)) << 19) | (1 << 18))
    }

    /// `score` rounded to its step.
    pub(crate) fn as_listed(score: f32) -> f32 {
        value(code(score))
    }

    /// `score` rounded to the middle of its step of eight: two steps an octave, for a
    /// prefix of two or three characters ([`super::PREFIX_LIST_CHARS`]).
    /// Such a prefix opens hundreds of words (`re` 4,400 at 100,000
    /// papers), and its score, the best of theirs, says little of what a
    /// reader is after; its list is most of the bytes of the keystroke that
    /// typed it, and with sixteen steps an octave its scores were three
    /// quarters of the list's bytes after compression (`re`: 74 KB, 38 KB
    /// so).
    pub(crate) fn as_listed_short(score: f32) -> f32 {
        value(code(score) & !7 | 4)
    }
}

fn put(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// A varint, or `None` when the bytes end before it does (a corrupt or
/// truncated posting list).
fn get_checked(bytes: &[u8], at: &mut usize) -> Option<u32> {
    let mut v = 0u32;
    let mut shift = 0;
    loop {
        let &b = bytes.get(*at)?;
        *at += 1;
        if shift < 32 {
            v |= u32::from(b & 0x7f) << shift;
        }
        if b & 0x80 == 0 {
            return Some(v);
        }
        shift += 7;
    }
}

#[cfg(test)]
fn get(bytes: &[u8], at: &mut usize) -> u32 {
    let mut v = 0u32;
    let mut shift = 0;
    while let Some(&b) = bytes.get(*at) {
        *at += 1;
        if shift < 32 {
            v |= u32::from(b & 0x7f) << shift;
        }
        if b & 0x80 == 0 {
            break;
        }
        shift += 7;
    }
    v
}

/// One stem's occurrences in one document: the document, its count per
/// field, and its word positions (in field order).
type Entry = (u32, [u32; N_FIELDS], Vec<u32>);

/// Every paper's words, gathered per stem before anything is encoded.
#[derive(Default)]
struct Collected {
    /// Stem → its id (in first-seen order).
    stem_ids: HashMap<String, u32>,
    /// Folded word → stem id: each distinct word is stemmed once.
    surface: HashMap<String, u32>,
    /// Per stem id, its documents in document order.
    lists: Vec<Vec<Entry>>,
    /// Per document, its length in words per field.
    doc_len: Vec<[u32; N_FIELDS]>,
}

impl Collected {
    fn of(papers: &[Paper]) -> Collected {
        let mut c = Collected::default();
        for (doc, paper) in papers.iter().enumerate() {
            let mut lens = [0u32; N_FIELDS];
            for (field, text, base) in fields(&paper.title, &paper.text, &paper.authors) {
                let mut n = 0u32;
                for (_, w) in text::words(&text) {
                    let id = c.stem_id(w);
                    c.occurs(id, doc as u32, field, base + n);
                    n += 1;
                }
                lens[field] = norms::rounded(n);
            }
            c.doc_len.push(lens);
        }
        c
    }

    fn stem_id(&mut self, w: &str) -> u32 {
        let folded = text::fold(w);
        match self.surface.get(&folded) {
            // The plural-acronym rule looks at the raw word, so a folded
            // word is only reused when it is not one.
            Some(&id) if !text::is_plural_acronym(w) => id,
            _ => {
                let stem = text::stem_word(w, &folded);
                let next = self.stem_ids.len() as u32;
                let lists = &mut self.lists;
                let id = *self.stem_ids.entry(stem).or_insert_with(|| {
                    lists.push(Vec::new());
                    next
                });
                self.surface.entry(folded).or_insert(id);
                id
            }
        }
    }

    fn occurs(&mut self, stem: u32, doc: u32, field: usize, position: u32) {
        let list = &mut self.lists[stem as usize];
        if list.last().is_none_or(|e| e.0 != doc) {
            list.push((doc, [0; N_FIELDS], Vec::new()));
        }
        let e = list.last_mut().expect("pushed above");
        e.1[field] += 1;
        e.2.push(position);
    }
}

/// A stem's documents as compressed postings, appended to `out`: per
/// document the gap from the previous one and its count per field; and
/// its positions, appended to `at`, as gaps within each field from the
/// field's start.
fn encode_postings(list: &[Entry], out: &mut Vec<u8>, at: &mut Vec<u8>) {
    let mut prev = 0u32;
    for (doc, tf, positions) in list {
        put(out, doc - prev);
        prev = *doc;
        for &t in tf {
            put(out, t);
        }
        // The positions are in field order, `tf[f]` of them per field.
        let mut rest = positions.as_slice();
        for (f, &n) in tf.iter().enumerate() {
            let (mine, after) = rest.split_at(n as usize);
            let mut last = FIELD_BASES[f];
            for &p in mine {
                put(at, p - last);
                last = p;
            }
            rest = after;
        }
    }
}

impl IndexData {
    /// Tokenizes every paper's fields and writes the compressed postings:
    /// stems numbered in sorted order, the word list (folded words to
    /// their stem's id) with the stray stems', and each stem's postings
    /// and positions.
    pub fn build(papers: &[Paper]) -> IndexData {
        Self::build_with(papers, PREFIX_LISTS_FROM)
    }

    /// [`IndexData::build`], with lists for the prefixes whose words'
    /// postings number at least `prefix_lists_from` (`usize::MAX`: none).
    pub fn build_with(papers: &[Paper], prefix_lists_from: usize) -> IndexData {
        let mut data = Self::build_stems(papers);
        data.add_prefix_lists(prefix_lists_from);
        data
    }

    /// The word lists, postings and positions, without prefix lists.
    fn build_stems(papers: &[Paper]) -> IndexData {
        let c = Collected::of(papers);
        // Stem ids in sorted stem order: packs are ranges of the vocabulary.
        let mut by_stem: Vec<(&String, u32)> = c.stem_ids.iter().map(|(s, &i)| (s, i)).collect();
        by_stem.sort();
        let mut renumber = vec![0u32; by_stem.len()];
        for (new, (_, old)) in by_stem.iter().enumerate() {
            renumber[*old as usize] = new as u32;
        }
        let surface: BTreeMap<&String, u32> = c
            .surface
            .iter()
            .map(|(w, &id)| (w, renumber[id as usize]))
            .collect();
        let surface = Words::write(surface.iter().map(|(w, &id)| (w.as_bytes(), id)));
        let words = Words::read(&surface).expect("a list just written");
        let stray = by_stem
            .iter()
            .enumerate()
            .filter(|&(i, (s, _))| {
                stem_through_words(|b| words.starting_with(b), s) != Some(i as u32)
            })
            .map(|(i, (s, _))| (s.as_bytes(), i as u32));
        let stray_stems = Words::write(stray);
        let function_stems = function_stems(
            &words,
            &Words::read(&stray_stems).expect("a list just written"),
        );
        let mut docs = Vec::with_capacity(by_stem.len());
        let mut postings = Vec::with_capacity(by_stem.len());
        let mut positions = Vec::with_capacity(by_stem.len());
        for (_, old) in &by_stem {
            let list = &c.lists[*old as usize];
            docs.push(list.len() as u32);
            let (mut stem, mut at) = (Vec::new(), Vec::new());
            encode_postings(list, &mut stem, &mut at);
            postings.push(stem);
            positions.push(at);
        }
        let postings = Block::write(&postings, Some(&docs));
        IndexData {
            stray_stems: stray_stems.into(),
            stem_count: by_stem.len() as u32,
            surface: surface.into(),
            word_packs: Vec::new(),
            function_stems,
            postings: postings.into(),
            doc_len: c.doc_len,
            packs: Vec::new(),
            position_packs: Vec::new(),
            positions: Block::write(&positions, None).into(),
            prefixes: Vec::new(),
        }
    }

    /// Appends a list for each prefix of [`PREFIX_LIST_CHARS`] whose
    /// words' postings number at least `from`, scored as the engine scores
    /// a prefix match ([`crate::search::engine`]), so that reading the
    /// list answers exactly as reading the words' postings.
    fn add_prefix_lists(&mut self, from: usize) {
        assert!(self.packs.is_empty() && self.prefixes.is_empty());
        let docs = self.doc_len.len();
        // Opened where it lies (the postings are not copied), and given
        // back after.
        let Some(index) = Index::open(std::mem::take(self), docs) else {
            unreachable!("a built index opens");
        };
        let mut candidates: Vec<String> = Vec::new();
        for (word, _) in index.surface.iter() {
            // Where each of its first characters ends.
            let ends: Vec<usize> = word
                .char_indices()
                .map(|(i, c)| i + c.len_utf8())
                .take(*PREFIX_LIST_CHARS.end())
                .collect();
            for n in PREFIX_LIST_CHARS {
                if let Some(&end) = ends.get(n - 1) {
                    candidates.push(word[..end].to_string());
                }
            }
        }
        candidates.sort_unstable();
        candidates.dedup();
        let mut lists = Vec::new();
        for prefix in candidates {
            let stems = index.prefix_stems(&prefix);
            let read: usize = stems.iter().map(|&s| index.df(s) as usize).sum();
            if read < from {
                continue;
            }
            let list = crate::search::engine::prefix_list(&index, &stems);
            let (mut bytes, mut prev) = (Vec::new(), 0);
            for &(doc, score) in &list {
                put(&mut bytes, doc - prev);
                prev = doc;
                bytes.push(prefix_score::code(score));
            }
            lists.push((prefix, list.len() as u32, bytes));
        }
        let stem_count = index.stem_count() as usize;
        *self = index.into_data().expect("a built index is whole");
        if lists.is_empty() {
            return;
        }
        let whole = Block::open(std::mem::take(&mut self.postings), stem_count, true)
            .expect("a built index's postings");
        let mut ids: Vec<&[u8]> = (0..stem_count).map(|i| whole.of(i)).collect();
        let mut docs: Vec<u32> = (0..stem_count).map(|i| whole.docs(i)).collect();
        for (prefix, count, bytes) in &lists {
            ids.push(bytes);
            docs.push(*count);
            self.prefixes.push(prefix.clone());
        }
        self.postings = Block::write(&ids, Some(&docs)).into();
    }

    /// How many stems and prefix lists the index has.
    fn ids(&self) -> usize {
        self.stem_count as usize + self.prefixes.len()
    }
}

impl IndexData {
    /// The index with its postings cut into packs of at least `pack_bytes`
    /// (at most one stem's past that), by stem: what the build ships, so
    /// that the page fetches only the packs a query's words are in.
    pub fn in_packs(&self, pack_bytes: usize) -> Packed {
        self.in_packs_with(pack_bytes, WORD_PACK_BYTES)
    }

    /// [`IndexData::in_packs`], the word list in packs of about
    /// `word_pack_bytes`.
    pub fn in_packs_with(&self, pack_bytes: usize, word_pack_bytes: usize) -> Packed {
        assert!(self.packs.is_empty(), "the postings are whole");
        let n = self.ids();
        let postings =
            Block::open(self.postings.clone(), n, true).expect("a built index's postings");
        let positions =
            Block::open(self.positions.clone(), n, false).expect("a built index's positions");
        let (mut refs, mut position_refs) = (Vec::new(), Vec::new());
        let (mut packs, mut position_packs) = (Vec::new(), Vec::new());
        let mut first = 0;
        while first < n {
            let (mut end, mut size) = (first + 1, postings.of(first).len());
            while end < n && size < pack_bytes {
                size += postings.of(end).len();
                end += 1;
            }
            let bytes = postings.cut(first..end, true);
            refs.push(PackRef {
                first_stem: first as u32,
                hash: crate::model::content_hash(&bytes),
                len: bytes.len() as u32,
            });
            packs.push(bytes);
            let bytes = positions.cut(first..end, false);
            position_refs.push(PositionsRef {
                hash: crate::model::content_hash(&bytes),
                len: bytes.len() as u32,
            });
            position_packs.push(bytes);
            first = end;
        }
        packs.extend(position_packs);
        let (word_packs, words) = self.words_in_packs(word_pack_bytes);
        packs.extend(words);
        Packed {
            head: IndexData {
                postings: Bytes::Owned(Vec::new()),
                positions: Bytes::Owned(Vec::new()),
                surface: Bytes::Owned(Vec::new()),
                packs: refs,
                position_packs: position_refs,
                word_packs,
                ..self.clone()
            },
            packs,
        }
    }

    /// The word list cut into packs of about `pack_bytes`
    /// ([`cut_points`]): their table and their bytes.
    fn words_in_packs(&self, pack_bytes: usize) -> (Vec<WordPackRef>, Vec<Vec<u8>>) {
        let whole = Words::read(&self.surface).expect("a built index's words");
        let stray = Words::read(&self.stray_stems).expect("a built index's stray stems");
        let words: Vec<(&str, u32)> = whole.iter().collect();
        let stray: Vec<(&str, u32)> = stray.iter().collect();
        let mut cuts = cut_points(&words, &stray, pack_bytes);
        cuts.push(words.len());
        cuts.windows(2)
            .map(|w| {
                let pack = words[w[0]..w[1]].iter().map(|&(w, id)| (w.as_bytes(), id));
                let bytes = Words::write(pack);
                let first = if w[0] == 0 { "" } else { words[w[0]].0 };
                let r = WordPackRef {
                    first: first.to_string(),
                    hash: crate::model::content_hash(&bytes),
                    len: bytes.len() as u32,
                };
                (r, bytes)
            })
            .unzip()
    }

    /// The files of the packs, each named for its content
    /// ([`pack_file_name`], [`words_file_name`]): the postings' in order,
    /// then the positions', then the words'.
    pub fn pack_files(&self) -> Vec<String> {
        let postings = self.packs.iter().map(|r| pack_file_name(r.hash));
        let positions = self.position_packs.iter().map(|r| pack_file_name(r.hash));
        let words = self.word_packs.iter().map(|r| words_file_name(r.hash));
        postings.chain(positions).chain(words).collect()
    }

    /// The whole index again from its head and its packs, given by their
    /// files ([`IndexData::pack_files`]), each checked against its hash
    /// (the single-file build, which fetches nothing).
    pub fn joined(
        head: IndexData,
        mut pack: impl FnMut(&str) -> Vec<u8>,
    ) -> Result<IndexData, crate::model::DecodeError> {
        let wrong = || crate::model::DecodeError::Corrupt(crate::model::Corrupt::PackMismatch);
        let files = head.pack_files();
        let docs = head.doc_len.len();
        let index = Index::open(head, docs).ok_or_else(wrong)?;
        for (k, file) in (0..).zip(&files) {
            index.add_pack(k, pack(file).into())?;
        }
        index.into_data().ok_or_else(wrong)
    }
}

/// The stems the function words ([`crate::search::query::FUNCTION_WORDS`])
/// are indexed under, as the search would find them, sorted.
fn function_stems(words: &Words, stray: &Words) -> Vec<u32> {
    let stem_id = |stem: &str| {
        stray
            .get(stem)
            .or_else(|| stem_through_words(|b| words.starting_with(b), stem))
    };
    let mut stems: Vec<u32> = crate::search::query::FUNCTION_WORDS
        .iter()
        .flat_map(|w| stem_id(&text::stem(w)).into_iter().chain(words.get(w)))
        .collect();
    stems.sort_unstable();
    stems.dedup();
    stems
}

/// A pack of an index in packs ([`Index::pack_count`]): of postings, of
/// the positions of a pack of postings, or of the word list.
enum Pack {
    Postings(usize),
    Positions(usize),
    Words(usize),
}

/// At most this many words are read to find a stem through its words
/// ([`stem_through_words`]); a stem found past them is stray.
const WORDS_READ_FOR_A_STEM: usize = 256;

/// The id of `stem` through the words that begin as it does, less its
/// last letter when it has four or more (`studi` is the stem of `study`):
/// the first of them (in sorted order, among the first
/// [`WORDS_READ_FOR_A_STEM`]) that stems to it gives its id. The build
/// keeps a map of the stems this does not find
/// ([`IndexData::stray_stems`]), so that with it every stem is found.
fn stem_through_words<'a, I: Iterator<Item = (&'a str, u32)>>(
    starting_with: impl FnOnce(&'a str) -> I,
    stem: &'a str,
) -> Option<u32> {
    let last = stem
        .char_indices()
        .nth(3)
        .and_then(|_| stem.char_indices().last());
    let begins = last.map_or(stem, |(at, _)| &stem[..at]);
    starting_with(begins)
        .take(WORDS_READ_FOR_A_STEM)
        .find(|(w, _)| text::stem(w) == *stem)
        .map(|(_, id)| id)
}

/// The index, opened for searching.
pub struct Index {
    /// The stems no word leads to ([`IndexData::stray_stems`]).
    stray_stems: Words,
    /// Folded surface words to their stem ids, whole or in packs.
    surface: Surface,
    /// The two lists as shipped (the build's, to add prefix lists; the
    /// second empty when the words come in packs).
    shipped: [Bytes; 2],
    /// The word list's packs ([`IndexData::word_packs`]); empty when whole.
    word_packs: Vec<WordPackRef>,
    /// [`IndexData::function_stems`].
    function_stems: Vec<u32>,
    /// The packs' table ([`IndexData::packs`]); empty for whole postings.
    packs: Vec<PackRef>,
    /// The packs of positions, one per pack of postings
    /// ([`IndexData::position_packs`]).
    position_packs: Vec<PositionsRef>,
    /// The postings: one block per pack, once added ([`Index::add_pack`]),
    /// or one for whole postings.
    postings: Vec<OnceLock<Block>>,
    /// The positions: one block per pack of postings, once added (numbered
    /// after the postings' packs), or one for whole postings.
    positions: Vec<OnceLock<Block>>,
    /// The packs whose postings were asked for before they were added
    /// ([`Index::take_missing`]).
    missing: Mutex<Vec<u32>>,
    /// Tokens per document per field.
    pub doc_len: Vec<[u32; N_FIELDS]>,
    /// The average of `doc_len`, per field (BM25's length normalisation).
    pub avg_len: [f32; N_FIELDS],
    /// How many stems there are: ids past them are prefix lists.
    stem_count: u32,
    /// The prefixes with lists of their own ([`IndexData::prefixes`]).
    prefixes: Vec<String>,
}

impl Index {
    /// Opens shipped index data; `None` when it is inconsistent (a corrupt
    /// or mismatched corpus).
    pub fn open(data: IndexData, docs: usize) -> Option<Index> {
        let stray_stems = Words::read(&data.stray_stems)?;
        let whole = Words::read(&data.surface)?;
        let stem_count = data.stem_count as usize;
        // Ids are u32, stems' and prefix lists' together; a word names a
        // stem, never a prefix list.
        let n = stem_count.checked_add(data.prefixes.len())?;
        let stems_named = |ids: &[u32]| ids.iter().all(|&id| (id as usize) < stem_count);
        let named = stems_named(&whole.ids) && stems_named(&stray_stems.ids);
        if u32::try_from(n).is_err() || !named || !stems_named(&data.function_stems) {
            return None;
        }
        let surface = match data.word_packs.is_empty() {
            true => Surface::whole(whole),
            false if whole.len() == 0 => Surface::in_packs(&data.word_packs)?,
            false => return None,
        };
        let (postings, positions) = if data.packs.is_empty() && data.position_packs.is_empty() {
            let postings = Block::open(data.postings, n, true)?;
            let positions = Block::open(data.positions, n, false)?;
            (
                vec![OnceLock::from(postings)],
                vec![OnceLock::from(positions)],
            )
        } else {
            let fits = data.postings.is_empty()
                && data.positions.is_empty()
                && data.position_packs.len() == data.packs.len()
                && data.packs.first().is_some_and(|p| p.first_stem == 0)
                && data
                    .packs
                    .windows(2)
                    .all(|w| w[0].first_stem < w[1].first_stem)
                && data
                    .packs
                    .last()
                    .is_some_and(|p| (p.first_stem as usize) < n);
            if !fits {
                return None;
            }
            let waiting = || data.packs.iter().map(|_| OnceLock::new()).collect();
            (waiting(), waiting())
        };
        let consistent =
            data.doc_len.len() == docs && data.prefixes.windows(2).all(|w| w[0] < w[1]);
        if !consistent {
            return None;
        }
        let count = docs.max(1) as f32;
        let avg_len: [f32; N_FIELDS] =
            std::array::from_fn(|f| data.doc_len.iter().map(|l| l[f] as f32).sum::<f32>() / count);
        Some(Index {
            stray_stems,
            surface,
            shipped: [data.stray_stems, data.surface],
            word_packs: data.word_packs,
            function_stems: data.function_stems,
            packs: data.packs,
            position_packs: data.position_packs,
            postings,
            positions,
            missing: Mutex::new(Vec::new()),
            doc_len: data.doc_len,
            avg_len,
            stem_count: stem_count as u32,
            prefixes: data.prefixes,
        })
    }

    /// The data it was opened from, whole: its postings and positions
    /// as they came, or joined from its packs (`None` while one is not
    /// in). Read through the search's own accessors, so the joined index
    /// is the build's, byte for byte (positions for stems only: a prefix
    /// list has none).
    fn into_data(self) -> Option<IndexData> {
        let (postings, positions) = if self.packs.is_empty() {
            let whole = |blocks: Vec<OnceLock<Block>>| {
                let block = blocks.into_iter().next().and_then(OnceLock::into_inner);
                block.map_or(Bytes::Owned(Vec::new()), |b| b.bytes)
            };
            (whole(self.postings), whole(self.positions))
        } else {
            let ids = 0..self.ids() as u32;
            let found = |blocks, id| match self.block_of(blocks, id) {
                Ok(Some((block, i))) => Some((block.of(i), block.docs(i))),
                _ => None,
            };
            let (bytes, docs): (Vec<&[u8]>, Vec<u32>) = ids
                .clone()
                .map(|id| found(&self.postings, id))
                .collect::<Option<Vec<_>>>()?
                .into_iter()
                .unzip();
            let positions = (0..self.stem_count)
                .map(|id| found(&self.positions, id).map(|(b, _)| b))
                .collect::<Option<Vec<_>>>()?;
            let postings = Block::write(&bytes, Some(&docs)).into();
            (postings, Block::write(&positions, None).into())
        };
        let [stray_stems, surface] = self.shipped;
        let surface = match self.word_packs.is_empty() {
            true => surface,
            false => self.surface.joined()?.into(),
        };
        Some(IndexData {
            stray_stems,
            stem_count: self.stem_count,
            surface,
            word_packs: Vec::new(),
            function_stems: self.function_stems,
            postings,
            positions,
            doc_len: self.doc_len,
            packs: Vec::new(),
            position_packs: Vec::new(),
            prefixes: self.prefixes,
        })
    }

    /// How many stems and prefix lists it has.
    fn ids(&self) -> usize {
        self.stem_count as usize + self.prefixes.len()
    }

    /// The size of every stem's postings and positions together, in packs
    /// or not.
    pub fn postings_bytes(&self) -> usize {
        if self.packs.is_empty() {
            let blocks = self.postings.iter().chain(&self.positions);
            return blocks
                .filter_map(OnceLock::get)
                .map(|b| b.bytes.len())
                .sum();
        }
        let postings = self.packs.iter().map(|r| r.len as usize);
        postings
            .chain(self.position_packs.iter().map(|r| r.len as usize))
            .sum()
    }

    /// How many packs the postings, their positions and the word list
    /// come in (0: they are whole): the postings' packs first, then the
    /// positions' in the same order, then the words'.
    pub fn pack_count(&self) -> usize {
        self.packs.len() + self.position_packs.len() + self.word_packs.len()
    }

    /// What pack `k` is.
    fn pack(&self, k: u32) -> Option<Pack> {
        let k = k as usize;
        let positions = self.packs.len();
        let words = positions + self.position_packs.len();
        match k {
            _ if k < positions => Some(Pack::Postings(k)),
            _ if k < words => Some(Pack::Positions(k - positions)),
            _ if k - words < self.word_packs.len() => Some(Pack::Words(k - words)),
            _ => None,
        }
    }

    /// The number of word pack `i` among all packs.
    fn words_pack_number(&self, i: usize) -> usize {
        self.packs.len() + self.position_packs.len() + i
    }

    /// The stems pack `i` of the postings holds (and its positions).
    fn pack_stems(&self, i: usize) -> std::ops::Range<usize> {
        let first = |k: usize| {
            self.packs
                .get(k)
                .map_or(self.ids(), |p| p.first_stem as usize)
        };
        first(i)..first(i + 1)
    }

    /// The file of pack `k`, named for its content.
    pub fn pack_file(&self, k: u32) -> Option<String> {
        Some(match self.pack(k)? {
            Pack::Postings(i) => pack_file_name(self.packs[i].hash),
            Pack::Positions(i) => pack_file_name(self.position_packs[i].hash),
            Pack::Words(i) => words_file_name(self.word_packs[i].hash),
        })
    }

    /// Whether pack `k` is one of the word list's (every query reads
    /// one: they come first).
    pub fn is_words_pack(&self, k: u32) -> bool {
        matches!(self.pack(k), Some(Pack::Words(_)))
    }

    /// Whether the whole word list is in (a card's words are then all
    /// known, and may be kept for highlighting).
    pub fn words_all_in(&self) -> bool {
        self.surface.all_in()
    }

    /// Whether pack `k` holds postings (not positions, which only a
    /// quoted phrase reads).
    pub fn is_postings_pack(&self, k: u32) -> bool {
        matches!(self.pack(k), Some(Pack::Postings(_)))
    }

    /// Whether pack `k` has been added.
    pub fn has_pack(&self, k: u32) -> bool {
        match self.pack(k) {
            Some(Pack::Postings(i)) => self.postings[i].get().is_some(),
            Some(Pack::Positions(i)) => self.positions[i].get().is_some(),
            Some(Pack::Words(i)) => self.surface.has(i),
            None => false,
        }
    }

    /// Adds pack `k` of the postings or their positions, refused unless
    /// its bytes are the ones the head names (a pack of another build, or
    /// damaged).
    pub fn add_pack(&self, k: u32, bytes: Bytes) -> Result<(), crate::model::DecodeError> {
        let wrong = crate::model::DecodeError::Corrupt(crate::model::Corrupt::PackMismatch);
        let (blocks, i, hash, counted) = match self.pack(k).ok_or(wrong.clone())? {
            Pack::Postings(i) => (&self.postings, i, self.packs[i].hash, true),
            Pack::Positions(i) => (&self.positions, i, self.position_packs[i].hash, false),
            Pack::Words(i) => {
                crate::model::check_named(self.word_packs[i].hash, &bytes)?;
                let words = Words::read(&bytes).ok_or(wrong.clone())?;
                return self.surface.add(i, words, self.stem_count).ok_or(wrong);
            }
        };
        crate::model::check_named(hash, &bytes)?;
        if bytes.len() != self.pack_len(k) {
            return Err(wrong);
        }
        let block = Block::open(bytes, self.pack_stems(i).len(), counted).ok_or(wrong)?;
        let _ = blocks[i].set(block);
        Ok(())
    }

    /// The byte length pack `k` has (0 for a pack the index has not).
    pub fn pack_len(&self, k: u32) -> usize {
        match self.pack(k) {
            Some(Pack::Postings(i)) => self.packs[i].len as usize,
            Some(Pack::Positions(i)) => self.position_packs[i].len as usize,
            Some(Pack::Words(i)) => self.word_packs[i].len as usize,
            None => 0,
        }
    }

    /// The packs asked for since the last call and not added, sorted:
    /// what a search read as empty, and must fetch before it is right.
    pub fn take_missing(&self) -> Vec<u32> {
        let mut missing =
            std::mem::take(&mut *self.missing.lock().unwrap_or_else(|e| e.into_inner()));
        missing.sort_unstable();
        missing.dedup();
        missing
    }

    /// What `read` returns, and whether it asked for postings whose pack
    /// is not in (then its answer is short of them).
    pub(crate) fn missed_while<T>(&self, read: impl FnOnce() -> T) -> (T, bool) {
        let misses = || self.missing.lock().unwrap_or_else(|e| e.into_inner()).len();
        let before = misses();
        let value = read();
        (value, misses() != before)
    }

    /// The block of `blocks` (the postings' or the positions') that holds
    /// `stem`, and the stem's place in it; `Err` with the block's pack
    /// while it is not in.
    fn block_of<'a>(
        &self,
        blocks: &'a [OnceLock<Block>],
        stem: u32,
    ) -> Result<Option<(&'a Block, usize)>, usize> {
        let stem = stem as usize;
        if stem >= self.ids() {
            return Ok(None);
        }
        if self.packs.is_empty() {
            return Ok(blocks.first().and_then(OnceLock::get).map(|b| (b, stem)));
        }
        let k = self
            .packs
            .partition_point(|p| p.first_stem as usize <= stem)
            .saturating_sub(1);
        match blocks[k].get() {
            Some(block) => Ok(Some((block, stem - self.pack_stems(k).start))),
            None => Err(k),
        }
    }

    /// Notes pack `k` as missing.
    fn miss(&self, k: usize) {
        let mut missing = self.missing.lock().unwrap_or_else(|e| e.into_inner());
        missing.push(k as u32);
    }

    /// A stem's postings bytes: from the whole postings, or from its pack
    /// (empty, and the pack noted missing, while the pack is not in).
    fn stem_bytes(&self, stem: u32) -> &[u8] {
        match self.block_of(&self.postings, stem) {
            Ok(found) => found.map_or(&[], |(block, i)| block.of(i)),
            Err(k) => {
                self.miss(k);
                &[]
            }
        }
    }

    /// A stem's positions' bytes: from the whole block, or from its pack
    /// (`None`, and the pack noted missing, while the pack is not in).
    fn stem_positions(&self, stem: u32) -> Option<&[u8]> {
        match self.block_of(&self.positions, stem) {
            Ok(found) => Some(found.map_or(&[], |(block, i)| block.of(i))),
            Err(k) => {
                self.miss(self.packs.len() + k);
                None
            }
        }
    }

    /// Notes word pack `i` as missing.
    fn miss_words(&self, i: usize) {
        self.miss(self.words_pack_number(i));
    }

    /// The id of a stem (`None` also while a pack of words it is found
    /// through is not in: the pack is noted missing).
    pub(crate) fn stem_id(&self, stem: &str) -> Option<u32> {
        self.stem_id_noting(stem, Some(&|i| self.miss_words(i)))
    }

    /// [`Index::stem_id`], telling `miss` the word packs it needs. The
    /// pack where the stem would lie among the words is needed too: the
    /// build keeps a stem's words there, and a card is highlighted from
    /// the packs in.
    fn stem_id_noting(&self, stem: &str, miss: Miss) -> Option<u32> {
        let found = match self.stray_stems.get(stem) {
            Some(id) => Some(id),
            None => stem_through_words(|b| self.surface.starting_with(b, miss), stem),
        };
        let placed = self.surface.has_pack_of(stem, miss);
        found.filter(|&id| id < self.stem_count && placed)
    }

    /// Every folded surface word, in byte order, with the stem id it was
    /// indexed under (for the build: the words that explain similar papers).
    #[cfg(feature = "compile")]
    pub(crate) fn surface_words(&self) -> impl Iterator<Item = (&str, u32)> + '_ {
        self.surface.iter()
    }

    /// The stem id a folded word was indexed under (`None` also while its
    /// pack of words is not in: the pack is noted missing).
    pub(crate) fn surface_id(&self, folded: &str) -> Option<u32> {
        self.surface.get(folded, Some(&|i| self.miss_words(i)))
    }

    /// How many documents contain the stem (0 while its pack is not in:
    /// only a query reading its postings asks).
    pub fn df(&self, stem: u32) -> u32 {
        match self.block_of(&self.postings, stem) {
            Ok(Some((block, i))) => block.docs(i),
            _ => 0,
        }
    }

    /// [`Index::df`], `None` (and the pack noted missing) while the stem's
    /// pack of postings is not in.
    pub(crate) fn df_if_in(&self, stem: u32) -> Option<u32> {
        match self.block_of(&self.postings, stem) {
            Ok(found) => Some(found.map_or(0, |(block, i)| block.docs(i))),
            Err(k) => {
                self.miss(k);
                None
            }
        }
    }

    /// Whether the packs of words where `word` lies are in (a lookup of
    /// it has then said all it can).
    pub(crate) fn words_in_for(&self, word: &str) -> bool {
        self.surface.has_pack_of(word, None)
    }

    /// The stem's postings in document order, with positions when asked for.
    pub fn postings(&self, stem: u32, with_positions: bool) -> Vec<Posting> {
        let postings = self.postings_iter(stem, with_positions);
        // A posting takes four bytes at least, whatever the count says.
        let room = (self.df(stem) as usize).min(postings.bytes.len() / 4);
        let mut out = Vec::with_capacity(room);
        out.extend(postings);
        out
    }

    /// [`Index::postings`] one at a time, decoded as they are read: scoring
    /// a short prefix walks more than 100,000 postings and keeps none.
    pub(crate) fn postings_iter(&self, stem: u32, with_positions: bool) -> Postings<'_> {
        Postings {
            bytes: self.stem_bytes(stem),
            at: 0,
            last: None,
            docs: self.doc_len.len() as u32,
            positions: with_positions.then(|| self.stem_positions(stem)).flatten(),
            positions_at: 0,
        }
    }

    /// How many distinct stems the index holds (ids are `0..stem_count()`).
    pub fn stem_count(&self) -> u32 {
        self.stem_count
    }

    /// The id of `prefix`'s own list ([`IndexData::prefixes`]), if it has
    /// one.
    pub(crate) fn prefix_list_id(&self, prefix: &str) -> Option<u32> {
        let i = self
            .prefixes
            .binary_search_by(|p| p.as_str().cmp(prefix))
            .ok()?;
        Some(self.stem_count + i as u32)
    }

    /// A prefix list's documents with their scores, in document order
    /// (empty, and its pack noted missing, while the pack is not in).
    /// Bounds-checked as [`Postings`] are: the list ends at the first
    /// entry that is cut short, out of range or out of order.
    pub(crate) fn prefix_scores(&self, id: u32) -> impl Iterator<Item = (u32, f32)> + '_ {
        let bytes = if id >= self.stem_count {
            self.stem_bytes(id)
        } else {
            &[]
        };
        let docs = self.doc_len.len() as u32;
        let (mut at, mut last) = (0usize, None::<u32>);
        let entry = move || {
            let doc = last
                .unwrap_or(0)
                .checked_add(get_checked(bytes, &mut at)?)?;
            let score = prefix_score::value(*bytes.get(at)?);
            at += 1;
            if doc >= docs || last == Some(doc) {
                return None;
            }
            last = Some(doc);
            Some((doc, score))
        };
        // The first bad entry ends the list for good.
        std::iter::from_fn(entry).fuse()
    }

    /// Stems of the surface words starting with `prefix`.
    pub(crate) fn prefix_stems(&self, prefix: &str) -> Vec<u32> {
        let miss = |i| self.miss_words(i);
        let mut out: Vec<u32> = self
            .surface
            .starting_with(prefix, Some(&miss))
            .map(|(_, id)| id)
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Stems of the surface words within `distance` edits of `word` that
    /// share its first letter (a typo in the first letter is rare, and without
    /// this rule `unlearning` would reach every `learning`). Only words of a
    /// compatible length under that first letter are compared.
    pub(crate) fn fuzzy_stems(&self, word: &str, distance: u32) -> Vec<u32> {
        let Some(first) = word.chars().next() else {
            return Vec::new();
        };
        let len = word.chars().count();
        let d = distance as usize;
        let mut out = Vec::new();
        let mut first_buf = [0u8; 4];
        let first = first.encode_utf8(&mut first_buf);
        let miss = |i| self.miss_words(i);
        for (candidate, id) in self.surface.starting_with(first, Some(&miss)) {
            if candidate.chars().count().abs_diff(len) > d {
                continue;
            }
            if strsim::levenshtein(word, candidate) <= d {
                out.push(id);
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// A text's words as (stem id, byte range), `u32::MAX` for words the
    /// index does not know, or whose pack of words is not in (no query
    /// matched them: a stem's words lie in the pack where a query found
    /// it); for highlighting the cards on screen. Folded words' ids are
    /// looked up in `kept` first, and kept there while it has room
    /// ([`WordIds`]).
    pub(crate) fn spans(
        &self,
        text: &str,
        kept: &mut WordIds,
    ) -> Vec<(u32, std::ops::Range<usize>)> {
        text::words(text)
            .map(|(start, w)| {
                let folded = text::fold(w);
                let id = if text::is_plural_acronym(w) {
                    self.stem_id_noting(&text::stem_word(w, &folded), None)
                        .unwrap_or(u32::MAX)
                } else if let Some(&id) = kept.ids.get(folded.as_str()) {
                    id
                } else if self.surface.has_pack_of(&folded, None) {
                    let id = self.surface.get(&folded, None).unwrap_or(u32::MAX);
                    if kept.ids.len() < WordIds::ROOM {
                        kept.ids.insert(folded.into_boxed_str(), id);
                    }
                    id
                } else {
                    u32::MAX
                };
                (id, start..start + w.len())
            })
            .collect()
    }

    /// The stems the function words are indexed under, sorted
    /// ([`IndexData::function_stems`]).
    pub(crate) fn function_stems(&self) -> &[u32] {
        &self.function_stems
    }

    /// How many documents are indexed.
    pub(crate) fn doc_count(&self) -> usize {
        self.doc_len.len()
    }
}

/// Folded words' stem ids, kept for [`Index::spans`]: a paper's words are
/// split for highlighting each time a new card is written, and looking
/// each one up in the word map (an FST then) was 132 ms of the 305 it took for
/// every paper of a real list of 3,946 (natively), 187 ns a word; most
/// words are words every abstract has. Filled as words are met, up to
/// [`WordIds::ROOM`] (about 0.3 MB), then only read: the first papers
/// written bring the common words. This is the rule of
/// [`crate::search::kept::kept_or_made`] without making room, written out because
/// that helper takes its key by value: a word found here would cost an
/// allocation, where [`Index::spans`] reads it by `&str`.
#[derive(Debug, Default)]
pub struct WordIds {
    ids: HashMap<Box<str>, u32>,
}

impl WordIds {
    /// At most this many words are kept.
    pub const ROOM: usize = 8192;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip() {
        let mut out = Vec::new();
        for v in [0, 1, 127, 128, 300, 1 << 24, u32::MAX] {
            put(&mut out, v);
        }
        let mut at = 0;
        let back: Vec<u32> = (0..7).map(|_| get(&out, &mut at)).collect();
        assert_eq!(back, [0, 1, 127, 128, 300, 1 << 24, u32::MAX]);
        assert_eq!(at, out.len());
        let mut at = 0;
        assert_eq!(get_checked(&[0x80, 0x80], &mut at), None);
    }

    /// One stem over two papers, and a list for the prefix `ab` with the
    /// bytes given.
    fn index_with_prefix_list(list: Vec<u8>) -> Index {
        one_stem_index(Vec::new(), Vec::new(), Some(list))
    }

    #[test]
    fn a_prefix_list_reads_until_its_first_bad_entry() {
        let entry = |gap: u8, score: f32| vec![gap, prefix_score::code(score)];
        let read = |bytes: Vec<u8>| -> Vec<(u32, f32)> {
            let index = index_with_prefix_list(bytes);
            let id = index.prefix_list_id("ab").expect("listed");
            index.prefix_scores(id).collect()
        };
        let index = index_with_prefix_list(Vec::new());
        assert_eq!(index.prefix_list_id("ab"), Some(1));
        assert_eq!(index.prefix_list_id("a"), None);
        assert_eq!(index.stem_count(), 1);
        // A stem's id is not a list.
        assert_eq!(index.prefix_scores(0).count(), 0);
        let (a, b) = (prefix_score::as_listed(1.5), prefix_score::as_listed(2.5));
        let good = [entry(0, 1.5), entry(1, 2.5)].concat();
        assert_eq!(read(good.clone()), vec![(0, a), (1, b)]);
        // A score cut short, a paper past the last, a paper twice: the
        // list ends there.
        assert_eq!(read(good[..3].to_vec()), vec![(0, a)]);
        // Ended for good: the entries after a bad one are not read.
        let bad_first = index_with_prefix_list([entry(5, 1.5), entry(0, 2.5)].concat());
        let mut list = bad_first.prefix_scores(1);
        assert_eq!((list.next(), list.next()), (None, None));
        assert_eq!(read([entry(0, 1.5), entry(5, 2.5)].concat()), vec![(0, a)]);
        assert_eq!(read([entry(1, 1.5), entry(0, 2.5)].concat()), vec![(1, a)]);
    }

    #[test]
    fn a_prefix_score_keeps_its_order_within_a_sixteenth_of_an_octave() {
        let scores: Vec<f32> = (0..3600).map(|i| 0.004 * 1.003f32.powi(i)).collect();
        for pair in scores.windows(2) {
            let (a, b) = (
                prefix_score::as_listed(pair[0]),
                prefix_score::as_listed(pair[1]),
            );
            assert!(a <= b, "{pair:?} out of order as {a}, {b}");
        }
        for &s in &scores {
            let listed = prefix_score::as_listed(s);
            assert!((listed / s - 1.0).abs() < 0.045, "{s} listed as {listed}");
            // Rounding a rounded score changes nothing.
            assert_eq!(prefix_score::as_listed(listed), listed);
        }
        assert_eq!(prefix_score::code(0.0), 0);
        assert_eq!(prefix_score::code(f32::NAN), 0);
        assert_eq!(prefix_score::code(1e9), 255);
    }

    #[test]
    fn a_short_prefix_score_keeps_its_order_in_two_steps_an_octave() {
        let scores: Vec<f32> = (0..3600).map(|i| 0.004 * 1.003f32.powi(i)).collect();
        let short: Vec<f32> = scores
            .iter()
            .map(|&s| prefix_score::as_listed_short(s))
            .collect();
        assert!(short.windows(2).all(|p| p[0] <= p[1]));
        for (&s, &listed) in scores.iter().zip(&short) {
            assert!(
                listed / s > 0.75 && listed / s < 1.3,
                "{s} listed as {listed}"
            );
            assert_eq!(prefix_score::as_listed_short(listed), listed);
            // What a list ships is read back as itself.
            assert_eq!(prefix_score::value(prefix_score::code(listed)), listed);
        }
        // 0.004 · 1.003^3600 is about 2^15.6: about 31 steps, not 250.
        let mut steps = short.clone();
        steps.dedup();
        assert!((30..=33).contains(&steps.len()), "{} steps", steps.len());
    }

    /// One stem over two papers, with its postings and positions bytes
    /// replaced.
    fn index_with_postings(postings: Vec<u8>, positions: Vec<u8>) -> Index {
        one_stem_index(postings, positions, None)
    }

    /// One stem (`a`) over two papers with these postings and positions
    /// bytes, and a list for the prefix `ab` when `list` is given.
    fn one_stem_index(postings: Vec<u8>, positions: Vec<u8>, list: Option<Vec<u8>>) -> Index {
        let stems = Words::write([(&b"a"[..], 0)]);
        let mut ids: Vec<&[u8]> = vec![&postings];
        let mut prefixes = Vec::new();
        if let Some(list) = &list {
            ids.push(list);
            prefixes.push("ab".to_string());
        }
        let data = IndexData {
            stray_stems: stems.clone().into(),
            stem_count: 1,
            surface: stems.into(),
            postings: Block::write(&ids, Some(&vec![2; ids.len()])).into(),
            doc_len: vec![[1, 1, 0]; 2],
            packs: Vec::new(),
            position_packs: Vec::new(),
            positions: Block::write(&[&positions], None).into(),
            prefixes,
            ..IndexData::default()
        };
        Index::open(data, 2).expect("consistent")
    }

    #[test]
    fn words_are_looked_up_through_the_kept_ids_with_the_same_answers() {
        let map = |pairs: &[(&str, u32)]| -> Bytes {
            Words::write(pairs.iter().map(|&(w, id)| (w.as_bytes(), id))).into()
        };
        let data = IndexData {
            // `learn` and `model` are found through their words; `llm`
            // (of `LLMs`) is not.
            stray_stems: map(&[("llm", 7)]),
            stem_count: 8,
            surface: map(&[("learning", 3), ("model", 5), ("models", 5)]),
            postings: Vec::new().into(),
            doc_len: vec![[1, 1, 0]],
            packs: Vec::new(),
            position_packs: Vec::new(),
            positions: Vec::new().into(),
            prefixes: Vec::new(),
            ..IndexData::default()
        };
        let index = Index::open(data, 1).expect("consistent");
        let text = "Learning models: LLMs model learning zebras";
        let ids = |kept: &mut WordIds| -> Vec<u32> {
            index
                .spans(text, kept)
                .into_iter()
                .map(|(id, _)| id)
                .collect()
        };
        let expected = [3, 5, 7, 5, 3, u32::MAX];
        // Met for the first time, then from the kept ids.
        let mut kept = WordIds::default();
        assert_eq!(ids(&mut kept), expected);
        assert_eq!(kept.ids.len(), 4, "{kept:?}"); // learning, models, model, zebras
        assert_eq!(ids(&mut kept), expected);
        // Full: the words not kept are still looked up, and not kept.
        let mut full = WordIds::default();
        for i in 0..WordIds::ROOM {
            full.ids.insert(format!("w{i}").into_boxed_str(), 0);
        }
        assert_eq!(ids(&mut full), expected);
        assert_eq!(full.ids.len(), WordIds::ROOM);
        // Byte ranges are the raw words'.
        let spans = index.spans(text, &mut kept);
        assert_eq!(&text[spans[2].1.clone()], "LLMs");
    }

    /// Every stem of the real list is found, by the id the build gave it,
    /// without a map of all stems: through its words, or the few stray
    /// stems' map; a word that is no stem finds nothing.
    #[test]
    fn every_stem_is_found_through_its_words_or_the_stray_map() {
        let papers = &crate::model::seeds().papers;
        let c = Collected::of(papers);
        let mut stems: Vec<&String> = c.stem_ids.keys().collect();
        stems.sort();
        let data = IndexData::build(papers);
        let strays = Words::read(&data.stray_stems).unwrap().len();
        let index = Index::open(data, papers.len()).unwrap();
        for (id, stem) in stems.iter().enumerate() {
            assert_eq!(index.stem_id(stem), Some(id as u32), "{stem}");
        }
        assert!(
            stems.len() > 1_000 && strays * 100 < stems.len(),
            "{strays} of {}",
            stems.len()
        );
        for not_a_stem in ["zzzq", "learnin", "", "transformerz"] {
            assert_eq!(index.stem_id(not_a_stem), None, "{not_a_stem}");
        }
    }

    /// The words travel as a list and come back in order with their ids;
    /// a list cut short, out of order, with a word twice, or with more
    /// bytes after it is refused; a prefix's words are a range.
    #[test]
    fn words_travel_as_a_list_and_come_back_in_order() {
        let data = IndexData::build(&crate::model::seeds().papers);
        let words = Words::read(&data.surface).unwrap();
        assert!(words.len() > 1_000);
        let pairs: Vec<(&str, u32)> = words.iter().collect();
        assert!(pairs.windows(2).all(|w| w[0].0 < w[1].0));
        let again = Words::write(pairs.iter().map(|&(w, id)| (w.as_bytes(), id)));
        assert_eq!(again, &data.surface[..]);
        for (w, id) in pairs.iter().step_by(37) {
            assert_eq!(words.get(w), Some(*id), "{w}");
        }
        assert_eq!(words.get("zzzzq"), None);
        let learn: Vec<&str> = words.starting_with("learn").map(|(w, _)| w).collect();
        let expected: Vec<&str> = pairs
            .iter()
            .map(|p| p.0)
            .filter(|w| w.starts_with("learn"))
            .collect();
        assert!(learn.len() > 2 && learn == expected, "{learn:?}");
        let list = &data.surface[..];
        assert!(Words::read(&list[..list.len() - 1]).is_none());
        assert!(Words::read(&[list, &[0]].concat()).is_none());
        let two = Words::write([(&b"ab"[..], 1), (&b"ac"[..], 7)]);
        assert_eq!(two, [2, 0, 2, b'a', b'b', 1, 1, b'c', 2, 12]);
        // `ac` before `ab`, and `ab` twice.
        assert!(Words::read(&[2, 0, 2, b'a', b'c', 1, 1, b'b', 2, 12]).is_none());
        assert!(Words::read(&[2, 0, 2, b'a', b'b', 2, 0, 2, 12]).is_none());
        // Sharing more than the word before has.
        assert!(Words::read(&[2, 0, 2, b'a', b'b', 3, 1, b'c', 2, 12]).is_none());
        // An id below zero; more words than bytes.
        assert!(Words::read(&[1, 0, 1, b'a', 1]).is_none());
        assert!(Words::read(&[0xff, 0xff, 0x03, 0, 1, b'a', 2]).is_none());
        // Each word sharing all of the one before and adding a byte: a
        // few bytes a word that would open to gigabytes are refused.
        let mut growing = vec![0xc0, 0x84, 0x3d]; // a million words
        growing.extend([0, 0x80, 0x20]);
        growing.extend(std::iter::repeat_n(b'a', 4096));
        for i in 1..1_000_000u32 {
            put(&mut growing, 4095 + i);
            growing.extend([1, b'a']);
        }
        assert!(Words::read(&growing).is_none());
        // A word naming a prefix list's id instead of a stem's.
        let mut data = IndexData::build(&crate::model::seeds().papers);
        data.surface = Words::write([(&b"zzz"[..], data.stem_count)]).into();
        assert!(Index::open(data, crate::model::seeds().papers.len()).is_none());
    }

    /// A block of postings gives each stem's length and number of
    /// documents; one whose lengths reach past its bytes, or stop short of
    /// them, or that holds more stems than its range, is refused.
    #[test]
    fn blocks_are_refused_unless_their_lengths_are_their_bytes() {
        let bytes = Block::write(&[&b"ab"[..], b"", b"cde"], Some(&[2, 0, 3]));
        let block = Block::open(bytes.clone().into(), 3, true).unwrap();
        assert_eq!(
            (block.of(0), block.of(1), block.of(2), block.of(3)),
            (&b"ab"[..], &b""[..], &b"cde"[..], &b""[..])
        );
        assert_eq!((block.docs(0), block.docs(2), block.docs(3)), (2, 3, 0));
        assert!(Block::open(bytes.clone().into(), 2, true).is_none());
        assert!(Block::open(bytes[..bytes.len() - 1].to_vec().into(), 3, true).is_none());
        assert!(Block::open([&bytes[..], b"f"].concat().into(), 3, true).is_none());
        let far = [&[1u8, 0xff, 0xff, 0xff, 0xff, 0x0f][..], b"x"].concat();
        assert!(Block::open(far.into(), 1, false).is_none());
        // A count of four billion stems in eight bytes asks for nothing.
        let many = vec![0xff, 0xff, 0xff, 0xff, 0x0f, 0, 0, 0];
        assert!(Block::open(many.into(), u32::MAX as usize, true).is_none());
    }

    /// A length comes back from its byte as itself up to 63, then within
    /// 1/32 below it; the bytes grow with the length; the lengths travel
    /// field by field, and bytes that are not whole papers' are refused.
    #[test]
    fn field_lengths_travel_as_a_byte_within_a_thirty_second() {
        let mut last = 0;
        for len in 0..10_000u32 {
            let (code, back) = (norms::code(len), norms::rounded(len));
            assert!(code >= last, "{len}");
            last = code;
            assert!(
                back <= len && (len < 64 && back == len || len > 4095 || (len - back) * 32 <= len),
                "{len} → {back}"
            );
            assert_eq!(norms::code(back), code, "{len}");
        }
        assert_eq!((norms::code(4095), norms::rounded(1_000_000)), (255, 4032));
        let data = IndexData::build(&crate::model::seeds().papers);
        let bytes = postcard::to_allocvec(&data).unwrap();
        let back: IndexData = postcard::from_bytes(&bytes).unwrap();
        assert_eq!(back.doc_len, data.doc_len);
        assert!(data
            .doc_len
            .iter()
            .any(|l| l[FIELD_TEXT] > 64 && l[FIELD_TEXT] % 2 == 0));
        let column = postcard::to_allocvec(&(3u8, [1u8, 2, 3])).unwrap();
        assert!(norms::deserialize(&mut postcard::Deserializer::from_bytes(&column)).is_ok());
        let part = postcard::to_allocvec(&(2u8, [1u8, 2])).unwrap();
        assert!(norms::deserialize(&mut postcard::Deserializer::from_bytes(&part)).is_err());
    }

    #[test]
    fn damaged_postings_end_the_list_instead_of_reaching_past_it() {
        let docs = |index: &Index, with_positions| -> Vec<u32> {
            let postings = index.postings(0, with_positions);
            postings.iter().map(|p| p.doc).collect()
        };
        // doc 0 (tf 1, 0, 0; position 0), then doc 0 + 1 = 1 (position 2).
        let good = index_with_postings(vec![0, 1, 0, 0, 1, 1, 0, 0], vec![0, 2]);
        assert_eq!(docs(&good, true), [0, 1]);
        let positions: Vec<Vec<u32>> = good
            .postings(0, true)
            .into_iter()
            .map(|p| p.positions)
            .collect();
        assert_eq!(positions, [vec![0], vec![2]]);
        // A document id past the last paper.
        let past = index_with_postings(vec![0, 1, 0, 0, 9, 1, 0, 0], vec![0, 2]);
        assert_eq!(docs(&past, true), [0]);
        // A varint cut short.
        let cut = index_with_postings(vec![0, 1, 0, 0x80], vec![0]);
        assert!(docs(&cut, true).is_empty());
        // More positions than their bytes: without them the postings are
        // read; with them, the list ends where they do.
        let many = index_with_postings(vec![0, 0xff, 0xff, 0x03, 0, 0, 1, 1, 0, 0], vec![0, 2]);
        assert_eq!(docs(&many, false), [0, 1]);
        assert!(docs(&many, true).is_empty());
        let short = index_with_postings(vec![0, 1, 0, 0, 1, 1, 0, 0], vec![0]);
        assert_eq!(docs(&short, true), [0]);
    }

    /// Positions travel apart from the postings, in a pack of their own
    /// per pack of postings; a phrase's reader waits for that pack, and a
    /// wrong pack is refused.
    #[test]
    fn positions_come_in_packs_of_their_own_and_back_whole() {
        let whole = IndexData::build(&crate::model::seeds().papers);
        let docs = whole.doc_len.len();
        let packed = whole.in_packs(4096);
        let (heads, packs) = (packed.head.packs.len(), packed.packs.len());
        let words = packed.head.word_packs.len();
        assert!(heads > 4 && words > 0);
        assert_eq!(packs, 2 * heads + words);
        let open = Index::open(whole.clone(), docs).unwrap();
        let parts = Index::open(packed.head.clone(), docs).unwrap();
        assert_eq!(parts.pack_count(), packs);
        let shipped: usize = packed.packs[..2 * heads].iter().map(Vec::len).sum();
        assert_eq!(parts.postings_bytes(), shipped);
        let stem = open.stem_id("learn").unwrap();
        // Its postings' pack, then its positions'.
        let k = (0..heads as u32)
            .find(|&k| parts.pack_stems(k as usize).contains(&(stem as usize)))
            .unwrap();
        parts
            .add_pack(k, packed.packs[k as usize].clone().into())
            .unwrap();
        let without = parts.postings(stem, false);
        assert_eq!(without.len(), open.df(stem) as usize);
        assert!(parts.take_missing().is_empty());
        // Asked for, the positions are missing: the postings come without.
        let waiting = parts.postings(stem, true);
        assert!(waiting.iter().all(|p| p.positions.is_empty()));
        let pos = k + heads as u32;
        assert_eq!(parts.take_missing(), [pos]);
        let other = packed.packs[pos as usize + 1].clone();
        assert!(parts.add_pack(pos, other.into()).is_err());
        assert!(parts
            .add_pack(pos, packed.packs[pos as usize].clone().into())
            .is_ok());
        assert!(parts.has_pack(pos));
        assert_eq!(parts.postings(stem, true), open.postings(stem, true));
        assert!(open
            .postings(stem, true)
            .iter()
            .all(|p| !p.positions.is_empty()));
        // Joined again, the index is the whole one, byte for byte.
        let files: HashMap<String, Vec<u8>> = packed
            .head
            .pack_files()
            .into_iter()
            .zip(packed.packs.clone())
            .collect();
        let joined = IndexData::joined(packed.head.clone(), |f| files[f].clone()).unwrap();
        assert_eq!(joined.to_frame(), whole.to_frame());
        // So too with prefix lists, which have postings and no positions.
        let listed = IndexData::build_with(&crate::model::seeds().papers, 20);
        assert!(!listed.prefixes.is_empty());
        let parts = listed.in_packs(4096);
        let files: HashMap<String, Vec<u8>> = parts
            .head
            .pack_files()
            .into_iter()
            .zip(parts.packs)
            .collect();
        let joined = IndexData::joined(parts.head, |f| files[f].clone()).unwrap();
        assert_eq!(joined.to_frame(), listed.to_frame());
        // A pack that is not the one named is refused.
        assert!(IndexData::joined(packed.head, |_| Vec::new()).is_err());
    }
}
