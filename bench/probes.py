"""Start-up and memory probes, each run by bench/run.py in a fresh Python process.

    python bench/probes.py store DIR      # Store.load + what a first request touches
    python bench/probes.py networkx DIR   # read the tables, build a networkx.DiGraph

Each prints one JSON line: ``seconds`` (from after the imports until a request could be served),
``rss_base`` (resident bytes after the imports), ``rss_ready`` (after loading), ``rss_full`` (after
touching every page of the loaded data; for the store: every memory-mapped array and the papers table,
so that mapped pages count as resident), and a few counts.
"""

from __future__ import annotations

import gc
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

PAGE = 4096


def _rss() -> int:
    import psutil

    return int(psutil.Process().memory_info().rss)


def _touch(buf: Any) -> int:
    """Read one byte of every page of a buffer (numpy array or Arrow buffer), so that it is resident."""
    import numpy as np

    if buf is None:
        return 0
    view = np.frombuffer(buf, dtype=np.uint8) if not isinstance(buf, np.ndarray) else buf.reshape(-1).view(np.uint8)
    return int(view[::PAGE].sum()) if view.size else 0


def _warm_libraries() -> None:
    """One-off library start-up that any pyarrow program pays, outside the timings of both probes: the
    first Arrow compute call in a process takes about 0.3 s (kernel registry)."""
    import pyarrow as pa

    pa.array(["a", "b"]).take(pa.array([1]))


def probe_store(folder: str) -> dict[str, Any]:
    import numpy as np

    from dashboard.dataset.store import Store

    _warm_libraries()
    gc.collect()
    rss_base = _rss()
    t0 = time.perf_counter()
    store = Store.load(folder)
    # what the first request (a view of the most cited paper, or a search) needs: an id lookup, the
    # references and citers, their ids and titles, the year and citation arrays, the search index
    top = int(store.arrays["rank_rows"][0])
    row = store.row(store.id(top))
    assert row == top
    nbrs = np.concatenate([store.references(row, 300), store.citers(row, 300)]).astype(np.int64)
    store.ids(nbrs)
    store.titles(nbrs)
    store.filter_mask(nbrs, years=(2000, 2020), min_citations=1)
    store.search("learning")
    seconds = time.perf_counter() - t0
    rss_ready = _rss()
    touched = sum(_touch(a) for a in store.arrays.values())
    for column in store.papers.columns:
        for chunk in column.chunks:
            touched += sum(_touch(b) for b in chunk.buffers())
    for _ in range(20):
        store.search("neural net")
    rss_full = _rss()
    return {
        "seconds": seconds,
        "rss_base": rss_base,
        "rss_ready": rss_ready,
        "rss_full": rss_full,
        "papers": store.n,
        "citations": store.n_citations,
        "checksum": touched % 1000,
    }


def probe_networkx(folder: str) -> dict[str, Any]:
    import networkx as nx
    import pyarrow as pa
    import pyarrow.parquet as pq

    from dashboard.dataset import builds

    build = builds.served(Path(folder))  # the build the folder serves (itself if an older citemap wrote it)

    _warm_libraries()
    gc.collect()
    rss_base = _rss()
    t0 = time.perf_counter()
    papers = pq.read_table(build / "papers.parquet", columns=["id", "title", "year"])
    cites = pq.read_table(build / "citations.parquet")
    graph = nx.DiGraph()
    graph.add_nodes_from(
        (pid, {"title": title, "year": year})
        for pid, title, year in zip(
            papers.column("id").to_pylist(),
            papers.column("title").to_pylist(),
            papers.column("year").to_pylist(),
            strict=True,
        )
    )
    graph.add_edges_from(zip(cites.column("citing").to_pylist(), cites.column("cited").to_pylist(), strict=True))
    del papers, cites
    gc.collect()
    pa.default_memory_pool().release_unused()
    top = max(graph.in_degree, key=lambda kv: kv[1])[0] if graph.number_of_nodes() else None
    if top is not None:  # the first request: the most cited paper's neighbours and their titles
        nbrs = list(graph.successors(top))[:300] + list(graph.predecessors(top))[:300]
        [graph.nodes[n]["title"] for n in nbrs]
    seconds = time.perf_counter() - t0
    rss = _rss()
    return {
        "seconds": seconds,
        "rss_base": rss_base,
        "rss_ready": rss,
        "rss_full": rss,
        "papers": graph.number_of_nodes(),
        "citations": graph.number_of_edges(),
    }


def cli(argv: list[str], probes: dict[str, Callable[[str], dict[str, Any]]], usage: str) -> int:
    """``KIND DIR``: run the probe named KIND on DIR and print its result as one JSON line (bench/run.py reads
    the last line); else ``usage`` on stderr and exit status 2. bench/probes_big.py runs its probes through it."""
    if len(argv) != 2 or argv[0] not in probes:
        print(usage, file=sys.stderr)
        return 2
    print(json.dumps(probes[argv[0]](argv[1])))
    return 0


if __name__ == "__main__":
    raise SystemExit(cli(sys.argv[1:], {"store": probe_store, "networkx": probe_networkx}, __doc__))
