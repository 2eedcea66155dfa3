//! The papers part decoded as it arrives, a window at a time.

use serde::Deserialize;

use crate::model::frame::{Corrupt, DecodeError, FORMAT_VERSION, MAGIC};
use crate::model::{Corpus, Facet, List, Paper};

/// The fields of [`Corpus`] before its papers, in its order: postcard
/// writes a struct as its fields one after another, so a papers part is
/// this, the number of papers, each paper, then the (empty) index. A test
/// decodes real corpora both ways.
#[derive(Deserialize)]
struct Head {
    lists: Vec<List>,
    facets: Vec<Facet>,
    reasons: Vec<String>,
    similar_terms: Vec<String>,
    body_packs: crate::model::PaperPacks,
    map_part: Option<crate::model::MapPartRef>,
    tag_part: Option<crate::model::TagPartRef>,
    titles: Option<crate::model::TitlesRef>,
}

/// Where a [`PapersDecoder`] is in the part.
#[derive(Default)]
enum Stage {
    /// Reading the frame: magic, version, checksum, the body's length.
    #[default]
    Frame,
    /// The fields before the papers.
    Head,
    /// How many papers.
    Count,
    /// This many papers still to come.
    Papers(usize),
    /// The index's place (empty in a papers part).
    Index,
    /// The whole part is read.
    Done,
}

/// Decodes a papers part ([`Parts::papers`](crate::model::Parts::papers)) handed over in pieces of any
/// size, as the page copies it into WebAssembly memory a window at a time:
/// the part's bytes are never all in memory beside the papers decoded from
/// them (at 20,000 papers, 38 MB of bytes beside 50 MB of papers set the
/// page's memory for good). Its result is [`Corpus::from_papers_part`]'s,
/// which is this decoder handed everything at once.
///
/// ```
/// use explorer_core::model::PapersDecoder;
/// use explorer_core::Corpus;
///
/// let corpus = explorer_core::build::compile_dir(std::path::Path::new("../../corpus")).unwrap();
/// let part = corpus.to_parts().papers;
/// let mut decoder = PapersDecoder::default();
/// for window in part.chunks(1000) {
///     assert_eq!(decoder.push(window).unwrap(), window.len());
/// }
/// assert_eq!(decoder.finish().unwrap().papers, corpus.papers);
/// ```
#[derive(Default)]
pub struct PapersDecoder {
    stage: Stage,
    /// Bytes handed over and not yet decoded (a paper cut by a window's end).
    pending: Vec<u8>,
    /// The body's length and checksum, from the frame.
    body: usize,
    sum: u64,
    /// Body bytes handed over so far.
    seen: usize,
    hasher: xxhash_rust::xxh3::Xxh3,
    head: Option<Head>,
    papers: Vec<Paper>,
    index: crate::model::index_data::IndexData,
}

/// The frame before a papers part's body: magic, version, checksum and the
/// one piece's length.
const FRAME: usize = 4 + 2 + 8 + 4;

impl PapersDecoder {
    /// Takes the next bytes of the part and decodes every paper they
    /// complete. Returns how many it took: all of them, unless the part
    /// ends inside them (what follows is not this part's).
    pub fn push(&mut self, bytes: &[u8]) -> Result<usize, DecodeError> {
        let mut taken = 0;
        if matches!(self.stage, Stage::Frame) {
            let need = FRAME - self.pending.len();
            let now = need.min(bytes.len());
            self.pending.extend_from_slice(&bytes[..now]);
            taken = now;
            // Another file is named as soon as its first bytes show it.
            let magic = self.pending.len().min(MAGIC.len());
            if self.pending[..magic] != MAGIC[..magic] {
                return Err(DecodeError::BadMagic);
            }
            if self.pending.len() < FRAME {
                return Ok(taken);
            }
            let frame = std::mem::take(&mut self.pending);
            let rest = frame.strip_prefix(MAGIC).ok_or(DecodeError::BadMagic)?;
            let found = u16::from_le_bytes([rest[0], rest[1]]);
            if found != FORMAT_VERSION {
                return Err(DecodeError::Version {
                    found,
                    expected: FORMAT_VERSION,
                });
            }
            self.sum = u64::from_le_bytes(rest[2..10].try_into().expect("eight bytes"));
            self.body = u32::from_le_bytes(rest[10..14].try_into().expect("four bytes")) as usize;
            self.hasher.update(&rest[10..14]);
            self.stage = Stage::Head;
        }
        let now = (self.body - self.seen).min(bytes.len() - taken);
        let body = &bytes[taken..taken + now];
        self.hasher.update(body);
        self.seen += now;
        self.pending.extend_from_slice(body);
        self.decode()?;
        Ok(taken + now)
    }

    /// Decodes what the pending bytes complete, and keeps the rest.
    fn decode(&mut self) -> Result<(), DecodeError> {
        let corrupt = |e: postcard::Error| DecodeError::Corrupt(Corrupt::Encoding(e));
        let pending = std::mem::take(&mut self.pending);
        let mut at = &pending[..];
        loop {
            // Each step takes one item from `at`, or stops at a cut one.
            let step = match self.stage {
                Stage::Frame | Stage::Done => break,
                Stage::Head => postcard::take_from_bytes::<Head>(at).map(|(head, rest)| {
                    self.head = Some(head);
                    self.stage = Stage::Count;
                    rest
                }),
                Stage::Count => postcard::take_from_bytes::<usize>(at).map(|(n, rest)| {
                    // Every paper takes more than eight bytes: a count the
                    // body cannot hold reserves no more than it can.
                    self.papers.reserve_exact(n.min(self.body / 8));
                    self.stage = Stage::Papers(n);
                    rest
                }),
                Stage::Papers(0) => {
                    self.stage = Stage::Index;
                    Ok(at)
                }
                Stage::Papers(n) => postcard::take_from_bytes::<Paper>(at).map(|(p, rest)| {
                    self.papers.push(p);
                    self.stage = Stage::Papers(n - 1);
                    rest
                }),
                Stage::Index => postcard::take_from_bytes::<crate::model::index_data::IndexData>(
                    at,
                )
                .map(|(index, rest)| {
                    self.index = index;
                    self.stage = Stage::Done;
                    rest
                }),
            };
            match step {
                Ok(rest) => at = rest,
                Err(postcard::Error::DeserializeUnexpectedEnd) if self.seen < self.body => break,
                Err(e) => return Err(corrupt(e)),
            }
        }
        self.pending = at.to_vec();
        Ok(())
    }

    /// The corpus (with an empty index), once the whole part has been
    /// handed over: its checksum matches, nothing is left over, and every
    /// id inside points at something that exists.
    pub fn finish(self) -> Result<Corpus, DecodeError> {
        let truncated = || DecodeError::Corrupt(Corrupt::Truncated);
        if matches!(self.stage, Stage::Frame) || self.seen < self.body {
            return Err(truncated());
        }
        if self.hasher.digest() != self.sum {
            return Err(DecodeError::Corrupt(Corrupt::Checksum));
        }
        let (Stage::Done, Some(head)) = (self.stage, self.head) else {
            return Err(truncated());
        };
        if !self.pending.is_empty() {
            return Err(DecodeError::Corrupt(Corrupt::TrailingBytes));
        }
        let mut corpus = Corpus {
            lists: head.lists,
            facets: head.facets,
            reasons: head.reasons,
            similar_terms: head.similar_terms,
            body_packs: head.body_packs,
            map_part: head.map_part,
            tag_part: head.tag_part,
            titles: head.titles,
            papers: self.papers,
            index: self.index,
        };
        corpus.check().map_err(DecodeError::Corrupt)?;
        corpus.put_back_tagged_authors();
        Ok(corpus)
    }
}
