//! Find by meaning, offline: a static embedding table distilled once from
//! the sentence-embedding model all-MiniLM-L6-v2 (`tools/distill`), one
//! vector per WordPiece token. A text's vector is the sum of its tokens'
//! vectors, each weighted by how rare the token is in the corpus (BM25's
//! inverse document frequency); papers are embedded at build time, a query
//! in the page, and cosine similarity ranks papers by how close they are in
//! meaning, whether or not they share a word.
//!
//! The data ships as its own content-hashed file (a frame like the
//! corpus's: magic, version, checksum, pieces), fetched after the first
//! results.

pub mod lists;
pub mod wordpiece;

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::model::{frame, nothing_after, unframe, Corrupt, DecodeError, Paper};
use crate::search::index::Bytes;
use wordpiece::Vocab;

/// File magic of the meaning file (`\x04`: a long list's paper vectors
/// in lists, [`lists`]; `\x03` the papers' vectors product-quantized
/// too, `\x02` the tokens').
pub const MAGIC: &[u8; 4] = b"PXE\x04";

/// How many words explain why a paper is related.
pub const EXPLAIN_WORDS: usize = 3;

/// Centroids per subspace of the product quantization: one byte per code.
pub const CENTROIDS: usize = 256;

/// The fields of the meaning file besides its byte arrays.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Header {
    dims: u16,
    unknown: u32,
    papers: u32,
    /// The length of each subspace of the tokens' product quantization
    /// (summing to `dims`).
    subspaces: Vec<u8>,
    /// The same for the papers' vectors ([`Meaning::papers`]).
    paper_subspaces: Vec<u8>,
    /// Per token id, how many papers hold the token: the weights follow
    /// from it ([`token_weight`]), and it compresses to almost nothing
    /// (most tokens are in no paper).
    df: Vec<u32>,
    /// The tokens without a vector (numbers, punctuation), ascending.
    mute: Vec<u32>,
    /// Per paper, its list, when the papers' vectors come in lists
    /// ([`lists`]); empty when they are in this file.
    lists: Vec<u16>,
    /// Per list, the hash of its file.
    list_hashes: Vec<u64>,
}

/// The token vectors as shipped: product quantization. Each vector is cut
/// into subspaces, each piece stored as the index of one of
/// [`CENTROIDS`] centroids learnt for its place (`tools/distill/compact.py`):
/// one byte per subspace instead of one per dimension.
#[derive(Debug, Clone)]
pub struct Quantized {
    /// The length of each subspace.
    pub subspaces: Vec<u8>,
    /// Per subspace, `CENTROIDS` × its length int8 values.
    pub books: Bytes,
    /// Per token, one code per subspace.
    pub codes: Bytes,
}

impl Quantized {
    /// Checks the sizes against `dims` and the token count.
    pub fn check(&self, dims: usize, tokens: usize) -> Result<(), &'static str> {
        let total: usize = self.subspaces.iter().map(|&l| usize::from(l)).sum();
        if total != dims || self.subspaces.contains(&0) {
            return Err("subspaces");
        }
        if self.books.len() != CENTROIDS * dims {
            return Err("codebooks");
        }
        if self.codes.len() != tokens * self.subspaces.len() {
            return Err("codes");
        }
        Ok(())
    }

    /// Where each subspace's codebook starts in `books`.
    fn book_starts(&self) -> Vec<usize> {
        let mut at = 0;
        (self.subspaces.iter())
            .map(|&l| {
                let start = at;
                at += CENTROIDS * usize::from(l);
                start
            })
            .collect()
    }

    /// How many vectors are coded.
    pub fn count(&self) -> usize {
        self.codes.len() / self.subspaces.len().max(1)
    }

    /// Per subspace and centroid (`CENTROIDS` a subspace), the dot
    /// product of `q`'s piece with the centroid (its int8 values / 127):
    /// a coded vector's dot product with `q` is the sum of one entry per
    /// subspace ([`Quantized::dot_all`]).
    fn lookup(&self, q: &[f32]) -> Vec<f32> {
        let mut lut = Vec::with_capacity(self.subspaces.len() * CENTROIDS);
        let mut dim = 0;
        for (&l, start) in self.subspaces.iter().zip(self.book_starts()) {
            let l = usize::from(l);
            let piece = &q[dim..dim + l];
            for centroid in self.books[start..start + CENTROIDS * l].chunks_exact(l) {
                let dot: f32 = (piece.iter().zip(centroid))
                    .map(|(&x, &b)| x * f32::from(b as i8))
                    .sum();
                lut.push(dot / 127.0);
            }
            dim += l;
        }
        lut
    }

    /// Every coded vector's dot product with `q` (`dims` long), its int8
    /// values read as / 127 (a stored unit vector's cosine with a unit
    /// `q`), in order: one table look-up per subspace and vector.
    pub fn dot_all(&self, q: &[f32]) -> Vec<f32> {
        Dots::new(self.lookup(q)).of(&self.codes).collect()
    }

    /// Adds the `i`th coded vector (its int8 values) to `v` (`dims` long);
    /// false past the last one.
    pub fn add_to(&self, i: usize, v: &mut [f32]) -> bool {
        let m = self.subspaces.len();
        match self.codes.get(i * m..(i + 1) * m) {
            Some(codes) => {
                self.add_codes(codes, v);
                true
            }
            None => false,
        }
    }

    /// Adds the vector `codes` (one per subspace) stands for to `v`.
    fn add_codes(&self, codes: &[u8], v: &mut [f32]) {
        for (a, b) in v.iter_mut().zip(self.decode(codes, &self.book_starts())) {
            *a += f32::from(b as i8);
        }
    }

    /// The code of `v` (`dims` long) in each subspace: its piece's
    /// nearest centroid (what the build codes papers and list centres by).
    #[cfg(feature = "compile")]
    pub(crate) fn code(&self, v: &[f32]) -> Vec<u8> {
        let mut dim = 0;
        (self.subspaces.iter().zip(self.book_starts()))
            .map(|(&l, start)| {
                let l = usize::from(l);
                let piece = &v[dim..dim + l];
                dim += l;
                let book = &self.books[start..start + CENTROIDS * l];
                let far = |c: &[u8]| -> f32 {
                    (piece.iter().zip(c))
                        .map(|(&x, &b)| (x - f32::from(b as i8) / 127.0).powi(2))
                        .sum()
                };
                let mut best = (f32::INFINITY, 0u8);
                for (i, c) in book.chunks_exact(l).enumerate() {
                    let d = far(c);
                    if d < best.0 {
                        best = (d, i as u8);
                    }
                }
                best.1
            })
            .collect()
    }

    /// The int8 values of the vector `codes` (one per subspace) stands
    /// for, dimension by dimension; `starts` from [`Quantized::book_starts`].
    fn decode<'a>(&'a self, codes: &'a [u8], starts: &'a [usize]) -> impl Iterator<Item = u8> + 'a {
        (codes.iter().zip(&self.subspaces).zip(starts)).flat_map(move |((&c, &l), &start)| {
            let l = usize::from(l);
            let from = start + usize::from(c) * l;
            self.books[from..from + l].iter().copied()
        })
    }

    /// Every token's vector rebuilt from its codes (`dims` int8 each), as
    /// the page ranks with; sizes checked by [`Quantized::check`].
    pub fn table(&self, dims: usize) -> Vec<u8> {
        let m = self.subspaces.len();
        let starts = self.book_starts();
        let mut table = Vec::with_capacity(self.codes.len() / m.max(1) * dims);
        for codes in self.codes.chunks_exact(m) {
            table.extend(self.decode(codes, &starts));
        }
        table
    }
}

/// A query's dot products with coded vectors: one table per subspace,
/// indexed by a code ([`Quantized::lookup`]).
struct Dots {
    lut: Vec<f32>,
    m: usize,
}

impl Dots {
    fn new(lut: Vec<f32>) -> Dots {
        let m = lut.len() / CENTROIDS;
        Dots { lut, m }
    }

    /// The dot product of each vector of `codes` (one code a subspace,
    /// vector after vector), in order.
    fn of<'a>(&'a self, codes: &'a [u8]) -> impl Iterator<Item = f32> + 'a {
        // A table per subspace, indexed by a byte: no bounds to check.
        let tables: Vec<&[f32; CENTROIDS]> = (self.lut.chunks_exact(CENTROIDS))
            .filter_map(|t| t.try_into().ok())
            .collect();
        codes.chunks_exact(self.m.max(1)).map(move |codes| {
            (codes.iter().zip(&tables))
                .map(|(&c, t)| t[usize::from(c)])
                .sum()
        })
    }
}

/// What the page finds by meaning with: the vocabulary, each token's
/// vector and weight, and each paper's vector.
///
/// The token vectors are rebuilt from their codes when the file is read
/// (3.9 MB for the 30,522 tokens), and the vocabulary's index from its
/// text; the rest is borrowed from the page's copy of the file
/// ([`Meaning::from_static`]): WebAssembly memory never shrinks, so a copy
/// beside it would stay.
pub struct Meaning {
    pub(crate) dims: usize,
    /// Token id → token, one per line (a token the page leaves out is an
    /// empty line): 40 % smaller compressed than an `fst` automaton.
    pub(crate) tokens: Bytes,
    /// Token → token id: each token's place in `tokens` (start, end, id),
    /// sorted by the token, for a binary search (no automaton builder in
    /// the page: 21 KB of WebAssembly, brotli).
    pub(crate) vocab: Vec<(u32, u32, u32)>,
    pub(crate) unknown: u32,
    /// Per token id, how many papers hold it.
    pub(crate) df: Vec<u32>,
    /// The tokens without a vector, ascending: their weight is zero.
    pub(crate) mute: Vec<u32>,
    pub(crate) weights: Vec<f32>,
    /// The token vectors as shipped.
    pub(crate) quantized: Quantized,
    /// Token vectors, `dims` int8 each, rebuilt from `quantized`.
    pub(crate) table: Bytes,
    /// The papers' vectors (unit length × 127), product-quantized with
    /// codebooks learnt from them at build time: a byte per four
    /// dimensions, not one per dimension (at 100,000 papers, 3.2 MB of
    /// the file instead of 12.8). From [`lists::LISTS_FROM`] papers their
    /// codes are in `lists` instead, and `papers.codes` is empty.
    pub(crate) papers: Quantized,
    /// A long list's paper vectors, in lists fetched when a query first
    /// needs them.
    pub(crate) lists: Option<lists::Lists>,
}

impl std::fmt::Debug for Meaning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Meaning")
            .field("dims", &self.dims)
            .field("tokens", &self.weights.len())
            .field("papers", &self.paper_count())
            .finish()
    }
}

impl Vocab for Meaning {
    fn id(&self, token: &str) -> Option<u32> {
        let at = |s: u32, e: u32| &self.tokens[s as usize..e as usize];
        let i = (self.vocab)
            .binary_search_by(|&(s, e, _)| at(s, e).cmp(token.as_bytes()))
            .ok()?;
        Some(self.vocab[i].2).filter(|&v| (v as usize) < self.weights.len())
    }

    fn unknown(&self) -> u32 {
        self.unknown
    }
}

/// A unit vector in the meaning space.
pub type Vector = Vec<f32>;

/// The index of a vocabulary written one token per line, token id = line
/// number: each token's (start, end, id), sorted by the token; empty lines
/// are left out, and of two equal tokens the first is kept.
pub(crate) fn vocabulary(lines: &[u8]) -> Vec<(u32, u32, u32)> {
    let mut index = Vec::new();
    let mut start = 0;
    for (id, line) in lines.split(|&b| b == b'\n').enumerate() {
        if !line.is_empty() {
            // The file is far below 4 GB: u32 offsets and ids.
            index.push((start as u32, (start + line.len()) as u32, id as u32));
        }
        start += line.len() + 1;
    }
    let token = |&(s, e, _): &(u32, u32, u32)| &lines[s as usize..e as usize];
    index.sort_by(|a, b| token(a).cmp(token(b)).then(a.2.cmp(&b.2)));
    index.dedup_by(|a, b| token(a) == token(b));
    index
}

/// A prior on how telling a token is, from its rank in the vocabulary:
/// BERT's WordPiece vocabulary lists whole words from the most frequent
/// (`the`, id 1996) down, so a later id is a rarer word (Zipf's law).
fn zipf(id: usize) -> f32 {
    crate::model::math::ln(2.0 + id.saturating_sub(1995) as f32)
}

/// A token's weight among `papers` papers of which `df` hold it: its
/// inverse document frequency (BM25's) times its rank prior ([`zipf`]).
/// Measured on the judged queries (`./dev eval-meaning`): the product beats
/// either alone (hybrid recall@10 0.85 against 0.78 and 0.78).
fn token_weight(id: usize, df: u32, papers: usize) -> f32 {
    let (n, d) = (papers as f32, df as f32);
    crate::model::math::ln(1.0 + (n - d + 0.5) / (d + 0.5)) * zipf(id)
}

/// Every token's weight ([`token_weight`]), zero for those without a
/// vector (`mute`, ids below `df.len()`).
pub(crate) fn weights(df: &[u32], mute: &[u32], papers: usize) -> Vec<f32> {
    let mut w: Vec<f32> = (df.iter().enumerate())
        .map(|(id, &d)| token_weight(id, d, papers))
        .collect();
    for &id in mute {
        w[id as usize] = 0.0;
    }
    w
}

impl Meaning {
    /// The meaning file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let header = postcard::to_allocvec(&Header {
            dims: self.dims as u16,
            unknown: self.unknown,
            papers: self.paper_count() as u32,
            subspaces: self.quantized.subspaces.clone(),
            paper_subspaces: self.papers.subspaces.clone(),
            df: self.df.clone(),
            mute: self.mute.clone(),
            lists: self
                .lists
                .as_ref()
                .map_or(Vec::new(), |l| l.of_paper.clone()),
            list_hashes: self.lists.as_ref().map_or(Vec::new(), |l| l.hashes.clone()),
        })
        .expect("header serializes");
        let centres = self.lists.as_ref().map_or(&[][..], |l| &l.centres[..]);
        frame(
            MAGIC,
            &[
                &header,
                &self.tokens[..],
                &self.quantized.books[..],
                &self.quantized.codes[..],
                &self.papers.books[..],
                &self.papers.codes[..],
                centres,
            ],
        )
    }

    /// The files of the papers' vectors in lists, in list order (none when
    /// they are in the meaning file); lists not in are left out.
    pub fn list_files(&self) -> Vec<Vec<u8>> {
        let Some(lists) = &self.lists else {
            return Vec::new();
        };
        (0..lists.count())
            .filter_map(|l| Some(lists::Lists::file(lists.codes(l)?)))
            .collect()
    }

    /// The files of the papers' vectors a meaning file names, with their
    /// sizes, read from its header alone (no table is built): what saving
    /// for offline use fetches besides it.
    pub fn list_files_named(bytes: &[u8]) -> Result<Vec<(String, usize)>, DecodeError> {
        let ([header, ..], _) = unframe::<7>(MAGIC, bytes)?;
        let h: Header =
            postcard::from_bytes(header).map_err(|e| DecodeError::Corrupt(Corrupt::Encoding(e)))?;
        let m = h.paper_subspaces.len();
        let named = lists::Lists::new(h.lists, Bytes::default(), h.list_hashes)
            .ok_or(DecodeError::Corrupt(Corrupt::Meaning("a paper's list")))?;
        Ok((named.hashes.iter().enumerate())
            .map(|(l, &hash)| (lists::vectors_file_name(hash), named.file_len(l, m)))
            .collect())
    }

    /// Reads a meaning file, checking that every piece has the size the
    /// header says.
    pub fn from_bytes(bytes: &[u8]) -> Result<Meaning, DecodeError> {
        Meaning::decode(bytes, |s| Cow::Owned(s.to_vec()))
    }

    /// Reads a meaning file that lives as long as the program: its arrays
    /// are used where they lie.
    pub fn from_static(bytes: &'static [u8]) -> Result<Meaning, DecodeError> {
        Meaning::decode(bytes, Cow::Borrowed)
    }

    fn decode<'a>(
        bytes: &'a [u8],
        keep: impl Fn(&'a [u8]) -> Bytes,
    ) -> Result<Meaning, DecodeError> {
        let ([header, vocab, books, codes, paper_books, paper_codes, centres], rest) =
            unframe::<7>(MAGIC, bytes)?;
        nothing_after(rest)?;
        let corrupt = |what: &'static str| DecodeError::Corrupt(Corrupt::Meaning(what));
        let h: Header =
            postcard::from_bytes(header).map_err(|e| DecodeError::Corrupt(Corrupt::Encoding(e)))?;
        let dims = usize::from(h.dims);
        let tokens = h.df.len();
        if dims == 0 || (h.unknown as usize) >= tokens {
            return Err(corrupt("header"));
        }
        if h.df.iter().any(|&d| d > h.papers) {
            return Err(corrupt("token counts"));
        }
        if h.mute.iter().any(|&id| id as usize >= tokens) {
            return Err(corrupt("tokens without a vector"));
        }
        let quantized = Quantized {
            subspaces: h.subspaces,
            books: keep(books),
            codes: keep(codes),
        };
        quantized.check(dims, tokens).map_err(corrupt)?;
        let papers = Quantized {
            subspaces: h.paper_subspaces,
            books: keep(paper_books),
            codes: keep(paper_codes),
        };
        let lists = if h.list_hashes.is_empty() {
            papers
                .check(dims, h.papers as usize)
                .map_err(|_| corrupt("paper vectors"))?;
            None
        } else {
            let m = papers.subspaces.len();
            let fits = papers.check(dims, 0).is_ok()
                && h.lists.len() == h.papers as usize
                && centres.len() == h.list_hashes.len() * m;
            if !fits {
                return Err(corrupt("paper vectors' lists"));
            }
            Some(
                lists::Lists::new(h.lists, keep(centres), h.list_hashes)
                    .ok_or(corrupt("a paper's list"))?,
            )
        };
        if vocab.split(|&b| b == b'\n').count() != tokens {
            return Err(corrupt("vocabulary"));
        }
        let n = h.papers as usize;
        Ok(Meaning {
            dims,
            vocab: vocabulary(vocab),
            tokens: keep(vocab),
            unknown: h.unknown,
            weights: weights(&h.df, &h.mute, n),
            df: h.df,
            mute: h.mute,
            table: quantized.table(dims).into(),
            quantized,
            papers,
            lists,
        })
    }

    /// How many papers have a vector.
    pub(crate) fn paper_count(&self) -> usize {
        match &self.lists {
            Some(lists) => lists.of_paper.len(),
            None => self.papers.count(),
        }
    }

    /// How many lists the papers' vectors come in (0 when they are in the
    /// meaning file).
    pub fn list_count(&self) -> usize {
        self.lists.as_ref().map_or(0, lists::Lists::count)
    }

    /// Whether list `l` of the papers' vectors is in (or the vectors are
    /// all in the meaning file).
    pub fn has_list(&self, l: u32) -> bool {
        self.lists
            .as_ref()
            .is_none_or(|lists| lists.has(l as usize))
    }

    /// The file of list `l`, beside the meaning file.
    pub fn list_file(&self, l: u32) -> Option<String> {
        let hash = self.lists.as_ref()?.hashes.get(l as usize)?;
        Some(lists::vectors_file_name(*hash))
    }

    /// Adds list `l` of the papers' vectors from its file's bytes; a file
    /// that is not the one the meaning file names is refused.
    pub fn add_list(&self, l: u32, bytes: Bytes) -> Result<(), DecodeError> {
        let lists = (self.lists.as_ref()).ok_or(DecodeError::Corrupt(Corrupt::PackMismatch))?;
        lists.add(l as usize, bytes, self.papers.subspaces.len())
    }

    /// The lists not in, each with its file's size: what saving for
    /// offline use fetches.
    pub fn lists_not_in(&self) -> Vec<(u32, usize)> {
        let Some(lists) = &self.lists else {
            return Vec::new();
        };
        let m = self.papers.subspaces.len();
        (0..lists.count())
            .filter(|&l| !lists.has(l))
            .map(|l| (l as u32, lists.file_len(l, m)))
            .collect()
    }

    /// The lists a ranking needed since last asked and did not have: the
    /// page fetches them, and ranks again once they are in.
    pub fn take_wanted_lists(&self) -> Vec<u32> {
        self.lists
            .as_ref()
            .map_or(Vec::new(), lists::Lists::take_wanted)
    }

    /// Whether a token id has a vector and a weight of its own (not the
    /// unknown token, not past the table).
    fn known(&self, id: u32) -> bool {
        id != self.unknown && (id as usize) < self.weights.len()
    }

    /// A token's stored vector: `dims` int8 values (unit length × 127).
    fn token_row(&self, id: u32) -> &[u8] {
        let at = id as usize * self.dims;
        &self.table[at..at + self.dims]
    }

    fn token(&self, id: u32) -> impl Iterator<Item = f32> + '_ {
        self.token_row(id)
            .iter()
            .map(|&b| f32::from(b as i8) / 127.0)
    }

    /// The vector of a bag of tokens: each distinct token once (a query),
    /// or weighted by `1 + ln(count)` (a paper), times its weight.
    pub(crate) fn sum(&self, ids: &[u32], by_count: bool) -> Option<Vector> {
        let mut ids = ids.to_vec();
        ids.sort_unstable();
        let mut v = vec![0f32; self.dims];
        let mut i = 0;
        while i < ids.len() {
            let id = ids[i];
            let n = ids[i..].iter().take_while(|&&x| x == id).count();
            i += n;
            if !self.known(id) {
                continue;
            }
            let w = self.weights[id as usize]
                * if by_count {
                    1.0 + crate::model::math::ln(n as f32)
                } else {
                    1.0
                };
            for (a, b) in v.iter_mut().zip(self.token(id)) {
                *a += w * b;
            }
        }
        unit(v)
    }

    /// A query's vector (`None` for a text with no known token).
    pub fn embed_query(&self, text: &str) -> Option<Vector> {
        self.sum(&wordpiece::tokenize(text, self), false)
    }

    /// Cosine similarity of every paper with `q` (a unit vector), in paper
    /// order, as the papers' vectors are shipped.
    ///
    /// When the vectors are in lists ([`lists`]), the papers of the lists
    /// nearest `q` ([`lists::Lists::probe`]) are scored exactly, once
    /// their list is in (else it is wanted: [`Meaning::take_wanted_lists`]),
    /// and every other paper by its list's centre.
    pub fn similarities(&self, q: &[f32]) -> Vec<f32> {
        let Some(lists) = &self.lists else {
            return self.papers.dot_all(q);
        };
        let dots = Dots::new(self.papers.lookup(q));
        let coarse: Vec<f32> = dots.of(&lists.centres).collect();
        let mut sims: Vec<f32> = (lists.of_paper.iter())
            .map(|&l| coarse[usize::from(l)])
            .collect();
        for l in lists.probe(&coarse) {
            match lists.codes(l) {
                Some(codes) => {
                    for (&d, s) in lists.members(l).iter().zip(dots.of(codes)) {
                        sims[d as usize] = s;
                    }
                }
                None => lists.want(l),
            }
        }
        sims
    }

    /// The vector of a set of papers: the mean of theirs (the reading list's
    /// centre), or `None` when there is none.
    ///
    /// When the vectors are in lists, `None` until the lists of `docs` are
    /// in (they are wanted: [`Meaning::take_wanted_lists`]).
    pub fn centre(&self, docs: &[u32]) -> Option<Vector> {
        let mut v = vec![0f32; self.dims];
        let mut any = false;
        let mut missing = false;
        let m = self.papers.subspaces.len();
        for &d in docs {
            let Some(lists) = &self.lists else {
                any |= self.papers.add_to(d as usize, &mut v);
                continue;
            };
            let Some(&l) = lists.of_paper.get(d as usize) else {
                continue;
            };
            let l = usize::from(l);
            let at = lists.members(l).binary_search(&d).ok();
            match (lists.codes(l), at) {
                (Some(codes), Some(i)) => {
                    self.papers.add_codes(&codes[i * m..(i + 1) * m], &mut v);
                    any = true;
                }
                _ => {
                    lists.want(l);
                    missing = true;
                }
            }
        }
        if any && !missing {
            unit(v)
        } else {
            None
        }
    }

    /// Explains papers' relation to the query vector `q`: why each is
    /// related ([`Explainer::explain`]), several papers for the price of one.
    pub fn explainer(&self, q: &[f32]) -> Explainer<'_> {
        Explainer {
            meaning: self,
            q: quantize_query(q),
            score: vec![f32::NAN; self.weights.len()],
        }
    }
}

/// Why papers are related to one query: each token's weighted cosine with
/// the query is computed once, however many papers bring it back (a
/// paper's words are tokenized once, [`PaperWords`]). Ten related papers took 3 ms a keystroke in the page when each
/// paper recomputed its own (the bench's CPU profile on the seeds).
pub struct Explainer<'a> {
    meaning: &'a Meaning,
    /// The query, quantized as the vectors are.
    q: Vec<i16>,
    /// Per token id, its weight times its cosine with the query, or NaN
    /// until needed: most words of an abstract are in the others too.
    score: Vec<f32>,
}

/// From an int8 dot product of two unit vectors (each × 127) to their cosine.
const COSINE_SCALE: f32 = 1.0 / (127.0 * 127.0);

/// A unit vector as the stored ones are: each component × 127, rounded.
fn quantize_query(q: &[f32]) -> Vec<i16> {
    q.iter()
        .map(|&x| (x * 127.0).round().clamp(-127.0, 127.0) as i16)
        .collect()
}

/// The dot product of a stored int8 vector with a quantized one: 128-bit
/// SIMD in the page (sixteen components a step), plain elsewhere.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn dot_i8(v: &[u8], q: &[i16]) -> i32 {
    use core::arch::wasm32::*;
    let mut acc = i32x4_splat(0);
    let (mut vs, mut qs) = (v.chunks_exact(16), q.chunks_exact(16));
    for (a, b) in (&mut vs).zip(&mut qs) {
        // SAFETY: `a` holds 16 bytes and `b` 16 `i16`s (32 bytes); each load
        // reads 16 bytes inside its slice, and `v128_load` needs no alignment.
        let (a, b0, b1) = unsafe {
            (
                v128_load(a.as_ptr().cast()),
                v128_load(b.as_ptr().cast()),
                v128_load(b.as_ptr().add(8).cast()),
            )
        };
        acc = i32x4_add(acc, i32x4_dot_i16x8(i16x8_extend_low_i8x16(a), b0));
        acc = i32x4_add(acc, i32x4_dot_i16x8(i16x8_extend_high_i8x16(a), b1));
    }
    let tail = dot_i8_scalar(vs.remainder(), qs.remainder());
    i32x4_extract_lane::<0>(acc)
        + i32x4_extract_lane::<1>(acc)
        + i32x4_extract_lane::<2>(acc)
        + i32x4_extract_lane::<3>(acc)
        + tail
}

/// The dot product of a stored int8 vector with a quantized one.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn dot_i8(v: &[u8], q: &[i16]) -> i32 {
    dot_i8_scalar(v, q)
}

/// [`dot_i8`] one component at a time (and the SIMD version's tail).
fn dot_i8_scalar(v: &[u8], q: &[i16]) -> i32 {
    v.iter()
        .zip(q)
        .map(|(&b, &x)| i32::from(b as i8) * i32::from(x))
        .sum()
}

/// A paper's words that can explain why it is related: each distinct word
/// of three letters or more, with the ids of its WordPiece tokens. Worked
/// out once per paper ([`Meaning::paper_words`]) and kept by the engine, as
/// the same papers come back keystroke after keystroke.
///
/// Three flat arrays, not a `String` and a `Vec` per word: natively, on
/// 1,000 papers of the 20,000-paper synthetic list (a one-off timing with
/// a counting allocator), 3.1 KB a paper instead of 12.6 KB, and 0.3 ms to
/// free them all instead of 10–17 ms. The
/// engine's bounded cache frees every kept paper at once when it is full,
/// and that keystroke paid for it.
#[derive(Debug, Clone, Default)]
pub struct PaperWords {
    /// The words, one after another.
    text: Box<str>,
    /// Per word, where it ends in `text` and where its tokens end in
    /// `pieces`.
    ends: Box<[(u32, u32)]>,
    /// Every word's token ids, one word after another.
    pieces: Box<[u32]>,
}

impl PaperWords {
    /// Each word with its token ids, in the paper's order.
    pub fn words(&self) -> impl Iterator<Item = (&str, &[u32])> + '_ {
        let mut from = (0, 0);
        self.ends.iter().map(move |&(word_end, pieces_end)| {
            let (w, p) = (word_end as usize, pieces_end as usize);
            let item = (&self.text[from.0..w], &self.pieces[from.1..p]);
            from = (w, p);
            item
        })
    }
}

/// The WordPiece tokens of words already met, kept across papers: most
/// words of an abstract were in the abstracts explained before it, and
/// looking them up again was most of a related paper's cost (`cargo bench`,
/// related by meaning at 20,000 papers: 2.26 → 1.55 ms per prefix).
#[derive(Debug, Default)]
pub struct PiecesMemo {
    ids: std::collections::HashMap<String, Box<[u32]>>,
}

/// At most this many words in a [`PiecesMemo`] (a few MB); then it starts
/// again.
const MEMO_WORDS: usize = 50_000;

impl Meaning {
    /// The words of `text` an [`Explainer`] weighs, tokenized once.
    pub fn paper_words(&self, text: &str) -> PaperWords {
        self.paper_words_with(text, &mut PiecesMemo::default())
    }

    /// [`Meaning::paper_words`], each word's tokens looked up in `memo`
    /// first (and kept there).
    pub fn paper_words_with(&self, text: &str, memo: &mut PiecesMemo) -> PaperWords {
        let mut seen = std::collections::HashSet::new();
        let (mut words, mut ends, mut pieces) = (String::new(), Vec::new(), Vec::new());
        for w in wordpiece::words(text) {
            if w.normal.len() < 3 || !w.normal.chars().all(char::is_alphabetic) {
                continue;
            }
            if seen.contains(w.normal.as_str()) {
                continue;
            }
            match memo.ids.get(&w.normal) {
                Some(ids) => pieces.extend_from_slice(ids),
                None => {
                    let mut ids = Vec::new();
                    wordpiece::pieces(&w.normal, self, &mut ids);
                    ids.retain(|&id| self.known(id));
                    pieces.extend_from_slice(&ids);
                    if memo.ids.len() >= MEMO_WORDS {
                        memo.ids.clear();
                    }
                    memo.ids.insert(w.normal.clone(), ids.into_boxed_slice());
                }
            }
            words.push_str(&w.normal);
            // A paper's text is far below 4 GB: a u32 holds every offset.
            ends.push((words.len() as u32, pieces.len() as u32));
            seen.insert(w.normal);
        }
        PaperWords {
            text: words.into_boxed_str(),
            ends: ends.into_boxed_slice(),
            pieces: pieces.into_boxed_slice(),
        }
    }
}

impl Explainer<'_> {
    /// A token's weight times its cosine with the query.
    fn token_score(&mut self, id: u32) -> f32 {
        let i = id as usize;
        if self.score[i].is_nan() {
            let m = self.meaning;
            self.score[i] = m.weights[i] * dot_i8(m.token_row(id), &self.q) as f32 * COSINE_SCALE;
        }
        self.score[i]
    }

    /// The words of a paper (already tokenized) closest in meaning to the
    /// query, best first. A word counts by its best piece's weight times
    /// that piece's cosine with the query (stop words weigh next to
    /// nothing).
    pub fn explain_words(&mut self, words: &PaperWords) -> Vec<String> {
        let mut scored: Vec<(f32, &str)> = Vec::new();
        for (word, ids) in words.words() {
            let score = ids
                .iter()
                .map(|&id| self.token_score(id))
                .fold(f32::MIN, f32::max);
            if score > 0.0 {
                scored.push((score, word));
            }
        }
        scored.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
        scored
            .into_iter()
            .take(EXPLAIN_WORDS)
            .map(|(_, w)| w.to_string())
            .collect()
    }
}

/// The text of a paper that is embedded: a real title and the abstract (a
/// derived title only restates the abstract).
pub fn paper_text(p: &Paper) -> String {
    paper_text_with(p, &p.title, &p.text)
}

/// [`paper_text`] with the title and the abstract given apart (from their
/// packs).
pub fn paper_text_with(p: &Paper, title: &str, text: &str) -> String {
    if p.title_derived {
        text.to_string()
    } else {
        format!("{title}\n{text}")
    }
}

/// `v` scaled to unit length, or `None` for the zero vector.
pub(crate) fn unit(mut v: Vector) -> Option<Vector> {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm <= f32::MIN_POSITIVE || !norm.is_finite() {
        return None;
    }
    for x in &mut v {
        *x /= norm;
    }
    Some(v)
}
