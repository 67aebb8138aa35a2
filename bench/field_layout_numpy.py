"""The baseline of bench/field_speed.py, not used by citemap: the field layout as citemap computed it before it was
compiled (numpy alone, one thread; the same method as :mod:`dashboard.graph.field_layout`), kept as it was so that
the bench measures the compiled one against it in the same run.

The method is a neighbour embedding of the citation graph, taken as undirected, written with numpy alone:

1. **Start**: two random columns smoothed by a lazy random walk on the graph (each step: half the old value, half
   the mean over the neighbours), kept centred and orthonormal (Gram-Schmidt) after each step. This is orthogonal
   iteration towards the graph's smoothest non-constant vectors, a spectral layout, at the cost of a few sparse
   products; unlike an eigensolver it needs no care with a graph of many components.
2. **Refinement**: epochs of attraction along every citation and repulsion from uniformly drawn papers
   (negative sampling, as in UMAP and LargeVis), with the Cauchy kernel of t-SNE: ``-2 d / (1 + |d|^2)`` along an
   edge, ``2 d / ((eps + |d|^2) (1 + |d|^2))`` from a sampled paper, each clipped. Each epoch moves a paper by the
   mean of its forces (positions fixed during the epoch), with a step that falls linearly to zero. The Cauchy
   kernel's heavy tail pulls communities into tight groups and keeps them apart, which a Fruchterman-Reingold
   layout (uniform density) does not.

Work and memory are a constant times the citations per epoch: edges are walked in chunks of ``CHUNK``, so that
what the layout holds beyond the two edge-end arrays is bounded; a graph with more than ``EDGE_SAMPLE`` directed
edges uses a seeded sample of that many per epoch (every edge still counts in the start).

Papers without a citation inside the dataset get no force; they are put on a ring just outside the map, evenly
spaced, in row order.

Everything is drawn from ``numpy.random.default_rng(seed)`` and summed in a fixed order, so the same graph gives
the same positions in every process (no threads, no BLAS).
"""

from __future__ import annotations

import logging
import time

import numpy as np

log = logging.getLogger(__name__)

SEED = 1
SMOOTH_STEPS = 30  # lazy random-walk steps of the start
EPOCHS = 60  # refinement epochs
NEGATIVES = 2  # papers drawn to repel, per directed edge and epoch
EPS = 1e-3  # keeps the repulsion of two papers on one spot finite
CLIP = 4.0  # largest force component of one pair
START_SPAN = 10.0  # the start's largest coordinate
JITTER = 1e-3  # noise added to the start, a share of START_SPAN
CHUNK = 1 << 21  # directed edges handled at a time
EDGE_SAMPLE = 8_000_000  # directed edges an epoch uses at most


def edges_of(offsets: np.ndarray, targets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(citing rows, cited rows) of a CSR list (``targets[offsets[r]:offsets[r+1]]`` are the rows row ``r``
    cites), as int32 arrays."""
    n = len(offsets) - 1
    src = np.repeat(np.arange(n, dtype=np.int32), np.diff(np.asarray(offsets)).astype(np.int64))
    return src, np.asarray(targets, dtype=np.int32)


def field_layout(offsets: np.ndarray, targets: np.ndarray, seed: int = SEED) -> np.ndarray:
    """Positions (float32, ``(n, 2)``, centred) of the ``n`` papers of a CSR reference list (``offsets``: n + 1
    ints; ``targets``: rows), see the module's docstring."""
    n = len(offsets) - 1
    src, dst = edges_of(offsets, targets)
    return layout_edges(n, src, dst, seed)


def layout_edges(n: int, src: np.ndarray, dst: np.ndarray, seed: int = SEED) -> np.ndarray:
    """:func:`field_layout` of ``n`` papers and the citations ``src[k] -> dst[k]`` (rows)."""
    started = time.perf_counter()
    rng = np.random.default_rng(seed)
    xy = np.zeros((n, 2), dtype=np.float32)
    if n == 0:
        return xy
    keep = src != dst
    src, dst = np.asarray(src[keep], dtype=np.int32), np.asarray(dst[keep], dtype=np.int32)
    degree = np.bincount(src, minlength=n) + np.bincount(dst, minlength=n)
    linked = np.flatnonzero(degree > 0)
    if len(linked):
        local = np.full(n, -1, dtype=np.int32)  # row -> place among the linked papers
        local[linked] = np.arange(len(linked), dtype=np.int32)
        i = np.concatenate([local[src], local[dst]])  # each citation both ways
        j = np.concatenate([local[dst], local[src]])
        del src, dst, local
        deg = degree[linked].astype(np.float64)
        pos = _start(len(linked), i, j, deg, rng)
        pos = _refine(pos, i, j, deg, rng)
        del i, j
        xy[linked] = pos - pos.mean(axis=0)
    alone = np.flatnonzero(degree == 0)
    if len(alone):
        radius = float(np.hypot(*xy[linked].T).max()) * 1.05 if len(linked) else 1.0
        angle = 2 * np.pi * np.arange(len(alone)) / len(alone)
        xy[alone] = np.column_stack([np.cos(angle), np.sin(angle)]).astype(np.float32) * max(radius, 1.0)
    log.info(
        "field layout: %d papers (%d without a citation), %d citations in %.1f s",
        n,
        len(alone),
        len(keep),
        time.perf_counter() - started,
    )
    return xy


def _mean_over_neighbours(values: np.ndarray, i: np.ndarray, j: np.ndarray, deg: np.ndarray) -> np.ndarray:
    """Each node's mean of ``values`` (float64, ``(m, 2)``) over its neighbours (``i[k]``'s neighbour ``j[k]``)."""
    m = len(values)
    out = np.zeros((m, 2))
    for a in range(0, len(i), CHUNK):
        ii, vals = i[a : a + CHUNK], values[j[a : a + CHUNK]]
        out[:, 0] += np.bincount(ii, vals[:, 0], minlength=m)
        out[:, 1] += np.bincount(ii, vals[:, 1], minlength=m)
    return out / deg[:, None]


def _orthonormal(x: np.ndarray) -> np.ndarray:
    """The two columns of ``x`` centred, orthogonal and of unit length (Gram-Schmidt with numpy's pairwise sums,
    not BLAS: the same in every process)."""
    x = x - x.mean(axis=0)
    a = x[:, 0] / max(np.sqrt(np.sum(x[:, 0] * x[:, 0])), 1e-300)
    b = x[:, 1] - np.sum(a * x[:, 1]) * a
    b = b / max(np.sqrt(np.sum(b * b)), 1e-300)
    return np.column_stack([a, b])


def _start(m: int, i: np.ndarray, j: np.ndarray, deg: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The start: random columns smoothed by ``SMOOTH_STEPS`` lazy random-walk steps, scaled to ``START_SPAN``."""
    x = _orthonormal(rng.standard_normal((m, 2)))
    for _ in range(SMOOTH_STEPS):
        x = _orthonormal(0.5 * x + 0.5 * _mean_over_neighbours(x, i, j, deg))
    span = float(np.abs(x).max())
    x = x * (START_SPAN / span if span > 0 else 1.0)
    # a little noise: papers the smoothing put on one spot (a lone pair of papers, say) repel each other
    x += rng.standard_normal((m, 2)) * (JITTER * START_SPAN)
    return x.astype(np.float32)


def _refine(pos: np.ndarray, i: np.ndarray, j: np.ndarray, deg: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``EPOCHS`` epochs of attraction along the edges and repulsion from sampled nodes (module docstring)."""
    m, edges = len(pos), len(i)
    per_epoch = min(edges, EDGE_SAMPLE)
    # each node's forces are averaged over the edge ends it has in an epoch: all of them, or the sample's expected
    count = deg * (per_epoch / edges)
    for epoch in range(EPOCHS):
        step = 1.0 - epoch / EPOCHS
        force = np.zeros((m, 2))
        sample = rng.integers(0, edges, per_epoch) if per_epoch < edges else None
        for a in range(0, per_epoch, CHUNK):
            if sample is None:
                ii, jj = i[a : a + CHUNK], j[a : a + CHUNK]
            else:
                at = sample[a : a + CHUNK]
                ii, jj = i[at], j[at]
            here = pos[ii]
            _add(force, ii, here - pos[jj], attract=True)
            for _ in range(NEGATIVES):
                _add(force, ii, here - pos[rng.integers(0, m, len(ii))], attract=False)
        pos += (force * (step / np.maximum(count, 1.0))[:, None]).astype(np.float32)
    return pos


def _add(force: np.ndarray, ii: np.ndarray, diff: np.ndarray, attract: bool) -> None:
    """Add to ``force[ii]`` the pull (``attract``) or push of the pairs whose difference is ``diff``."""
    d2 = np.einsum("ij,ij->i", diff, diff)
    scale = -2.0 / (1.0 + d2) if attract else 2.0 / ((EPS + d2) * (1.0 + d2))
    f = np.clip(diff * scale[:, None], -CLIP, CLIP)
    force[:, 0] += np.bincount(ii, f[:, 0], minlength=len(force))
    force[:, 1] += np.bincount(ii, f[:, 1], minlength=len(force))
