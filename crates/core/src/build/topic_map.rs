//! The topic map's layout, computed at build time: the papers' TF-IDF
//! vectors (as pruned for similar papers) projected on their two principal
//! axes — a truncated SVD of the centred matrix — then laid out as UMAP
//! and LargeVis do: each paper pulled toward its similar papers and pushed
//! away from a few papers picked at random, so that neighbours on the map
//! are neighbours in content and groups stand apart; then spread to fill
//! the square.
//!
//! The SVD is a few dozen rounds of subspace iteration over the sparse
//! matrix: it needs the top two directions of a matrix with 24 entries a
//! row, which a dense linear-algebra crate would first have to densify
//! (100,000 papers × 100,000 stems).

/// Directions iterated together: more than the two kept, so that the
/// second converges even when the third is close to it.
const RANK: usize = 4;
const ROUNDS: usize = 40;
/// Rounds over the similar-papers graph, and the papers pushed away from
/// each paper per pull toward a neighbour.
const EPOCHS: usize = 200;
const NEGATIVES: usize = 5;
/// The share of papers at each edge left outside the square's inner part
/// (clamped to the edge), so that a few outliers do not squeeze the rest
/// into a corner.
const CLIP: f32 = 0.02;

/// Each paper's place, x and y in 0..=65535. `vectors[d]` is paper `d`'s
/// sparse vector over `dims` terms; `neighbours[d]` its nearest papers,
/// nearest first.
pub fn layout(vectors: &[Vec<(u32, f32)>], dims: usize, neighbours: &[Vec<u32>]) -> Vec<[u16; 2]> {
    let n = vectors.len();
    if n < 3 || dims == 0 {
        return vec![[u16::MAX / 2; 2]; n];
    }
    let axes = principal_axes(vectors, dims);
    let mut pos: Vec<[f32; 2]> = vectors
        .iter()
        .map(|v| [project(v, &axes[0]), project(v, &axes[1])])
        .collect();
    // (Centring the projections would only shift them: `spread` rescales.)
    spread(&mut pos);
    // Neighbours in content become neighbours on the map.
    embed(&mut pos, neighbours);
    spread(&mut pos);
    pos.iter()
        .map(|p| p.map(|v| (v.clamp(0.0, 1.0) * f32::from(u16::MAX)).round() as u16))
        .collect()
}

/// SplitMix64: a deterministic, well-spread stream (the same corpus always
/// gets the same map).
struct Stream(u64);

impl Stream {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in -0.5..0.5.
    fn centred(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32 - 0.5
    }
}

/// Stochastic gradient descent on UMAP's objective (its curve with
/// a = b = 1), starting from the principal axes scaled to ±10: attraction
/// along each similar-paper edge, repulsion from random papers.
fn embed(pos: &mut [[f32; 2]], neighbours: &[Vec<u32>]) {
    let n = pos.len();
    for p in pos.iter_mut() {
        for v in p.iter_mut() {
            *v = (*v - 0.5) * 20.0;
        }
    }
    // A small corpus gets fewer neighbours per paper: 15 of 57 papers
    // would tie every group to every other.
    let k = (n / 10).clamp(5, 15);
    // Edges are not weighted by similarity: weighting let repulsion scatter
    // the weakly linked papers of a small corpus (measured on the seeds).
    let edges: Vec<(usize, usize)> = neighbours
        .iter()
        .enumerate()
        .take(n)
        .flat_map(|(d, near)| {
            near.iter()
                .take(k)
                .filter(|&&e| (e as usize) < n)
                .map(move |&e| (d, e as usize))
        })
        .collect();
    let mut rng = Stream(0x5EED);
    let clip = |g: f32| g.clamp(-4.0, 4.0);
    for epoch in 0..EPOCHS {
        let rate = 1.0 - epoch as f32 / EPOCHS as f32;
        for &(i, j) in &edges {
            let d = [pos[i][0] - pos[j][0], pos[i][1] - pos[j][1]];
            let d2 = d[0] * d[0] + d[1] * d[1];
            let pull = -2.0 / (1.0 + d2);
            for a in 0..2 {
                let g = clip(pull * d[a]) * rate;
                pos[i][a] += g;
                pos[j][a] -= g;
            }
            for _ in 0..NEGATIVES {
                let k = (rng.next() % n as u64) as usize;
                if k == i {
                    continue;
                }
                let d = [pos[i][0] - pos[k][0], pos[i][1] - pos[k][1]];
                let d2 = d[0] * d[0] + d[1] * d[1];
                let push = 2.0 / ((0.001 + d2) * (1.0 + d2));
                for a in 0..2 {
                    pos[i][a] += clip(push * d[a]) * rate;
                }
            }
        }
    }
}

fn centre(vectors: &[Vec<(u32, f32)>], dims: usize) -> Vec<f32> {
    let mut mu = vec![0f32; dims];
    for v in vectors {
        for &(s, w) in v {
            mu[s as usize] += w;
        }
    }
    let n = vectors.len() as f32;
    mu.iter_mut().for_each(|m| *m /= n);
    mu
}

fn project(v: &[(u32, f32)], axis: &[f32]) -> f32 {
    v.iter().map(|&(s, w)| w * axis[s as usize]).sum()
}

/// The top two right singular vectors of the centred matrix (the
/// principal axes), by subspace iteration from a fixed start.
fn principal_axes(vectors: &[Vec<(u32, f32)>], dims: usize) -> [Vec<f32>; 2] {
    let mu = centre(vectors, dims);
    let mut rng = Stream(0x9E37_79B9_7F4A_7C15);
    let mut basis: Vec<Vec<f32>> = (0..RANK)
        .map(|_| (0..dims).map(|_| rng.centred()).collect())
        .collect();
    orthonormalize(&mut basis);
    for _ in 0..ROUNDS {
        // basis ← Xᵀ X basis, with X the centred matrix (never formed).
        for axis in &mut basis {
            let shift: f32 = mu.iter().zip(axis.iter()).map(|(a, b)| a * b).sum();
            let u: Vec<f32> = vectors.iter().map(|v| project(v, axis) - shift).collect();
            let total: f32 = u.iter().sum();
            let mut w = vec![0f32; dims];
            for (v, &ud) in vectors.iter().zip(&u) {
                for &(s, x) in v {
                    w[s as usize] += x * ud;
                }
            }
            for (wi, m) in w.iter_mut().zip(&mu) {
                *wi -= m * total;
            }
            *axis = w;
        }
        orthonormalize(&mut basis);
    }
    let mut it = basis.into_iter();
    [it.next().unwrap(), it.next().unwrap()]
}

/// Modified Gram–Schmidt; a direction that vanished is left at zero.
fn orthonormalize(basis: &mut [Vec<f32>]) {
    for i in 0..basis.len() {
        let (done, rest) = basis.split_at_mut(i);
        let v = &mut rest[0];
        for u in done.iter() {
            let dot: f32 = u.iter().zip(v.iter()).map(|(a, b)| a * b).sum();
            v.iter_mut().zip(u).for_each(|(x, y)| *x -= dot * y);
        }
        let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        if norm > f32::MIN_POSITIVE {
            v.iter_mut().for_each(|x| *x /= norm);
        }
    }
}

/// Rescales each axis so that all but the outer `CLIP` of papers at each
/// end fill 0..1 (the rest are clamped to the edge later).
fn spread(pos: &mut [[f32; 2]]) {
    for a in 0..2 {
        let mut vals: Vec<f32> = pos.iter().map(|p| p[a]).collect();
        vals.sort_by(f32::total_cmp);
        let at = |q: f32| vals[((vals.len() - 1) as f32 * q).round() as usize];
        let (lo, hi) = (at(CLIP), at(1.0 - CLIP));
        let range = (hi - lo).max(f32::MIN_POSITIVE);
        for p in pos.iter_mut() {
            p[a] = 0.05 + 0.9 * (p[a] - lo) / range;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_topics_land_apart() {
        // Ten papers on terms 0–2, ten on terms 3–5.
        let mut vectors = Vec::new();
        for d in 0..20u32 {
            let base = if d < 10 { 0 } else { 3 };
            let t = d % 3;
            vectors.push(vec![(base + t, 0.8), (base + (t + 1) % 3, 0.6)]);
        }
        let map = layout(&vectors, 6, &vec![Vec::new(); 20]);
        let _ = &map;
        let mean_x = |r: std::ops::Range<usize>| {
            r.clone().map(|d| f32::from(map[d][0])).sum::<f32>() / r.len() as f32
        };
        let gap = (mean_x(0..10) - mean_x(10..20)).abs();
        assert!(gap > 30_000.0, "{map:?}");
        assert_eq!(map, layout(&vectors, 6, &vec![Vec::new(); 20]));
    }

    #[test]
    fn tiny_corpora_sit_in_the_middle() {
        assert_eq!(
            layout(&[vec![(0, 1.0)]], 1, &[vec![]]),
            vec![[32767, 32767]]
        );
        assert!(layout(&[], 0, &[]).is_empty());
    }
}
