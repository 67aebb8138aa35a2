"""Clusters of a map: Leiden communities of a view's citations, numbered by size, named by their titles' own terms."""

from __future__ import annotations

import functools
import inspect
import itertools
import json
import math
import os
import random
import re
import subprocess
import sys
from dataclasses import replace

import numpy as np
import pytest

from dashboard.dataset.store import Store
from dashboard.graph import clusters as clustering
from dashboard.graph.clusters import (
    GENERIC_WORDS,
    MAX_CLUSTERS,
    MIN_SIZE,
    NAME_SEPARATOR,
    OTHER,
    STOP_WORDS,
    Background,
    cluster_names,
    clusters_of,
    communities,
    count_terms,
    dataset_background,
    fold,
    title_terms,
    title_words,
)
from dashboard.graph.discovery import view_clusters
from dashboard.graph.state import ViewState
from tests.conftest import ROOT, SEED_IDS


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
    ]
    assert title_words("Attention Is All You Need") == ["attention"]
    generic = {"analysis", "survey", "one", "need", "towards", "via", "using", "approach", "method", "study", "new"}
    assert generic <= STOP_WORDS and generic <= GENERIC_WORDS
    # words frequent all over a dataset or a map are weighed by their frequency, not listed
    assert not {"learning", "neural", "network", "networks", "deep", "models", "transformers"} & STOP_WORDS


def test_title_terms_are_words_and_pairs_of_words_next_to_each_other() -> None:
    assert title_terms("Neural Machine Translation by Jointly Learning to Align") == {
        "neural": "neural",
        "machine": "machine",
        "translation": "translation",
        "jointly": "jointly",
        "learning": "learning",
        "align": "align",
        "neural machine": "neural machine",
        "machine translation": "machine translation",
        "jointly learning": "jointly learning",
    }
    # plurals fold into one term; a mark or a stop word parts two words; a title's first word in -ing says what the
    # paper does, not what it is about (its pairs stay)
    assert title_terms("Approximating Transformers: Vision Transformers, the Transformer Analysis") == {
        "approximating transformer": "approximating transformers",
        "transformer": "transformers",
        "vision": "vision",
        "vision transformer": "vision transformers",
    }
    assert title_terms("Scaling Laws for Language Models") == {
        "law": "laws",
        "language": "language",
        "model": "models",
        "scaling law": "scaling laws",
        "language model": "language models",
    }
    assert (fold("networks"), fold("analysis"), fold("process"), fold("corpus"), fold("gas")) == (
        "network",
        "analysis",
        "process",
        "corpus",
        "gas",
    )


def test_clusters_are_named_by_their_own_specific_terms() -> None:
    # no dataset given: each term against the rest of the map. Cluster 0 (4 titles; the other 5): graph in 4, in no
    # other title: lift over the cap, score 4 log 20 = 12.0; neural and "neural networks" in 3 (the pair first on a
    # tie) 3 log 20 = 9.0; classification 2 log 20 = 6.0; networks in 4 but also in 2 of the other 5 (lift 2.5,
    # 3.7). Cluster 1: segmentation in 4 (12.0), held by "image segmentation" and "semantic segmentation" in 2 of
    # them each, half its titles: it is named by the pair (ties: alphabetical); image in 3 (9.0, taken by the pair);
    # semantic in 2 (6.0), alone: the name holds segmentation already; convolutional in 2 (and 1 of the other 5:
    # lift 2.5) is held by "convolutional networks" in both, which does not fit in 4 words.
    names = cluster_names(TITLES, LABELS)
    assert names == {0: "graph · neural networks · classification", 1: "image segmentation · semantic"}
    # at most one term each: a single word is not a name, the cluster is named after its first paper
    assert cluster_names(TITLES, LABELS, terms=1) == {
        0: "around “Graph Neural Networks for Node Classification”",
        1: "image segmentation",
    }
    assert cluster_names(TITLES, np.where(LABELS == 1, 5, LABELS), terms=2) == {
        0: "graph · neural networks",
        5: "image segmentation · semantic",
    }
    # the most cited paper names a cluster without terms; other is never named
    cited = [0, 0, 0, 5, 1, 9, 2, 3, 50]
    assert (
        cluster_names(TITLES, LABELS, terms=1, cited=cited)[0] == "around “Message Passing Graph Neural Networks for…”"
    )
    assert cluster_names(["On the", "Towards a", "Of"], np.array([0, 0, OTHER])) == {0: "around “On the”"}
    assert cluster_names([None, "", "Of"], np.array([0, 0, OTHER])) == {0: "cluster 1"}
    assert cluster_names(["A; b", "A; c", "A; d", "A; e"], np.array([0, 0, 1, 1])) == {
        0: "around “A; b”",
        1: "around “A; d”",
    }
    assert cluster_names(["A: b", "A: c", "A: d", "A: e"], np.array([0, 0, 1, 1])) == {
        0: "around “A”",
        1: "around “A” (2)",
    }
    assert cluster_names([], np.array([], dtype=np.int64)) == {}
    with pytest.raises(ValueError):
        cluster_names(TITLES, LABELS[:-1])
    with pytest.raises(ValueError):
        cluster_names(TITLES, LABELS, cited=[1, 2])


def dataset_of(titles: list[str], extra: list[str]) -> Background:
    """The background of a dataset of ``titles``, ``extra`` titles and a thousand titles of words found once."""
    return count_terms([*titles, *extra, *(f"subject{k} matter{k}" for k in range(1000))])


def test_a_generic_word_never_names_a_cluster_even_its_most_frequent() -> None:
    titles = [
        "A Survey of Graph Kernels for Learning",
        "Graph Kernels and Learning: An Analysis",
        "Weisfeiler-Lehman Graph Kernels for Learning, a Survey",
        "Kernels for Learning on Molecules: One Survey",
        "Optimal Transport Learning for Graphs",
        "Diffusion Models for Learning Images",
        "Score Matching for Diffusion Models",
        "Denoising Diffusion Models",
    ]
    labels = np.array([0, 0, 0, 0, 0, 1, 1, 1])
    # the first cluster's most frequent word is learning (its 5 titles, 1 of the other 3), then graph and kernels
    # (4), survey (3). In a dataset where one title in three holds learning, it is generic, and survey always is:
    # neither names the cluster. graph is held by "graph kernels" in 3 of its 4 titles: named by the pair
    background = dataset_of(titles, [f"topic{k} learning" for k in range(400)] + [f"graph topic{k}" for k in range(4)])
    assert background.generic("learning") and not background.generic("graph") and "survey" in STOP_WORDS
    assert cluster_names(titles, labels, background=background) == {0: "graph kernels", 1: "diffusion models"}
    # the dataset's frequency is what rules learning out: against the map alone, it names the cluster
    assert cluster_names(titles, labels) == {0: "graph kernels · learning", 1: "diffusion models"}


def test_a_word_of_a_phrase_is_named_by_the_phrase() -> None:
    titles = [
        "Question Answering over Tables",
        "Open Question Answering with Retrieval",
        "Hard Questions for Readers",
        "Reading Comprehension with Questions",
        "Translation of Speech",
        "Speech Translation Systems",
        "Spoken Translation for Speech Tasks",
    ]
    labels = np.array([0, 0, 0, 0, 1, 1, 1])
    # question (4 titles of the first cluster) is found next to answering in most of the dataset's titles: a word
    # of a phrase, named by its pair (in 2 of them), never alone
    background = dataset_of(titles, [f"topic{k} question answering" for k in range(10)])
    assert {"question", "answering"} <= background.fragments and "speech" not in background.fragments
    assert cluster_names(titles, labels, background=background) == {0: "question answering", 1: "speech · translation"}
    # against the map alone, question is a word like another
    assert cluster_names(titles, labels)[0] == "question answering"
    assert cluster_names(titles, labels, terms=1) == {0: "question answering", 1: "around “Translation of Speech”"}


def test_tie_rules() -> None:
    # words in as many titles of their cluster and none elsewhere: alphabetical; clusters take one term a round
    labels = np.array([0, 0, 1, 1])
    assert cluster_names(["alpha; beta", "alpha; beta", "gamma; delta", "gamma; delta"], labels) == {
        0: "alpha · beta",
        1: "delta · gamma",
    }
    # a pair before a word: its words in as many titles
    assert cluster_names(["alpha beta", "alpha beta", "gamma delta", "gamma delta"], labels) == {
        0: "alpha beta",
        1: "gamma delta",
    }
    # the one in more of the dataset's titles first
    background = dataset_of([], ["beta", "beta", "beta", "alpha", "alpha"])
    assert cluster_names(["alpha; beta", "alpha; beta", "x; y"], np.array([0, 0, OTHER]), background=background) == {
        0: "beta · alpha"
    }
    # a word two clusters hold alike names the cluster numbered first, and only it
    titles = ["kernel; graph", "kernel; graph", "kernel; spin", "kernel; spin", *(f"w{k}; v{k}" for k in range(10))]
    labels = np.array([0, 0, 1, 1, *[OTHER] * 10])
    assert cluster_names(titles, labels) == {0: "graph · kernel", 1: "around “kernel; spin”"}


def test_clusters_and_names_are_the_same_in_another_process() -> None:
    code = "\n".join(
        [
            "import json",
            "import numpy as np",
            "from dashboard.graph.clusters import cluster_names, communities",
            inspect.getsource(planted),
            "n, i, j = planted(2)",
            "labels = communities(n, i, j)",
            "titles = [f'topic{g} paper{k % 3} shared; word{g % 2}' for k, g in enumerate(labels.tolist())]",
            "print(json.dumps([labels.tolist(), cluster_names(titles, labels)]))",
        ]
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    n, i, j = planted(2)
    labels = communities(n, i, j)
    titles = [f"topic{g} paper{k % 3} shared; word{g % 2}" for k, g in enumerate(labels.tolist())]
    names = cluster_names(titles, labels)
    assert json.loads(out.stdout) == [labels.tolist(), {str(k): v for k, v in names.items()}]


def term_pattern(term: str) -> re.Pattern[str]:
    """A term of a name as found in a title, read independently of the code under test: its words in a row (spaces
    between), each with or without a plural s, not inside a longer word."""
    words = [re.escape(w.removesuffix("s")) + "s?" for w in term.split(" ")]
    return re.compile(r"(?<![\w-])" + r"\s+".join(words) + r"(?![\w-])")


@functools.cache
def dataset_text(store: Store) -> str:
    return "\n".join(t or "" for t in store.titles(np.arange(store.n))).lower()


def check_names(store: Store, rows: np.ndarray, labels: np.ndarray, names: dict[int, str]) -> list[int]:
    """Assert what a map's cluster names promise, counting titles here; the clusters named after a paper."""
    titles = [(t or "").lower() for t in store.titles(rows)]
    assert len(set(names.values())) == len(names)  # names differ
    after_paper, seen = [], {}
    for k, name in names.items():
        mine = [t for t, x in zip(titles, labels.tolist(), strict=True) if x == k]
        rest = [t for t, x in zip(titles, labels.tolist(), strict=True) if x != k]
        if name.startswith("around “"):  # named after its most cited paper (the first of the map on a tie)
            members = rows[labels == k]
            top = store.titles([int(members[np.argmax(store.in_cited[members])])])[0]
            assert name.startswith(f"around “{' '.join(top.split(':')[0].split()[:2])}"), (name, top)
            after_paper.append(k)
            continue
        terms = name.split(NAME_SEPARATOR)
        words = [w for term in terms for w in term.split(" ")]
        assert 2 <= len(words) <= 4 and not set(words) & STOP_WORDS, name
        for w in words:  # no word in two names
            assert seen.setdefault(w.removesuffix("s"), k) == k, (name, names[seen[w.removesuffix("s")]])
        for term in terms:
            found = term_pattern(term)
            n = sum(bool(found.search(t)) for t in mine)
            # in 2 of the cluster's titles and one in 20 at least
            assert n >= max(2, math.ceil(0.05 * len(mine))), (name, term, n, len(mine))
            # twice as frequent there as in the rest of the map's titles, at least
            elsewhere = sum(bool(found.search(t)) for t in rest)
            assert n / len(mine) >= 2 * elsewhere / max(len(rest), 1), (name, term, n, len(mine), elsewhere)
            # and in the dataset's: never generic
            everywhere = len(re.findall(r"^.*?" + found.pattern + r".*$", dataset_text(store), re.MULTILINE))
            assert everywhere <= 0.05 * store.n and n / len(mine) >= 2 * everywhere / store.n, (name, term)
    return after_paper


VIEWS = {  # maps of the default dataset: the default one, two big ones, a similarity map, small ones
    "default": ViewState(SEED_IDS),
    "attention": ViewState(("1706.03762",)),
    "bert": ViewState(("1810.04805",)),
    "similar": ViewState(SEED_IDS, mode="similar", limit=40),
    "small": ViewState(("2110.10090",)),
    "smallest": ViewState(("2006.04862",)),
}


def test_names_of_maps_of_the_default_dataset_are_specific_terms(default_store: Store) -> None:
    after_paper = 0
    for view, state in VIEWS.items():
        found = view_clusters(default_store, replace(state, color="cluster"))
        assert len(found.names) >= 2, view
        after_paper += len(check_names(default_store, found.rows, found.labels, found.names))
        names = NAME_SEPARATOR.join(found.names.values())
        # the words the issue found naming clusters of small maps
        assert not {"one", "analysis", "survey", "need", "approximating"} & set(re.split(r" · | ", names)), view
    assert after_paper <= 0.2 * sum(
        len(view_clusters(default_store, replace(s, color="cluster")).names) for s in VIEWS.values()
    )
    # topics a reader knows
    attention = view_clusters(default_store, replace(VIEWS["attention"], color="cluster")).names.values()
    assert any("machine translation" in name for name in attention)
    bert = view_clusters(default_store, replace(VIEWS["bert"], color="cluster")).names.values()
    assert any("question answering" in name or "reading comprehension" in name for name in bert)


def test_the_datasets_terms_are_counted_once_a_store_and_sampled_beyond_a_size(
    default_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    found = dataset_background(default_store)
    assert dataset_background(default_store) is found and found.titles == default_store.n
    # generic in this dataset of computer science by their frequency, not by a list
    assert all(found.generic(t) for t in ["learning", "neural", "network", "model", "deep learning", "neural network"])
    assert not any(found.generic(t) for t in ["segmentation", "transformer", "reinforcement learning"])
    assert {"answering", "comprehension", "carlo"} <= found.fragments and "graph" not in found.fragments
    # counted many titles at a time as one at a time
    learning = sum("learning" in title_terms(t or "") for t in default_store.titles(np.arange(default_store.n)))
    assert found.counts["learning"] == learning
    # a larger dataset: rows evenly spread, the shares of frequent terms about the same
    monkeypatch.setattr(clustering, "BACKGROUND_TITLES", 3000)
    sample = dataset_background(Store.load(default_store.folder))
    assert sample.titles == 3000
    for term in ["learning", "neural", "segmentation", "language model"]:
        assert abs(sample.share(term) - found.share(term)) < 0.01, term


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
    assert len(check_names(default_store, rows, labels, names)) <= 2
    # the clusters are topics one recognises: segmentation, reinforcement learning, graphs, adversarial attacks
    found = set(re.split(r" · | ", " · ".join(names.values())))
    assert {"segmentation", "reinforcement", "graph", "adversarial"} <= found
