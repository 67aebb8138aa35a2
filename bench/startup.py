"""Start-up time and memory of the default dataset against the seed pages alone (the default before the merge).

    python bench/startup.py [--rounds 5]

Each measurement is a fresh Python process that imports the app, loads a dataset, builds the page and answers
the default view's ``GET /graph`` and the page itself once (what a worker does before it serves a visitor); it
reports the seconds that took and its peak resident memory. The baseline is the same process on the seed pages
alone (``citemap import mlsanity data/seed-pages/*.txt --areas-from data/arxiv-2023``, 156 papers),
built into a temporary folder first. Rounds alternate between the two; the medians' ratios are printed (the
target: at most 2x) and written to bench/out/results-startup.json. Absolute times on these shared machines are
noise; the ratio is the figure.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import common
from common import ROOT

TARGET = 2.0  # the default dataset over the seed pages alone, start-up time and peak memory

CHILD = r"""
import json, resource, sys, time
t0 = time.perf_counter()
from dashboard.web.app import create_app
app = create_app(sys.argv[1])
client = app.server.test_client()
from dashboard.web.callbacks.common import read_state
from dashboard.graph.state import encode_query
query = encode_query(read_state(app.server.config["CITEMAP_STORE"], "")[0])
assert client.get("/graph" + query).status_code == 200 and client.get("/").status_code == 200
seconds = time.perf_counter() - t0
print(json.dumps({"seconds": seconds, "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def measure(folder: Path) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(folder)], capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    if out.returncode:
        raise SystemExit(f"measuring {folder} failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    from dashboard.dataset.store import Store
    from dashboard.importers import run_import

    default = common.default_data()
    with tempfile.TemporaryDirectory(prefix="citemap-startup-") as tmp:
        seeds = Path(tmp) / "seeds"
        run_import(
            "mlsanity",
            sorted((ROOT / "data" / "seed-pages").glob("*.txt")),
            seeds,
            argv=["bench"],
            areas_from=ROOT / "data" / "arxiv-2023",
            progress=False,
        )
        runs: dict[str, list[dict[str, float]]] = {"seeds": [], "default": []}
        for _ in range(args.rounds):
            runs["seeds"].append(measure(seeds))
            runs["default"].append(measure(default))
        sizes = {name: Store.load(folder).n for name, folder in (("seeds", seeds), ("default", default))}
    columns = ["measure", "seed pages", "default data", "ratio", "target", "result"]
    rows = []
    ok = True
    for key, label in (("seconds", "start-up (s)"), ("peak_rss_mb", "peak memory (MB)")):
        base = statistics.median(r[key] for r in runs["seeds"])
        new = statistics.median(r[key] for r in runs["default"])
        ratio = new / base
        ok &= ratio <= TARGET
        rows.append(
            [
                label,
                f"{base:,.2f}",
                f"{new:,.2f}",
                f"{ratio:.2f}",
                f"<= {TARGET:g}",
                "PASS" if ratio <= TARGET else "FAIL",
            ]
        )
    verdict = (
        f"papers: {sizes['seeds']:,} (seed pages) and {sizes['default']:,} (default data); "
        f"medians of {args.rounds} rounds; targets: {'all met' if ok else 'missed'}"
    )
    print(common.markdown(columns, rows))
    print(verdict)
    common.write_results("startup", columns, rows, verdict, rounds=runs, papers=sizes)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
