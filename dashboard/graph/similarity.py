"""Papers similar to a set of seeds, and the prior and derivative works of a map, as Connected Papers and Local
Citation Network compute them. Plain data in (a store, rows), plain data out; no graph object.

Two papers are similar when the literature treats them together:

* **co-citation** ``cc(a, b)``: how many papers cite both ``a`` and ``b`` (``|citers(a) ∩ citers(b)|``);
* **bibliographic coupling** ``bc(a, b)``: how many papers both ``a`` and ``b`` cite
  (``|references(a) ∩ references(b)|``).

Each count is normalised by Salton's cosine so that a huge paper does not win by size alone (a denominator of 0
gives 0)::

    cc_norm(a, b) = cc(a, b) / sqrt(|citers(a)| * |citers(b)|)
    bc_norm(a, b) = bc(a, b) / sqrt(|references(a)| * |references(b)|)
    score(a, b)   = CO_CITATION_WEIGHT * cc_norm(a, b) + COUPLING_WEIGHT * bc_norm(a, b)      (in [0, 1])

A candidate's score against several seeds is the sum of its scores against each.

**Evidence.** A paper is similar only if it shares at least MIN_SHARED citing papers, or at least MIN_SHARED
references, with one seed (``max over seeds of cc >= MIN_SHARED`` or ``max over seeds of bc >= MIN_SHARED``;
counts with different seeds are not added up, nor are citers and references). The normalised score ranks two
short lists sharing two entries (``bc_norm`` = 2 / sqrt(4 * 4) = 0.5 for four references each) as high as two
long lists sharing dozens; two shared references, often papers that everyone cites, are too little to call two
papers similar. So a map holds fewer papers than asked when fewer qualify, and says so.

**Order** (the map's similar papers; the order decides which ``n`` are shown): higher score first; among equal
scores (compared rounded to 12 decimals) the paper with more citers in the dataset first; then the lower row (the
dataset's order, which is fixed by its build). Prior and derivative works break ties the same way (higher count,
then more citers, then lower row); links are ordered by strength, then by position in the map.

:func:`similar` is exact: it reads, for each seed, the reference lists of all its citers and the citer lists of all
its references (every paper sharing anything with a seed), and ranks every one of them by its exact score. Only a
map whose seeds would have it read more than EXACT_BUDGET list entries (seeds whose citers together list tens of
millions of references) falls back to a sampled walk and is marked ``approximate`` (the page says so); its counts
and scores are exact all the same, but a paper may be missing. The links it returns among the papers of the map are
exact.
:func:`prior_derivative` counts, exactly, which papers outside a map its papers cite most (prior works) and which
cite most of them (derivative works).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from dashboard.dataset.store import Store, gather

CO_CITATION_WEIGHT = 0.5  # weight of cc_norm in a pair's score
COUPLING_WEIGHT = 0.5  # weight of bc_norm in a pair's score
EXACT_BUDGET = 25_000_000  # entries of the two-hop lists a map may read to be exact (see similar); beyond: the walk
DENSE_BYTES = 100_000_000  # exact counts of long lists kept as arrays over all rows while they take at most this
WALK_INTERMEDIATES = 1000  # first hop of the walk: at most this many citers (references) of a seed, evenly spaced
WALK_BUDGET = 30_000  # second hop: at most about this many entries per seed and direction (see _fair_cap)
PRESELECT = 4  # exact counts are computed for the best PRESELECT * n candidates of the walk (more if too few qualify)
MIN_SHARED = 3  # evidence: a similar paper shares at least this many citers, or this many references, with one seed
# links drawn among the papers of a map (see _links): no pair weaker than PAIR_MIN_STRENGTH (noise); each paper's
# PAIR_TOP_LINKS strongest links; then pairs at least PAIR_STRONG strong while the map has fewer than
# PAIR_LINKS_PER_PAPER links a paper: few enough links for the map to stay readable.
PAIR_MIN_STRENGTH = 0.01
PAIR_TOP_LINKS = 3
PAIR_STRONG = 0.5
PAIR_LINKS_PER_PAPER = 4
_ROUND = 12  # scores are compared rounded to this many decimals, so that float summation order breaks no tie

Mask = Callable[[np.ndarray], np.ndarray]


@dataclass(frozen=True)
class Similar:
    """The seeds and the papers most similar to them, with the links among all of them.

    ``rows``: the seeds in the order given (repeats dropped), then the similar papers, most similar first.
    Per row: ``scores`` (the sum over seeds of ``score(seed, row)``; nan for seeds), ``cocited`` and ``coupled``
    (``cc`` and ``bc`` with each seed, summed over the seeds; 0 for seeds). Links: pairs ``(rows[pair_i[k]],
    rows[pair_j[k]])`` with ``pair_i < pair_j``, their exact ``pair_cocited`` (cc) and ``pair_coupled`` (bc) and
    ``pair_strength`` (``score`` of the pair), strongest first. ``approximate``: the seeds' lists were too long to
    read whole (beyond EXACT_BUDGET), so the candidates were found by a sampled walk and a paper more similar than
    those shown may be missing; the counts and scores reported are exact all the same. Otherwise the papers are
    exactly the best by the rules above. Fewer than the ``n`` asked for means fewer papers met the evidence rule
    (``min_shared``)."""

    rows: np.ndarray  # int64
    scores: np.ndarray  # float64
    cocited: np.ndarray  # int64
    coupled: np.ndarray  # int64
    pair_i: np.ndarray  # int64
    pair_j: np.ndarray  # int64
    pair_cocited: np.ndarray  # int64
    pair_coupled: np.ndarray  # int64
    pair_strength: np.ndarray  # float64
    approximate: bool
    n_seeds: int  # rows[:n_seeds] are the seeds
    min_shared: int  # every similar paper shares at least this many citers or references with one seed


@dataclass(frozen=True)
class Ranked:
    """A paper outside a map: ``count`` of the map's ``of`` papers cite it (prior work) or are cited by it
    (derivative work)."""

    row: int
    count: int
    of: int


# -- lists ------------------------------------------------------------------------------------------------------
def _lengths(offsets: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Length of each row's CSR list (int64)."""
    return (offsets[rows + 1] - offsets[rows]).astype(np.int64)


def _fair_cap(lengths: np.ndarray, budget: int) -> int:
    """The largest per-list cap ``L >= 1`` with ``sum(min(lengths, L)) <= budget`` (water filling: only the
    longest lists are cut, the short ones are kept whole); ``max(lengths)`` if everything fits."""
    top = int(lengths.max()) if len(lengths) else 0
    if int(lengths.sum()) <= budget:
        return max(top, 1)
    lo, hi = 1, top  # sum(min(lengths, hi)) > budget
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if int(np.minimum(lengths, mid).sum()) <= budget:
            lo = mid
        else:
            hi = mid
    return lo


def _sample(
    offsets: np.ndarray, values: np.ndarray, rows: np.ndarray, cap: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """At most ``cap`` entries of each row's list, evenly spaced over it (the whole list when it is shorter):
    (owner index into ``rows`` per entry, values, weight per row = list length / entries taken, 1 if whole)."""
    starts = offsets[rows].astype(np.int64)
    lengths = _lengths(offsets, rows)
    taken = np.minimum(lengths, cap)
    total = int(taken.sum())
    owner = np.repeat(np.arange(len(rows)), taken)
    step = np.arange(total) - np.repeat(np.cumsum(taken) - taken, taken)
    pos = starts[owner] + step * lengths[owner] // np.maximum(taken[owner], 1)
    weight = np.where(taken < lengths, lengths / np.maximum(taken, 1), 1.0)
    return owner, values[pos], weight


def _runs(sorted_values: np.ndarray) -> np.ndarray:
    """Start index of each run of equal values of a sorted array."""
    if not len(sorted_values):
        return np.empty(0, np.int64)
    return np.flatnonzero(np.concatenate(([True], sorted_values[1:] != sorted_values[:-1])))


def _norm(counts: np.ndarray, deg_a: np.ndarray, deg_b: np.ndarray) -> np.ndarray:
    """Salton's cosine ``counts / sqrt(deg_a * deg_b)`` (0 where a degree is 0), broadcasting."""
    den = np.sqrt(deg_a.astype(np.float64) * deg_b)
    return np.divide(counts, den, out=np.zeros(np.broadcast(counts, den).shape), where=den > 0)


def _order(store: Store, rows: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Indices ordering ``rows`` by ``keys`` descending, then more citers, then lower row."""
    return np.lexsort((rows, -store.in_cited[rows].astype(np.int64), -keys))


def _top(store: Store, rows: np.ndarray, keys: np.ndarray, k: int) -> np.ndarray:
    """Indices of the ``k`` best ``rows`` (unique) by ``keys`` descending, then more citers, then lower row, best
    first: a partition per tie level (key, citers, row) and a sort of the ``k`` found, so that many ties (thousands
    of papers counted once) cost a pass, not a sort."""
    idx = np.arange(len(rows))
    if k < len(rows):
        picked = []
        for level in range(3):
            if len(idx) <= k:
                break
            vals = keys[idx] if level == 0 else store.in_cited[rows[idx]].astype(np.int64) if level == 1 else -rows[idx]
            threshold = np.partition(vals, len(vals) - k)[len(vals) - k]  # the k-th largest
            better = vals > threshold
            picked.append(idx[better])
            k -= int(better.sum())
            idx = idx[vals == threshold]
        picked.append(idx[:k])
        idx = np.concatenate(picked)
    return idx[_order(store, rows[idx], keys[idx])]


def _best(store: Store, rows: np.ndarray, keys: np.ndarray, k: int, mask: Mask | None) -> np.ndarray:
    """Indices of the (up to) ``k`` best ``rows`` (:func:`_top`) that pass ``mask``, best first. The mask is asked
    about the best ``2k`` only, then about four times more each time too few pass."""
    if k <= 0 or not len(rows):
        return np.empty(0, np.int64)
    if mask is None:
        return _top(store, rows, keys, k)
    take = 2 * k
    while True:
        chosen = _top(store, rows, keys, take)
        ok = np.asarray(mask(rows[chosen]), dtype=bool)
        if ok.sum() >= k or take >= len(rows):
            return chosen[ok][:k]
        take *= 4


# -- exact counts -----------------------------------------------------------------------------------------------
def pair_counts(offsets: np.ndarray, values: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Exact intersections of the CSR lists of ``rows`` (unique), all pairs at once: ``m[i, j]`` (``i < j``; 0 on
    and below the diagonal) = ``|list(rows[i]) ∩ list(rows[j])|``. With the citer lists that is ``cc``, with the
    reference lists ``bc``.

    Each entry becomes the key ``value * R + owner``; one sort of the keys puts the owners of each value side by
    side, and every two owners of one value make a pair. Cost: the lists' total length (a sort) plus, for each
    value, the square of how many of ``rows`` hold it. No list is cut, whatever its length."""
    r = len(rows)
    out = np.zeros((r, r), dtype=np.int64)
    owner, vals = gather(offsets, values, rows)
    if r < 2 or not len(vals):
        return out
    keys = vals.astype(np.int64) * r + owner
    keys.sort()
    v = keys // r
    shared = v[1:] == v[:-1]
    keep = np.zeros(len(v), dtype=bool)
    keep[1:] = shared
    keep[:-1] |= shared
    keys, v = keys[keep], v[keep]
    if not len(v):
        return out
    o = keys - v * r
    start = _runs(v)
    size = np.diff(np.append(start, len(v)))
    later = np.repeat(start + size, size) - np.arange(len(v)) - 1  # entries after each one in its run
    first = np.repeat(np.arange(len(v)), later)
    second = first + np.arange(len(first)) - np.repeat(np.cumsum(later) - later, later) + 1
    out += np.bincount(o[first] * r + o[second], minlength=r * r).reshape(r, r)
    return out


def _counts_with(
    offsets: np.ndarray, values: np.ndarray, seeds: np.ndarray, rows: np.ndarray, scratch: np.ndarray
) -> np.ndarray:
    """Exact ``|list(seed) ∩ list(row)|`` for every seed (row of the result) and row (column), by marking each
    seed's list in ``scratch`` (a bool array over all rows, all False, left so) and looking the rows' lists up."""
    owner, vals = gather(offsets, values, rows)
    out = np.zeros((len(seeds), len(rows)), dtype=np.int64)
    for i, s in enumerate(seeds.tolist()):
        mine = values[offsets[s] : offsets[s + 1]]
        scratch[mine] = True
        out[i] = np.bincount(owner[scratch[vals]], minlength=len(rows))
        scratch[mine] = False
    return out


# -- exact two-hop counts ---------------------------------------------------------------------------------------
def _concat(offsets: np.ndarray, values: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """The CSR lists of ``rows`` concatenated (values only: one index array, 32-bit when the lists allow)."""
    starts = offsets[rows].astype(np.int64)
    lengths = offsets[rows + 1].astype(np.int64) - starts
    ends = np.cumsum(lengths)
    total = int(ends[-1]) if len(ends) else 0
    if not total:
        return values[:0]
    kind = np.int32 if len(values) < 2**31 else np.int64
    at = np.repeat((starts - (ends - lengths)).astype(kind), lengths)
    at += np.arange(total, dtype=kind)
    return values[at]


class _Counts:
    """How often each row occurs in a list of rows: sparse (the distinct rows, ascending, and their counts, by
    sorting) for a short list, dense (one ``bincount`` over all rows) for a long one, kept dense while ``room``
    allows (bytes; a dense count of a long list costs 8 bytes a row of the dataset), else made sparse."""

    def __init__(self, values: np.ndarray, n: int, room: list[int]) -> None:
        self.dense: np.ndarray | None = None
        if len(values) * 16 < n:
            values = np.sort(values)
            start = _runs(values)
            self.rows, self.counts = values[start].astype(np.int64), np.diff(np.append(start, len(values)))
            return
        total = np.bincount(values, minlength=n)
        if total.nbytes <= room[0]:
            room[0] -= total.nbytes
            self.dense = total
        else:
            self.rows = np.flatnonzero(total)
            self.counts = total[self.rows]

    def at_least(self, m: int) -> np.ndarray:
        """The rows counted at least ``m`` times, ascending."""
        if self.dense is not None:
            return np.flatnonzero(self.dense >= m)
        return self.rows[self.counts >= m]

    def of(self, rows: np.ndarray) -> np.ndarray:
        """The count of each of ``rows`` (ascending, unique; 0 for a row not in the list)."""
        if self.dense is not None:
            return self.dense[rows]
        if not len(self.rows):
            return np.zeros(len(rows), dtype=np.int64)
        at = np.minimum(np.searchsorted(self.rows, rows), len(self.rows) - 1)
        return np.where(self.rows[at] == rows, self.counts[at], 0)


def _directions(store: Store) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, float], ...]:
    """Both two-hop walks, as (first offsets, first values, second offsets, second values, degree, weight): a
    seed's citers -> what they cite (co-citation, degree: citers), its references -> who cites them (coupling,
    degree: references)."""
    a = store.arrays
    cit_off, cit_src, ref_off, ref_tgt = a["cit_offsets"], a["cit_sources"], a["ref_offsets"], a["ref_targets"]
    return (
        (cit_off, cit_src, ref_off, ref_tgt, store.in_cited, CO_CITATION_WEIGHT),
        (ref_off, ref_tgt, cit_off, cit_src, store.in_refs, COUPLING_WEIGHT),
    )


def exact_cost(store: Store, seeds: np.ndarray) -> int:
    """How many list entries the exact counts of ``seeds`` read: for each seed, the reference lists of its citers
    and the citer lists of its references."""
    total = 0
    for first_off, first_vals, second_off, _, _, _ in _directions(store):
        for s in seeds.tolist():
            mids = first_vals[first_off[s] : first_off[s + 1]]
            total += int(_lengths(second_off, mids).sum())
    return total


def _exact(store: Store, seeds: np.ndarray, min_shared: int) -> tuple[np.ndarray, ...]:
    """Every paper that qualifies (sharing at least ``min_shared`` citers, or ``min_shared`` references, with one
    seed; seeds excluded), with exact counts read from the whole lists: (candidates ascending, score = sum over seeds
    of ``score(seed, candidate)``, citers shared summed over the seeds, references shared summed over the seeds).

    Each seed's two-hop lists are counted once (:class:`_Counts`); the qualifying papers are those counted at least
    ``min_shared`` times in one of them, and only they are then looked up in every count (most papers met share one
    or two citers or references: they are counted, never scored). The score's terms are added seed by seed,
    co-citation before coupling."""
    room = [DENSE_BYTES]
    counted = []  # (kind, seed, counts)
    for s in seeds.tolist():
        for kind, (first_off, first_vals, second_off, second_vals, _, _) in enumerate(_directions(store)):
            mids = first_vals[first_off[s] : first_off[s + 1]]
            counted.append((kind, s, _Counts(_concat(second_off, second_vals, mids), store.n, room)))
    merged = np.concatenate([np.empty(0, np.int64)] + [c.at_least(min_shared) for _, _, c in counted])
    merged.sort(kind="stable")  # a merge of ascending runs
    cand = merged[_runs(merged)]
    cand = cand[~_found_in(seeds, cand)]
    score = np.zeros(len(cand))
    shared = np.zeros((2, len(cand)), dtype=np.int64)  # citers, references: summed over the seeds
    directions = _directions(store)
    for kind, s, counts in counted:
        mine = counts.of(cand)
        deg, weight = directions[kind][4], directions[kind][5]
        score += weight * _norm(mine, deg[s : s + 1], deg[cand])
        shared[kind] += mine
    return cand, score, shared[0], shared[1]


def _found_in(rows: np.ndarray, sorted_rows: np.ndarray) -> np.ndarray:
    """For each of ``sorted_rows`` (ascending, unique), whether it is one of ``rows`` (a few)."""
    out = np.zeros(len(sorted_rows), dtype=bool)
    if len(sorted_rows) and len(rows):
        at = np.minimum(np.searchsorted(sorted_rows, rows), len(sorted_rows) - 1)
        out[at[sorted_rows[at] == rows]] = True
    return out


def _pick_direct(
    store: Store, seeds: np.ndarray, cand: np.ndarray, keys: np.ndarray, n: int, share: float, mask: Mask | None
) -> np.ndarray:
    """Indices of the ``n`` papers of ``cand`` a map keeps when at most ``share`` of them may be direct references
    or citers of a seed (see :func:`similar`), best first: the best ``int(n * share)`` direct ones and the best
    others; more direct ones when too few others qualify."""
    linked = np.zeros(store.n, dtype=bool)  # the seeds' references and citers
    for s in seeds.tolist():
        linked[store.references(s)] = True
        linked[store.citers(s)] = True
    direct = linked[cand]
    ones, others = np.flatnonzero(direct), np.flatnonzero(~direct)
    best_direct = ones[_best(store, cand[ones], keys[ones], n, mask)]
    best_other = others[_best(store, cand[others], keys[others], n, mask)]
    quota = int(n * share)
    keep = np.concatenate((best_direct[:quota], best_other))[:n]
    if len(keep) < n:
        keep = np.concatenate((keep, best_direct[quota : quota + n - len(keep)]))
    return keep[_order(store, cand[keep], keys[keep])]


# -- the walk ---------------------------------------------------------------------------------------------------
def _two_hop(
    first_off: np.ndarray, first_vals: np.ndarray, second_off: np.ndarray, second_vals: np.ndarray, seed: int
) -> tuple[np.ndarray, np.ndarray, bool]:
    """The papers two hops from ``seed`` (its list in ``first``, then theirs in ``second``), each entry with the
    number of walks it stands for: (values, weights, capped). At most WALK_INTERMEDIATES intermediate papers,
    evenly spaced over the seed's list (most cited first, so the sample spans citation counts), each weighing
    ``list length / taken``; their lists cut to a common length so that they add up to about WALK_BUDGET entries
    (:func:`_fair_cap`), each entry weighing its list's ``length / taken`` too. Uncapped, the weights are 1 and a
    candidate's entries number its exact cc (first = citers, second = references) or bc (the other way round)."""
    _, mids, w1 = _sample(first_off, first_vals, np.asarray([seed], dtype=np.int64), WALK_INTERMEDIATES)
    mids = mids.astype(np.int64)
    cap = _fair_cap(_lengths(second_off, mids), WALK_BUDGET)
    owner, vals, w2 = _sample(second_off, second_vals, mids, cap)
    capped = bool(w1[0] != 1.0 or (w2 != 1.0).any())
    return vals, w1[0] * w2[owner], capped


def _sum_by(values: np.ndarray, weights: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct ``values`` (ascending) and the sum of ``weights`` of each: by sorting when there are few
    values, by one dense ``bincount`` over ``range(n)`` when there are many."""
    if len(values) * 32 < n:
        order = np.argsort(values)
        values, weights = values[order], weights[order]
        start = _runs(values)
        return values[start].astype(np.int64), np.add.reduceat(weights, start)
    total = np.bincount(values, weights, minlength=n)
    found = np.flatnonzero(total)
    return found, total[found]


def _walk(store: Store, seeds: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    """Candidates of the two-hop walks from all seeds (seeds excluded), their walk scores and their walk counts:
    (candidates ascending, scores, counts, capped). The walk score estimates the score: each entry of a walk from
    seed ``s`` reaching ``c`` adds ::

        weight_of_direction * min(w, deg(c), deg(s)) / sqrt(deg(s) * deg(c))

    (``w``: the walks the entry stands for; ``deg``: citers for co-citation, references for coupling). The
    ``min`` keeps a rarely cited paper met once through a heavily sampled list from outscoring real neighbours
    (its count cannot exceed its degree). The walk count estimates the evidence: the most walks of one seed and
    direction that reach ``c`` (``w`` summed, at most ``min(deg(c), deg(s))``), that is ``max over seeds`` of its
    ``cc`` or ``bc``. Uncapped, ``w`` = 1: the walk score is the exact score and the walk count the exact
    evidence."""
    a = store.arrays
    cit_off, cit_src, ref_off, ref_tgt = a["cit_offsets"], a["cit_sources"], a["ref_offsets"], a["ref_targets"]
    vals, parts, reached, counts = [], [], [], []
    capped = False
    for s in seeds.tolist():
        for hops, deg, weight in (
            ((cit_off, cit_src, ref_off, ref_tgt), store.in_cited, CO_CITATION_WEIGHT),
            ((ref_off, ref_tgt, cit_off, cit_src), store.in_refs, COUPLING_WEIGHT),
        ):
            v, w, c = _two_hop(*hops, s)
            capped |= c
            if not len(v):
                continue
            deg_c = deg[v].astype(np.float64)
            deg_s = float(deg[s])
            vals.append(v)
            parts.append(weight * np.minimum(np.minimum(w, deg_c), deg_s) / np.sqrt(deg_s * deg_c))
            found, walks = _sum_by(v, w, store.n)
            reached.append(found)
            counts.append(np.minimum(walks, np.minimum(deg[found], deg_s)))
    if not vals:
        return np.empty(0, np.int64), np.empty(0), np.empty(0), capped
    found, walks = np.concatenate(reached), np.concatenate(counts)
    order = np.argsort(found, kind="stable")
    start = _runs(found[order])
    cand, most = found[order][start].astype(np.int64), np.maximum.reduceat(walks[order], start)
    scored, part_sums = _sum_by(np.concatenate(vals), np.concatenate(parts), store.n)  # a subset of cand
    score = np.zeros(len(cand))
    score[np.searchsorted(cand, scored)] = part_sums
    keep = ~np.isin(cand, seeds)
    return cand[keep], score[keep], most[keep], capped


def _strengths(store: Store, rows: np.ndarray, cc: np.ndarray, bc: np.ndarray) -> np.ndarray:
    """``score`` of every pair of ``rows`` from their cc and bc matrices (any shape broadcasting against rows)."""
    a = store.arrays
    cit, ref = _lengths(a["cit_offsets"], rows), _lengths(a["ref_offsets"], rows)
    return CO_CITATION_WEIGHT * _norm(cc, cit[:, None], cit[None, :]) + COUPLING_WEIGHT * _norm(
        bc, ref[:, None], ref[None, :]
    )


def _links(strength: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The pairs ``i < j`` of an upper-triangular strength matrix worth drawing, strongest first (ties: lower i,
    then lower j). Only pairs at least PAIR_MIN_STRENGTH strong; of those, every paper's PAIR_TOP_LINKS strongest
    (ties: lower position) are kept, then pairs at least PAIR_STRONG strong, strongest first, while there are
    fewer than PAIR_LINKS_PER_PAPER links a paper in all."""
    r = len(strength)
    full = np.round(strength + strength.T, _ROUND)
    ok = np.triu(full >= PAIR_MIN_STRENGTH, 1)
    top = np.zeros((r, r), dtype=bool)
    if r > 1 and PAIR_TOP_LINKS:
        # per paper, its partners by strength descending, then position
        ranked = np.lexsort((np.broadcast_to(np.arange(r), (r, r)), -full), axis=1)[:, :PAIR_TOP_LINKS]
        np.put_along_axis(top, ranked, True, axis=1)
    top = (top | top.T) & ok
    i, j = np.nonzero(top)
    si, sj = np.nonzero(ok & ~top & (full >= PAIR_STRONG))
    room = max(0, PAIR_LINKS_PER_PAPER * r - len(i))
    first = np.lexsort((sj, si, -full[si, sj]))[:room]
    i, j = np.concatenate((i, si[first])), np.concatenate((j, sj[first]))
    order = np.lexsort((j, i, -full[i, j]))
    return i[order].astype(np.int64), j[order].astype(np.int64)


def similar(
    store: Store,
    seeds: list[int],
    n: int = 40,
    mask: Mask | None = None,
    direct_share: float | None = None,
    min_shared: int = MIN_SHARED,
) -> Similar:
    """The seeds and the ``n`` papers most similar to them (seeds excluded from the ``n``), with the links among
    all of them.

    1. **Candidates.** From each seed, both two-hop lists, whole: its citers -> what they cite (co-citation), its
       references -> who cites them (coupling). That is every paper sharing a citer or a reference with a seed,
       each with its exact ``cc`` and ``bc`` with each seed (:func:`_exact`). When the seeds' lists hold more than
       EXACT_BUDGET entries in all, a sampled walk finds candidates instead (:func:`_sampled`, exact counts for the
       best of them) and the result is ``approximate``.
    2. **Evidence.** Candidates with ``cc >= min_shared`` or ``bc >= min_shared`` with at least one seed qualify.
       ``mask`` (rows -> bool array) applies to candidates only; seeds always stay.
    3. **Order.** A candidate's score is ``sum over seeds of score(seed, candidate)``; the ``n`` best are kept:
       higher score first (compared rounded to 12 decimals), then more citers, then lower row. Fewer than ``n``
       when fewer qualify.
    4. **Links.** Exact ``cc`` and ``bc`` of every pair of the returned rows (:func:`pair_counts`, full lists),
       and their ``score`` as the link's strength. Drawn (:func:`_links`): pairs at least PAIR_MIN_STRENGTH
       strong that are among the PAIR_TOP_LINKS strongest of one of their two papers, then pairs at least
       PAIR_STRONG strong while there are fewer than PAIR_LINKS_PER_PAPER links a paper (at most 164 links for
       the seed and 40 papers; every paper is linked to its closest paper of the map).

    ``direct_share`` (None: no rule): at most ``int(n * direct_share)`` of the ``n`` may be direct references or
    citers of a seed, the best of them; the others are the best qualifying papers related to the seeds only through
    other papers (when there are too few of those, the next best direct ones fill the map). A citation map already
    shows the direct ones; a map of similar papers is for what it does not show.

    ``min_shared`` (at least 1; 1 keeps every paper sharing anything with a seed): the evidence rule above.
    ``seeds``: rows of the store (a repeated seed counts once; a row out of range is a ValueError)."""
    a = store.arrays
    seed_rows = np.asarray(list(dict.fromkeys(int(s) for s in seeds)), dtype=np.int64)
    if len(seed_rows) and (seed_rows.min() < 0 or seed_rows.max() >= store.n):
        raise ValueError(f"seed rows out of range 0..{store.n - 1}: {seeds}")
    if min_shared < 1:
        raise ValueError(f"min_shared must be at least 1: {min_shared}")
    k = len(seed_rows)
    approximate = False
    chosen = np.empty(0, np.int64)
    scores = cocited = coupled = np.empty(0)
    if k and n > 0:
        approximate = exact_cost(store, seed_rows) > EXACT_BUDGET
        if approximate:
            cand, score, sum_cc, sum_bc = _sampled(store, seed_rows, n, mask, direct_share is not None, min_shared)
            mask = None  # the walk's candidates passed it already
        else:
            cand, score, sum_cc, sum_bc = _exact(store, seed_rows, min_shared)
        keys = np.round(score, _ROUND)
        if direct_share is None:
            best = _best(store, cand, keys, n, mask)
        else:
            best = _pick_direct(store, seed_rows, cand, keys, n, direct_share, mask)
        chosen, scores, cocited, coupled = cand[best], score[best], sum_cc[best], sum_bc[best]
    rows = np.concatenate((seed_rows, chosen)).astype(np.int64)
    pcc = pair_counts(a["cit_offsets"], a["cit_sources"], rows)
    pbc = pair_counts(a["ref_offsets"], a["ref_targets"], rows)
    strength = _strengths(store, rows, pcc, pbc)
    i, j = _links(strength)
    return Similar(
        rows=rows,
        scores=np.concatenate((np.full(k, np.nan), np.asarray(scores, dtype=np.float64))),
        cocited=np.concatenate((np.zeros(k, np.int64), np.asarray(cocited, dtype=np.int64))),
        coupled=np.concatenate((np.zeros(k, np.int64), np.asarray(coupled, dtype=np.int64))),
        pair_i=i,
        pair_j=j,
        pair_cocited=pcc[i, j],
        pair_coupled=pbc[i, j],
        pair_strength=strength[i, j],
        approximate=approximate,
        n_seeds=k,
        min_shared=min_shared,
    )


def _sampled(
    store: Store, seeds: np.ndarray, n: int, mask: Mask | None, direct_rule: bool, min_shared: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Qualifying candidates when the seeds' lists are too long to read whole: (rows, exact score, citers shared
    summed over the seeds, references shared summed over the seeds).

    The two-hop walks are sampled deterministically (:func:`_walk`: at most WALK_INTERMEDIATES intermediate papers
    evenly spaced over a seed's list, their lists cut to share about WALK_BUDGET entries); the walk's totals,
    scaled back by the sampling rate, clipped and normalised, estimate each candidate's score and evidence. The best
    ``PRESELECT * n`` candidates by that estimate (three times more with the direct-share rule, which needs room
    for papers not directly linked) that pass ``mask`` get exact ``cc`` and ``bc`` with each seed (the full lists
    of the seeds and of each candidate); those meeting the evidence rule qualify. When fewer than ``n`` do, four
    times more candidates are counted, until none is left."""
    a = store.arrays
    cand, walk_score, walk_count, _ = _walk(store, seeds)
    enough = walk_count >= min_shared
    cand, keys = cand[enough], np.round(walk_score[enough], _ROUND)
    take = PRESELECT * n * (3 if direct_rule else 1)
    scratch = np.zeros(store.n, dtype=bool)
    while True:
        pool = cand[_best(store, cand, keys, take, mask)]
        cc = _counts_with(a["cit_offsets"], a["cit_sources"], seeds, pool, scratch)
        bc = _counts_with(a["ref_offsets"], a["ref_targets"], seeds, pool, scratch)
        ok = (cc.max(axis=0, initial=0) >= min_shared) | (bc.max(axis=0, initial=0) >= min_shared)
        if ok.sum() >= n or take >= len(cand):
            break
        take *= 4
    pool, cc, bc = pool[ok], cc[:, ok], bc[:, ok]
    return pool, _strength_with(store, seeds, pool, cc, bc).sum(axis=0), cc.sum(axis=0), bc.sum(axis=0)


def _strength_with(store: Store, seeds: np.ndarray, rows: np.ndarray, cc: np.ndarray, bc: np.ndarray) -> np.ndarray:
    """``score(seed, row)`` for every seed (row of the result) and row (column) from their cc and bc."""
    a = store.arrays
    cit_off, ref_off = a["cit_offsets"], a["ref_offsets"]
    return CO_CITATION_WEIGHT * _norm(
        cc, _lengths(cit_off, seeds)[:, None], _lengths(cit_off, rows)[None, :]
    ) + COUPLING_WEIGHT * _norm(bc, _lengths(ref_off, seeds)[:, None], _lengths(ref_off, rows)[None, :])


# -- prior and derivative works ---------------------------------------------------------------------------------
def _most_linked(
    store: Store, offsets: np.ndarray, values: np.ndarray, rows: np.ndarray, k: int, mask: Mask | None
) -> list[Ranked]:
    """The ``k`` papers not in ``rows`` (unique) found most often in the lists of ``rows``, with how many of
    them hold each (exact: lists hold a paper once, and are never cut)."""
    _, vals = gather(offsets, values, rows)
    if not len(vals) or k <= 0:
        return []
    with store.row_slots() as slots:
        slots.add(rows)
        vals = vals[slots.positions(vals) < 0]
    vals = np.sort(vals)
    start = _runs(vals)
    found = vals[start].astype(np.int64)
    counts = np.diff(np.append(start, len(vals)))
    best = _best(store, found, counts, k, mask)
    return [Ranked(row=int(r), count=int(c), of=len(rows)) for r, c in zip(found[best], counts[best], strict=True)]


def prior_derivative(
    store: Store, rows: np.ndarray, k: int = 10, mask: Mask | None = None
) -> tuple[list[Ranked], list[Ranked]]:
    """The prior and derivative works of a map whose papers are ``rows`` (repeats count once; ``of`` is how many
    distinct rows there are), as Local Citation Network and Connected Papers list them:

    * prior works: the ``k`` papers not in ``rows`` cited by most of them; ``count`` = how many of ``rows`` cite
      it = ``|citers(p) ∩ rows|``;
    * derivative works: the ``k`` papers not in ``rows`` that cite most of them; ``count`` = how many of ``rows``
      it cites = ``|references(p) ∩ rows|``.

    Most counted first, then more citers in the dataset, then lower row; ``mask`` (the view's filters: rows ->
    bool array) applies to the papers listed. Exact: every list of ``rows`` is read whole (a map holding a paper
    with very many citers reads them all: cheap, each list being one contiguous slice of the CSR arrays)."""
    rows = np.asarray(list(dict.fromkeys(np.asarray(rows, dtype=np.int64).tolist())), dtype=np.int64)
    a = store.arrays
    prior = _most_linked(store, a["ref_offsets"], a["ref_targets"], rows, k, mask)
    derivative = _most_linked(store, a["cit_offsets"], a["cit_sources"], rows, k, mask)
    return prior, derivative
