"""Benchmark of the Spark join in local mode: N stored windows against a batch of
suspect windows (1% of N, a third of them copies of stored windows with up to 3 bits
flipped), and the stored windows against themselves. Prints one JSON line per
measurement: windows, seconds (the join written to Parquet), rows shuffled, the largest
group, pairs found and the planted copies (random 64-bit fingerprints almost never come
within 3 bits, so the pairs are the planted copies when the join is exact).

    python3 spark/bench.py --windows 1000000,10000000 [--master local[2]]   (from any folder)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from pyspark.sql import SparkSession

# The job's package sits beside this script. Run from the repository root (or anywhere),
# neither this process nor Spark's Python workers (started with this process's environment)
# would find it in the current folder.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
os.environ["PYTHONPATH"] = os.pathsep.join(p for p in [HERE, os.environ.get("PYTHONPATH")] if p)
from zhiwen_spark import job  # noqa: E402


def write_windows(path: str, fps: np.ndarray, per_doc: int = 1000) -> None:
    n = len(fps)
    ids = np.arange(n, dtype=np.int64)
    table = pa.table({"doc_id": ids // per_doc + 1, "ordinal": ids % per_doc, "fingerprint": fps.view(np.int64)})
    os.makedirs(path, exist_ok=True)
    # Files of 2M rows, as the export writes large tables in parts.
    for part, start in enumerate(range(0, n, 2_000_000)):
        pq.write_table(table.slice(start, 2_000_000), os.path.join(path, f"part-{part:05}.parquet"))


def near(rng: np.random.Generator, fps: np.ndarray, max_flips: int) -> np.ndarray:
    out = fps.copy()
    for _ in range(max_flips):
        flip = rng.random(len(out)) < 0.5
        out[flip] ^= np.uint64(1) << rng.integers(0, 64, flip.sum()).astype(np.uint64)
    return out


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--windows", default="1000000,10000000")
    p.add_argument("--master", default="local[2]")
    p.add_argument("--self-join", action="store_true", help="also join the corpus with itself")
    p.add_argument("--partitions", type=int, default=64)
    args = p.parse_args()
    spark = (
        SparkSession.builder.master(args.master)
        .appName("zhiwen-bench")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", str(args.partitions))
        .config("spark.driver.memory", "8g")
        .getOrCreate()
    )
    rng = np.random.default_rng(19)
    for n in [int(x) for x in args.windows.split(",")]:
        with tempfile.TemporaryDirectory() as tmp:
            corpus = rng.integers(0, 2**64 - 1, n, dtype=np.uint64, endpoint=True)
            m = max(n // 100, 1)
            copies = near(rng, corpus[rng.integers(0, n, m // 3)], 3)
            suspects = np.concatenate([copies, rng.integers(0, 2**64 - 1, m - len(copies), dtype=np.uint64)])
            write_windows(os.path.join(tmp, "corpus"), corpus)
            write_windows(os.path.join(tmp, "suspects"), suspects)
            left = spark.read.parquet(os.path.join(tmp, "corpus"))
            right = spark.read.parquet(os.path.join(tmp, "suspects"))
            modes = [("check", right)] + ([("self", None)] if args.self_join else [])
            for mode, r in modes:
                started = time.monotonic()
                out = os.path.join(tmp, f"pairs-{mode}")
                job.hamming_join(left, r).write.parquet(out)
                seconds = time.monotonic() - started
                stats = job.group_stats(left, r)
                found = pq.read_table(out).num_rows
                print(
                    json.dumps(
                        {
                            "bench": "spark-join",
                            "mode": mode,
                            "master": args.master,
                            "corpus_windows": n,
                            "suspect_windows": 0 if r is None else m,
                            "seconds": round(seconds, 2),
                            "rows_shuffled": stats["rows_shuffled"],
                            "largest_group": stats["largest_group"],
                            "hot_groups": stats["hot_groups"],
                            "pairs": found,
                            "planted_copies": len(copies) if r is not None else None,
                        }
                    ),
                    flush=True,
                )
    spark.stop()


if __name__ == "__main__":
    main()
