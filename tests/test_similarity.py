"""dashboard.graph.similarity: co-citation and bibliographic coupling (similar papers, their links) and the prior
and derivative works of a map, on a graph small enough to count by hand and against brute force on the seed data."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from dashboard.dataset.store import Store
from dashboard.graph import similarity
from dashboard.graph.similarity import Ranked, pair_counts, prior_derivative, similar
from dashboard.importers.common import PaperRecord
from tests.conftest import make_store

# The hand graph. S is the seed; P, Q, T cite it; it cites R1, R2.
#   P -> S, A, B      Q -> S, A      T -> S, C      Z -> Y
#   S -> R1, R2       A -> R1        B -> R1, R2, R3        C -> R3
#   X -> R2           X2 -> R2       Y -> R2
# citers:     S 3 (P Q T)  A 2 (P Q)  B 1 (P)  C 1 (T)  Y 1 (Z)  X 0  X2 0
# references: S 2 (R1 R2)  A 1 (R1)   B 3 (R1 R2 R3)  C 1 (R3)  X 1 (R2)  X2 1 (R2)  Y 1 (R2)
# With S (cc: papers citing both; bc: references in common; score = cc/sqrt(cit*cit)/2 + bc/sqrt(refs*refs)/2):
#   A:  cc 2 (P Q) -> 2/sqrt(3*2) = 0.81650;  bc 1 (R1)    -> 1/sqrt(2*1) = 0.70711;  score 0.76180
#   B:  cc 1 (P)   -> 1/sqrt(3*1) = 0.57735;  bc 2 (R1 R2) -> 2/sqrt(2*3) = 0.81650;  score 0.69692
#   Y:  cc 0;                                 bc 1 (R2)    -> 1/sqrt(2*1) = 0.70711;  score 0.35355 (1 citer)
#   X:  same as Y, no citer: after Y; X2: same as X: X and X2 by row
#   C:  cc 1 (T)   -> 1/sqrt(3*1) = 0.57735;  bc 0;                                    score 0.28868
# P, Q, T, Z, R1, R2, R3 share neither citers nor references with S: never similar to it.
EDGES = [
    ("P", "S"),
    ("P", "A"),
    ("P", "B"),
    ("Q", "S"),
    ("Q", "A"),
    ("T", "S"),
    ("T", "C"),
    ("Z", "Y"),
    ("S", "R1"),
    ("S", "R2"),
    ("A", "R1"),
    ("B", "R1"),
    ("B", "R2"),
    ("B", "R3"),
    ("C", "R3"),
    ("X", "R2"),
    ("X2", "R2"),
    ("Y", "R2"),
]
IDS = ["S", "A", "B", "C", "X", "X2", "Y", "Z", "P", "Q", "T", "R1", "R2", "R3"]
R2 = math.sqrt(2)
R3 = math.sqrt(3)
R6 = math.sqrt(6)
SCORE = {
    "A": (2 / R6 + 1 / R2) / 2,
    "B": (1 / R3 + 2 / R6) / 2,
    "Y": 1 / R2 / 2,
    "X": 1 / R2 / 2,
    "X2": 1 / R2 / 2,
    "C": 1 / R3 / 2,
}
COUNTS = {"A": (2, 1), "B": (1, 2), "Y": (0, 1), "X": (0, 1), "X2": (0, 1), "C": (1, 0)}  # (cc, bc) with S


@pytest.fixture(scope="module")
def hand(tmp_path_factory: pytest.TempPathFactory) -> Store:
    papers = [PaperRecord(title=f"Paper {pid}", id=pid, year=2000 + i) for i, pid in enumerate(IDS)]
    return make_store(tmp_path_factory.mktemp("sim") / "hand", papers, EDGES)


def ids(store: Store, rows) -> list[str]:
    return store.ids(np.asarray(rows, dtype=np.int64))


def x_order(store: Store) -> list[str]:
    """X and X2 tie on score and citers: the lower row first."""
    return sorted(["X", "X2"], key=store.row)


def test_similar_ranks_by_blended_cosine_then_citers_then_row(hand: Store) -> None:
    found = similar(hand, [hand.row("S")], n=10)
    assert ids(hand, found.rows) == ["S", "A", "B", "Y", *x_order(hand), "C"]
    assert found.n_seeds == 1 and found.rows.dtype == np.int64
    assert math.isnan(found.scores[0]) and found.cocited[0] == 0 and found.coupled[0] == 0
    names = ids(hand, found.rows[1:])
    assert found.scores[1:].tolist() == pytest.approx([SCORE[p] for p in names], abs=1e-12)
    assert found.scores[1] == pytest.approx(0.76180, abs=1e-5) and found.scores[-1] == pytest.approx(0.28868, abs=1e-5)
    assert list(zip(found.cocited[1:].tolist(), found.coupled[1:].tolist(), strict=True)) == [COUNTS[p] for p in names]
    assert found.capped is False


def test_seeds_first_and_not_counted_in_n(hand: Store) -> None:
    found = similar(hand, [hand.row("S")], n=3)
    assert ids(hand, found.rows) == ["S", "A", "B", "Y"]
    # two seeds, in the order given, a repeat dropped; A is a seed now, so never among the similar papers
    both = similar(hand, [hand.row("A"), hand.row("S"), hand.row("A")], n=2)
    assert ids(hand, both.rows[:2]) == ["A", "S"] and both.n_seeds == 2 and len(both.rows) == 4
    assert "A" not in ids(hand, both.rows[2:]) and "S" not in ids(hand, both.rows[2:])
    assert np.isnan(both.scores[:2]).all() and both.cocited[:2].tolist() == [0, 0]


def test_scores_sum_over_seeds(hand: Store) -> None:
    # seeds S and A; B: with S 0.69692 (above); with A: cc 1 (P) -> 1/sqrt(2*1), bc 1 (R1) -> 1/sqrt(1*3)
    found = similar(hand, [hand.row("S"), hand.row("A")], n=10)
    at = dict(zip(ids(hand, found.rows), range(len(found.rows)), strict=True))
    b = at["B"]
    assert found.scores[b] == pytest.approx(SCORE["B"] + (1 / R2 + 1 / R3) / 2)
    assert (found.cocited[b], found.coupled[b]) == (1 + 1, 2 + 1)
    # C: with S 0.28868, with A nothing in common
    assert found.scores[at["C"]] == pytest.approx(SCORE["C"])
    # Y, X, X2 share nothing with A: their scores with S alone (0.35355), B first with 0.69692 + 0.64222
    assert ids(hand, found.rows[2:]) == ["B", "Y", *x_order(hand), "C"]
    assert found.scores[at["Y"]] == pytest.approx(SCORE["Y"])


def test_mask_drops_candidates_never_seeds(hand: Store) -> None:
    b, s = hand.row("B"), hand.row("S")
    found = similar(hand, [s], n=10, mask=lambda rows: (rows != b) & (rows != s))
    assert ids(hand, found.rows) == ["S", "A", "Y", *x_order(hand), "C"]
    none = similar(hand, [s], n=10, mask=lambda rows: np.zeros(len(rows), dtype=bool))
    assert ids(hand, none.rows) == ["S"] and len(none.pair_i) == 0


def test_pairs_have_exact_counts_and_blended_strength(hand: Store) -> None:
    found = similar(hand, [hand.row("S")], n=10)
    names = ids(hand, found.rows)
    got = {}
    for i, j, cc, bc, w in zip(
        found.pair_i.tolist(),
        found.pair_j.tolist(),
        found.pair_cocited.tolist(),
        found.pair_coupled.tolist(),
        found.pair_strength.tolist(),
        strict=True,
    ):
        assert i < j
        got[frozenset((names[i], names[j]))] = (cc, bc, w)
    want = {  # (cc, bc, strength) by hand
        ("S", "A"): (2, 1, SCORE["A"]),
        ("S", "B"): (1, 2, SCORE["B"]),
        ("S", "C"): (1, 0, SCORE["C"]),
        ("S", "X"): (0, 1, SCORE["X"]),
        ("S", "X2"): (0, 1, SCORE["X"]),
        ("S", "Y"): (0, 1, SCORE["Y"]),
        ("A", "B"): (1, 1, (1 / R2 + 1 / R3) / 2),  # P cites both; R1
        ("B", "C"): (0, 1, 1 / R3 / 2),  # R3: 1/sqrt(3*1)
        ("B", "Y"): (0, 1, 1 / R3 / 2),
        ("X", "X2"): (0, 1, 0.5),
        ("X", "Y"): (0, 1, 0.5),
        ("X2", "Y"): (0, 1, 0.5),  # R2: 1/sqrt(1*1)
    }
    # B-X and B-X2 (0.289) are nobody's three strongest (X's are X2, Y: 0.5, then S: 0.354; B's are S, A and Y,
    # the first of its four 0.289 ties) and below PAIR_STRONG: not linked; A-C, C-X... share nothing: not linked
    assert set(got) == {frozenset(p) for p in want}
    for pair, (cc, bc, w) in want.items():
        assert got[frozenset(pair)][:2] == (cc, bc), pair
        assert got[frozenset(pair)][2] == pytest.approx(w, abs=1e-12), pair
    assert found.pair_strength.tolist() == sorted(found.pair_strength.tolist(), reverse=True)


def test_capped_walk_still_reports_exact_counts(hand: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(similarity, "WALK_INTERMEDIATES", 1)  # one of S's 3 citers, one of its 2 references
    monkeypatch.setattr(similarity, "WALK_BUDGET", 2)  # two entries of its list
    found = similar(hand, [hand.row("S")], n=10)
    assert found.capped is True
    names = ids(hand, found.rows[1:])
    assert names and set(names) <= set(COUNTS)
    assert list(zip(found.cocited[1:].tolist(), found.coupled[1:].tolist(), strict=True)) == [COUNTS[p] for p in names]
    assert found.scores[1:].tolist() == pytest.approx([SCORE[p] for p in names])


def test_no_seed_no_neighbour_and_bad_rows(hand: Store) -> None:
    empty = similar(hand, [], n=10)
    assert len(empty.rows) == 0 and len(empty.pair_i) == 0 and empty.n_seeds == 0
    alone = similar(hand, [hand.row("Z")], n=10)  # Z cites Y, which nobody else cites; nobody cites Z
    assert ids(hand, alone.rows) == ["Z"]
    seeds_only = similar(hand, [hand.row("S"), hand.row("A")], n=0)
    assert ids(hand, seeds_only.rows) == ["S", "A"]
    assert (seeds_only.pair_cocited.tolist(), seeds_only.pair_coupled.tolist()) == ([2], [1])
    with pytest.raises(ValueError):
        similar(hand, [hand.n], n=5)


def test_prior_and_derivative_on_the_hand_graph(hand: Store) -> None:
    rows = np.asarray([hand.row(p) for p in ("S", "A", "B")])
    prior, derivative = prior_derivative(hand, rows)
    r = hand.row
    # S, A, B cite R1 (all 3), R2 (S, B), R3 (B); P cites all 3, Q S and A, T S
    assert prior == [Ranked(r("R1"), 3, 3), Ranked(r("R2"), 2, 3), Ranked(r("R3"), 1, 3)]
    assert derivative == [Ranked(r("P"), 3, 3), Ranked(r("Q"), 2, 3), Ranked(r("T"), 1, 3)]
    # a paper of the map is never listed; a repeat counts once
    prior, derivative = prior_derivative(hand, np.asarray([*rows, r("P"), r("P")]), k=2)
    assert prior == [Ranked(r("R1"), 3, 4), Ranked(r("R2"), 2, 4)]
    assert derivative == [Ranked(r("Q"), 2, 4), Ranked(r("T"), 1, 4)]
    # the mask applies to the listed papers
    prior, _ = prior_derivative(hand, rows, mask=lambda x: x != r("R1"))
    assert prior == [Ranked(r("R2"), 2, 3), Ranked(r("R3"), 1, 3)]
    # ties: more citers first (R1 has 3, R3 2), then lower row (P, Q, T have none)
    prior, derivative = prior_derivative(hand, np.asarray([r("A"), r("C")]))
    assert prior == [Ranked(r("R1"), 1, 2), Ranked(r("R3"), 1, 2)]
    assert [d.row for d in derivative] == sorted(r(p) for p in ("P", "Q", "T"))
    assert prior_derivative(hand, np.asarray([], dtype=np.int64)) == ([], [])


def brute_ranked(store: Store, rows: list[int], lists, k: int) -> list[Ranked]:
    inside = set(rows)
    count = Counter(int(x) for r in rows for x in lists(r).tolist() if int(x) not in inside)
    order = sorted(count, key=lambda x: (-count[x], -int(store.in_cited[x]), x))
    return [Ranked(x, count[x], len(rows)) for x in order[:k]]


def test_prior_derivative_match_brute_force_on_seed_data(store: Store) -> None:
    top = int(store.arrays["rank_rows"][0])
    for hub in (top, int(store.arrays["rank_rows"][5])):
        rows = list(dict.fromkeys([hub, *store.references(hub).tolist(), *store.citers(hub).tolist()]))
        prior, derivative = prior_derivative(store, np.asarray(rows), k=1000)
        assert prior == brute_ranked(store, rows, store.references, 1000)
        assert derivative == brute_ranked(store, rows, store.citers, 1000)
        assert prior or derivative
    rows = list(range(0, store.n, 3))
    for k in (1, 2, 3, 7, 20):  # cuts through ties of count and of citers
        prior, derivative = prior_derivative(store, np.asarray(rows), k=k)
        assert prior == brute_ranked(store, rows, store.references, k) and len(prior) == k
        assert derivative == brute_ranked(store, rows, store.citers, k)
    # a filter: only papers of even rows listed
    prior, derivative = prior_derivative(store, np.asarray(rows), k=4, mask=lambda x: x % 2 == 0)
    assert prior == [p for p in brute_ranked(store, rows, store.references, 1000) if p.row % 2 == 0][:4]
    assert derivative == [p for p in brute_ranked(store, rows, store.citers, 1000) if p.row % 2 == 0][:4]
    assert len(prior) == 4


def brute_score(store: Store, a: int, b: int) -> tuple[int, int, float]:
    ca, cb = set(store.citers(a).tolist()), set(store.citers(b).tolist())
    ra, rb = set(store.references(a).tolist()), set(store.references(b).tolist())
    cc, bc = len(ca & cb), len(ra & rb)
    s = (0.5 * cc / math.sqrt(len(ca) * len(cb)) if cc else 0.0) + (
        0.5 * bc / math.sqrt(len(ra) * len(rb)) if bc else 0.0
    )
    return cc, bc, s


def test_similar_matches_brute_force_on_seed_data(store: Store) -> None:
    seeds = [int(store.arrays["rank_rows"][0]), int(store.arrays["rank_rows"][3])]
    found = similar(store, seeds, n=15)
    every = {}
    for c in range(store.n):
        if c in seeds:
            continue
        parts = [brute_score(store, s, c) for s in seeds]
        total = sum(p[2] for p in parts)
        if total > 0:
            every[c] = (sum(p[0] for p in parts), sum(p[1] for p in parts), total)
    best = sorted(every, key=lambda c: (-round(every[c][2], 12), -int(store.in_cited[c]), c))[:15]
    assert len(best) == 15 and found.capped is False
    assert found.rows.tolist() == [*seeds, *best]
    assert found.scores[2:].tolist() == pytest.approx([every[c][2] for c in best])
    assert found.cocited[2:].tolist() == [every[c][0] for c in best]
    assert found.coupled[2:].tolist() == [every[c][1] for c in best]
    rows = found.rows.tolist()
    for i, j, cc, bc, w in zip(
        found.pair_i.tolist(),
        found.pair_j.tolist(),
        found.pair_cocited.tolist(),
        found.pair_coupled.tolist(),
        found.pair_strength.tolist(),
        strict=True,
    ):
        assert (cc, bc) == brute_score(store, rows[i], rows[j])[:2]
        assert w == pytest.approx(brute_score(store, rows[i], rows[j])[2])
    # every paper is linked to its strongest partner in the map
    linked = set(zip(found.pair_i.tolist(), found.pair_j.tolist(), strict=True))
    for i in range(len(rows)):
        strengths = [brute_score(store, rows[i], rows[j])[2] if j != i else -1 for j in range(len(rows))]
        j = int(np.argmax(strengths))
        if strengths[j] >= similarity.PAIR_MIN_STRENGTH:
            assert (min(i, j), max(i, j)) in linked


def test_pair_counts_are_exact_intersections(store: Store) -> None:
    rows = np.asarray([int(r) for r in store.arrays["rank_rows"][:30]])
    a = store.arrays
    cc = pair_counts(a["cit_offsets"], a["cit_sources"], rows)
    bc = pair_counts(a["ref_offsets"], a["ref_targets"], rows)
    assert cc.sum() > 0 and bc.sum() > 0
    for i in range(len(rows)):
        for j in range(len(rows)):
            want = brute_score(store, int(rows[i]), int(rows[j]))[:2] if i < j else (0, 0)
            assert (int(cc[i, j]), int(bc[i, j])) == want


def panel_lists(store: Store, state) -> tuple[object, dict[str, list[tuple[str, str]]]]:
    """The map of a state and its panel's prior and derivative works as the page lists them (dashboard/web/callbacks/
    render.py): {"prior" | "derivative": [(paper id, count text)]}."""
    from dashboard.view.payload import build_subgraph
    from dashboard.web.callbacks.render import discovery_blocks

    sub = build_subgraph(store, state)
    lists = {}
    for block in discovery_blocks(store, sub, state, frozenset()):
        kind = block.className.removeprefix("list list-")
        lists[kind] = [
            (li.children[0].id["index"], li.children[1].children)
            for li in block.children[1].children
            if isinstance(li.children, list)
        ]
    return sub, lists


def brute_lists(store: Store, rows: list[int], mask=None, k: int = 10) -> dict[str, list[tuple[str, str]]]:
    """The prior and derivative works of a map counted here over its papers' lists, as the panel words them."""
    out = {}
    for kind, lists, verb in (("prior", store.references, "cited by"), ("derivative", store.citers, "cites")):
        ranked = [
            p for p in brute_ranked(store, rows, lists, store.n) if mask is None or bool(mask(np.asarray([p.row]))[0])
        ][:k]
        out[kind] = [(store.id(p.row), f"{verb} {p.count:,} of the {p.of:,} in view") for p in ranked]
    return out


@pytest.mark.parametrize("kind", ["similar", "path", "similar, filtered"])
def test_panel_lists_prior_and_derivative_works_of_a_similarity_map_and_a_path(default_store: Store, kind: str) -> None:
    """Issue 12, item 2: prior and derivative works for any view, both modes. The panel's lists of a similarity map
    and of a path count the papers of that map (not the seeds' citation map), as brute force counts them."""
    from dashboard.graph.neighbourhood import filter_fn
    from dashboard.graph.state import ViewState

    store = default_store
    state = {
        "similar": ViewState(("1706.03762",), mode="similar", limit=40),
        "path": ViewState(("2106.03764",), path=("2106.03764", "1512.03385")),
        "similar, filtered": ViewState(("1706.03762",), mode="similar", limit=40, years=(2019, 2021)),
    }[kind]
    sub, lists = panel_lists(store, state)
    rows = list(dict.fromkeys(sub.rows.tolist()))
    from dataclasses import replace

    want_n = {"similar": 41, "path": 4}[sub.kind]
    if state.filtered:  # the filters narrow the unfiltered map: fewer papers, none it lacks
        whole = panel_lists(store, replace(state, years=None))[0]
        assert set(rows) < set(whole.rows.tolist()) and len(rows) == len(sub.rows) < want_n
    else:
        assert sub.kind == kind and len(rows) == len(sub.rows) == want_n
    want = brute_lists(store, rows, filter_fn(store, state))
    assert lists == want and len(lists["prior"]) == len(lists["derivative"]) == 10
    assert all(pid not in store.ids(rows) for entries in lists.values() for pid, _ in entries)
    # the lists follow the map drawn: the seeds' citation map has others
    assert lists != panel_lists(store, ViewState(state.seeds))[1]
