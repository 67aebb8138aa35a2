"""Literature connector: the shortest chains of citations between two papers, citation direction ignored.

Two papers x and y are joined by an edge if x cites y or y cites x. :func:`shortest_paths` answers "how are
a and b connected?" with the k best shortest chains a, x1, ..., b (Inciteful's Literature Connector).

How (all of it vectorised over the store's CSR index, no Python loop per paper):

1. **Bidirectional breadth-first search.** Each side (from a, from b) labels rows with their distance in an
   int8 array as long as the dataset. Every round expands one side's whole frontier by one layer (the
   references and citers of all its rows read at once from the CSR arrays), the side whose frontier has
   fewer adjacency entries to read. The first expansion that reaches rows labelled by the other side fixes the
   length L of a shortest chain (whole layers are expanded, so L is exact; so are the met rows: every
   shortest chain passes through one of them).
2. **Caps.** A side whose frontier has more than :data:`MAX_FRONTIER` rows, or whose expansion would read
   more than :data:`MAX_EXPANSION` adjacency entries, or more than what is left of :data:`MAX_WORK` for the
   whole search, is not expanded any more; the other side goes on alone (which keeps the answer exact).
   Only when neither side may go on before a chain is found or ``max_steps`` is reached does the search stop
   with ``capped=True``: "no chain within max_steps" may then be wrong. A chain found is always a shortest one.
3. **The shortest-chain DAG.** Rows on some shortest chain are those with dA(x) + dB(x) = L; they are traced
   outward from the met rows, layer by layer (position i holds rows at distance i from a), each step reading
   the smaller of the traced layer's adjacency and the search's own layer's (see :func:`_dag`).
4. **Ranking.** A chain's score is the sum over its intermediate rows of ``round(W_SCALE * ln(1 +
   in_cited))`` (citers in the dataset): chains through the most cited papers first. Ties go to the chain
   whose intermediate rows have the smaller sum, then to the chain whose rows, read from a, are
   lexicographically smaller. All in exact integers: the order is deterministic.
5. **Bounded k-best.** Score and row sum make one integer key per chain (``score * R - row sum``, R above
   any row sum). A forward and a backward best-key pass (one vectorised scatter-max per layer) give every DAG
   row the key of the best chain through it. The rows kept are those whose best chain keys at least T, the
   largest over layers of the layer's K-th best such key (K = max(:data:`MAX_LAYER_NODES`, k)): about K rows
   per layer at most (more only on exact ties), and still every chain keyed at least T, since all rows of such
   a chain key at least T. The K best chains key at least T (a layer's K top rows lie on K distinct chains
   keyed at least its K-th key), so the k best survive, ties included: the answer is exact. A k-best dynamic
   programme over the kept layers (per row, its k best partial chains from a) then gives the chains.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from dashboard.dataset.store import Store, gather

# Caps (step 2): they bound the adjacency entries a search reads, and so its time, whatever the pair; typical
# searches read far fewer than MAX_WORK.
MAX_FRONTIER = 200_000  # a side whose frontier holds more rows than this is not expanded
MAX_EXPANSION = 2_000_000  # ... nor one whose expansion would read more adjacency entries than this
MAX_WORK = 4_000_000  # adjacency entries one search may read in all (both sides)
MAX_LAYER_NODES = 256  # rows per shortest-chain DAG layer the k-best programme works on (see step 5)
MAX_STEPS_LIMIT = 100  # largest max_steps accepted (distances are held in int8)
W_SCALE = 10_000  # a row's weight: round(W_SCALE * ln(1 + in_cited))

_UNSEEN, _BLOCKED = -1, -2  # distance labels besides 0..max_steps
_LOWEST = np.iinfo(np.int64).min // 4  # "no chain" in the best-score passes (room to add weights)


@dataclass
class Paths:
    """The answer of :func:`shortest_paths`."""

    chains: list[list[int]]  # best first; each a list of rows from a to b inclusive
    steps: int | None  # edges in a shortest chain; None: none within max_steps
    capped: bool = False  # the search was cut by a cap before an answer: "none" may be wrong
    visited: int = 0  # distinct rows the search reached (both sides)


@dataclass
class _Side:
    """One side of the search: distances from its endpoint, its frontier, and the expansions done."""

    dist: np.ndarray  # int8 per row: _UNSEEN, _BLOCKED (masked out) or the distance from the endpoint
    frontier: np.ndarray
    depth: int = 0
    capped: bool = False
    labelled: int = 1
    layers: list[np.ndarray] = field(default_factory=list)  # rows at distance 0, 1, ... (the frontiers)


def shortest_paths(
    store: Store, a: int, b: int, max_steps: int = 6, k: int = 3, mask: Callable[[np.ndarray], np.ndarray] | None = None
) -> Paths:
    """The k best shortest chains of citations between rows ``a`` and ``b``, direction ignored, of at most
    ``max_steps`` edges (see the module docstring for the search, its caps and the ranking).

    ``mask``: the view's filters, called with an array of rows and answering a boolean array; only rows it
    passes may be intermediate papers (a and b always may). Raises ValueError for a == b, rows out of range,
    ``max_steps`` outside 1..MAX_STEPS_LIMIT or ``k`` < 1."""
    a, b, n = int(a), int(b), store.n
    if not (0 <= a < n and 0 <= b < n):
        raise ValueError(f"rows {a}, {b}: out of range 0..{n - 1}")
    if a == b:
        raise ValueError("a chain needs two different papers")
    if not 1 <= max_steps <= MAX_STEPS_LIMIT:
        raise ValueError(f"max_steps {max_steps}: must be within 1..{MAX_STEPS_LIMIT}")
    if k < 1:
        raise ValueError(f"k {k}: must be at least 1")
    side_a, side_b, met, capped = _search(store, a, b, max_steps, mask)
    visited = side_a.labelled + side_b.labelled - len(met)
    if not len(met):
        return Paths([], None, capped, visited)
    layers, edges = _dag(store, side_a, side_b, met)
    return Paths(_best_chains(store, layers, edges, k), len(layers) - 1, False, visited)


def chain_rows(paths: Paths) -> np.ndarray:
    """Every row of the chains once (int64): a first, b last, the others in the order the chains (best
    first) pass them. Empty if there is no chain."""
    if not paths.chains:
        return np.empty(0, np.int64)
    seen: dict[int, None] = {}
    for chain in paths.chains:
        seen.update(dict.fromkeys(chain[1:-1]))
    first = paths.chains[0]
    return np.asarray([first[0], *seen, first[-1]], dtype=np.int64)


# -- 1, 2: the search ---------------------------------------------------------------------------------------
def _search(
    store: Store, a: int, b: int, max_steps: int, mask: Callable[[np.ndarray], np.ndarray] | None
) -> tuple[_Side, _Side, np.ndarray, bool]:
    """Bidirectional breadth-first search. Returns both sides, the met rows (empty: no chain within
    ``max_steps``) and whether a cap cut the search before an answer."""
    sides = []
    for end in (a, b):
        dist = np.full(store.n, _UNSEEN, dtype=np.int8)
        dist[end] = 0
        first = np.asarray([end], dtype=np.int64)
        sides.append(_Side(dist, first, layers=[first]))
    side_a, side_b = sides
    scratch = _Scratch(store.n)
    work_left = MAX_WORK
    none = np.empty(0, np.int64)
    while side_a.depth + side_b.depth < max_steps:
        if not len(side_a.frontier) or not len(side_b.frontier):
            return side_a, side_b, none, False  # one endpoint's (masked) component is exhausted: no chain
        costs = []
        for side in sides:
            cost = _degree_sum(store, side.frontier)
            if len(side.frontier) > MAX_FRONTIER or cost > min(MAX_EXPANSION, work_left):
                side.capped = True
            costs.append(cost)
        open_sides = [i for i in (0, 1) if not sides[i].capped]
        if not open_sides:
            return side_a, side_b, none, True
        i = min(open_sides, key=lambda j: (costs[j], j))
        work_left -= costs[i]
        met = _expand(store, sides[i], sides[1 - i], b if i == 0 else a, scratch, mask)
        if len(met):
            return side_a, side_b, met, False
    return side_a, side_b, none, False


def _expand(
    store: Store,
    side: _Side,
    other: _Side,
    other_end: int,
    scratch: _Scratch,
    mask: Callable[[np.ndarray], np.ndarray] | None,
) -> np.ndarray:
    """Expand ``side``'s frontier by one layer; returns the new rows the other side had reached."""
    nbrs = _neighbours(store, side.frontier)
    fresh = scratch.distinct(nbrs[side.dist[nbrs] == _UNSEEN])
    if mask is not None and len(fresh):
        ok = np.asarray(mask(fresh), dtype=bool) | (fresh == other_end)
        blocked = fresh[~ok]
        side.dist[blocked] = _BLOCKED  # masked out for both sides (only the endpoints are exempt)
        other.dist[blocked[other.dist[blocked] == _UNSEEN]] = _BLOCKED
        fresh = fresh[ok]
    side.depth += 1
    side.dist[fresh] = side.depth
    side.frontier = fresh
    side.layers.append(fresh)
    side.labelled += len(fresh)
    return fresh[other.dist[fresh] >= 0]


class _Scratch:
    """Drops repeats from arrays of rows: by sorting when short, through a boolean array over all rows when
    long (a sort of millions of rows costs more than a pass over the dataset's flags)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.flags: np.ndarray | None = None

    def distinct(self, rows: np.ndarray) -> np.ndarray:
        """The distinct ``rows``, sorted (int64)."""
        if len(rows) * 4 <= self.n:
            return _distinct(rows).astype(np.int64, copy=False)
        if self.flags is None:
            self.flags = np.zeros(self.n, dtype=bool)
        self.flags[rows] = True
        out = np.flatnonzero(self.flags)
        self.flags[out] = False
        return out


def _distinct(x: np.ndarray) -> np.ndarray:
    """Sorted distinct values (np.unique, without its slow paths for integers in some numpy versions)."""
    s = np.sort(x)
    return s[np.r_[True, s[1:] != s[:-1]]] if len(s) else s


def _degree_sum(store: Store, rows: np.ndarray) -> int:
    """References plus citers of ``rows``: the adjacency entries expanding them reads."""
    ref, cit = store.arrays["ref_offsets"], store.arrays["cit_offsets"]
    return int((ref[rows + 1] - ref[rows]).sum() + (cit[rows + 1] - cit[rows]).sum())


def _neighbours(store: Store, rows: np.ndarray) -> np.ndarray:
    """References then citers of ``rows``, concatenated (repeats kept; no owners: cheaper than gather)."""
    out = []
    for off_name, val_name in (("ref_offsets", "ref_targets"), ("cit_offsets", "cit_sources")):
        offsets, values = store.arrays[off_name], store.arrays[val_name]
        starts = offsets[rows]
        lengths = offsets[rows + 1] - starts
        total = int(lengths.sum())
        if total:
            pos = np.repeat(starts - (np.cumsum(lengths) - lengths), lengths)
            pos += np.arange(total)
            out.append(values[pos])
    return np.concatenate(out) if out else np.empty(0, np.int64)


def _adjacent(store: Store, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """References then citers of ``rows``: (index into ``rows`` of each one's owner, rows)."""
    o_r, v_r = gather(store.arrays["ref_offsets"], store.arrays["ref_targets"], rows)
    o_c, v_c = gather(store.arrays["cit_offsets"], store.arrays["cit_sources"], rows)
    return np.concatenate([o_r, o_c]), np.concatenate([v_r, v_c]).astype(np.int64, copy=False)


# -- 3: the DAG of shortest chains --------------------------------------------------------------------------
def _dag(
    store: Store, side_a: _Side, side_b: _Side, met: np.ndarray
) -> tuple[list[np.ndarray], list[tuple[np.ndarray, np.ndarray]]]:
    """Rows on some shortest chain by position from a (``layers[i]``: sorted rows at distance i from a), and
    the edges between consecutive layers as unique (position in layers[i], position in layers[i + 1]).

    From the met rows outward, each next layer is found from whichever side of the step reads fewer adjacency
    entries: the layer already traced (its neighbours at the right distance) or the search's whole layer at
    that distance (its members with a neighbour traced); the latter the search read already, so tracing never
    costs more than the search did."""
    da, db = side_a.depth, side_b.depth
    length = da + db
    mark = np.zeros(store.n, dtype=np.int8)  # position on a chain + 1, for rows traced so far
    layers: list[np.ndarray] = [np.empty(0, np.int64)] * (length + 1)
    pairs: list[tuple[np.ndarray, np.ndarray]] = [(np.empty(0, np.int64), np.empty(0, np.int64))] * length
    layers[da] = np.sort(met)
    mark[layers[da]] = da + 1
    steps = [(side_a, d + 1, d, d) for d in range(da - 1, -1, -1)]  # (side, traced, new, distance)
    steps += [(side_b, da + db - d - 1, da + db - d, d) for d in range(db - 1, -1, -1)]
    for side, traced, pos, d in steps:
        known, candidates = layers[traced], side.layers[d]
        if _degree_sum(store, known) <= _degree_sum(store, candidates):
            owner, nbrs = _adjacent(store, known)
            keep = side.dist[nbrs] == d
            found, from_known = nbrs[keep], known[owner[keep]]
        else:
            owner, nbrs = _adjacent(store, candidates)
            keep = mark[nbrs] == traced + 1
            found, from_known = candidates[owner[keep]], nbrs[keep]
        pairs[min(traced, pos)] = (found, from_known) if pos < traced else (from_known, found)
        layers[pos] = _distinct(found)
        mark[layers[pos]] = pos + 1
    edges = []
    for i, (u, v) in enumerate(pairs):
        width = len(layers[i + 1])
        key = _distinct(np.searchsorted(layers[i], u) * width + np.searchsorted(layers[i + 1], v))
        edges.append((key // width, key % width))  # unique: a mutual citation is one edge
    return layers, edges


# -- 4, 5: ranking ------------------------------------------------------------------------------------------
def _weights(store: Store, layers: list[np.ndarray]) -> list[np.ndarray]:
    """Per layer, each row's part of a chain's key: score * R - row, R above any sum of intermediate rows, so
    that sums compare by score, then by the smaller row sum (0 for a and b)."""
    inner = len(layers) - 2
    scale = inner * store.n + 1
    out = []
    for i, rows in enumerate(layers):
        if i == 0 or i == len(layers) - 1:
            out.append(np.zeros(len(rows), np.int64))
            continue
        score = np.rint(W_SCALE * np.log1p(store.in_cited[rows].astype(np.float64))).astype(np.int64)
        out.append(score * scale - rows)
    return out


def _best_through(weights: list[np.ndarray], edges: list[tuple[np.ndarray, np.ndarray]]) -> list[np.ndarray]:
    """Per layer, each row's key of the best chain through it (forward and backward best-key passes)."""
    last = len(weights) - 1
    fwd = [weights[0].copy()]
    for i, (u, v) in enumerate(edges):
        best = np.full(len(weights[i + 1]), _LOWEST, np.int64)
        np.maximum.at(best, v, fwd[i][u])
        fwd.append(best + weights[i + 1])
    bwd = [weights[last].copy()]
    for i in range(last - 1, -1, -1):
        u, v = edges[i]
        best = np.full(len(weights[i]), _LOWEST, np.int64)
        np.maximum.at(best, u, bwd[-1][v])
        bwd.append(best + weights[i])
    bwd.reverse()
    return [f + g - w for f, g, w in zip(fwd, bwd, weights, strict=True)]


def _prune(
    weights: list[np.ndarray], edges: list[tuple[np.ndarray, np.ndarray]], k: int
) -> tuple[list[np.ndarray], list[np.ndarray], list[tuple[np.ndarray, np.ndarray]]]:
    """Keep the rows whose best chain keys at least T (module docstring, step 5). Returns the kept positions
    in each layer, their weights and the edges between kept rows (renumbered)."""
    through = _best_through(weights, edges)
    keep_n = max(MAX_LAYER_NODES, k)
    threshold = max(
        (int(np.partition(t, len(t) - keep_n)[len(t) - keep_n]) for t in through if len(t) > keep_n), default=_LOWEST
    )
    kept = [np.flatnonzero(t >= threshold) for t in through]
    new_pos = []
    for t, idx in zip(through, kept, strict=True):
        pos = np.full(len(t), -1, np.int64)
        pos[idx] = np.arange(len(idx))
        new_pos.append(pos)
    new_edges = []
    for i, (u, v) in enumerate(edges):
        nu, nv = new_pos[i][u], new_pos[i + 1][v]
        ok = (nu >= 0) & (nv >= 0)
        new_edges.append((nu[ok], nv[ok]))
    return kept, [w[idx] for w, idx in zip(weights, kept, strict=True)], new_edges


def _best_chains(
    store: Store, layers: list[np.ndarray], edges: list[tuple[np.ndarray, np.ndarray]], k: int
) -> list[list[int]]:
    """The k best chains of the DAG, best first (module docstring, steps 4 and 5)."""
    kept, weights, edges = _prune(_weights(store, layers), edges, k)
    # candidates of the current layer: partial chains from a, grouped by row (position in the kept layer)
    node = np.zeros(1, np.int64)
    key = np.zeros(1, np.int64)
    lex = np.zeros(1, np.int64)  # rank of the partial chain's rows, compared from a, within its layer
    start, count = np.zeros(1, np.int64), np.ones(1, np.int64)
    trail: list[tuple[np.ndarray, np.ndarray]] = [(node, np.full(1, -1, np.int64))]  # (node, parent) per layer
    for i, (u, v) in enumerate(edges):
        reps = count[u]
        total = int(reps.sum())
        edge = np.repeat(np.arange(len(u)), reps)
        parent = start[u][edge] + np.arange(total) - (np.cumsum(reps) - reps)[edge]
        c_node, c_key, c_prefix = v[edge], key[parent] + weights[i + 1][v[edge]], lex[parent]
        order = np.lexsort((c_prefix, -c_key, c_node))  # by row, then best key, then smaller prefix
        c_node, c_key, c_prefix, parent = c_node[order], c_key[order], c_prefix[order], parent[order]
        first = np.flatnonzero(np.r_[True, c_node[1:] != c_node[:-1]]) if total else np.empty(0, np.int64)
        group_start = np.repeat(first, np.diff(np.r_[first, total]))
        top = np.arange(total) - group_start < k
        node, key, parent, prefix = c_node[top], c_key[top], parent[top], c_prefix[top]
        lex = np.empty(len(node), np.int64)
        lex[np.lexsort((node, prefix))] = np.arange(len(node))
        count = np.bincount(node, minlength=len(weights[i + 1])).astype(np.int64)
        start = np.cumsum(count) - count
        trail.append((node, parent))
    chains = []
    for final in range(len(trail[-1][0])):  # the candidates at b, already best first
        rows, c = [], final
        for i in range(len(trail) - 1, -1, -1):
            nd, par = trail[i]
            rows.append(int(layers[i][kept[i][nd[c]]]))
            c = int(par[c])
        chains.append(rows[::-1])
    return chains
