//! A long list's paper vectors in lists, an inverted-file index over
//! centres: the build groups papers near in meaning (k-means on their
//! vectors) and writes each group's codes to a file of its own
//! (`vectors-<hash>.bin`), named by the meaning file with its centre. A
//! query ranks the centres, then reads the nearest lists until they hold
//! [`PROBE_PAPERS`] papers: those papers are scored exactly, the others
//! by their list's centre (the mean of its papers' cosines with the
//! query). At 100,000 papers, a query reads about 2 % of the vectors
//! (up to 16 files of 4 KB) instead of all of them (3.2 MB); the page
//! fetches a list when a ranking first needs it.

use std::collections::BTreeSet;
use std::sync::{Mutex, OnceLock};

use crate::model::{Corrupt, DecodeError};
use crate::search::index::Bytes;

/// From this many papers the papers' vectors come in lists (below, they
/// are in the meaning file, and every paper is scored exactly).
pub const LISTS_FROM: usize = 10_000;

/// Papers per list, on average: the build makes `papers / LIST_PAPERS`
/// lists (rounded up). A list's file is about 4 KB (32 bytes a paper).
pub const LIST_PAPERS: usize = 128;

/// A query reads its nearest lists until they hold this many papers (at
/// least one list): at most 64 KB of codes a new query. What it costs:
/// on the real list cut into lists (3,891 papers, so a query reads about
/// half), its titles typed as queries find their paper among the ten
/// nearest by meaning alone 808 times in 973, against 877 reading every
/// vector (`tests/native/meaning.rs`).
pub const PROBE_PAPERS: usize = 2_048;

/// File magic of a list's vectors.
pub const VECTORS_MAGIC: &[u8; 4] = b"PXV\x01";

/// The file name of a list's vectors, from its hash.
pub fn vectors_file_name(hash: u64) -> String {
    crate::model::file_name("vectors", hash)
}

/// The papers' vectors in lists ([`crate::search::Meaning`] holds them).
#[derive(Debug)]
pub(crate) struct Lists {
    /// Per paper, its list.
    pub(crate) of_paper: Vec<u16>,
    /// Per list, where its papers start in `members`; one more marks the end.
    starts: Vec<u32>,
    /// Every list's papers, ascending, one list after another.
    members: Vec<u32>,
    /// Per list, its centre, coded as the papers are (one code a subspace).
    pub(crate) centres: Bytes,
    /// Per list, the xxh3-64 of its file.
    pub(crate) hashes: Vec<u64>,
    /// Per list, its papers' codes (in `members`' order), once in.
    codes: Vec<OnceLock<Bytes>>,
    /// Lists a ranking needed and did not have, for the page to fetch.
    wanted: Mutex<BTreeSet<u32>>,
}

impl Lists {
    /// The lists of `of_paper` (each paper's list, below `hashes.len()`),
    /// none of them in yet; `None` when a paper names no list.
    pub(crate) fn new(of_paper: Vec<u16>, centres: Bytes, hashes: Vec<u64>) -> Option<Lists> {
        let count = hashes.len();
        let mut sizes = vec![0u32; count];
        for &l in &of_paper {
            *sizes.get_mut(usize::from(l))? += 1;
        }
        let mut starts = Vec::with_capacity(count + 1);
        let mut at = 0;
        starts.push(0);
        for s in &sizes {
            at += s;
            starts.push(at);
        }
        let mut fill: Vec<u32> = starts[..count].to_vec();
        let mut members = vec![0u32; of_paper.len()];
        for (doc, &l) in of_paper.iter().enumerate() {
            let slot = &mut fill[usize::from(l)];
            members[*slot as usize] = doc as u32;
            *slot += 1;
        }
        Some(Lists {
            of_paper,
            starts,
            members,
            centres,
            hashes,
            codes: (0..count).map(|_| OnceLock::new()).collect(),
            wanted: Mutex::new(BTreeSet::new()),
        })
    }

    /// How many lists.
    pub(crate) fn count(&self) -> usize {
        self.hashes.len()
    }

    /// List `l`'s papers, ascending.
    pub(crate) fn members(&self, l: usize) -> &[u32] {
        &self.members[self.starts[l] as usize..self.starts[l + 1] as usize]
    }

    /// List `l`'s codes, if in.
    pub(crate) fn codes(&self, l: usize) -> Option<&[u8]> {
        self.codes.get(l)?.get().map(|c| &c[..])
    }

    /// Whether list `l` is in.
    pub(crate) fn has(&self, l: usize) -> bool {
        self.codes(l).is_some()
    }

    /// Notes that a ranking needed list `l`, not in.
    pub(crate) fn want(&self, l: usize) {
        self.wanted
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(l as u32);
    }

    /// The lists wanted since last asked, not in: the page fetches them.
    pub(crate) fn take_wanted(&self) -> Vec<u32> {
        let wanted = std::mem::take(&mut *self.wanted.lock().unwrap_or_else(|e| e.into_inner()));
        wanted
            .into_iter()
            .filter(|&l| !self.has(l as usize))
            .collect()
    }

    /// The file of list `l`: its codes after [`VECTORS_MAGIC`].
    pub(crate) fn file(codes: &[u8]) -> Vec<u8> {
        let mut file = VECTORS_MAGIC.to_vec();
        file.extend_from_slice(codes);
        file
    }

    /// The size of list `l`'s file, when each paper has `m` codes.
    pub(crate) fn file_len(&self, l: usize, m: usize) -> usize {
        VECTORS_MAGIC.len() + self.members(l).len() * m
    }

    /// Adds list `l` from its file's bytes, `m` codes a paper: refused
    /// unless the hash is the one the meaning file names and the codes
    /// are one per subspace of each of its papers.
    pub(crate) fn add(&self, l: usize, bytes: Bytes, m: usize) -> Result<(), DecodeError> {
        let corrupt = |what| DecodeError::Corrupt(Corrupt::Meaning(what));
        let hash = *self.hashes.get(l).ok_or(corrupt("no such list"))?;
        crate::model::check_named(hash, &bytes)?;
        if !bytes.starts_with(VECTORS_MAGIC) || bytes.len() != self.file_len(l, m) {
            return Err(corrupt("a list's vectors"));
        }
        let codes = match bytes {
            Bytes::Borrowed(b) => Bytes::Borrowed(&b[VECTORS_MAGIC.len()..]),
            Bytes::Owned(mut b) => {
                b.drain(..VECTORS_MAGIC.len());
                Bytes::Owned(b)
            }
        };
        let _ = self.codes[l].set(codes);
        Ok(())
    }

    /// The lists to read for a query whose cosine with each list's centre
    /// is `coarse`: nearest first, until they hold [`PROBE_PAPERS`]
    /// papers.
    pub(crate) fn probe(&self, coarse: &[f32]) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.count()).collect();
        order.sort_unstable_by(|&a, &b| coarse[b].total_cmp(&coarse[a]).then(a.cmp(&b)));
        let mut held = 0;
        order
            .into_iter()
            .take_while(|&l| {
                let more = held < PROBE_PAPERS;
                held += self.members(l).len();
                more
            })
            .collect()
    }
}
