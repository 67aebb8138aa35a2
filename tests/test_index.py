"""The index a dataset is served from: the same files whether written in one batch or many, keys sorted as numpy
sorts bytes, node text past Arrow's 2 GiB string limit read back the same."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from dashboard import index
from dashboard.dataset import read_tables
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
