"""The index a dataset is served from: the same files whether written in one batch or many, keys sorted as numpy
sorts bytes, node text past Arrow's 2 GiB string limit read back the same."""

from __future__ import annotations

import itertools
import json
import random
import sqlite3
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from dashboard.dataset import index, index_write, search_write, spill
from dashboard.dataset.format import PAPERS_SCHEMA, citations_table, papers_table, read_tables
from dashboard.dataset.store import Store
from dashboard.dataset.write import write_dataset
from tests.conftest import seed_data


def numpy_sorted_keys(values: list[str | None]) -> tuple[np.ndarray, np.ndarray]:
    """The reference: Python bytes sorted by numpy (what the index held before it was built with Arrow)."""
    rows = [i for i, v in enumerate(values) if v]
    keys = np.array([values[i].encode() for i in rows], dtype=bytes) if rows else np.array([], dtype="S1")
    order = np.argsort(keys, kind="stable")
    return keys[order], np.asarray(rows, dtype=np.int32)[order]


@pytest.mark.parametrize("seed", range(4))
def test_sorted_keys_are_numpys_byte_order(seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keys sorted in memory by Arrow, or by DuckDB a chunk at a time (a snapshot-scale import), and written in
    chunks padded a block at a time: the files hold what numpy's own sort gives."""
    import duckdb

    from dashboard.importers.duckdb_engine import Streamed

    rng = random.Random(seed)
    alphabet = "ab.-_/09éΩ𝄞"
    values = [
        None if rng.random() < 0.1 else "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 7)))
        for _ in range(300)
    ]
    want_keys, want_rows = numpy_sorted_keys(values)
    monkeypatch.setattr(index_write, "KEY_BLOCK", 7)
    monkeypatch.setattr("dashboard.importers.duckdb_engine.STREAM_ROWS", 16)
    con = duckdb.connect()
    con.execute("CREATE TABLE rank AS SELECT * FROM (VALUES (NULL::VARCHAR, 0)) t(id, r) LIMIT 0")
    con.executemany("INSERT INTO rank VALUES (?, ?)", list(zip(values, range(len(values)), strict=True)))
    for how, keys in (
        ("arrow", index_write.sorted_keys(pa.array(values, pa.string()))),
        ("duckdb", Streamed(con, "x", {}, {}, tmp_path).sorted_keys("id")),
    ):
        index_write.write_sorted_keys(tmp_path, how, keys)
        got, rows = np.load(tmp_path / f"{how}_sorted.npy"), np.load(tmp_path / f"{how}_sorted_rows.npy")
        assert got.dtype == want_keys.dtype and got.tolist() == want_keys.tolist(), how
        assert rows.tolist() == want_rows.tolist(), how
        assert np.all(got[:-1] <= got[1:])
        assert np.searchsorted(got, values[rows[5]].encode()) <= 5


def test_an_index_written_in_small_batches_is_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    papers, citations = read_tables(seed_data())
    index_write.write_index(tmp_path / "one", papers, citations, "x")
    monkeypatch.setattr(index_write, "BATCH", 7)  # 156 papers: 23 batches
    index_write.write_index(tmp_path / "many", papers, citations, "x")
    one, many = index.load_arrays(tmp_path / "one"), index.load_arrays(tmp_path / "many")
    for name in index.ARRAYS:
        assert np.array_equal(one[name], many[name]), name
    nodes = index.load_node_json(tmp_path / "many")
    assert isinstance(nodes, index.Chunks) and nodes.col.num_chunks == 23
    assert index.load_papers(tmp_path / "many").column("title").num_chunks == 23
    assert index.load_node_json(tmp_path / "one").to_pylist() == nodes.to_pylist()
    found = []
    for folder in ("one", "many"):
        con = sqlite3.connect(tmp_path / folder / index.INDEX_DIR / "search.sqlite")
        found.append(
            [
                con.execute("SELECT rowid FROM titles WHERE titles MATCH ? ORDER BY rowid", (q,)).fetchall()
                for q in ("attention", "learning", "graph", "et")
            ]
        )
        con.close()
    assert found[0] == found[1] and all(found[0][:3])


@pytest.mark.parametrize("seed", range(3))
def test_year_and_area_arrays_from_batches_are_those_of_the_whole(seed: int) -> None:
    """Areas coded a batch at a time, names first seen in any batch: the codes are the places of the names sorted
    by papers (most first, ties by name), "unknown" last when a paper has none; years -1 where unknown."""
    rng = random.Random(seed)
    pool = ["ba", "ab", "c", "d", "Élan", "e"]
    areas = [rng.choice([None, [], *[[x] for x in pool], rng.sample(pool, 2), rng.sample(pool, 3)]) for _ in range(300)]
    if seed == 0:  # ties: "ab", "ba" and "c" in 2 papers each, "d", "e" and "Élan" in 1, seen in another order
        areas = [[], ["e"], ["c", "ba"], None, ["Élan"], ["ab", "c"], ["d"], ["ba"], ["ab"], *[[]] * 291]
    years = [rng.choice([None, 1999, 2020, 2024]) for _ in range(300)]
    fields = index_write.FieldArrays()
    cuts = sorted({0, 300, *rng.sample(range(1, 300), rng.randint(0, 12))})
    for lo, hi in itertools.pairwise(cuts):
        fields.add(pa.array(years[lo:hi], pa.int16()), pa.array(areas[lo:hi], pa.list_(pa.string())))
    arrays, names = fields.arrays()
    count = {x: sum(x in (a or []) for a in areas) for x in pool}
    want = sorted((x for x in pool if count[x]), key=lambda x: (-count[x], x))
    want += [index.UNKNOWN_AREA] if any(not a for a in areas) else []
    assert names == want
    flat = [names.index(x) for a in areas for x in a or []]
    assert arrays["area_codes"].tolist() == flat and arrays["area_codes"].dtype == np.int16
    assert arrays["area_offsets"].tolist() == [0, *itertools.accumulate(len(a or []) for a in areas)]
    assert arrays["primary_area"].tolist() == [names.index(a[0] if a else index.UNKNOWN_AREA) for a in areas]
    assert arrays["year"].tolist() == [-1 if y is None else y for y in years]


def test_a_search_index_keeps_a_few_segments_and_merges_more(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Written with little memory for words, the index has many segments: up to SEARCH_SEGMENTS they stay as they
    are, beyond it they are merged into one; either way every query finds the same papers."""
    rng = random.Random(5)
    words = ["graph", "graphs", "learning", "network", "attention", "quantum", "protein", "galaxy", "lattice"]
    titles = [" ".join(rng.choice(words) + str(rng.randrange(300)) for _ in range(6)) for _ in range(3000)]
    names = [f"Ada Li{i % 97}; Bo Chen" for i in range(3000)]
    monkeypatch.setattr(search_write, "SEARCH_HASH_BYTES", 4096)  # words written out every few papers: many segments
    found, segments = [], []
    for keep in (10_000, 1):
        monkeypatch.setattr(search_write, "SEARCH_SEGMENTS", keep)
        path = tmp_path / f"keep{keep}.sqlite"
        search_write.write_search_index(
            path, [(k, titles[k : k + 500], names[k : k + 500]) for k in range(0, 3000, 500)]
        )
        con = sqlite3.connect(path)
        segments.append(con.execute("SELECT count(DISTINCT segid) FROM titles_idx").fetchone()[0])
        found.append(
            [
                con.execute("SELECT rowid FROM titles WHERE titles MATCH ? ORDER BY rowid", (q,)).fetchall()
                for q in ('"graph1"*', '"lattice2"', '"li9"*', '"quantum1" AND "chen"', '"g"*')
            ]
        )
        con.close()
    assert segments[0] > 1 and segments[1] == 1
    assert found[0] == found[1] and all(found[0])
    assert len(found[0][4]) == sum(any(w.startswith("g") for w in t.split()) for t in titles)


def test_search_text_comes_in_rank_order_from_any_batches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The search index's text is read in row order, a batch at a time, and comes out in rank order a block at a
    time; ranks that are not a permutation are refused."""
    papers, citations = read_tables(seed_data())
    monkeypatch.setattr(index_write, "BATCH", 7)
    index_write.write_index(tmp_path, papers, citations, "x")
    out = tmp_path / index.INDEX_DIR
    row_rank = np.load(out / "row_rank.npy")
    rank_rows = np.load(out / "rank_rows.npy")
    got = list(search_write.ranked_text(tmp_path, row_rank, 10))
    assert [start for start, _, _ in got] == list(range(0, papers.num_rows, 10))
    titles = [t for _, block, _ in got for t in block]
    names = [a for _, _, block in got for a in block]
    assert titles == [papers.column("title")[int(r)].as_py() or "" for r in rank_rows]
    assert names == ["; ".join(papers.column("authors")[int(r)].as_py() or []) for r in rank_rows]
    assert all(p.is_file() for p in out.iterdir())  # no temporary folder left
    bad = row_rank.copy()
    bad[3] = bad[4]
    with pytest.raises(ValueError, match="ranks"):
        list(search_write.ranked_text(tmp_path, bad, 10))
    assert all(p.is_file() for p in out.iterdir())  # no temporary folder left


def test_a_dataset_written_in_batches_serves_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A snapshot-scale dataset's files hold one chunk per batch; the store reads them without joining them."""
    papers, citations = read_tables(seed_data())
    write_dataset(tmp_path / "one", papers, citations, {"name": "one"})
    monkeypatch.setattr(index_write, "BATCH", 10)
    write_dataset(tmp_path / "many", papers, citations, {"name": "many"})
    one, many = Store.load(tmp_path / "one"), Store.load(tmp_path / "many")
    assert isinstance(many._titles, index.Chunks) and many._titles.col.num_chunks == 16
    assert isinstance(many._node_json, index.Chunks) and isinstance(one._node_json, pa.Array)
    rows = [155, 0, 37, 10, 9, 11, 37, 120]
    assert many.node_json(rows) == one.node_json(rows) and many.node_json(rows).count("],[") == len(rows) - 1
    assert many.ids(rows) == one.ids(rows) and many.titles(rows) == one.titles(rows)
    assert many.cited_by(rows).tolist() == one.cited_by(rows).tolist()
    assert [many.id(r) for r in rows] == [one.id(r) for r in rows] and many.paper(37) == one.paper(37)
    assert many.search("attention") == one.search("attention") != []
    assert [many.references(r).tolist() for r in rows] == [one.references(r).tolist() for r in rows]
    assert [many.citers(r).tolist() for r in rows] == [one.citers(r).tolist() for r in rows]


def expected_node(rec: dict, in_cited: int) -> list:
    """A paper's node fields as the store's reader expects them (``index.NODE_FIELDS``), built in Python."""
    people = rec["authors"] or []
    if len(people) > index.NODE_AUTHORS:
        people = [*people[: index.NODE_AUTHORS], "et al."]
    return [
        rec["id"],
        rec["title"] or "",
        rec["year"],
        rec["areas"] or [index.UNKNOWN_AREA],
        in_cited,
        rec["cited_by"],
        people,
    ]


def test_node_text_parses_to_each_papers_fields(tmp_path: Path) -> None:
    """The node text DuckDB writes, on titles and names JSON must escape (quotes, backslashes, control characters,
    line separators), non-ASCII text, missing values, and more authors than a node carries."""
    odd = ['a "q" \\ b', "tab\there\nnl\r\x01\x1f\x7f", "ünïcödé — 𝔘 😀", "\u2028\u2029 sep", "</script>", None]
    n = len(odd)
    cols = {name: [None] * n for name in PAPERS_SCHEMA.names}
    cols.update(
        id=[f"p{i}" for i in range(n)],
        title=odd,
        year=[2001, None, 1999, 2020, None, 2024],
        areas=[["cs.LG", 'x"y'], [], ["ü"], None, ["a", "b", "c"], []],
        cited_by=[5, None, 0, 2**40, 7, None],
        authors=[["A", "B", "C", "D"], [], None, ['Q "x" \\'], ["α", "β", "γ"], ["\x00z"]],
        sources=[["t"]] * n,
    )
    papers = papers_table(cols)
    citations = citations_table(["p0", "p1", "p2", "p5"], ["p4", "p4", "p0", "p4"])
    index_write.write_index(tmp_path, papers, citations, "x")
    nodes = index.load_node_json(tmp_path).to_pylist()
    in_cited = index.load_arrays(tmp_path)["in_cited"]
    assert in_cited.tolist() == [1, 0, 0, 0, 3, 0]
    assert [text[-1] for text in nodes] == [","] * n
    assert [json.loads(text[:-1]) for text in nodes] == [
        expected_node(rec, int(c)) for rec, c in zip(papers.to_pylist(), in_cited, strict=True)
    ]


def test_node_text_of_the_seed_data_is_each_papers_fields() -> None:
    store = Store.load(seed_data())
    nodes = json.loads("[" + store.node_json(range(store.n)) + "]")
    recs = store.papers.to_pylist()
    assert len(nodes) == store.n > 100
    assert nodes == [expected_node(rec, int(c)) for rec, c in zip(recs, store.in_cited, strict=True)]


def search_results(folder: Path) -> list[list[tuple[int]]]:
    con = sqlite3.connect(folder / index.INDEX_DIR / "search.sqlite")
    try:
        return [
            con.execute("SELECT rowid FROM titles WHERE titles MATCH ? ORDER BY rowid", (q,)).fetchall()
            for q in ("attention", "learning", "graph", '"ne"*', "et")
        ]
    finally:
        con.close()


def common_words(folder: Path) -> list[tuple[str, int]]:
    """The search index's table of common words (spelling suggestions), in word order."""
    con = sqlite3.connect(folder / index.INDEX_DIR / "search.sqlite")
    try:
        return con.execute("SELECT word, docs FROM words ORDER BY word").fetchall()
    finally:
        con.close()


def test_the_common_words_are_those_of_two_papers_or_more(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    papers = papers_table(
        {
            **{name: [None] * 4 for name in PAPERS_SCHEMA.names},
            "id": ["a", "b", "c", "d"],
            "title": ["Graph attention", "Graph ATTENTION networks", "Graphs, graph!", "Attention"],
            "areas": [[]] * 4,
            "authors": [[], [], [], ["Ada Graph"]],
            "sources": [[]] * 4,
            "alt_ids": [[]] * 4,
        }
    )
    index_write.write_index(tmp_path / "w", papers, citations_table([], []), "x")
    # "graph" in four papers (one by its author's name, one twice), "attention" in three; the other words in one
    assert common_words(tmp_path / "w") == [("attention", 3), ("graph", 4)]
    monkeypatch.setattr(search_write, "WORD_LIMIT", 1)  # the most common first
    index_write.write_index(tmp_path / "one", papers, citations_table([], []), "x")
    assert common_words(tmp_path / "one") == [("graph", 4)]


def test_a_search_index_written_by_a_child_process_is_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    papers, citations = read_tables(seed_data())
    index_write.write_index(tmp_path / "here", papers, citations, "x")
    monkeypatch.setattr(search_write, "PARALLEL_SEARCH", 1)
    started = []
    monkeypatch.setattr(
        search_write,
        "search_child",
        lambda folder, real=search_write.search_child: started.append(folder) or real(folder),
    )
    index_write.write_index(tmp_path / "child", papers, citations, "x")
    assert started == [tmp_path / "child"]
    assert search_results(tmp_path / "here") == search_results(tmp_path / "child")
    assert common_words(tmp_path / "here") == common_words(tmp_path / "child") != []
    assert all(search_results(tmp_path / "here")[:4])
    assert index.load_node_json(tmp_path / "here").equals(index.load_node_json(tmp_path / "child"))


def test_a_failed_search_child_fails_the_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    papers, citations = read_tables(seed_data())
    monkeypatch.setattr(search_write, "PARALLEL_SEARCH", 1)
    (tmp_path / index.INDEX_DIR / "search.sqlite").mkdir(parents=True)  # the child cannot open it
    with pytest.raises(RuntimeError, match=r"search\.sqlite: the process writing it failed \(exit code 1\)"):
        index_write.write_index(tmp_path, papers, citations, "x")


@pytest.mark.parametrize("seed", range(3))
def test_take_reads_a_column_of_several_chunks_as_one(seed: int) -> None:
    rng = np.random.default_rng(seed)
    values = [f"v{i}" if i % 7 else None for i in range(1000)]
    cuts = sorted(set(rng.integers(1, 999, 5).tolist()))
    chunks = [pa.array(values[a:b]) for a, b in zip([0, *cuts], [*cuts, 1000], strict=True)]
    col = index.column(pa.chunked_array(chunks))
    rows = rng.integers(0, 1000, 300)
    assert index.take(col, rows).to_pylist() == [values[r] for r in rows]
    inside = rows[(rows >= cuts[0]) & (rows < cuts[1])]  # all in one chunk
    assert index.take(col, inside).to_pylist() == [values[r] for r in inside]
    assert [col[int(r)].as_py() for r in rows[:20]] == [values[r] for r in rows[:20]] and len(col) == 1000
    assert index.take(col, []).to_pylist() == []
    assert index.take(index.column(pa.chunked_array([pa.array(values)])), rows[:5]).to_pylist() == [
        values[r] for r in rows[:5]
    ]
    with pytest.raises(IndexError):
        index.take(col, [1000])


@pytest.mark.parametrize("seed", range(4))
def test_lists_streamed_in_chunks_are_the_lists_of_the_whole(
    seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The references (citers) of each paper, most cited first, made a range of owners at a time from the
    citations regrouped on disk (given in any order, in chunks of any size), are the lists made of all the
    citations at once."""
    rng = np.random.default_rng(seed)
    n, m = 60, 700
    src, dst = rng.integers(0, n, m).astype(np.int32), rng.integers(0, n, m).astype(np.int32)
    keep = src != dst
    pairs = np.unique(np.stack([src[keep], dst[keep]], axis=1), axis=0)
    src, dst = pairs[:, 0].copy(), pairs[:, 1].copy()
    ranks = index_write.rank_arrays(n, src, dst)
    files = int(rng.integers(4, 40))
    monkeypatch.setattr(spill, "SPREAD_FILES", files)
    for name, owner, other in (("citing", src, dst), ("cited", dst, src)):
        whole = index_write._lists(owner, other, ranks)
        counts = np.bincount(owner, minlength=n)
        size = int(rng.integers(1, 80))
        ranges = spill.owner_ranges(counts, size)
        assert ranges[0][0] == 0 and ranges[-1][1] == n and all(a[1] == b[0] for a, b in itertools.pairwise(ranges))
        assert all(counts[lo:hi].sum() <= size or hi == lo + 1 for lo, hi in ranges)
        shuffled = rng.permutation(len(src))  # the citations in any order, in chunks of any size
        cuts = np.sort(rng.integers(0, len(src), 5))
        rows = [(src[part], dst[part]) for part in np.split(shuffled, cuts)]
        chunks = list(spill.grouped(rows, name, counts, size, tmp_path))
        assert len(chunks) <= files and list(tmp_path.iterdir()) == []  # within the files; none left
        assert sum(len(c[0]) for c in chunks) == len(src)
        for (owner_a, _), (owner_b, _) in itertools.pairwise([c for c in chunks if len(c[0])]):
            assert owner_a.max() < owner_b.min()  # each chunk a range of owners, ascending
        streamed = np.concatenate(list(index_write.lists_of(chunks, ranks)))
        assert streamed.tolist() == whole.tolist()
        with pytest.raises(ValueError, match="out of order"):
            list(index_write.lists_of(chunks[::-1], ranks))
        for bad in (-1, n):  # a row that is no paper's: refused, nothing left on disk
            with pytest.raises(ValueError, match="outside the papers"):
                list(
                    spill.grouped(
                        [*rows, (np.array([bad], np.int32), np.array([bad], np.int32))], name, counts, size, tmp_path
                    )
                )
            assert list(tmp_path.iterdir()) == []
        if name == "citing":  # in citing order (as the citations file is), cut between citing papers
            cuts = np.sort(rng.integers(0, len(src), 8))  # chunks of any size, a paper across several of them
            runs = list(spill.owner_runs([(src[a:b], dst[a:b]) for a, b in itertools.pairwise([0, *cuts, len(src)])]))
            assert all(len(o) for o, _ in runs) and sum(len(o) for o, _ in runs) == len(src)
            for (owner_a, _), (owner_b, _) in itertools.pairwise(runs):
                assert owner_a.max() < owner_b.min()  # each paper's citations in one chunk
            assert np.concatenate(list(index_write.lists_of(runs, ranks))).tolist() == whole.tolist()
        counts = np.bincount(owner, minlength=n)
        starts = np.concatenate([[0], np.cumsum(counts)])
        for row in (0, 7, n - 1):  # each list: the owner's citations, most cited inside the dataset first
            got = whole[starts[row] : starts[row + 1]]
            assert sorted(got.tolist()) == sorted(other[owner == row].tolist())
            assert np.all(np.diff(ranks["row_rank"][got]) > 0)


def test_owner_runs_keep_a_paper_across_chunks_and_empty_chunks_whole() -> None:
    def chunk(owner: list[int], other: list[int]) -> tuple[np.ndarray, np.ndarray]:
        return np.array(owner, np.int32), np.array(other, np.int32)

    runs = list(
        spill.owner_runs(
            [
                chunk([], []),
                chunk([0, 0], [1, 2]),
                chunk([], []),
                chunk([0], [3]),
                chunk([0, 1], [4, 5]),
                chunk([1, 1], [6, 7]),
                chunk([2], [8]),
            ]
        )
    )
    assert [(o.tolist(), x.tolist()) for o, x in runs] == [
        ([0, 0, 0, 0], [1, 2, 3, 4]),
        ([1, 1, 1], [5, 6, 7]),
        ([2], [8]),
    ]
    assert list(spill.owner_runs([chunk([], [])])) == []


def test_a_failed_index_stops_its_search_child(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    papers, citations = read_tables(seed_data())
    monkeypatch.setattr(search_write, "PARALLEL_SEARCH", 1)
    children = []
    monkeypatch.setattr(
        search_write,
        "search_child",
        lambda folder, real=search_write.search_child: children.append(real(folder)) or children[-1],
    )

    def full() -> str:  # writing the tables fails
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        index_write.write_index(tmp_path, papers, citations, full)
    assert len(children) == 1 and children[0].returncode is not None and children[0].returncode < 0  # killed
