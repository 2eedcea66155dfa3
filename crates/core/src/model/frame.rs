//! The compiled corpus's binary format: a frame (magic, format version,
//! checksum, the pieces' lengths, the pieces) around postcard encodings of
//! the types in `corpus.rs`, written by the build-time compiler and decoded
//! by the app. Both directions are derived from the same types, so the
//! format is defined in exactly one place; decoding checks every id inside.

use std::borrow::Cow;

use crate::model::decode::PapersDecoder;
use crate::model::{Corpus, Facet, FacetKind, Paper};

/// File magic of a compiled corpus's first part: everything but the index.
pub const MAGIC: &[u8; 4] = b"PXC\x01";
/// File magic of its second part: the search index.
pub const INDEX_MAGIC: &[u8; 4] = b"PXI\x02";
/// Bumped whenever a type below changes shape; old blobs are rejected cleanly.
pub const FORMAT_VERSION: u16 = 21;

#[derive(Debug, Clone, PartialEq, Eq)]
/// Why bytes are not a corpus this version can read.
pub enum DecodeError {
    /// Not a compiled corpus (its magic is wrong).
    BadMagic,
    /// A corpus of another format version.
    Version {
        /// The version the bytes have.
        found: u16,
        /// The version this build reads ([`FORMAT_VERSION`]).
        expected: u16,
    },
    /// A corpus, but damaged: what is wrong.
    Corrupt(Corrupt),
}

/// What is wrong inside bytes that have the right magic and version (a
/// compiled corpus, its index, or the meaning file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Corrupt {
    /// The bytes end inside the frame or inside a piece.
    Truncated,
    /// The checksum does not match the bytes it covers.
    Checksum,
    /// Bytes follow the end of the part.
    TrailingBytes,
    /// A piece is not the postcard encoding it should be.
    Encoding(postcard::Error),
    /// A facet appears twice.
    FacetTwice(FacetKind),
    /// A paper points past what exists.
    OutOfRange {
        /// The paper's position.
        paper: usize,
        /// What points past the end: its list, a tag, a similar paper, a
        /// keyword or a run.
        what: &'static str,
    },
    /// The index is not of these papers (another number of them).
    IndexMismatch,
    /// A pack of postings is not the one the index names (another build's,
    /// or damaged).
    PackMismatch,
    /// The meaning file has vectors for another number of papers.
    MeaningMismatch {
        /// Papers in the meaning file.
        meaning: usize,
        /// Papers in the corpus.
        corpus: usize,
    },
    /// A part of the meaning file is wrong: its header, sizes, weights or
    /// vocabulary.
    Meaning(&'static str),
    /// A part of the distilled model (build time) is wrong: its header,
    /// tokens or vectors.
    StaticModel(&'static str),
}

impl std::fmt::Display for Corrupt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Corrupt::Truncated => write!(f, "truncated"),
            Corrupt::Checksum => write!(f, "checksum mismatch"),
            Corrupt::TrailingBytes => write!(f, "trailing bytes"),
            Corrupt::Encoding(e) => write!(f, "{e}"),
            Corrupt::FacetTwice(kind) => write!(f, "facet {} twice", kind.key()),
            Corrupt::OutOfRange { paper, what } => write!(f, "paper {paper}: {what} out of range"),
            Corrupt::IndexMismatch => write!(f, "index and papers disagree"),
            Corrupt::PackMismatch => write!(f, "a pack of postings is not this index's"),
            Corrupt::MeaningMismatch { meaning, corpus } => {
                write!(f, "meaning file has {meaning} papers, the corpus {corpus}")
            }
            Corrupt::Meaning(what) => write!(f, "meaning file: {what}"),
            Corrupt::StaticModel(what) => write!(f, "static model: {what}"),
        }
    }
}

impl From<Corrupt> for DecodeError {
    fn from(c: Corrupt) -> DecodeError {
        DecodeError::Corrupt(c)
    }
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DecodeError::BadMagic => write!(f, "not a compiled corpus (bad magic)"),
            DecodeError::Version { found, expected } => write!(
                f,
                "compiled corpus has format version {found}, this build reads {expected}"
            ),
            DecodeError::Corrupt(e) => write!(f, "compiled corpus is corrupt: {e}"),
        }
    }
}

impl std::error::Error for DecodeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DecodeError::Corrupt(Corrupt::Encoding(e)) => Some(e),
            _ => None,
        }
    }
}

/// A compiled corpus in its two parts, each a frame of its own (magic,
/// format version, an xxh3 checksum of the rest, the byte lengths of its
/// pieces as u32 little-endian, the pieces): the papers — everything the
/// first results need — and the search index, which the app fetches after
/// them. [`Corpus::to_bytes`] is the one followed by the other.
pub struct Parts {
    /// One piece: the corpus without its index (postcard).
    pub papers: Vec<u8>,
    /// Five pieces: the index's own fields (postcard), then its two word
    /// lists, its postings and their positions, the last two used where
    /// they lie.
    pub index: Vec<u8>,
}

pub(crate) fn frame(magic: &[u8; 4], pieces: &[&[u8]]) -> Vec<u8> {
    let mut rest = Vec::new();
    for p in pieces {
        let len = u32::try_from(p.len()).expect("a corpus piece under 4 GB");
        rest.extend_from_slice(&len.to_le_bytes());
    }
    for p in pieces {
        rest.extend_from_slice(p);
    }
    let mut out = magic.to_vec();
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&xxhash_rust::xxh3::xxh3_64(&rest).to_le_bytes());
    out.extend_from_slice(&rest);
    out
}

/// The `N` pieces of the frame at the start of `bytes`, and what follows
/// the frame. Every length is checked against what is there, and the
/// checksum before anything is read: the index's postings are used as
/// they lie.
pub(crate) fn unframe<'a, const N: usize>(
    magic: &[u8; 4],
    bytes: &'a [u8],
) -> Result<([&'a [u8]; N], &'a [u8]), DecodeError> {
    let rest = bytes.strip_prefix(magic).ok_or(DecodeError::BadMagic)?;
    let truncated = || DecodeError::Corrupt(Corrupt::Truncated);
    let (version, rest) = rest.split_at_checked(2).ok_or_else(truncated)?;
    let found = u16::from_le_bytes([version[0], version[1]]);
    if found != FORMAT_VERSION {
        return Err(DecodeError::Version {
            found,
            expected: FORMAT_VERSION,
        });
    }
    let (sum, mut rest) = rest.split_at_checked(8).ok_or_else(truncated)?;
    let sum = u64::from_le_bytes(sum.try_into().map_err(|_| truncated())?);
    let mut lens = [0usize; N];
    let mut framed = 0usize;
    for len in &mut lens {
        let (l, after) = rest.split_at_checked(4).ok_or_else(truncated)?;
        *len = u32::from_le_bytes([l[0], l[1], l[2], l[3]]) as usize;
        framed = framed.checked_add(*len).ok_or_else(truncated)?;
        rest = after;
    }
    let (body, after) = rest.split_at_checked(framed).ok_or_else(truncated)?;
    let checked = &bytes[magic.len() + 2 + 8..magic.len() + 2 + 8 + 4 * N + framed];
    if xxhash_rust::xxh3::xxh3_64(checked) != sum {
        return Err(DecodeError::Corrupt(Corrupt::Checksum));
    }
    let mut pieces = [&[][..]; N];
    let mut body = body;
    for (piece, len) in pieces.iter_mut().zip(lens) {
        let (p, after) = body.split_at(len);
        *piece = p;
        body = after;
    }
    Ok((pieces, after))
}

/// A part must be all there is of what was handed in.
pub(crate) fn nothing_after(rest: &[u8]) -> Result<(), DecodeError> {
    if rest.is_empty() {
        Ok(())
    } else {
        Err(DecodeError::Corrupt(Corrupt::TrailingBytes))
    }
}

/// The name of a file of the build named for its content:
/// `{kind}-{hash:016x}.bin`, the hash its bytes' ([`content_hash`]). Every
/// such file (postings, bodies, titles, the title order, tags, the map,
/// vectors, the corpus, the index, the meaning file) is named here.
pub fn file_name(kind: &str, hash: u64) -> String {
    format!("{kind}-{hash:016x}.bin")
}

/// The kind of a file named by [`file_name`] (`postings` of
/// `postings-<16 hex digits>.bin`); `None` for any other name.
pub fn kind_of_file(name: &str) -> Option<&str> {
    let (kind, hash) = name.strip_suffix(".bin")?.rsplit_once('-')?;
    is_name_hash(hash).then_some(kind)
}

/// Whether `hash` is a content hash as the build's file names write it:
/// 16 lowercase hex digits.
pub fn is_name_hash(hash: &str) -> bool {
    hash.len() == 16 && hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// The kinds of the build's files the service worker keeps when the page
/// first fetches them rather than at install (a small list's postings
/// and words are precached all the same:
/// `explorer_core::build::service_worker`).
pub const FETCHED_ON_FIRST_USE: [&str; 9] = [
    "meaning",
    "vectors",
    "postings",
    "words",
    "bodies",
    "titles",
    "title-order",
    "map",
    "tags",
];

/// The hash a file of the build is named for ([`file_name`]): xxh3-64.
pub fn content_hash(bytes: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(bytes)
}

/// The one check of a file the page fetched by its name: its bytes are
/// those the hash names (else it is another build's, or damaged).
pub fn check_named(hash: u64, bytes: &[u8]) -> Result<(), DecodeError> {
    if content_hash(bytes) != hash {
        return Err(DecodeError::Corrupt(Corrupt::PackMismatch));
    }
    Ok(())
}

/// Decodes a file of the build named by its hash (the map's or the tags'
/// file): its bytes are those the hash names, its frame
/// (`magic`, one piece) is whole with nothing after it, and the piece is
/// `T`'s encoding. What it holds is checked against the corpus by the
/// caller.
pub(crate) fn decode_named<T: serde::de::DeserializeOwned>(
    magic: &[u8; 4],
    hash: u64,
    bytes: &[u8],
) -> Result<T, DecodeError> {
    check_named(hash, bytes)?;
    let ([piece], rest) = unframe::<1>(magic, bytes)?;
    nothing_after(rest)?;
    postcard::from_bytes(piece).map_err(|e| DecodeError::Corrupt(Corrupt::Encoding(e)))
}

impl crate::model::index_data::IndexData {
    /// Decodes an index part ([`Parts::index`]) that lives as long as the
    /// program: its postings and positions are used where they lie.
    pub fn from_static(bytes: &'static [u8]) -> Result<Self, DecodeError> {
        let (data, rest) = Self::decode(bytes, Cow::Borrowed)?;
        nothing_after(rest)?;
        Ok(data)
    }

    /// Decodes an index part ([`Parts::index`], or the head of an index
    /// in packs), copying its sections.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, DecodeError> {
        let (data, rest) = Self::decode(bytes, |s| Cow::Owned(s.to_vec()))?;
        nothing_after(rest)?;
        Ok(data)
    }

    /// The index as one frame: its own fields (postcard), then its two
    /// word lists, its postings and their positions (both empty when they
    /// are in packs).
    pub fn to_frame(&self) -> Vec<u8> {
        let own = postcard::to_allocvec(self).expect("index serializes");
        let [stems, surface, postings, positions] = self.sections();
        frame(INDEX_MAGIC, &[&own, stems, surface, postings, positions])
    }

    fn decode<'a>(
        bytes: &'a [u8],
        keep: impl Fn(&'a [u8]) -> crate::model::index_data::Bytes,
    ) -> Result<(Self, &'a [u8]), DecodeError> {
        let (pieces, rest) = unframe::<5>(INDEX_MAGIC, bytes)?;
        let mut data: Self = postcard::from_bytes(pieces[0])
            .map_err(|e| DecodeError::Corrupt(Corrupt::Encoding(e)))?;
        for (section, piece) in data.sections_mut().into_iter().zip(&pieces[1..]) {
            *section = keep(piece);
        }
        Ok((data, rest))
    }
}

impl Corpus {
    /// The compiled corpus in its two parts.
    pub fn to_parts(&self) -> Parts {
        let mut head = Corpus {
            index: Default::default(),
            ..self.clone()
        };
        head.leave_out_tagged_authors();
        let papers = postcard::to_allocvec(&head).expect("corpus serializes");
        Parts {
            papers: frame(MAGIC, &[&papers]),
            index: self.index.to_frame(),
        }
    }

    /// The compiled corpus as one file: its papers part, then its index part.
    pub fn to_bytes(&self) -> Vec<u8> {
        let Parts { mut papers, index } = self.to_parts();
        papers.extend_from_slice(&index);
        papers
    }

    /// Decodes a compiled corpus (both parts), copying the index sections.
    pub fn from_bytes(bytes: &[u8]) -> Result<Corpus, DecodeError> {
        Corpus::decode(bytes, |s| Cow::Owned(s.to_vec()))
    }

    /// Decodes a compiled corpus (both parts) that lives as long as the
    /// program: the index sections are used where they lie.
    pub fn from_static(bytes: &'static [u8]) -> Result<Corpus, DecodeError> {
        Corpus::decode(bytes, Cow::Borrowed)
    }

    fn decode<'a>(
        bytes: &'a [u8],
        keep: impl Fn(&'a [u8]) -> crate::model::index_data::Bytes,
    ) -> Result<Corpus, DecodeError> {
        let (mut corpus, rest) = Corpus::decode_papers(bytes)?;
        let (index, rest) = crate::model::index_data::IndexData::decode(rest, keep)?;
        nothing_after(rest)?;
        if index.doc_len.len() != corpus.papers.len() {
            return Err(DecodeError::Corrupt(Corrupt::IndexMismatch));
        }
        corpus.index = index;
        Ok(corpus)
    }

    /// Decodes a papers part ([`Parts::papers`]) alone: the corpus with an
    /// empty index, for the first results while the index is on its way.
    /// Nothing of `bytes` is kept.
    pub fn from_papers_part(bytes: &[u8]) -> Result<Corpus, DecodeError> {
        let (corpus, rest) = Corpus::decode_papers(bytes)?;
        nothing_after(rest)?;
        Ok(corpus)
    }

    fn decode_papers(bytes: &[u8]) -> Result<(Corpus, &[u8]), DecodeError> {
        let mut decoder = PapersDecoder::default();
        let taken = decoder.push(bytes)?;
        Ok((decoder.finish()?, &bytes[taken..]))
    }

    /// Leaves out the authors of each paper whose authors are the values of
    /// its author tags, in order (the compiler tags each author by name):
    /// the names are in the author facet already, and at 100,000 papers
    /// sending them twice costs 1.3 MB brotli. Decoding puts them back
    /// ([`Corpus::put_back_tagged_authors`]).
    fn leave_out_tagged_authors(&mut self) {
        let Some(f) = self.facet_index(FacetKind::Author) else {
            return;
        };
        let facet = &self.facets[f];
        for p in &mut self.papers {
            if !p.authors.is_empty() && p.authors.iter().map(String::as_str).eq(tagged(facet, f, p))
            {
                p.authors.clear();
            }
        }
    }

    /// Gives each paper without authors the values of its author tags (the
    /// authors [`Corpus::leave_out_tagged_authors`] left out). Run after
    /// [`Corpus::check`]: every tag's value exists.
    pub(super) fn put_back_tagged_authors(&mut self) {
        let Some(f) = self.facet_index(FacetKind::Author) else {
            return;
        };
        let facet = &self.facets[f];
        for p in &mut self.papers {
            if p.authors.is_empty() {
                p.authors = tagged(facet, f, p).map(str::to_string).collect();
            }
        }
    }

    /// Every id inside the corpus points at something that exists: tags at
    /// facet values and reasons, similar papers at papers, terms at terms,
    /// runs inside their text on character boundaries. Decoding checks it,
    /// so that nothing later indexes out of range.
    pub(super) fn check(&self) -> Result<(), Corrupt> {
        for (i, f) in self.facets.iter().enumerate() {
            if self.facets[..i].iter().any(|g| g.kind == f.kind) {
                return Err(Corrupt::FacetTwice(f.kind));
            }
        }
        if let Some(r) = &self.tag_part {
            if r.totals.len() != self.facets.len()
                || r.totals
                    .iter()
                    .zip(&self.facets)
                    .any(|(t, f)| t.len() != f.values.len())
            {
                return Err(Corrupt::PackMismatch);
            }
        }
        let n = self.papers.len();
        // Packs of papers hold all the papers, at least one a pack.
        for packs in [self.body_packs, self.title_packs()] {
            let none = packs == crate::model::PaperPacks::default();
            if !none && (packs.papers as usize != n || packs.per_pack == 0 || n == 0) {
                return Err(Corrupt::PackMismatch);
            }
        }
        let terms = self.similar_terms.len();
        // With the bodies in packs, the reasons come with them (checked
        // there); the head's tags all have reason 0.
        let reasons = if self.body_packs.is_empty() {
            self.reasons.len()
        } else {
            1
        };
        for (d, p) in self.papers.iter().enumerate() {
            let bad = |what: &'static str| Err(Corrupt::OutOfRange { paper: d, what });
            if p.list as usize >= self.lists.len() {
                return bad("list");
            }
            for t in &p.tags {
                let values = self.facets.get(t.facet as usize).map(|f| f.values.len());
                if values.is_none_or(|v| (t.value as usize) >= v) || t.reason as usize >= reasons {
                    return bad("tag");
                }
            }
            if p.keywords.iter().any(|&k| k as usize >= terms) {
                return bad("keyword");
            }
            crate::model::BodyRef::from(p).check(d, n, terms)?;
        }
        Ok(())
    }
}

/// The values of paper `p`'s tags of facet `f` (`facet`), in order.
fn tagged<'a>(facet: &'a Facet, f: usize, p: &'a Paper) -> impl Iterator<Item = &'a str> {
    p.tags
        .iter()
        .filter(move |t| t.facet as usize == f)
        .map(move |t| {
            facet
                .values
                .get(t.value as usize)
                .map_or("", String::as_str)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{List, Run, RunKind, Similar, Tag};

    fn tiny() -> Corpus {
        Corpus {
            lists: vec![List {
                key: "a".into(),
                name: "A".into(),
                label: "A".into(),
            }],
            facets: vec![],
            reasons: vec![],
            similar_terms: vec![],
            body_packs: Default::default(),
            map_part: None,
            tag_part: None,
            titles: None,
            papers: vec![],
            index: Default::default(),
        }
    }

    #[test]
    fn round_trips_and_rejects_other_versions() {
        let c = tiny();
        let mut bytes = c.to_bytes();
        assert_eq!(Corpus::from_bytes(&bytes).unwrap(), c);
        bytes[4] = 99;
        assert!(matches!(
            Corpus::from_bytes(&bytes),
            Err(DecodeError::Version { found: 99, .. })
        ));
        assert_eq!(Corpus::from_bytes(b"nope"), Err(DecodeError::BadMagic));
        assert!(Corpus::from_bytes(&c.to_bytes()[..7]).is_err());
    }

    #[test]
    fn ids_out_of_range_are_decode_errors() {
        let mut c = tiny();
        c.index.doc_len = vec![[1, 1, 0]];
        c.papers.push(Paper {
            id: "p-1".into(),
            list: 0,
            line: 3,
            title: "T".into(),
            title_derived: true,
            authors: vec![],
            year: None,
            links: vec![],
            text: "é".into(),
            runs: vec![Run {
                end: 2,
                kind: RunKind::Text { style: 0 },
            }],
            tags: vec![],
            similar: vec![],
            keywords: vec![],
            map: [0, 0],
        });
        assert!(Corpus::from_bytes(&c.to_bytes()).is_ok());
        let corrupt = |f: &dyn Fn(&mut Corpus)| {
            let mut bad = c.clone();
            f(&mut bad);
            Corpus::from_bytes(&bad.to_bytes())
        };
        let is_corrupt = |r: Result<Corpus, DecodeError>| matches!(r, Err(DecodeError::Corrupt(_)));
        assert!(is_corrupt(corrupt(&|b| b.papers[0].list = 7)));
        assert!(is_corrupt(corrupt(&|b| b.papers[0].similar.push(
            Similar {
                doc: 9,
                terms: [Similar::NO_TERM; 3]
            }
        ))));
        assert!(is_corrupt(corrupt(&|b| b.papers[0].keywords.push(0))));
        assert!(is_corrupt(corrupt(&|b| b.papers[0].tags.push(Tag {
            facet: 0,
            value: 0,
            reason: 0
        }))));
        assert!(is_corrupt(corrupt(&|b| b.papers[0].runs[0].end = 1)));
        assert!(is_corrupt(corrupt(&|b| b.index.doc_len.clear())));
    }

    #[test]
    fn the_two_parts_decode_apart_and_together() {
        let mut c = tiny();
        c.index.stray_stems = vec![1, 2, 3].into();
        c.index.postings = vec![9; 40].into();
        let parts = c.to_parts();
        let mut whole = parts.papers.clone();
        whole.extend_from_slice(&parts.index);
        assert_eq!(whole, c.to_bytes());
        let papers = Corpus::from_papers_part(&parts.papers).unwrap();
        assert_eq!(papers.lists, c.lists);
        assert_eq!(papers.index, Default::default());
        let index: &'static [u8] = Box::leak(parts.index.into_boxed_slice());
        let data = crate::model::index_data::IndexData::from_static(index).unwrap();
        assert_eq!(data, c.index);
        assert!(matches!(data.postings, Cow::Borrowed(_)));
        // Each part is refused where the other is expected.
        assert_eq!(Corpus::from_papers_part(index), Err(DecodeError::BadMagic));
        assert!(Corpus::from_papers_part(&c.to_bytes()).is_err());
    }

    /// Handed over a byte at a time, in windows of any size, or at once,
    /// a papers part decodes to the same corpus; cut anywhere, or with a
    /// byte changed, it is an error; what follows the part is not taken.
    #[test]
    fn a_papers_part_decodes_alike_in_windows_of_any_size() {
        let mut c = tiny();
        c.reasons = vec!["a reason".into(); 3];
        c.papers = (0..40)
            .map(|i| {
                let text = "é".repeat(i);
                Paper {
                    id: format!("p{i}"),
                    list: 0,
                    line: i as u32,
                    title: format!("Paper {i}"),
                    title_derived: i % 2 == 0,
                    authors: vec!["A. Author".into(); i % 3],
                    year: Some(2026),
                    links: vec![],
                    runs: vec![Run {
                        end: text.len() as u32,
                        kind: RunKind::Text { style: 0 },
                    }],
                    text,
                    tags: vec![],
                    similar: vec![],
                    keywords: vec![],
                    map: [i as u16, 0],
                }
            })
            .collect();
        let part = c.to_parts().papers;
        let whole = Corpus::from_papers_part(&part).unwrap();
        assert_eq!(whole.papers, c.papers);
        assert_eq!(whole.reasons, c.reasons);
        for size in [1, 2, 3, 7, 18, 19, 64, 1000, part.len()] {
            let mut d = PapersDecoder::default();
            for window in part.chunks(size) {
                assert_eq!(d.push(window).unwrap(), window.len());
            }
            assert_eq!(d.finish().unwrap(), whole, "windows of {size}");
        }
        for end in 0..part.len() {
            let mut d = PapersDecoder::default();
            let pushed = d.push(&part[..end]);
            assert!(pushed.and_then(|_| d.finish()).is_err(), "cut at {end}");
        }
        for at in 0..part.len() {
            let mut changed = part.clone();
            changed[at] ^= 0x20;
            assert!(Corpus::from_papers_part(&changed).is_err(), "byte {at}");
        }
        let mut longer = part.clone();
        longer.extend_from_slice(b"next");
        let mut d = PapersDecoder::default();
        assert_eq!(d.push(&longer).unwrap(), part.len());
        assert_eq!(d.finish().unwrap(), whole);
    }

    #[test]
    fn index_sections_are_used_in_place_and_every_truncation_is_an_error() {
        let mut c = tiny();
        c.index.stray_stems = vec![1, 2, 3].into();
        c.index.postings = vec![9; 40].into();
        let bytes: &'static [u8] = Box::leak(c.to_bytes().into_boxed_slice());
        let borrowed = Corpus::from_static(bytes).unwrap();
        assert_eq!(borrowed, c);
        assert!(matches!(borrowed.index.postings, Cow::Borrowed(_)));
        assert!(matches!(
            Corpus::from_bytes(bytes).unwrap().index.postings,
            Cow::Owned(_)
        ));
        for end in 0..bytes.len() {
            assert!(Corpus::from_bytes(&bytes[..end]).is_err(), "cut at {end}");
        }
        let mut longer = bytes.to_vec();
        longer.push(0);
        assert!(Corpus::from_bytes(&longer).is_err());
    }
}
