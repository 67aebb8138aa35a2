"""Clusters per map or for the whole dataset at import: the two options of colour by cluster, measured in one run.

    python bench/clusters.py                     # the default dataset (data/)
    python bench/clusters.py --data bench/out/large-1000000-10000000-s1    # 1M papers: minutes, ~2 GB

Per map (what citemap does): Leiden on the citations of a 5,000-paper map (the three most cited papers, limit
3000, the view cap) and the c-TF-IDF names, median of a few runs. Whole dataset (the alternative): Leiden on every
citation of the dataset, once, with the growth of the process's peak memory. Prints both and their ratio.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from dashboard.dataset.store import Store  # noqa: E402
from dashboard.graph import clusters  # noqa: E402
from dashboard.graph.discovery import subgraph  # noqa: E402
from dashboard.graph.state import ViewState  # noqa: E402


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=ROOT / "data")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    store = Store.load(args.data)
    top = store.ids(np.argsort(-store.in_cited, kind="stable")[:3])
    sub = subgraph(store, ViewState(tuple(top), limit=3000))
    rows = np.asarray(sub.layout_rows, dtype=np.int64)
    i, j = store.edge_positions(rows)
    times = []
    for _ in range(args.rounds):
        t = time.perf_counter()
        _, names = clusters.clusters_of(store, rows, i, j)
        times.append(time.perf_counter() - t)
    view_s = statistics.median(times)
    print(
        f"per map:       {len(rows):,} papers, {len(i):,} citations: {view_s * 1000:.0f} ms "
        f"(median of {args.rounds}), {len(names)} named clusters"
    )
    a = store.arrays
    src = np.repeat(np.arange(store.n, dtype=np.int64), np.diff(a["ref_offsets"]))
    dst = np.asarray(a["ref_targets"], dtype=np.int64)
    before = peak_mb()
    t = time.perf_counter()
    whole = clusters.communities(store.n, src, dst)
    whole_s = time.perf_counter() - t
    grown = peak_mb() - before
    print(
        f"whole dataset: {store.n:,} papers, {len(dst):,} citations: {whole_s:.1f} s, peak memory +{grown:,.0f} MB, "
        f"{int((whole >= 0).sum()):,} papers in {len(set(whole[whole >= 0].tolist()))} named clusters"
    )
    print(f"ratio whole / per map: {whole_s / view_s:,.0f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
