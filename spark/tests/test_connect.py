"""The job over Spark Connect: a local Connect server of this PySpark (``--remote local[2]``),
the job as its client (DataFrame API and Arrow UDFs only, manifests through pyarrow), a
check and a self-join of the fixture corpus giving what `zhiwen check` and `check --among`
give (as the classic runs in test_spark.py do).

Needs, besides what test_spark.py needs, the Connect client's dependencies
(``pip install "pyspark[connect]==4.0.1"``: grpcio, grpcio-status, googleapis-common-protos);
skipped without them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES, REPO, assert_same_pairs_as_among, assert_same_passages_as_check, run_cli


def connect_missing() -> str | None:
    """Why the Connect client cannot run here, or None."""
    try:
        from pyspark.sql.connect.utils import check_dependencies

        check_dependencies("zhiwen_spark.job")
    except Exception as e:  # noqa: BLE001 - PySparkImportError and its kin
        return f"Spark Connect client dependencies missing ({e}); pip install 'pyspark[connect]==4.0.1'"
    return None


@pytest.fixture(scope="module")
def connect():
    reason = connect_missing()
    if reason:
        print(reason)
        pytest.skip(reason)


SCRIPT = """
import json, sys
from zhiwen_spark import job
for argv in json.loads(sys.argv[1]):
    job.main(argv)
    print("--")
"""


def run_over_connect(*runs: list[str]) -> list[list[str]]:
    """Each run's arguments to `job.py` with ``--remote local[2]``, in one process (one
    local Connect server, started by the first); each run's printed lines."""
    env = {**os.environ, "PYTHONPATH": str(REPO / "spark")}
    env.pop("SPARK_REMOTE", None)
    argvs = [[*r, "--remote", "local[2]", "--partitions", "4"] for r in runs]
    p = subprocess.run(
        [sys.executable, "-c", SCRIPT, json.dumps(argvs)], env=env, capture_output=True, text=True, timeout=600
    )
    assert p.returncode == 0, f"exited {p.returncode}:\n{p.stderr[-4000:]}"
    out, lines = [], []
    for line in p.stdout.splitlines():
        if line == "--":
            out.append(lines)
            lines = []
        else:
            lines.append(line)
    assert len(out) == len(runs), p.stdout
    return out, p.stderr


def test_a_check_and_a_self_join_over_spark_connect_give_the_passages_of_zhiwen_check(connect, small_corpus, tmp_path):
    tmp, db, suspects = small_corpus
    # The self-join: the fixture's copies imported before their originals, as in test_spark.py.
    among_files = [
        str(p)
        for p in [
            *sorted(
                p
                for p in (FIXTURES / "suspects").iterdir()
                if p.suffix == ".txt" and p.name not in ("binary.txt", "empty.txt")
            ),
            *sorted((FIXTURES / "corpus").glob("*.txt")),
        ]
    ]
    self_db = str(tmp_path / "store.sqlite")
    run_cli("--db", self_db, "import", "--quiet", *among_files)
    run_cli("--db", self_db, "export", "--parquet", str(tmp_path / "export"))

    (check, self_join), stderr = run_over_connect(
        ["check", "--corpus", str(tmp / "export"), "--suspects", str(tmp / "suspects"), "--out", str(tmp_path / "runs"),
         "--run-id", "check", "--metrics"],
        ["self", "--corpus", str(tmp_path / "export"), "--out", str(tmp_path / "runs"), "--run-id", "self",
         "--text-cells", "2"],
    )

    # The check: a run folder as the classic job writes it, and the passages of `zhiwen check`.
    run_dir = check[-1]
    assert run_dir == str(tmp_path / "runs" / "check")
    manifest = json.loads((Path(run_dir) / "manifest.json").read_text())
    assert manifest["format"] == "zhiwen-spark-run" and manifest["corpus"] == str(tmp / "export")
    assert manifest["stats"]["hits"] > 0 and manifest["stats"]["doc_pairs"] > 0
    # --metrics needs the SparkContext a Connect client has not: said once, stages null, no failure.
    assert json.loads(check[-2]) == {"stages": None} and manifest["stages"] is None
    assert "not available over Spark Connect" in stderr
    assert_same_passages_as_check(run_dir, db, suspects)

    # The self-join: the pairs of `check --among`, each once, in its better direction.
    assert_same_pairs_as_among(self_join[-1], among_files, tmp_path)


def test_master_and_remote_exclude_each_other():
    from zhiwen_spark import job

    with pytest.raises(ValueError, match="exclude each other"):
        job.session(master="local[1]", remote="sc://localhost:15002")
