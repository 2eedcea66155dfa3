#!/usr/bin/env python3
"""Writes the WordPiece reference outputs the tokenizer test compares with:
each text of the seed lists (every paragraph after the header) and a few
hostile strings, tokenized by Hugging Face `tokenizers` with the model's own
tokenizer.json (no [CLS]/[SEP], no padding, no truncation).

    python3 tools/distill/reference.py MODEL_DIR corpus OUT.jsonl
"""

import glob
import json
import sys

from tokenizers import Tokenizer

EXTRA = [
    "Bokmål naïve café résumé Æsir straße",
    "论文 ICLR 2026 论文列表：扩散模型与强化学习。",
    "GPT-4o's 3.5× speed-up (p<0.05) — “quoted” ‘single’ … e.g., i.e.",
    "https://github.com/org/repo_name?x=1&y=2#frag",
    "$\\mathcal{O}(n \\log n)$ and \\emph{emphasis} with ~tilde^caret",
    "ﬁne-tuning K² x₁ ①②③ ＦＵＬＬＷＩＤＴＨ",
    "a" * 120 + " supercalifragilisticexpialidocious antidisestablishmentarianism",
    "emoji 🙂 and zero\u200bwidth and tab\there",
]


def main():
    model_dir, corpus, out = sys.argv[1:4]
    tok = Tokenizer.from_file(f"{model_dir}/tokenizer.json")
    tok.no_padding()
    tok.no_truncation()
    texts = []
    for path in sorted(glob.glob(f"{corpus}/*.txt")):
        paras = open(path, encoding="utf-8").read().split("\n\n")
        texts += [p.strip() for p in paras[1:] if p.strip()]
    texts += EXTRA
    with open(out, "w", encoding="utf-8") as f:
        for t in texts:
            ids = tok.encode(t, add_special_tokens=False).ids
            f.write(json.dumps({"text": t, "ids": ids}, ensure_ascii=False) + "\n")
    print(f"wrote {len(texts)} texts to {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
