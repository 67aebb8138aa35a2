"""citemap benchmarks: one command, a table of ratios against baselines measured in the same run.

    python bench/run.py                       # sizes small and large, full counts (< 10 minutes)
    python bench/run.py --quick               # smoke run: size small, few requests, 5 s of load
    python bench/run.py --sizes large --quick
    python bench/run.py --sizes huge          # 10M papers / 100M edges, not in the default run (see below)
    python bench/run.py --sizes default       # the default dataset (built from data/ when first needed)
    python bench/run.py --clusters [--data DIR]   # clusters per map against the whole dataset's, alone
    python bench/run.py --sizes large --field-view   # the field view's answers alone (the dataset reused)
    python bench/run.py --sizes large --typos        # search with a typo against typed right, alone

For each size a synthetic dataset is generated with bench/synth.py into bench/out/ (reused when its
``dataset.json`` says it was made with the same size, seed and generator version; size ``default`` is the default
dataset instead), then:

* startup: ``Store.load`` plus what a first request touches, vs reading the tables into a
  ``networkx.DiGraph`` (fresh process each);
* memory: resident memory added by loading (every mapped page touched) vs the DiGraph;
* expand: HTTP round trip of what the browser fetches after an expand, ``GET /graph?seeds=S&expand=P``
  (P with about 300 neighbours, a different P for every request) vs the no-op ``pong`` Dash callback,
  on gunicorn with 2 workers;
* search: ``Store.search`` of realistic partial queries vs one no-op round trip, and of whole title words with a
  mistake (the spelling correction's path) vs the same words typed right; the search callback over HTTP is
  reported too;
* throughput: expand requests per second under 8 concurrent connections vs the no-op's;
* views of N seeds: ``GET /graph`` of the N most cited papers not used before (N = 1, 3, 10, 20, the most a URL
  takes), limit 3000, force layout, cold, vs the no-op round trip (information: what a view of N seeds costs);
* discovery: a similarity map of the most cited paper, a path between two random papers and the clusters of a
  5,000-paper view (each ``GET /graph``, cold and distinct) vs the no-op round trip; the prior and derivative works
  of a 300-paper view in process vs the same.

Size ``huge`` (10M papers / 100M edges) runs the rows that make sense at that size (``SKIPPED`` lists the others
and why; they are printed under the table): start-up in seconds against a bound of one second, start-up
and memory against reading the two tables into memory (the networkx DiGraph would not fit in this machine), the
share of start-up spent checksumming the files, the server's start-up and memory, how long the dataset took to
generate and write, its peak memory and its size on disk, and every HTTP row as for the other sizes.

Prints one table (ratio = citemap / baseline), writes it with every figure measured to
bench/out/results-<sizes>.json (``--clusters``: results-clusters.json), and exits 1 if a target is missed. See
bench/README.md.

``--clusters`` measures, instead and in this process, the two ways of colouring by cluster on one dataset (the
default dataset unless ``--data``): per map, what citemap does (Leiden on the citations of a 5,000-paper map and the
names of its clusters, median of ``--rounds``), against the whole dataset's citations at import (once, with the
growth of the process's peak memory); it prints both and their ratio.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import math
import re
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import common  # first: puts the repository on sys.path
import loadgen
import numpy as np
import synth
from common import BENCH, HOST, OUT, ROOT, log, percentile, run_child
from results import machine

from dashboard.dataset import builds, index
from dashboard.view.payload import payload_nodes

SEED = 1
SIZES: dict[str, tuple[int, int]] = {
    "tiny": (20_000, 150_000),  # for trying the bench itself
    "small": (170_000, 1_200_000),  # ogbn-arxiv's size
    "large": (1_000_000, 10_000_000),
    "huge": (10_000_000, 100_000_000),  # only with --sizes huge
}
DEFAULT_SIZES = "small,large"
DEFAULT_DATA = "default"  # a size that is the default dataset (no generation)
BIG = 5_000_000  # papers from which a size gets the big-dataset rows (no DiGraph baseline, phases of memory)
STARTUP_BOUND = 1.0  # seconds: start-up stays under a second at every size
NETWORKX_SKIP = (
    "at 1M papers / 10M edges the DiGraph took 43.6 s and 3,064 MB (bench/HISTORY.md, size large); ten "
    "times the graph needs about 30 GB, more than this machine's 24 GB; reading the two tables into "
    "memory (Arrow, no graph) is the baseline instead"
)
FIELD_SECONDS = 900.0  # the whole graph's field layout at import: 15 minutes at 10M citations, in proportion
FIELD_CITATIONS = 10_000_000
FIELD_MB = 4096.0  # and at most 4 GB resident at any size
FIELD_ANSWER_BOUND = 1.0  # seconds: the field view's answer to a change of state, at every size
BIG_SIZES = {name for name, (papers, _) in SIZES.items() if papers >= BIG}
# rows that a size does not run, and why (printed under the table and kept in the results)
SKIPPED: dict[str, dict[str, str]] = {
    name: {"startup / memory against the networkx DiGraph": NETWORKX_SKIP} for name in BIG_SIZES
}
POOL_RANGE = (250, 350)  # references + citers of an expanded paper
POOL_MIN = 120  # distinct expand queries needed to defeat the per-worker view cache (LRU of 48)
FEW_NEIGHBOURS = 10  # a seed S has at most this many references + citers (else the fewest there are)
SUGGESTIONS = 8  # what the search box asks for (dashboard/web/callbacks/search.py)
TARGETS = {  # measure -> (comparison, bound) on ratio = citemap / baseline
    "field layout (seconds)": ("<=", 1.0),
    "field layout peak memory": ("<=", 1.0),
    "field view answer (seconds)": ("<=", FIELD_ANSWER_BOUND),  # ratio against the bound itself: the seconds
    "startup": ("<=", 1 / 20),
    "memory": ("<=", 0.5),
    "expand latency median": ("<=", 2.0),
    "search median": ("<", 1.0),
    "search with a typo median": ("<=", 2.0),
    "expand throughput": (">=", 0.5),
    "heaviest view force": ("<=", 50.0),
    "heaviest view timeline": ("<=", 50.0),
    "heaviest view concentric": ("<=", 50.0),
    "similarity map (most cited)": ("<=", 20.0),
    "path between two papers": ("<=", 20.0),
    "prior/derivative (300 papers)": ("<=", 5.0),
    "clusters (5,000 papers)": ("<=", 50.0),
    "startup (seconds)": ("<=", STARTUP_BOUND),  # ratio against the bound itself: the seconds
}
DISCOVERY_N = 30  # requests of each discovery kind, all distinct (no view cache helps)
LAYOUT_NAMES = ("force", "timeline", "concentric")
HEAVY_SEEDS = 3  # the most cited papers, 3 a view, limit 3000: the 5,000-node cap
SEED_COUNTS = (1, 3, 10, 20)  # views of this many seeds measured (20: MAX_SEEDS, the most a URL takes)


@dataclass
class Row:
    size: str
    measure: str
    citemap: float
    baseline: float
    unit: str  # s | ms | MB | /s | x (a plain ratio)
    baseline_name: str
    note: str = ""

    @property
    def ratio(self) -> float:
        if math.isnan(self.baseline):  # a figure without a baseline (the big sizes' absolute rows)
            return math.nan
        return self.citemap / self.baseline if self.baseline else float("inf")

    @property
    def target(self) -> str:
        t = TARGETS.get(self.measure)
        return f"{t[0]} {t[1]:.3g}" if t else "(info)"

    @property
    def ok(self) -> bool | None:
        t = TARGETS.get(self.measure)
        if t is None:
            return None
        op, bound = t
        return {"<=": self.ratio <= bound, "<": self.ratio < bound, ">=": self.ratio >= bound}[op]


# -- datasets -------------------------------------------------------------------------------------------
GENERATED: dict[str, dict[str, Any]] = {}  # size -> bench/synth.py's summary (timings, peak memory), this run


def ensure_dataset(name: str, papers: int, edges: int, seed: int) -> Path:
    """bench/out/<name>, generated unless a dataset of the same size, seed and generator is there."""
    folder = OUT / f"{name}-{papers}-{edges}-s{seed}"
    want = synth.synth_meta(papers, edges, seed)
    with contextlib.suppress(OSError, ValueError):
        build = builds.served(folder)  # the build it serves (the folder itself if an older citemap wrote it)
        meta = json.loads((build / "dataset.json").read_text())
        imeta = index.read_index_meta(build)  # None when written by an older index version
        if meta.get("synth") == want and imeta is not None and imeta.get("build_id") == meta.get("build_id"):
            log(f"[{name}] reusing {folder.relative_to(ROOT)}")
            return folder
    big = papers >= BIG
    log(
        f"[{name}] generating {papers:,} papers / {edges:,} edges (seed {seed}) ..."
        + (" (a while: the log gets the generator's memory by phase)" if big else "")
    )
    t0 = time.perf_counter()
    res = run_child(
        [
            sys.executable,
            str(BENCH / "synth.py"),
            "--papers",
            str(papers),
            "--edges",
            str(edges),
            "--seed",
            str(seed),
            "--out",
            str(folder),
            "--json",
            *(["--phases"] if big else []),
        ],
        timeout=max(900.0, 3 * 3600 * papers / 10_000_000),
    )
    if res.returncode:
        raise SystemExit(f"bench/synth.py failed:\n{res.stderr[-3000:]}")
    *lines, last = res.stdout.strip().splitlines()
    summary = GENERATED[name] = {**json.loads(last), "wall_s": time.perf_counter() - t0}
    log(f"[{name}] {' '.join(lines)} ({summary['wall_s']:.0f} s)")
    if big:
        log(
            f"[{name}] memory of bench/synth.py by phase (resident, sampled every 20 ms; exact peak "
            f"{summary['peak_rss_mb']:,} MB):\n{res.stderr.strip()}"
        )
    return folder


def disk_bytes(folder: Path) -> int:
    """Bytes of the files of the build a dataset folder serves (tables, dataset.json, index)."""
    return sum(f.stat().st_size for f in builds.served(folder).rglob("*") if f.is_file())


# -- startup and memory: fresh processes ---------------------------------------------------------------
def probe(kind: str, folder: Path, timeout: float = 900) -> dict[str, Any]:
    """The JSON line the probe ``kind`` of bench/probes.py prints, run in a fresh process."""
    res = run_child([sys.executable, str(BENCH / "probes.py"), kind, str(folder)], timeout=timeout)
    if res.returncode:
        raise SystemExit(f"bench/probes.py {kind} failed:\n{res.stderr[-3000:]}")
    return json.loads(res.stdout.strip().splitlines()[-1])


def measure_startup(size: str, folder: Path, repeats: int) -> list[Row]:
    stores = [probe("store", folder) for _ in range(repeats)]
    log(f"[{size}] store: " + ", ".join(f"{s['seconds']:.3f} s" for s in stores))
    nx = probe("networkx", folder)
    log(f"[{size}] networkx DiGraph: {nx['seconds']:.1f} s, {(nx['rss_full'] - nx['rss_base']) / 2**20:,.0f} MB")
    seconds = statistics.median(s["seconds"] for s in stores)
    store_mem = statistics.median(s["rss_full"] - s["rss_base"] for s in stores) / 2**20
    lazy_mem = statistics.median(s["rss_ready"] - s["rss_base"] for s in stores) / 2**20
    return [
        Row(
            size,
            "startup",
            seconds,
            nx["seconds"],
            "s",
            "networkx DiGraph build",
            f"median of {repeats} fresh processes; DiGraph: 1 process",
        ),
        Row(
            size,
            "memory",
            store_mem,
            (nx["rss_full"] - nx["rss_base"]) / 2**20,
            "MB",
            "networkx DiGraph RSS",
            f"every mapped page touched; {lazy_mem:,.0f} MB right after start-up",
        ),
    ]


def measure_startup_big(size: str, folder: Path, repeats: int) -> list[Row]:
    """Start-up and memory of a size too big for the DiGraph baseline (NETWORKX_SKIP): the store's seconds against
    STARTUP_BOUND, and the store against reading the two tables into memory (Arrow); the checksums' share."""
    stores = [probe("store", folder) for _ in range(repeats)]
    log(f"[{size}] store: " + ", ".join(f"{s['seconds']:.3f} s" for s in stores))
    checks = [probe("checksums", folder, timeout=1800) for _ in range(repeats)]
    log(
        f"[{size}] checksums of the build's files alone (what Store.load checks first): "
        + ", ".join(f"{c['seconds']:.3f} s" for c in checks)
        + f" ({checks[0]['files']} files, "
        f"{checks[0]['bytes'] / 2**30:.2f} GiB)"
    )
    tables = probe("tables", folder, timeout=1800)
    tables_mem = (tables["rss_full"] - tables["rss_base"]) / 2**20
    log(
        f"[{size}] the two tables read into memory (Arrow): {tables['seconds']:.1f} s, {tables_mem:,.0f} MB "
        f"({tables['papers']:,} papers, {tables['citations']:,} citations)"
    )
    seconds = statistics.median(s["seconds"] for s in stores)
    store_mem = statistics.median(s["rss_full"] - s["rss_base"] for s in stores) / 2**20
    lazy_mem = statistics.median(s["rss_ready"] - s["rss_base"] for s in stores) / 2**20
    check_s = statistics.median(c["seconds"] for c in checks)
    return [
        Row(
            size,
            "startup (seconds)",
            seconds,
            STARTUP_BOUND,
            "s",
            "a second",
            f"Store.load + a first request's reads, median of {repeats} fresh processes; ratio = seconds",
        ),
        Row(
            size,
            "startup vs reading the tables",
            seconds,
            tables["seconds"],
            "s",
            "Arrow tables read into memory",
            "papers.parquet + citations.parquet read whole, 1 fresh process",
        ),
        Row(
            size,
            "file checksums at start-up",
            check_s,
            seconds,
            "s",
            "startup (seconds)",
            f"XXH3 of the build's {checks[0]['files']} files ({checks[0]['bytes'] / 2**30:.2f} GiB) alone, "
            f"median of {repeats}; ratio = share of start-up",
        ),
        Row(
            size,
            "memory vs reading the tables",
            store_mem,
            tables_mem,
            "MB",
            "Arrow tables RSS",
            "every mapped page touched",
        ),
        Row(
            size,
            "memory right after start-up",
            lazy_mem,
            tables_mem,
            "MB",
            "Arrow tables RSS",
            "RSS added by Store.load and a first request's reads (mapped pages not touched yet)",
        ),
    ]


def measure_field(size: str, folder: Path) -> list[Row]:
    """The field view's layout of the whole citation graph (what the import computes), in a fresh process: its
    seconds against FIELD_SECONDS per FIELD_CITATIONS, its peak memory against FIELD_MB, and its quality."""
    got = probe("field", folder, timeout=3600)
    bound = FIELD_SECONDS * max(got["citations"], 1) / FIELD_CITATIONS
    peak = got["peak_rss"] / 2**20
    log(f"[{size}] field layout: {got['seconds']:.1f} s, peak {peak:,.0f} MB, edge distance ratio {got['ratio']:.3f}")
    return [
        Row(
            size,
            "field layout (seconds)",
            got["seconds"],
            bound,
            "s",
            f"{FIELD_SECONDS:.0f} s per {FIELD_CITATIONS:,} citations",
            f"dashboard.graph.field_layout of {got['papers']:,} papers / {got['citations']:,} citations, 1 process",
        ),
        Row(
            size,
            "field layout peak memory",
            peak,
            FIELD_MB,
            "MB",
            "4 GB",
            "ru_maxrss of that process, imports included",
        ),
        Row(
            size,
            "field layout edge distance",
            got["ratio"],
            0.2,
            "x",
            "the default dataset's bound",
            "median citation length / median random pair; information only: the synthetic graph has no topics",
        ),
    ]


def measure_field_view(size: str, folder: Path) -> list[Row]:
    """The field view's answers in a fresh process, through the app's server (bench/probes.py field_view): a change
    of state (GET /field, distinct states, the store warm) against the bound and against the citation map's answer
    to a change of state (GET /graph, other distinct states) in the same process; the first answer of the process
    and the points (once a build) for information."""
    got = probe("field_view", folder, timeout=1800)
    layer, graph = statistics.median(got["layers"]), statistics.median(got["graphs"])
    worst = max(got["layers"])
    log(
        f"[{size}] field view: a state's answer median {layer * 1000:.0f} ms (slowest {worst * 1000:.0f} ms), "
        f"/graph median {graph * 1000:.1f} ms; first {got['first']:.2f} s ({got['first_bytes']:,} bytes), points "
        f"{got['points']:.2f} s ({got['points_bytes']:,} bytes, brotli)"
    )
    n = len(got["layers"])
    return [
        Row(
            size,
            "field view answer (seconds)",
            worst,
            FIELD_ANSWER_BOUND,
            "s",
            "1 s",
            f"GET /field of {n} distinct states (min_citations 1..{n}), the slowest; ratio = seconds",
        ),
        Row(
            size,
            "field view answer vs the map's",
            layer * 1000,
            graph * 1000,
            "ms",
            "GET /graph median",
            f"GET /field median of {n} distinct states against GET /graph of {n} others, one process",
        ),
        Row(
            size,
            "field view first answer",
            got["first"],
            math.nan,
            "s",
            "-",
            f"GET /field of the default view, the first request of the process ({got['first_bytes']:,} bytes)",
        ),
        Row(
            size,
            "field view points (once a build)",
            got["points"],
            math.nan,
            "s",
            "-",
            f"GET /field/points, made as the app started ({got['points_bytes']:,} bytes, brotli)",
        ),
        Row(
            size,
            "app start",
            got["start"],
            math.nan,
            "s",
            "-",
            "create_app: the store loaded and, past 50,000 papers, the field's points and regions made",
        ),
    ]


def generation_rows(size: str, folder: Path) -> list[Row]:
    """A big size's dataset: generate + write time and peak memory (when generated in this run) and disk size."""
    nan = math.nan
    rows = []
    gen = GENERATED.get(size)
    if gen:
        rows += [
            Row(
                size,
                "generate + write dataset",
                gen["generate_s"] + gen["write_s"],
                nan,
                "s",
                "",
                f"bench/synth.py: generate {gen['generate_s']} s, write with the index {gen['write_s']} s",
            ),
            Row(size, "generator peak memory", gen["peak_rss_mb"], nan, "MB", "", "ru_maxrss of bench/synth.py"),
        ]
    rows.append(
        Row(
            size,
            "dataset on disk",
            disk_bytes(folder) / 2**20,
            nan,
            "MB",
            "",
            "tables, dataset.json and index of the served build",
        )
    )
    return rows


# -- workload: expand pool and search queries ------------------------------------------------------------
def expand_pool(store: Any, rng: np.random.Generator) -> tuple[list[tuple[str, str]], tuple[int, int]]:
    """(S, P) pairs: P has POOL_RANGE references + citers, S is a neighbour of P with few of its own."""
    deg = np.diff(store.arrays["ref_offsets"]) + np.diff(store.arrays["cit_offsets"])
    lo, hi = POOL_RANGE
    cands = np.flatnonzero((deg >= lo) & (deg <= hi))
    while len(cands) < POOL_MIN and lo > 50:  # a small dataset: widen the range, and say so
        lo, hi = lo - 25, hi + 25
        cands = np.flatnonzero((deg >= lo) & (deg <= hi))
    cands = rng.permutation(cands)[:400]
    pairs = []
    for p in cands.tolist():
        nbrs = np.unique(np.concatenate([store.references(p), store.citers(p)]).astype(np.int64))
        few = nbrs[deg[nbrs] <= FEW_NEIGHBOURS]
        s = int(rng.choice(few)) if len(few) else int(nbrs[np.argmin(deg[nbrs])])
        pairs.append((store.id(s), store.id(p)))
    return pairs, (lo, hi)


def search_queries(store: Any, rng: np.random.Generator, n: int) -> list[str]:
    """Partial queries as typed: 1-3 consecutive words of a real title, the last cut to 1-6 letters
    (at least 2 characters in all: the search box does not search a single character)."""
    word = re.compile(r"\w+")
    rows = rng.integers(0, store.n, size=n * 2)
    out: list[str] = []
    for title in store.titles(rows):
        words = word.findall((title or "").lower())
        if not words:
            continue
        k = min(len(words), int(rng.choice([1, 2, 3], p=[0.4, 0.35, 0.25])))
        start = int(rng.integers(0, len(words) - k + 1))
        picked = words[start : start + k]
        cut = min(len(picked[-1]), int(rng.integers(1, 7)))
        if k == 1:
            cut = max(cut, min(2, len(picked[-1])))
        picked[-1] = picked[-1][:cut]
        q = " ".join(picked)
        if len(q) >= 2:
            out.append(q)
        if len(out) == n:
            break
    return out


def typo_queries(store: Any, rng: np.random.Generator, n: int) -> list[tuple[str, str, int]]:
    """Queries typed with a mistake, each with the same words typed right and the row of the title they come from:
    2-4 consecutive whole words of a random real title, two neighbouring letters of the longest (at least 5
    letters) swapped, so that the words as typed find nothing and the search corrects them."""
    word = re.compile(r"[^\W_]+")
    out: list[tuple[str, str, int]] = []
    rows = rng.integers(0, store.n, size=n * 4)
    for row, title in zip(rows.tolist(), store.titles(rows), strict=True):
        words = word.findall((title or "").lower())
        k = min(len(words), int(rng.integers(2, 5)))
        start = int(rng.integers(0, len(words) - k + 1)) if words else 0
        picked = words[start : start + k]
        longest = max(range(len(picked)), key=lambda i: len(picked[i]), default=None)
        if longest is None or len(picked[longest]) < 5 or any(c.isdigit() for c in picked[longest]):
            continue
        w = picked[longest]
        i = int(rng.integers(1, len(w) - 2))  # not the first letter: the search does not look for that one
        if w[i] == w[i + 1]:
            continue
        right = " ".join(picked)
        picked[longest] = w[:i] + w[i + 1] + w[i] + w[i + 2 :]
        out.append((" ".join(picked), right, row))
        if len(out) == n:
            break
    return out


def measure_typos(store: Any, typos: list[tuple[str, str, int]]) -> tuple[list[float], list[float], float, float]:
    """``Store.search_suggesting`` (what the search box asks for) of queries with a mistake and of the same words
    typed right, in turn (each first every other time): the times of each, and the share of each whose paper is
    among the suggestions (they come most cited first: a common title's paper may be beyond them, typed right or
    not)."""
    wrong_t, right_t, wrong_found, right_found = [], [], 0, 0
    for i, (wrong, right, row) in enumerate(typos):
        for text in (wrong, right) if i % 2 else (right, wrong):  # the first one reads the pages both need
            t0 = time.perf_counter()
            rows = store.search_suggesting(text, SUGGESTIONS).rows
            (wrong_t if text == wrong else right_t).append(time.perf_counter() - t0)
            if text == wrong:
                wrong_found += row in rows
            else:
                right_found += row in rows
    n = max(len(typos), 1)
    return wrong_t, right_t, wrong_found / n, right_found / n


def typo_row(size: str, store: Any, rng: np.random.Generator, n: int) -> Row:
    """The row of :func:`measure_typos` on ``n`` :func:`typo_queries` (logged with their tail and how many find
    their paper)."""
    typos = typo_queries(store, rng, n)
    wrong_t, right_t, wrong_found, right_found = measure_typos(store, typos)
    wrong_ms, right_ms = statistics.median(wrong_t) * 1000, statistics.median(right_t) * 1000
    log(
        f"[{size}] Store.search_suggesting with a typo: median {wrong_ms:.2f} ms, p90 "
        f"{percentile(wrong_t, 0.9) * 1000:.2f} ms, max {max(wrong_t) * 1000:.1f} ms, {wrong_found:.0%} of "
        f"{len(typos)} find their paper; typed right: median {right_ms:.2f} ms, p90 "
        f"{percentile(right_t, 0.9) * 1000:.2f} ms, {right_found:.0%} find it"
    )
    return Row(
        size,
        "search with a typo median",
        wrong_ms,
        right_ms,
        "ms",
        "the same words typed right",
        f"Store.search_suggesting in process, {len(typos)} queries of 2-4 title words, two letters of one swapped; "
        f"{wrong_found:.0%} find their paper ({right_found:.0%} typed right)",
    )


def measure_search_inprocess(store: Any, queries: list[str]) -> tuple[list[float], dict[str, float]]:
    store.search("warm up")  # opens the SQLite connection
    times = []
    by_len: dict[int, list[float]] = {}
    for q in queries:
        t0 = time.perf_counter()
        store.search(q, SUGGESTIONS)
        dt = time.perf_counter() - t0
        times.append(dt)
        by_len.setdefault(len(re.findall(r"\w+", q)[-1]) if re.findall(r"\w+", q) else 0, []).append(dt)
    detail = {f"last word {k} letters": statistics.median(v) * 1000 for k, v in sorted(by_len.items())}
    slow = sorted(zip(times, queries, strict=True), reverse=True)[:3]
    detail.update({f"slow: {q!r}": t * 1000 for t, q in slow})
    return times, detail


# -- the server ---------------------------------------------------------------------------------------------
def server_cpu(master: int) -> float:
    """CPU seconds used so far by the workers of a gunicorn master (user + system), including workers
    that ended (``max_requests`` restarts them) and were reaped by the master."""
    import psutil

    proc = psutil.Process(master)
    t = proc.cpu_times()
    total = t.children_user + t.children_system
    for child in proc.children(recursive=True):
        with contextlib.suppress(psutil.Error):
            c = child.cpu_times()
            total += c.user + c.system
    return total


def workers_up(master: int, workers: int, wait: float = 30.0) -> None:
    """Wait until a gunicorn master has forked its workers (the first may answer /health before the second is up)."""
    import psutil

    deadline = time.monotonic() + wait
    while len(psutil.Process(master).children()) < workers and time.monotonic() < deadline:
        time.sleep(0.05)


def server_memory(master: int) -> dict[str, float]:
    """Memory of a gunicorn master and its workers, MB: RSS (mapped file pages counted in every process), PSS (shared
    pages divided among the processes that map them) and USS (pages only one process has), each summed."""
    import psutil

    procs = [psutil.Process(master)]
    procs += procs[0].children(recursive=True)
    out = {"processes": float(len(procs)), "rss": 0.0, "pss": 0.0, "uss": 0.0}
    for proc in procs:
        with contextlib.suppress(psutil.Error):
            info = proc.memory_full_info()
            out["rss"] += info.rss / 2**20
            out["pss"] += info.pss / 2**20
            out["uss"] += info.uss / 2**20
    return out


def find_callback(deps: list[dict[str, Any]], input_key: str, output_part: str) -> dict[str, Any]:
    for cb in deps:
        keys = [f"{d['id']}.{d['property']}" for d in cb.get("inputs", [])]
        if keys == [input_key] and output_part in cb.get("output", ""):
            return cb
    raise SystemExit(f"no callback with input {input_key} and output {output_part} in /_dash-dependencies")


def heavy_views(store: Any, per_layout: int) -> dict[str, list[str]]:
    """Per layout, ``per_layout`` of the most expensive views a URL can ask for: three of the most cited papers as
    seeds with the largest limit (the 5,000-node cap), no two views sharing a paper (nothing cached helps)."""
    top = store.ids(np.argsort(-store.in_cited, kind="stable")[: HEAVY_SEEDS * per_layout * len(LAYOUT_NAMES)])
    out: dict[str, list[str]] = {}
    for n, layout in enumerate(LAYOUT_NAMES):
        out[layout] = []
        for k in range(per_layout):
            at = (n * per_layout + k) * HEAVY_SEEDS
            out[layout].append(f"/graph?seeds={','.join(top[at : at + HEAVY_SEEDS])}&limit=3000&layout={layout}")
    return out


def seed_views(store: Any, per_count: int, skip: int) -> dict[str, list[str]]:
    """Per N of SEED_COUNTS, ``per_count`` force views (limit 3000) of N seeds each, the most cited papers in turn
    after the ``skip`` most cited (those of the heaviest views), no paper in two views (nothing cached helps)."""
    need = skip + per_count * sum(SEED_COUNTS)
    top = store.ids(np.argsort(-store.in_cited, kind="stable")[:need])
    out: dict[str, list[str]] = {}
    at = skip
    for n in SEED_COUNTS:
        out[f"{n} seeds"] = []
        for _ in range(per_count):
            out[f"{n} seeds"].append(f"/graph?seeds={','.join(top[at : at + n])}&limit=3000&layout=force")
            at += n
    return out


def discovery_paths(store: Any, rng: np.random.Generator, n: int) -> dict[str, list[str]]:
    """Distinct /graph requests of each discovery kind: the similarity map of the most cited paper (each with
    another limit), paths between random pairs of cited papers, clusters of 5,000-paper views (as heavy_views,
    other seeds)."""
    top = store.ids(np.argsort(-store.in_cited, kind="stable")[: HEAVY_SEEDS * n])
    cited = np.flatnonzero(store.in_cited > 0)
    ends = store.ids(rng.choice(cited, size=2 * n, replace=False))
    return {
        "similar": [f"/graph?seeds={top[0]}&mode=similar&limit={40 + k}" for k in range(n)],
        "path": [f"/graph?seeds={top[0]}&path={ends[2 * k]},{ends[2 * k + 1]}" for k in range(n)],
        # the concentric layout (the cheapest): what is measured is mostly the clustering
        "clusters": [
            f"/graph?seeds={','.join(top[HEAVY_SEEDS * k : HEAVY_SEEDS * (k + 1)])}&limit=3000"
            "&color=cluster&layout=concentric"
            for k in range(min(n, 12))
        ],
    }


def measure_prior_derivative(store: Any, rng: np.random.Generator, n: int) -> list[float]:
    """Seconds of the prior and derivative works of ``n`` views of about 300 papers (a paper's references and
    citers, 150 of each), in process: the panel's server-side work."""
    from dashboard.graph.similarity import prior_derivative

    rows = np.flatnonzero((store.in_cited >= 150) & (np.diff(store.arrays["ref_offsets"]) >= 20))
    times = []
    for r in rng.choice(rows, size=min(n, len(rows)), replace=False).tolist():
        view = np.unique(np.concatenate([[r], store.references(r, 150), store.citers(r, 150)]))
        t = time.perf_counter()
        prior_derivative(store, view, k=10)
        times.append(time.perf_counter() - t)
    return times


def cold_views(
    port: int, noop_req: bytes, groups: dict[str, list[str]], prefix: str, extra: dict[str, Any]
) -> tuple[dict[str, list[float]], list[float]]:
    """Each group's GET paths, each once (cold): the first checked and its node count kept in ``extra``
    (``<prefix><group>_nodes_first``), the others timed, each after a no-op round trip that is timed too.
    Returns the times by group and the no-op times."""
    times: dict[str, list[float]] = {}
    noop: list[float] = []
    for name, paths in groups.items():
        status, body = loadgen.send(HOST, port, loadgen.get_request(HOST, port, paths[0]))
        assert status == 200, body[:300]
        extra[f"{prefix}{name}_nodes_first"] = len(json.loads(body)["nodes"])
        times[name] = []
        for path in paths[1:]:
            noop.append(loadgen.timed(HOST, port, noop_req))
            times[name].append(loadgen.timed(HOST, port, loadgen.get_request(HOST, port, path)))
    return times, noop


def measure_http(
    size: str,
    folder: Path,
    store: Any,
    pairs: list[tuple[str, str]],
    queries: list[str],
    search_median_ms: float,
    n: int,
    load_seconds: float,
) -> tuple[list[Row], dict[str, Any]]:
    import requests

    extra: dict[str, Any] = {}
    # CITEMAP_BENCH_PING: the app with the no-op callback that every HTTP figure is measured against
    bench_app = {"CITEMAP_BENCH_PING": "1"}
    with common.gunicorn(folder, OUT / f"gunicorn-{size}.log", env=bench_app) as (gunicorn, ready_s):
        port, master = gunicorn.port, gunicorn.proc.pid
        base = gunicorn.url
        extra["server_ready_s"] = ready_s
        workers_up(master, 2)
        extra["server_memory_ready_mb"] = server_memory(master)
        log(
            f"[{size}] gunicorn answered /health {ready_s:.2f} s after it was started (imports, Store.load, the app, "
            f"a worker forked); memory of its {extra['server_memory_ready_mb']['processes']:.0f} processes: "
            + ", ".join(
                f"{k.upper()} {v:,.0f} MB" for k, v in extra["server_memory_ready_mb"].items() if k != "processes"
            )
        )
        health = requests.get(f"{base}/health", timeout=10).json()
        if health.get("papers") != store.n:
            raise SystemExit(f"the server serves {health} instead of {folder}")
        deps = requests.get(f"{base}/_dash-dependencies", timeout=30).json()
        pong = find_callback(deps, "store-ping.data", "store-pong.data")
        suggest = find_callback(deps, "input-search.value", "div-search-results.children")
        path = "/_dash-update-component"
        noop_req = loadgen.post_request(HOST, port, path, common.dash_payload(pong, {"store-ping.data": 1}))
        # what the browser fetches after an expand: the new view's graph (dashboard/web/app.py, GET /graph)
        expand_reqs = [loadgen.get_request(HOST, port, f"/graph?seeds={s}&expand={p}") for s, p in pairs]
        search_reqs = [
            loadgen.post_request(HOST, port, path, common.dash_payload(suggest, {"input-search.value": q}))
            for q in queries
        ]

        # check that the requests do what they should, once
        status, body = loadgen.send(HOST, port, noop_req)
        assert status == 200 and json.loads(body)["response"]["store-pong"]["data"] == 1, body[:300]
        status, body = loadgen.send(HOST, port, expand_reqs[0])
        assert status == 200, body[:300]
        graph = json.loads(body)
        node_ids = [n["id"] for n in payload_nodes(graph)]
        nodes = len(node_ids)
        extra["expand_nodes_first"] = nodes
        extra["expand_bytes_first"] = len(body)
        if nodes < 100 or pairs[0][1] not in node_ids:
            raise SystemExit(f"the expand request shows {nodes} nodes; expected about 300")
        status, body = loadgen.send(HOST, port, search_reqs[0])
        assert status == 200 and b"search-item" in body, body[:300]

        # warm-up: both workers busy (2 concurrent connections), every kind of request
        warm = len(pairs) - 1
        loadgen.parallel(lambda i: loadgen.timed(HOST, port, noop_req), 60, 2)
        loadgen.parallel(lambda i: loadgen.timed(HOST, port, expand_reqs[warm - i]), 20, 2)
        loadgen.parallel(lambda i: loadgen.timed(HOST, port, search_reqs[-1 - i]), 20, 2)

        # sequential round trips, interleaved so that drift hits all kinds alike; a different P each time
        noop_t, expand_t, search_t = [], [], []
        for i in range(n):
            noop_t.append(loadgen.timed(HOST, port, noop_req))
            expand_t.append(loadgen.timed(HOST, port, expand_reqs[i % len(expand_reqs)]))
            search_t.append(loadgen.timed(HOST, port, search_reqs[i % len(search_reqs)]))
        ms = 1000.0
        noop_med, expand_med, search_med = (statistics.median(v) * ms for v in (noop_t, expand_t, search_t))
        log(
            f"[{size}] sequential ({n} each): no-op {noop_med:.2f} ms (p90 {percentile(noop_t, 0.9) * ms:.2f}), expand "
            f"{expand_med:.2f} ms (p90 {percentile(expand_t, 0.9) * ms:.2f}), search {search_med:.2f} ms"
        )

        # the heaviest views, each once (cold), interleaved with no-op round trips
        prior_t = measure_prior_derivative(store, np.random.default_rng(SEED), 60)
        per_layout = 3 if n < 100 else 6
        heavy, heavy_noop = cold_views(port, noop_req, heavy_views(store, per_layout), "heaviest_", extra)
        heavy_noop_med = statistics.median(heavy_noop) * ms
        skip = HEAVY_SEEDS * per_layout * len(LAYOUT_NAMES)
        by_seeds, seeds_noop = cold_views(port, noop_req, seed_views(store, 3 if n < 100 else 4, skip), "seeds_", extra)
        seeds_noop_med = statistics.median(seeds_noop) * ms

        # discovery: similarity maps, paths, clusters over HTTP (cold, distinct), interleaved with no-op round trips
        found, found_noop = cold_views(
            port, noop_req, discovery_paths(store, np.random.default_rng(SEED), DISCOVERY_N), "", extra
        )
        found_noop_med = statistics.median(found_noop) * ms
        log(
            f"[{size}] discovery (ms, median): no-op {found_noop_med:.2f}; "
            + "; ".join(
                f"{k} {statistics.median(v) * ms:.1f} ({extra[f'{k}_nodes_first']:,} nodes)" for k, v in found.items()
            )
        )
        log(
            f"[{size}] heaviest views (ms, each once): no-op {heavy_noop_med:.2f}; "
            + "; ".join(
                f"{k} {', '.join(f'{t * ms:.0f}' for t in v)} ({extra[f'heaviest_{k}_nodes_first']:,} nodes)"
                for k, v in heavy.items()
            )
        )

        # bounded load: 8 connections for load_seconds, no-op then expand
        cpu: dict[str, float] = {}
        loads: dict[str, loadgen.LoadResult] = {}
        for name, reqs in (("no-op", [noop_req]), ("expand", expand_reqs)):
            time.sleep(0.5)
            cpu0 = server_cpu(master)
            res = loads[name] = loadgen.load(
                HOST, port, reqs, connections=8, seconds=load_seconds, max_requests=200_000
            )
            cpu[name] = (server_cpu(master) - cpu0) / max(res.done, 1) * ms
            log(
                f"[{size}] load {name}: {res.done:,} in {res.seconds:.1f} s = {res.rate:,.0f}/s, {res.errors} errors"
                + (f" ({res.first_error[:200]})" if res.errors else "")
                + (f", median {statistics.median(res.latencies) * ms:.1f} ms" if res.latencies else "")
                + f", server CPU {cpu[name]:.2f} ms a request"
            )
            if res.errors:
                raise SystemExit(f"{res.errors} failed requests under load: {res.first_error[:300]}")
        mem = extra["server_memory_loaded_mb"] = server_memory(master)
        log(
            f"[{size}] memory of the server's {mem['processes']:.0f} processes after the load: "
            + ", ".join(f"{k.upper()} {v:,.0f} MB" for k, v in mem.items() if k != "processes")
        )
        noop_load, expand_load = loads["no-op"], loads["expand"]
        extra.update(
            noop_p90_ms=percentile(noop_t, 0.9) * ms,
            expand_p90_ms=percentile(expand_t, 0.9) * ms,
            expand_rate=expand_load.rate,
            noop_rate=noop_load.rate,
            expand_load_median_ms=statistics.median(expand_load.latencies) * ms,
            noop_load_median_ms=statistics.median(noop_load.latencies) * ms,
            noop_cpu_ms=cpu["no-op"],
            expand_cpu_ms=cpu["expand"],
        )
    rows = [
        Row(
            size,
            "expand latency median",
            expand_med,
            noop_med,
            "ms",
            "no-op callback round trip",
            f"{len(pairs)} distinct ?seeds=S&expand=P, {n} sequential requests",
        ),
        Row(
            size, "expand latency p90", percentile(expand_t, 0.9) * ms, percentile(noop_t, 0.9) * ms, "ms", "no-op p90"
        ),
        Row(
            size,
            "search median",
            search_median_ms,
            noop_med,
            "ms",
            "no-op callback round trip",
            f"Store.search in process, {len(queries)} partial queries",
        ),
        Row(
            size,
            "search callback median",
            search_med,
            noop_med,
            "ms",
            "no-op callback round trip",
            "suggestions over HTTP",
        ),
        Row(
            size,
            "expand throughput",
            expand_load.rate,
            noop_load.rate,
            "/s",
            "no-op requests/s",
            f"8 connections, {load_seconds:g} s each",
        ),
        *(
            Row(
                size,
                f"heaviest view {layout}",
                statistics.median(times) * ms,
                heavy_noop_med,
                "ms",
                "no-op callback round trip",
                f"{len(times)} distinct views of 3 most cited seeds, limit 3000, "
                f"{extra[f'heaviest_{layout}_nodes_first']:,} nodes",
            )
            for layout, times in heavy.items()
        ),
        *(
            Row(
                size,
                f"view of {name} (force)",
                statistics.median(times) * ms,
                seeds_noop_med,
                "ms",
                "no-op callback round trip",
                f"{len(times)} distinct views of the {name.split()[0]} most cited papers not used before, limit 3000, "
                f"{extra[f'seeds_{name}_nodes_first']:,} nodes",
            )
            for name, times in by_seeds.items()
        ),
        Row(
            size,
            "similarity map (most cited)",
            statistics.median(found["similar"]) * ms,
            found_noop_med,
            "ms",
            "no-op callback round trip",
            f"GET /graph ?mode=similar, most cited paper, limit 40-{39 + DISCOVERY_N}",
        ),
        Row(
            size,
            "path between two papers",
            statistics.median(found["path"]) * ms,
            found_noop_med,
            "ms",
            "no-op callback round trip",
            f"GET /graph ?path=A,B, {DISCOVERY_N - 1} random pairs of cited papers",
        ),
        Row(
            size,
            "prior/derivative (300 papers)",
            statistics.median(prior_t) * ms,
            noop_med,
            "ms",
            "no-op callback round trip",
            f"in process, {len(prior_t)} views of a paper's 150 references + 150 citers",
        ),
        Row(
            size,
            "clusters (5,000 papers)",
            statistics.median(found["clusters"]) * ms,
            found_noop_med,
            "ms",
            "no-op callback round trip",
            "GET /graph ?color=cluster&layout=concentric of the heaviest views' size, "
            f"{extra['clusters_nodes_first']:,} nodes",
        ),
    ]
    if size in BIG_SIZES:  # what serving the big graph costs, absolute: no baseline fits
        nan = math.nan
        rows += [
            Row(
                size,
                "server start-up",
                ready_s,
                nan,
                "s",
                "",
                "gunicorn started -> /health answered: imports, Store.load, the app, a worker forked",
            ),
            Row(
                size,
                "server memory after the load (PSS)",
                mem["pss"],
                nan,
                "MB",
                "",
                f"master + workers, shared mapped pages divided among them; RSS summed {mem['rss']:,.0f} MB, "
                f"USS {mem['uss']:,.0f} MB",
            ),
        ]
    return rows, extra


# -- clusters per map against the whole dataset's (--clusters) ------------------------------------------------------
def measure_clusters(data: Path, rounds: int) -> int:
    """Leiden and the names of a 5,000-paper map (the three most cited papers, limit 3000: the view cap), median of
    ``rounds`` runs, against Leiden on every citation of the dataset, once; printed with their ratio."""
    import resource

    from dashboard.dataset.store import Store
    from dashboard.graph import clusters
    from dashboard.graph.discovery import subgraph
    from dashboard.graph.state import ViewState

    def peak_mb() -> float:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    store = Store.load(data)
    top = store.ids(np.argsort(-store.in_cited, kind="stable")[:3])
    sub = subgraph(store, ViewState(tuple(top), limit=3000))
    rows = np.asarray(sub.layout_rows, dtype=np.int64)
    i, j = store.edge_positions(rows)
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        _, names = clusters.clusters_of(store, rows, i, j)
        times.append(time.perf_counter() - t)
    view_s = statistics.median(times)
    print(
        f"per map:       {len(rows):,} papers, {len(i):,} citations: {view_s * 1000:.0f} ms "
        f"(median of {rounds}), {len(names)} named clusters"
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
    columns = ["dataset", "per map", "whole dataset", "peak memory of the whole", "ratio"]
    table_rows = [
        [
            f"{store.n:,} papers, {len(dst):,} citations",
            f"{view_s * 1000:.0f} ms",
            f"{whole_s:.1f} s",
            f"+{grown:,.0f} MB",
            f"{whole_s / view_s:,.0f}x",
        ]
    ]
    print(common.markdown(columns, table_rows))
    common.write_results(
        "clusters", columns, table_rows, f"ratio whole / per map: {whole_s / view_s:,.0f}x", data=str(data)
    )
    return 0


# -- output --------------------------------------------------------------------------------------------------
def fmt(value: float, unit: str) -> str:
    if math.isnan(value):
        return "-"
    if unit == "s":
        return f"{value:.3f} s" if value < 10 else f"{value:.1f} s"
    if unit == "ms":
        return f"{value:.2f} ms"
    if unit == "MB":
        return f"{value:,.0f} MB"
    if unit == "x":  # a ratio of lengths
        return f"{value:.3f}"
    return f"{value:,.0f}/s"


TABLE_COLUMNS = ["size", "measure", "citemap", "baseline", "ratio", "target", "result"]


def cells(rows: list[Row]) -> list[list[str]]:
    """The table's rows, as printed."""
    return [
        [
            r.size,
            r.measure,
            fmt(r.citemap, r.unit),
            fmt(r.baseline, r.unit),
            "-" if math.isnan(r.ratio) else f"{r.ratio:.3g}",
            r.target,
            "" if r.ok is None else ("PASS" if r.ok else "FAIL"),
        ]
        for r in rows
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--sizes",
        default=None,
        help=f"comma-separated, of {', '.join(SIZES)}, {DEFAULT_DATA} (the default dataset) "
        f"(default: {DEFAULT_SIZES}; with --quick: small; huge only when asked for)",
    )
    ap.add_argument("--quick", action="store_true", help="smoke run: fewer requests, 5 s of load")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument(
        "--clusters",
        action="store_true",
        help="instead: clusters per map against the whole dataset's, on --data, in this process",
    )
    ap.add_argument(
        "--field-view",
        action="store_true",
        help="only the field view's answers (GET /field against GET /graph) of each size, in a fresh process",
    )
    ap.add_argument(
        "--typos",
        action="store_true",
        help="only the search with a typo against the same words typed right, of each size, in this process",
    )
    ap.add_argument("--data", type=Path, help="--clusters: the dataset folder (default: the default dataset)")
    ap.add_argument("--rounds", type=int, default=5, help="--clusters: runs of the per-map clustering (median)")
    args = ap.parse_args(argv)
    if args.clusters:
        return measure_clusters(args.data or common.default_data(), args.rounds)
    sizes = (args.sizes or ("small" if args.quick else DEFAULT_SIZES)).split(",")
    bad = [s for s in sizes if s not in SIZES and s != DEFAULT_DATA]
    if bad:
        ap.error(f"unknown size(s) {bad}; choose from {', '.join(SIZES)}")
    n_seq = 40 if args.quick else 200
    n_search = 100 if args.quick else 300
    load_seconds = 5.0 if args.quick else 20.0
    repeats = 1 if args.quick else 3

    common.guard()
    OUT.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    rows: list[Row] = []
    extras: dict[str, Any] = {}
    from dashboard.dataset.store import Store

    try:
        folders = {
            size: common.default_data() if size == DEFAULT_DATA else ensure_dataset(size, *SIZES[size], args.seed)
            for size in sizes
        }
        for size in sizes:
            folder = folders[size]
            if args.field_view:
                rows += measure_field_view(size, folder)
                continue
            if args.typos:
                rows.append(typo_row(size, Store.load(folder), np.random.default_rng(args.seed), n_search))
                continue
            if size in BIG_SIZES:
                rows += generation_rows(size, folder)
                rows += measure_startup_big(size, folder, repeats)
            else:
                rows += measure_startup(size, folder, repeats)
            rows += measure_field(size, folder)
            rows += measure_field_view(size, folder)
            store = Store.load(folder)
            rng = np.random.default_rng(args.seed)
            pairs, used_range = expand_pool(store, rng)
            log(f"[{size}] expand pool: {len(pairs)} papers with {used_range[0]}-{used_range[1]} references + citers")
            if len(pairs) < POOL_MIN:
                log(f"[{size}] warning: fewer than {POOL_MIN} distinct expand queries; the view cache may help")
            queries = search_queries(store, rng, n_search)
            search_t, by_len = measure_search_inprocess(store, queries)
            search_ms = statistics.median(search_t) * 1000
            log(
                f"[{size}] Store.search: median {search_ms:.2f} ms, p90 {percentile(search_t, 0.9) * 1000:.2f} ms, "
                f"max {max(search_t) * 1000:.1f} ms; median by length of the last word: "
                + ", ".join(f"{k.split()[2]}: {v:.2f}" for k, v in by_len.items() if k.startswith("last"))
                + "; slowest: "
                + ", ".join(f"{k[6:]} {v:.1f} ms" for k, v in by_len.items() if k.startswith("slow"))
            )
            rows.append(typo_row(size, store, rng, n_search))
            http_rows, extra = measure_http(size, folder, store, pairs, queries, search_ms, n_seq, load_seconds)
            rows += http_rows
            extras[size] = {
                "pool": len(pairs),
                "pool_range": used_range,
                "search_p90_ms": percentile(search_t, 0.9) * 1000,
                "search_by_last_word_ms": by_len,
                **extra,
            }
            del store
            gc.collect()
    except KeyboardInterrupt:
        log("interrupted")
        common.stop_all()
        return 130
    finally:
        common.stop_all()
    elapsed = time.perf_counter() - started
    print(common.markdown(TABLE_COLUMNS, cells(rows)))
    failed = [r for r in rows if r.ok is False]
    skipped = {size: SKIPPED[size] for size in sizes if SKIPPED.get(size)}
    for size, why in skipped.items():
        for what, reason in why.items():
            print(f"skipped ({size}): {what}: {reason}")
    verdict = (
        f"{sum(r.ok is True for r in rows)} targets met, {len(failed)} missed; ratio = citemap / baseline; "
        f"{elapsed:.0f} s on {machine()}"
    )
    print(f"\n{verdict}")
    name = (
        "-".join(sizes)
        + ("-quick" if args.quick else "")
        + ("-field-view" if args.field_view else "")
        + ("-typos" if args.typos else "")
    )
    path = common.write_results(
        name,
        TABLE_COLUMNS,
        cells(rows),
        verdict,
        seconds=elapsed,
        quick=args.quick,
        seed=args.seed,
        skipped=skipped,
        generated=GENERATED,
        measures=[{**asdict(r), "ratio": r.ratio, "target": r.target, "ok": r.ok} for r in rows],
        extra=extras,
    )
    print(f"details: {path}, server logs: {OUT}/gunicorn-<size>.log")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
