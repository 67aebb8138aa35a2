"""The index a dataset is served from: the same files whether written in one batch or many, keys sorted as numpy
sorts bytes, node text past Arrow's 2 GiB string limit read back the same."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from dashboard import index
from dashboard.dataset import PAPERS_SCHEMA, citations_table, papers_table, read_tables
from dashboard.store import Store
from tests.conftest import seed_data


def numpy_sorted_keys(values: list[str | None]) -> tuple[np.ndarray, np.ndarray]:
    """The reference: Python bytes sorted by numpy (what the index held before it was built with Arrow)."""
    rows = [i for i, v in enumerate(values) if v]
    keys = np.array([values[i].encode() for i in rows], dtype=bytes) if rows else np.array([], dtype="S1")
    order = np.argsort(keys, kind="stable")
    return keys[order], np.asarray(rows, dtype=np.int32)[order]


@pytest.mark.parametrize("seed", range(4))
def test_sorted_keys_are_numpys_byte_order(seed: int) -> None:
    rng = random.Random(seed)
    alphabet = "ab.-_/09éΩ𝄞"
    values = [None if rng.random() < 0.1 else "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 7)))
              for _ in range(300)]
    keys, rows = index._sorted_keys(pa.array(values, pa.string()))
    want_keys, want_rows = numpy_sorted_keys(values)
    assert keys.dtype == want_keys.dtype and keys.tolist() == want_keys.tolist()
    assert rows.tolist() == want_rows.tolist()
    assert np.all(keys[:-1] <= keys[1:])
    assert np.searchsorted(keys, values[rows[5]].encode()) <= 5


def test_an_index_written_in_small_batches_is_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    papers, citations = read_tables(seed_data())
    index.write_index(tmp_path / "one", papers, citations, "x")
    monkeypatch.setattr(index, "BATCH", 7)  # 156 papers: 23 batches
    index.write_index(tmp_path / "many", papers, citations, "x")
    one, many = index.load_arrays(tmp_path / "one"), index.load_arrays(tmp_path / "many")
    for name in index.ARRAYS:
        assert np.array_equal(one[name], many[name]), name
    assert index.load_node_json(tmp_path / "one").equals(index.load_node_json(tmp_path / "many"))
    found = []
    for folder in ("one", "many"):
        con = sqlite3.connect(tmp_path / folder / index.INDEX_DIR / "search.sqlite")
        found.append([con.execute("SELECT rowid FROM titles WHERE titles MATCH ? ORDER BY rowid", (q,)).fetchall()
                      for q in ("attention", "learning", "graph", "et")])
        con.close()
    assert found[0] == found[1] and all(found[0][:3])


def test_node_text_past_the_string_limit_reads_back_the_same(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    papers, citations = read_tables(seed_data())
    index.write_index(tmp_path / "small", papers, citations, "x")
    monkeypatch.setattr(index, "STRING_LIMIT", 100)
    index.write_index(tmp_path / "large", papers, citations, "x")
    small, large = index.load_node_json(tmp_path / "small"), index.load_node_json(tmp_path / "large")
    assert pa.types.is_string(small.type) and pa.types.is_large_string(large.type)
    assert small.to_pylist() == large.to_pylist()
    store = Store.load(seed_data())
    rows = [0, 5, 3, len(small) - 1]
    text = store.node_json(rows)
    store._node_json = large
    assert store.node_json(rows) == text and text.count("],[") == len(rows) - 1


def expected_node(rec: dict, in_cited: int) -> list:
    """A paper's node fields as the store's reader expects them (``index.NODE_FIELDS``), built in Python."""
    people = rec["authors"] or []
    if len(people) > index.NODE_AUTHORS:
        people = [*people[:index.NODE_AUTHORS], "et al."]
    return [rec["id"], rec["title"] or "", rec["year"], rec["areas"] or [index.UNKNOWN_AREA], in_cited,
            rec["cited_by"], people]


def test_node_text_parses_to_each_papers_fields(tmp_path: Path) -> None:
    """The node text DuckDB writes, on titles and names JSON must escape (quotes, backslashes, control characters,
    line separators), non-ASCII text, missing values, and more authors than a node carries."""
    odd = ['a "q" \\ b', "tab\there\nnl\r\x01\x1f\x7f", "ünïcödé — 𝔘 😀", "\u2028\u2029 sep", "</script>", None]
    n = len(odd)
    cols = {name: [None] * n for name in PAPERS_SCHEMA.names}
    cols.update(id=[f"p{i}" for i in range(n)], title=odd, year=[2001, None, 1999, 2020, None, 2024],
                areas=[["cs.LG", 'x"y'], [], ["ü"], None, ["a", "b", "c"], []],
                cited_by=[5, None, 0, 2**40, 7, None],
                authors=[["A", "B", "C", "D"], [], None, ['Q "x" \\'], ["α", "β", "γ"], ["\x00z"]],
                sources=[["t"]] * n)
    papers = papers_table(cols)
    citations = citations_table(["p0", "p1", "p2", "p5"], ["p4", "p4", "p0", "p4"])
    index.write_index(tmp_path, papers, citations, "x")
    nodes = index.load_node_json(tmp_path).to_pylist()
    in_cited = index.load_arrays(tmp_path)["in_cited"]
    assert in_cited.tolist() == [1, 0, 0, 0, 3, 0]
    assert [text[-1] for text in nodes] == [","] * n
    assert [json.loads(text[:-1]) for text in nodes] == [expected_node(rec, int(c))
                                                         for rec, c in zip(papers.to_pylist(), in_cited, strict=True)]


def test_node_text_of_the_seed_data_is_each_papers_fields() -> None:
    store = Store.load(seed_data())
    nodes = json.loads("[" + store.node_json(range(store.n)) + "]")
    recs = store.papers.to_pylist()
    assert len(nodes) == store.n > 100
    assert nodes == [expected_node(rec, int(c)) for rec, c in zip(recs, store.in_cited, strict=True)]


def search_results(folder: Path) -> list[list[tuple[int]]]:
    con = sqlite3.connect(folder / index.INDEX_DIR / "search.sqlite")
    try:
        return [con.execute("SELECT rowid FROM titles WHERE titles MATCH ? ORDER BY rowid", (q,)).fetchall()
                for q in ("attention", "learning", "graph", '"ne"*', "et")]
    finally:
        con.close()


def test_a_search_index_written_by_a_child_process_is_the_same(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    papers, citations = read_tables(seed_data())
    index.write_index(tmp_path / "here", papers, citations, "x")
    monkeypatch.setattr(index, "PARALLEL_SEARCH", 1)
    started = []
    monkeypatch.setattr(index, "search_child", lambda folder, real=index.search_child:
                        started.append(folder) or real(folder))
    index.write_index(tmp_path / "child", papers, citations, "x")
    assert started == [tmp_path / "child"]
    assert search_results(tmp_path / "here") == search_results(tmp_path / "child")
    assert all(search_results(tmp_path / "here")[:4])
    assert index.load_node_json(tmp_path / "here").equals(index.load_node_json(tmp_path / "child"))


def test_a_failed_search_child_fails_the_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    papers, citations = read_tables(seed_data())
    monkeypatch.setattr(index, "PARALLEL_SEARCH", 1)
    (tmp_path / index.INDEX_DIR / "search.sqlite").mkdir(parents=True)  # the child cannot open it
    with pytest.raises(RuntimeError, match=r"search\.sqlite: the process writing it failed \(exit code 1\)"):
        index.write_index(tmp_path, papers, citations, "x")
