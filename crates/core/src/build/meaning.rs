//! Build time: the distilled table as committed, the corpus's token
//! weights, and every paper's vector.

use crate::model::{Corrupt, DecodeError, Paper};
use crate::search::meaning::lists::{Lists, LISTS_FROM, LIST_PAPERS};
use crate::search::meaning::{
    paper_text, unit, vocabulary, weights, wordpiece, Meaning, Quantized, CENTROIDS,
};

/// The distilled table (`model/minilm-l6-static-128.bin`, written by
/// `tools/distill/distill.py`; provenance and license beside it): the
/// vocabulary is read from it, and the papers' vectors are built from it.
pub const MODEL: &[u8] = include_bytes!("../../model/minilm-l6-static-128.bin");

/// The same table product-quantized for the page (`model/minilm-l6-pq.bin`,
/// written by `tools/distill/compact.py`): what a query's vector is built
/// from.
pub const COMPACT: &[u8] = include_bytes!("../../model/minilm-l6-pq.bin");

/// The table as committed: the model's vocabulary, in id order, and its
/// vectors product-quantized.
pub struct StaticModel {
    /// Dimensions per vector.
    pub dims: usize,
    /// The WordPiece vocabulary, token id = position.
    pub tokens: Vec<String>,
    /// Per token, whether the page keeps it (English text can yield it).
    pub kept: Vec<bool>,
    /// Per token, whether it has a vector (numbers and single punctuation
    /// marks or symbols have none).
    pub vectored: Vec<bool>,
    /// The vectors as the page gets them.
    pub quantized: Quantized,
    /// The vectors as distilled (int8, in the same form: a subspace an
    /// axis, each code the value it stands for): what the papers' vectors
    /// are built from.
    pub exact: Quantized,
}

impl StaticModel {
    /// Reads the distilled file (`PXS\x01`, u16 version 1, u16 dims, u32
    /// token count, the tokens each followed by a newline, the vectors) and
    /// its compact form (`PXQ\x01`, u16 version 1, u16 dims, u32 token
    /// count, u8 subspace count and their lengths, the bitmaps of the kept
    /// tokens and of those with a vector, the codebooks, the codes).
    pub fn parse(bytes: &[u8], compact: &[u8]) -> Result<StaticModel, DecodeError> {
        let corrupt = |what: &'static str| DecodeError::Corrupt(Corrupt::StaticModel(what));
        let (dims, n, mut rest) = model_header(bytes, b"PXS\x01")?;
        let mut tokens = Vec::with_capacity(n);
        for _ in 0..n {
            let end = rest
                .iter()
                .position(|&b| b == b'\n')
                .ok_or_else(|| corrupt("tokens"))?;
            let t = std::str::from_utf8(&rest[..end]).map_err(|_| corrupt("token text"))?;
            tokens.push(t.to_string());
            rest = &rest[end + 1..];
        }
        if dims == 0 || rest.len() != n * dims {
            return Err(corrupt("vectors"));
        }
        // Code c stands for c - 128; an int8 value v has code v + 128.
        let book: Vec<u8> = (0..=255u8).map(|c| c ^ 0x80).collect();
        let exact = Quantized {
            subspaces: vec![1; dims],
            books: book.repeat(dims).into(),
            codes: rest.iter().map(|v| v ^ 0x80).collect::<Vec<u8>>().into(),
        };
        let (cdims, cn, rest) = model_header(compact, b"PXQ\x01")?;
        if (cdims, cn) != (dims, n) {
            return Err(corrupt("compact table's shape"));
        }
        let (&m, rest) = rest.split_first().ok_or_else(|| corrupt("subspaces"))?;
        let (subspaces, rest) = rest
            .split_at_checked(usize::from(m))
            .ok_or_else(|| corrupt("subspaces"))?;
        let (kept, rest) = bitmap(rest, n, "kept tokens")?;
        let (vectored, rest) = bitmap(rest, n, "tokens with a vector")?;
        let (books, codes) = rest
            .split_at_checked(CENTROIDS * dims)
            .ok_or_else(|| corrupt("codebooks"))?;
        let quantized = Quantized {
            subspaces: subspaces.to_vec(),
            books: books.to_vec().into(),
            codes: codes.to_vec().into(),
        };
        quantized.check(dims, n).map_err(corrupt)?;
        Ok(StaticModel {
            dims,
            tokens,
            kept,
            vectored,
            quantized,
            exact,
        })
    }

    /// The committed table.
    pub fn committed() -> StaticModel {
        StaticModel::parse(MODEL, COMPACT).expect("the committed model is well formed")
    }

    /// The committed table with queries unquantized too: each token's
    /// int8 vector as distilled ([`StaticModel::exact`]), 128 bytes a token
    /// to the page's 32. What the quantization costs, measured
    /// (`explorer-cli eval-meaning --exact`).
    pub fn committed_exact() -> StaticModel {
        let mut model = StaticModel::committed();
        model.quantized = model.exact.clone();
        model
    }
}

/// A bitmap of `n` bits at the start of `bytes` (least significant first),
/// and what follows it.
fn bitmap<'a>(
    bytes: &'a [u8],
    n: usize,
    what: &'static str,
) -> Result<(Vec<bool>, &'a [u8]), DecodeError> {
    let (bits, rest) = (bytes.split_at_checked(n.div_ceil(8)))
        .ok_or(DecodeError::Corrupt(Corrupt::StaticModel(what)))?;
    Ok((
        (0..n).map(|i| bits[i / 8] >> (i % 8) & 1 == 1).collect(),
        rest,
    ))
}

/// A model file's magic, u16 version 1, u16 dims and u32 token count: the
/// dims, the count and the rest.
fn model_header<'a>(
    bytes: &'a [u8],
    magic: &[u8; 4],
) -> Result<(usize, usize, &'a [u8]), DecodeError> {
    let rest = bytes.strip_prefix(magic).ok_or(DecodeError::BadMagic)?;
    let (head, rest) = rest
        .split_at_checked(8)
        .ok_or(DecodeError::Corrupt(Corrupt::StaticModel("header")))?;
    let version = u16::from_le_bytes([head[0], head[1]]);
    if version != 1 {
        return Err(DecodeError::Version {
            found: version,
            expected: 1,
        });
    }
    let dims = usize::from(u16::from_le_bytes([head[2], head[3]]));
    let n = u32::from_le_bytes([head[4], head[5], head[6], head[7]]) as usize;
    Ok((dims, n, rest))
}

/// The meaning file of these papers: tokens weighted by their inverse
/// document frequency among them times their rank prior
/// ([`token_weight`]), each paper's vector from its text, less the corpus's
/// mean; the tokens the page keeps, with their vectors as the page gets
/// them.
pub fn build(model: &StaticModel, papers: &[Paper]) -> Meaning {
    build_with_exact(model, papers).0
}

/// [`build`], with the papers' vectors before they were quantized (`dims`
/// each, unit length or zero, in paper order): what the shipped ones are
/// measured against.
pub fn build_with_exact(model: &StaticModel, papers: &[Paper]) -> (Meaning, Vec<f32>) {
    build_in_lists_from(model, papers, LISTS_FROM)
}

/// [`build_with_exact`], the papers' vectors in lists from `lists_from`
/// papers on ([`LISTS_FROM`] by default; a build may ask for lists
/// sooner, and the tests do, to read the real list's in lists).
pub fn build_in_lists_from(
    model: &StaticModel,
    papers: &[Paper],
    lists_from: usize,
) -> (Meaning, Vec<f32>) {
    let lines: Vec<&str> = (model.tokens.iter().zip(&model.kept))
        .map(|(t, &kept)| if kept { t.as_str() } else { "" })
        .collect();
    let tokens = lines.join("\n").into_bytes();
    let unknown = model.tokens.iter().position(|t| t == "[UNK]").unwrap_or(0) as u32;
    let mut meaning = Meaning {
        dims: model.dims,
        vocab: vocabulary(&tokens),
        tokens: tokens.into(),
        unknown,
        df: vec![0; model.tokens.len()],
        mute: (0..model.tokens.len())
            .filter(|&i| model.kept[i] && !model.vectored[i])
            .map(|i| i as u32)
            .collect(),
        weights: vec![1.0; model.tokens.len()],
        quantized: model.quantized.clone(),
        // Papers are embedded from the table as distilled; the page's
        // quantized one replaces it below, before any query.
        table: model.exact.table(model.dims).into(),
        papers: Quantized {
            subspaces: Vec::new(),
            books: Vec::new().into(),
            codes: Vec::new().into(),
        },
        lists: None,
    };
    let tokenized: Vec<Vec<u32>> = papers
        .iter()
        .map(|p| wordpiece::tokenize(&paper_text(p), &meaning))
        .collect();
    for ids in &tokenized {
        let mut seen = ids.clone();
        seen.sort_unstable();
        seen.dedup();
        for id in seen {
            meaning.df[id as usize] += 1;
        }
    }
    meaning.weights = weights(&meaning.df, &meaning.mute, papers.len());
    // Papers are embedded from the table as distilled, queries from the
    // page's quantized one: the papers' side costs no bytes (only their
    // codes ship), and most of what the quantization lost was there. On
    // the ACL list's 39 paraphrased questions meaning alone finds 0.355
    // instead of 0.274 (both sides unquantized: 0.355), the page 0.329
    // instead of 0.248; real titles by meaning alone 0.872 instead of
    // 0.883 (`./dev eval-meaning`, `./dev eval-titles`; docs/search.md).
    let sums: Vec<Option<Vec<f32>>> = tokenized.iter().map(|ids| meaning.sum(ids, true)).collect();
    meaning.table = model.quantized.table(model.dims).into();
    // Papers of one field share much of their meaning ("a model", "we
    // propose"): each paper's vector less the corpus's mean, so that what
    // sets a paper apart decides its neighbours.
    let mut mean = vec![0f32; model.dims];
    for v in sums.iter().flatten() {
        for (m, x) in mean.iter_mut().zip(v) {
            *m += x / papers.len() as f32;
        }
    }
    let mut vectors = Vec::with_capacity(papers.len() * model.dims);
    for v in sums {
        let centred = v.and_then(|v| unit(v.iter().zip(&mean).map(|(x, m)| x - m).collect()));
        match centred {
            Some(v) => vectors.extend(v),
            None => vectors.extend(std::iter::repeat_n(0.0, model.dims)),
        }
    }
    meaning.papers = quantize_papers(&vectors, model.dims);
    if papers.len() >= lists_from.max(1) {
        meaning.lists = Some(in_lists(&vectors, model.dims, &mut meaning.papers));
    }
    (meaning, vectors)
}

/// The papers' vectors (`dims` each) in lists of papers near in meaning
/// ([`crate::search::meaning::lists`]): spherical k-means (each paper to
/// the centre it has the largest dot product with) learnt on a sample of
/// them, every paper then put in its nearest centre's list. Each list's
/// centre is the mean of its papers' vectors, coded as they are; the
/// codes move from `papers` into the lists, all of them in.
fn in_lists(vectors: &[f32], dims: usize, papers: &mut Quantized) -> Lists {
    let n = vectors.len() / dims;
    let count = n.div_ceil(LIST_PAPERS).min(usize::from(u16::MAX));
    let vector = |i: usize| &vectors[i * dims..(i + 1) * dims];
    let sample: Vec<usize> = (0..n).step_by(n.div_ceil(TRAINING_PAPERS).max(1)).collect();
    let mut centres = vec![0f32; count * dims];
    for c in 0..count {
        let i = sample[c * sample.len() / count];
        centres[c * dims..(c + 1) * dims].copy_from_slice(vector(i));
    }
    for _ in 0..LIST_ROUNDS {
        let nearest = nearest_centres(&centres, dims, vectors, &sample);
        let mut sums = vec![0f32; count * dims];
        for (&i, &c) in sample.iter().zip(&nearest) {
            for (s, x) in sums[c * dims..(c + 1) * dims].iter_mut().zip(vector(i)) {
                *s += x;
            }
        }
        // A centre's direction is what ranks: the mean, to unit length
        // (an emptied centre keeps its place).
        for (c, sum) in sums.chunks_exact(dims).enumerate() {
            if let Some(u) = unit(sum.to_vec()) {
                centres[c * dims..(c + 1) * dims].copy_from_slice(&u);
            }
        }
    }
    let all: Vec<usize> = (0..n).collect();
    let of_paper = nearest_centres(&centres, dims, vectors, &all);
    // The stored centre: the mean of the list's vectors, whose dot product
    // with a query is the mean of theirs (a paper not read is ranked by it).
    let mut means = vec![0f32; count * dims];
    let mut sizes = vec![0usize; count];
    for (i, &c) in of_paper.iter().enumerate() {
        sizes[c] += 1;
        for (s, x) in means[c * dims..(c + 1) * dims].iter_mut().zip(vector(i)) {
            *s += x;
        }
    }
    let mut coded = Vec::with_capacity(count * papers.subspaces.len());
    for (c, mean) in means.chunks_exact_mut(dims).enumerate() {
        mean.iter_mut().for_each(|x| *x /= sizes[c].max(1) as f32);
        coded.extend(papers.code(mean));
    }
    let m = papers.subspaces.len();
    let codes = std::mem::take(&mut papers.codes);
    let mut files: Vec<Vec<u8>> = vec![Vec::new(); count];
    for (i, &c) in of_paper.iter().enumerate() {
        files[c].extend_from_slice(&codes[i * m..(i + 1) * m]);
    }
    let files: Vec<Vec<u8>> = files.iter().map(|codes| Lists::file(codes)).collect();
    let hashes = files
        .iter()
        .map(|f| xxhash_rust::xxh3::xxh3_64(f))
        .collect();
    let of_paper = of_paper.iter().map(|&c| c as u16).collect();
    let lists = Lists::new(of_paper, coded.into(), hashes).expect("every paper in a list");
    for (l, file) in files.into_iter().enumerate() {
        lists.add(l, file.into(), m).expect("the lists' own files");
    }
    lists
}

/// Rounds of the lists' k-means.
const LIST_ROUNDS: usize = 8;

/// For each paper of `which`, the centre (`dims` each) its vector has the
/// largest dot product with (the first of equals), on every thread.
fn nearest_centres(centres: &[f32], dims: usize, vectors: &[f32], which: &[usize]) -> Vec<usize> {
    let best = |i: usize| -> usize {
        let v = &vectors[i * dims..(i + 1) * dims];
        let mut best = (f32::NEG_INFINITY, 0);
        for (c, centre) in centres.chunks_exact(dims).enumerate() {
            let d: f32 = v.iter().zip(centre).map(|(a, b)| a * b).sum();
            if d > best.0 {
                best = (d, c);
            }
        }
        best.1
    };
    let chunk = which.len().div_ceil(threads()).max(1);
    let parts: Vec<&[usize]> = which.chunks(chunk).collect();
    on_threads(&parts, |part| {
        part.iter().map(|&i| best(i)).collect::<Vec<_>>()
    })
    .into_iter()
    .flatten()
    .collect()
}

/// How many threads the machine runs at once (one in a browser's worker,
/// which has no threads of its own).
fn threads() -> usize {
    if cfg!(target_family = "wasm") {
        return 1;
    }
    std::thread::available_parallelism().map_or(1, |t| t.get())
}

/// `f` of each item, in order: each on a thread of its own where there
/// are several, one after the other where there is one.
fn on_threads<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    if threads() == 1 {
        return items.iter().map(f).collect();
    }
    std::thread::scope(|scope| {
        let f = &f;
        let handles: Vec<_> = (items.iter())
            .map(|item| scope.spawn(move || f(item)))
            .collect();
        (handles.into_iter())
            .map(|h| h.join().expect("a thread of the build"))
            .collect()
    })
}

/// Dimensions per subspace of the papers' product quantization: a byte
/// per four dimensions. Measured on the judged queries and on every real
/// ACL title typed as a query (`./dev eval-meaning`, `./dev eval-titles`):
/// docs/search.md, "The meaning file".
pub const PAPER_SUBSPACE_DIMS: usize = 4;

/// At most this many papers teach the codebooks (a fixed stride through
/// the list): 100,000 papers are coded in seconds.
const TRAINING_PAPERS: usize = 25_000;

/// Rounds of k-means.
const ROUNDS: usize = 12;

/// The papers' vectors (`dims` each, unit length or zero) product-quantized:
/// per subspace of [`PAPER_SUBSPACE_DIMS`], [`CENTROIDS`] centroids learnt
/// by k-means from the papers themselves, stored as int8 (× 127), and
/// each paper coded by its nearest centroid there. The first centroid of
/// each subspace stays at zero: a paper without a vector is coded as
/// none, and is close to nothing. Subspaces are learnt side by side, one
/// thread each in turn.
fn quantize_papers(vectors: &[f32], dims: usize) -> Quantized {
    let n = vectors.len() / dims.max(1);
    let mut subspaces = Vec::new();
    let mut left = dims;
    while left > 0 {
        let l = left.min(PAPER_SUBSPACE_DIMS);
        subspaces.push(l as u8);
        left -= l;
    }
    let sample: Vec<usize> = (0..n).step_by(n.div_ceil(TRAINING_PAPERS).max(1)).collect();
    let learn = |dim: usize, l: usize| -> (Vec<u8>, Vec<u8>) {
        let piece = |i: usize| &vectors[i * dims + dim..i * dims + dim + l];
        let mut centroids = vec![0f32; CENTROIDS * l];
        // Seeds spread through the sample (the first centroid is zero).
        for c in 1..CENTROIDS {
            if let Some(&i) = sample.get(c * sample.len() / CENTROIDS) {
                centroids[c * l..(c + 1) * l].copy_from_slice(piece(i));
            }
        }
        for _ in 0..ROUNDS {
            let mut sums = vec![0f32; CENTROIDS * l];
            let mut counts = vec![0u32; CENTROIDS];
            for &i in &sample {
                let c = nearest(&centroids, piece(i), l);
                counts[c] += 1;
                for (s, x) in sums[c * l..(c + 1) * l].iter_mut().zip(piece(i)) {
                    *s += x;
                }
            }
            for c in 1..CENTROIDS {
                if counts[c] > 0 {
                    for k in 0..l {
                        centroids[c * l + k] = sums[c * l + k] / counts[c] as f32;
                    }
                }
            }
        }
        // Stored as the page reads them, and the papers coded against
        // what is stored.
        let book: Vec<u8> = quantize(&centroids).collect();
        let stored: Vec<f32> = book.iter().map(|&b| f32::from(b as i8) / 127.0).collect();
        let codes = (0..n)
            .map(|i| nearest(&stored, piece(i), l) as u8)
            .collect();
        (book, codes)
    };
    let mut learnt: Vec<(Vec<u8>, Vec<u8>)> = Vec::with_capacity(subspaces.len());
    let starts: Vec<(usize, usize)> = (subspaces.iter())
        .scan(0, |dim, &l| {
            let start = *dim;
            *dim += usize::from(l);
            Some((start, usize::from(l)))
        })
        .collect();
    for batch in starts.chunks(threads()) {
        learnt.extend(on_threads(batch, |&(dim, l)| learn(dim, l)));
    }
    let books: Vec<u8> = learnt.iter().flat_map(|(b, _)| b.iter().copied()).collect();
    let mut codes = vec![0u8; n * subspaces.len()];
    for (s, (_, c)) in learnt.iter().enumerate() {
        for (i, &code) in c.iter().enumerate() {
            codes[i * subspaces.len() + s] = code;
        }
    }
    Quantized {
        subspaces,
        books: books.into(),
        codes: codes.into(),
    }
}

/// The centroid nearest `x` (squared distance; the first of equals).
fn nearest(centroids: &[f32], x: &[f32], l: usize) -> usize {
    let mut best = (f32::INFINITY, 0);
    for (c, centroid) in centroids.chunks_exact(l).enumerate() {
        let d: f32 = x.iter().zip(centroid).map(|(a, b)| (a - b) * (a - b)).sum();
        if d < best.0 {
            best = (d, c);
        }
    }
    best.1
}

/// A unit vector as int8 (× 127), as the file stores papers.
fn quantize(v: &[f32]) -> impl Iterator<Item = u8> + '_ {
    v.iter()
        .map(|&x| (x * 127.0).round().clamp(-127.0, 127.0) as i8 as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The unquantized table gives every token its distilled vector,
    /// value for value; the page's quantized one a vector near it, not it.
    #[test]
    fn the_exact_table_is_the_distilled_one() {
        let (pq, exact) = (StaticModel::committed(), StaticModel::committed_exact());
        let dims = exact.dims;
        let values = &MODEL[MODEL.len() - exact.tokens.len() * dims..];
        let token = exact.tokens.iter().position(|t| t == "language").unwrap();
        let distilled: Vec<f32> = (values[token * dims..(token + 1) * dims].iter())
            .map(|&v| f32::from(v as i8))
            .collect();
        let of = |m: &StaticModel| {
            let mut v = vec![0f32; dims];
            assert!(m.quantized.add_to(token, &mut v));
            v
        };
        assert_eq!(of(&exact), distilled);
        let near = of(&pq);
        assert_ne!(near, distilled);
        let dot: f32 = near.iter().zip(&distilled).map(|(a, b)| a * b).sum();
        let norm = |v: &[f32]| v.iter().map(|a| a * a).sum::<f32>().sqrt();
        assert!(dot / (norm(&near) * norm(&distilled)) > 0.8);
    }
}
