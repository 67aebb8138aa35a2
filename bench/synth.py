"""Helper of bench/run.py, not an entry point: a seeded synthetic citemap dataset shaped like a real citation graph.

    python bench/synth.py --papers 1000000 --edges 10000000 --seed 1 --out bench/out/large
    python bench/synth.py ... --phases --json   # also its memory by phase (stderr) and the summary as JSON

bench/run.py runs it in a child process for each size it measures (the command above writes one dataset alone).

writes a real dataset folder through :func:`dashboard.dataset.write.write_dataset` (Parquet tables,
``dataset.json`` and the ``index/`` the store memory-maps). Everything is vectorised with numpy and
pyarrow; the same arguments give the same dataset, byte for byte in its tables.

Shape:

* years 1990..2024 with exponential growth of papers per year (about 13 % a year, like arXiv), months
  uniform; papers are numbered by date, and a paper cites only papers with a lower number (older, or
  earlier in the same month), so there is never a cycle, a self-loop or a duplicate edge;
* ids like arXiv ids, ``YYMM.NNNNN`` from the posting month and the order within it (``YYMM.NNNNNN`` for
  every paper when a month has more than 99,999 papers: 10M papers); ``posted`` is the matching date;
* citations by preferential attachment, year by year: a paper of year *y* cites earlier papers with
  probability proportional to ``fitness * (3 + citations received before y) ** 0.75``, two thirds of the
  time within the last four years (citations age), else anywhere before it; fitness is log-normal. This
  gives a heavy-tailed in-degree: at 1M papers / 10M edges the ten most cited papers have 6,000 to 43,000
  citers, the median paper 3, and about 80 % of papers are cited at least once (at 170k / 1.2M: 1,400 to
  4,300, like ogbn-arxiv's 169k papers);
* references per paper: log-normal, growing with the year, at most half the older papers and 600;
* 1-2 areas per paper out of 40 arXiv-like categories with a Zipf distribution, about 2 % without area;
* titles of 5-14 words drawn from a 4,000-word vocabulary (:mod:`vocab`) with a Zipf distribution;
* ``cited_by`` / ``reference_count`` = the counts inside the dataset (null for about 3 % of papers, as
  when a source does not say); no ``citations_by_year``.
"""

from __future__ import annotations

import argparse
import functools
import json
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

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
if str(ROOT / "bench") not in sys.path:
    sys.path.insert(0, str(ROOT / "bench"))

GENERATOR_VERSION = 2  # 2: the papers table's source, authors, venue and DOI columns
SOURCE = "synth"
YEAR_FIRST, YEAR_LAST = 1990, 2024
GROWTH = 0.13  # papers per year grow by e^0.13 ~ 14 % a year
RECENT_SHARE = 0.66  # citations that go to the last RECENT_YEARS years
RECENT_YEARS = 4
MAX_REFS = 600
PA_EXPONENT = 0.75  # weight of a paper ~ fitness * (ATTRACT + citations so far) ** PA_EXPONENT
ATTRACT = 3.0
FITNESS_SIGMA = 0.8
NULL_COUNT_SHARE = 0.03
NO_AREA_SHARE = 0.02
TWO_AREAS_SHARE = 0.4
VOCABULARY = 4000
TITLE_BATCH = 1_000_000  # titles built at a time
AREAS = (
    "cs.LG",
    "cs.CV",
    "cs.CL",
    "cs.AI",
    "stat.ML",
    "cs.RO",
    "cs.CR",
    "cs.IR",
    "cs.NE",
    "eess.IV",
    "cs.SE",
    "cs.DC",
    "cs.HC",
    "eess.SP",
    "eess.SY",
    "math.OC",
    "cs.IT",
    "cs.NI",
    "cs.DS",
    "cs.SD",
    "eess.AS",
    "cs.CY",
    "cs.MA",
    "cs.GT",
    "cs.DB",
    "cs.SI",
    "quant-ph",
    "cs.LO",
    "cs.PL",
    "cs.CC",
    "cs.GR",
    "cs.MM",
    "physics.comp-ph",
    "q-bio.QM",
    "q-bio.NC",
    "math.ST",
    "stat.ME",
    "econ.EM",
    "astro-ph.IM",
    "cond-mat.dis-nn",
)


def zipf_weights(n: int, s: float = 1.0, q: float = 2.7) -> np.ndarray:
    """Zipf-Mandelbrot probabilities of ranks 0..n-1."""
    w = 1.0 / (np.arange(n) + 1.0 + q) ** s
    return w / w.sum()


def _digits(values: np.ndarray, width: int) -> np.ndarray:
    """ASCII digits of non-negative ints, zero-padded, as an (n, width) uint8 array."""
    out = np.empty((len(values), width), dtype=np.uint8)
    v = values.astype(np.int64).copy()
    for k in range(width - 1, -1, -1):
        out[:, k] = 48 + v % 10
        v //= 10
    return out


def _strings(chars: np.ndarray) -> pa.Array:
    """An Arrow string array from an (n, width) uint8 array of ASCII."""
    n, width = chars.shape
    offsets = pa.py_buffer((np.arange(n + 1, dtype=np.int32) * width).tobytes())
    return pa.Array.from_buffers(pa.string(), n, [None, offsets, pa.py_buffer(np.ascontiguousarray(chars).tobytes())])


def dates(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Year, month, day and number within the month of ``n`` papers, sorted by date."""
    years = np.arange(YEAR_FIRST, YEAR_LAST + 1)
    p = np.exp(GROWTH * (years - YEAR_FIRST))
    per_year = rng.multinomial(n, p / p.sum())
    year = np.repeat(years, per_year).astype(np.int16)
    month = rng.integers(1, 13, size=n).astype(np.int16)
    order = np.lexsort((month, year))
    year, month = year[order], month[order]
    key = (year.astype(np.int64) - YEAR_FIRST) * 12 + month - 1
    starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    lengths = np.diff(np.r_[starts, n])
    if lengths.max(initial=0) > 999_999:
        raise SystemExit(f"{lengths.max()} papers in one month do not fit YYMM.NNNNNN ids; use fewer papers")
    seq = np.arange(n) - np.repeat(starts, lengths) + 1
    day = 1 + ((seq - 1) * 28 // np.repeat(lengths, lengths))
    return year, month, day.astype(np.int16), seq


def out_degrees(rng: np.random.Generator, year: np.ndarray, edges: int) -> np.ndarray:
    """References per paper: log-normal, growing with the year, capped; summing to ``edges``."""
    n = len(year)
    cap = np.minimum(np.arange(n) // 2, MAX_REFS)
    if edges > int(cap.sum()):
        raise SystemExit(f"{edges} edges cannot fit {n} papers (at most {int(cap.sum())})")
    w = rng.lognormal(0.0, 0.8, size=n) * np.exp(0.03 * (year - YEAR_FIRST))
    deg = np.zeros(n, dtype=np.int64)
    for _ in range(30):  # scale up to the target; capped papers drop out
        room = cap - deg
        free = room > 0
        missing = edges - int(deg.sum())
        if missing <= 0 or not free.any():
            break
        share = w * free
        add = np.floor(share / share.sum() * missing + rng.random(n)).astype(np.int64)
        deg += np.minimum(add, room)
    surplus = int(deg.sum()) - edges
    while surplus > 0:  # random rounding overshot: take back one reference from random papers
        take = rng.choice(np.flatnonzero(deg > 0), size=surplus, replace=False)
        deg[take] -= 1
        surplus = int(deg.sum()) - edges
    while surplus < 0:
        room = np.flatnonzero(cap > deg)
        give = rng.choice(room, size=min(-surplus, len(room)), replace=False)
        deg[give] += 1
        surplus = int(deg.sum()) - edges
    return deg


def citations(rng: np.random.Generator, year: np.ndarray, deg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Citation edges (citing, cited) by yearly preferential attachment, as rows (int32); cited < citing always."""
    n = len(year)
    fitness = rng.lognormal(0.0, FITNESS_SIGMA, size=n)
    indeg = np.zeros(n, dtype=np.int64)
    year_start = np.searchsorted(year, np.arange(YEAR_FIRST, YEAR_LAST + 2))
    # filled in place, a year at a time, as int32 rows (no list of parts and no concatenated copy: at 100M edges the
    # two arrays are 0.8 GB, where parts and their int64 concatenation were 3.2 GB)
    edge_start = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(deg, out=edge_start[1:])
    row_type = np.int32 if n <= np.iinfo(np.int32).max else np.int64
    src = np.empty(int(edge_start[-1]), dtype=row_type)
    dst = np.empty(int(edge_start[-1]), dtype=row_type)
    for k in range(YEAR_LAST - YEAR_FIRST + 1):
        lo, hi = int(year_start[k]), int(year_start[k + 1])
        if hi <= lo or not deg[lo:hi].any():
            continue
        weight = fitness * (ATTRACT + indeg) ** PA_EXPONENT
        cum = np.zeros(n + 1)
        np.cumsum(weight, out=cum[1:])
        del weight
        citing = np.repeat(np.arange(lo, hi), deg[lo:hi])
        window = int(year_start[max(0, k - RECENT_YEARS)])
        cited = _draw_distinct(rng, cum, citing, window, deg[lo:hi], lo)
        at, to = int(edge_start[lo]), int(edge_start[hi])
        src[at:to] = citing
        dst[at:to] = cited
        indeg += np.bincount(cited, minlength=n)
        del cum, citing, cited
    return src, dst


def _draw(rng: np.random.Generator, cum: np.ndarray, citing: np.ndarray, window: int) -> np.ndarray:
    """One cited paper per citing slot: weighted by ``cum`` (prefix sums), among rows below the citing
    row; a share of the draws restricted to rows from ``window`` on."""
    recent = rng.random(len(citing)) < RECENT_SHARE
    start = np.where(recent & (citing > window), window, 0)
    low, high = cum[start], cum[citing]
    u = low + rng.random(len(citing)) * (high - low)
    cited = np.searchsorted(cum, u, side="right") - 1
    return np.clip(cited, start, citing - 1)


def _draw_distinct(
    rng: np.random.Generator, cum: np.ndarray, citing: np.ndarray, window: int, deg: np.ndarray, lo: int
) -> np.ndarray:
    """Like :func:`_draw`, redrawing duplicate (citing, cited) pairs until there are none."""
    n = len(cum) - 1
    cited = _draw(rng, cum, citing, window)
    for attempt in range(60):
        key = citing * n + cited
        order = np.argsort(key, kind="stable")
        dup = np.zeros(len(key), dtype=bool)
        dup[order[1:]] = key[order[1:]] == key[order[:-1]]
        if not dup.any():
            return cited
        idx = np.flatnonzero(dup)
        if attempt < 20:
            cited[idx] = _draw(rng, cum, citing[idx], window)
        else:  # a young paper citing most of the few before it: uniform draws settle it
            cited[idx] = (rng.random(len(idx)) * citing[idx]).astype(np.int64)
    raise RuntimeError("could not draw distinct references")


def areas(rng: np.random.Generator, n: int) -> pa.Array:
    """1-2 areas per paper out of AREAS (Zipf), about NO_AREA_SHARE with none."""
    p = zipf_weights(len(AREAS), s=1.1, q=0.5)
    first = rng.choice(len(AREAS), size=n, p=p)
    second = rng.choice(len(AREAS), size=n, p=p)
    second = np.where(second == first, (first + 1 + rng.integers(0, len(AREAS) - 1, size=n)) % len(AREAS), second)
    count = np.where(rng.random(n) < TWO_AREAS_SHARE, 2, 1)
    count[rng.random(n) < NO_AREA_SHARE] = 0
    codes = np.stack([first, second], axis=1)[np.arange(2)[None, :] < count[:, None]]
    offsets = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(count, out=offsets[1:])
    values = pa.array(AREAS, pa.string()).take(pa.array(codes))
    return pa.ListArray.from_arrays(pa.array(offsets), values)


def titles(rng: np.random.Generator, n: int) -> pa.Array:
    """Titles of 5-14 words from a Zipf vocabulary, first letter upper case.

    Built TITLE_BATCH papers at a time (the words of 10M titles as one list array are some GB at once); the random
    numbers are drawn in the same order as one draw for all papers, so the titles are the same."""
    from vocab import vocabulary

    words = pa.array(vocabulary(VOCABULARY), pa.string())
    lengths = 5 + rng.binomial(9, 0.5, size=n)
    cum = np.cumsum(zipf_weights(len(words)))
    parts = []
    for start in range(0, n, TITLE_BATCH):
        part = lengths[start : start + TITLE_BATCH]
        offsets = np.zeros(len(part) + 1, dtype=np.int32)
        np.cumsum(part, out=offsets[1:])
        picks = np.minimum(np.searchsorted(cum, rng.random(int(offsets[-1])) * cum[-1], side="right"), len(words) - 1)
        lists = pa.ListArray.from_arrays(pa.array(offsets), words.take(pa.array(picks)))
        parts.append(pc.utf8_capitalize(pc.binary_join(lists, " ")))
        del picks, lists
    if len(parts) == 1:
        return parts[0]
    return pa.concat_arrays(parts) if parts else pa.array([], pa.string())


def generate(
    papers: int, edges: int, seed: int, rows: bool = False
) -> tuple[pa.Table, pa.Table | tuple[np.ndarray, np.ndarray], dict[str, Any]]:
    """The papers and citations tables of a synthetic dataset, and a summary. With ``rows``, the citations come as
    (citing rows, cited rows) of the papers table, two int32 arrays, instead of a table of id strings (what
    ``write_dataset`` takes either way, and writes to the same files; at 100M edges the string table would be
    two strings per edge)."""
    from dashboard.dataset.format import CBY_TYPE, CITATIONS_SCHEMA, PAPERS_SCHEMA

    rng = np.random.default_rng(seed)
    n = papers
    year, month, day, seq = dates(rng, n)
    yy = (year.astype(np.int64) % 100) * 100 + month
    width = 5 if seq.max(initial=0) <= 99_999 else 6  # arXiv's 5 digits, unless a month has more papers (10M)
    id_chars = np.concatenate([_digits(yy, 4), np.full((n, 1), ord("."), np.uint8), _digits(seq, width)], axis=1)
    ids = _strings(id_chars)
    dash = np.full((n, 1), ord("-"), np.uint8)
    posted = _strings(np.concatenate([_digits(year, 4), dash, _digits(month, 2), dash, _digits(day, 2)], axis=1))
    deg = out_degrees(rng, year, edges)
    src, dst = citations(rng, year, deg)
    in_cited = np.bincount(dst, minlength=n)
    out_refs = np.bincount(src, minlength=n)
    unknown = rng.random(n) < NULL_COUNT_SHARE
    area_lists = areas(rng, n)
    title_array = titles(rng, n)
    table = pa.table(
        {
            "id": ids,
            "title": title_array,
            "year": pa.array(year, pa.int16()),
            "posted": posted,
            "areas": area_lists,
            "cited_by": pa.array(in_cited, pa.int64(), mask=unknown),
            "reference_count": pa.array(out_refs, pa.int64(), mask=unknown),
            "citations_by_year": pa.nulls(n, CBY_TYPE),
            "cited_by_from": pa.array(np.full(n, SOURCE, dtype=object), pa.string(), mask=unknown),
            "authors": pa.nulls(n, PAPERS_SCHEMA.field("authors").type),
            "venue": pa.nulls(n, pa.string()),
            "doi": pa.nulls(n, pa.string()),
            "sources": pa.ListArray.from_arrays(pa.array(np.arange(n + 1, dtype=np.int32)), pa.repeat(SOURCE, n)),
            "alt_ids": pa.nulls(n, PAPERS_SCHEMA.field("alt_ids").type),
        },
        schema=PAPERS_SCHEMA,
    )
    if rows:
        cites: pa.Table | tuple[np.ndarray, np.ndarray] = (src, dst)
    else:
        cites = pa.table({"citing": ids.take(pa.array(src)), "cited": ids.take(pa.array(dst))}, schema=CITATIONS_SCHEMA)
    top = int(np.argmax(in_cited)) if n else 0
    summary = {
        "papers": n,
        "edges": len(src),
        "max_in_degree": int(in_cited.max(initial=0)),
        "most_cited": ids[top].as_py() if n else None,
        "max_out_degree": int(out_refs.max(initial=0)),
        "papers_with_citers": int(np.count_nonzero(in_cited)),
        "years": [int(year.min()), int(year.max())] if n else None,
        "papers_first_year": int(np.count_nonzero(year == year.min())) if n else 0,
        "papers_last_year": int(np.count_nonzero(year == year.max())) if n else 0,
    }
    return table, cites, summary


def synth_meta(papers: int, edges: int, seed: int) -> dict[str, Any]:
    """The ``synth`` block of ``dataset.json`` (what bench/run.py compares before reusing a dataset)."""
    return {"papers": papers, "edges": edges, "seed": seed, "version": GENERATOR_VERSION}


def build(papers: int, edges: int, seed: int, out: str | Path, quiet: bool = False) -> dict[str, Any]:
    """Generate and write a dataset folder; returns the summary (with timings)."""
    from dashboard.dataset import builds
    from dashboard.dataset.write import write_dataset
    from dashboard.importers import field_map

    t0 = time.perf_counter()
    table, cites, summary = generate(papers, edges, seed, rows=True)  # same files as the table of ids
    t1 = time.perf_counter()
    meta = {
        "name": f"synthetic {papers:,} papers / {edges:,} edges (seed {seed})",
        "source": "bench/synth.py",
        "command": f"python bench/synth.py --papers {papers} --edges {edges} --seed {seed} --out {out}",
        "notes": "Synthetic benchmark data: not real papers.",
        "synth": synth_meta(papers, edges, seed),
        "summary": summary,
    }
    write_dataset(out, table, cites, meta)
    t2 = time.perf_counter()
    del table, cites
    field_map.make(out)  # the field view's map, as an import makes it once the build is served
    t3 = time.perf_counter()
    written = builds.served(Path(out).resolve())
    disk = sum(f.stat().st_size for f in written.rglob("*") if f.is_file())
    summary = {
        **summary,
        "generate_s": round(t1 - t0, 1),
        "write_s": round(t2 - t1, 1),
        "field_map_s": round(t3 - t2, 1),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        "disk_bytes": disk,
    }
    if not quiet:
        print(
            f"{summary['papers']:,} papers, {summary['edges']:,} edges, years {summary['years'][0]}-"
            f"{summary['years'][1]} ({summary['papers_first_year']:,} -> {summary['papers_last_year']:,} papers "
            f"a year); max in-degree {summary['max_in_degree']:,} ({summary['most_cited']}), max out-degree "
            f"{summary['max_out_degree']:,}, {summary['papers_with_citers']:,} papers cited; generated in "
            f"{summary['generate_s']} s, written with the index in {summary['write_s']} s, its field map made in "
            f"{summary['field_map_s']} s (peak memory "
            f"{summary['peak_rss_mb']:,} MB, {disk / 1e9:.2f} GB on disk) -> {Path(out).resolve()}"
        )
    return summary


# -- memory by phase (--phases) ------------------------------------------------------------------------------------
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
    """Where a process's memory peaks: its resident memory sampled by a separate process, attributed to named phases.

    :meth:`wrap` replaces functions of modules (the generator's steps, write_dataset's, the index writer's) so that
    each call's start and end are recorded, while a child process reads this process's resident set size from
    ``/proc/PID/statm`` every ``interval`` seconds (a thread here would not run while a C call holds the GIL).
    :meth:`stop` gives, per phase: calls, seconds, resident memory when it was first entered and the highest sample
    during any call of it. Phases nest (the index inside write_dataset); the highest sample is a lower bound of the
    true peak (``ru_maxrss``, exact, is in the summary)."""

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


def instrument_write(generator: ModuleType) -> Phases:
    """Phases of this module's build: its generator steps (``generator`` is this module, ``__main__`` when run as a
    script) and what :func:`dashboard.dataset.write.write_dataset` and the index writer
    (:mod:`dashboard.dataset.index_write`, :mod:`dashboard.dataset.search_write`) do."""
    import pyarrow.parquet as pq

    from dashboard.dataset import builds, index_write, integrity, search_write
    from dashboard.dataset import write as dataset

    phases = Phases()
    for name in ("generate", "dates", "out_degrees", "citations", "areas", "titles"):
        phases.wrap(generator, name)
    phases.wrap(dataset, "write_dataset")
    phases.wrap(dataset, "_check_rows", "check citation rows")
    phases.wrap(pq, "write_table", "papers.parquet (pq.write_table)")
    phases.wrap(dataset, "_write_citation_rows", "citations.parquet from rows")
    phases.wrap(dataset, "_content_hash", "build_id hash")
    phases.wrap(index_write, "write_index_from")
    phases.wrap(index_write, "tables_source", "index: citation counts and ranks")
    phases.wrap(index_write, "write_sorted_keys", "index: sorted ids, DOIs (each)")
    phases.wrap(index_write.FieldArrays, "arrays", "index: years, areas")
    phases.wrap(index_write, "write_list", "index: references and citers lists")
    phases.wrap(index_write, "_lists", "index: _lists (references, then citers)")
    phases.wrap(index_write, "sorted_keys", "index: sorted_keys in memory (ids, DOIs)")
    phases.wrap(index_write.np, "save", "index: np.save arrays")
    phases.wrap(search_write, "write_search_index", "index: search.sqlite (FTS5)")
    phases.wrap(index_write, "write_node_json", "index: nodes.arrow")
    phases.wrap(integrity, "record", "checksums (integrity.record)")
    phases.wrap(builds, "publish", "publish the build")
    return phases


def phases_table(rows: list[dict[str, Any]]) -> str:
    head = f"{'phase':<44} {'calls':>5} {'seconds':>8} {'RSS at start':>13} {'peak RSS':>10}"
    lines = [head, "-" * len(head)]
    for r in rows:
        start = f"{r['rss_at_start_mb']:,} MB" if r["rss_at_start_mb"] is not None else "-"
        peak = f"{r['peak_rss_mb']:,} MB" if r["peak_rss_mb"] is not None else "-"
        name = "  " * r["depth"] + r["phase"]
        lines.append(f"{name:<44} {r['calls']:>5} {r['seconds']:>8.1f} {start:>13} {peak:>10}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--papers", type=int, required=True)
    ap.add_argument("--edges", type=int, required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True, help="dataset folder to write (replaced atomically)")
    ap.add_argument("--json", action="store_true", help="also print the summary as one JSON line, last")
    ap.add_argument(
        "--phases",
        action="store_true",
        help="sample resident memory and print its peak by phase on stderr",
    )
    args = ap.parse_args(argv)
    if args.papers < 2 or args.edges < 0:
        ap.error("--papers must be at least 2 and --edges at least 0")
    # the system allocator: Arrow's default (mimalloc) kept the titles' temporary buffers (~250 MB at 1M papers) for
    # the rest of the run; freed memory goes back at once with this one (same files: only where bytes live changes)
    pa.set_memory_pool(pa.system_memory_pool())
    phases = None
    if args.phases:
        phases = instrument_write(sys.modules[__name__])
    summary = build(args.papers, args.edges, args.seed, args.out)
    if phases is not None:
        summary["phases"] = phases.stop()
        print(phases_table(summary["phases"]), file=sys.stderr)
    if args.json:
        print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
