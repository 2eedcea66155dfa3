//! A paper's body (its text, style runs, links, similar papers and why
//! each of its tags was given) apart from its head (id, title, authors,
//! tags, place on the map): at field
//! size the bodies are four fifths of the papers part, and a reader sees a
//! few dozen of them. The build cuts them into packs of consecutive
//! papers, each in a file named for its content; the page fetches the
//! packs of the cards it shows.

use serde::{Deserialize, Serialize};

use crate::model::frame::{frame, nothing_after, unframe};
use crate::model::{Corpus, Corrupt, DecodeError, Link, Paper, Run, RunKind, Similar, Tag};

/// File magic of a pack of bodies.
pub const BODY_MAGIC: &[u8; 4] = b"PXB\x03";

/// Up to this many papers the page fetches a list whole behind its first
/// screen, so its packs of bodies and titles are larger and fewer
/// ([`body_pack_papers`], [`crate::model::title_pack_papers`]).
pub(crate) const FEW_PACKS_UP_TO: usize = 10_000;

/// How many papers' bodies a pack holds, in a list of `papers`: a card
/// costs its pack, so a long list's packs are small (4 bodies, about
/// 3 KB brotli: the six cards a keystroke shows from across a list of
/// 100,000 papers cost 38 KB in packs of 8, more than a third of the
/// keystroke); a list the page fetches whole behind the first screen
/// (`FEW_PACKS_UP_TO`) has fewer, larger ones, fewer requests to make.
pub fn body_pack_papers(papers: usize) -> u32 {
    if papers <= FEW_PACKS_UP_TO {
        32
    } else {
        4
    }
}

/// From this many papers the build puts the bodies in packs: below it the
/// papers part is small enough to come whole (the seeds' is 34 KB brotli),
/// and a card never waits for its abstract.
pub const BODIES_APART_FROM: usize = 1_000;

/// What a card shows beyond the paper's head.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Body {
    /// [`Paper::line`]: only tools read it (the page's tooltips take the
    /// file and line from the reasons), so it travels with the body.
    pub line: u32,
    /// [`Paper::text`].
    pub text: String,
    /// [`Paper::runs`].
    pub runs: Vec<Run>,
    /// [`Paper::links`].
    pub links: Vec<Link>,
    /// [`Paper::similar`].
    pub similar: Vec<Similar>,
    /// Why each of the paper's tags was given, in the tags' order: the
    /// reasons are a tooltip on the card, and mostly the paper's own (its
    /// source file and line), so they travel with its body, not in the
    /// head's table ([`Corpus::reasons`] is empty when the bodies are in
    /// packs).
    pub reasons: Vec<String>,
    /// The paper's tags (each with reason 0: the reasons are above), when
    /// the corpus has its tags apart ([`Corpus::tags_apart`]): the head
    /// then has none, and the card's chips come from here. Else empty.
    pub tags: Vec<Tag>,
    /// Its authors, when the tags are apart (the head then has none).
    pub authors: Vec<String>,
    /// The words its similar papers' shared terms name: [`Similar::terms`]
    /// index these (a card needs a few dozen of the 10,000s of words the
    /// corpus's table held: at 100,000 papers that table was 136 KB of
    /// the papers part, brotli).
    pub terms: Vec<String>,
}

/// One pack of consecutive papers' bodies or titles, as
/// [`PaperPacks::get`] tells of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PaperPackRef {
    /// Its first paper.
    pub first: u32,
    /// The hash its file is named by ([`body_pack_file_name`],
    /// [`crate::model::title_pack_file_name`]): the packs' hash and its
    /// number, hashed together.
    pub hash: u64,
    /// About its size in bytes (uncompressed; the packs' mean): what
    /// saving for offline use says it will fetch.
    pub len: u32,
}

/// Packs of consecutive papers' bodies or titles: `per_pack` papers each
/// (the last may hold fewer). A pack's file is named for the hash of all
/// the packs' contents and its number ([`PaperPackRef::hash`]), so the
/// head names the 25,000 packs of bodies of a 100,000-paper list in a few
/// bytes, where a hash a pack would be 400 KB of the papers part; a pack
/// carries that hash and its number inside, checked when it arrives.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaperPacks {
    /// How many papers the packs hold in all (the corpus's papers); 0
    /// when the items are not in packs.
    pub papers: u32,
    /// Papers a pack.
    pub per_pack: u32,
    /// The xxh3-64 of the packs' contents.
    pub hash: u64,
    /// Their size in bytes, all together (uncompressed).
    pub len: u64,
}

impl PaperPacks {
    /// How many packs there are.
    pub fn len(&self) -> usize {
        if self.per_pack == 0 {
            0
        } else {
            self.papers.div_ceil(self.per_pack) as usize
        }
    }

    /// Whether there are none (the items are with the papers).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Pack `k`.
    pub fn get(&self, k: usize) -> Option<PaperPackRef> {
        let n = self.len();
        (k < n).then(|| PaperPackRef {
            first: k as u32 * self.per_pack,
            hash: pack_hash(self.hash, k),
            len: u32::try_from(self.len / n as u64).unwrap_or(u32::MAX),
        })
    }

    /// The packs, in order.
    pub fn iter(self) -> impl Iterator<Item = PaperPackRef> {
        (0..self.len()).filter_map(move |k| self.get(k))
    }

    /// The papers pack `k` holds.
    pub fn range(&self, k: usize) -> Option<std::ops::Range<usize>> {
        let first = k.checked_mul(self.per_pack as usize)?;
        let end = (first + self.per_pack as usize).min(self.papers as usize);
        (k < self.len()).then_some(first..end)
    }

    /// The pack that holds paper `doc`.
    pub fn of(&self, doc: usize) -> Option<usize> {
        (doc < self.papers as usize && self.per_pack > 0).then(|| doc / self.per_pack as usize)
    }
}

/// The hash pack `k` of packs whose contents hash to `packs` is named by.
fn pack_hash(packs: u64, k: usize) -> u64 {
    crate::model::content_hash(&pack_name(packs, k))
}

/// A pack of papers' titles or bodies, as the page names it to fetch and
/// add ([`crate::Engine::add_paper_pack`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PaperPack {
    /// Pack `k` of the titles ([`Corpus::title_packs`]).
    Title(u32),
    /// Pack `k` of the bodies ([`Corpus::body_packs`]).
    Body(u32),
}

/// The file name of a pack of bodies, from its hash.
pub fn body_pack_file_name(hash: u64) -> String {
    crate::model::file_name("bodies", hash)
}

/// A paper's body as the engine lends it: from the paper itself, or from
/// the pack it came in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BodyRef<'a> {
    /// Visible text of the abstract.
    pub text: &'a str,
    /// Runs covering `text`.
    pub runs: &'a [Run],
    /// The record's own links.
    pub links: &'a [Link],
    /// The most similar papers, nearest first.
    pub similar: &'a [Similar],
    /// Why each tag was given, in the tags' order, when the body came in a
    /// pack; empty when the reasons are in [`Corpus::reasons`].
    pub reasons: &'a [String],
    /// The paper's tags when they came with the body ([`Body::tags`]).
    pub tags: &'a [Tag],
    /// Its authors when they came with the body ([`Body::authors`]).
    pub authors: &'a [String],
    /// The words `similar`'s terms index when the body came in a pack
    /// ([`Body::terms`]); empty when they index [`Corpus::similar_terms`].
    pub terms: &'a [String],
}

impl<'a> BodyRef<'a> {
    /// Each run's byte range in the text, with how to render it.
    pub(crate) fn run_ranges(self) -> impl Iterator<Item = (std::ops::Range<usize>, &'a RunKind)> {
        let mut start = 0usize;
        self.runs.iter().map(move |r| {
            let range = start..r.end as usize;
            start = r.end as usize;
            (range, &r.kind)
        })
    }
}

impl<'a> From<&'a Paper> for BodyRef<'a> {
    fn from(p: &'a Paper) -> Self {
        BodyRef {
            text: &p.text,
            runs: &p.runs,
            links: &p.links,
            similar: &p.similar,
            reasons: &[],
            tags: &p.tags,
            authors: &p.authors,
            terms: &[],
        }
    }
}

impl<'a> From<&'a Body> for BodyRef<'a> {
    fn from(b: &'a Body) -> Self {
        BodyRef {
            text: &b.text,
            runs: &b.runs,
            links: &b.links,
            similar: &b.similar,
            reasons: &b.reasons,
            tags: &b.tags,
            authors: &b.authors,
            terms: &b.terms,
        }
    }
}

impl Paper {
    /// Takes the paper's body out, leaving its head: its tags' reasons
    /// (from the corpus's table, `reasons`) go with it, and the tags keep
    /// reason 0. With `head_too` (the tags are apart), its tags and
    /// authors go with it as well. Its similar papers' terms are named by
    /// words of its own (from the corpus's table, `terms`).
    fn take_body(&mut self, reasons: &[String], head_too: bool, terms: &[String]) -> Body {
        let reasons = self
            .tags
            .iter_mut()
            .map(|t| reasons[std::mem::take(&mut t.reason) as usize].clone())
            .collect();
        let (tags, authors) = if head_too {
            (
                std::mem::take(&mut self.tags),
                std::mem::take(&mut self.authors),
            )
        } else {
            Default::default()
        };
        let mut own = Interned::default();
        let mut similar = std::mem::take(&mut self.similar);
        own.retable(&mut similar, terms);
        Body {
            line: std::mem::take(&mut self.line),
            text: std::mem::take(&mut self.text),
            runs: std::mem::take(&mut self.runs),
            links: std::mem::take(&mut self.links),
            similar,
            reasons,
            tags,
            authors,
            terms: own.table,
        }
    }

    /// Puts a body back, its tags' reasons into the corpus's table
    /// (`reasons`, each text once), its similar papers' terms into the
    /// corpus's words (`terms`).
    fn set_body(&mut self, body: Body, reasons: &mut Interned, terms: &mut Interned) {
        if !body.tags.is_empty() {
            self.tags = body.tags;
        }
        if !body.authors.is_empty() {
            self.authors = body.authors;
        }
        for (t, why) in self.tags.iter_mut().zip(body.reasons) {
            t.reason = reasons.id(why);
        }
        self.line = body.line;
        self.text = body.text;
        self.runs = body.runs;
        self.links = body.links;
        self.similar = body.similar;
        terms.retable(&mut self.similar, &body.terms);
    }

    /// The paper's tags: its own, or (when the tags are apart) those its
    /// body brought, none while the body is on its way.
    pub fn tags_with<'a>(&'a self, body: Option<BodyRef<'a>>) -> &'a [Tag] {
        match body {
            Some(b) if self.tags.is_empty() => b.tags,
            _ => &self.tags,
        }
    }

    /// The paper's authors: its own, or (when the tags are apart) those its
    /// body brought, none while the body is on its way.
    pub fn authors_with<'a>(&'a self, body: Option<BodyRef<'a>>) -> &'a [String] {
        match body {
            Some(b) if self.authors.is_empty() => b.authors,
            _ => &self.authors,
        }
    }
}

/// A table of texts as it is built again from the packs (the corpus's
/// reasons, its similar papers' terms and the map's keywords): the first
/// paper to name a text gives it its id, as at compile time.
#[derive(Default)]
pub(crate) struct Interned {
    pub(crate) table: Vec<String>,
    ids: std::collections::HashMap<String, u32>,
}

impl Interned {
    /// The table `table` continued.
    pub(crate) fn from_table(table: Vec<String>) -> Interned {
        let ids = (table.iter().enumerate())
            .map(|(i, t)| (t.clone(), i as u32))
            .collect();
        Interned { table, ids }
    }

    /// The id of `text`, added at the end if new.
    pub(crate) fn id(&mut self, text: String) -> u32 {
        if let Some(&id) = self.ids.get(&text) {
            return id;
        }
        let id = self.table.len() as u32;
        self.table.push(text.clone());
        self.ids.insert(text, id);
        id
    }

    /// The id here of the text that `id` names in `from` (added if new);
    /// `None` when `from` has no such text.
    pub(crate) fn moved(&mut self, id: u32, from: &[String]) -> Option<u32> {
        Some(self.id(from.get(id as usize)?.clone()))
    }

    /// Moves the terms of `similar` from naming texts of `from` to naming
    /// them here ([`Similar::NO_TERM`] stays as it is).
    fn retable(&mut self, similar: &mut [Similar], from: &[String]) {
        for t in similar.iter_mut().flat_map(|s| s.terms.iter_mut()) {
            if let Some(moved) = self.moved(*t, from) {
                *t = moved;
            }
        }
    }
}

impl Body {
    /// Every id inside points at something that exists
    /// ([`BodyRef::check`]), and there is a reason for each of the paper's
    /// `tags` (the head's, or its own when it brought them), each a value
    /// its facet has (`facets`: how many values each has).
    fn check(
        &self,
        paper: usize,
        papers: usize,
        terms: usize,
        tags: usize,
        facets: &[usize],
    ) -> Result<(), Corrupt> {
        let bad = Err(Corrupt::OutOfRange { paper, what: "tag" });
        let tags = if self.tags.is_empty() {
            tags
        } else {
            self.tags.len()
        };
        if self.reasons.len() != tags {
            return bad;
        }
        if self.tags.iter().any(|t| {
            t.reason != 0
                || facets
                    .get(t.facet as usize)
                    .is_none_or(|&n| t.value as usize >= n)
        }) {
            return bad;
        }
        BodyRef::from(self).check(paper, papers, terms)
    }
}

impl BodyRef<'_> {
    /// The words explaining similar paper `s` of this body, most telling
    /// first: from the body's own words, or (a body in the papers part)
    /// from the corpus's table, `corpus_terms`.
    pub fn shared_terms<'a>(
        &'a self,
        corpus_terms: &'a [String],
        s: &'a Similar,
    ) -> impl Iterator<Item = &'a str> + 'a {
        let words = if self.terms.is_empty() {
            corpus_terms
        } else {
            self.terms
        };
        words_of(words, s)
    }
}

impl BodyRef<'_> {
    /// Every id inside points at something that exists: runs inside the
    /// text on character boundaries, similar papers among `papers`, their
    /// terms among `terms` (a paper's, `paper`, whether in its pack or in
    /// the papers part).
    pub(crate) fn check(self, paper: usize, papers: usize, terms: usize) -> Result<(), Corrupt> {
        let bad = |what: &'static str| Err(Corrupt::OutOfRange { paper, what });
        for s in self.similar {
            if s.doc as usize >= papers
                || s.terms
                    .iter()
                    .any(|&t| t != Similar::NO_TERM && t as usize >= terms)
            {
                return bad("similar paper");
            }
        }
        let mut last = 0u32;
        for r in self.runs {
            if r.end < last
                || r.end as usize > self.text.len()
                || !self.text.is_char_boundary(r.end as usize)
            {
                return bad("run");
            }
            last = r.end;
        }
        Ok(())
    }
}

/// The words of `words` that similar paper `s`'s terms name, in order.
pub(crate) fn words_of<'a>(
    words: &'a [String],
    s: &'a Similar,
) -> impl Iterator<Item = &'a str> + 'a {
    (s.terms.iter())
        .filter(|&&t| t != Similar::NO_TERM)
        .filter_map(move |&t| words.get(t as usize).map(String::as_str))
}

/// Decodes pack `k` of `packs`: its frame (`magic`) whole, the packs'
/// hash and its number inside those named, and one item per paper of its
/// range. The items, and that range.
pub(crate) fn decode_pack<T: serde::de::DeserializeOwned>(
    packs: &PaperPacks,
    k: usize,
    magic: &[u8; 4],
    bytes: &[u8],
) -> Result<(Vec<T>, std::ops::Range<usize>), DecodeError> {
    let mismatch = || DecodeError::Corrupt(Corrupt::PackMismatch);
    let range = packs.range(k).ok_or_else(mismatch)?;
    let ([named, items], rest) = unframe::<2>(magic, bytes)?;
    nothing_after(rest)?;
    if named != pack_name(packs.hash, k) {
        return Err(mismatch());
    }
    let items: Vec<T> =
        postcard::from_bytes(items).map_err(|e| DecodeError::Corrupt(Corrupt::Encoding(e)))?;
    if items.len() != range.len() {
        return Err(mismatch());
    }
    Ok((items, range))
}

/// What a pack carries of its name: the packs' hash and its number.
fn pack_name(packs: u64, k: usize) -> [u8; 16] {
    let mut name = [0u8; 16];
    name[..8].copy_from_slice(&packs.to_le_bytes());
    name[8..].copy_from_slice(&(k as u64).to_le_bytes());
    name
}

/// Cuts `items` (one per paper, in order) into packs of `per_pack`
/// consecutive papers (the last may hold fewer), each a frame (`magic`):
/// what names them, and their bytes.
pub(crate) fn cut_into_packs<T: Serialize>(
    items: Vec<T>,
    per_pack: u32,
    magic: &[u8; 4],
) -> (PaperPacks, Vec<Vec<u8>>) {
    assert!(per_pack > 0, "a pack holds a paper at least");
    let papers = u32::try_from(items.len()).expect("under 4 billion papers");
    let encoded: Vec<Vec<u8>> = items
        .chunks(per_pack as usize)
        .map(|pack| postcard::to_allocvec(pack).expect("a pack serializes"))
        .collect();
    let sums: Vec<u8> = (encoded.iter())
        .flat_map(|e| crate::model::content_hash(e).to_le_bytes())
        .collect();
    let hash = crate::model::content_hash(&sums);
    let packs: Vec<Vec<u8>> = (encoded.iter().enumerate())
        .map(|(k, e)| frame(magic, &[&pack_name(hash, k), e]))
        .collect();
    let len = packs.iter().map(|p| p.len() as u64).sum();
    let refs = PaperPacks {
        papers,
        per_pack,
        hash,
        len,
    };
    (refs, packs)
}

impl Corpus {
    /// The corpus with its papers' bodies cut into packs of consecutive
    /// papers, `per_pack` each (the last may hold fewer): the head, whose
    /// papers have no bodies and whose [`Corpus::body_packs`] name the
    /// packs, and the packs' bytes.
    pub fn in_body_packs(&self, per_pack: u32) -> (Corpus, Vec<Vec<u8>>) {
        assert!(self.body_packs.is_empty(), "the bodies are in the papers");
        let mut head = self.clone();
        let reasons = std::mem::take(&mut head.reasons);
        let head_too = head.tag_part.is_some();
        let terms = head.similar_terms.clone();
        let bodies: Vec<Body> = head
            .papers
            .iter_mut()
            .map(|p| p.take_body(&reasons, head_too, &terms))
            .collect();
        let (refs, packs) = cut_into_packs(bodies, per_pack, BODY_MAGIC);
        head.body_packs = refs;
        head.drop_terms_if_unread();
        (head, packs)
    }

    /// The papers pack `k` of the bodies holds: from its first to the next one's.
    pub fn body_pack_range(&self, k: usize) -> Option<std::ops::Range<usize>> {
        self.body_packs.range(k)
    }

    /// The pack holding paper `doc`'s body, when the bodies are in packs.
    pub fn body_pack_of(&self, doc: usize) -> Option<usize> {
        self.body_packs.of(doc)
    }

    /// Decodes pack `k` of the bodies: its frame whole, its name the one
    /// asked for, it holds exactly the papers of its range, and every id inside
    /// points at something that exists.
    pub fn decode_body_pack(&self, k: usize, bytes: &[u8]) -> Result<Vec<Body>, DecodeError> {
        let (bodies, range) = decode_pack::<Body>(&self.body_packs, k, BODY_MAGIC, bytes)?;
        let papers = self.papers.len();
        let facets: Vec<usize> = self.facets.iter().map(|f| f.values.len()).collect();
        for (body, paper) in bodies.iter().zip(range) {
            let tags = self.papers[paper].tags.len();
            body.check(paper, papers, body.terms.len(), tags, &facets)
                .map_err(DecodeError::Corrupt)?;
        }
        Ok(bodies)
    }

    /// The whole corpus again from its head and its packs of bodies, each
    /// checked (the single-file build and the native tools, which fetch
    /// nothing).
    pub fn with_bodies(
        mut self,
        mut pack: impl FnMut(PaperPackRef) -> Vec<u8>,
    ) -> Result<Corpus, DecodeError> {
        let mut reasons = Interned::default();
        let mut terms = Interned::from_table(std::mem::take(&mut self.similar_terms));
        for k in 0..self.body_packs.len() {
            let bytes = pack(self.body_packs.get(k).expect("a pack of the corpus"));
            let bodies = self.decode_body_pack(k, &bytes)?;
            let range = self.body_pack_range(k).expect("a pack of the corpus");
            for (paper, body) in self.papers[range].iter_mut().zip(bodies) {
                paper.set_body(body, &mut reasons, &mut terms);
            }
        }
        self.similar_terms = terms.table;
        if !self.body_packs.is_empty() {
            self.reasons = reasons.table;
            // Every paper has its tags back.
            self.tag_part = None;
        }
        self.body_packs = PaperPacks::default();
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::seeds;

    /// The corpus `head` and its `packs` make, joined as the single file
    /// joins them (each pack found by its hash).
    fn joined(head: Corpus, packs: &[Vec<u8>]) -> Corpus {
        let files: std::collections::HashMap<u64, Vec<u8>> = head
            .body_packs
            .iter()
            .zip(packs)
            .map(|(r, b)| (r.hash, b.clone()))
            .collect();
        head.with_bodies(|r| files[&r.hash].clone()).unwrap()
    }

    #[test]
    fn bodies_in_packs_come_back_whole() {
        let corpus = seeds();
        let (head, packs) = corpus.in_body_packs(4);
        assert!(packs.len() > 3, "{} packs", packs.len());
        assert!(head
            .papers
            .iter()
            .all(|p| p.text.is_empty() && p.similar.is_empty() && p.line == 0));
        // Every paper is in exactly one pack.
        for d in 0..head.papers.len() {
            let k = head.body_pack_of(d).unwrap();
            assert!(head.body_pack_range(k).unwrap().contains(&d));
        }
        assert_eq!(joined(head, &packs), corpus);
    }

    /// With the bodies and the map apart, no paper of the head names a
    /// word of the corpus's table: it is left out, each body and the map
    /// bring the words they name, and joined (bodies first, as the single
    /// file joins them) they make the compiler's table again.
    #[test]
    fn with_the_bodies_and_the_map_apart_their_words_travel_with_them() {
        let corpus = seeds();
        assert!(!corpus.similar_terms.is_empty());
        let (head, packs) = corpus.in_body_packs(4);
        assert_eq!(
            head.similar_terms, corpus.similar_terms,
            "the map still reads it"
        );
        let (head, map) = head.map_apart();
        assert!(head.similar_terms.is_empty());
        let part = head.decode_map_part(&map).unwrap();
        for (d, p) in corpus.papers.iter().enumerate() {
            let words: Vec<&str> = (part.keywords[d].iter())
                .map(|&k| part.terms[k as usize].as_str())
                .collect();
            let want: Vec<&str> = (p.keywords.iter())
                .map(|&k| corpus.similar_terms[k as usize].as_str())
                .collect();
            assert_eq!(words, want, "{}", p.id);
        }
        let joined = joined(head, &packs).with_map_part(&map).unwrap();
        assert_eq!(joined, corpus);
    }

    #[test]
    fn the_engine_lends_a_body_once_its_pack_is_in() {
        let corpus = seeds();
        let (head, packs) = corpus.in_body_packs(4);
        let e = crate::Engine::new(head);
        let doc = corpus.papers.len() as u32 - 1;
        assert_eq!(e.body(doc), None);
        let missing = e.missing_card_packs([0, doc, doc]);
        let last = packs.len() as u32 - 1;
        use crate::model::PaperPack::Body;
        assert_eq!(missing, [Body(0), Body(last)]);
        e.add_paper_pack(Body(last), &packs[last as usize]).unwrap();
        let p = &corpus.papers[doc as usize];
        let body = e.body(doc).expect("its pack is in");
        let reasons: Vec<&str> = p.tags.iter().map(|t| corpus.reason(t)).collect();
        assert_eq!(body.reasons, reasons);
        // The head kept its tags and authors (they are not apart here).
        assert!(body.tags.is_empty() && body.authors.is_empty());
        // Its similar papers' terms name words of its own: the same words.
        let shared = |b: BodyRef, table: &[String]| -> Vec<(u32, Vec<String>)> {
            (b.similar.iter())
                .map(|s| (s.doc, b.shared_terms(table, s).map(String::from).collect()))
                .collect()
        };
        assert!(!body.terms.is_empty());
        assert_eq!(shared(body, &[]), shared(p.into(), &corpus.similar_terms));
        assert_eq!(
            BodyRef {
                reasons: &[],
                tags: &p.tags,
                authors: &p.authors,
                similar: &p.similar,
                terms: &[],
                ..body
            },
            p.into()
        );
        assert_eq!(e.missing_card_packs([0, doc]), [Body(0)]);
        // Searching needs no body: the words are in the index.
        let words: String = p
            .text
            .split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ");
        let found = e.search(&words, &e.no_selection(), crate::Sort::Relevance);
        assert!(found.docs().contains(&doc), "{words}");
    }

    #[test]
    fn with_the_tags_apart_a_body_brings_its_papers_tags_and_authors() {
        let corpus = seeds();
        let (apart, _) = corpus.tags_apart();
        let (head, packs) = apart.in_body_packs(4);
        assert!(head
            .papers
            .iter()
            .all(|p| p.tags.is_empty() && p.authors.is_empty()));
        let e = crate::Engine::new(head.clone());
        let doc = corpus.papers.len() as u32 - 1;
        let p = &corpus.papers[doc as usize];
        assert!(!p.tags.is_empty());
        let head_paper = &e.corpus.papers[doc as usize];
        assert!(head_paper.tags_with(e.body(doc)).is_empty());
        let k = e.missing_card_packs([doc])[0];
        let crate::model::PaperPack::Body(b) = k else {
            panic!("{k:?}")
        };
        e.add_paper_pack(k, &packs[b as usize]).unwrap();
        let body = e.body(doc).unwrap();
        assert_eq!(head_paper.tags_with(Some(body)).len(), p.tags.len());
        assert_eq!(head_paper.authors_with(Some(body)), p.authors);
        // The single file joins them back: the corpus as it was.
        assert_eq!(joined(head, &packs), corpus);
    }

    #[test]
    fn another_packs_bytes_or_a_damaged_pack_are_errors() {
        let (head, packs) = seeds().in_body_packs(4);
        let mismatch = DecodeError::Corrupt(Corrupt::PackMismatch);
        assert_eq!(head.decode_body_pack(0, &packs[1]), Err(mismatch.clone()));
        let mut damaged = packs[0].clone();
        let last = damaged.len() - 1;
        damaged[last] ^= 1;
        let checksum = DecodeError::Corrupt(Corrupt::Checksum);
        assert_eq!(head.decode_body_pack(0, &damaged), Err(checksum));
        assert_eq!(
            head.decode_body_pack(packs.len(), &packs[0]),
            Err(mismatch.clone())
        );
        // Another build's first pack, the same papers' bodies, of a list
        // whose last paper differs: its name is not this build's.
        let mut other = seeds();
        other.papers.last_mut().unwrap().text.push_str(" More.");
        let (_, theirs) = other.in_body_packs(4);
        assert_eq!(head.decode_body_pack(0, &theirs[0]), Err(mismatch));
        assert!(head.decode_body_pack(0, &packs[0]).is_ok());
    }
}
