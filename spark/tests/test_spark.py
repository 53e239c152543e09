"""The Spark job in local[2]: exact against brute force and a plain Spark SQL join, a
forced hot group stays exact, fingerprints survive Parquet, and a small corpus checked
through Spark gives the passages `zhiwen check` gives.

Needs: a JRE, pyspark, pyarrow, the kernel wheel (spark/kernel, maturin) and the
`zhiwen` binary (ZHIWEN_BIN, or CARGO_TARGET_DIR/debug/zhiwen)."""

from __future__ import annotations

import itertools
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from pyspark.sql import SparkSession
from pyspark.sql import functions as F

from conftest import FIXTURES, REPO, assert_same_pairs_as_among, assert_same_passages_as_check, run_cli
from zhiwen_spark import job

K = job.MAX_DISTANCE


@pytest.fixture(scope="session")
def spark():
    s = (
        SparkSession.builder.master("local[2]")
        .appName("zhiwen-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .getOrCreate()
    )
    yield s
    s.stop()


def signed(fp: int) -> int:
    """A u64 as Spark holds it: the same 64 bits as a signed long."""
    return fp - (1 << 64) if fp >= 1 << 63 else fp


def planted(rng: random.Random, n: int, centres: list[int]) -> list[int]:
    """Fingerprints with neighbours at every distance 0..k+1, many around shared centres
    (so groups hold many members), the rest unrelated."""
    out: list[int] = []
    while len(out) < n:
        base = rng.choice(centres) if rng.random() < 0.5 else rng.getrandbits(64)
        for flips in range(K + 2):
            fp = base
            for bit in rng.sample(range(64), flips):
                fp ^= 1 << bit
            out.append(fp)
    return out[:n]


def windows_df(spark, fps: list[int], first_doc: int = 1):
    rows = [(first_doc + i // 10, i % 10, signed(fp)) for i, fp in enumerate(fps)]
    return spark.createDataFrame(rows, "doc_id long, ordinal long, fingerprint long")


def brute(left: list[int], right: list[int] | None, k: int = K) -> set:
    a = np.array(left, dtype=np.uint64)
    b = a if right is None else np.array(right, dtype=np.uint64)
    x = a[:, None] ^ b[None, :]
    # Popcount of uint64 by bytes.
    counts = np.unpackbits(x.view(np.uint8).reshape(len(a), len(b), 8), axis=2).sum(axis=2)
    i, j = np.nonzero(counts <= k)
    out = set()
    for ii, jj in zip(i.tolist(), j.tolist()):
        if right is None and ii >= jj:
            continue
        out.add((1 + ii // 10, ii % 10, 1 + jj // 10, jj % 10, int(counts[ii, jj])))
    return out


def as_set(df, unordered: bool = False) -> set:
    """The pairs; with ``unordered`` (a self-join, whose pairs come in either
    orientation) each as (earlier window, later window)."""
    rows = df.select("left_doc", "left_ordinal", "right_doc", "right_ordinal", "distance").collect()
    got = [tuple(r) for r in rows]
    if unordered:
        got = [p if p[:2] < p[2:4] else (*p[2:4], *p[:2], p[4]) for p in got]
    assert len(got) == len(set(got)), "a pair came out twice"
    return set(got)


@pytest.fixture(scope="module")
def planted_data():
    rng = random.Random(16)
    centres = [rng.getrandbits(64) for _ in range(6)]
    corpus = planted(rng, 1500, centres)
    suspects = planted(rng, 600, centres)
    # Copies of corpus fingerprints at distances 0..k+1, including the top bit set.
    for n, fp in enumerate(corpus[::9]):
        for bit in rng.sample(range(64), n % (K + 2)):
            fp ^= 1 << bit
        suspects.append(fp)
    assert any(fp >= 1 << 63 for fp in corpus)
    return corpus, suspects


def test_planted_neighbours_give_exactly_the_brute_force_pairs(spark, planted_data):
    corpus, suspects = planted_data
    want = brute(corpus, suspects)
    assert {p[4] for p in want} == set(range(K + 1)), "pairs at every distance 0..k"
    stats: dict = {}
    got = as_set(job.hamming_join(windows_df(spark, corpus), windows_df(spark, suspects), stats=stats))
    assert got == want
    assert stats["hot_groups"] == 0
    assert stats["rows_shuffled"] == 4 * (len(corpus) + len(suspects))
    # The corpus against itself: each unordered pair once.
    assert as_set(job.hamming_join(windows_df(spark, corpus), None), unordered=True) == brute(corpus, None)


def test_a_plain_spark_sql_join_over_20_tables_agrees(spark, planted_data):
    corpus, suspects = planted_data
    spark.createDataFrame([(1 + i // 10, i % 10, signed(f)) for i, f in enumerate(corpus)], "doc long, ord long, fp long").createOrReplaceTempView("a")
    spark.createDataFrame([(1 + i // 10, i % 10, signed(f)) for i, f in enumerate(suspects)], "doc long, ord long, fp long").createOrReplaceTempView("b")
    # Manku's other design for k = 3: six blocks (11,11,11,11,10,10 bits), three must agree.
    widths = [11, 11, 11, 11, 10, 10]
    shifts = [64 - sum(widths[: i + 1]) for i in range(6)]
    block = lambda side, i: f"(shiftrightunsigned({side}.fp, {shifts[i]}) & {(1 << widths[i]) - 1})"  # noqa: E731
    queries = []
    for combo in itertools.combinations(range(6), 3):
        on = " AND ".join(f"{block('a', i)} = {block('b', i)}" for i in combo)
        queries.append(
            f"SELECT a.doc AS left_doc, a.ord AS left_ordinal, b.doc AS right_doc, b.ord AS right_ordinal, "
            f"bit_count(a.fp ^ b.fp) AS distance FROM a JOIN b ON {on} WHERE bit_count(a.fp ^ b.fp) <= {K}"
        )
    assert len(queries) == 20
    oracle = {tuple(r) for r in spark.sql(" UNION ".join(queries)).collect()}
    got = as_set(job.hamming_join(windows_df(spark, corpus), windows_df(spark, suspects)))
    assert got == oracle
    assert oracle == brute(corpus, suspects)


def test_a_forced_hot_group_takes_the_split_path_and_stays_exact(spark, planted_data):
    corpus, suspects = planted_data
    # 400 windows sharing their top block: one very hot group in table 0.
    rng = random.Random(5)
    top = rng.getrandbits(16) << 48
    hot = [top | rng.getrandbits(48) for _ in range(300)]
    hot += [fp ^ (1 << rng.randrange(48)) for fp in hot[:100]]
    left, right = corpus + hot, suspects + hot[::3]
    stats: dict = {}
    got = as_set(job.hamming_join(windows_df(spark, left), windows_df(spark, right), hot_rows=200, stats=stats))
    assert stats["hot_groups"] >= 1 and stats["largest_group"] > 200
    assert stats["rows_shuffled"] > 4 * (len(left) + len(right)), "hot rows went to their 20 sub-groups"
    assert got == brute(left, right)
    stats = {}
    got = as_set(job.hamming_join(windows_df(spark, left), None, hot_rows=200, stats=stats), unordered=True)
    assert stats["hot_groups"] >= 1
    assert got == brute(left, None)


def test_u64_fingerprints_survive_the_parquet_round_trip(spark, small_corpus, tmp_path):
    tmp, _, _ = small_corpus
    exported = pq.read_table(tmp / "export" / "windows").column("fingerprint").to_numpy()
    assert (exported < 0).any(), "fingerprints with the top bit set are in the export"
    # Through Spark and back: the same 64 bits.
    df = spark.read.parquet(str(tmp / "export" / "windows"))
    df.write.parquet(str(tmp_path / "again"))
    again = pq.read_table(tmp_path / "again").sort_by([("doc_id", "ascending"), ("ordinal", "ascending")])
    original = pq.read_table(tmp / "export" / "windows").sort_by([("doc_id", "ascending"), ("ordinal", "ascending")])
    assert again.column("fingerprint").to_numpy().view(np.uint64).tolist() == original.column(
        "fingerprint"
    ).to_numpy().view(np.uint64).tolist()
    # Spark's blocks of a negative long are those of the u64.
    row = df.orderBy("doc_id", "ordinal").where(F.col("fingerprint") < 0).first()
    u = row.fingerprint + (1 << 64)
    keys = job.keyed(spark.createDataFrame([row])).orderBy("t").select("key").collect()
    assert [k.key for k in keys] == [(u >> (48 - 16 * t)) & 0xFFFF for t in range(4)]


def test_a_small_corpus_checked_through_spark_gives_the_passages_of_zhiwen_check(spark, small_corpus, tmp_path):
    tmp, db, suspects = small_corpus
    run_dir = job.run(
        spark, "check", str(tmp / "export"), str(tmp / "suspects"), str(tmp_path / "runs"), run_id="r1", metrics=True
    )
    assert_same_passages_as_check(run_dir, db, suspects)
    manifest = json.loads((Path(run_dir) / "manifest.json").read_text())
    assert manifest["stats"]["hits"] > 0 and manifest["stats"]["doc_pairs"] > 0
    # The test session has no UI, so no monitoring REST API to read the stages from.
    assert manifest["stages"] is None
    # The HTML reports come out of the run too.
    html = tmp_path / "html"
    run_cli("report", "--from-parquet", run_dir, "--report", str(html) + "/", code=1)
    assert (html / "index.html").exists()
    shutil.rmtree(tmp_path / "runs")


def test_the_passages_are_those_of_check_whatever_the_cells_the_texts_are_moved_to(spark, small_corpus, tmp_path):
    """One cell holding every pair and its texts once, and more cells than documents (a
    text in as many cells as it has pairs): the passages of `zhiwen check` both times."""
    tmp, db, suspects = small_corpus
    for cells in (1, 7):
        run_dir = job.run(
            spark, "check", str(tmp / "export"), str(tmp / "suspects"), str(tmp_path / "runs"), run_id=f"c{cells}",
            text_cells=cells, measure=False,
        )  # fmt: skip
        assert json.loads((Path(run_dir) / "manifest.json").read_text())["text_cells"] == cells
        assert_same_passages_as_check(run_dir, db, suspects)


def test_the_default_cells_give_every_core_work_and_bound_a_cells_texts():
    assert job.default_text_cells(2, 10**6, self_join=True) == 4  # 10 cells for 2 cores
    assert job.default_text_cells(2, 10**6, self_join=False) == 3  # 9 cells
    assert job.default_text_cells(1000, 10**6, self_join=True) == 89
    # 2 TB of texts: a cell holds 2/g of them, at most 256 MB.
    g = job.default_text_cells(2, 2 * 10**12, self_join=True)
    assert 2 * 2 * 10**12 / g <= job.CELL_TEXT_BYTES < 2 * 2 * 10**12 / (g - 1)


def _exchanges(df) -> int:
    return df._jdf.queryExecution().executedPlan().toString().count("Exchange hashpartitioning")


def test_corpus_keys_written_once_spare_the_corpus_a_shuffle_and_stay_exact(spark, planted_data, tmp_path):
    corpus, suspects = planted_data
    folder = str(tmp_path / "corpus")
    windows_df(spark, corpus).write.parquet(os.path.join(folder, "windows"))
    assert job.corpus_keys(spark, folder) is None
    job.write_corpus_keys(spark, folder, buckets=4)
    keys = job.corpus_keys(spark, folder)
    assert keys.windows.count() == 4 * len(corpus)
    left, right = spark.read.parquet(os.path.join(folder, "windows")), windows_df(spark, suspects)
    with_keys = job.hamming_join(left, right, left_keyed=keys)
    assert as_set(with_keys) == brute(corpus, suspects)
    assert _exchanges(with_keys) < _exchanges(job.hamming_join(left, right)), "the corpus side is not shuffled"
    assert as_set(job.hamming_join(left, None, left_keyed=keys), unordered=True) == brute(corpus, None)


def test_the_keys_workflow_across_two_sessions_gives_the_passages_of_check(small_corpus, tmp_path):
    """`job.py keys` in one Spark session, `job.py check` in another (each its own
    process, as a user runs them): the second declares the keys table again over its files."""
    tmp, db, suspects = small_corpus
    corpus = tmp_path / "export"
    shutil.copytree(tmp / "export", corpus)
    env = {**os.environ, "PYTHONPATH": str(REPO / "spark")}

    def job_py(*args):
        cmd = [sys.executable, "-m", "zhiwen_spark.job", *args, "--master", "local[2]", "--partitions", "4"]
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
        assert p.returncode == 0, f"{' '.join(args)} exited {p.returncode}:\n{p.stderr[-4000:]}"
        return p.stdout.strip().splitlines()

    assert job_py("keys", "--corpus", str(corpus), "--buckets", "4")[-1] == f"file:{corpus}/keys"
    *printed, run_dir = job_py(
        "check", "--corpus", str(corpus), "--suspects", str(tmp / "suspects"), "--out", str(tmp_path / "runs"), "--metrics"
    )
    manifest = json.loads((Path(run_dir) / "manifest.json").read_text())
    assert manifest["corpus_keys"], "the check read the keys"
    assert_same_passages_as_check(run_dir, db, suspects)
    # --metrics: each step's stages, read from the running application's REST API (the UI is on
    # by default), printed and in the manifest: the join shuffles the suspects' 4 rows a window
    # (and the group sizes) and writes the hits; the passages step moves every hit to its cell
    # and writes the passages.
    stages = json.loads(printed[-1])["stages"]
    assert stages == manifest["stages"]
    suspect_windows = json.loads((tmp / "suspects" / "manifest.json").read_text())["windows"]
    assert stages["join"]["shuffle_write_rows"] >= 4 * suspect_windows
    assert stages["join"]["output_rows"] == manifest["stats"]["hits"] > 0
    assert stages["passages"]["shuffle_write_rows"] >= manifest["stats"]["hits"]
    assert stages["passages"]["output_rows"] == pq.read_table(Path(run_dir) / "passages").num_rows > 0
    assert stages["passages"]["shuffle_write_bytes"] > 0 and stages["passages"]["seconds"] > 0


def test_a_corpus_joined_with_itself_reports_the_documents_that_share_text(spark, tmp_path):
    # The fixture corpus plus a pirated copy of one of its chapters.
    db = str(tmp_path / "store.sqlite")
    run_cli("--db", db, "import", "--quiet", str(FIXTURES / "corpus"), str(FIXTURES / "suspects" / "ads_xiyouji_000.txt"))
    run_cli("--db", db, "export", "--parquet", str(tmp_path / "export"))
    run_dir = job.run(spark, "self", str(tmp_path / "export"), None, str(tmp_path / "runs"), run_id="self")
    report = json.loads(run_cli("report", "--from-parquet", run_dir, "--json").stdout)
    # Only the documents that share text with another are reported.
    copying = report["suspects"]
    assert len(copying) == 1 and copying[0]["sources"], [s["path"] for s in copying]
    names = {Path(copying[0]["path"]).name, Path(copying[0]["sources"][0]["path"]).name}
    assert names == {"xiyouji_000.txt", "ads_xiyouji_000.txt"}
    # The original is the suspect (the better direction; also the lower id): nearly all of it is in the copy.
    assert Path(copying[0]["path"]).name == "xiyouji_000.txt"
    assert copying[0]["similarity"] > 0.9


def test_a_self_join_gives_the_pairs_of_check_among_whichever_side_has_the_higher_id(spark, tmp_path):
    """The fixture's copies imported before their originals (so a copy has the lower id):
    each pair comes out once, in the direction `check --among` reports it (the better
    match), with its similarity and passages."""
    suspects = sorted(
        p for p in (FIXTURES / "suspects").iterdir() if p.suffix == ".txt" and p.name not in ("binary.txt", "empty.txt")
    )
    files = [str(p) for p in [*suspects, *sorted((FIXTURES / "corpus").glob("*.txt"))]]
    db = str(tmp_path / "store.sqlite")
    run_cli("--db", db, "import", "--quiet", *files)
    run_cli("--db", db, "export", "--parquet", str(tmp_path / "export"))
    # Two cells per side: pairs across cells and within them.
    run_dir = job.run(spark, "self", str(tmp_path / "export"), None, str(tmp_path / "runs"), run_id="self", text_cells=2)
    want = assert_same_pairs_as_among(run_dir, files, tmp_path)
    ids = {Path(f).name: i for i, f in enumerate(files)}
    assert any(ids[a] > ids[b] for a, b in want), "a pair whose suspect has the higher id"
    assert not (Path(run_dir) / "_directed").exists()


def test_windows_made_on_spark_from_raw_texts_equal_zhiwen_imports_bit_for_bit(spark, small_corpus, tmp_path):
    tmp, _, _ = small_corpus
    export = tmp / "export"
    params = json.dumps(json.loads((export / "manifest.json").read_text())["fingerprint_params"])
    columns = ["doc_id", "ordinal", "fingerprint", "char_start", "char_end"]
    want = sorted(tuple(r.values()) for r in pq.read_table(export / "windows").select(columns).to_pylist())
    # From the export's texts (id, text).
    got = job.stored_windows(spark.read.parquet(str(export / "texts")), params).collect()
    assert sorted(tuple(r) for r in got) == want
    # From the corpus's text files: an export folder of their own, window for window the
    # import's (documents matched by path), with the same titles, lengths and hashes.
    out = job.fingerprint_corpus(spark, str(FIXTURES / "corpus" / "*.txt"), str(tmp_path / "fingerprinted"))
    manifest = json.loads((Path(out) / "manifest.json").read_text())
    assert manifest["fingerprint_params"] == json.loads(params) and manifest["windows"] == len(want)
    imported = {d["path"]: d for d in pq.read_table(export / "documents").to_pylist()}
    made = {d["id"]: d for d in pq.read_table(Path(out) / "documents").to_pylist()}
    assert len(made) == len(imported) == 5
    old_id = {}
    for doc in made.values():
        twin = imported[doc["path"].removeprefix("file://")]
        assert (doc["title"], doc["chars"], doc["text_sha256"]) == (twin["title"], twin["chars"], twin["text_sha256"])
        old_id[doc["id"]] = twin["id"]
    windows = pq.read_table(Path(out) / "windows").select(columns).to_pylist()
    assert sorted((old_id[w["doc_id"]], *list(w.values())[1:]) for w in windows) == want
