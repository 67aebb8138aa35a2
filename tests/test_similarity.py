"""dashboard.graph.similarity: co-citation and bibliographic coupling (similar papers, their links) and the prior
and derivative works of a map, on a graph small enough to count by hand and against brute force on the seed data."""

from __future__ import annotations

import math
import re
from collections import Counter
from pathlib import Path

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
# No paper shares 3 citers or 3 references with S: the tests of scores, order and links on this graph turn the
# evidence rule off (min_shared=1: any shared citer or reference); the rule has its own graphs further down.


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
    found = similar(hand, [hand.row("S")], n=10, min_shared=1)
    assert ids(hand, found.rows) == ["S", "A", "B", "Y", *x_order(hand), "C"]
    assert found.n_seeds == 1 and found.rows.dtype == np.int64
    assert math.isnan(found.scores[0]) and found.cocited[0] == 0 and found.coupled[0] == 0
    names = ids(hand, found.rows[1:])
    assert found.scores[1:].tolist() == pytest.approx([SCORE[p] for p in names], abs=1e-12)
    assert found.scores[1] == pytest.approx(0.76180, abs=1e-5) and found.scores[-1] == pytest.approx(0.28868, abs=1e-5)
    assert list(zip(found.cocited[1:].tolist(), found.coupled[1:].tolist(), strict=True)) == [COUNTS[p] for p in names]
    assert found.approximate is False


def test_seeds_first_and_not_counted_in_n(hand: Store) -> None:
    found = similar(hand, [hand.row("S")], n=3, min_shared=1)
    assert ids(hand, found.rows) == ["S", "A", "B", "Y"]
    # two seeds, in the order given, a repeat dropped; A is a seed now, so never among the similar papers
    both = similar(hand, [hand.row("A"), hand.row("S"), hand.row("A")], n=2, min_shared=1)
    assert ids(hand, both.rows[:2]) == ["A", "S"] and both.n_seeds == 2 and len(both.rows) == 4
    assert "A" not in ids(hand, both.rows[2:]) and "S" not in ids(hand, both.rows[2:])
    assert np.isnan(both.scores[:2]).all() and both.cocited[:2].tolist() == [0, 0]


def test_scores_sum_over_seeds(hand: Store) -> None:
    # seeds S and A; B: with S 0.69692 (above); with A: cc 1 (P) -> 1/sqrt(2*1), bc 1 (R1) -> 1/sqrt(1*3)
    found = similar(hand, [hand.row("S"), hand.row("A")], n=10, min_shared=1)
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
    found = similar(hand, [s], n=10, min_shared=1, mask=lambda rows: (rows != b) & (rows != s))
    assert ids(hand, found.rows) == ["S", "A", "Y", *x_order(hand), "C"]
    none = similar(hand, [s], n=10, min_shared=1, mask=lambda rows: np.zeros(len(rows), dtype=bool))
    assert ids(hand, none.rows) == ["S"] and len(none.pair_i) == 0


def test_pairs_have_exact_counts_and_blended_strength(hand: Store) -> None:
    found = similar(hand, [hand.row("S")], n=10, min_shared=1)
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


def test_a_sampled_walk_still_reports_exact_counts(hand: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(similarity, "EXACT_BUDGET", 0)  # too long to read whole: the sampled walk
    monkeypatch.setattr(similarity, "WALK_INTERMEDIATES", 1)  # one of S's 3 citers, one of its 2 references
    monkeypatch.setattr(similarity, "WALK_BUDGET", 2)  # two entries of its list
    found = similar(hand, [hand.row("S")], n=10, min_shared=1)
    assert found.approximate is True
    names = ids(hand, found.rows[1:])
    assert names and set(names) <= set(COUNTS)
    assert list(zip(found.cocited[1:].tolist(), found.coupled[1:].tolist(), strict=True)) == [COUNTS[p] for p in names]
    assert found.scores[1:].tolist() == pytest.approx([SCORE[p] for p in names])


def test_no_seed_no_neighbour_and_bad_rows(hand: Store) -> None:
    empty = similar(hand, [], n=10)
    assert len(empty.rows) == 0 and len(empty.pair_i) == 0 and empty.n_seeds == 0
    alone = similar(hand, [hand.row("Z")], n=10, min_shared=1)  # Z cites Y, which nobody else cites; nobody cites Z
    assert ids(hand, alone.rows) == ["Z"]
    seeds_only = similar(hand, [hand.row("S"), hand.row("A")], n=0, min_shared=1)
    assert ids(hand, seeds_only.rows) == ["S", "A"]
    assert (seeds_only.pair_cocited.tolist(), seeds_only.pair_coupled.tolist()) == ([2], [1])
    with pytest.raises(ValueError):
        similar(hand, [hand.n], n=5)


# -- the evidence rule: at least MIN_SHARED citers or MIN_SHARED references shared with ONE seed -----------------
# Two qualify. S is the seed; C1..C4 cite it; it cites R1, R2, R3.
#   C1..C4 -> A (cc 4)      C1, C2 -> B (cc 2)      C3 -> F (cc 1)
#   E -> R1, R2, R3 (bc 3)  D -> R1, R2 (bc 2)
# A: cc 4/sqrt(4*4) = 1 -> score 0.5; E: bc 3/sqrt(3*3) = 1 -> score 0.5: a tie, A first (4 citers, E none).
FEW = [
    *[(c, "S") for c in ("C1", "C2", "C3", "C4")],
    *[(c, "A") for c in ("C1", "C2", "C3", "C4")],
    ("C1", "B"),
    ("C2", "B"),
    ("C3", "F"),
    *[("S", r) for r in ("R1", "R2", "R3")],
    *[("E", r) for r in ("R1", "R2", "R3")],
    ("D", "R1"),
    ("D", "R2"),
]
# Evidence counts per seed, never summed. Seeds S1, S2.
#   K1, K2 cite S1 and P; K3, K4 cite S2 and P: cc(S1, P) = cc(S2, P) = 2 (4 over both seeds): not similar
#   K1, K2 cite Q; S1 and Q both cite R1, R2: cc(S1, Q) = 2 and bc(S1, Q) = 2 (4 over both counts): not similar
#   K1, K2, K5 cite S1 and T: cc(S1, T) = 3: similar
PER_SEED = [
    *[(k, "S1") for k in ("K1", "K2", "K5")],
    *[(k, "S2") for k in ("K3", "K4")],
    *[(k, "P") for k in ("K1", "K2", "K3", "K4")],
    *[(k, "Q") for k in ("K1", "K2")],
    *[(k, "T") for k in ("K1", "K2", "K5")],
    *[(x, r) for x in ("S1", "Q") for r in ("R1", "R2")],
]


def graph(tmp_path_factory: pytest.TempPathFactory, name: str, edges: list[tuple[str, str]]) -> Store:
    names = list(dict.fromkeys(x for e in edges for x in e))
    papers = [PaperRecord(title=f"Paper {pid}", id=pid, year=2000 + i) for i, pid in enumerate(names)]
    return make_store(tmp_path_factory.mktemp("sim") / name, papers, edges)


def evidence(store: Store, seeds: list[int], row: int) -> tuple[int, int]:
    """(most citers, most references) ``row`` shares with one of ``seeds``, from the lists."""
    cc = max(len(set(store.citers(s).tolist()) & set(store.citers(row).tolist())) for s in seeds)
    bc = max(len(set(store.references(s).tolist()) & set(store.references(row).tolist())) for s in seeds)
    return cc, bc


def test_only_papers_sharing_three_citers_or_references_with_a_seed_are_similar(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    from dashboard.graph.discovery import similar_subgraph
    from dashboard.graph.state import ViewState

    few = graph(tmp_path_factory, "few", FEW)
    s = few.row("S")
    found = similar(few, [s], n=40)
    assert ids(few, found.rows) == ["S", "A", "E"]  # the tie on score: more citers first
    assert found.scores[1:].tolist() == pytest.approx([0.5, 0.5], abs=1e-12) and found.min_shared == 3
    assert (found.cocited[1:].tolist(), found.coupled[1:].tolist()) == ([4, 0], [0, 3])
    assert sorted(ids(few, similar(few, [s], n=40, min_shared=1).rows[1:])) == ["A", "B", "D", "E", "F"]
    assert ids(few, similar(few, [s], n=40, min_shared=4).rows) == ["S", "A"]
    # the map says that only two qualify
    sub = similar_subgraph(few, ViewState(("S",), mode="similar", limit=40))
    assert few.ids(sub.rows) == ["S", "A", "E"] and sub.role_names() == ["seed", "similar", "similar"]
    assert sub.notices == [
        "Only 2 papers share at least 3 citing papers or 3 references with the seed, the least a similar paper "
        "needs: showing those, not 40."
    ]
    assert similar_subgraph(few, ViewState(("S",), mode="similar", limit=2)).notices == []
    # a map with none
    none = similar_subgraph(few, ViewState(("F",), mode="similar", limit=40))  # C3 cites F, S and A: 1 each
    assert few.ids(none.rows) == ["F"] and none.notices == [
        "No paper of this dataset shares at least 3 citing papers or 3 references with the seed, the least a "
        "similar paper needs."
    ]


def test_evidence_counts_with_one_seed_and_one_kind_never_summed(tmp_path_factory: pytest.TempPathFactory) -> None:
    from dashboard.graph.discovery import similar_subgraph
    from dashboard.graph.state import ViewState

    store = graph(tmp_path_factory, "per-seed", PER_SEED)
    seeds = [store.row("S1"), store.row("S2")]
    found = similar(store, seeds, n=40)
    assert ids(store, found.rows) == ["S1", "S2", "T"]
    loose = similar(store, seeds, n=40, min_shared=1)
    at = dict(zip(ids(store, loose.rows), range(len(loose.rows)), strict=True))
    assert (loose.cocited[at["P"]], loose.coupled[at["P"]]) == (4, 0)  # 2 + 2 over the seeds
    assert (loose.cocited[at["Q"]], loose.coupled[at["Q"]]) == (2, 2)  # 2 citers + 2 references
    sub = similar_subgraph(store, ViewState(("S1", "S2"), mode="similar", limit=40))
    assert sub.notices[0].startswith("Only 1 paper shares at least 3 citing papers or 3 references with a seed")


def test_a_sampled_walk_keeps_the_evidence_rule(hand: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(similarity, "EXACT_BUDGET", 0)
    monkeypatch.setattr(similarity, "WALK_INTERMEDIATES", 1)
    monkeypatch.setattr(similarity, "WALK_BUDGET", 2)
    for seeds in ([hand.row("S")], [hand.row("S"), hand.row("A"), hand.row("B")]):
        found = similar(hand, seeds, n=10, min_shared=2)
        assert found.approximate is True
        for r in found.rows[len(seeds) :].tolist():
            assert max(evidence(hand, seeds, r)) >= 2, hand.id(r)


def test_a_sampled_walk_overestimating_a_count_does_not_let_a_paper_in(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    # K1..K6 cite S and A; each Ki also cites Xi, which Yi and Zi cite too. Walking 2 of S's 6 citers, each stands
    # for 3: the Xi met counts 3 (at most its 3 citers) though it shares 1 citer with S; A shares all 6.
    ks = [f"K{i}" for i in range(1, 7)]
    edges = [(k, "S") for k in ks] + [(k, "A") for k in ks]
    edges += [(c + k[1:], "X" + k[1:]) for k in ks for c in ("K", "Y", "Z")]
    store = graph(tmp_path_factory, "sampled", edges)
    monkeypatch.setattr(similarity, "EXACT_BUDGET", 0)
    monkeypatch.setattr(similarity, "WALK_INTERMEDIATES", 2)
    found = similar(store, [store.row("S")], n=10)
    assert found.approximate is True and ids(store, found.rows) == ["S", "A"]
    loose = similar(store, [store.row("S")], n=10, min_shared=1)
    assert len(loose.rows) > 2 and all(x.startswith("X") for x in ids(store, loose.rows[2:]))


DEFAULT_SEEDS = ("2106.03764", "2006.04862", "2110.10090")


def brute_similar(store: Store, seeds: list[int], n: int, least: int, share: float | None = None) -> list[int]:
    """The ``n`` papers most similar to ``seeds`` by the documented rules, every candidate counted from the lists in
    plain Python: ``cc`` with a seed counted over the reference lists of its citers, ``bc`` over the citer lists of
    its references; qualifying if it shares ``least`` citers or references with one seed; ranked by the score summed
    over the seeds (seed by seed, co-citation first, rounded to 12 decimals), then more citers, then lower row. With
    ``share``: at most ``int(n * share)`` direct references or citers of a seed (the best), the best others, then
    the next direct ones if there are too few others."""
    score: Counter = Counter()
    most_cc: Counter = Counter()
    most_bc: Counter = Counter()
    for s in seeds:
        cites, refs = store.citers(s).tolist(), store.references(s).tolist()
        cc = Counter(x for c in cites for x in store.references(c).tolist())
        bc = Counter(x for r in refs for x in store.citers(r).tolist())
        for c in sorted(set(cc) | set(bc)):
            if cc[c]:
                score[c] += 0.5 * cc[c] / math.sqrt(len(cites) * len(store.citers(c)))
            if bc[c]:
                score[c] += 0.5 * bc[c] / math.sqrt(len(refs) * len(store.references(c)))
            most_cc[c], most_bc[c] = max(most_cc[c], cc[c]), max(most_bc[c], bc[c])
    ok = [c for c in score if c not in seeds and max(most_cc[c], most_bc[c]) >= least]
    ranked = sorted(ok, key=lambda c: (-round(score[c], 12), -len(store.citers(c)), c))
    if share is None:
        return ranked[:n]
    direct = {x for s in seeds for x in store.references(s).tolist() + store.citers(s).tolist()}
    ones = [c for c in ranked if c in direct]
    others = [c for c in ranked if c not in direct]
    keep = ones[: int(n * share)]
    keep += others[: n - len(keep)]
    keep += ones[int(n * share) : int(n * share) + n - len(keep)]
    return [c for c in ranked if c in set(keep)]


@pytest.mark.parametrize("seeds", [DEFAULT_SEEDS, ("1706.03762",), ("2106.03764",)])
def test_every_similar_paper_on_the_default_data_shares_three_citers_or_references_with_a_seed(
    default_store: Store, seeds: tuple[str, ...]
) -> None:
    from dashboard.graph.discovery import DIRECT_SHARE

    store = default_store
    rows = [store.row(s) for s in seeds]
    for share in (None, DIRECT_SHARE):
        found = similar(store, rows, n=40, direct_share=share)
        assert len(found.rows) > len(rows)
        for r in found.rows[len(rows) :].tolist():
            assert max(evidence(store, rows, r)) >= 3, store.id(r)
        # exactly the best of the papers that qualify
        assert found.rows[len(rows) :].tolist() == brute_similar(store, rows, 40, 3, share)


def test_the_most_cited_papers_get_exactly_their_most_similar_papers(default_store: Store) -> None:
    """For the 20 most cited papers of the default data (Adam: 4,039 citers), the map's 40 papers are the 40 that
    the documented score ranks highest, in that order, with and without the share of direct neighbours (a sampled
    walk once missed 8 of Adam's 40, its second best among them)."""
    from dashboard.graph.discovery import DIRECT_SHARE

    store = default_store
    top = np.lexsort((np.arange(store.n), -store.in_cited.astype(np.int64)))[:20].tolist()
    assert store.id(top[0]) == "1412.6980"
    for row in top:
        for share in (None, DIRECT_SHARE):
            found = similar(store, [row], n=40, direct_share=share)
            want = brute_similar(store, [row], 40, 3, share)
            assert len(want) == 40 and not found.approximate
            assert found.rows[1:].tolist() == want, (store.id(row), share)
    adam = store.row("1412.6980")
    more = similar(store, [adam], n=100, direct_share=DIRECT_SHARE)
    assert more.rows[1:].tolist() == brute_similar(store, [adam], 100, 3, DIRECT_SHARE)
    two = [adam, store.row("1502.03167")]
    assert similar(store, two, n=40).rows[2:].tolist() == brute_similar(store, two, 40, 3)


def test_seeds_too_long_to_read_whole_make_a_map_that_says_so(
    default_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past EXACT_BUDGET entries, a sampled walk: the map, its notice and its payload say it may miss a paper."""
    from dashboard.graph.discovery import similar_subgraph
    from dashboard.graph.state import ViewState
    from dashboard.view.payload import graph_payload

    store = default_store
    state = ViewState(("1412.6980",), mode="similar", limit=40)
    adam = store.row("1412.6980")
    cost = similarity.exact_cost(store, np.asarray([adam]))
    assert cost > 0
    exact = similar_subgraph(store, state)
    assert not exact.approximate and not any("sample" in n for n in exact.notices)
    assert graph_payload(store, exact, state)[0]["approximate"] is False
    monkeypatch.setattr(similarity, "EXACT_BUDGET", cost - 1)
    sampled = similar_subgraph(store, state)
    assert sampled.approximate and len(sampled.rows) == 41
    assert (
        "This seed is linked to so many papers that this map was found from a sample of their citations: a paper "
        "more similar than those shown may be missing." in sampled.notices
    )
    assert graph_payload(store, sampled, state)[0]["approximate"] is True
    monkeypatch.setattr(similarity, "EXACT_BUDGET", cost)
    assert not similar_subgraph(store, state).approximate


def test_the_default_seeds_map_drops_papers_with_two_shared_references(default_store: Store) -> None:
    from dashboard.graph.discovery import DIRECT_SHARE, similar_subgraph
    from dashboard.graph.state import ViewState

    store = default_store
    rows = [store.row(s) for s in DEFAULT_SEEDS]
    weak = {"2006.08328", "2204.01955"}  # a hate speech dataset, 3D shape generation: 2 references with a seed
    for pid in weak:
        assert max(evidence(store, rows, store.row(pid))) == 2
    before = similar(store, rows, n=40, direct_share=DIRECT_SHARE, min_shared=1)
    assert weak <= set(store.ids(before.rows))  # what the map showed without the rule
    sub = similar_subgraph(store, ViewState(DEFAULT_SEEDS, mode="similar", limit=40))
    shown = sub.rows[len(rows) :].tolist()
    assert shown and not weak & set(store.ids(shown))
    assert all(max(evidence(store, rows, r)) >= 3 for r in shown)
    if len(shown) < 40:
        assert sub.notices and sub.notices[0].startswith(f"Only {len(shown)} papers share at least 3")


def test_the_guide_states_the_bound_of_exact_maps() -> None:
    from tests.conftest import ROOT

    text = " ".join((ROOT / "docs" / "using.md").read_text().split())
    m = re.search(r"lists would take more than (\d+) million entries to read are sampled", text)
    assert m and int(m[1]) * 1_000_000 == similarity.EXACT_BUDGET


def test_the_leave_out_figures_in_bench_readme_are_what_the_command_prints(
    default_store: Store, tmp_path: Path
) -> None:
    """bench/README.md's latest results (bench/results/latest.json) hold the table ``python bench/similar_eval.py``
    prints and writes (the figures do not depend on the machine: same data, same seed, same table)."""
    import json
    import os
    import subprocess
    import sys

    from tests.conftest import ROOT

    done = subprocess.run(
        [sys.executable, "bench/similar_eval.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "CITEMAP_BENCH_OUT": str(tmp_path)},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    printed = [[c.strip() for c in line.strip("|").split("|")] for line in done.stdout.splitlines() if line[:2] == "| "]
    written = json.loads((tmp_path / "results-similar-eval.json").read_text())
    latest = json.loads((ROOT / "bench" / "results" / "latest.json").read_text())
    kept = next(e for e in latest["results"] if e["name"] == "similar-eval")
    assert len(printed) == 10 and printed == [written["columns"], *written["rows"]]
    assert (kept["columns"], kept["rows"], kept["verdict"]) == (written["columns"], written["rows"], written["verdict"])
    shipped = next(row for row in written["rows"] if row[0].startswith("citemap as shipped"))
    before = next(row for row in written["rows"] if row[0].startswith("citemap before"))
    assert float(shipped[1]) > float(before[1])  # the rule finds more of the left-out pairs


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


@pytest.mark.parametrize("least", [1, 2, similarity.MIN_SHARED])
def test_similar_matches_brute_force_on_seed_data(store: Store, least: int) -> None:
    seeds = [int(store.arrays["rank_rows"][0]), int(store.arrays["rank_rows"][3])]
    found = similar(store, seeds, n=15, min_shared=least)
    every = {}
    for c in range(store.n):
        if c in seeds:
            continue
        parts = [brute_score(store, s, c) for s in seeds]
        total = sum(p[2] for p in parts)
        if max(max(p[0], p[1]) for p in parts) >= least:  # with one seed, citers or references
            every[c] = (sum(p[0] for p in parts), sum(p[1] for p in parts), total)
    best = sorted(every, key=lambda c: (-round(every[c][2], 12), -int(store.in_cited[c]), c))[:15]
    assert len(best) == {1: 15, 2: 8, 3: 2}[least] and found.approximate is False
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
        # most of this map is from 2016-2018: a filter that keeps part of it
        "similar, filtered": ViewState(("1706.03762",), mode="similar", limit=40, years=(2016, 2018)),
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
