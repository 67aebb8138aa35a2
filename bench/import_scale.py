"""The OpenAlex import at snapshot scale against DuckDB's bare extraction of the same fields, side by side.

    python bench/import_scale.py                    # 300k and 3M works (~9 minutes; the 3M files take 3 more once)
    python bench/import_scale.py --works 300000     # one size

For each size, on a synthetic snapshot written by ``bench/synth_openalex.py`` (``bench/out/openalex-N-s1``), each
in a fresh child process (time and peak memory are the child's own, from ``wait4``), twice in turn (``--repeat``;
the shortest time and the highest peak are kept):

* **bare**: DuckDB reads the same fields and the references straight to Parquet (two passes, no checks): the
  baseline;
* **tables**: citemap's importer up to the dataset in memory (``openalex_duckdb.build``: checks, merging, the
  papers table and the edges as rows);
* **import**: the whole ``citemap import openalex`` (tables, Parquet, the index the server memory-maps, search,
  then the field view's map); the times it prints of its DuckDB steps (extract, merge, edges) are reported for
  the shortest run, the rest being the dataset's writing. **servable**: from its start until its build is
  published (the dataset folder's ``current`` link appears: ``citemap serve`` serves it from then on, every view
  but the field's map, which the import goes on to make).

Ratios are against the bare run of the same size in the same run. Targets: servable at most 3x bare, peak
memory at most 2 GB and flat from 300k to 3M works. Prints one table, writes it with every figure to
bench/out/results-import-scale.json, and exits 1 if a target is missed.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

import common
from common import OUT, ROOT
from synth_openalex import PARTS, ensure

TIME_TARGET = 3.0
STEPS = ("extract", "merge", "edges")  # what the import prints of its DuckDB steps (the rest: writing the dataset)
MEMORY_TARGET_GB = 2.0
FLAT_TARGET = 1.5  # the largest size's peak over the smallest's

BARE = """
import duckdb, sys
files, out = sys.argv[1], sys.argv[2]
con = duckdb.connect()
con.execute(f'''COPY (SELECT id, coalesce(display_name, title) AS title, publication_year, publication_date, doi,
    cited_by_count, referenced_works_count, primary_topic.field.display_name AS field,
    primary_topic.subfield.display_name AS subfield, primary_location.source.display_name AS venue,
    [a.author.display_name for a in authorships] AS authors, counts_by_year
  FROM read_json('{files}', format='newline_delimited')) TO '{out}/papers.parquet' ''')
con.execute(f'''COPY (SELECT id, unnest(referenced_works) AS ref FROM read_json('{files}', format='newline_delimited'))
  TO '{out}/edges.parquet' ''')
"""
TABLES = """
import sys
from pathlib import Path
from dashboard.importers.openalex_duckdb import build
imported = build([Path(sys.argv[1])], progress=False, workdir=Path(sys.argv[2]))
print(imported.summary["papers"], imported.summary["citations"])
"""


def tree_rss(pid: int) -> int:
    """Resident bytes of process ``pid`` and all its descendants now (a child writing the search index runs
    beside the import: their sum is the memory the import takes)."""
    page = os.sysconf("SC_PAGE_SIZE")
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parents[int(entry)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                pass
    tree, todo = set(), [pid]
    while todo:
        p = todo.pop()
        tree.add(p)
        todo.extend(c for c, parent in parents.items() if parent == p and c not in tree)
    total = 0
    for p in tree:
        try:
            with open(f"/proc/{p}/statm") as f:
                total += int(f.read().split()[1]) * page
        except (OSError, ValueError, IndexError):
            pass
    return total


def run(args: list[str], watch: Path | None = None) -> tuple[float, float, str, float]:
    """Run a command in a child process: its wall time (s), its peak resident memory (GB: the higher of its own
    peak from wait4 and the sum over it and its child processes, sampled every 50 ms), its stdout, and when
    ``watch`` first existed (s from the start, sampled with the memory; NaN if it never did). Forked by hand:
    subprocess reaps its children itself, and their resource usage with them."""
    t0 = time.perf_counter()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: stdout to the pipe, then the command
        os.close(r)
        os.dup2(w, 1)
        os.environ["PYTHONPATH"] = str(ROOT)
        os.chdir(ROOT)
        os.execvp(args[0], args)
    os.close(w)
    peak = [0]
    seen = [float("nan")]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.05):
            peak[0] = max(peak[0], tree_rss(pid))
            if watch is not None and seen[0] != seen[0] and os.path.lexists(watch):
                seen[0] = time.perf_counter() - t0

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    with os.fdopen(r) as f:
        out = f.read()
    done.set()
    sampler.join()
    _, status, usage = os.wait4(pid, 0)
    seconds = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"{' '.join(args[:5])} failed (exit {os.waitstatus_to_exitcode(status)})")
    return seconds, max(usage.ru_maxrss * 1024, peak[0]) / 2**30, out, seen[0]


def measure(works: int, seed: int, repeat: int) -> dict[str, float]:
    """Each of the three runs ``repeat`` times, in turn (bare, tables, import, bare, ...): the shortest time of
    each (the one the least disturbed by other work on a shared machine) and the highest peak memory."""
    folder = OUT / f"openalex-{works}-s{seed}"
    manifest = ensure(works, seed, folder)
    parts = folder / PARTS
    glob = str(parts / "*.gz")
    work = Path(tempfile.mkdtemp(prefix="citemap-bench-import-", dir=OUT))
    runs: dict[str, list[tuple[float, float, str, float]]] = {"bare": [], "tables": [], "import": []}
    try:
        for _ in range(repeat):
            runs["bare"].append(run([sys.executable, "-c", BARE, glob, str(work)]))
            runs["tables"].append(run([sys.executable, "-c", TABLES, str(parts), str(work)]))
            runs["import"].append(
                run(
                    [
                        sys.executable,
                        "-m",
                        "dashboard",
                        "import",
                        "openalex",
                        str(parts),
                        "--out",
                        str(work / "dataset"),
                    ],
                    watch=work / "dataset" / "current",
                )
            )  # not quiet: it prints its steps' times
            shutil.rmtree(work / "dataset", ignore_errors=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    out: dict[str, float] = {"works": manifest["lines"], "references": manifest["references"]}
    for name, got in runs.items():
        out[f"{name}_s"] = min(t for t, _, _, _ in got)
        out[f"{name}_gb"] = max(m for _, m, _, _ in got)
    out["servable_s"] = min(s for _, _, _, s in runs["import"])
    fastest = min(runs["import"])[2]  # the steps of the shortest import
    for step in STEPS:
        found = re.search(rf"^\s*{step}: ([0-9.]+) s$", fastest, re.MULTILINE)
        out[f"{step}_s"] = float(found.group(1)) if found else float("nan")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--works", type=int, action="append", help="size(s) in works (default: 300000 and 3000000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=2, help="runs of each measure, in turn (default 2: the shortest)")
    args = ap.parse_args(argv)
    sizes = args.works or [300_000, 3_000_000]
    OUT.mkdir(parents=True, exist_ok=True)
    results = {n: measure(n, args.seed, args.repeat) for n in sizes}
    met = {"time": True, "peak": True}
    columns = [
        "works",
        "references",
        "bare",
        "tables (ratio)",
        "servable (ratio)",
        "import with the field map (ratio)",
        "peak: bare / tables / import",
    ]
    rows = [
        [
            f"{r['works']:,}",
            f"{r['references']:,}",
            f"{r['bare_s']:.1f} s",
            f"{r['tables_s']:.1f} s ({r['tables_s'] / r['bare_s']:.2f}x)",
            f"{r['servable_s']:.1f} s ({r['servable_s'] / r['bare_s']:.2f}x)",
            f"{r['import_s']:.1f} s ({r['import_s'] / r['bare_s']:.2f}x)",
            f"{r['bare_gb']:.2f} / {r['tables_gb']:.2f} / {r['import_gb']:.2f} GB",
        ]
        for r in results.values()
    ]
    print(common.markdown(columns, rows))
    for r in results.values():
        met["time"] &= r["servable_s"] / r["bare_s"] <= TIME_TARGET
        met["peak"] &= r["import_gb"] <= MEMORY_TARGET_GB
    for r in results.values():
        steps = ", ".join(f"{step} {r[f'{step}_s']:.1f} s" for step in STEPS)
        rest = r["servable_s"] - sum(r[f"{step}_s"] for step in STEPS)
        print(
            f"\n{r['works']:,} works, the shortest import's steps: {steps}; then the dataset, its index and "
            f"search index {rest:.1f} s (published); then the field map {r['import_s'] - r['servable_s']:.1f} s"
        )
    if len(results) > 1:
        lo, hi = results[min(results)], results[max(results)]
        growth = hi["import_gb"] / lo["import_gb"]
        print(
            f"\npeak memory, {max(results):,} over {min(results):,} works: import {growth:.2f}x, "
            f"tables {hi['tables_gb'] / lo['tables_gb']:.2f}x (flat would be ~1x)"
        )
        met["flat"] = growth <= FLAT_TARGET
    verdict = {
        "time": f"servable <= {TIME_TARGET}x bare",
        "peak": f"peak <= {MEMORY_TARGET_GB} GB",
        "flat": f"peak {max(results):,} over {min(results):,} works <= {FLAT_TARGET}x",
    }
    line = "targets: " + "; ".join(f"{verdict[k]}: {'PASS' if ok else 'FAIL'}" for k, ok in met.items())
    print(f"\n{line}")
    common.write_results("import-scale", columns, rows, line, sizes=results)
    return 0 if all(met.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
