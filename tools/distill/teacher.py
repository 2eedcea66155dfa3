#!/usr/bin/env python3
"""The teacher's figures on the title queries: the full all-MiniLM-L6-v2
(the transformer the page's table is distilled from; mean pooling, cosine,
256 word pieces at most, as sentence-transformers runs it) ranks the same
abstracts for the same held-out titles as `explorer-cli eval-title-queries`.

    explorer-cli eval-title-queries --sample N --dump DIR FILE…
    python3 tools/distill/teacher.py MODEL_DIR DIR

DIR/papers.jsonl holds the abstracts (one JSON string per paper, in the
corpus's order), DIR/queries.jsonl the queries ({"title", "nameless",
"doc"}). Prints recall@10 and MRR for the title and the title without its
`NAME:`. Run by `./dev eval-titles`; the figures are recorded in
docs/search.md with that command. The papers' vectors are cached in DIR.
"""

import json
import os
import sys

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

sys.path.insert(0, os.path.dirname(__file__))
from distill import forward  # noqa: E402

MAX_PIECES = 256
BATCH = 16


def embed(w, cfg, tok, texts, label):
    enc = tok.encode_batch(texts)
    ids = [e.ids[: MAX_PIECES - 1] + ([e.ids[-1]] if len(e.ids) > MAX_PIECES else []) for e in enc]
    order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
    out = np.zeros((len(ids), cfg["hidden_size"]), dtype=np.float32)
    for start in range(0, len(order), BATCH):
        batch = order[start:start + BATCH]
        width = max(len(ids[i]) for i in batch)
        arr = np.zeros((len(batch), width), dtype=np.int64)
        mask = np.zeros((len(batch), width), dtype=np.float32)
        for r, i in enumerate(batch):
            arr[r, : len(ids[i])] = ids[i]
            mask[r, : len(ids[i])] = 1
        out[batch] = forward(w, cfg, arr, mask)
        if start // BATCH % 20 == 0:
            print(f"{label}: {start + len(batch)}/{len(ids)}", file=sys.stderr)
    return out / np.linalg.norm(out, axis=1, keepdims=True)


def main():
    model_dir, work = sys.argv[1], sys.argv[2]
    w = load_file(f"{model_dir}/model.safetensors")
    cfg = json.load(open(f"{model_dir}/config.json"))
    tok = Tokenizer.from_file(f"{model_dir}/tokenizer.json")
    tok.no_truncation()
    tok.no_padding()
    papers = [json.loads(l) for l in open(f"{work}/papers.jsonl", encoding="utf-8")]
    queries = [json.loads(l) for l in open(f"{work}/queries.jsonl", encoding="utf-8")]
    cache = f"{work}/teacher-papers.npy"
    if os.path.exists(cache) and np.load(cache).shape[0] == len(papers):
        p = np.load(cache)
    else:
        p = embed(w, cfg, tok, papers, "papers")
        np.save(cache, p)
    print(f"{len(papers)} papers, {len(queries)} queries\n")
    print("| ranking | real title: recall@10 / MRR | title without its `NAME:`: recall@10 / MRR |")
    print("|---|---|---|")
    cells = []
    for key in ["title", "nameless"]:
        q = embed(w, cfg, tok, [x[key] for x in queries], key)
        sims = q @ p.T
        docs = np.array([x["doc"] for x in queries])
        target = sims[np.arange(len(docs)), docs]
        rank = (sims > target[:, None]).sum(1)
        cells.append(f"{(rank < 10).mean():.3f} / {(1.0 / (rank + 1)).mean():.3f}")
    print(f"| all-MiniLM-L6-v2, the full transformer | {cells[0]} | {cells[1]} |")


if __name__ == "__main__":
    main()
