"""The job on a real Spark standalone cluster on loopback: a master and a worker in JVMs of
their own (Spark's `spark-class` from the PySpark distribution), the job submitted with
`spark-submit --master spark://…` shipping the kernel in a packed virtualenv
(`--archives`) and the job's package (`--py-files`), exactly as the README's recipe does;
the passages must be those of `zhiwen check`. The cluster is stopped at the end, also when
the test fails.

Needs: what test_spark.py needs, and the folder `spark/package` prints (ZHIWEN_SPARK_PACKAGE:
the manylinux2014 wheel, zhiwen-env.tar.gz, zhiwen_spark.zip); skipped without it."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import REPO, assert_same_passages_as_check

import pyspark

SPARK_HOME = Path(pyspark.__file__).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def package() -> Path:
    folder = os.environ.get("ZHIWEN_SPARK_PACKAGE")
    if not folder:
        pytest.skip("ZHIWEN_SPARK_PACKAGE is not set (run spark/package and set it to the folder it prints)")
    folder = Path(folder)
    assert (folder / "zhiwen-env.tar.gz").exists() and (folder / "zhiwen_spark.zip").exists(), folder
    return folder


class Daemon:
    """A Spark daemon started with spark-class in a process group of its own, its output
    in a log file (read to know when it is up)."""

    def __init__(self, name: str, args: list[str], env: dict, logs: Path):
        self.log = logs / f"{name}.log"
        self.name = name
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(
                [str(SPARK_HOME / "bin" / "spark-class"), *args],
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def wait_for(self, text: str, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if text in self.log.read_text(errors="replace"):
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.5)
        raise AssertionError(f"the {self.name} did not log {text!r}:\n{self.log.read_text(errors='replace')[-3000:]}")

    def stop(self) -> None:
        """SIGTERM to its group (a worker's shutdown hook kills its executors), SIGKILL if
        it is still there after 30 s."""
        if self.proc.poll() is not None:
            return
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """A master and one worker (2 cores, 2 GB) on 127.0.0.1 at free ports; yields the
    master's URL and the environment spark-submit runs with."""
    tmp = tmp_path_factory.mktemp("cluster")
    env = {
        **os.environ,
        "SPARK_HOME": str(SPARK_HOME),
        "SPARK_LOCAL_IP": "127.0.0.1",
        "SPARK_LOG_DIR": str(tmp),
        "SPARK_WORKER_DIR": str(tmp / "work"),
    }
    env.pop("PYSPARK_PYTHON", None)
    env.pop("PYSPARK_DRIVER_PYTHON", None)
    port = free_port()
    url = f"spark://127.0.0.1:{port}"
    daemons = []
    try:
        master = Daemon(
            "master",
            ["org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port", str(port), "--webui-port", str(free_port())],
            env,
            tmp,
        )
        daemons.append(master)
        master.wait_for("I have been elected leader")
        worker = Daemon(
            "worker",
            [
                "org.apache.spark.deploy.worker.Worker",
                "--host", "127.0.0.1", "--port", str(free_port()), "--webui-port", str(free_port()),
                "--cores", "2", "--memory", "2g", "--work-dir", str(tmp / "work"),
                url,
            ],
            env,
            tmp,
        )  # fmt: skip
        daemons.append(worker)
        worker.wait_for("Successfully registered with master")
        yield url, env, tmp
    finally:
        for daemon in reversed(daemons):
            daemon.stop()
    assert all(d.proc.poll() is not None for d in daemons), "the cluster is stopped"


def test_the_job_submitted_to_a_standalone_cluster_with_the_packed_kernel_gives_the_passages_of_check(
    cluster, package, small_corpus, tmp_path
):
    url, env, logs = cluster
    tmp, db, suspects = small_corpus
    out = tmp_path / "runs"
    submit = [
        str(SPARK_HOME / "bin" / "spark-submit"),
        "--master", url,
        "--archives", f"{package / 'zhiwen-env.tar.gz'}#environment",
        "--py-files", str(package / "zhiwen_spark.zip"),
        "--conf", "spark.pyspark.python=./environment/bin/python",
        "--conf", f"spark.pyspark.driver.python={sys.executable}",
        "--conf", "spark.executor.memory=1g",
        str(REPO / "spark" / "zhiwen_spark" / "job.py"),
        "check", "--corpus", str(tmp / "export"), "--suspects", str(tmp / "suspects"),
        "--out", str(out), "--run-id", "cluster", "--partitions", "4",
    ]  # fmt: skip
    p = subprocess.run(submit, env=env, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, f"spark-submit exited {p.returncode}:\n{p.stderr[-5000:]}"
    run_dir = p.stdout.strip().splitlines()[-1]
    assert run_dir == str(out / "cluster")
    # The work ran on the cluster's executor, in the shipped environment.
    app = [d for d in (logs / "work").iterdir() if d.name.startswith("app-")]
    assert len(app) == 1, app
    # The executors' Python saw only the packed environment: a venv that does not include
    # the system's site-packages (where the driver's kernel is installed) and holds the kernel.
    unpacked = [e / "environment" for e in app[0].iterdir() if (e / "environment" / "pyvenv.cfg").exists()]
    assert unpacked, "the archive was unpacked in the executor's folder"
    assert "include-system-site-packages = false" in (unpacked[0] / "pyvenv.cfg").read_text()
    assert list(unpacked[0].glob("lib/python3*/site-packages/zhiwen_kernel")), "the kernel came in the archive"
    assert_same_passages_as_check(run_dir, db, suspects)
    manifest = json.loads((Path(run_dir) / "manifest.json").read_text())
    assert manifest["stats"]["hits"] > 0
