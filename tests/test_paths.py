"""The literature connector (dashboard.graph.paths): shortest citation chains between two papers."""

from __future__ import annotations

import itertools
import math
import random

import networkx as nx
import numpy as np
import pytest

from dashboard.dataset.store import Store
from dashboard.graph import paths
from dashboard.graph.paths import Paths, chain_rows, shortest_paths
from dashboard.importers.common import PaperRecord
from tests.conftest import make_store

# A hand-made world (citing, cited):
#   s -> m1 -> t and s <- m2 <- t: two chains of 2 steps from s to t, m2 the more cited (c1, c2 cite it);
#   s <- p -> q <- t: a third route, of 3 steps, direction alternating;
#   u <-> v: a 1-step link, both ways (one edge, one chain); z: alone.
CITES = [
    ("s", "m1"),
    ("m1", "t"),
    ("m2", "s"),
    ("t", "m2"),
    ("c1", "m2"),
    ("c2", "m2"),
    ("p", "s"),
    ("p", "q"),
    ("t", "q"),
    ("u", "v"),
    ("v", "u"),
]
IDS = ["s", "t", "m1", "m2", "c1", "c2", "p", "q", "u", "v", "z"]


@pytest.fixture(scope="module")
def hand(tmp_path_factory: pytest.TempPathFactory) -> Store:
    # m2 listed before m1: the tie-break by row would put m2 second, so only citations can put it first
    papers = [PaperRecord(title=f"Paper {pid}", id=pid, year=2000) for pid in IDS]
    return make_store(tmp_path_factory.mktemp("paths") / "paths", papers, CITES)


@pytest.fixture(scope="module")
def ties(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """Three 3-step chains from h to i, every middle paper cited once: h-a-e-i and h-b-d-i (same row sums),
    h-c-y-i (a larger row sum, though c has the smallest row). The pads only push y's row up."""
    order = ["h", "i", "c", "a", "b", "d", "e", "pad1", "pad2", "y"]  # rows 0, 1, 2, ...
    papers = [PaperRecord(title=f"Paper {pid}", id=pid, year=2000) for pid in order]
    cites = [("h", "a"), ("a", "e"), ("e", "i"), ("h", "b"), ("b", "d"), ("d", "i"), ("h", "c"), ("c", "y"), ("y", "i")]
    return make_store(tmp_path_factory.mktemp("ties") / "ties", papers, cites)


def rows(store: Store, *ids: str) -> list[int]:
    return [store.row(i) for i in ids]


def ids(store: Store, chains: list[list[int]]) -> list[list[str]]:
    return [store.ids(c) for c in chains]


def linked(store: Store, x: int, y: int) -> bool:
    return y in store.references(x) or x in store.references(y)


def test_one_step_either_direction(hand: Store) -> None:
    u, v = rows(hand, "u", "v")
    assert shortest_paths(hand, u, v) == Paths([[u, v]], 1, False, 2)
    assert shortest_paths(hand, v, u).chains == [[v, u]]


def test_chain_with_alternating_directions(hand: Store) -> None:
    # p cites s and q, t cites q: s <- p -> q <- t, found only by ignoring direction (masking the 2-step middles)
    s, t, m1, m2 = rows(hand, "s", "t", "m1", "m2")
    mask = lambda r: ~np.isin(r, [m1, m2])  # noqa: E731
    found = shortest_paths(hand, s, t, mask=mask)
    assert found.steps == 3
    assert ids(hand, found.chains) == [["s", "p", "q", "t"]]
    assert ids(hand, shortest_paths(hand, t, s, mask=mask).chains) == [["t", "q", "p", "s"]]


def test_equal_chains_most_cited_first(hand: Store) -> None:
    s, t, m1, m2 = rows(hand, "s", "t", "m1", "m2")
    assert hand.in_cited[m2] > hand.in_cited[m1] and m2 > m1  # citations, not rows, must decide
    found = shortest_paths(hand, s, t)
    assert found.steps == 2 and not found.capped
    assert ids(hand, found.chains) == [["s", "m2", "t"], ["s", "m1", "t"]]  # the 3-step route is not shortest
    assert ids(hand, shortest_paths(hand, t, s).chains) == [["t", "m2", "s"], ["t", "m1", "s"]]
    assert ids(hand, shortest_paths(hand, s, t, k=1).chains) == [["s", "m2", "t"]]


def test_ties_smaller_row_sum_then_lexicographic(ties: Store) -> None:
    assert [ties.row(x) for x in "hicabdey"] == [0, 1, 2, 3, 4, 5, 6, 9]
    assert len(set(ties.in_cited[ties.rows("abcdey")[0]].tolist())) == 1  # all scores equal
    h, i = ties.row("h"), ties.row("i")
    assert ids(ties, shortest_paths(ties, h, i).chains) == [
        ["h", "a", "e", "i"],
        ["h", "b", "d", "i"],
        ["h", "c", "y", "i"],
    ]
    assert ids(ties, shortest_paths(ties, i, h).chains) == [
        ["i", "d", "b", "h"],
        ["i", "e", "a", "h"],
        ["i", "y", "c", "h"],
    ]


def test_mask_removes_the_best_middle(hand: Store) -> None:
    s, t, m2 = rows(hand, "s", "t", "m2")
    assert ids(hand, shortest_paths(hand, s, t, mask=lambda r: r != m2).chains) == [["s", "m1", "t"]]
    # the endpoints pass whatever the mask says
    none_pass = shortest_paths(hand, s, t, mask=lambda r: np.zeros(len(r), bool))
    assert none_pass.steps is None and none_pass.chains == [] and not none_pass.capped
    u, v = rows(hand, "u", "v")
    assert shortest_paths(hand, u, v, mask=lambda r: np.zeros(len(r), bool)).chains == [[u, v]]


def test_no_chain_within_max_steps(hand: Store) -> None:
    s, t, q = rows(hand, "s", "t", "q")
    assert shortest_paths(hand, s, t, max_steps=1) == Paths([], None, False, 5)
    assert shortest_paths(hand, s, q, max_steps=1).steps is None
    assert shortest_paths(hand, s, q, max_steps=2).steps == 2


def test_disconnected(hand: Store) -> None:
    s, u, z = rows(hand, "s", "u", "z")
    for a, b in [(s, z), (z, s), (s, u)]:
        found = shortest_paths(hand, a, b, max_steps=10)
        assert found.steps is None and found.chains == [] and not found.capped
    assert chain_rows(shortest_paths(hand, s, z)).tolist() == []


def test_bad_arguments(hand: Store) -> None:
    s, t = rows(hand, "s", "t")
    with pytest.raises(ValueError):
        shortest_paths(hand, s, s)
    for bad in ({"max_steps": 0}, {"k": 0}):
        with pytest.raises(ValueError):
            shortest_paths(hand, s, t, **bad)
    with pytest.raises(ValueError):
        shortest_paths(hand, s, hand.n)


def test_caps_report_capped(hand: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    s, t, u, v = rows(hand, "s", "t", "u", "v")
    monkeypatch.setattr(paths, "MAX_WORK", 2)  # each side may read its endpoint's lists, no more
    found = shortest_paths(hand, s, t)
    assert found.steps is None and found.capped
    assert shortest_paths(hand, u, v) == Paths([[u, v]], 1, False, 2)  # what the caps allow is still found


def test_chain_rows(hand: Store) -> None:
    s, t, m1, m2 = rows(hand, "s", "t", "m1", "m2")
    assert chain_rows(shortest_paths(hand, s, t)).tolist() == [s, m2, m1, t]
    assert chain_rows(Paths([[1, 2, 3, 4], [1, 5, 3, 4]], 3)).tolist() == [1, 2, 3, 5, 4]


# -- against networkx, on the seed dataset --------------------------------------------------------------------
def undirected(store: Store) -> nx.Graph:
    g = nx.Graph()
    g.add_nodes_from(range(store.n))
    g.add_edges_from((x, int(y)) for x in range(store.n) for y in store.references(x))
    return g


def ranked(store: Store, g: nx.Graph, a: int, b: int) -> list[list[int]]:
    """Every shortest chain, best first by the documented criterion (score, smaller row sum, lexicographic)."""

    def key(chain: list[int]) -> tuple:
        inner = chain[1:-1]
        score = sum(round(paths.W_SCALE * math.log1p(int(store.in_cited[x]))) for x in inner)
        return -score, sum(inner), chain

    return sorted(nx.all_shortest_paths(g, a, b), key=key)


def pairs(store: Store, g: nx.Graph, count: int) -> list[tuple[int, int]]:
    rng = random.Random(4)
    big = max(nx.connected_components(g), key=len)
    linked_pairs = [tuple(rng.sample(sorted(big), 2)) for _ in range(count)]
    return linked_pairs + [tuple(rng.sample(range(store.n), 2)) for _ in range(count // 2)]


@pytest.mark.parametrize("layer_nodes", [paths.MAX_LAYER_NODES, 1])
def test_matches_networkx(store: Store, layer_nodes: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # with one row per DAG layer the pruning bites everywhere: the k best must not change
    monkeypatch.setattr(paths, "MAX_LAYER_NODES", layer_nodes)
    g = undirected(store)
    checked = 0
    for (a, b), k in itertools.product(pairs(store, g, 40), (1, 3)):
        found = shortest_paths(store, a, b, max_steps=12, k=k)
        try:
            length = nx.shortest_path_length(g, a, b)
        except nx.NetworkXNoPath:
            length = None
        assert found.steps == length and not found.capped
        if length is None:
            assert found.chains == []
            continue
        for chain in found.chains:
            assert len(chain) == length + 1 and chain[0] == a and chain[-1] == b
            assert all(linked(store, x, y) for x, y in itertools.pairwise(chain))
        assert found.chains == ranked(store, g, a, b)[:k]
        checked += len(found.chains) > 1
    assert checked >= 10  # pairs with a choice of chains to rank


@pytest.fixture(scope="module")
def line(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """One line of papers k0 - k1 - ... - k8, citations alternating in direction (k0 -> k1 <- k2 -> k3 ...), and
    nothing else: k0 and k7 are connected, 7 steps apart."""
    names = [f"k{i}" for i in range(9)]
    papers = [PaperRecord(title=f"Paper {pid}", id=pid, year=2000 + i) for i, pid in enumerate(names)]
    cites = [(x, y) if i % 2 == 0 else (y, x) for i, (x, y) in enumerate(itertools.pairwise(names))]
    return make_store(tmp_path_factory.mktemp("line") / "line", papers, cites)


def test_a_connected_pair_beyond_six_steps_is_a_notice(line: Store) -> None:
    """Issue 12, item 3: "if none within 6 steps, a notice says so", for a pair that is connected, only too far."""
    from dashboard.graph.discovery import MAX_STEPS, path_subgraph
    from dashboard.graph.state import ViewState
    from dashboard.view.payload import compute_view

    k = {pid: line.row(pid) for pid in (f"k{i}" for i in range(9))}
    assert MAX_STEPS == 6
    far = shortest_paths(line, k["k0"], k["k7"], max_steps=7)  # connected: 7 steps
    assert far.steps == 7 and ids(line, far.chains) == [[f"k{i}" for i in range(8)]]
    for a, b in (("k0", "k7"), ("k7", "k0"), ("k1", "k8"), ("k0", "k8")):
        found = shortest_paths(line, k[a], k[b])
        assert (found.chains, found.steps, found.capped) == ([], None, False), (a, b)  # not cut by a cap: too far
        sub = path_subgraph(line, ViewState((a,), path=(a, b)))
        assert sub.notices == [f"No chain of citations joins “Paper {a}” and “Paper {b}” within 6 steps."]
        assert line.ids(sub.rows) == [a, b] and sub.chains == [] and sub.role_names() == ["seed", "seed"]
    view = compute_view(line, ViewState(("k0",), path=("k0", "k7")))
    assert view.payload["role"] == "ss" and view.n_edges == 0  # both ends drawn, nothing between them
    # six steps apart: found, the whole line between them drawn
    sub = path_subgraph(line, ViewState(("k1",), path=("k1", "k7")))
    assert sub.notices == [] and ids(line, sub.chains) == [[f"k{i}" for i in range(1, 8)]] and len(sub.rows) == 7
