#!/usr/bin/env python3
"""Fits the title ranker's weights (crates/core/src/title/rank.rs).

Reads the candidate table of

    cargo run --release -p explorer-cli -- eval-titles --candidates FILE… > cands.tsv

(paper, fold, overlap with the real title, the features, the candidate) and
fits ridge least squares of the overlap on the features: once on every
paper (WEIGHTS, what ships) and once without each fold (FOLD_WEIGHTS[k],
fitted on the other fold only, so that `eval-titles --held-out` scores
each paper with weights that never saw it). Prints the Rust tables and the
held-out median/mean overlap of the chosen candidates.

    python3 tools/titles/train.py cands.tsv

Pure Python: no dependency beyond the standard library.
"""
import collections
import statistics
import sys

N = 34
RIDGE = 1.0
# Added to the rule's-choice weight after fitting: another candidate must
# beat the hand-written rule's title by this much (fewer changes for the
# same held-out figures; fewer seed titles change).
RULE_MARGIN = 0.02


def read(path):
    papers = collections.OrderedDict()
    for line in open(path, encoding="utf-8"):
        f = line.rstrip("\n").split("\t")
        paper, fold, y = int(f[0]), int(f[1]), float(f[2])
        x = [float(v) for v in f[3 : 3 + N]]
        papers.setdefault(paper, (fold, []))[1].append((y, x, f[3 + N]))
    return papers


def solve(a, b):
    """Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and m[c][c] != 0:
                k = m[r][c] / m[c][c]
                for j in range(c, n + 1):
                    m[r][j] -= k * m[c][j]
    return [m[i][n] / m[i][i] if m[i][i] else 0.0 for i in range(n)]


def fit(papers):
    """Ridge regression of the overlap on the features, each paper's
    candidates centred on the paper's mean (only the order within a paper
    matters), the bias left unpenalised and unused."""
    a = [[0.0] * N for _ in range(N)]
    b = [0.0] * N
    for _, cands in papers:
        my = sum(y for y, _, _ in cands) / len(cands)
        mx = [sum(x[j] for _, x, _ in cands) / len(cands) for j in range(N)]
        for y, x, _ in cands:
            xc = [x[j] - mx[j] for j in range(N)]
            yc = y - my
            for i in range(N):
                if xc[i] == 0.0:
                    continue
                b[i] += xc[i] * yc
                for j in range(N):
                    a[i][j] += xc[i] * xc[j]
    for i in range(N):
        a[i][i] += RIDGE
    w = solve(a, b)
    w[1] += RULE_MARGIN
    return w


def choose(cands, w):
    best, score = None, None
    for c in cands:
        s = sum(wi * xi for wi, xi in zip(w, c[1]))
        if score is None or s > score:
            best, score = c, s
    return best


def table(w):
    return "[" + ", ".join(f"{v:.4}" if v != 0 else "0.0" for v in w) + "]"


def main():
    papers = read(sys.argv[1])
    whole = fit(papers.values())
    folds = [fit([p for p in papers.values() if p[0] != k]) for k in (0, 1)]
    held = [choose(c, folds[f])[0] for f, c in papers.values()]
    seen = [choose(c, whole)[0] for _, c in papers.values()]
    rule = [c[0][0] for _, c in papers.values()]
    print(f"// {len(papers)} papers; rule median {statistics.median(rule):.3f}")
    best = [max(y for y, _, _ in c) for _, c in papers.values()]
    print(
        f"// held-out median {statistics.median(held):.3f} mean {statistics.mean(held):.3f}, "
        f"{sum(y >= 0.35 for y in held) / len(held):.1%} of papers at 0.35 or more "
        f"(the best candidate of each: median {statistics.median(best):.3f})"
    )
    print(f"// whole-list median {statistics.median(seen):.3f} mean {statistics.mean(seen):.3f}")
    print(f"pub const WEIGHTS: Features = {table(whole)};")
    print(f"pub const FOLD_WEIGHTS: [Features; 2] = [{table(folds[0])}, {table(folds[1])}];")


if __name__ == "__main__":
    main()
