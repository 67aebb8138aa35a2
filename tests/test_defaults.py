"""The default dataset is built from the repository's inputs when first needed: the same build every time, reused,
built anew when an input changes, built once when two processes need it at once."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
import requests

from dashboard.dataset import builds
from dashboard.dataset.format import read_meta
from dashboard.importers.defaults import cached, input_files
from dashboard.resources import INPUTS
from tests import servers
from tests.conftest import DEFAULT_DATA, ROOT


def test_the_tests_default_data_is_the_cached_build_of_the_inputs() -> None:
    meta = read_meta(DEFAULT_DATA)
    assert meta["counts"] == {"papers": 30352, "citations": 280542}
    assert meta["seeds"] == ["2106.03764", "2006.04862", "2110.10090"]
    assert (DEFAULT_DATA / "stories" / "seeds.json").read_bytes() == (INPUTS / "stories" / "seeds.json").read_bytes()
    assert all(f.is_relative_to(INPUTS) for f in input_files())
    assert not any(p.suffix in (".parquet", ".npy", ".arrow", ".sqlite") for p in INPUTS.rglob("*"))


def test_cached_builds_once_and_reuses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CITEMAP_CACHE", str(tmp_path / "cache"))
    made = []
    source = tmp_path / "input.txt"
    source.write_text("one")

    def make(out: Path) -> None:
        made.append(out)
        shutil.copytree(builds.served(DEFAULT_DATA), out / "builds" / "b")
        os.symlink("builds/b", out / "current")

    first = cached("thing", [source], make)
    assert cached("thing", [source], make) == first and made == [first]  # reused, not made again
    source.write_text("two")  # a changed input is another dataset
    second = cached("thing", [source], make)
    assert second != first and made == [first, second]
    assert first.parent == second.parent == tmp_path / "cache"


def test_a_change_to_the_code_that_writes_a_build_builds_the_default_dataset_anew(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cache's key hashes the code that writes a build, dataset.json's checksums included: the same code gives
    the same key, a changed integrity.py another one. So the default dataset the tests use was written by this code
    (its dataset.json records its own checksum, and that checksum matches)."""
    from dashboard.dataset import integrity
    from dashboard.importers import defaults
    from dashboard.resources import PACKAGE

    writers = {p.relative_to(PACKAGE).as_posix() for pattern in defaults.WRITERS for p in PACKAGE.glob(pattern)}
    assert {"dataset/integrity.py", "dataset/write.py", "dataset/format.py", "importers/defaults.py"} <= writers
    copy = tmp_path / "package"
    for rel in writers:
        (copy / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(PACKAGE / rel, copy / rel)
    key = defaults.recipe_key([])
    monkeypatch.setattr(defaults, "PACKAGE", copy)
    assert defaults.recipe_key([]) == key
    with (copy / "dataset" / "integrity.py").open("a") as f:
        f.write("# another way of writing dataset.json\n")
    assert defaults.recipe_key([]) != key
    build = builds.served(DEFAULT_DATA)
    meta = read_meta(build)
    assert integrity.records_meta_checksum(meta, build) and integrity.meta_problem(meta, build) is None


@pytest.mark.slow
def test_a_fresh_cache_builds_the_default_dataset_once_the_same_as_its_recorded_command(tmp_path: Path) -> None:
    """On an empty cache, `citemap serve` and another process that needs the default dataset, started together: it
    is built once (the other process waits for it and reuses it), the server says it built it and serves it, and it
    is the build the tests use, table for table (the build is deterministic). The import command the build records,
    run as it is written, makes the very same build."""
    from dashboard.importers.defaults import import_command

    cache = tmp_path / "cache"
    env = {**os.environ, "CITEMAP_CACHE": str(cache)}
    rebuilt = tmp_path / "rebuilt"
    recorded = read_meta(DEFAULT_DATA)["built_with"]
    assert recorded == " ".join(import_command())
    command = [a if a != "DIR" else str(rebuilt) for a in recorded.split()]
    assert command[:2] == ["citemap", "import"]
    runs = [
        subprocess.Popen(argv, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for argv in (
            [sys.executable, "-c", "from dashboard.importers.defaults import default_data; print(default_data())"],
            [sys.executable, "-m", "dashboard", *command[1:], "--quiet"],
        )
    ]
    port = servers.free_port()
    server = servers.Server(
        [sys.executable, "-m", "dashboard", "serve", "--port", str(port)],
        port,
        env={"CITEMAP_CACHE": str(cache)},
        log=tmp_path / "serve.log",
        timeout=300,
    )
    try:
        outs = [r.communicate(timeout=300) for r in runs]
        assert [r.returncode for r in runs] == [0, 0], outs
        health = requests.get(server.url + "/health", timeout=5).json()
    finally:
        server.stop()
    folder = Path(outs[0][0].strip())
    assert folder.parent == cache and len(list((folder / "builds").iterdir())) == 1  # built once
    told = [outs[0][1], (tmp_path / "serve.log").read_text()]
    assert sum("building the default dataset" in text for text in told) == 1
    build_id = read_meta(DEFAULT_DATA)["build_id"]
    assert read_meta(folder)["build_id"] == read_meta(rebuilt)["build_id"] == build_id
    assert health["papers"] == 30352 and health["build"] == build_id
    for built in (folder, rebuilt):
        for name in ("papers.parquet", "citations.parquet"):
            assert pq.read_table(builds.served(built) / name).equals(pq.read_table(builds.served(DEFAULT_DATA) / name))
