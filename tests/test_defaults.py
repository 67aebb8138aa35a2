"""The default dataset is built from the repository's inputs when first needed: the same build every time, reused,
built anew when an input changes, built once when two processes need it at once."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import requests

from dashboard.dataset import builds
from dashboard.dataset.format import read_meta
from dashboard.importers.defaults import cached, default_data, input_files
from dashboard.resources import INPUTS
from tests import servers
from tests.conftest import DEFAULT_DATA, ROOT


def test_the_tests_default_data_is_the_cached_build_of_the_inputs() -> None:
    meta = read_meta(DEFAULT_DATA)
    assert meta["counts"] == {"papers": 30377, "citations": 280748}
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
def test_two_processes_build_the_default_dataset_once_with_the_same_build_id(tmp_path: Path) -> None:
    env = {**os.environ, "CITEMAP_CACHE": str(tmp_path / "cache")}
    probe = "from dashboard.importers.defaults import default_data; print(default_data(progress=False))"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", probe], env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    folders = {Path(out.strip()) for out, _ in outs}
    assert len(folders) == 1
    (folder,) = folders
    assert len(list((folder / "builds").iterdir())) == 1  # built once: the other process waited and reused it
    assert sum("building the default dataset" in err for _, err in outs) == 1
    assert read_meta(folder)["build_id"] == read_meta(DEFAULT_DATA)["build_id"]  # deterministic
    assert default_data() != folder  # this process's cache is elsewhere


@pytest.mark.slow
def test_first_serve_on_a_fresh_cache_builds_the_default_dataset_and_answers(tmp_path: Path) -> None:
    """`citemap serve` with an empty cache builds the default dataset, says so, and serves that build."""
    port = servers.free_port()
    server = servers.Server(
        [sys.executable, "-m", "dashboard", "serve", "--port", str(port)],
        port,
        env={"CITEMAP_CACHE": str(tmp_path / "cache")},
        log=tmp_path / "serve.log",
        timeout=300,
    )
    try:
        health = requests.get(server.url + "/health", timeout=5).json()
        assert health["papers"] == 30377 and health["build"] == read_meta(DEFAULT_DATA)["build_id"]
        assert "building the default dataset" in (tmp_path / "serve.log").read_text()
    finally:
        server.stop()
