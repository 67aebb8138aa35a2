"""The field view's layout against the one citemap had before, on the same graphs, in the same run.

    python bench/field_speed.py                      # 300k papers / 4M citations and 1M / 10M (~15 minutes)
    python bench/field_speed.py --sizes 300000:4000000
    python bench/field_speed.py --data DIR           # a dataset of yours (the default dataset, say) instead

For each graph (a bench/synth.py dataset in bench/out/, generated unless there; or ``--data``), in fresh child
processes (bench/probes.py): ``field``, :func:`dashboard.graph.field_layout.field_layout` (numba, every core), and
``field_numpy``, the numpy layout of one thread it replaced (bench/field_layout_numpy.py), in turn, ``--repeat``
times each; the shortest of each is kept. Printed: seconds (wall) and processor seconds of each, their ratios
(speed-up = numpy / numba), each one's peak memory and the quality of its map (median citation length over
median random-pair distance: at most 0.2 where the graph has topics; bench/synth.py's graphs have none, so
they measure about 0.4 whatever the layout). Targets: the wall speed-up at least 5x and the numba layout's
ratio no worse than the numpy one's by more than 0.02. Writes bench/out/results-field-speed.json; exits 1 if a
target is missed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import common
from common import OUT
from run import SIZES as BENCH_SIZES
from run import ensure_dataset, probe

SPEEDUP_TARGET = 5.0
RATIO_SLACK = 0.02
SIZES = "300000:4000000,1000000:10000000"


def measure(folder: Path, repeat: int) -> dict[str, dict]:
    """The shortest of ``repeat`` runs of each layout on the dataset ``folder`` (wall, processor seconds, peak
    memory and ratio of that run)."""
    runs: dict[str, list[dict]] = {"field": [], "field_numpy": []}
    for _ in range(repeat):
        for kind in runs:
            runs[kind].append(probe(kind, folder, timeout=7200))
    return {kind: min(got, key=lambda r: r["seconds"]) for kind, got in runs.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default=SIZES, help=f"PAPERS:CITATIONS,... (default {SIZES})")
    ap.add_argument("--data", type=Path, action="append", help="a dataset folder instead of the sizes (repeatable)")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each layout, in turn (the shortest is kept)")
    args = ap.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    named = {size: name for name, size in BENCH_SIZES.items()}  # run.py's own datasets where the size is one
    pairs = [(int(p), int(e)) for p, e in (s.split(":") for s in args.sizes.split(","))]
    folders = args.data or [ensure_dataset(named.get(pair, "field"), *pair, 1) for pair in pairs]
    results, ok, rows = {}, True, []
    for folder in folders:
        got = measure(folder, args.repeat)
        new, old = got["field"], got["field_numpy"]
        wall, cpu = old["seconds"] / new["seconds"], old["cpu_seconds"] / new["cpu_seconds"]
        ok &= wall >= SPEEDUP_TARGET and new["ratio"] <= old["ratio"] + RATIO_SLACK
        results[str(folder)] = {**got, "speedup_wall": wall, "speedup_cpu": cpu}
        rows.append(
            [
                f"{new['papers']:,} papers / {new['citations']:,} citations",
                f"{new['seconds']:.1f} s ({new['cpu_seconds']:.1f} s)",
                f"{old['seconds']:.1f} s ({old['cpu_seconds']:.1f} s)",
                f"{wall:.2f}x ({cpu:.2f}x)",
                f"{new['peak_rss'] / 2**20:,.0f} / {old['peak_rss'] / 2**20:,.0f} MB",
                f"{new['ratio']:.3f} / {old['ratio']:.3f}",
            ]
        )
    columns = [
        "graph",
        "numba: wall (processor)",
        "numpy: wall (processor)",
        "speed-up: wall (processor)",
        "peak memory: numba / numpy",
        "map quality: numba / numpy",
    ]
    print(common.markdown(columns, rows))
    line = f"targets: speed-up >= {SPEEDUP_TARGET:g}x and map quality within {RATIO_SLACK} of the numpy one's: " + (
        "PASS" if ok else "FAIL"
    )
    print(f"\n{line}")
    common.write_results("field-speed", columns, rows, line, graphs=results)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
