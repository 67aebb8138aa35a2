"""Positions of every paper of a dataset on one map (the field view): plain arrays in (the CSR reference and citer
lists of the index), an ``(n, 2)`` float32 array out. Papers that cite each other sit close.

The method is a neighbour embedding of the citation graph, taken as undirected, compiled with numba:

1. **Start**: two random columns smoothed by a lazy random walk on the graph (each step: half the old value, half
   the mean over the neighbours), kept centred and orthonormal (Gram-Schmidt) after each step. This is orthogonal
   iteration towards the graph's smoothest non-constant vectors, a spectral layout, at the cost of a few sparse
   products; unlike an eigensolver it needs no care with a graph of many components.
2. **Refinement**: epochs of attraction along every citation and repulsion from uniformly drawn papers
   (negative sampling, as in UMAP and LargeVis), with the Cauchy kernel of t-SNE: ``-2 d / (1 + |d|^2)`` along an
   edge, ``2 d / ((eps + |d|^2) (1 + |d|^2))`` from a sampled paper, each clipped (one paper drawn per neighbour,
   its push counted twice). Each epoch moves a paper by the mean of its forces (positions fixed during the epoch),
   with a step that falls linearly to zero. The Cauchy
   kernel's heavy tail pulls communities into tight groups and keeps them apart, which a Fruchterman-Reingold
   layout (uniform density) does not.

Each paper gathers its own forces from its neighbour lists, so the papers are shared among threads (numba's
``prange``) with no write another thread makes. Random draws are a hash of (seed, epoch, paper, draw), not a
stream: a paper's draws do not depend on which thread ran it or in what order. Positions are fixed during an
epoch and each paper's forces are summed in its lists' order, so the same graph gives the same positions in every
run, whatever the number of threads.

A graph with more than ``EDGE_SAMPLE`` directed edges uses a sample of about that many per epoch: each paper takes
a run of its neighbours from a drawn start, as long as its share of the sample (one at least in the start's
smoothing steps), over ``SAMPLED_EPOCHS`` epochs instead of ``EPOCHS``. Work is a constant times ``EDGE_SAMPLE``
per epoch (and a number of papers per smoothing step); memory is a few numbers a paper beyond the lists, which are
read where they are (memory maps).

Papers without a citation inside the dataset get no force; they are put on a ring just outside the map, evenly
spaced, in row order.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import numba
import numpy as np

log = logging.getLogger(__name__)
# numba's own thread pool, not OpenMP's: OpenMP's threads spin while they wait for each other, and on a machine
# whose cores are busy with other work a layout then took many times as long, most of it spinning
numba.config.THREADING_LAYER = "workqueue"

SEED = 1
SMOOTH_STEPS = 30  # lazy random-walk steps of the start
EPOCHS = 40  # refinement epochs
SAMPLED_EPOCHS = 60  # refinement epochs when each takes a sample of the edges (each sees fewer neighbours)
NEGATIVES = 1  # papers drawn to repel, per neighbour taken and epoch
PUSH = 2.0  # weight of a drawn paper's push: the mean force of two draws, at the work of one
EPS = 1e-3  # keeps the repulsion of two papers on one spot finite
CLIP = 4.0  # largest force component of one pair
START_SPAN = 10.0  # the start's largest coordinate
JITTER = 1e-3  # noise added to the start, a share of START_SPAN
EDGE_SAMPLE = 8_000_000  # directed edges an epoch uses at most
RATIO_PAIRS = 200_000  # random pairs (and citations, at most) the quality ratio measures

Progress = Callable[[float], None]  # told the share of the work done, 0..1


def edges_of(offsets: np.ndarray, targets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(citing rows, cited rows) of a CSR list (``targets[offsets[r]:offsets[r+1]]`` are the rows row ``r``
    cites), as int32 arrays."""
    n = len(offsets) - 1
    src = np.repeat(np.arange(n, dtype=np.int32), np.diff(np.asarray(offsets)).astype(np.int64))
    return src, np.asarray(targets, dtype=np.int32)


def csr_of(n: int, owner: np.ndarray, other: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The CSR list of ``other`` grouped by ``owner`` (stable): (offsets, int64 ``n + 1``; values, int32)."""
    order = np.argsort(owner, kind="stable")
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(owner, minlength=n), out=offsets[1:])
    return offsets, np.asarray(other, dtype=np.int32)[order]


def field_layout(
    ref_offsets: np.ndarray,
    ref_targets: np.ndarray,
    cit_offsets: np.ndarray | None = None,
    cit_sources: np.ndarray | None = None,
    seed: int = SEED,
    progress: Progress | None = None,
) -> np.ndarray:
    """Positions (float32, ``(n, 2)``, centred) of the ``n`` papers of CSR reference lists (``ref_offsets``: n + 1
    ints; ``ref_targets``: rows) and their citer lists (the same citations the other way; made from the references
    when not given), see the module's docstring. ``progress`` is told the share done as the work goes."""
    ref_offsets, ref_targets = np.asarray(ref_offsets, dtype=np.int64), np.asarray(ref_targets, dtype=np.int32)
    n = len(ref_offsets) - 1
    if cit_offsets is None or cit_sources is None:
        src, dst = edges_of(ref_offsets, ref_targets)
        cit_offsets, cit_sources = csr_of(n, dst, src)
        del src, dst
    return _layout(
        n,
        (ref_offsets, ref_targets, np.asarray(cit_offsets, dtype=np.int64), np.asarray(cit_sources, dtype=np.int32)),
        seed,
        progress,
    )


def layout_edges(
    n: int, src: np.ndarray, dst: np.ndarray, seed: int = SEED, progress: Progress | None = None
) -> np.ndarray:
    """:func:`field_layout` of ``n`` papers and the citations ``src[k] -> dst[k]`` (rows; a paper citing itself is
    left out)."""
    src, dst = np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64)
    keep = src != dst
    src, dst = src[keep], dst[keep]
    return _layout(n, (*csr_of(n, src, dst), *csr_of(n, dst, src)), seed, progress)


Lists = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]  # ref offsets, ref targets, cit offsets, cit sources


def _layout(n: int, lists: Lists, seed: int, progress: Progress | None) -> np.ndarray:
    started = time.perf_counter()
    xy = np.zeros((n, 2), dtype=np.float32)
    done = progress or (lambda share: None)
    if n == 0:
        done(1.0)
        return xy
    ro, rt, co, cs = lists
    degree = _degrees(ro, rt, co, cs)
    linked = np.flatnonzero(degree > 0).astype(np.int32)
    edges = int(degree.sum())  # directed edge ends: each citation twice
    rng = np.random.default_rng(seed)
    if len(linked):
        share = min(1.0, EDGE_SAMPLE / max(edges, 1))  # of each paper's neighbours, taken per step
        epochs = EPOCHS if share >= 1.0 else SAMPLED_EPOCHS
        steps = SMOOTH_STEPS + epochs
        pos = _start(n, linked, lists, share, seed, rng, lambda k: done(k / steps))
        pos = _refine(pos, linked, lists, degree, share, epochs, seed, lambda k: done((SMOOTH_STEPS + k) / steps))
        at = pos[linked]
        xy[linked] = at - at.mean(axis=0)
    alone = np.flatnonzero(degree == 0)
    if len(alone):
        radius = float(np.hypot(*xy[linked].T).max()) * 1.05 if len(linked) else 1.0
        angle = 2 * np.pi * np.arange(len(alone)) / len(alone)
        xy[alone] = np.column_stack([np.cos(angle), np.sin(angle)]).astype(np.float32) * max(radius, 1.0)
    done(1.0)
    log.info(
        "field layout: %d papers (%d without a citation), %d citations in %.1f s",
        n,
        len(alone),
        edges // 2,
        time.perf_counter() - started,
    )
    return xy


@numba.njit(cache=True, parallel=True)
def _degrees(ro: np.ndarray, rt: np.ndarray, co: np.ndarray, cs: np.ndarray) -> np.ndarray:
    """Each paper's references and citers, a paper citing itself left out."""
    n = len(ro) - 1
    out = np.zeros(n, dtype=np.int64)
    for v in numba.prange(n):
        d = 0
        for k in range(ro[v], ro[v + 1]):
            d += rt[k] != v
        for k in range(co[v], co[v + 1]):
            d += cs[k] != v
        out[v] = d
    return out


@numba.njit(cache=True, parallel=True)
def _mean_over_neighbours(
    x: np.ndarray,
    linked: np.ndarray,
    ro: np.ndarray,
    rt: np.ndarray,
    co: np.ndarray,
    cs: np.ndarray,
    share: float,
    seed: np.uint64,
    step: np.uint64,
) -> np.ndarray:
    """Each linked paper's mean of ``x`` (float64, ``(n, 2)``, by row) over its neighbours, by linked place: all of
    them, or (``share`` < 1) a run of them as long as that share of them (one at least), from a drawn start."""
    m = len(linked)
    out = np.zeros((m, 2))
    golden = np.uint64(0x9E3779B97F4A7C15)
    base = _mix(seed * golden + step + np.uint64(1 << 32))  # draws of their own, apart from the epochs'
    for p in numba.prange(m):
        v = linked[p]
        refs = ro[v + 1] - ro[v]
        total = refs + co[v + 1] - co[v]
        take, first = _run_of(total, share, _mix(base ^ (np.uint64(v) * golden)))
        take = max(take, 1)
        a = 0.0
        b = 0.0
        d = 0
        for k in range(take):
            at = first + k
            if at >= total:
                at -= total
            u = rt[ro[v] + at] if at < refs else cs[co[v] + at - refs]
            if u != v:
                a += x[u, 0]
                b += x[u, 1]
                d += 1
        if d:
            out[p, 0] = a / d
            out[p, 1] = b / d
        else:  # only itself taken: it stays where it is
            out[p, 0] = x[v, 0]
            out[p, 1] = x[v, 1]
    return out


@numba.njit(inline="always")
def _run_of(total: np.int64, share: float, key: np.uint64) -> tuple[np.int64, np.int64]:
    """How many of a paper's ``total`` neighbours to take and from where: all from the first, or a ``share`` of
    them (the fraction left over taken as one more that often) from a drawn place."""
    if share >= 1.0:
        return total, np.int64(0)
    want = total * share
    take = np.int64(want)
    if (_mix(key + np.uint64(1)) >> np.uint64(11)) * (1.0 / 9007199254740992.0) < want - take:
        take += 1
    return min(take, total), _below(_mix(key + np.uint64(2)), total)


def _orthonormal(x: np.ndarray) -> np.ndarray:
    """The two columns of ``x`` centred, orthogonal and of unit length (Gram-Schmidt with numpy's pairwise sums,
    not BLAS: the same in every process)."""
    x = x - x.mean(axis=0)
    a = x[:, 0] / max(np.sqrt(np.sum(x[:, 0] * x[:, 0])), 1e-300)
    b = x[:, 1] - np.sum(a * x[:, 1]) * a
    b = b / max(np.sqrt(np.sum(b * b)), 1e-300)
    return np.column_stack([a, b])


def _start(
    n: int,
    linked: np.ndarray,
    lists: Lists,
    share: float,
    seed: int,
    rng: np.random.Generator,
    step: Callable,
) -> np.ndarray:
    """The start (float32, ``(n, 2)`` by row; rows without a citation stay 0): random columns smoothed by
    ``SMOOTH_STEPS`` lazy random-walk steps, scaled to ``START_SPAN``."""
    m = len(linked)
    full = np.zeros((n, 2))
    x = _orthonormal(rng.standard_normal((m, 2)))
    for k in range(SMOOTH_STEPS):
        full[linked] = x
        mean = _mean_over_neighbours(full, linked, *lists, share, np.uint64(seed), np.uint64(k))
        x = _orthonormal(0.5 * x + 0.5 * mean)
        step(k + 1)
    del full
    span = float(np.abs(x).max())
    x = x * (START_SPAN / span if span > 0 else 1.0)
    # a little noise: papers the smoothing put on one spot (a lone pair of papers, say) repel each other
    x += rng.standard_normal((m, 2)) * (JITTER * START_SPAN)
    pos = np.zeros((n, 2), dtype=np.float32)
    pos[linked] = x
    return pos


def _refine(
    pos: np.ndarray,
    linked: np.ndarray,
    lists: Lists,
    degree: np.ndarray,
    share: float,
    epochs: int,
    seed: int,
    step: Callable,
) -> np.ndarray:
    """``epochs`` epochs of attraction along the edges and repulsion from sampled papers (module docstring)."""
    new = pos.copy()
    for epoch in range(epochs):
        _epoch(pos, new, linked, *lists, degree, share, 1.0 - epoch / epochs, np.uint64(seed), np.uint64(epoch))
        pos, new = new, pos
        step(epoch + 1)
    return pos


@numba.njit(inline="always")
def _mix(z: np.uint64) -> np.uint64:
    """splitmix64's finaliser: a well-spread 64-bit hash of ``z``."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@numba.njit(inline="always")
def _below(z: np.uint64, k: np.int64) -> np.int64:
    """A number in ``0..k-1`` from the hash ``z`` (its high 32 bits scaled, no division; ``k`` < 2**32)."""
    return np.int64(((z >> np.uint64(32)) * np.uint64(k)) >> np.uint64(32))


@numba.njit(inline="always")
def _pull(dx: float, dy: float, attract: bool) -> tuple[float, float]:
    """The pull (``attract``) or the push of a pair whose difference is (dx, dy), clipped."""
    d2 = dx * dx + dy * dy
    scale = -2.0 / (1.0 + d2) if attract else 2.0 / ((EPS + d2) * (1.0 + d2))
    return min(max(dx * scale, -CLIP), CLIP), min(max(dy * scale, -CLIP), CLIP)


@numba.njit(cache=True, parallel=True)
def _epoch(
    pos: np.ndarray,
    new: np.ndarray,
    linked: np.ndarray,
    ro: np.ndarray,
    rt: np.ndarray,
    co: np.ndarray,
    cs: np.ndarray,
    degree: np.ndarray,
    share: float,
    step: float,
    seed: np.uint64,
    epoch: np.uint64,
) -> None:
    """One epoch: ``new`` = ``pos`` moved by the mean of each linked paper's forces times ``step``."""
    m = len(linked)
    golden = np.uint64(0x9E3779B97F4A7C15)
    base = _mix(seed * golden + epoch)
    for p in numba.prange(m):
        v = linked[p]
        d = degree[v]
        x = pos[v, 0]
        y = pos[v, 1]
        fx = 0.0
        fy = 0.0
        key = _mix(base ^ (np.uint64(v) * golden))
        refs = ro[v + 1] - ro[v]
        total = refs + co[v + 1] - co[v]
        take, first = _run_of(total, share, key)
        drawn = 0
        for k in range(take):
            at = first + k
            if at >= total:
                at -= total
            u = rt[ro[v] + at] if at < refs else cs[co[v] + at - refs]
            if u == v:
                continue
            a, b = _pull(x - pos[u, 0], y - pos[u, 1], True)
            fx += a
            fy += b
            for _ in range(NEGATIVES):
                drawn += 1
                w = linked[_below(_mix(key + np.uint64(2 + drawn)), m)]
                a, b = _pull(x - pos[w, 0], y - pos[w, 1], False)
                fx += PUSH * a
                fy += PUSH * b
        count = max(d * share, 1.0)
        new[v, 0] = x + np.float32(fx * (step / count))
        new[v, 1] = y + np.float32(fy * (step / count))


def edge_distance_ratio(xy: np.ndarray, src: np.ndarray, dst: np.ndarray, rng_seed: int = 0) -> float:
    """Median length of the citations ``src[k] -> dst[k]`` on the map over the median distance of random pairs of
    papers (both seeded samples of ``RATIO_PAIRS`` at most): small when citing papers sit near what they cite, about
    1 when positions ignore the citations."""
    xy = np.asarray(xy, dtype=np.float64)
    rng = np.random.default_rng(rng_seed)
    src, dst = np.asarray(src), np.asarray(dst)
    if len(src) > RATIO_PAIRS:
        pick = rng.choice(len(src), RATIO_PAIRS, replace=False)
        src, dst = src[pick], dst[pick]
    if not len(src) or len(xy) < 2:
        return float("nan")
    a, b = rng.integers(0, len(xy), RATIO_PAIRS), rng.integers(0, len(xy), RATIO_PAIRS)
    random_pairs = np.median(np.hypot(*(xy[a] - xy[b]).T))
    return float(np.median(np.hypot(*(xy[src] - xy[dst]).T)) / random_pairs) if random_pairs > 0 else float("nan")
