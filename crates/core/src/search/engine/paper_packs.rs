//! The papers' titles and bodies that come in packs of consecutive papers
//! ([`Corpus::titles`], [`Corpus::body_packs`]): what the engine lends of
//! them once their packs are in, and which packs a set of papers lacks.

use std::sync::OnceLock;

use super::Engine;
pub use crate::model::PaperPack;
use crate::model::{Corpus, DecodeError, PaperPackRef, PaperPacks};

/// One slot per pack: the pack's papers' items once it is in.
pub(crate) struct Slots<T>(Vec<OnceLock<Vec<T>>>);

impl<T> Slots<T> {
    /// `n` packs, none in.
    pub(crate) fn new(n: usize) -> Self {
        Slots((0..n).map(|_| OnceLock::new()).collect())
    }

    /// The item of paper `doc` once its pack is in.
    fn item(&self, packs: PaperPacks, doc: usize) -> Option<&T> {
        let k = packs.of(doc)?;
        let first = packs.range(k)?.start;
        self.0.get(k)?.get()?.get(doc - first)
    }

    fn has(&self, k: u32) -> bool {
        self.0.get(k as usize).is_some_and(|s| s.get().is_some())
    }

    /// Pack `k`, decoded by `decode` unless it is in already.
    fn add(
        &self,
        k: u32,
        decode: impl FnOnce() -> Result<Vec<T>, DecodeError>,
    ) -> Result<(), DecodeError> {
        let slot = self
            .0
            .get(k as usize)
            .ok_or(DecodeError::Corrupt(crate::model::Corrupt::PackMismatch))?;
        if slot.get().is_none() {
            let _ = slot.set(decode()?);
        }
        Ok(())
    }
}

impl Engine {
    /// Paper `doc`'s title: `None` while the pack it is in has not come
    /// ([`Engine::missing_title_packs`]), or for no such paper.
    pub fn title(&self, doc: u32) -> Option<&str> {
        let d = doc as usize;
        let paper = self.corpus.papers.get(d)?;
        if self.corpus.titles.is_none() {
            return Some(&paper.title);
        }
        let packs = self.corpus.title_packs();
        self.titles.item(packs, d).map(String::as_str)
    }

    /// Paper `doc`'s body (its text, runs, links and similar papers):
    /// `None` while the pack it is in has not come
    /// ([`Engine::missing_card_packs`]), or for no such paper.
    pub fn body(&self, doc: u32) -> Option<crate::model::BodyRef<'_>> {
        let d = doc as usize;
        let paper = self.corpus.papers.get(d)?;
        if self.corpus.body_packs.is_empty() {
            return Some(paper.into());
        }
        self.bodies.item(self.corpus.body_packs, d).map(Into::into)
    }

    /// The packs the cards of `docs` lack, each once, in the order first
    /// needed: each paper's title's, then its body's.
    pub fn missing_card_packs(&self, docs: impl IntoIterator<Item = u32>) -> Vec<PaperPack> {
        self.missing(docs, true)
    }

    /// The packs of titles `docs` lack (lists of titles: similar papers,
    /// related papers, the reading list), each once.
    pub fn missing_title_packs(&self, docs: impl IntoIterator<Item = u32>) -> Vec<PaperPack> {
        self.missing(docs, false)
    }

    fn missing(&self, docs: impl IntoIterator<Item = u32>, bodies: bool) -> Vec<PaperPack> {
        let titles = self.corpus.title_packs();
        let mut seen = std::collections::HashSet::new();
        let mut missing = Vec::new();
        for doc in docs {
            let title = titles.of(doc as usize).map(|k| PaperPack::Title(k as u32));
            let body = bodies
                .then(|| self.corpus.body_pack_of(doc as usize))
                .flatten()
                .map(|k| PaperPack::Body(k as u32));
            for p in [title, body].into_iter().flatten() {
                if !self.has_paper_pack(p) && seen.insert(p) {
                    missing.push(p);
                }
            }
        }
        missing
    }

    /// Whether a pack is in (a pack the corpus does not have never is).
    pub fn has_paper_pack(&self, p: PaperPack) -> bool {
        match p {
            PaperPack::Title(k) => self.titles.has(k),
            PaperPack::Body(k) => self.bodies.has(k),
        }
    }

    /// Those of `packs` not in yet (packs the corpus has).
    pub fn missing_paper_packs_of(&self, packs: &[PaperPack]) -> Vec<PaperPack> {
        packs
            .iter()
            .copied()
            .filter(|&p| self.paper_pack_ref(p).is_some() && !self.has_paper_pack(p))
            .collect()
    }

    fn paper_pack_ref(&self, p: PaperPack) -> Option<PaperPackRef> {
        match p {
            PaperPack::Title(k) => self.corpus.title_packs().get(k as usize),
            PaperPack::Body(k) => self.corpus.body_packs.get(k as usize),
        }
    }

    /// The file of a pack.
    pub fn paper_pack_file(&self, p: PaperPack) -> Option<String> {
        let hash = self.paper_pack_ref(p)?.hash;
        Some(match p {
            PaperPack::Title(_) => crate::model::title_pack_file_name(hash),
            PaperPack::Body(_) => crate::model::body_pack_file_name(hash),
        })
    }

    /// The packs of titles and bodies not in yet, each with its size in
    /// bytes (uncompressed): what saving for offline use fetches.
    pub fn paper_packs_not_in(&self) -> Vec<(PaperPack, usize)> {
        let titles = (0..self.corpus.title_packs().len() as u32).map(PaperPack::Title);
        let bodies = (0..self.corpus.body_packs.len() as u32).map(PaperPack::Body);
        titles
            .chain(bodies)
            .filter(|&p| !self.has_paper_pack(p))
            .filter_map(|p| Some((p, self.paper_pack_ref(p)?.len as usize)))
            .collect()
    }

    /// Adds a pack, fetched: checked against its hash and against the
    /// corpus before any of it is used. A pack already in is left as it is.
    pub fn add_paper_pack(&self, p: PaperPack, bytes: &[u8]) -> Result<(), DecodeError> {
        let c = &self.corpus;
        match p {
            PaperPack::Title(k) => self
                .titles
                .add(k, || c.decode_title_pack(k as usize, bytes)),
            PaperPack::Body(k) => self.bodies.add(k, || c.decode_body_pack(k as usize, bytes)),
        }
    }

    /// Whether sorting by title can be done: the papers' title order is
    /// known (always, unless the titles are apart and the order's file
    /// has not come: [`Engine::add_title_order`]).
    pub fn has_title_order(&self) -> bool {
        self.title_rank.get().is_some()
    }

    /// The title order's file while it is not in: its name (beside the
    /// papers part) and its size in bytes (uncompressed).
    pub fn title_order_file(&self) -> Option<(String, usize)> {
        let r = self
            .corpus
            .titles
            .as_ref()
            .filter(|_| !self.has_title_order())?;
        Some((
            crate::model::title_order_file_name(r.order_hash),
            r.order_len as usize,
        ))
    }

    /// Adds the title order's file, fetched, checked against its hash and
    /// the corpus. Once in, it stays.
    pub fn add_title_order(&self, bytes: &[u8]) -> Result<(), DecodeError> {
        if !self.has_title_order() {
            let rank = self.corpus.decode_title_order(bytes)?;
            let _ = self.title_rank.set(rank);
        }
        Ok(())
    }
}

/// The title order when the papers hold their titles (else it comes later,
/// [`Engine::add_title_order`]).
pub(super) fn title_rank_of(corpus: &Corpus) -> OnceLock<Vec<u32>> {
    let rank = OnceLock::new();
    if corpus.titles.is_none() {
        let titles = corpus.papers.iter().map(|p| p.title.as_str());
        let _ = rank.set(crate::model::titles::title_ranks(titles));
    }
    rank
}

impl crate::model::Titles for Engine {
    fn title_of(&self, doc: u32) -> Option<&str> {
        self.title(doc)
    }
}
