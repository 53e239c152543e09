#!/usr/bin/env python3
"""Measures `zhiwen clusters` on ../shared/data/zh-news-2018 against a ground truth made
independently of Zhiwen's code, and compares it with datasketch's MinHash-LSH.

Ground truth: character 5-shingles (white space removed, ASCII lower-cased) of every
article; candidate pairs from datasketch MinHashLSH at threshold 0.3 (128 permutations:
a pair at 0.8 is missed with probability ~1e-30) plus the exact duplicates index.tsv flags;
then the exact Jaccard of every candidate. Pairs at J >= 0.8 must share a Zhiwen group.

With --body the truth is made of the article bodies: the headline (first non-empty line)
left out and only letters and digits kept (punctuation, symbols and white space removed), and
the precision of the pairs Zhiwen puts in one group is printed too.

Usage: tools/news_clusters.py DATA_DIR ZHIWEN_BIN STORE [--body]
(STORE: a Zhiwen store with DATA_DIR/zh-news-2018 imported). Needs `pip install datasketch`.
"""
import json, subprocess, sys, time
from pathlib import Path
from datasketch import MinHash, MinHashLSH

body_only = "--body" in sys.argv[4:]
data, zhiwen, store = Path(sys.argv[1]) / "zh-news-2018", sys.argv[2], sys.argv[3]
rows = [l.rstrip("\n").split("\t") for l in open(data / "index.tsv", encoding="utf-8")][1:]
files = [r[0] for r in rows]
exact = [(r[0], r[5]) for r in rows if r[5]]

def body(text):
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.strip("\ufeff \t\r\u3000"):
            rest = "\n".join(lines[i + 1:])
            return rest if rest.strip() else text
    return text

def shingles(text):
    if body_only:
        chars = "".join(c.lower() if c.isascii() else c for c in body(text) if c.isalnum())
    else:
        chars = "".join(c.lower() if c.isascii() else c for c in text if not c.isspace())
    return {chars[i:i + 5] for i in range(len(chars) - 4)}

t = time.time()
sets = {f: shingles((data / f).read_text(encoding="utf-8")) for f in files}
print(f"shingled {len(sets)} articles in {time.time() - t:.1f} s", file=sys.stderr)

def minhashes():
    t = time.time()
    out = {}
    for f, s in sets.items():
        m = MinHash(num_perm=128)
        m.update_batch([x.encode("utf-8") for x in s])
        out[f] = m
    return out, time.time() - t

mh, mh_seconds = minhashes()

def lsh_pairs(threshold):
    t = time.time()
    lsh = MinHashLSH(threshold=threshold, num_perm=128)
    for f in files:
        if sets[f]:
            lsh.insert(f, mh[f])
    pairs = set()
    for f in files:
        if sets[f]:
            for g in lsh.query(mh[f]):
                if g != f:
                    pairs.add((min(f, g), max(f, g)))
    return pairs, time.time() - t

def jaccard(a, b):
    sa, sb = sets[a], sets[b]
    return len(sa & sb) / len(sa | sb) if sa or sb else 0.0

loose, _ = lsh_pairs(0.3)
loose |= {(min(a, b), max(a, b)) for a, b in exact}
truth = {p: jaccard(*p) for p in loose}
at80 = {p for p, j in truth.items() if j >= 0.8}
print(f"ground truth: {len(loose)} candidate pairs at 0.3, {len(at80)} pairs at J >= 0.8", file=sys.stderr)

def groups_of(pairs):
    parent = {}
    def find(x):
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x
    for a, b in pairs:
        parent[find(a)] = find(b)
    groups = {}
    for x in parent:
        groups.setdefault(find(x), []).append(x)
    return [g for g in groups.values() if len(g) > 1]

def score(name, groups, seconds):
    where = {f: i for i, g in enumerate(groups) for f in g}
    together = lambda a, b: a in where and where.get(a) == where.get(b)
    recall = sum(together(a, b) for a, b in at80) / max(1, len(at80))
    exact_ok = sum(together(a, b) for a, b in exact)
    # A member whose Jaccard to every other member of its group is < 0.5 should not be there.
    strays = sum(1 for g in groups for f in g if max(jaccard(f, o) for o in g if o != f) < 0.5)
    short = [(a, b) for a, b in at80 if min(len(sets[a]), len(sets[b])) < 500]
    long_ = [(a, b) for a, b in at80 if min(len(sets[a]), len(sets[b])) >= 500]
    rec = lambda ps: sum(together(a, b) for a, b in ps) / max(1, len(ps))
    in_groups = [(a, b) for g in groups for i, a in enumerate(g) for b in g[i + 1:]]
    precision = sum(jaccard(a, b) >= 0.8 for a, b in in_groups) / max(1, len(in_groups))
    print(json.dumps({
        "method": name, "truth": "bodies" if body_only else "whole texts",
        "pairs_in_groups": len(in_groups), "precision_at_0.8": round(precision, 4), "seconds": round(seconds, 3), "groups": len(groups),
        "grouped": sum(len(g) for g in groups), "recall_at_0.8": round(recall, 4),
        "recall_short_under_500": round(rec(short), 4), "short_pairs": len(short),
        "recall_long": round(rec(long_), 4), "long_pairs": len(long_),
        "exact_duplicates_grouped": f"{exact_ok}/{len(exact)}", "strays_below_0.5": strays,
    }, ensure_ascii=False))

# datasketch at 0.8, verified by exact Jaccard, union-find: the same recipe as Zhiwen's.
pairs, lsh_seconds = lsh_pairs(0.8)
t = time.time()
verified = [p for p in pairs if jaccard(*p) >= 0.8]
score("datasketch MinHashLSH 0.8 (+ exact Jaccard)", groups_of(verified), mh_seconds + lsh_seconds + time.time() - t)
print(f"datasketch: MinHash {mh_seconds:.1f} s, LSH build+query {lsh_seconds:.1f} s, {len(pairs)} candidates", file=sys.stderr)

for method in ["minhash", "simhash"]:
    t = time.time()
    out = subprocess.run([zhiwen, "--db", store, "clusters", "--json", "--method", method],
                         check=True, capture_output=True, text=True)
    seconds = time.time() - t
    found = json.loads(out.stdout)
    groups = [[str(Path(m["path"]).relative_to(data.resolve())) for m in g["members"]] for g in found["groups"]]
    score(f"zhiwen clusters --method {method}", groups, seconds)
