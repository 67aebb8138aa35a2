"""Leave-out evaluation of the map of similar papers: does a paper's map hold the papers that later work cites
together with it?

    python bench/similar_eval.py [--papers 200] [--min-citers 10] [--hide 0.2] [--k 40] [--seed 1]

On the default dataset (built from the repository's inputs on first need), ``--papers`` papers ``p`` are drawn
(seeded) among those with at least ``--min-citers`` citers. For each, a random ``--hide`` share of its citing papers
(at least one) is hidden: every reference of a hidden paper ``h`` is removed from the graph, as if ``h`` were not
written yet. Each ranker then builds ``p``'s map of ``--k`` papers from what is left, and each pair (``h``, ``q``)
with ``q`` another paper ``h`` cites (``q`` cited together with ``p`` by ``h``) is a question: is ``q`` in the map?

    hit@k = pairs whose q is in p's map / all pairs        (micro: every pair counts once)
    per paper = the same share per paper, averaged over the papers (every paper counts once)

Rankers, all on the same reduced graph:
* citemap as shipped (``dashboard.graph.similarity.similar`` with ``dashboard.graph.discovery.DIRECT_SHARE``), and
  variants of its rules: the evidence rule off or changed, the direct-share rule on or off;
* co-citation: the papers cited together with ``p`` by most papers (``cc``, raw count);
* coupling: the papers sharing most references with ``p`` (``bc``, raw count);
* most cited: the papers with most citers in the dataset, whatever ``p`` is (how much popularity alone explains).
Ties, for every ranker: more citers (in the reduced graph) first, then the lower row.

Prints one table and writes it to bench/out/results-similar-eval.json; progress goes to stderr. Deterministic for
a given ``--seed``.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass

import common
import numpy as np

from dashboard.dataset.store import Store
from dashboard.graph.discovery import DIRECT_SHARE
from dashboard.graph.similarity import MIN_SHARED, similar


class Hidden:
    """The parts of a :class:`Store` that ranking reads (``n``, the CSR arrays, ``in_cited``, ``in_refs``,
    ``references``, ``citers``), with every reference of some papers removed."""

    def __init__(self, store: Store, ref_owner: np.ndarray, hidden: np.ndarray) -> None:
        a = store.arrays
        n = store.n
        gone = np.zeros(n, dtype=bool)
        gone[hidden] = True
        keep_ref = ~gone[ref_owner]  # a hidden paper's references
        keep_cit = ~gone[a["cit_sources"]]  # the same citations, seen from the cited paper
        self.n = n
        ref_targets = a["ref_targets"][keep_ref]
        cit_sources = a["cit_sources"][keep_cit]
        self.in_refs = np.bincount(ref_owner[keep_ref], minlength=n).astype(a["in_refs"].dtype)
        self.in_cited = np.bincount(ref_targets, minlength=n).astype(a["in_cited"].dtype)
        ref_offsets = np.zeros(n + 1, dtype=a["ref_offsets"].dtype)
        np.cumsum(self.in_refs, out=ref_offsets[1:])
        cit_offsets = np.zeros(n + 1, dtype=a["cit_offsets"].dtype)
        np.cumsum(self.in_cited, out=cit_offsets[1:])
        self.arrays = {
            "ref_offsets": ref_offsets,
            "ref_targets": ref_targets,
            "cit_offsets": cit_offsets,
            "cit_sources": cit_sources,
        }

    def references(self, row: int) -> np.ndarray:
        off = self.arrays["ref_offsets"]
        return self.arrays["ref_targets"][off[row] : off[row + 1]]

    def citers(self, row: int) -> np.ndarray:
        off = self.arrays["cit_offsets"]
        return self.arrays["cit_sources"][off[row] : off[row + 1]]


def plain(store: Hidden, p: int, k: int, direction: str) -> np.ndarray:
    """The ``k`` papers with the most citers in common with ``p`` (``"cc"``) or references in common (``"bc"``),
    every candidate counted exactly; ties: more citers, then lower row."""
    first, second = (store.citers, store.references) if direction == "cc" else (store.references, store.citers)
    mids = first(p)
    if not len(mids):
        return np.empty(0, np.int64)
    reached = np.concatenate([second(int(m)) for m in mids.tolist()])
    counts = np.bincount(reached, minlength=store.n)
    counts[p] = 0
    cand = np.flatnonzero(counts)
    order = np.lexsort((cand, -store.in_cited[cand].astype(np.int64), -counts[cand]))
    return cand[order[:k]]


def most_cited(store: Hidden, p: int, k: int) -> np.ndarray:
    """The ``k`` papers other than ``p`` with the most citers; ties: lower row."""
    top = np.lexsort((np.arange(store.n), -store.in_cited.astype(np.int64)))[: k + 1]
    return top[top != p][:k]


def citemap(direct_share: float | None, min_shared: int):
    def rank(store: Hidden, p: int, k: int) -> np.ndarray:
        found = similar(store, [p], n=k, direct_share=direct_share, min_shared=min_shared)  # type: ignore[arg-type]
        return found.rows[found.n_seeds :]

    return rank


@dataclass
class Tally:
    hits: int = 0
    pairs: int = 0
    shown: int = 0
    per_paper: float = 0.0
    papers: int = 0
    seconds: float = 0.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--papers", type=int, default=200)
    ap.add_argument("--min-citers", type=int, default=10)
    ap.add_argument("--hide", type=float, default=0.2, help="share of a paper's citers hidden (at least one)")
    ap.add_argument("--k", type=int, default=40, help="papers in a map")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    store = Store.load(common.default_data())
    share = "none" if DIRECT_SHARE is None else f"{DIRECT_SHARE:.2f}"
    rankers = {
        f"citemap as shipped (evidence {MIN_SHARED}, direct share {share})": citemap(DIRECT_SHARE, MIN_SHARED),
        f"citemap, evidence {MIN_SHARED}, direct share 0.33": citemap(1 / 3, MIN_SHARED),
        f"citemap, evidence {MIN_SHARED}, no direct share": citemap(None, MIN_SHARED),
        "citemap, evidence 2, no direct share": citemap(None, 2),
        "citemap, evidence 4, no direct share": citemap(None, 4),
        "citemap before: no evidence rule, direct share 0.33": citemap(1 / 3, 1),
        "citemap score alone: no evidence rule, no direct share": citemap(None, 1),
        "co-citation (cc count)": lambda s, p, k: plain(s, p, k, "cc"),
        "coupling (bc count)": lambda s, p, k: plain(s, p, k, "bc"),
        "most cited in the dataset (ignores p)": most_cited,
    }
    if DIRECT_SHARE is None:
        del rankers[f"citemap, evidence {MIN_SHARED}, no direct share"]
    else:
        del rankers[f"citemap, evidence {MIN_SHARED}, direct share 0.33"]

    rng = np.random.default_rng(args.seed)
    eligible = np.flatnonzero(store.in_cited >= args.min_citers)
    papers = np.sort(rng.choice(eligible, size=min(args.papers, len(eligible)), replace=False))
    ref_owner = np.repeat(np.arange(store.n), np.diff(store.arrays["ref_offsets"]))
    tallies = {name: Tally() for name in rankers}
    total_pairs = 0
    t0 = time.perf_counter()
    for done, p in enumerate(papers.tolist(), 1):
        citers = store.citers(p)
        hidden = np.sort(rng.choice(citers, size=max(1, round(args.hide * len(citers))), replace=False))
        reduced = Hidden(store, ref_owner, hidden)
        wanted = np.concatenate([store.references(int(h)) for h in hidden.tolist()])
        wanted = wanted[wanted != p]  # one entry per pair (h, q)
        if not len(wanted):
            continue
        total_pairs += len(wanted)
        for name, rank in rankers.items():
            t = time.perf_counter()
            shown = rank(reduced, p, args.k)
            tally = tallies[name]
            tally.seconds += time.perf_counter() - t
            found = int(np.isin(wanted, shown).sum())
            tally.hits += found
            tally.pairs += len(wanted)
            tally.shown += len(shown)
            tally.per_paper += found / len(wanted)
            tally.papers += 1
        if done % 50 == 0:
            common.log(f"{done}/{len(papers)} papers, {time.perf_counter() - t0:.0f} s")

    verdict = (
        f"Leave-out on the default dataset ({store.n:,} papers): {len(papers)} papers with at least "
        f"{args.min_citers} citers, {args.hide:.0%} of each one's citers hidden (seed {args.seed}), "
        f"{total_pairs:,} pairs (hidden citer, paper it cites together with p)."
    )
    columns = ["ranker", f"hit@{args.k}", "per paper", "papers in a map (mean)"]
    rows = [
        [
            name,
            f"{t.hits / max(t.pairs, 1):.3f}",
            f"{t.per_paper / max(t.papers, 1):.3f}",
            f"{t.shown / max(t.papers, 1):.1f}",
        ]
        for name, t in tallies.items()
    ]
    print(verdict)
    print()
    print(common.markdown(columns, rows))
    ms = {name: 1000 * t.seconds / max(t.papers, 1) for name, t in tallies.items()}
    common.log("ms a map: " + ", ".join(f"{name}: {v:.1f}" for name, v in ms.items()))
    common.write_results("similar-eval", columns, rows, verdict, ms_a_map=ms, pairs=total_pairs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
