#!/usr/bin/env python3
"""The teacher's sentence vectors of research text: what `learn.py` trains
the static table to reproduce (tokenlearn's recipe, on the domain).

    python3 tools/distill/featurize.py MODEL_DIR OUT_DIR LIST_DIR…

Each LIST_DIR is read as the compiler reads it, for its abstracts and
titles: `*.jsonl` records (`title`, `abstract`) and `*.txt` lists (a header
line, then one abstract a paragraph). The texts are every abstract, every
title, and every sentence of an abstract of four words or more: a query is
a sentence's length, an abstract a paper's. Each goes through the full
all-MiniLM-L6-v2 (mean pooling, 256 word pieces at most, unit length: as
sentence-transformers runs it; `distill.forward`). Writes OUT_DIR/texts.jsonl
and OUT_DIR/teacher.npy (float32, one row a text), and reuses them when the
texts are the same (the vectors take about half an hour on two cores).
"""

import glob
import json
import os
import re
import sys

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

sys.path.insert(0, os.path.dirname(__file__))
from teacher import embed  # noqa: E402

SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")


def lists(dirs):
    """(title, abstract) of every record of the lists, in file order."""
    for d in dirs:
        for path in sorted(glob.glob(os.path.join(d, "*.jsonl"))):
            for line in open(path, encoding="utf-8"):
                if line.strip():
                    r = json.loads(line)
                    yield r.get("title") or "", r.get("abstract") or ""
        for path in sorted(glob.glob(os.path.join(d, "*.txt"))):
            text = open(path, encoding="utf-8").read()
            paragraphs = [p.strip() for p in re.split(r"\n\s*\n", text)]
            first = paragraphs[0].split("\n", 1)
            paragraphs[0] = first[1].strip() if len(first) > 1 else ""
            for p in paragraphs:
                if p:
                    yield "", " ".join(p.split())


def texts_of(dirs):
    seen, out = set(), []
    for title, abstract in lists(dirs):
        pieces = [abstract, title] + [
            s for s in SENTENCE_END.split(abstract) if len(s.split()) >= 4
        ]
        for t in pieces:
            t = " ".join(t.split())
            if t and t not in seen:
                seen.add(t)
                out.append(t)
    return out


def main():
    model_dir, out_dir, dirs = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(out_dir, exist_ok=True)
    texts = texts_of(dirs)
    texts_file, vectors_file = f"{out_dir}/texts.jsonl", f"{out_dir}/teacher.npy"
    if os.path.exists(texts_file) and os.path.exists(vectors_file):
        old = [json.loads(l) for l in open(texts_file, encoding="utf-8")]
        if old == texts and np.load(vectors_file).shape[0] == len(texts):
            print(f"{len(texts)} texts: the teacher's vectors are in {out_dir}", file=sys.stderr)
            return
    w = load_file(f"{model_dir}/model.safetensors")
    cfg = json.load(open(f"{model_dir}/config.json"))
    tok = Tokenizer.from_file(f"{model_dir}/tokenizer.json")
    tok.no_truncation()
    tok.no_padding()
    vectors = embed(w, cfg, tok, texts, "texts").astype(np.float32)
    np.save(vectors_file, vectors)
    with open(texts_file, "w", encoding="utf-8") as f:
        for t in texts:
            f.write(json.dumps(t, ensure_ascii=False) + "\n")
    print(f"{len(texts)} texts: wrote {out_dir}", file=sys.stderr)


if __name__ == "__main__":
    main()
