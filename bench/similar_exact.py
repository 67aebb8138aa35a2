"""Is the map of similar papers exact? For the most cited papers of a dataset, the papers each one's map shows
against the papers the documented score ranks highest, found by brute force.

    python bench/similar_exact.py                                            # the default dataset
    python bench/similar_exact.py --data bench/out/large-1000000-10000000-s1 # a synthetic one (bench/synth.py)
    python bench/similar_exact.py --top 20 --k 40 --share 0.33

For each of the ``--top`` most cited papers ``p`` (ties: the lower row), ``dashboard.graph.similarity.similar``
builds ``p``'s map of ``--k`` papers as the page does (``--share``: the share of direct references and citers,
:data:`dashboard.graph.discovery.DIRECT_SHARE` unless given; ``--share none``: no such rule), and the brute force of
the test suite (``tests/test_similarity.py``, ``brute_similar``) counts in plain Python every paper sharing a citer
or a reference with ``p`` and ranks them by the same rules and the same tie-break (score rounded to 12 decimals,
then more citers, then the lower row). overlap@k: how many of the brute force's papers the map shows; "same order":
whether the two lists are equal, in order. "read": the list entries the exact counts read
(:func:`dashboard.graph.similarity.exact_cost`). "citemap" and "brute force": seconds of each, in this process.

Prints the overlap over all seeds and one table (written to ``bench/out/results-similar-exact.json`` too); exits 1
if a map is approximate or misses a paper.
"""

from __future__ import annotations

import argparse
import sys
import time

import common  # first: puts the repository on sys.path
import numpy as np

from dashboard.dataset.store import Store
from dashboard.graph.discovery import DIRECT_SHARE
from dashboard.graph.similarity import MIN_SHARED, exact_cost, similar
from tests.test_similarity import brute_similar


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", help="a dataset folder (default: the default dataset)")
    ap.add_argument("--top", type=int, default=20, help="the most cited papers measured")
    ap.add_argument("--k", type=int, default=40, help="papers of a map")
    ap.add_argument("--share", default=str(DIRECT_SHARE), help="share of direct neighbours, or 'none'")
    args = ap.parse_args(argv)
    share = None if args.share == "none" else float(args.share)
    store = Store.load(args.data) if args.data else Store.load(common.default_data())
    top = np.lexsort((np.arange(store.n), -store.in_cited.astype(np.int64)))[: args.top].tolist()
    columns = ["seed", "citers", "read", f"overlap@{args.k}", "same order", "citemap (s)", "brute force (s)"]
    rows: list[list[str]] = []
    hits = wanted = 0
    bad = False
    for row in top:
        t = time.perf_counter()
        found = similar(store, [row], n=args.k, direct_share=share)
        ours = time.perf_counter() - t
        t = time.perf_counter()
        want = brute_similar(store, [row], args.k, MIN_SHARED, share)
        brute = time.perf_counter() - t
        got = found.rows[1:].tolist()
        overlap = len(set(got) & set(want))
        hits, wanted = hits + overlap, wanted + len(want)
        bad |= found.approximate or overlap < len(want) or len(got) != len(want)
        rows.append(
            [
                store.id(row),
                f"{int(store.in_cited[row]):,}",
                f"{exact_cost(store, np.asarray([row])):,}",
                f"{overlap} of {len(want)}" + (" (approximate)" if found.approximate else ""),
                "yes" if got == want else "no",
                f"{ours:.3f}",
                f"{brute:.2f}",
            ]
        )
        common.log(" | ".join(rows[-1]))
    rule = "none" if share is None else f"{share:.2f}"
    verdict = (
        f"{store.n:,} papers, {store.n_citations:,} citations; maps of {args.k}, direct share {rule}: "
        f"overlap over the {len(top)} most cited papers {hits:,} of {wanted:,}."
    )
    print(verdict)
    print()
    print(common.markdown(columns, rows))
    common.write_results("similar-exact", columns, rows, verdict, hits=hits, wanted=wanted)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
