"""The store: lookups, neighbour slices ordered by citations, search, filters, index freshness."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from dashboard.dataset.store import SearchResult, Store
from dashboard.errors import DatasetError
from tests.conftest import SEED_IDS, make_store, seed_data


def test_lookup_round_trip(store: Store) -> None:
    for pid in SEED_IDS:
        row = store.row(pid)
        assert row is not None and store.id(row) == pid
    assert store.row("nope") is None and store.row("") is None and store.row("x" * 500) is None
    rows, unknown = store.rows(["2110.10090", "bad", "2006.04862"])
    assert store.ids(rows) == ["2110.10090", "2006.04862"] and unknown == ["bad"]


def test_neighbours_are_most_cited_first(store: Store) -> None:
    row = store.row("2110.10090")
    refs = store.references(row)
    assert len(refs) == store.n_references(row) == 43
    counts = store.in_cited[refs]  # citers inside the dataset, never a source's own figure
    assert list(counts) == sorted(counts, reverse=True) and counts[0] > counts[-1]
    assert store.titles(refs[:2]) == ["On the Expressive Power of Self-Attention Matrices", "Attention Is All You Need"]
    assert store.n_citers(row) == 50 and len(store.citers(row, limit=7)) == 7
    assert store.citers(row, limit=7).tolist() == store.citers(row)[:7].tolist()
    assert store.references(row, limit=3).tolist() == refs[:3].tolist() and len(store.references(row, 100)) == 43
    # the edges agree both ways
    for r in refs.tolist():
        assert row in store.citers(r).tolist()


def test_paper_facts(store: Store) -> None:
    p = store.paper(store.row("2110.10090"))
    assert p["areas"] == ["cs.LG", "stat.ML"]
    assert (p["cited_by"], p["in_cited"], p["in_refs"], p["reference_count"]) == (144, 50, 43, 79)
    assert p["citations_by_year"][2023] == 42
    unknown = store.paper(store.row("2006.04862"))
    assert unknown["areas"] == ["unknown"]


def test_search_by_words_prefix_and_id(store: Store) -> None:
    titles = store.titles(store.search("attention is all", 5))
    assert titles[0] == "Attention Is All You Need"
    hits = store.titles(store.search("expressive pow", 10))
    assert "On the Expressive Power of Self-Attention Matrices" in hits
    assert store.ids(store.search("2110.10090"))[0] == "2110.10090"
    assert store.search("zzzzqqq") == [] and store.search("   ") == [] and store.search(None) == []
    assert isinstance(store.search('"unbalanced AND (quote*'), list)  # FTS syntax in the input never raises


def test_search_results_are_most_cited_first(store: Store) -> None:
    rows = store.search("transformers", 10)
    assert len(rows) == 10
    counts = store.in_cited[rows]
    assert list(counts) == sorted(counts, reverse=True) and counts[0] > counts[-1]


def test_filters(store: Store) -> None:
    rows = np.arange(store.n)
    years = store.filter_mask(rows, years=(2021, 2022))
    assert years.sum() == np.count_nonzero((store.year >= 2021) & (store.year <= 2022))
    lg = store.filter_mask(rows, areas=["cs.LG"])
    assert lg.sum() == store.area_counts()["cs.LG"]
    unknown = store.filter_mask(rows, areas=["unknown"])
    assert unknown.sum() == store.area_counts()["unknown"] and not (lg & unknown).any()
    cited = store.filter_mask(rows, min_citations=2)  # citers in the dataset, not a source's figure
    assert set(store.ids(rows[cited])) >= {"1706.03762", "2110.10090"} and "2106.01345" not in store.ids(rows[cited])
    assert cited.sum() == np.count_nonzero(store.in_cited >= 2) == 10


def test_area_counts_cover_every_paper(store: Store) -> None:
    counts = store.area_counts()
    assert counts["unknown"] + int((np.diff(store.arrays["area_offsets"]) > 0).sum()) == store.n
    assert counts["cs.LG"] >= 20


def test_a_missing_index_is_an_error_naming_the_command_that_rebuilds_it(tmp_path: Path, monkeypatch) -> None:
    """Nothing is rebuilt into a temporary folder (never deleted, and silent on a read-only host): the error names
    the index and the command that built the dataset."""
    import tempfile

    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    copy = tmp_path / "d"
    shutil.copytree(seed_data(), copy)
    shutil.rmtree(copy / "index")
    built_with = json.loads((copy / "dataset.json").read_text())["built_with"]
    with pytest.raises(DatasetError) as e:
        Store.load(copy)
    assert str(e.value) == f"{copy.resolve() / 'index' / 'alt_sorted.npy'}: missing; rebuild it with: {built_with}"
    assert list(scratch.iterdir()) == [] and not (copy / "index").exists()
    _without_checksums(copy)  # an older dataset (no checksums): the index check says the same
    with pytest.raises(
        DatasetError,
        match=r"index: missing, unreadable or from another build of this dataset; "
        r"rebuild it with: ",
    ):
        Store.load(copy, allow_unverified=True)
    assert list(scratch.iterdir()) == []


def _without_checksums(folder: Path) -> None:
    """``folder``'s dataset.json as an older citemap wrote it: no ``files``, no checksum of its own."""
    meta = json.loads((folder / "dataset.json").read_text())
    meta.pop("files")
    meta.pop("meta_checksum")
    (folder / "dataset.json").write_text(json.dumps(meta))


def _edit_meta(folder: Path, edit) -> Path:
    """Apply ``edit`` to the parsed dataset.json of the build ``folder`` and write it back as citemap lays it out;
    returns its path."""
    path = folder / "dataset.json"
    meta = json.loads(path.read_text())
    edit(meta)
    path.write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n")
    return path.resolve()


@pytest.mark.parametrize(
    "name, damage, message",
    [
        ("index/ref_targets.npy", "4 kB inside", "its content changed after it was written"),
        ("index/papers.arrow", "4 kB inside", "its content changed after it was written"),
        ("index/search.sqlite", "truncated", r"[\d,]+ bytes where [\d,]+ were written"),
        ("index/meta.json", "bad json", "its content changed after it was written"),
        ("papers.parquet", "removed", "missing"),
    ],
)
def test_files_changed_after_they_were_written_are_refused_by_name(
    tmp_path: Path, name, damage, message, capsys
) -> None:
    """dataset.json records every file's size and checksum: start-up and ``citemap verify`` find a change of the
    same size (4 kB of garbage inside the CSR targets, which before passed start-up and /health and then made views
    500), a truncated search index (before: every search silently 'No match'), a broken index/meta.json (before: a
    rebuild into /tmp, never deleted), a missing file."""
    from dashboard.cli import main

    copy = tmp_path / "d"
    shutil.copytree(seed_data(), copy)
    assert Store.load(copy).n == 156 and main(["verify", "--data", str(copy)]) == 0
    assert "files, " in capsys.readouterr().out
    path = copy / name
    size = path.stat().st_size
    if damage == "4 kB inside":
        with open(path, "r+b") as f:  # after the .npy header: up to 4 kB (the 156-paper world's file is smaller)
            f.seek(128)
            f.write((bytes(range(256)) * 16)[: min(4096, size - 128)])
        assert path.stat().st_size == size
    elif damage == "truncated":
        with open(path, "r+b") as f:
            f.truncate(size // 2)
    elif damage == "bad json":
        path.write_text(path.read_text().replace("{", "[", 1))
    else:
        path.unlink()
    with pytest.raises(DatasetError, match=re.escape(str(path.resolve())) + ": " + message):
        Store.load(copy)
    assert main(["verify", "--data", str(copy)]) == 1
    err = capsys.readouterr().err
    assert f"citemap: {path.resolve()}: " in err and "1 of 27 files differ from what was written; rebuild it" in err


def test_verify_without_checksums_names_the_fix(tmp_path: Path, capsys, caplog, monkeypatch) -> None:
    from dashboard.cli import main
    from dashboard.web.app import create_app

    copy = tmp_path / "d"
    shutil.copytree(seed_data(), copy)
    _without_checksums(copy)
    assert main(["verify", "--data", str(copy)]) == 2
    assert "records no checksums (written by an older citemap); rebuild it with: " in capsys.readouterr().err
    # start-up refuses it as verify does, naming the fix and the option that serves it anyway, with a warning
    with pytest.raises(DatasetError, match=r"records no checksums .*`citemap verify` refuses it; rebuild it with: "):
        Store.load(copy)
    with pytest.raises(DatasetError, match="serve it as it is with citemap serve --allow-unverified"):
        create_app(copy)
    with caplog.at_level("WARNING", logger="dashboard.dataset.store"):
        assert Store.load(copy, allow_unverified=True).n == 156
    assert "records no checksums" in caplog.text
    monkeypatch.setenv("CITEMAP_ALLOW_UNVERIFIED", "1")
    assert create_app(copy).server.config["CITEMAP_STORE"].n == 156


@pytest.mark.parametrize(
    "what, edit",
    [
        ("a default seed", lambda m: m["seeds"].__setitem__(0, "1706.03762")),
        ("the count of papers", lambda m: m["counts"].__setitem__("papers", 157)),
        ("a file's recorded checksum", lambda m: m["files"]["papers.parquet"].__setitem__("xxh3_128", "0" * 32)),
        ("the files' checksums removed", lambda m: m.pop("files")),
        ("a field added", lambda m: m.__setitem__("notes", [*m["notes"], "edited by hand"])),
    ],
)
def test_an_edited_dataset_json_is_refused_by_name(tmp_path: Path, capsys, what: str, edit) -> None:
    """dataset.json records a checksum of its own content: an edit of what it says (which papers a view starts from,
    a count, the checksums it records of the other files, even all of those removed) stops start-up and fails
    ``citemap verify``, naming dataset.json and the command that rebuilds the dataset (the files it describes are
    untouched)."""
    from dashboard.cli import main

    copy = tmp_path / "d"
    shutil.copytree(seed_data(), copy)
    built_with = json.loads((copy / "dataset.json").read_text())["built_with"]
    path = _edit_meta(copy, edit)
    message = f"{path}: its content changed after it was written (checksum differs from the one it records)"
    with pytest.raises(DatasetError) as e:
        Store.load(copy)
    assert str(e.value) == f"{message}; rebuild it with: {built_with}"
    assert main(["verify", "--data", str(copy)]) == 1
    assert (
        capsys.readouterr().err.splitlines()
        == [  # nothing said of the other files: what it records of them is not to be trusted
            f"citemap: {message}",
            f"citemap: the other files were not checked against it; rebuild it with: {built_with}",
        ]
    )


def test_dataset_json_laid_out_otherwise_with_the_same_content_passes(tmp_path: Path, capsys) -> None:
    """The checksum covers dataset.json's content, not its bytes: indented otherwise, keys sorted, non-ASCII
    escaped, it says the same and is served (an untouched build passes too: the test above starts from one)."""
    from dashboard.cli import main

    copy = tmp_path / "d"
    shutil.copytree(seed_data(), copy)
    before = Store.load(copy).meta
    path = copy / "dataset.json"
    meta = json.loads(path.read_text())
    path.write_text(json.dumps(meta, sort_keys=True, ensure_ascii=True, separators=(",", ":")))
    assert path.read_text().startswith('{"build_id":')
    assert Store.load(copy).meta == before
    assert main(["verify", "--data", str(copy)]) == 0
    out = capsys.readouterr().out
    assert (
        f"27 files, {sum(f['size'] for f in meta['files'].values()) + path.stat().st_size:,} bytes, as written" in out
    )


def test_a_dataset_json_without_its_own_checksum_is_refused_as_verify_refuses_it(
    tmp_path: Path, capsys, caplog
) -> None:
    """What a citemap before the manifest's checksum wrote (the files' checksums, not its own) is treated as a build
    without checksums is: start-up and ``citemap verify`` refuse it, naming the command that rebuilds it; with
    ``--allow-unverified`` it is served with a warning. A checksum that is not one is refused by name."""
    from dashboard.cli import main

    copy = tmp_path / "d"
    shutil.copytree(seed_data(), copy)
    path = _edit_meta(copy, lambda m: m.pop("meta_checksum"))
    with pytest.raises(DatasetError, match=re.escape(f"{path}: records no checksum of its own (written by an older")):
        Store.load(copy)
    with caplog.at_level("WARNING", logger="dashboard.dataset.store"):
        assert Store.load(copy, allow_unverified=True).n == 156
    assert "dataset.json records no checksum of its own (written by an older citemap); its fields not checked" in (
        caplog.text
    )
    assert main(["verify", "--data", str(copy)]) == 2
    assert "dataset.json: records no checksum of its own (written by an older citemap); rebuild it with: " in (
        capsys.readouterr().err
    )
    path = _edit_meta(copy, lambda m: m.__setitem__("meta_checksum", "0" * 32))
    with pytest.raises(DatasetError, match=re.escape(f"{path}: meta_checksum is not an object with an xxh3_128")):
        Store.load(copy)


def test_the_checksum_of_dataset_json_covers_all_its_other_fields() -> None:
    from dashboard.dataset import integrity

    meta = {"name": "x", "seeds": ["a"], "é": 1.5}
    sealed = integrity.seal(meta)
    assert list(sealed) == ["name", "seeds", "é", "meta_checksum"] and meta == {"name": "x", "seeds": ["a"], "é": 1.5}
    assert integrity.canonical(sealed) == integrity.canonical(meta) == '{"name":"x","seeds":["a"],"é":1.5}'.encode()
    assert integrity.meta_problem(sealed, Path("/b")) is None
    assert integrity.meta_problem({**sealed, "seeds": ["b"]}, Path("/b")).startswith("/b/dataset.json: its content")
    assert integrity.meta_problem(meta, Path("/b")) is None and not integrity.records_meta_checksum(meta, Path("/b"))


def test_missing_or_corrupt_files_are_named(tmp_path: Path, monkeypatch) -> None:
    copy = tmp_path / "d"
    shutil.copytree(seed_data(), copy)
    _without_checksums(copy)  # the checks any dataset gets (the checksums find these first: test above)
    monkeypatch.setenv("CITEMAP_ALLOW_UNVERIFIED", "1")  # served as it is, with a warning
    (copy / "citations.parquet").write_bytes(b"PAR1 not really")
    with pytest.raises(DatasetError, match=r"citations\.parquet: cannot be read as Parquet"):
        Store.load(copy)
    (copy / "citations.parquet").unlink()
    with pytest.raises(DatasetError, match=r"citations\.parquet: missing"):
        Store.load(copy)
    (copy / "dataset.json").write_text("{ not json")
    with pytest.raises(DatasetError, match=r"dataset.json, line 1: not valid JSON"):
        Store.load(copy)
    with pytest.raises(DatasetError, match="no such dataset folder"):
        Store.load(tmp_path / "absent")


def test_unknown_years_pass_only_a_year_filter_that_covers_the_dataset(tiny: Store) -> None:
    rows = np.array([tiny.row(p) for p in "abcde"])
    assert (tiny.year_min, tiny.year_max) == (2000, 2010)

    def passing(**kw) -> str:
        return "".join(tiny.id(r) for r in rows[tiny.filter_mask(rows, **kw)])

    assert passing() == "abcde"
    assert passing(years=(2000, 2010)) == "abcde"  # the whole range: nothing is filtered out
    assert passing(years=(1990, 2020)) == "abcde"
    assert passing(years=(2000, 2009)) == "ab"  # any narrower range leaves unknown years out
    assert passing(years=(2001, 2010)) == "bc"
    assert passing(years=(2005, 2005)) == "b"
    assert passing(areas=["cs.LG"]) == "ab" and passing(areas=["cs.CL"]) == "bd"
    assert passing(areas=["unknown"]) == "ce" and passing(areas=["cs.CL", "unknown"]) == "bcde"
    assert passing(areas=["nope"]) == "" and passing(areas=[]) == ""
    assert passing(min_citations=1) == "ad" and passing(min_citations=3) == "d"  # citers in the dataset
    assert passing(min_citations=5) == ""  # a's and d's sources say 5 and 40: not counts of this dataset
    assert passing(years=(2000, 2009), areas=["cs.LG"], min_citations=1) == "a"


def test_counts_of_a_small_dataset(tiny: Store) -> None:
    row = {p: tiny.row(p) for p in "abcde"}
    assert [int(tiny.in_cited[row[p]]) for p in "abcde"] == [1, 0, 0, 3, 0]
    assert [int(tiny.in_refs[row[p]]) for p in "abcde"] == [1, 1, 1, 0, 1]
    assert tiny.cited_by([row[p] for p in "abcde"]).tolist() == [5, -1, 1, 40, -1]  # the sources' figures
    assert tiny.area_counts() == {"cs.LG": 2, "cs.CL": 2, "stat.ML": 1, "unknown": 2}
    assert tiny.areas_of([row["b"], row["c"]]) == [["cs.CL", "cs.LG"], ["unknown"]]
    assert sorted(tiny.ids(tiny.citers(row["d"]))) == ["a", "b", "c"] and tiny.n_citers(row["d"]) == 3
    assert tiny.ids(tiny.references(row["e"])) == ["a"] and tiny.n_references(row["e"]) == 1
    assert tiny.ids(tiny.citers(row["d"], limit=1)) == ["a"]  # most cited first
    assert tiny.n_citations == 4
    rows = np.array([row["e"], row["a"], row["d"], row["b"]])
    i, j = tiny.edge_positions(rows)
    assert sorted(zip(rows[i].tolist(), rows[j].tolist(), strict=True)) == sorted(
        [(row["e"], row["a"]), (row["a"], row["d"]), (row["b"], row["d"])]
    )
    assert tiny.ids(tiny.search("paper", 10))[:1] == ["d"] and set(tiny.ids(tiny.search("paper", 10))) == set("abcdef")
    i, j = tiny.edge_positions(np.array([tiny.row("f"), row["c"], row["b"]]))  # no edge among them
    assert i.dtype == j.dtype == np.int64 and len(i) == len(j) == 0
    i, j = tiny.edge_positions(np.array([tiny.row("f"), row["d"]]))  # neither cites anything
    assert i.dtype == j.dtype == np.int64 and len(i) == len(j) == 0


def _set_index_meta(folder: Path, **changes) -> None:
    import json

    path = folder / "index" / "meta.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), **changes}))


def test_a_fresh_index_is_used_in_place_and_a_stale_one_refused(tmp_path: Path, monkeypatch) -> None:
    copy = tmp_path / "d"
    shutil.copytree(seed_data(), copy)
    fresh = Store.load(copy)
    assert fresh.build == copy.resolve() and fresh.folder == copy.resolve()
    _without_checksums(copy)  # else the checksum of index/meta.json finds the change first
    monkeypatch.setenv("CITEMAP_ALLOW_UNVERIFIED", "1")  # served as it is, with a warning
    for change in ({"build_id": "other"}, {"papers": 155}, {"citations": 180}):
        _set_index_meta(copy, **change)
        with pytest.raises(DatasetError, match=r"index: missing, unreadable or from another build"):
            Store.load(copy)
        shutil.copy(seed_data() / "index" / "meta.json", copy / "index" / "meta.json")
        assert Store.load(copy).n == 156


@pytest.mark.parametrize(
    "name, damage, message",
    [
        ("year.npy", "short", r"index[/\\]*: index files do not match each other"),
        ("ref_offsets.npy", "short", r"index files do not match each other"),
        ("ref_targets.npy", "short", r"index files do not match each other"),
        ("rank_rows.npy", "short", r"index files do not match each other"),
        ("primary_area.npy", "short", r"index files do not match each other"),
        ("in_cited.npy", "short", r"index files do not match each other"),
        ("in_cited.npy", "garbage", r"index: index file unreadable \("),
        ("papers.arrow", "garbage", r"index: index file unreadable \("),
        ("nodes.arrow", "garbage", r"index[/\\]nodes\.arrow: unreadable \("),
    ],
)
def test_damaged_index_files_are_named(tmp_path: Path, name: str, damage: str, message: str) -> None:
    copy = tmp_path / "d"
    shutil.copytree(seed_data(), copy)
    _without_checksums(copy)  # the index's own checks, for a dataset that records no checksums
    path = copy / "index" / name
    if damage == "short":
        np.save(path, np.load(path)[:-1])
    else:
        path.write_bytes(b"garbage" * 10)
    with pytest.raises(DatasetError, match=message):
        Store.load(copy, allow_unverified=True)


def test_store_fields_of_the_default_data() -> None:
    store = Store.load(seed_data())  # loaded here, not shared: this test checks what loading sets
    assert store.folder == seed_data().resolve() and store.build == seed_data().resolve()
    assert (store.n, store.n_citations) == (156, 181) and store.meta["counts"] == {"papers": 156, "citations": 181}
    assert (store.year_min, store.year_max) == (2014, 2025)
    assert store.area_names == ["cs.LG", "cs.CL", "cs.CV", "cs.CR", "stat.ML", "unknown"]
    row = store.row("2110.10090")
    assert store.id(row) == "2110.10090" and store.ids([row, row]) == ["2110.10090"] * 2
    assert store.titles([row]) == [store.paper(row)["title"]]
    assert int(store.in_cited[row]) == store.n_citers(row) == 50 and int(store.in_refs[row]) == 43
    node = json.loads("[" + store.node_json([row]) + "]")[0]
    assert node == ["2110.10090", store.titles([row])[0], 2021, ["cs.LG", "stat.ML"], 50, 144, []]
    assert store.areas_of([row, store.row("2106.03764")]) == [["cs.LG", "stat.ML"], ["unknown"]]
    assert store.area_names[int(store.primary_area[row])] == "cs.LG"
    two = json.loads("[" + store.node_json([row, store.row("1706.03762")]) + "]")
    assert [n[0] for n in two] == ["2110.10090", "1706.03762"] and store.node_json([]) == ""


def _title_words(store: Store, row: int) -> set[str]:
    import re

    return set(re.findall(r"\w+", store.titles([row])[0].lower()))


def test_search_needs_every_word_the_last_as_a_prefix(store: Store) -> None:
    for query in ("large language models", "attention transformers", "language models long context"):
        found = store.search(query, 100)
        *whole, last = query.split()
        assert found, query
        for r in found:
            words = _title_words(store, r)
            assert set(whole) <= words and any(w.startswith(last) for w in words), (query, store.titles([r]))
    assert len(store.search("large language models", 100)) == 8  # what those rules give on the default data
    assert store.search("LARGE Language MODELS", 100) == store.search("large language models", 100)
    # "_" and "-" separate words as the index's tokenizer does (a word it cut in two would be a phrase, which the
    # index without positions refuses: no result at all)
    assert store.search("large_language-models", 100) == store.search("large language models", 100)
    assert store.search("a", 1000) == store.search("a", 100) and len(store.search("a", 1000)) == 100
    assert len(store.search("a", 0)) == 1 and len(store.search("a", -5)) == 1 and len(store.search("a", 3)) == 3
    assert store.search("!!! ...", 10) == [] and store.search("   ", 10) == [] and store.search(None) == []
    # at most 12 words are used: a 13th cannot make a long title unfindable
    row = next(r for r in range(store.n) if len(store.titles([r])[0].split()) >= 13)
    words = store.titles([row])[0].split()
    assert row in store.search(" ".join([*words[:12], "zzzzqqq"]), 100)


def test_search_by_id_and_id_prefix(store: Store, tiny: Store) -> None:
    seed = store.row("2110.10090")
    assert store.search("2110.10090", 10) == [seed]  # once, though the id is also its own prefix
    assert store.search("2110.1", 10) == [seed]
    prefixed = store.search("2106", 10)
    assert sorted(store.ids(prefixed)) == ["2106.01345", "2106.03764", "2106.03893"]
    cites = [int(store.in_cited[r]) for r in prefixed]
    assert cites == [30, 1, 0]  # most cited in the dataset first
    assert store.search("211", 10) == []  # under four characters: no id prefix search
    assert store.search("2110.10090 x", 10) == []  # a space: words, not an id
    assert store.search("\udc80abcd", 10) == []  # not encodable: no error
    assert tiny.search("d", 10) == [tiny.row("d")]  # a whole id, however short


def test_search_connection_is_read_only_and_one_per_thread_and_process() -> None:
    import sqlite3
    import threading

    store = Store.load(seed_data())  # its own: this test pretends a fork happened
    con = store._search_db()
    assert store._search_db() is con
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        con.execute("CREATE TABLE x (a)")
    other: list[sqlite3.Connection] = []
    t = threading.Thread(target=lambda: other.append(store._search_db()))
    t.start()
    t.join()
    assert other[0] is not con
    store._local.pid = -1  # as after a fork: the inherited connection is not used
    assert store._search_db() is not con
    assert store.ids(store.search("attention is all", 1)) == ["1706.03762"]


def test_a_broken_search_index_is_logged_and_ids_still_found(tmp_path: Path, caplog) -> None:
    copy = tmp_path / "d"
    shutil.copytree(seed_data(), copy)
    _without_checksums(copy)  # a dataset that records no checksums (else start-up refuses the file)
    (copy / "index" / "search.sqlite").write_bytes(b"not a database" * 100)
    s = Store.load(copy, allow_unverified=True)
    with caplog.at_level("WARNING", logger="dashboard.dataset.store"):
        assert s.search("attention", 5) == []
        assert s.ids(s.search("2110.10090", 5)) == ["2110.10090"]
    assert "search 'attention' failed: file is not a database" in caplog.text


def test_an_empty_dataset_loads(tmp_path: Path) -> None:
    s = make_store(tmp_path / "empty", [])
    assert (s.n, s.n_citations, s.year_min, s.year_max, s.area_names) == (0, 0, None, None, [])
    assert s.search("x") == [] and s.row("a") is None and s.area_counts() == {}


def test_gather_concatenates_csr_lists() -> None:
    from dashboard.dataset.store import gather

    offsets = np.array([0, 2, 2, 5])
    values = np.array([10, 11, 20, 21, 22])
    owner, got = gather(offsets, values, np.array([2, 0, 1]))
    assert owner.tolist() == [0, 0, 0, 1, 1] and got.tolist() == [20, 21, 22, 10, 11]
    owner, got = gather(offsets, values, np.array([], dtype=np.int64))
    assert owner.tolist() == [] and got.tolist() == [] and owner.dtype == np.int64
    owner, got = gather(offsets, values, np.array([1, 1]))
    assert owner.tolist() == [] and got.tolist() == []


def test_areas_of_a_dataset_where_every_paper_has_one(tmp_path: Path) -> None:
    from dashboard.importers.common import PaperRecord

    s = make_store(
        tmp_path / "areas",
        [PaperRecord(title="P", id="p", areas=["cs.LG"]), PaperRecord(title="Q", id="q", areas=["cs.CV", "cs.LG"])],
    )
    rows = np.array([s.row("p"), s.row("q")])
    assert s.area_names == ["cs.LG", "cs.CV"] and s.area_counts() == {"cs.LG": 2, "cs.CV": 1}
    assert s.area_mask(rows, ["cs.CV"]).tolist() == [False, True] and s.area_mask(rows, ["unknown"]).tolist() == [
        False,
        False,
    ]


def test_a_papers_table_missing_a_column_is_named(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    from dashboard.dataset.format import PAPERS_FILE, read_tables

    copy = tmp_path / "old"
    shutil.copytree(seed_data(), copy)
    table = pq.read_table(copy / PAPERS_FILE)
    pq.write_table(table.drop_columns(["authors", "doi"]), copy / PAPERS_FILE)
    with pytest.raises(DatasetError, match=f"{copy / PAPERS_FILE}: missing column\\(s\\) authors, doi"):
        read_tables(copy)
    # alternative ids came later: a table written without them has none
    pq.write_table(table.drop_columns(["alt_ids"]), copy / PAPERS_FILE)
    papers, _ = read_tables(copy)
    assert papers.column("alt_ids").to_pylist() == [[]] * table.num_rows
    assert papers.drop_columns(["alt_ids"]).equals(table.drop_columns(["alt_ids"]))


def test_year_at_percentile_is_a_year_of_the_data(tmp_path: Path) -> None:
    from dashboard.importers.common import PaperRecord

    two = make_store(
        tmp_path / "two",
        [
            PaperRecord(title="Old", id="o", year=2000),
            PaperRecord(title="New", id="n", year=2010),
            PaperRecord(title="When?", id="w"),
        ],
    )
    assert two.year_at_percentile(50) == 2000 and two.year_at_percentile(100) == 2010  # a year papers have
    assert two.year_at_percentile(0) == 2000  # the unknown year (-1) is not one
    none = make_store(tmp_path / "none", [PaperRecord(title="When?", id="w")])
    assert none.year_at_percentile(1) is None


# -- what a researcher types: ids in any form, exact titles ---------------------------------------------------------
ATTENTION = "1706.03762"
ATTENTION_FORMS = (
    "1706.03762",
    "1706.03762v5",
    "arXiv:1706.03762",
    "arxiv:1706.03762v2",
    "https://arxiv.org/abs/1706.03762",
    "https://arxiv.org/abs/1706.03762v5",
    "http://www.arxiv.org/pdf/1706.03762v5.pdf",
    "https://arxiv.org/pdf/1706.03762",
    "export.arxiv.org/abs/1706.03762",
    "10.48550/arXiv.1706.03762",
    "https://doi.org/10.48550/arXiv.1706.03762",
)


def test_every_form_of_an_arxiv_id_finds_the_paper_first(default_store: Store) -> None:
    row = default_store.row(ATTENTION)
    assert row is not None and default_store.titles([row]) == ["Attention Is All You Need"]
    for text in ATTENTION_FORMS:
        assert default_store.resolve(text) == row, text
        assert default_store.resolve_id(text) == ATTENTION, text
        assert default_store.search(text, 8)[0] == row, text
    for text in ("arXiv:0000.00000", "https://arxiv.org/abs/0000.00000", "W1", "10.1000/none", "", None, "x" * 500):
        assert default_store.resolve(text) is None and default_store.resolve_id(text) is None, text


def test_an_exact_title_comes_first_in_search(default_store: Store) -> None:
    s = default_store
    world_models = s.row("1803.10122")
    assert s.titles([world_models]) == ["World Models"]
    for text in ("world models", "World Models", "  WORLD   models. ", "world-models", "“World Models”"):
        found = s.search(text, 8)
        assert found[0] == world_models, (text, s.titles(found[:3]))
        assert len(found) == len(set(found))
    # the other papers holding both words still follow, most cited first
    rest = s.search("world models", 8)[1:]
    assert s.row("1707.08945") in rest and all("world" in t.lower() for t in s.titles(rest))
    # no paper is titled "world model": the word search alone
    assert s._exact_titles("world model", 8) == [] and s._exact_titles("world models", 8) == [world_models]
    layer_norm = s.search("layer normalization", 3)
    assert s.titles(layer_norm)[0] == "Layer Normalization"


def test_search_forgives_typing_and_spelling(default_store: Store) -> None:
    s = default_store
    for typed, pid, fixed in (
        ("atention is all you need", "1706.03762", "attention is all you need"),
        ("resdiual learning image recognition", "1512.03385", "residual learning image recognition"),
        ("Generative Adverserial Netwroks", "1511.06434", "Generative Adversarial Networks"),  # case kept
    ):
        found = s.search_suggesting(typed, 8)
        assert found.suggestion == fixed and s.id(found.rows[0]) == pid, (typed, s.titles(found.rows[:3]))
        assert found.rows == s.search(fixed, 8)  # what the corrected words find
        assert s.search(typed, 8) == []  # the exact rules alone (a library's titles are matched so)
    # British and American spellings alike: found at once, nothing to suggest
    found = s.search_suggesting("batch normalisation", 8)
    assert s.id(found.rows[0]) == "1502.03167" and found.suggestion is None
    assert sorted(s.search("batch normalisation", 100)) == sorted(s.search("batch normalization", 100))
    american = s.search("language modeling", 100)
    assert sorted(american) == sorted(s.search("language modelling", 100)) and len(american) < 100
    assert "Language Modelling with Pixels" in s.titles(american)
    # words found as typed are not corrected; nothing close: nothing
    assert s.search_suggesting("attention is all you need", 8).suggestion is None
    assert s.search_suggesting("qwxzv kkqzp", 8) == SearchResult([], None)
    # the last word may be being typed: a prefix of a word is not a typo
    assert s.search_suggesting("attention is all you ne", 8).suggestion is None
    assert s.search_suggesting("atention is all you ne", 8).suggestion == "attention is all you ne"


def test_the_vocabulary_counts_the_papers_holding_each_word(default_store: Store) -> None:
    s = default_store
    vocabulary = s.vocabulary
    holding = {w: 0 for w in ("attention", "residual", "normalisation", "normalization", "learning")}
    for title in s.titles(range(s.n)):
        for w in set(re.findall(r"[^\W_]+", title.lower())) & holding.keys():
            holding[w] += 1
    assert {w: vocabulary.docs.get(w) for w in holding} == holding
    assert min(vocabulary.docs.values()) >= 2 and len(vocabulary) < s.n


def test_search_without_a_vocabulary_finds_what_it_found_before(tmp_path: Path) -> None:
    import sqlite3

    copy = tmp_path / "d"
    shutil.copytree(seed_data(), copy)
    _without_checksums(copy)
    con = sqlite3.connect(copy / "index" / "search.sqlite")
    con.execute("DROP TABLE words")  # as an index written before it had one
    con.commit()
    con.close()
    s = Store.load(copy, allow_unverified=True)
    assert len(s.vocabulary) == 0
    assert s.search_suggesting("atention is all", 8) == SearchResult([], None)
    assert s.ids(s.search("attention is all", 1)) == ["1706.03762"]


def test_an_exact_title_is_checked_not_only_its_hash(
    default_store: Store, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Two titles whose hashes are equal are told apart by their words: a hash that is the same for every title
    finds only the paper titled so."""
    from dashboard.dataset import search_write
    from dashboard.dataset import store as store_module
    from dashboard.importers.common import PaperRecord

    monkeypatch.setattr(search_write, "title_hash", lambda key: 7)
    monkeypatch.setattr(store_module, "title_hash", lambda key: 7)
    papers = [PaperRecord(title=t, id=f"p{i}", year=2020) for i, t in enumerate(["Cats", "Dogs", "Cats: a study"])]
    s = make_store(tmp_path / "h", papers)
    assert s.ids(s._exact_titles("cats", 10)) == ["p0"] and s.ids(s._exact_titles("DOGS!", 10)) == ["p1"]
    assert s.ids(s._exact_titles("cats a study", 10)) == ["p2"] and s._exact_titles("birds", 10) == []


def test_exact_title_keys_fold_case_accents_punctuation_and_spaces() -> None:
    from dashboard.dataset.keys import title_hash, title_key

    assert title_key("World Models") == title_key("  world   MODELS. ") == title_key("World-Models!") == "world models"
    assert title_key("Über Café—Größe") == "uber cafe grosse"
    assert title_key("深度 学习") == "深度 学习"  # words of any script are kept
    assert title_key("...") == "" and title_key("snake_case") == "snake case"
    assert title_hash("world models") == title_hash("world models") != title_hash("world model")
    assert 0 <= title_hash("world models") < 2**32


def openalex_work(n: int, title: str, **fields: object) -> dict:
    work = {
        "id": f"https://openalex.org/W{n}",
        "doi": f"https://doi.org/10.5555/T.{n}",
        "display_name": title,
        "publication_year": 2017,
        "cited_by_count": 3,
        "referenced_works": [],
    }
    work.update(fields)
    return work


@pytest.fixture(scope="module", params=["python", "duckdb"])
def imported(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Store:
    """OpenAlex works imported by each engine: an arXiv paper (its W id an alternative id), an old-style arXiv paper,
    a paper known by its W id and DOI only, and one citing them."""
    from dashboard.importers import run_import

    folder = tmp_path_factory.mktemp("ids")
    works = [
        openalex_work(10, "Attention Is All You Need", doi="https://doi.org/10.48550/arXiv.1706.03762"),
        openalex_work(
            11,
            "An Old String Paper",
            ids={"openalex": "https://openalex.org/W11", "arxiv": "hep-th/9901001"},
            doi=None,
        ),
        openalex_work(12, "A Journal Paper"),
        openalex_work(
            13,
            "Citing Them All",
            referenced_works=[f"https://openalex.org/W{n}" for n in (10, 11, 12)],
        ),
    ]
    src = folder / "part_000.jsonl"
    src.write_text("".join(json.dumps(w) + "\n" for w in works))
    run_import("openalex", [src], folder / "out", engine=request.param, progress=False)
    return Store.load(folder / "out")


def test_alternative_ids_and_dois_resolve_in_every_form(imported: Store) -> None:
    s = imported
    assert sorted(s.ids(range(s.n))) == ["1706.03762", "W12", "W13", "hep-th_9901001"]
    attention, old, journal = s.row("1706.03762"), s.row("hep-th_9901001"), s.row("W12")
    assert s.paper(attention)["alt_ids"] == ["W10"] and s.paper(old)["alt_ids"] == ["W11"]
    assert s.paper(journal)["alt_ids"] == [] and s.paper(journal)["doi"] == "10.5555/t.12"
    assert s.row("W10") is None and s.row_by_alt("W10") == attention  # an alternative id, not an id
    for text in (
        "W10",
        "w10",
        "https://openalex.org/W10",
        "openalex.org/works/w10",
        "https://api.openalex.org/works/W10",
        "arXiv:1706.03762",
        "https://doi.org/10.48550/arXiv.1706.03762",
    ):
        assert s.resolve(text) == attention, text
        assert s.search(text, 5)[0] == attention, text
    for text in (
        "hep-th/9901001",
        "hep-th/9901001v2",
        "arXiv:hep-th/9901001",
        "https://arxiv.org/abs/hep-th/9901001",
        "https://openalex.org/W11",
        "hep-th_9901001",
    ):
        assert s.resolve(text) == old, text
    for text in ("W12", "10.5555/t.12", "10.5555/T.12", "doi:10.5555/t.12", "https://dx.doi.org/10.5555/T.12"):
        assert s.resolve(text) == journal, text
    for text in ("W14", "https://openalex.org/W999", "10.5555/t.99", "hep-th/9901002", "arXiv:1706.03763"):
        assert s.resolve(text) is None and s.search(text, 5) == [], text


def test_semantic_scholar_ids_resolve_as_id_and_as_alternative_id(tmp_path: Path) -> None:
    from dashboard.importers import run_import
    from tests.conftest import FIXTURES

    paper = json.loads((FIXTURES / "semanticscholar" / "Paper.json").read_text())
    hex_id = paper["paperId"]
    arxiv_paper = {
        **paper,
        "paperId": "f" * 40,
        "title": "A Preprint",
        "externalIds": {"ArXiv": "1706.03762", "DOI": "10.48550/arXiv.1706.03762"},
    }
    (tmp_path / "a.json").write_text(json.dumps(paper))
    (tmp_path / "b.json").write_text(json.dumps(arxiv_paper))
    run_import("s2", [tmp_path / "a.json", tmp_path / "b.json"], tmp_path / "out", argv=["test"], progress=False)
    s = Store.load(tmp_path / "out")
    turing, preprint = s.row(hex_id), s.row("1706.03762")
    assert turing is not None and preprint is not None and s.paper(preprint)["alt_ids"] == ["f" * 40]
    for text in (
        hex_id,
        hex_id.upper(),
        f"https://www.semanticscholar.org/paper/Computing-Machinery/{hex_id}",
        f"https://api.semanticscholar.org/graph/v1/paper/{hex_id}",
        "https://doi.org/10.1093/mind/lix.236.433",
    ):
        assert s.resolve(text) == turing, text
    for text in ("f" * 40, f"https://www.semanticscholar.org/paper/A-Preprint/{'F' * 40}", "1706.03762v3"):
        assert s.resolve(text) == preprint, text
    assert s.resolve("e" * 40) is None
