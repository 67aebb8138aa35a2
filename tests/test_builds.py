"""Builds of a dataset folder: an import writes a new build and moves ``current``; a store reads the build it loaded
until it goes, whatever is imported meanwhile; pruning keeps the current build, the one before, and every build a
process still reads."""

from __future__ import annotations

import gc
import os
import shutil
from pathlib import Path

import pytest

from dashboard.dataset import builds, index_write
from dashboard.dataset.format import read_meta
from dashboard.dataset.store import Store
from dashboard.errors import DatasetError
from dashboard.importers.common import PaperRecord
from tests.conftest import seed_data, write_records


def world(prefix: str, word: str, n: int = 12) -> tuple[list[PaperRecord], list[tuple[str, str]]]:
    """``n`` papers ``{prefix}-0``... titled "<word> number k", each citing the one before."""
    papers = [PaperRecord(title=f"{word} number {k}", id=f"{prefix}-{k}", year=2000 + k) for k in range(n)]
    return papers, [(f"{prefix}-{k}", f"{prefix}-{k - 1}") for k in range(1, n)]


def current(folder: Path) -> str:
    return os.readlink(folder / builds.CURRENT)


def names(folder: Path) -> list[str]:
    return sorted(p.name for p in (folder / builds.BUILDS).iterdir())


def test_an_import_adds_a_build_and_moves_current_leaving_the_old_build_as_it_was(tmp_path: Path) -> None:
    data = tmp_path / "d"
    write_records(data, *world("a", "Kernels"))
    first = current(data)
    assert first.startswith("builds/") and names(data) == [first.removeprefix("builds/")]
    old = data / first
    before = {p: p.read_bytes() for p in old.rglob("*") if p.is_file()}
    write_records(data, *world("b", "Sheaves"))
    assert current(data) != first and len(names(data)) == 2
    assert {p: p.read_bytes() for p in old.rglob("*") if p.is_file()} == before
    assert read_meta(data)["build_id"] != read_meta(old)["build_id"]
    assert Store.load(data).id(0).startswith("b-")


def test_a_store_reads_its_own_build_after_an_import_even_files_it_opens_later(tmp_path: Path) -> None:
    data = tmp_path / "d"
    write_records(data, *world("a", "Kernels", 30))
    old = Store.load(data)  # its search database is not open yet: the first search opens it by path
    write_records(data, *world("b", "Kernels", 5))  # the same word, other papers, fewer rows
    assert old.ids(old.search("kernels", limit=50)) and all(i.startswith("a-") for i in old.ids(old.search("kernels")))
    assert len(old.search("kernels", limit=50)) == 30 and old.build != Store.load(data).build
    new = Store.load(data)
    assert sorted(new.ids(new.search("kernels", limit=50))) == sorted(f"b-{k}" for k in range(5))


def test_pruning_keeps_the_current_build_the_one_before_and_any_a_store_still_reads(tmp_path: Path) -> None:
    data = tmp_path / "d"
    write_records(data, *world("a", "One"))
    pinned = Store.load(data)  # a server still on the first build
    first = pinned.build.name
    for prefix in "bcd":
        write_records(data, *world(prefix, "Next"))
    kept = names(data)
    assert first in kept and len(kept) == 3  # current, the one before it, and the pinned first
    assert Store.load(data).id(0).startswith("d-")
    assert pinned.id(0) == "a-0" and pinned.search("one") != []
    del pinned
    gc.collect()  # the store goes: its pin with it
    removed, in_use = builds.prune(data)
    assert removed == [first] and in_use == [] and len(names(data)) == 2


def test_a_failed_import_leaves_the_served_build_and_no_leftover(tmp_path: Path, monkeypatch) -> None:
    data = tmp_path / "d"
    write_records(data, *world("a", "Kept"))
    served = current(data)

    def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(index_write, "write_index_from", broken)
    with pytest.raises(OSError, match="disk full"):
        write_records(data, *world("b", "Lost"))
    assert current(data) == served and names(data) == [served.removeprefix("builds/")]
    assert Store.load(data).id(0) == "a-0"


def test_a_build_is_served_as_it_is_and_never_imported_into(tmp_path: Path) -> None:
    data = tmp_path / "build"
    shutil.copytree(seed_data(), data)
    assert Store.load(data).n == 156 and builds.served(data) == data  # a build is a dataset folder of its own
    before = sorted(p.name for p in data.iterdir())
    with pytest.raises(DatasetError, match=f"{data.resolve()} is a build \\(it holds dataset.json\\)"):
        write_records(data, *world("b", "New"))
    assert sorted(p.name for p in data.iterdir()) == before and Store.load(data).n == 156


def test_a_copy_without_links_serves_its_current_folder_and_a_stray_link_is_an_error(tmp_path: Path) -> None:
    data = tmp_path / "d"
    write_records(data, *world("a", "Copied"))
    copy = tmp_path / "copy"
    shutil.copytree(data, copy, symlinks=False)  # current became a folder: a copy of the build
    assert Store.load(copy).build == copy / "current" and Store.load(copy).id(0) == "a-0"
    before = names(copy)
    with pytest.raises(DatasetError, match=f"{copy / 'current'}: a folder, not a link to a build"):
        write_records(copy, *world("b", "Next"))
    assert names(copy) == before
    shutil.rmtree(copy / "current" / "index")
    (copy / "current" / "dataset.json").unlink()
    with pytest.raises(DatasetError, match=f"{copy / 'current'}: neither a link to a build nor a build"):
        Store.load(copy)
    (data / "current").unlink()
    (data / "current").symlink_to(tmp_path)
    with pytest.raises(DatasetError, match=f"{data / 'current'}: points to {tmp_path}, not a build in"):
        Store.load(data)


def test_two_imports_in_the_same_second_get_two_builds(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(
        builds.time, "gmtime", lambda when=None: builds.time.struct_time((2026, 1, 2, 3, 4, 5, 4, 2, 0))
    )
    data = tmp_path / "d"
    write_records(data, *world("a", "Same"))
    write_records(data, *world("a", "Same"))  # the same content: the same build id too
    assert len(names(data)) == 2 and current(data).endswith("-2")


def test_citemap_builds_lists_rolls_back_and_prunes(tmp_path: Path, capsys) -> None:
    from dashboard.cli import main

    data = tmp_path / "d"
    for prefix, n in (("a", 4), ("b", 5), ("c", 6)):
        write_records(data, *world(prefix, "Listed", n))
    kept = names(data)  # the current build and the one before: the first was pruned by the third import
    assert len(kept) == 2
    assert main(["builds", "--data", str(data)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == sorted(kept, reverse=True)
    assert lines[0].endswith("(current)") and "current" not in lines[1]
    assert main(["builds", "--data", str(data), "--use", kept[0]]) == 0  # back to the one before
    assert current(data) == f"builds/{kept[0]}" and Store.load(data).id(0) == "b-0"
    held = Store.load(data)
    assert main(["builds", "--data", str(data), "--prune", "--keep", "0"]) == 0
    out = capsys.readouterr().out
    assert f"removed 1 build(s): {kept[1]}" in out and "(current, in use)" in out and names(data) == [kept[0]]
    assert held.n == 5
    assert main(["builds", "--data", str(data), "--use", "../elsewhere"]) == 2
    assert "no such build" in capsys.readouterr().err
