//! The papers' titles apart from the papers part. At 100,000 papers the
//! titles were 1.0 MB of the part's 1.7 (brotli), all of it before the
//! first answer, and an answer shows a dozen of them. A long list's build
//! cuts them into small packs of consecutive papers, each in a file named
//! for its content, which the page fetches for the cards and lists it
//! shows (a card's title comes before its abstract's pack). Sorting by
//! title reads one more file: the papers' places in title order.

use serde::{Deserialize, Serialize};

use crate::model::body::{cut_into_packs, decode_pack};
use crate::model::frame::{decode_named, frame};
use crate::model::{Corpus, Corrupt, DecodeError, PaperPackRef, PaperPacks};

/// File magic of a pack of titles.
pub const TITLE_MAGIC: &[u8; 4] = b"PXN\x01";

/// File magic of the papers' title order.
pub const TITLE_ORDER_MAGIC: &[u8; 4] = b"PXO\x01";

/// How many titles a pack holds, in a list of `papers`: an answer's
/// dozen cards lie in a dozen packs of a long list, so there a pack is
/// small (32 titles, about 1.3 KB brotli); a list the page fetches whole
/// behind the first screen (up to 10,000 papers) has
/// fewer, larger ones (256 titles).
pub fn title_pack_papers(papers: usize) -> u32 {
    if papers <= crate::model::body::FEW_PACKS_UP_TO {
        256
    } else {
        32
    }
}

/// Where the titles are when the papers part does not hold them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TitlesRef {
    /// Packs of consecutive papers' titles.
    pub packs: PaperPacks,
    /// The file of the papers' places in title order
    /// ([`title_order_file_name`]): its xxh3-64.
    pub order_hash: u64,
    /// Its size in bytes (uncompressed).
    pub order_len: u32,
}

/// The file name of a pack of titles, from its hash.
pub fn title_pack_file_name(hash: u64) -> String {
    crate::model::file_name("titles", hash)
}

/// The file name of the papers' title order, from its hash.
pub fn title_order_file_name(hash: u64) -> String {
    crate::model::file_name("title-order", hash)
}

/// Each paper's place in title order (folded titles, ties by list order).
pub(crate) fn title_ranks<'a>(titles: impl ExactSizeIterator<Item = &'a str>) -> Vec<u32> {
    let folded: Vec<String> = titles.map(crate::model::text::fold).collect();
    let mut order: Vec<u32> = (0..folded.len() as u32).collect();
    order.sort_unstable_by(|&a, &b| folded[a as usize].cmp(&folded[b as usize]).then(a.cmp(&b)));
    let mut rank = vec![0u32; folded.len()];
    for (r, &d) in order.iter().enumerate() {
        rank[d as usize] = r as u32;
    }
    rank
}

/// Where a view finds papers' titles: a corpus that holds them, or the
/// engine, which lends those whose packs are in ([`crate::Engine::title`]).
pub trait Titles {
    /// Paper `doc`'s title, `None` while it is not in (or for no such paper).
    fn title_of(&self, doc: u32) -> Option<&str>;
}

impl Titles for Corpus {
    fn title_of(&self, doc: u32) -> Option<&str> {
        let p = self.papers.get(doc as usize)?;
        self.titles.is_none().then_some(p.title.as_str())
    }
}

impl Corpus {
    /// The corpus whose papers have no titles and whose
    /// [`Corpus::titles`] names the packs they are in, with the packs'
    /// bytes and the bytes of the title order's file.
    pub fn titles_apart(&self, per_pack: u32) -> (Corpus, Vec<Vec<u8>>, Vec<u8>) {
        assert!(self.titles.is_none(), "the titles are apart already");
        let mut head = self.clone();
        let rank = title_ranks(self.papers.iter().map(|p| p.title.as_str()));
        let order = frame(
            TITLE_ORDER_MAGIC,
            &[&postcard::to_allocvec(&rank).expect("the order serializes")],
        );
        let titles: Vec<String> = head
            .papers
            .iter_mut()
            .map(|p| std::mem::take(&mut p.title))
            .collect();
        let (packs, bytes) = cut_into_packs(titles, per_pack, TITLE_MAGIC);
        head.titles = Some(TitlesRef {
            packs,
            order_hash: crate::model::content_hash(&order),
            order_len: u32::try_from(order.len()).expect("an order under 4 GB"),
        });
        (head, bytes, order)
    }

    /// The packs of titles, when the titles are apart (else none).
    pub fn title_packs(&self) -> PaperPacks {
        self.titles
            .as_ref()
            .map_or_else(PaperPacks::default, |t| t.packs)
    }

    /// The papers pack `k` of the titles holds.
    pub fn title_pack_range(&self, k: usize) -> Option<std::ops::Range<usize>> {
        self.title_packs().range(k)
    }

    /// The pack holding paper `doc`'s title, when the titles are apart.
    pub fn title_pack_of(&self, doc: usize) -> Option<usize> {
        self.title_packs().of(doc)
    }

    /// Decodes pack `k` of the titles: its hash is the one named, its
    /// frame whole, and it holds exactly the titles of its range.
    pub fn decode_title_pack(&self, k: usize, bytes: &[u8]) -> Result<Vec<String>, DecodeError> {
        decode_pack(&self.title_packs(), k, TITLE_MAGIC, bytes).map(|(titles, _)| titles)
    }

    /// Decodes the title order's file: each paper's place, every place
    /// once.
    pub fn decode_title_order(&self, bytes: &[u8]) -> Result<Vec<u32>, DecodeError> {
        let mismatch = || DecodeError::Corrupt(Corrupt::PackMismatch);
        let r = self.titles.as_ref().ok_or_else(mismatch)?;
        let rank: Vec<u32> = decode_named(TITLE_ORDER_MAGIC, r.order_hash, bytes)?;
        let mut seen = vec![false; self.papers.len()];
        if rank.len() != seen.len()
            || rank.iter().any(|&r| {
                seen.get_mut(r as usize)
                    .is_none_or(|s| std::mem::replace(s, true))
            })
        {
            return Err(mismatch());
        }
        Ok(rank)
    }

    /// The whole corpus again from its head and its packs of titles, each
    /// checked (the single-file build and the native tools, which fetch
    /// nothing).
    pub fn with_titles(
        mut self,
        mut pack: impl FnMut(PaperPackRef) -> Vec<u8>,
    ) -> Result<Corpus, DecodeError> {
        for k in 0..self.title_packs().len() {
            let bytes = pack(self.title_packs().get(k).expect("a pack of the corpus"));
            let titles = self.decode_title_pack(k, &bytes)?;
            let range = self.title_pack_range(k).expect("a pack of the corpus");
            for (paper, title) in self.papers[range].iter_mut().zip(titles) {
                paper.title = title;
            }
        }
        self.titles = None;
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::seeds;

    #[test]
    fn titles_apart_come_back_whole_and_in_order() {
        let corpus = seeds();
        let (head, packs, order) = corpus.titles_apart(6);
        assert!(packs.len() > 3, "{} packs", packs.len());
        assert!(head.papers.iter().all(|p| p.title.is_empty()));
        let rank = head.decode_title_order(&order).unwrap();
        let mut by_rank: Vec<&str> = vec![""; rank.len()];
        for (p, &r) in corpus.papers.iter().zip(&rank) {
            by_rank[r as usize] = &p.title;
        }
        let folded: Vec<String> = by_rank.iter().map(|t| crate::model::fold(t)).collect();
        assert!(folded.windows(2).all(|w| w[0] <= w[1]));
        let files: std::collections::HashMap<u64, Vec<u8>> = head
            .title_packs()
            .iter()
            .zip(&packs)
            .map(|(r, b)| (r.hash, b.clone()))
            .collect();
        assert_eq!(
            head.with_titles(|r| files[&r.hash].clone()).unwrap(),
            corpus
        );
    }

    #[test]
    fn another_packs_bytes_a_damaged_pack_or_a_bad_order_are_errors() {
        let (head, packs, order) = seeds().titles_apart(6);
        let mismatch = DecodeError::Corrupt(Corrupt::PackMismatch);
        assert_eq!(head.decode_title_pack(0, &packs[1]), Err(mismatch.clone()));
        let mut damaged = packs[0].clone();
        let last = damaged.len() - 1;
        damaged[last] ^= 1;
        let checksum = DecodeError::Corrupt(Corrupt::Checksum);
        assert_eq!(head.decode_title_pack(0, &damaged), Err(checksum));
        assert_eq!(
            head.decode_title_pack(packs.len(), &packs[0]),
            Err(mismatch.clone())
        );
        // An order naming a place twice, though its hash is the one named.
        let n = head.papers.len() as u32;
        let twice = frame(
            TITLE_ORDER_MAGIC,
            &[&postcard::to_allocvec(&vec![0u32; n as usize]).unwrap()],
        );
        let mut named = head.clone();
        named.titles.as_mut().unwrap().order_hash = xxhash_rust::xxh3::xxh3_64(&twice);
        assert_eq!(named.decode_title_order(&twice), Err(mismatch));
        assert!(head.decode_title_order(&order).is_ok());
    }
}
