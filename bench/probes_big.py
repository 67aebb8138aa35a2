"""Start-up probes for the big sizes (bench/run.py --sizes huge), each run in a fresh Python process.

    python bench/probes_big.py tables DIR      # papers.parquet and citations.parquet read whole into memory (Arrow)
    python bench/probes_big.py checksums DIR   # the XXH3 checksums Store.load verifies, alone

``tables`` is the baseline of a dataset too big for the networkx DiGraph of ``bench/probes.py``: what any server
that loads its data instead of memory-mapping it reads at start-up, at the least (no graph, no Python object per
paper). ``checksums`` times :func:`dashboard.dataset.integrity.problems` over the build's recorded files, the part of
``Store.load`` that reads every byte of the dataset. Each prints one JSON line, like bench/probes.py.
"""

from __future__ import annotations

import gc
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for p in (ROOT, ROOT / "bench"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from probes import _rss, _warm_libraries, cli  # noqa: E402


def probe_tables(folder: str) -> dict[str, Any]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from dashboard.dataset import builds

    build = builds.served(Path(folder))
    _warm_libraries()
    gc.collect()
    rss_base = _rss()
    t0 = time.perf_counter()
    papers = pq.read_table(build / "papers.parquet")
    cites = pq.read_table(build / "citations.parquet")
    seconds = time.perf_counter() - t0
    rss = _rss()
    return {
        "seconds": seconds,
        "rss_base": rss_base,
        "rss_ready": rss,
        "rss_full": rss,
        "papers": papers.num_rows,
        "citations": cites.num_rows,
        "arrow_bytes": papers.nbytes + cites.nbytes,
        "pool_bytes": pa.total_allocated_bytes(),
    }


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


if __name__ == "__main__":
    raise SystemExit(cli(sys.argv[1:], {"tables": probe_tables, "checksums": probe_checksums}, __doc__))
