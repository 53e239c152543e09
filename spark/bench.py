"""Benchmark of the Spark job. Prints one JSON line per measurement, with per step (plan,
join, passages, doc_pairs, ...) the shuffle rows and bytes written and read and the times,
read from Spark's monitoring REST API of the running application (``job.stage_metrics``).

Two benchmarks:

* the join alone (default): N random stored windows against a batch of suspect windows (1% of
  N, a third of them copies of stored windows with up to 3 bits flipped), and with
  ``--self-join`` the stored windows against themselves; random 64-bit fingerprints almost
  never come within 3 bits, so the pairs are the planted copies when the join is exact;
* ``--texts``: the whole job on synthetic Chinese texts of about N windows (documents of
  2,000 characters drawn from 3,500 Han characters, Zipf-weighted): fingerprinted on the
  cluster (``job.py fingerprint``), then ``check`` of a batch of 1% as many documents (a third
  of them copies of corpus documents with 2% of their characters replaced) and with
  ``--self-join`` ``self`` of the corpus, 1% of whose documents are such copies of others.

Locally (``--master local[2]``, the default) or on a standalone cluster on loopback that the
bench starts (``--standalone 1``: a master and that many workers from the PySpark
distribution's scripts, the job shipped as the README's recipe ships it: ``--package`` is
the folder ``spark/package --release`` prints), from any folder:

    python3 spark/bench.py --windows 1000000,10000000 --self-join
    python3 spark/bench.py --texts --windows 1000000,10000000 --self-join --standalone 1 --package "$(spark/package --release)"
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pyspark
from pyspark.sql import SparkSession

# The job's package sits beside this script. Run from the repository root (or anywhere),
# neither this process nor Spark's Python workers (started with this process's environment)
# would find it in the current folder.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
os.environ["PYTHONPATH"] = os.pathsep.join(p for p in [HERE, os.environ.get("PYTHONPATH")] if p)
from zhiwen_spark import job  # noqa: E402

SPARK_HOME = Path(pyspark.__file__).parent


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


#: Characters per synthetic document, and windows per character (a stored window every
#: `step` = 6 units; measured on zh-news-2018: 2.25 M windows of 15.8 M characters).
DOC_CHARS = 2000
WINDOWS_PER_CHAR = 2_253_822 / 15_800_000


class Texts:
    """Synthetic Chinese documents: 3,500 Han characters, Zipf-weighted, with a full stop
    every 20-40 characters."""

    def __init__(self, rng: np.random.Generator):
        self.rng = rng
        self.alphabet = np.array([chr(0x4E00 + i) for i in rng.choice(20000, 3500, replace=False)])
        weights = 1.0 / np.arange(1, 3501)
        self.p = weights / weights.sum()

    def document(self) -> str:
        chars = self.alphabet[self.rng.choice(3500, DOC_CHARS, p=self.p)]
        for i in np.cumsum(self.rng.integers(20, 40, DOC_CHARS // 20)):
            if i < DOC_CHARS:
                chars[i] = "。"
        return "".join(chars)

    def copy_of(self, text: str) -> str:
        """``text`` with 2% of its characters replaced."""
        chars = np.array(list(text))
        where = self.rng.random(len(chars)) < 0.02
        chars[where] = self.alphabet[self.rng.choice(3500, where.sum(), p=self.p)]
        return "".join(chars)


def write_texts(path: str, texts: list[str]) -> None:
    os.makedirs(path, exist_ok=True)
    table = pa.table({"id": pa.array(range(1, len(texts) + 1), pa.int64()), "text": texts})
    pq.write_table(table, os.path.join(path, "texts.parquet"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Standalone:
    """A Spark standalone cluster on 127.0.0.1: a master and ``workers`` workers started with
    the PySpark distribution's ``spark-class`` (as spark/tests/test_cluster.py starts one),
    stopped by ``stop``."""

    def __init__(self, workers: int, cores: int, memory: str, folder: str):
        self.env = {**os.environ, "SPARK_HOME": str(SPARK_HOME), "SPARK_LOCAL_IP": "127.0.0.1", "SPARK_LOG_DIR": folder}
        # The executors get nothing from this machine's Python but the packed environment.
        for name in ("PYTHONPATH", "PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON"):
            self.env.pop(name, None)
        self.folder = Path(folder)
        self.procs: list[tuple[subprocess.Popen, Path]] = []
        port = free_port()
        self.url = f"spark://127.0.0.1:{port}"
        try:
            self._start(
                "master",
                ["org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port", str(port), "--webui-port", str(free_port())],
                "I have been elected leader",
            )
            for i in range(workers):
                self._start(
                    f"worker{i}",
                    [
                        "org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1", "--port", str(free_port()),
                        "--webui-port", str(free_port()), "--cores", str(cores), "--memory", memory,
                        "--work-dir", str(self.folder / f"work{i}"), self.url,
                    ],
                    "Successfully registered with master",
                )  # fmt: skip
        except BaseException:
            self.stop()
            raise

    def _start(self, name: str, args: list[str], ready: str) -> None:
        log = self.folder / f"{name}.log"
        with open(log, "wb") as out:
            proc = subprocess.Popen(
                [str(SPARK_HOME / "bin" / "spark-class"), *args], env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        self.procs.append((proc, log))
        deadline = time.monotonic() + 120
        while ready not in log.read_text(errors="replace"):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the {name} did not start:\n{log.read_text(errors='replace')[-3000:]}")
            time.sleep(0.5)

    def stop(self) -> None:
        for proc, _ in reversed(self.procs):
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(30)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait(10)


def session(args, cluster: Standalone | None) -> SparkSession:
    builder = SparkSession.builder.appName("zhiwen-bench").config("spark.sql.shuffle.partitions", str(args.partitions))
    if cluster is not None:
        package = Path(args.package)
        # The executors' Python: PySpark takes it from PYSPARK_PYTHON when the session is made
        # in this process (spark.pyspark.python is read by spark-submit alone).
        os.environ["PYSPARK_PYTHON"] = "./environment/bin/python"
        builder = (
            builder.master(cluster.url)
            .config("spark.archives", f"{package / 'zhiwen-env.tar.gz'}#environment")
            .config("spark.submit.pyFiles", str(package / "zhiwen_spark.zip"))
            .config("spark.pyspark.python", "./environment/bin/python")
            .config("spark.pyspark.driver.python", sys.executable)
            .config("spark.executor.memory", args.executor_memory)
        )
    else:
        builder = builder.master(args.master)
    # The driver's memory can only be set before its JVM starts (as spark-submit's --driver-memory does).
    os.environ.setdefault("PYSPARK_SUBMIT_ARGS", f"--driver-memory {args.driver_memory} pyspark-shell")
    return builder.getOrCreate()


def bench_join(spark, args, rng, n: int, tmp: str):
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
        steps = job.Steps(spark)
        with steps(f"{mode} join {n}"):
            job.hamming_join(left, r).write.parquet(out)
        seconds = time.monotonic() - started
        stats = job.group_stats(left, r)
        found = pq.read_table(out).num_rows
        stages = job.stage_metrics(spark, steps) or {}
        yield {
            "bench": "spark-join",
            "mode": mode,
            "corpus_windows": n,
            "suspect_windows": 0 if r is None else m,
            "seconds": round(seconds, 2),
            "rows_shuffled": stats["rows_shuffled"],
            "largest_group": stats["largest_group"],
            "hot_groups": stats["hot_groups"],
            "pairs": found,
            "planted_copies": len(copies) if r is not None else None,
            "stages": {"join": stages.get(f"{mode} join {n}")},
        }


def bench_texts(spark, args, rng, n: int, tmp: str):
    """The whole job on synthetic texts of about ``n`` windows."""
    gen = Texts(rng)
    docs = max(int(n / (DOC_CHARS * WINDOWS_PER_CHAR)), 10)
    corpus = [gen.document() for _ in range(docs)]
    # Self-join: 1% of the documents are copies of others.
    copied = rng.choice(docs, max(docs // 100, 1), replace=False)
    for i in copied:
        corpus[i] = gen.copy_of(corpus[(i + 1 + rng.integers(docs - 1)) % docs])
    m = max(docs // 100, 3)
    suspects = [gen.copy_of(corpus[rng.integers(docs)]) for _ in range(m // 3)] + [gen.document() for _ in range(m - m // 3)]
    write_texts(os.path.join(tmp, "corpus-texts"), corpus)
    write_texts(os.path.join(tmp, "suspect-texts"), suspects)
    with job.Steps(spark)("fingerprint"):
        job.fingerprint_corpus(spark, os.path.join(tmp, "corpus-texts"), os.path.join(tmp, "corpus"))
        job.fingerprint_corpus(spark, os.path.join(tmp, "suspect-texts"), os.path.join(tmp, "suspects"))
    windows = json.loads(Path(tmp, "corpus", "manifest.json").read_text())["windows"]
    modes = [("check", os.path.join(tmp, "suspects"))] + ([("self", None)] if args.self_join else [])
    for mode, suspects_dir in modes:
        started = time.monotonic()
        run_dir = job.run(spark, mode, os.path.join(tmp, "corpus"), suspects_dir, os.path.join(tmp, "runs"), run_id=mode, metrics=True)
        seconds = time.monotonic() - started
        manifest = json.loads(Path(run_dir, "manifest.json").read_text())
        # The REST API holds every stage of the application: main() keeps this run's (the
        # fingerprinting's with the first) by subtracting the totals before it.
        yield {
            "bench": "spark-texts",
            "mode": mode,
            "documents": docs,
            "corpus_windows": windows,
            "suspect_documents": m if mode == "check" else 0,
            "planted_copies": len(copied) if mode == "self" else m // 3,
            "seconds": round(seconds, 2),
            "doc_pairs": manifest["stats"]["doc_pairs"],
            "hits": manifest["stats"]["hits"],
            "text_cells": manifest["text_cells"],
            "stages": manifest["stages"],
        }


def minus(after: dict | None, before: dict | None) -> dict | None:
    """Stage metrics of one run: the application's totals after it less those before it."""
    if after is None:
        return None
    out = {}
    for step, m in after.items():
        b = (before or {}).get(step, {})
        d = {k: (round(v - b.get(k, 0), 3) if isinstance(v, float) else v - b.get(k, 0)) for k, v in m.items() if k != "seconds"}
        if "seconds" in m:
            d["seconds"] = m["seconds"]
        if d.get("stages"):
            out[step] = d
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--windows", default="1000000,10000000")
    p.add_argument("--master", default="local[2]")
    p.add_argument("--self-join", action="store_true", help="also join the corpus with itself")
    p.add_argument("--texts", action="store_true", help="the whole job on synthetic texts, not the join alone")
    p.add_argument("--partitions", type=int, default=64)
    p.add_argument("--standalone", type=int, default=0, metavar="WORKERS", help="start a standalone cluster on loopback")
    p.add_argument("--worker-cores", type=int, default=2)
    p.add_argument("--worker-memory", default="8g")
    p.add_argument("--executor-memory", default="6g")
    p.add_argument("--driver-memory", default="4g")
    p.add_argument("--package", help="the folder `spark/package --release` prints (with --standalone)")
    args = p.parse_args()
    if args.standalone and not args.package:
        p.error("--standalone needs --package (the folder spark/package --release prints)")
    with tempfile.TemporaryDirectory() as logs:
        cluster = Standalone(args.standalone, args.worker_cores, args.worker_memory, logs) if args.standalone else None
        try:
            spark = session(args, cluster)
            rng = np.random.default_rng(19)
            master = cluster.url if cluster else args.master
            for n in [int(x) for x in args.windows.split(",")]:
                with tempfile.TemporaryDirectory() as tmp:
                    bench = bench_texts if args.texts else bench_join
                    before = job.stage_metrics(spark)
                    for line in bench(spark, args, rng, n, tmp):
                        if args.texts:
                            after = job.stage_metrics(spark)
                            line["stages"] = minus(line["stages"], before)
                            before = after
                        print(json.dumps({**line, "master": master}), flush=True)
            spark.stop()
        finally:
            if cluster is not None:
                cluster.stop()


if __name__ == "__main__":
    main()
