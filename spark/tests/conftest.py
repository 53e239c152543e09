"""What the Spark tests share: the `zhiwen` binary, the fixture corpus exported and its
suspects fingerprinted, and the comparison of a run with `zhiwen check`."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def zhiwen_bin() -> str:
    if os.environ.get("ZHIWEN_BIN"):
        return os.environ["ZHIWEN_BIN"]
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    path = target / "debug" / "zhiwen"
    if not path.exists():
        pytest.skip(f"no zhiwen binary at {path} (run cargo build first)")
    return str(path)


FIXTURES = REPO / "tests" / "fixtures"


def run_cli(*args: str, code: int = 0) -> subprocess.CompletedProcess:
    p = subprocess.run([zhiwen_bin(), *args], capture_output=True, text=True, timeout=300)
    assert p.returncode == code, f"zhiwen {' '.join(args)} exited {p.returncode}: {p.stderr}"
    return p


@pytest.fixture(scope="module")
def small_corpus(tmp_path_factory):
    """The fixture corpus imported into a store, exported, and suspects fingerprinted."""
    tmp = tmp_path_factory.mktemp("corpus")
    db = str(tmp / "corpus.sqlite")
    run_cli("--db", db, "import", "--quiet", str(FIXTURES / "corpus"))
    run_cli("--db", db, "export", "--parquet", str(tmp / "export"))
    files = sorted(str(p) for p in (FIXTURES / "suspects").iterdir() if p.is_file())
    unreadable = [f for f in files if Path(f).name in ("binary.txt", "empty.txt")]
    assert len(unreadable) == 2
    # Unreadable files are named with their problem and the rest are written.
    p = run_cli("--db", db, "fingerprint", "--parquet", str(tmp / "suspects"), *files, code=1)
    assert all(f in p.stderr for f in unreadable), p.stderr
    return tmp, db, [f for f in files if f not in unreadable]


def assert_same_passages_as_check(run_dir: str, db: str, suspects: list[str]) -> None:
    """`zhiwen report --from-parquet` of a check run equals `zhiwen check --json` of the
    same suspects: the same sources, passages, similarities and coverage."""
    through_spark = json.loads(run_cli("report", "--from-parquet", run_dir, "--json", code=1).stdout)
    direct = json.loads(run_cli("--db", db, "check", "--json", *suspects).stdout)
    failed = [r for r in through_spark["suspects"] if r["error"]]
    assert sorted(Path(r["path"]).name for r in failed) == ["binary.txt", "empty.txt"]
    read = [r for r in through_spark["suspects"] if not r["error"]]
    assert len(read) == len(direct["suspects"]) == len(suspects)
    found = 0
    for a, b in zip(read, direct["suspects"]):
        assert a["path"] == b["path"]
        assert [s["id"] for s in a["sources"]] == [s["id"] for s in b["sources"]], a["path"]
        for sa, sb in zip(a["sources"], b["sources"]):
            assert sa["passages"] == sb["passages"], a["path"]
            assert sa["similarity"] == pytest.approx(sb["similarity"])
            assert sa["source_coverage"] == pytest.approx(sb["source_coverage"])
            found += len(sa["passages"])
        assert a["similarity"] == pytest.approx(b["similarity"]), a["path"]
    assert found > 0, "the suspects copy the corpus"


def assert_same_pairs_as_among(run_dir: str, files: list[str], tmp_path: Path) -> dict:
    """`zhiwen report --from-parquet` of a self-join run gives the pairs of `zhiwen check
    --among` on the same files: each pair once, in its better direction, with the same
    similarity and passages. Returns the pairs (names) with (similarity, passages)."""
    report = json.loads(run_cli("report", "--from-parquet", run_dir, "--json").stdout)
    got = {
        (Path(r["path"]).name, Path(s["path"]).name): (s["similarity"], s["passages"])
        for r in report["suspects"]
        for s in r["sources"]
    }
    among = json.loads(run_cli("--db", str(tmp_path / "empty.sqlite"), "check", "--among", "--json", *files).stdout)
    want = {(Path(p["a"]).name, Path(p["b"]).name): (p["similarity"], p["passages"]) for p in among["pairs"]}
    assert len(want) >= 4
    assert got.keys() == want.keys()
    for pair, (similarity, passages) in want.items():
        assert got[pair][0] == pytest.approx(similarity), pair
        assert got[pair][1] == passages, pair
    return want
