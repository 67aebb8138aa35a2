"""Hosting: gunicorn with the project's settings, a read-only dataset, a killed worker, a killed master, a bad
dataset."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from dashboard.dataset import builds
from dashboard.dataset.format import read_meta
from tests import servers
from tests.conftest import ROOT, seed_data, write_records
from tests.test_builds import world

pytestmark = pytest.mark.slow  # gunicorn processes: not in the mutation run


def snapshot(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture()
def read_only_copy(tmp_path: Path):
    """A copy of the default dataset mounted read-only (bind mount when allowed, else chmod)."""
    src, ro = tmp_path / "src", tmp_path / "ro"
    shutil.copytree(seed_data(), src)
    ro.mkdir()
    mounted = (
        subprocess.run(["mount", "--bind", str(src), str(ro)], capture_output=True).returncode == 0
        and subprocess.run(["mount", "-o", "remount,bind,ro", str(ro)], capture_output=True).returncode == 0
    )
    if not mounted:
        ro.rmdir()
        shutil.copytree(src, ro)
        for p in [ro, *ro.rglob("*")]:
            p.chmod(0o555 if p.is_dir() else 0o444)
    try:
        yield ro, mounted
    finally:
        if mounted:
            subprocess.run(["umount", str(ro)], capture_output=True)


def test_production_server_on_a_read_only_dataset(read_only_copy) -> None:
    ro, mounted = read_only_copy
    before = snapshot(ro)
    if mounted:
        with pytest.raises(OSError):
            (ro / "probe").write_text("x")
    server = servers.Gunicorn(ro, workers=2)
    try:
        health = requests.get(server.url + "/health", timeout=10).json()
        assert health == {
            "status": "ok",
            "dataset": "mlsanity seed pages",
            "papers": 156,
            "citations": 181,
            "build": json.loads((ro / "dataset.json").read_text())["build_id"],
        }
        page = requests.get(server.url + "/", timeout=10)
        assert page.status_code == 200 and "Content-Security-Policy" in page.headers
        assert page.headers["Server"] == "citemap"  # not gunicorn's own name
        assert page.headers["Permissions-Policy"].startswith("fullscreen=(self), camera=()")
        deadline = time.time() + 20
        while len(server.workers()) < 2 and time.time() < deadline:
            time.sleep(0.2)
        assert len(server.workers()) == 2
        papers = servers.sample_papers(ro, n=20)
        stats, _ = servers.run_load(server.url, papers, users=2, seconds=4, max_requests=400)
        assert stats.count > 20 and stats.errors == []
    finally:
        server.stop()
    assert snapshot(ro) == before
    assert "Traceback" not in server.log.read_text()


def test_killing_a_worker_loses_only_requests_in_flight() -> None:
    server = servers.Gunicorn(seed_data(), workers=2)
    try:
        papers = servers.sample_papers(seed_data(), n=20)
        killed: dict[str, int] = {}

        def tick(t: float) -> None:
            if "pid" not in killed and t > 2:
                killed["pid"] = server.workers()[0]
                os.kill(killed["pid"], signal.SIGKILL)

        users = 4
        # each visitor from an address of its own, as visitors come: from one address, the budget's one map at a
        # time would refuse (429) every map that meets another visitor's
        sources = [f"127.0.0.{10 + k}" for k in range(users)]
        stats, _ = servers.run_load(
            server.url, papers, users=users, seconds=6, max_requests=5000, on_tick=tick, sources=sources
        )
        assert killed and stats.count > 50
        assert not [e for e in stats.errors if "HTTP 429" in e]  # no visitor went over its own budget
        assert len(stats.errors) <= users  # the sync worker had at most one request; others retried none
        deadline = time.time() + 15
        while time.time() < deadline and (killed["pid"] in server.workers() or len(server.workers()) != 2):
            time.sleep(0.2)
        assert killed["pid"] not in server.workers() and len(server.workers()) == 2
        assert requests.get(server.url + "/health", timeout=10).ok
    finally:
        server.stop()


def alive(pids: list[int]) -> list[int]:
    """Those of ``pids`` still running (a zombie, dead but not yet reaped by whoever adopted it, is not)."""
    import psutil

    running = []
    for pid in pids:
        try:
            if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                running.append(pid)
        except psutil.NoSuchProcess:
            pass
    return running


def test_a_killed_master_takes_its_workers_and_a_new_server_gets_the_port(tmp_path: Path) -> None:
    """What a supervisor's restart needs (deploy/systemd/citemap@.service): SIGKILL the master alone (a crash, an
    OOM kill), and its sync workers go within seconds, each through its orderly exit, freeing the listening socket
    they inherited; a new server then binds the same port at once and answers."""
    port = servers.free_port()
    cmd = [sys.executable, "-m", "dashboard", "serve", "--production", "--data", str(seed_data())]
    cmd += ["--port", str(port), "--workers", "2"]
    first = servers.Server(cmd, port, log=tmp_path / "first.log", group=True)
    second = None
    try:
        deadline = time.monotonic() + 20
        for _ in range(400):
            if len(first.workers()) == 2 or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        workers = first.workers()
        assert len(workers) == 2
        os.kill(first.proc.pid, signal.SIGKILL)
        first.proc.wait(10)
        deadline = time.monotonic() + 5  # a worker left alone notices only after half the worker timeout (15 s)
        for _ in range(100):
            if not alive(workers) or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert alive(workers) == []
        log = first.log.read_text()
        assert all(f"Worker exiting (pid: {pid})" in log for pid in workers), log[-2000:]
        second = servers.Server(cmd, port, log=tmp_path / "second.log", group=True, timeout=60)
        assert requests.get(second.url + "/health", timeout=10).json()["papers"] == 156
        assert not set(second.workers()) & set(workers)
        assert "Connection in use" not in second.log.read_text()  # bound at the first try, no retry
    finally:
        for server in (second, first):
            if server is not None:
                server.stop()
    assert "Traceback" not in (tmp_path / "first.log").read_text() + (tmp_path / "second.log").read_text()


def test_bad_dataset_stops_the_server_naming_the_file(tmp_path: Path) -> None:
    """A damaged build: the production server exits by itself (before its workers start) with the file named."""
    bad = tmp_path / "bad"
    shutil.copytree(seed_data(), bad)
    (bad / "papers.parquet").write_bytes(b"truncated")
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "dashboard",
            "serve",
            "--production",
            "--data",
            str(bad),
            "--port",
            str(servers.free_port()),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert r.returncode != 0
    assert f"{bad / 'papers.parquet'}: 9 bytes where " in r.stderr and "were written; rebuild it with: " in r.stderr
    missing = tmp_path / "missing"
    r = subprocess.run(
        [sys.executable, "-m", "dashboard", "serve", "--data", str(missing)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert r.returncode == 2 and "no such dataset folder" in r.stderr and "Traceback" not in r.stderr


def test_reload_onto_a_bad_dataset_keeps_the_old_server(tmp_path: Path) -> None:
    data = tmp_path / "d"
    shutil.copytree(seed_data(), data)
    server = servers.Gunicorn(data, workers=2)
    try:
        master = server.proc.pid
        (data / "citations.parquet").write_bytes(b"junk")  # a bad dataset appears on disk
        os.kill(master, signal.SIGUSR2)  # gunicorn's zero-downtime upgrade: a new master loads the data
        deadline = time.time() + 30
        while time.time() < deadline and "cannot load the dataset" not in server.log.read_text():
            time.sleep(0.2)
        log = server.log.read_text()
        assert f"cannot load the dataset: {data / 'citations.parquet'}: 4 bytes where " in log
        for _ in range(5):
            assert requests.get(server.url + "/health", timeout=10).json()["papers"] == 156
        assert server.proc.poll() is None
    finally:
        server.stop()


def answers(server: servers.Server | servers.Nginx) -> tuple[str, list[str], str]:
    """What a visitor of ``server`` gets: the build /health names, the ids a search for "kernels" suggests (a
    server callback, as the page calls it), and the papers of the view ``?seeds=a-3&expand=a-2`` (a seed and an
    expanded paper: the expand a click asks for; or its notice)."""
    health = requests.get(server.url + "/health", timeout=10).json()
    found = servers.DashClient(server.url).call("div-search-results", {"input-search.value": "kernels"}).text
    graph = requests.get(server.url + "/graph?seeds=a-3&expand=a-2", timeout=10).json()
    papers = " ".join(sorted(n[0] for n in graph["nodes"]))
    return health["build"], sorted(set(re.findall(r"\b[ab]-\d+\b", found))), papers


def test_an_import_into_a_served_folder_changes_nothing_until_the_reload(tmp_path: Path) -> None:
    """The documented reload: import into the folder a server serves, then USR2 the master (a new master loads
    the new build) and TERM the old one. Until then every answer comes from the old build, even after two
    imports; after, from the new one; the old build goes at the next prune, once nothing reads it."""

    data = tmp_path / "d"
    write_records(data, *world("a", "Kernels", 20))
    first = read_meta(data)["build_id"]
    server = servers.Gunicorn(data, workers=2)
    new_master = None
    try:
        before = answers(server)
        assert before[0] == first and len(before[1]) >= 5 and before[1][0].startswith("a-")
        assert before[2] == "a-1 a-2 a-3 a-4"  # a-2 expanded: what it cites, a-1, is drawn
        write_records(data, *world("b", "Kernels", 5))  # other papers, fewer: the mix that raised IndexError
        write_records(data, *world("b", "Kernels", 8))
        newest = read_meta(data)["build_id"]
        for _ in range(6):  # both workers, more than once each
            assert answers(server) == before
        assert any(n.endswith(first[:12]) for n in os.listdir(data / builds.BUILDS))  # pinned: not pruned
        new_master = servers.reload_master(server)
        after = answers(server)
        assert after[0] == newest and after[1] == sorted(f"b-{k}" for k in range(8)) and "a-3" not in after[2]
        removed, in_use = builds.prune(data)
        assert in_use == [] and any(name.endswith(first[:12]) for name in removed)
    finally:
        if new_master is not None and new_master.is_running():
            new_master.terminate()
            new_master.wait(20)
        server.stop()
    assert "Traceback" not in server.log.read_text()


def test_the_development_server_names_no_version() -> None:
    """``citemap serve`` (Werkzeug's server) sent ``Server: Werkzeug/3.1.8 Python/3.11.7``."""
    port = servers.free_port()
    server = servers.Server(
        [sys.executable, "-m", "dashboard", "serve", "--data", str(seed_data()), "--port", str(port)], port
    )
    try:
        for path in ("/health", "/", "/_dash-component-suites/"):
            resp = requests.get(server.url + path, timeout=10)
            assert resp.headers["Server"] == "citemap", path
            assert "Werkzeug" not in str(resp.headers) and "Python" not in str(resp.headers)
    finally:
        server.stop()
