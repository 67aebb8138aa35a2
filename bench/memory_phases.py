"""Where a process's memory peaks: resident memory sampled by a separate process, attributed to named phases.

    python bench/synth.py --papers 10000000 --edges 100000000 --out DIR --phases   # a table on stderr

:class:`Phases` wraps functions of modules (the generator's steps, ``write_dataset``'s, ``write_index``'s) so that
each call's start and end are recorded, while a child process reads this process's resident set size from
``/proc/PID/statm`` every ``interval`` seconds (a thread here would not run while a C call holds the GIL). The report
gives, per phase: calls, seconds, resident memory when it was first entered and the highest sample during any
call of it. Phases nest (``write_index`` inside ``write_dataset``); the highest sample is a lower bound of the true
peak (``ru_maxrss``, exact, is printed beside it).
"""

from __future__ import annotations

import functools
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

SAMPLER = r"""
import os, sys, time
pid, path, interval, parent = int(sys.argv[1]), sys.argv[2], float(sys.argv[3]), os.getppid()
page = os.sysconf("SC_PAGE_SIZE")
with open(path, "w") as out:
    while os.getppid() == parent:
        try:
            with open(f"/proc/{pid}/statm") as f:
                rss = int(f.read().split()[1]) * page
        except (OSError, ValueError, IndexError):
            break
        out.write(f"{time.monotonic():.4f} {rss}\n")
        out.flush()
        time.sleep(interval)
"""

MB = 2**20


class Phases:
    def __init__(self, interval: float = 0.02) -> None:
        fd, name = tempfile.mkstemp(prefix="citemap-rss-", suffix=".txt")
        os.close(fd)
        self._path = Path(name)
        self._calls: list[tuple[str, int, float, float]] = []  # label, depth, start, end
        self._order: list[str] = []
        self._depth = 0
        self._sampler = subprocess.Popen([sys.executable, "-c", SAMPLER, str(os.getpid()), name, str(interval)])

    def wrap(self, module: ModuleType | Any, name: str, label: str | None = None) -> None:
        """Replace ``module.name`` by a wrapper that records each call under ``label`` (default: the name)."""
        func: Callable[..., Any] = getattr(module, name)
        label = label or name
        if label not in self._order:
            self._order.append(label)

        @functools.wraps(func)
        def timed(*args: Any, **kwargs: Any) -> Any:
            depth = self._depth
            self._depth += 1
            start = time.monotonic()
            try:
                return func(*args, **kwargs)
            finally:
                self._depth = depth
                self._calls.append((label, depth, start, time.monotonic()))

        setattr(module, name, timed)

    def stop(self) -> list[dict[str, Any]]:
        """End the sampler (our own child, by its id) and return one row per phase, in order of first call."""
        time.sleep(0.05)
        self._sampler.terminate()
        self._sampler.wait(10)
        samples = []
        for line in self._path.read_text().splitlines():
            t, rss = line.split()
            samples.append((float(t), int(rss)))
        self._path.unlink(missing_ok=True)
        rows = []
        firsts = {}
        for label, depth, start, _ in sorted(self._calls, key=lambda c: c[2]):
            firsts.setdefault(label, (depth, start))
        for label in sorted(firsts, key=lambda k: firsts[k][1]):
            calls = [c for c in self._calls if c[0] == label]
            inside = [rss for t, rss in samples if any(s <= t <= e for _, _, s, e in calls)]
            before = [rss for t, rss in samples if t <= calls[0][2]]
            rows.append(
                {
                    "phase": label,
                    "depth": firsts[label][0],
                    "calls": len(calls),
                    "seconds": round(sum(e - s for _, _, s, e in calls), 2),
                    "rss_at_start_mb": round(before[-1] / MB) if before else None,
                    "peak_rss_mb": round(max(inside) / MB) if inside else None,
                }
            )  # None: no sample inside
        return rows


def peak_rss_mb() -> int:
    """This process's exact peak resident set size so far (Linux: ``ru_maxrss`` in kB)."""
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)


def instrument_write(generator: ModuleType) -> Phases:
    """Phases of ``bench/synth.py``'s build: its generator steps (``generator`` is that module, ``__main__`` when
    run as a script) and what ``dashboard.dataset.write.write_dataset`` and
    ``dashboard.dataset.index_write.write_index`` do."""
    import pyarrow.parquet as pq

    from dashboard.dataset import builds, index, index_write, integrity
    from dashboard.dataset import write as dataset

    phases = Phases()
    for name in ("generate", "dates", "out_degrees", "citations", "areas", "titles"):
        phases.wrap(generator, name)
    phases.wrap(dataset, "write_dataset")
    phases.wrap(dataset, "_check_rows", "check citation rows")
    phases.wrap(pq, "write_table", "papers.parquet (pq.write_table)")
    phases.wrap(dataset, "_write_citation_rows", "citations.parquet from rows")
    phases.wrap(dataset, "_content_hash", "build_id hash")
    phases.wrap(index, "write_index_from")
    phases.wrap(index, "tables_source", "index: citation counts and ranks")
    phases.wrap(index, "write_sorted_keys", "index: sorted ids, DOIs (each)")
    phases.wrap(index_write.FieldArrays, "arrays", "index: years, areas")
    phases.wrap(index, "write_list", "index: references and citers lists")
    phases.wrap(index, "_lists", "index: _lists (references, then citers)")
    phases.wrap(index, "sorted_keys", "index: sorted_keys in memory (ids, DOIs)")
    phases.wrap(index.np, "save", "index: np.save arrays")
    phases.wrap(index, "write_search_index", "index: search.sqlite (FTS5)")
    phases.wrap(index, "write_node_json", "index: nodes.arrow")
    phases.wrap(integrity, "record", "checksums (integrity.record)")
    phases.wrap(builds, "publish", "publish the build")
    return phases


def table(rows: list[dict[str, Any]]) -> str:
    head = f"{'phase':<44} {'calls':>5} {'seconds':>8} {'RSS at start':>13} {'peak RSS':>10}"
    lines = [head, "-" * len(head)]
    for r in rows:
        start = f"{r['rss_at_start_mb']:,} MB" if r["rss_at_start_mb"] is not None else "-"
        peak = f"{r['peak_rss_mb']:,} MB" if r["peak_rss_mb"] is not None else "-"
        name = "  " * r["depth"] + r["phase"]
        lines.append(f"{name:<44} {r['calls']:>5} {r['seconds']:>8.1f} {start:>13} {peak:>10}")
    return "\n".join(lines)
