#!/usr/bin/env python3
"""Measures `zhiwen clusters` on ../shared/data/zh-news-2018 against a ground truth made
independently of Zhiwen's code, and compares it with datasketch's MinHash-LSH.

Ground truth (tools/news_truth.py): character 5-shingles (white space removed, ASCII
lower-cased) of every article; candidate pairs from datasketch MinHashLSH at threshold 0.3
(128 permutations: a pair at 0.8 is missed with probability ~1e-30) plus the exact duplicates
index.tsv flags; then the exact Jaccard of every candidate. Pairs at J >= 0.8 must share a
Zhiwen group.

With --body the truth is made of the article bodies: the headline (first non-empty line)
left out and only letters and digits kept (punctuation, symbols and white space removed).

Usage: tools/news_clusters.py DATA_DIR ZHIWEN_BIN STORE [--body]
(STORE: a Zhiwen store with DATA_DIR/zh-news-2018 imported). Needs `pip install datasketch`.
"""
import json, subprocess, sys, time
from pathlib import Path
from news_truth import Truth

body_only = "--body" in sys.argv[4:]
zhiwen, store = sys.argv[2], sys.argv[3]
news = Truth(sys.argv[1], body_only)
data, files, exact, sets, jaccard, at80 = news.data, news.files, news.exact, news.sets, news.jaccard, news.at80
mh_seconds = news.mh_seconds

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
pairs, lsh_seconds = news.lsh_pairs(0.8)
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
