"""The near-duplicate ground truth of ../shared/data/zh-news-2018, made without Zhiwen's code,
shared by tools/news_clusters.py and tools/news_spark_pairs.py.

Each article as character 5-shingles: of the whole text (white space removed, ASCII
lower-cased), or of its body (the headline, its first non-empty line, left out; only letters
and digits kept); candidate pairs from datasketch's MinHashLSH at 0.3 (128 permutations: a
pair at 0.8 is missed with probability ~1e-30) plus the exact duplicates index.tsv flags; then
the exact Jaccard of every candidate. Needs `pip install datasketch`.
"""
import sys
import time
from pathlib import Path

from datasketch import MinHash, MinHashLSH


def body(text):
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.strip("\ufeff \t\r\u3000"):
            rest = "\n".join(lines[i + 1 :])
            return rest if rest.strip() else text
    return text


def shingles(text, body_only):
    if body_only:
        chars = "".join(c.lower() if c.isascii() else c for c in body(text) if c.isalnum())
    else:
        chars = "".join(c.lower() if c.isascii() else c for c in text if not c.isspace())
    return {chars[i : i + 5] for i in range(len(chars) - 4)}


class Truth:
    """The articles (`files`, in index.tsv's order), the exact duplicates index.tsv flags
    (`exact`), each article's shingles (`sets`) and MinHash (`mh`), the candidate pairs
    (`loose`, each with its exact Jaccard in `truth`) and the pairs at J >= 0.8 (`at80`)."""

    def __init__(self, data_dir, body_only):
        self.data = Path(data_dir) / "zh-news-2018"
        rows = [line.rstrip("\n").split("\t") for line in open(self.data / "index.tsv", encoding="utf-8")][1:]
        self.files = [r[0] for r in rows]
        self.exact = [(r[0], r[5]) for r in rows if r[5]]
        t = time.time()
        self.sets = {f: shingles((self.data / f).read_text(encoding="utf-8"), body_only) for f in self.files}
        print(f"shingled {len(self.sets)} articles in {time.time() - t:.1f} s", file=sys.stderr)
        t = time.time()
        self.mh = {}
        for f, s in self.sets.items():
            m = MinHash(num_perm=128)
            m.update_batch([x.encode("utf-8") for x in s])
            self.mh[f] = m
        self.mh_seconds = time.time() - t
        self.loose = self.lsh_pairs(0.3)[0] | {(min(a, b), max(a, b)) for a, b in self.exact}
        self.truth = {p: self.jaccard(*p) for p in self.loose}
        self.at80 = {p for p, j in self.truth.items() if j >= 0.8}
        print(f"ground truth: {len(self.loose)} candidate pairs at 0.3, {len(self.at80)} pairs at J >= 0.8", file=sys.stderr)

    def lsh_pairs(self, threshold):
        """The pairs datasketch's MinHashLSH finds at `threshold`, and the seconds it took."""
        t = time.time()
        lsh = MinHashLSH(threshold=threshold, num_perm=128)
        for f in self.files:
            if self.sets[f]:
                lsh.insert(f, self.mh[f])
        pairs = set()
        for f in self.files:
            if self.sets[f]:
                pairs |= {(min(f, g), max(f, g)) for g in lsh.query(self.mh[f]) if g != f}
        return pairs, time.time() - t

    def jaccard(self, a, b):
        sa, sb = self.sets[a], self.sets[b]
        return len(sa & sb) / len(sa | sb) if sa or sb else 0.0
