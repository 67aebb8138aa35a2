"""Helper of bench/run.py, not an entry point: start-up and memory probes, each run in a fresh Python process.

    python bench/probes.py store DIR       # Store.load + what a first request touches
    python bench/probes.py networkx DIR    # read the tables, build a networkx.DiGraph
    python bench/probes.py tables DIR      # papers.parquet and citations.parquet read whole into memory (Arrow)
    python bench/probes.py checksums DIR   # the XXH3 checksums Store.load verifies, alone
    python bench/probes.py field DIR       # the field view's layout of the whole graph, as the import computes it
    python bench/probes.py field_numpy DIR # the same with the layout citemap had before (bench/field_layout_numpy.py)
    python bench/probes.py field_view DIR  # the field view's answers (GET /field/points, GET /field) against /graph

Each prints one JSON line: ``seconds`` (from after the imports until a request could be served),
``rss_base`` (resident bytes after the imports), ``rss_ready`` (after loading), ``rss_full`` (after
touching every page of the loaded data; for the store: every memory-mapped array and the papers table,
so that mapped pages count as resident), and a few counts; ``checksums`` prints its seconds, files and bytes.

``tables`` is the baseline of a dataset too big for the networkx DiGraph (``run.py --sizes huge``): what any server
that loads its data instead of memory-mapping it reads at start-up, at the least (no graph, no Python object per
paper). ``checksums`` times :func:`dashboard.dataset.integrity.problems` over the build's recorded files, the part
of ``Store.load`` that reads every byte of the dataset. ``field`` lays out the build's citation graph anew from its
reference and citer lists (:func:`dashboard.graph.field_layout.field_layout`, what ``citemap field-map`` runs after
an import) and prints its seconds and processor seconds (after a first layout of three papers: numba's compiled code
loaded), the process's peak resident memory (``peak_rss``, ru_maxrss, imports included) and the layout's quality
(``ratio``: :func:`~dashboard.graph.field_layout.edge_distance_ratio`); ``field_numpy`` does the same with the numpy
layout citemap had before (``bench/field_layout_numpy.py``), the baseline of ``bench/field_speed.py``.
``field_view`` answers, through the app's own server (a Flask test client, compressed as served), the field view's
points once (``points``) and a state's layer over them for distinct states (``first``: the default view's, the first
of the process; ``layers``: one state each, the store warm), and the citation map's ``GET /graph`` of other distinct
states (``graphs``, the baseline: what a change of state costs on the map), all seconds, with the answers' bytes.
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


def _baseline() -> int:
    """The libraries started and the garbage collected: the resident bytes a probe's figures start from."""
    _warm_libraries()
    gc.collect()
    return _rss()


def _read_whole(seconds: float, rss_base: int, **counts: int) -> dict[str, Any]:
    """The figures of a baseline that holds everything it read in memory: nothing is left to touch (ready = full)."""
    rss = _rss()
    return {"seconds": seconds, "rss_base": rss_base, "rss_ready": rss, "rss_full": rss, **counts}


def probe_store(folder: str) -> dict[str, Any]:
    import numpy as np

    from dashboard.dataset.store import Store

    rss_base = _baseline()
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

    rss_base = _baseline()
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
    return _read_whole(seconds, rss_base, papers=graph.number_of_nodes(), citations=graph.number_of_edges())


def probe_tables(folder: str) -> dict[str, Any]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from dashboard.dataset import builds

    build = builds.served(Path(folder))
    rss_base = _baseline()
    t0 = time.perf_counter()
    papers = pq.read_table(build / "papers.parquet")
    cites = pq.read_table(build / "citations.parquet")
    seconds = time.perf_counter() - t0
    return _read_whole(
        seconds,
        rss_base,
        papers=papers.num_rows,
        citations=cites.num_rows,
        arrow_bytes=papers.nbytes + cites.nbytes,
        pool_bytes=pa.total_allocated_bytes(),
    )


def probe_checksums(folder: str) -> dict[str, Any]:
    from dashboard.dataset import builds, integrity
    from dashboard.dataset.format import read_meta

    build = builds.served(Path(folder))
    recorded = integrity.recorded_files(read_meta(build), build)
    if not recorded:
        raise SystemExit(f"{build}: dataset.json records no checksums")
    t0 = time.perf_counter()
    found = integrity.problems(build, recorded)
    seconds = time.perf_counter() - t0
    if found:
        raise SystemExit(found[0])
    return {"seconds": seconds, "files": len(recorded), "bytes": sum(v["size"] for v in recorded.values())}


def probe_field(folder: str, numpy_baseline: bool = False) -> dict[str, Any]:
    import resource

    import numpy as np

    from dashboard.dataset import builds, index
    from dashboard.graph.field_layout import edge_distance_ratio, edges_of, field_layout

    out = builds.served(Path(folder)) / index.INDEX_DIR
    lists = [
        np.load(out / f"{name}.npy", mmap_mode="r", allow_pickle=False)
        for name in ("ref_offsets", "ref_targets", "cit_offsets", "cit_sources")
    ]
    if numpy_baseline:
        sys.path.insert(0, str(ROOT / "bench"))
        from field_layout_numpy import field_layout as numpy_layout

        def layout() -> Any:
            return numpy_layout(lists[0], lists[1])
    else:
        from dashboard.graph.field_layout import layout_edges

        layout_edges(3, np.array([1, 2]), np.array([0, 0]))  # numba's compiled code loaded (or compiled) first

        def layout() -> Any:
            return field_layout(*lists)

    rss_base = _baseline()
    t0, c0 = time.perf_counter(), time.process_time()
    xy = layout()
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux
    src, dst = edges_of(lists[0], lists[1])
    return {
        "seconds": seconds,
        "cpu_seconds": cpu,
        "rss_base": rss_base,
        "peak_rss": peak,
        "ratio": edge_distance_ratio(xy, src, dst),
        "papers": len(xy),
        "citations": len(src),
    }


FIELD_STATES = 8  # distinct states of each kind the field_view probe answers


def probe_field_view(folder: str) -> dict[str, Any]:
    from dashboard.web.app import create_app

    t0 = time.perf_counter()
    app = create_app(folder, bench_ping=False)  # past MAX_POINTS papers the field's points are made here
    start = time.perf_counter() - t0
    client = app.server.test_client()
    headers = {"Accept-Encoding": "br"}

    def get(url: str) -> tuple[float, int]:
        t0 = time.perf_counter()
        r = client.get(url, headers=headers)
        seconds = time.perf_counter() - t0
        if r.status_code != 200:
            raise SystemExit(f"{url}: HTTP {r.status_code}")
        return seconds, len(r.data)

    _baseline()
    first, first_bytes = get("/field?mode=field")  # the first answer (a smaller store's points are made here)
    points, points_bytes = get("/field/points")
    # distinct states (each a new map and filter, so that no cache helps), the field's and the map's apart
    layers = [get(f"/field?mode=field&min_citations={k}")[0] for k in range(1, FIELD_STATES + 1)]
    graphs = [get(f"/graph?min_citations={k}")[0] for k in range(FIELD_STATES + 1, 2 * FIELD_STATES + 1)]
    store = app.server.config["CITEMAP_STORE"]
    return {
        "papers": store.n,
        "start": start,
        "first": first,
        "first_bytes": first_bytes,
        "points": points,
        "points_bytes": points_bytes,
        "layers": layers,
        "graphs": graphs,
    }


PROBES: dict[str, Callable[[str], dict[str, Any]]] = {
    "store": probe_store,
    "networkx": probe_networkx,
    "tables": probe_tables,
    "checksums": probe_checksums,
    "field": probe_field,
    "field_numpy": lambda folder: probe_field(folder, numpy_baseline=True),
    "field_view": probe_field_view,
}


def main(argv: list[str]) -> int:
    """``KIND DIR``: run the probe named KIND on DIR and print its result as one JSON line (bench/run.py reads
    the last line); else the usage on stderr and exit status 2."""
    if len(argv) != 2 or argv[0] not in PROBES:
        print(__doc__, file=sys.stderr)
        return 2
    print(json.dumps(PROBES[argv[0]](argv[1])))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
