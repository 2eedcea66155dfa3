#!/usr/bin/env python3
"""Compacts the distilled table for the page: product quantization.

The page needs a vector for every token a query can hold, but not 128 bytes
of one: each vector is cut into sub-vectors (SUBSPACES gives their lengths: 4
axes each), every piece is
replaced by the nearest of 256 centroids learnt for its place (k-means), and
a token is stored as one byte per piece. Tokens no English text yields
(`[unused…]`, and pieces with letters of scripts other than Latin, Greek
or Cyrillic) are left out: the page's tokenizer never finds them, so their
codes are zero and compress to nothing. Numbers and single punctuation marks or symbols
stay in the vocabulary without a vector (zero codes too).

Measured (mean cosine of a token's vector with its reconstruction; meaning
alone on 400 held-out ACL titles, `explorer-cli eval-title-queries --sample
800`, recall@10 / MRR, the unquantized table 0.708 / 0.569): one byte per
4 axes (32 bytes a token) 0.955, 0.720 / 0.572; 3, 4 and 8 axes mixed (27
bytes) 0.934, 0.685 / 0.524; 4 and 6 axes (24 bytes) 0.921, 0.685 / 0.550.
Papers are embedded with the same reconstructed vectors as queries (with
the unquantized ones, 32 bytes gave 0.703 / 0.550).

Reproducible: fixed seeds, float64, ties broken by index. Run by
`./dev distill`:

    python3 tools/distill/compact.py STATIC_TABLE OUT_FILE

Output, read by `explorer_core::build::StaticModel::parse`:

    b"PXQ\\x01", u16 LE version (1), u16 LE dims, u32 LE token count,
    u8 subspace count M, M x u8 subspace lengths (summing to dims),
    the kept tokens as a bitmap (count bits, least significant first),
    the tokens with a vector as another,
    the codebooks (per subspace, 256 x its length int8),
    then count x M u8 codes.
"""

import struct
import sys
import unicodedata

import numpy as np

SUBSPACES = [4] * 32
CENTROIDS = 256
ROUNDS = 25


def read_static(path):
    b = open(path, "rb").read()
    assert b[:4] == b"PXS\x01"
    version, dims, n = struct.unpack("<HHI", b[4:12])
    assert version == 1
    rest = b[12:]
    tokens = []
    for _ in range(n):
        end = rest.index(b"\n")
        tokens.append(rest[:end].decode("utf-8"))
        rest = rest[end + 1:]
    vectors = np.frombuffer(rest, dtype=np.int8).reshape(n, dims).astype(np.float64)
    return tokens, vectors


def english(token):
    """Whether English text can yield the token: not `[unused…]`, and no
    letter of a script other than Latin, Greek or Cyrillic (symbols,
    punctuation and mathematical letters stay)."""
    if token.startswith("[unused"):
        return False
    text = token[2:] if token.startswith("##") else token
    return all(not unicodedata.category(c).startswith("L") or english_letter(c) for c in text)


def meaningful(token):
    """Whether the token's vector carries meaning: not a number, not a
    single punctuation mark or symbol. The page keeps such tokens in its
    vocabulary (so that words split as the model splits them) but without
    a vector."""
    text = token[2:] if token.startswith("##") else token
    if text.isdigit():
        return False
    return not (len(text) == 1 and not unicodedata.category(text).startswith("L"))


def english_letter(c):
    o = ord(c)
    return (
        o < 0x530  # Latin, IPA, Greek, Cyrillic
        or 0x1D00 <= o < 0x2000  # phonetic extensions, Latin and Greek extended
        or 0x2100 <= o < 0x2150  # letterlike symbols (ℓ, ℝ)
        or 0x1D400 <= o < 0x1D800  # mathematical alphanumerics
    )


def kmeans(points, k, seed):
    """Lloyd's k-means from k distinct points chosen by a fixed seed."""
    rng = np.random.default_rng(seed)
    unique = np.unique(points, axis=0)
    centres = unique[rng.choice(len(unique), min(k, len(unique)), replace=False)]
    for _ in range(ROUNDS):
        assign = nearest(points, centres)
        for j in range(len(centres)):
            members = points[assign == j]
            if len(members):
                centres[j] = members.mean(0)
    return centres, nearest(points, centres)


def nearest(points, centres):
    d = (points**2).sum(1)[:, None] - 2 * points @ centres.T + (centres**2).sum(1)[None]
    return d.argmin(1)


def main():
    static, out = sys.argv[1], sys.argv[2]
    subspaces = SUBSPACES
    if len(sys.argv) > 3:  # for measuring other splits: "4*32" or "4*8,6*16"
        subspaces = []
        for part in sys.argv[3].split(","):
            length, count = part.split("*")
            subspaces += [int(length)] * int(count)
    tokens, vectors = read_static(static)
    n, dims = vectors.shape
    assert sum(subspaces) == dims
    kept = np.array([english(t) for t in tokens])
    vectored = kept & np.array([meaningful(t) for t in tokens])
    codes = np.zeros((n, len(subspaces)), dtype=np.uint8)
    books = []
    at = 0
    for m, length in enumerate(subspaces):
        part = vectors[kept, at:at + length]
        centres, assign = kmeans(part, CENTROIDS, seed=m)
        book = np.zeros((CENTROIDS, length))
        book[: len(centres)] = centres
        books.append(np.clip(np.rint(book), -127, 127).astype(np.int8))
        codes[kept, m] = assign
        at += length
    # The centroids are learnt on every kept token, numbers and
    # punctuation included (learnt without them, two of the seeds' judged
    # neighbours fell out of the first five); only the codes are dropped.
    codes[~vectored] = 0
    recon = np.hstack([books[m][codes[:, m]].astype(np.float64) for m in range(len(subspaces))])
    cos = (recon * vectors).sum(1) / (
        np.linalg.norm(recon, axis=1) * np.linalg.norm(vectors, axis=1) + 1e-12
    )
    bits = np.packbits(kept, bitorder="little")
    vbits = np.packbits(vectored, bitorder="little")
    with open(out, "wb") as f:
        f.write(b"PXQ\x01")
        f.write(struct.pack("<HHI", 1, dims, n))
        f.write(struct.pack("<B", len(subspaces)))
        f.write(bytes(subspaces))
        f.write(bits.tobytes())
        f.write(vbits.tobytes())
        for book in books:
            f.write(book.tobytes())
        f.write(codes.tobytes())
    print(
        f"wrote {out}: {kept.sum()} of {n} tokens, {vectored.sum()} with a vector of "
        f"{len(subspaces)} bytes, mean cosine with the table {cos[vectored].mean():.3f}",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
