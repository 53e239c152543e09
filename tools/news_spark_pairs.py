#!/usr/bin/env python3
"""Scores the pairs of a Spark self-join (`job.py self`) of zh-news-2018 against the same
independent ground truth as `tools/news_clusters.py --body`, and compares them with
`zhiwen check --among`.

Ground truth (tools/news_truth.py, made without Zhiwen's code): each article's body (the
headline, its first non-empty line, left out; only letters and digits kept, ASCII lower-cased)
as character 5-shingles; candidate pairs from datasketch's MinHashLSH at 0.3 (128 permutations)
plus the exact duplicates index.tsv flags; a pair is a near-duplicate when the exact Jaccard of
its shingles is >= 0.8.

A pair of the run (it passed check's evidence thresholds: the run's `doc_pairs/`) is called a
near-duplicate when `min(similarity, source_coverage)` (the share of each whole text inside the
pair's passages: the suspect's and the source's) is >= --threshold (default 0.8). Precision:
the share of the pairs called whose body Jaccard is >= 0.8 (computed exactly for each);
recall: the share of the truth's pairs called. Prints one JSON line per threshold of a sweep,
then the one asked.

    tools/news_spark_pairs.py DATA_DIR RUN_DIR [--threshold 0.8] [--among AMONG.json]
    tools/news_spark_pairs.py DATA_DIR --subset 2000 > files.txt

(--subset N: print N articles, those of every truth pair and others drawn with seed 13, to run
`zhiwen check --among` on when all 11,743 are too many: `cd DATA_DIR/zh-news-2018 && zhiwen
check --among --json $(cat files.txt) > AMONG.json`.)

(--among: the JSON of `zhiwen check --among --json` on the same files, or on a subset of them:
the run's pairs among those files must be its pairs, with the same similarities.)
Needs pyarrow and `pip install datasketch`.
"""
import argparse
import json
import random
import sys
from pathlib import Path

import pyarrow.parquet as pq
from news_truth import Truth

p = argparse.ArgumentParser()
p.add_argument("data")
p.add_argument("run", nargs="?")
p.add_argument("--subset", type=int)
p.add_argument("--threshold", type=float, default=0.8)
p.add_argument("--among")
args = p.parse_args()

news = Truth(args.data, body_only=True)
data, files, jaccard, truth = news.data, news.files, news.jaccard, news.at80

if args.subset:
    members = sorted({f for pair in truth for f in pair})
    rest = sorted(set(files) - set(members))
    random.Random(13).shuffle(rest)
    print("\n".join(sorted(members + rest[: max(0, args.subset - len(members))])))
    sys.exit(0)

run = Path(args.run)
manifest = json.loads((run / "manifest.json").read_text())
docs = pq.read_table(Path(manifest["corpus"]) / "documents", columns=["id", "path"]).to_pylist()
root = str(data.resolve()) + "/"
name = {d["id"]: d["path"].removeprefix("file://").removeprefix(root) for d in docs}
pairs = pq.read_table(run / "doc_pairs").to_pylist()
found = {}
for r in pairs:
    a, b = name[r["suspect_id"]], name[r["source_id"]]
    found[(min(a, b), max(a, b))] = min(r["similarity"], r["source_coverage"])
print(f"run: {len(found)} pairs passing the evidence thresholds", file=sys.stderr)


def score(threshold):
    called = {pair for pair, share in found.items() if share >= threshold}
    true_positives = sum(jaccard(*pair) >= 0.8 for pair in called)
    return {
        "threshold": threshold,
        "share": "min(similarity, source_coverage)",
        "pairs_called": len(called),
        "precision_at_J0.8": round(true_positives / max(1, len(called)), 4),
        "recall_at_J0.8": round(len(truth & called) / max(1, len(truth)), 4),
        "truth_pairs": len(truth),
        "truth_pairs_among_run_pairs": len(truth & found.keys()),
    }


for threshold in (0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9):
    print(json.dumps({"sweep": True, **score(threshold)}))
print(json.dumps(score(args.threshold)))

if args.among:
    among = json.loads(Path(args.among).read_text())
    key = lambda path: str(Path(path).resolve()).removeprefix(root)
    want = {}
    for pr in among["pairs"]:
        a, b = key(pr["a"]), key(pr["b"])
        want[(min(a, b), max(a, b))] = (pr["similarity"], len(pr["passages"]))
    subset = {key(r["path"]) for r in among["suspects"]} if among.get("suspects") else None
    got = {}
    for r in pairs:
        a, b = name[r["suspect_id"]], name[r["source_id"]]
        if subset is None or (a in subset and b in subset):
            got[(min(a, b), max(a, b))] = (r["similarity"], r["passages"])
    same_similarity = sum(abs(got[k][0] - want[k][0]) < 1e-9 for k in got.keys() & want.keys())
    print(
        json.dumps(
            {
                "among_pairs": len(want),
                "run_pairs_among_the_same_files": len(got),
                "only_in_among": len(want.keys() - got.keys()),
                "only_in_run": len(got.keys() - want.keys()),
                "same_similarity": same_similarity,
                "same_passage_count": sum(got[k][1] == want[k][1] for k in got.keys() & want.keys()),
            }
        )
    )
