"""Common names of papers ("ResNet", "gpt3"): the table an import is given, kept in the build's search index, and a
search for a name finding its paper first."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from dashboard.dataset import builds
from dashboard.dataset.names import name_key, read_names
from dashboard.dataset.store import SearchResult, Store
from dashboard.errors import InputError
from dashboard.importers.defaults import INPUTS, NAMES
from tests.conftest import write_records

DEFAULT_NAMES = read_names(INPUTS / NAMES)


def test_a_name_is_matched_whatever_its_case_spaces_and_punctuation() -> None:
    assert {name_key(t) for t in ("GPT-3", "gpt3", "Gpt 3", " gpt-3. ", "GPT\u20113")} == {"gpt3"}
    assert name_key("U-Net") == "unet" and name_key("Llama 2") == "llama2" and name_key("Mask R-CNN") == "maskrcnn"
    assert name_key("Déjà Vu") == "dejavu" and name_key("--") == "" and name_key(None) == ""  # type: ignore[arg-type]


def test_every_name_of_the_default_data_finds_its_paper_first(default_store: Store) -> None:
    s = default_store
    assert len(DEFAULT_NAMES.lines) >= 50
    for _, name, paper_id in DEFAULT_NAMES.lines:
        row = s.resolve(paper_id)
        assert row is not None, (name, paper_id)
        for typed in (name, name.lower(), name.upper(), name.replace("-", "").replace(" ", ""), f"  {name} "):
            found = s.search_suggesting(typed, 8)
            assert found.rows[0] == row, (typed, s.ids(found.rows[:3]))
            assert found.suggestion is None, typed  # a name is never "corrected"
            assert s.search(typed, 8)[0] == row


def test_the_examples_researchers_type(default_store: Store) -> None:
    s = default_store
    for typed, paper_id in (
        ("resnet", "1512.03385"),
        ("word2vec", "1301.3781"),
        ("gpt-3", "2005.14165"),
        ("GPT3", "2005.14165"),
        ("bert", "1810.04805"),
        ("transformer", "1706.03762"),
        ("YOLO", "1506.02640"),
        ("batchnorm", "1502.03167"),
    ):
        assert s.ids(s.search(typed, 3))[0] == paper_id, typed


def test_other_matches_follow_the_named_paper(default_store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    s = default_store
    resnet = s.row("1512.03385")
    named = s.search("ResNet", 10)
    monkeypatch.setattr(s, "by_name", lambda text: None)  # the search as it is without the table of names
    plain = s.search("ResNet", 10)
    assert resnet not in plain and len(plain) == 10  # no title says "ResNet" of that paper
    assert named == [resnet, *plain[:9]]
    assert all("resnet" in t.lower() for t in s.titles(named[1:]))


def test_an_unknown_name_is_an_ordinary_search(default_store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    s = default_store
    for text in ("world models", "attention is all you need", "atention is all you need", "gpt", "resne", "1706.03762"):
        assert s.by_name(text) is None
        found = s.search_suggesting(text, 8)
        monkeypatch.setattr(s, "by_name", lambda text: None)
        assert s.search_suggesting(text, 8) == found, text
        monkeypatch.undo()
    assert s.ids(s.search("world models", 1)) == ["1803.10122"]
    assert s.search_suggesting("atention is all you need", 8).suggestion == "attention is all you need"


def _papers() -> list:
    from dashboard.importers.common import PaperRecord

    return [
        PaperRecord(title="Deep Residual Learning for Image Recognition", id="1512.03385", year=2015),
        PaperRecord(title="Wide ResNet", id="1605.07146", year=2016, alt_ids=["W42"]),
        PaperRecord(title="A study of residual networks", id="p3", year=2020),
    ]


def _table(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "names.csv"
    path.write_text(text)
    return path


def _with_names(folder: Path, names: Path | None) -> Store:
    from dashboard.dataset.write import write_dataset
    from dashboard.importers.common import DatasetBuilder

    b = DatasetBuilder()
    keys = {rec.id: b.add(rec) for rec in _papers()}
    b.cite(keys["p3"], keys["1512.03385"])
    papers, citations, _ = b.build()
    write_dataset(folder, papers, citations, {"name": "t"}, read_names(names) if names else None)
    return Store.load(folder)


def test_an_import_keeps_its_own_names(tmp_path: Path) -> None:
    table = _table(
        tmp_path, "name,id\nResNet,arXiv:1512.03385v3\nWRN,W42\n\nwide-resnet,https://arxiv.org/abs/1605.07146\n"
    )
    s = _with_names(tmp_path / "named", table)
    con = sqlite3.connect(s.build / "index" / "search.sqlite")
    assert sorted(con.execute("SELECT key, name, row FROM names")) == sorted(
        [("resnet", "ResNet", s.row("1512.03385")), ("wrn", "WRN", s.row("1605.07146")),
         ("wideresnet", "wide-resnet", s.row("1605.07146"))]
    )  # fmt: skip
    con.close()
    assert s.ids(s.search("resnet", 5)) == ["1512.03385", "1605.07146"]
    assert s.ids(s.search("WRN", 5)) == ["1605.07146"] and s.ids(s.search("Wide ResNet", 5)) == ["1605.07146"]
    # the same papers without names: the words alone, and another build id (a cache keyed by it sees the change)
    plain = _with_names(tmp_path / "plain", None)
    assert plain.ids(plain.search("resnet", 5)) == ["1605.07146"] and plain.by_name("resnet") is None
    assert plain.search_suggesting("WRN", 5) == SearchResult([], None)
    assert plain.meta["build_id"] != s.meta["build_id"]
    other = _with_names(tmp_path / "other", _table(tmp_path, "name,id\nResNet,1605.07146\n"))
    assert other.ids(other.search("resnet", 5)) == ["1605.07146"] and other.by_name("resnet") == other.row("1605.07146")
    assert other.meta["build_id"] not in (plain.meta["build_id"], s.meta["build_id"])


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("title,id\nResNet,1512.03385\n", "line 1"),
        ("", "line 1"),
        ("name,id\nResNet,1512.03385\nWRN\n", "line 3, field 'id'"),
        ("name,id\nResNet,1512.03385,2015\n", "line 2"),
        ("name,id\nResNet,1512.03385\n--,1605.07146\n", "line 3, field 'name'"),
        ("name,id\nResNet,1512.03385\n\nRes-Net,1605.07146\n", "line 4, field 'name'"),
        ("name,id\nResNet, \n", "line 2, field 'id'"),
        (f"name,id\n{'x' * 101},1512.03385\n", "line 2, field 'name'"),
    ],
)
def test_a_malformed_line_is_refused_naming_file_line_and_field(tmp_path: Path, text: str, where: str) -> None:
    with pytest.raises(InputError) as e:
        read_names(_table(tmp_path, text))
    assert str(e.value).startswith(f"{tmp_path / 'names.csv'}, {where}: "), str(e.value)


def test_an_id_of_no_paper_is_refused_and_the_served_build_kept(tmp_path: Path) -> None:
    from dashboard.importers.common import PaperRecord

    folder = write_records(tmp_path / "d", [PaperRecord(title="Kept", id="k1", year=2020)])
    served = builds.served(folder)
    table = _table(tmp_path, "name,id\nResNet,1512.03385\nNope,9999.99999\n")
    with pytest.raises(InputError) as e:
        _with_names(folder, table)
    assert str(e.value) == f"{table}, line 3, field 'id': no paper of the dataset has the id '9999.99999'"
    assert builds.served(folder) == served and Store.load(folder).ids(Store.load(folder).search("kept", 5)) == ["k1"]


def test_the_command_line_import_takes_names(tmp_path: Path) -> None:
    from dashboard.cli import main
    from dashboard.dataset.format import read_meta
    from dashboard.importers.defaults import seed_pages

    table = _table(tmp_path, "name,id\nGPS,2106.03764\n")
    out = tmp_path / "o"
    assert (
        main(["import", "mlsanity", *map(str, seed_pages()), "--names", str(table), "--quiet", "--out", str(out)]) == 0
    )
    assert f"--names {table}" in read_meta(builds.served(out))["built_with"]
    s = Store.load(out)
    assert s.ids(s.search("gps", 3))[0] == "2106.03764"


def test_the_search_box_offers_names_where_the_build_keeps_them(default_store: Store, store: Store) -> None:
    from dashboard.web.layout import search_prompt

    assert default_store.has_names and not store.has_names
    assert search_prompt(default_store) == "Search a title, a name (BERT) or an id"
    assert search_prompt(store) == "Search a title or an id"
