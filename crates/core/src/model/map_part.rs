//! The topic map's data (each paper's place and its telling words) apart
//! from the papers part: only the map and the region it filters by read
//! them, and at field size they are a fifth of the papers' heads. A long
//! list's build writes them in one file named for its content, fetched when
//! the reader opens the map (or follows a link with a region in it).

use serde::{Deserialize, Serialize};

use crate::model::body::Interned;
use crate::model::frame::{decode_named, frame};
use crate::model::{Corpus, Corrupt, DecodeError, Paper};

/// File magic of the topic map's file.
pub const MAP_MAGIC: &[u8; 4] = b"PXM\x02";

/// The topic map's file, as the papers part names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MapPartRef {
    /// The xxh3-64 of its bytes: its file's name ([`map_part_file_name`]),
    /// and checked when it arrives.
    pub hash: u64,
    /// Its size in bytes (uncompressed): what saving for offline use says
    /// it will fetch.
    pub len: u32,
}

/// The file name of the topic map's file, from its hash.
pub fn map_part_file_name(hash: u64) -> String {
    crate::model::file_name("map", hash)
}

/// Every paper's place on the map and its telling words, in paper order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MapPart {
    /// [`crate::model::Paper::map`].
    pub places: Vec<[u16; 2]>,
    /// [`crate::model::Paper::keywords`], indexing `terms`.
    pub keywords: Vec<Vec<u32>>,
    /// The words the keywords name (the papers part's table,
    /// [`Corpus::similar_terms`], is then empty once the bodies are apart
    /// too).
    pub terms: Vec<String>,
}

impl MapPart {
    /// Takes every paper's place and keywords out of `papers`, with the
    /// words they name (`terms`: the corpus's table), each once.
    pub(crate) fn take_from(papers: &mut [Paper], terms: &[String]) -> MapPart {
        let mut own = Interned::default();
        let (places, keywords) = papers
            .iter_mut()
            .map(|p| {
                let keywords = (std::mem::take(&mut p.keywords).into_iter())
                    .filter_map(|k| own.moved(k, terms))
                    .collect();
                (std::mem::take(&mut p.map), keywords)
            })
            .unzip();
        MapPart {
            places,
            keywords,
            terms: own.table,
        }
    }
}

impl Corpus {
    /// The corpus without its papers' places and keywords, whose
    /// [`Corpus::map_part`] names the file that holds them, and that
    /// file's bytes.
    pub fn map_apart(&self) -> (Corpus, Vec<u8>) {
        assert!(self.map_part.is_none(), "the map is in the papers");
        let mut head = self.clone();
        let part = MapPart::take_from(&mut head.papers, &self.similar_terms);
        let encoded = postcard::to_allocvec(&part).expect("the map serializes");
        let bytes = frame(MAP_MAGIC, &[&encoded]);
        head.map_part = Some(MapPartRef {
            hash: crate::model::content_hash(&bytes),
            len: u32::try_from(bytes.len()).expect("a map under 4 GB"),
        });
        head.drop_terms_if_unread();
        (head, bytes)
    }

    /// Decodes the topic map's file: its hash is the one named, its frame
    /// whole, it has a place and keywords for every paper, and every
    /// keyword is one of its words.
    pub fn decode_map_part(&self, bytes: &[u8]) -> Result<MapPart, DecodeError> {
        let mismatch = || DecodeError::Corrupt(Corrupt::PackMismatch);
        let r = self.map_part.ok_or_else(mismatch)?;
        let part: MapPart = decode_named(MAP_MAGIC, r.hash, bytes)?;
        let n = self.papers.len();
        if part.places.len() != n || part.keywords.len() != n {
            return Err(mismatch());
        }
        let terms = part.terms.len();
        if let Some(paper) = part
            .keywords
            .iter()
            .position(|k| k.iter().any(|&t| t as usize >= terms))
        {
            return Err(DecodeError::Corrupt(Corrupt::OutOfRange {
                paper,
                what: "keyword",
            }));
        }
        Ok(part)
    }

    /// The corpus with its papers' places and keywords put back from the
    /// topic map's file (the single-file build, which fetches nothing).
    pub fn with_map_part(mut self, bytes: &[u8]) -> Result<Corpus, DecodeError> {
        if self.map_part.is_none() {
            return Ok(self);
        }
        let part = self.decode_map_part(bytes)?;
        let mut terms = Interned::from_table(std::mem::take(&mut self.similar_terms));
        for ((p, place), keywords) in self.papers.iter_mut().zip(part.places).zip(part.keywords) {
            p.map = place;
            // Every keyword names one of its words (checked above).
            p.keywords = (keywords.into_iter())
                .filter_map(|k| terms.moved(k, &part.terms))
                .collect();
        }
        self.similar_terms = terms.table;
        self.map_part = None;
        Ok(self)
    }

    /// Empties the table of words ([`Corpus::similar_terms`]) once no paper
    /// of the head reads it: the similar papers' terms travel with the
    /// bodies, the keywords with the map.
    pub(crate) fn drop_terms_if_unread(&mut self) {
        if !self.body_packs.is_empty() && self.map_part.is_some() {
            self.similar_terms.clear();
        }
    }
}

/// The papers' places and keywords as the engine keeps them, with how many
/// papers have each keyword (what is particular to a region).
pub(crate) struct MapData {
    pub(crate) part: MapPart,
    pub(crate) keyword_df: Vec<u32>,
}

impl MapData {
    /// The map of `part`, keeping only keywords among its words.
    pub(crate) fn new(mut part: MapPart) -> MapData {
        let terms = part.terms.len();
        let mut keyword_df = vec![0u32; terms];
        for keywords in &mut part.keywords {
            keywords.retain(|&k| (k as usize) < terms);
            for &k in keywords.iter() {
                keyword_df[k as usize] += 1;
            }
        }
        MapData { part, keyword_df }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::seeds;

    #[test]
    fn the_map_apart_comes_back_whole() {
        let corpus = seeds();
        let (head, bytes) = corpus.map_apart();
        assert!(head
            .papers
            .iter()
            .all(|p| p.map == [0, 0] && p.keywords.is_empty()));
        assert_eq!(
            head.map_part.map(|r| map_part_file_name(r.hash)),
            Some(format!(
                "map-{:016x}.bin",
                xxhash_rust::xxh3::xxh3_64(&bytes)
            ))
        );
        // The head goes through the papers part and back.
        let parts = head.to_parts();
        let decoded = Corpus::from_papers_part(&parts.papers).unwrap();
        assert_eq!(decoded.map_part, head.map_part);
        assert_eq!(head.with_map_part(&bytes).unwrap(), corpus);
    }

    #[test]
    fn another_file_or_a_damaged_map_is_an_error() {
        let corpus = seeds();
        let (head, bytes) = corpus.map_apart();
        let mismatch = DecodeError::Corrupt(Corrupt::PackMismatch);
        let mut damaged = bytes.clone();
        let last = damaged.len() - 1;
        damaged[last] ^= 1;
        assert_eq!(head.decode_map_part(&damaged), Err(mismatch.clone()));
        // Another list's map (one paper fewer) is not this one's.
        let mut fewer = corpus.clone();
        fewer.papers.pop();
        let (_, other) = fewer.map_apart();
        assert_eq!(head.decode_map_part(&other), Err(mismatch.clone()));
        // A corpus whose map is in its papers names no file.
        assert_eq!(corpus.decode_map_part(&bytes), Err(mismatch));
    }
}
