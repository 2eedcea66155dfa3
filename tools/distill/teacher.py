#!/usr/bin/env python3
"""The teacher's figures: the full all-MiniLM-L6-v2 (the transformer the
page's table is learnt from; mean pooling, cosine, 256 word pieces at
most, as sentence-transformers runs it) ranks the same papers for the same
queries as `explorer-cli eval-title-queries` or `eval-meaning`.

    explorer-cli eval-title-queries --sample N --dump DIR FILE…
    explorer-cli eval-meaning LIST --queries FILE --dump DIR
    python3 tools/distill/teacher.py MODEL_DIR DIR [FEATURES_DIR]

DIR/papers.jsonl holds the papers' texts (one JSON string per paper, in
the corpus's order: the abstracts), and either DIR/queries.jsonl the title
queries ({"title", "nameless", "doc"}: recall@10 and MRR for the title
and the title without its `NAME:`, `./dev eval-titles`) or
DIR/judged.jsonl the judged queries ({"kind", "query", "relevant"}: the
rows `eval-meaning` prints, `./dev eval-meaning`). The papers' vectors are
cached in DIR; a text `featurize.py` embedded (FEATURES_DIR) is not
embedded again.
"""

import hashlib
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


def paper_vectors(w, cfg, tok, work, papers, features):
    """The papers' vectors: cached in `work`, else those `featurize.py`
    wrote for the same texts, else embedded now."""
    key = hashlib.sha256("\n".join(papers).encode("utf-8")).hexdigest()[:16]
    cache = f"{work}/teacher-papers-{key}.npy"
    if os.path.exists(cache):
        return np.load(cache)
    known = {}
    if features and os.path.exists(f"{features}/teacher.npy"):
        texts = [json.loads(l) for l in open(f"{features}/texts.jsonl", encoding="utf-8")]
        known = dict(zip(texts, np.load(f"{features}/teacher.npy")))
    key = [" ".join(t.split()) for t in papers]
    todo = [i for i, k in enumerate(key) if k not in known]
    p = np.zeros((len(papers), cfg["hidden_size"]), dtype=np.float32)
    for i, k in enumerate(key):
        if k in known:
            p[i] = known[k]
    if todo:
        p[todo] = embed(w, cfg, tok, [papers[i] for i in todo], "papers")
    np.save(cache, p)
    return p


def judged_rows(w, cfg, tok, p, judged):
    """The teacher's rows of `eval-meaning`'s table."""
    q = embed(w, cfg, tok, [j["query"] for j in judged], "queries")
    sims = q @ p.T
    for label, kind in [("all", None), ("lexical", "lexical"), ("paraphrased", "paraphrase")]:
        rows = [(i, j) for i, j in enumerate(judged) if j["relevant"] and kind in (None, j["kind"])]
        recall = mrr = 0.0
        for i, j in rows:
            order = np.argsort(-sims[i], kind="stable")
            rank = np.empty(len(order), dtype=np.int64)
            rank[order] = np.arange(len(order))
            ranks = rank[j["relevant"]]
            recall += (ranks < 10).sum() / len(ranks)
            mrr += 1.0 / (ranks.min() + 1)
        n = max(len(rows), 1)
        print(f"| {label} ({len(rows)}) | the teacher, all-MiniLM-L6-v2 | {recall / n:.3f} | {mrr / n:.3f} |")


def main():
    model_dir, work = sys.argv[1], sys.argv[2]
    features = sys.argv[3] if len(sys.argv) > 3 else None
    w = load_file(f"{model_dir}/model.safetensors")
    cfg = json.load(open(f"{model_dir}/config.json"))
    tok = Tokenizer.from_file(f"{model_dir}/tokenizer.json")
    tok.no_truncation()
    tok.no_padding()
    papers = [json.loads(l) for l in open(f"{work}/papers.jsonl", encoding="utf-8")]
    p = paper_vectors(w, cfg, tok, work, papers, features)
    if os.path.exists(f"{work}/judged.jsonl"):
        judged = [json.loads(l) for l in open(f"{work}/judged.jsonl", encoding="utf-8")]
        judged_rows(w, cfg, tok, p, judged)
        return
    queries = [json.loads(l) for l in open(f"{work}/queries.jsonl", encoding="utf-8")]
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
