"""Clusters of a map: Leiden communities of a view's citations, numbered by size, named by c-TF-IDF of titles."""

from __future__ import annotations

import inspect
import itertools
import json
import os
import random
import subprocess
import sys

import numpy as np
import pytest

from dashboard.dataset.store import Store
from dashboard.graph.clusters import (
    MAX_CLUSTERS,
    MIN_SIZE,
    NAME_SEPARATOR,
    OTHER,
    STOP_WORDS,
    cluster_names,
    clusters_of,
    communities,
    title_words,
)
from tests.conftest import ROOT


def clique(nodes: list[int]) -> list[tuple[int, int]]:
    return list(itertools.combinations(nodes, 2))


def edges(pairs: list[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray]:
    a = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    return a[:, 0], a[:, 1]


def big_view(store: Store) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The references and citers of the three most cited papers, up to 5,000 rows, and their citations."""
    seen: dict[int, None] = {}
    for r in store.arrays["rank_rows"][:3].tolist():
        for x in [r, *store.references(r).tolist(), *store.citers(r).tolist()]:
            seen.setdefault(x)
    rows = np.fromiter(seen, dtype=np.int64)[:5000]
    return rows, *store.edge_positions(rows)


def planted(seed: int) -> tuple[int, np.ndarray, np.ndarray]:
    """Six groups of 10-40 nodes, dense inside (p 0.3), sparse between (p 0.01), edges in a shuffled order."""
    rng = np.random.default_rng(seed)
    group = np.repeat(np.arange(6), rng.integers(10, 40, 6))
    n = len(group)
    a, b = np.triu_indices(n, 1)
    keep = rng.random(len(a)) < np.where(group[a] == group[b], 0.3, 0.01)
    order = rng.permutation(np.count_nonzero(keep))
    return n, a[keep][order], b[keep][order]


def test_two_cliques_joined_by_one_edge_are_two_clusters_the_larger_first() -> None:
    small, large = list(range(5)), list(range(5, 12))  # the smaller one comes first: labels go by size
    i, j = edges([*clique(small), *clique(large), (4, 5)])
    labels = communities(12, i, j)
    assert labels.tolist() == [1] * 5 + [0] * 7
    assert labels.dtype == np.int64
    # the same, the edges given backwards and in another order
    order = np.random.default_rng(0).permutation(len(i))
    assert communities(12, j[order], i[order]).tolist() == labels.tolist()


def test_clusters_of_one_size_are_numbered_by_their_first_member() -> None:
    evens, odds = [0, 2, 4, 6, 8], [1, 3, 5, 7, 9]
    i, j = edges([*clique(odds), *clique(evens), (8, 9)])
    assert communities(10, i, j).tolist() == [0, 1] * 5  # the cluster of position 0 is 0
    i, j = edges([*clique([1, 2, 3, 4, 5]), *clique([0, 6, 7, 8, 9])])
    assert communities(10, i, j).tolist() == [0, 1, 1, 1, 1, 1, 0, 0, 0, 0]


def test_isolated_nodes_and_small_clusters_are_other() -> None:
    # a 5-clique, a triangle (MIN_SIZE: named), a pair, a paper citing itself, papers with no citation in view
    i, j = edges([*clique([0, 1, 2, 3, 4]), (5, 6), (6, 7), (5, 7), (8, 9), (10, 10)])
    labels = communities(13, i, j)
    assert MIN_SIZE == 3
    assert labels.tolist() == [0] * 5 + [1] * 3 + [OTHER] * 5
    assert communities(4, *edges([])).tolist() == [OTHER] * 4
    assert communities(0, *edges([])).tolist() == []


def test_named_clusters_are_capped_at_the_palette_size() -> None:
    sizes = list(range(3, 3 + MAX_CLUSTERS + 3))  # 15 separate cliques of 3, 4, ... 17 nodes
    starts = np.cumsum([0, *sizes])
    pairs = [p for s, k in zip(starts, sizes, strict=False) for p in clique(list(range(s, s + k)))]
    labels = communities(int(starts[-1]), *edges(pairs))
    assert sorted(set(labels.tolist())) == [OTHER, *range(MAX_CLUSTERS)]
    # the largest clique is cluster 0, the three smallest are other
    by_clique = [set(labels[s : s + k].tolist()) for s, k in zip(starts, sizes, strict=False)]
    assert by_clique == [{OTHER}] * 3 + [{MAX_CLUSTERS - 1 - c} for c in range(MAX_CLUSTERS)]


def test_weights_decide_where_a_paper_between_two_clusters_goes() -> None:
    pairs = [*clique([0, 1, 2, 3, 4]), *clique([5, 6, 7, 8, 9]), (10, 0), (10, 1), (10, 5)]
    i, j = edges(pairs)
    # unweighted, 10 joins the clique it has two citations with, which becomes the larger cluster
    assert communities(11, i, j).tolist() == [0] * 5 + [1] * 5 + [0]
    w = np.ones(len(pairs))
    w[-1] = 3.0  # its one citation with the other clique weighs more than those two
    assert communities(11, i, j, w).tolist() == [1] * 5 + [0] * 5 + [0]


def test_bad_edges_are_refused() -> None:
    with pytest.raises(ValueError, match="lie in"):
        communities(3, np.array([0]), np.array([3]))
    with pytest.raises(ValueError, match="one length"):
        communities(3, np.array([0, 1]), np.array([1]))
    with pytest.raises(ValueError, match="weights"):
        communities(3, np.array([0]), np.array([1]), np.array([-1.0]))


def test_communities_are_the_same_on_every_call_and_leave_the_random_module_alone() -> None:
    n, i, j = planted(1)
    state = random.getstate()
    first = communities(n, i, j)
    assert random.getstate() == state  # the seeded generator was used, not the random module (igraph's default)
    assert len(set(first.tolist()) - {OTHER}) >= 5
    for _ in range(3):
        assert communities(n, i, j).tolist() == first.tolist()
    # and igraph draws from the random module again afterwards
    import igraph as ig

    state = random.getstate()
    ig.Graph.Erdos_Renyi(30, 0.2)
    assert random.getstate() != state


def test_clusters_and_names_are_the_same_in_another_process() -> None:
    code = "\n".join(
        [
            "import json",
            "import numpy as np",
            "from dashboard.graph.clusters import cluster_names, communities",
            inspect.getsource(planted),
            "n, i, j = planted(2)",
            "labels = communities(n, i, j)",
            "titles = [f'topic{g} paper{k % 3} shared' for k, g in enumerate(labels.tolist())]",
            "print(json.dumps([labels.tolist(), cluster_names(titles, labels)]))",
        ]
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    n, i, j = planted(2)
    labels = communities(n, i, j)
    names = cluster_names([f"topic{g} paper{k % 3} shared" for k, g in enumerate(labels.tolist())], labels)
    assert json.loads(out.stdout) == [labels.tolist(), {str(k): v for k, v in names.items()}]


TITLES = [  # cluster 0: graph neural networks; cluster 1: image segmentation; then one other paper
    "Graph Neural Networks for Node Classification",
    "Towards Deeper Graph Neural Networks",
    "Semi-Supervised Classification with Graph Convolutional Networks",
    "Message Passing Graph Neural Networks for Molecules",
    "Fully Convolutional Networks for Semantic Segmentation",
    "U-Net: Convolutional Networks for Biomedical Image Segmentation",
    "Image Segmentation Using Deep Learning: A Survey",
    "Mask R-CNN: Instance and Semantic Segmentation of Images",
    "Deep Learning",
]
LABELS = np.array([0, 0, 0, 0, 1, 1, 1, 1, OTHER])


def test_title_words() -> None:
    assert title_words("GPT-4: A 3D U-Net in 2020 for X-ray, R-CNN's 1-2 e.g. Towards the Survey via Using") == [
        "gpt-4",
        "3d",
        "u-net",
        "x-ray",
        "r-cnn",
        "survey",
    ]
    assert {"the", "of", "via", "using", "towards", "novel"} <= STOP_WORDS
    assert not {"learning", "neural", "network", "networks", "deep"} & STOP_WORDS  # c-TF-IDF weighs those down


def test_clusters_are_named_by_their_own_distinctive_words() -> None:
    # words: cluster 0 has 20 (graph 4, networks 4, neural 3, classification 2, ...), cluster 1 has 22 (segmentation
    # 4, convolutional 2, networks 2, image 2, semantic 2, ...), other 2: A = 44 / 3 a cluster. Weight sqrt(share) *
    # log(1 + A / count over all): in 0, graph .447 * 1.54 = .689 > neural .387 * 1.77 = .687 > classification
    # .316 * 2.12 = .670 > a word once .224 * 2.75 = .615 > networks (in both) .447 * 1.24 = .553; in 1,
    # segmentation .426 * 1.54 = .657 > image = semantic (ties: alphabetical) .302 * 2.12 = .639 > a word once
    names = cluster_names(TITLES, LABELS)
    assert names == {0: "graph · neural · classification", 1: "segmentation · image · semantic"}
    assert cluster_names(TITLES, LABELS, words=1) == {0: "graph", 1: "segmentation"}
    assert cluster_names(TITLES, np.where(LABELS == 1, 5, LABELS), words=2) == {
        0: "graph · neural",
        5: "segmentation · image",
    }
    # a cluster of titles without a word left is numbered; other is never named
    assert cluster_names(["On the", "Towards a", "Of"], np.array([0, 0, OTHER])) == {0: "cluster 1"}
    assert cluster_names([], np.array([], dtype=np.int64)) == {}
    with pytest.raises(ValueError):
        cluster_names(TITLES, LABELS[:-1])


def test_a_big_view_of_the_default_dataset_has_named_clusters(default_store: Store) -> None:
    rows, i, j = big_view(default_store)
    assert len(rows) == 5000 and len(i) > 30_000
    labels, names = clusters_of(default_store, rows, i, j)
    assert labels.tolist() == communities(len(rows), i, j).tolist()
    named = sorted(set(labels.tolist()) - {OTHER})
    assert 3 <= len(named) <= MAX_CLUSTERS and named == list(range(len(named)))
    sizes = [int(np.count_nonzero(labels == k)) for k in named]
    assert min(sizes) >= MIN_SIZE and sizes == sorted(sizes, reverse=True)
    assert sorted(names) == named
    for name in names.values():
        words = name.split(NAME_SEPARATOR)
        assert len(words) == 3 and len(set(words)) == 3 and not set(words) & STOP_WORDS
    # the clusters are topics one recognises: translation, segmentation, reinforcement learning, graphs
    found = " ".join(names.values())
    assert {"translation", "segmentation", "reinforcement", "graph"} <= set(found.replace(NAME_SEPARATOR, " ").split())
