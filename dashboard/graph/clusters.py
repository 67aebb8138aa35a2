"""Clusters of a map, VOSviewer/CiteSpace style: groups of papers that cite each other more than they cite the rest of
the view, each named by the words that set its titles apart.

* :func:`communities` partitions the papers of a view by the **Leiden** algorithm (Traag, Waltman & van Eck 2019,
  igraph's ``community_leiden`` with the modularity objective, ``ITERATIONS`` passes) on the view's citations taken
  as an undirected graph. Leiden rather than Louvain (``community_multilevel``): it guarantees connected clusters,
  and is faster on the views a map draws, for the same modularity. Its
  random node order is drawn from a generator seeded with ``SEED``, so a view gets the same clusters on every call
  and in every process (for one igraph version). Clusters are numbered by size (0 the largest; ties: the one whose
  first paper comes first); papers in a cluster of fewer than ``MIN_SIZE``, beyond the ``MAX_CLUSTERS`` largest
  (the palette's size) or with no citation in view are ``OTHER`` (-1).
* :func:`cluster_names` names each cluster by its ``words`` most distinctive title words by **class-based TF-IDF**
  (c-TF-IDF, as BERTopic): the titles of a cluster are one document, and a word's weight in it is the square root
  of its share of that document's words (BERTopic's ``reduce_frequent_words``) times ``log(1 + A / f)``, ``A`` the
  average number of words per cluster and ``f`` the word's count over all of them ("other" counts as one more
  cluster there, so that a word common all over the map is not distinctive of one cluster). So "learning",
  "neural" or "deep", found everywhere in a map of ML, rarely name one (with the plain share they still named
  many clusters of a big view: "neural · networks · deep").

Clusters are meant to be computed per view (on the map shown, not the whole dataset): they then reflect what the
map shows, and stay cheap for the largest view, names included (see :func:`view_clusters`).
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter
from collections.abc import Sequence

import igraph as ig
import numpy as np

from dashboard.dataset.store import Store

# the generator igraph draws from is global: share the force layout's lock, so that a layout and a clustering in two
# threads never draw from each other's seeded generator (nor from the default one restored by the other)
from dashboard.graph.force_layout import IGRAPH_RNG_LOCK

OTHER = -1  # label of papers in no named cluster
MIN_SIZE = 3  # papers a cluster needs to be named
MAX_CLUSTERS = 12  # named clusters at most: the palette's size (colors.AREA_PALETTE)
RESOLUTION = 1.0  # modularity resolution: higher, more and smaller clusters (1.0: modularity as Newman defines it)
ITERATIONS = 2  # Leiden passes: a third adds next to no modularity, for more time
SEED = 20240611  # seed of the generator Leiden draws its node order from
NAME_WORDS = 3  # words in a cluster's name
NAME_SEPARATOR = " · "

# English function words
ENGLISH_STOP_WORDS = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "also",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "had",
        "has",
        "have",
        "having",
        "how",
        "however",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "may",
        "might",
        "more",
        "most",
        "much",
        "must",
        "no",
        "nor",
        "not",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "out",
        "over",
        "own",
        "same",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "upon",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "whether",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "within",
        "without",
        "would",
        "you",
        "your",
    ]
)
# words that say a title is a paper rather than what it is about. Kept short: words frequent all over a map
# ("learning", "neural", "network", "deep") are weighed down by c-TF-IDF and need no list.
PAPER_WORDS = frozenset(
    [
        "via",
        "using",
        "towards",
        "toward",
        "based",
        "new",
        "novel",
        "approach",
        "approaches",
        "method",
        "methods",
        "study",
        "paper",
        "framework",
    ]
)
STOP_WORDS = ENGLISH_STOP_WORDS | PAPER_WORDS
TOKEN = re.compile(r"[^\W_]+(?:-[^\W_]+)*")  # letters and digits, hyphens kept inside a word


def communities(
    n: int, edge_i: np.ndarray, edge_j: np.ndarray, weights: np.ndarray | None = None, resolution: float = RESOLUTION
) -> np.ndarray:
    """Cluster label of each of ``n`` nodes (int64, 0 the largest cluster, ``OTHER`` for none) from the edges
    ``edge_i[k]``–``edge_j[k]`` (node positions; direction and self-loops ignored, a repeated edge counts twice) and
    their optional non-negative ``weights``. The same arguments give the same labels, in every process."""
    edge_i = np.asarray(edge_i, dtype=np.int64)
    edge_j = np.asarray(edge_j, dtype=np.int64)
    if edge_i.shape != edge_j.shape or edge_i.ndim != 1:
        raise ValueError("edge_i and edge_j must be 1-d arrays of one length")
    if len(edge_i) and (min(edge_i.min(), edge_j.min()) < 0 or max(edge_i.max(), edge_j.max()) >= n):
        raise ValueError(f"edge positions must lie in [0, {n})")
    if weights is not None:
        weights = np.asarray(weights, dtype=np.float64)
        if weights.shape != edge_i.shape or (len(weights) and not (weights >= 0).all()):
            raise ValueError("weights must be one non-negative number per edge")
    labels = np.full(n, OTHER, dtype=np.int64)
    loop = edge_i == edge_j
    if loop.any():
        edge_i, edge_j = edge_i[~loop], edge_j[~loop]
        weights = weights[~loop] if weights is not None else None
    if not len(edge_i):
        return labels
    graph = ig.Graph(n=n, edges=list(zip(edge_i.tolist(), edge_j.tolist(), strict=True)), directed=False)
    with IGRAPH_RNG_LOCK:
        ig.set_random_number_generator(random.Random(SEED))
        try:
            found = graph.community_leiden(
                objective_function="modularity",
                resolution=resolution,
                weights=None if weights is None else weights.tolist(),
                n_iterations=ITERATIONS,
            )
        finally:
            ig.set_random_number_generator(random)  # python-igraph's default: the random module
    membership = np.asarray(found.membership, dtype=np.int64)
    sizes = np.bincount(membership)
    first = np.full(len(sizes), n, dtype=np.int64)  # each cluster's first member
    np.minimum.at(first, membership, np.arange(n))
    order = np.lexsort((first, -sizes))[:MAX_CLUSTERS]
    order = order[sizes[order] >= MIN_SIZE]
    new = np.full(len(sizes), OTHER, dtype=np.int64)
    new[order] = np.arange(len(order))
    labels[:] = new[membership]
    connected = np.zeros(n, dtype=bool)
    connected[edge_i] = connected[edge_j] = True
    labels[~connected] = OTHER
    return labels


def title_words(text: str) -> list[str]:
    """The words of a title (or of titles joined) that may name a cluster: lower case, hyphenated words kept whole,
    without stop words, one-character words and numbers."""
    return [
        w
        for w in TOKEN.findall(text.lower())
        if len(w) > 1 and w not in STOP_WORDS and not w.replace("-", "").isdigit()
    ]


def cluster_names(titles: Sequence[str], labels: np.ndarray, words: int = NAME_WORDS) -> dict[int, str]:
    """``{label: "word1 · word2 · word3"}`` for each cluster in ``labels`` (``OTHER`` not named): its ``words``
    highest words by c-TF-IDF (see the module docstring; ties: alphabetical). A cluster whose titles have no word
    left is named ``cluster <label + 1>``."""
    labels = np.asarray(labels)
    if len(titles) != len(labels):
        raise ValueError("one label per title")
    members: dict[int, list[str]] = {}
    for title, label in zip(titles, labels.tolist(), strict=True):
        members.setdefault(label, []).append(title or "")
    counts = {label: Counter(title_words("\n".join(texts))) for label, texts in members.items()}
    totals = {label: sum(c.values()) for label, c in counts.items()}
    average = sum(totals.values()) / len(counts) if counts else 0.0
    overall: Counter[str] = Counter()
    for c in counts.values():
        overall.update(c)
    idf = {w: math.log(1 + average / f) for w, f in overall.items()}
    names = {}
    for label in sorted(k for k in counts if k != OTHER):
        c, total = counts[label], totals[label]
        ranked = sorted(c, key=lambda w, c=c: (-math.sqrt(c[w] / total) * idf[w], w))[:words]
        names[label] = NAME_SEPARATOR.join(ranked) if ranked else f"cluster {label + 1}"
    return names


def clusters_of(
    store: Store,
    rows: np.ndarray,
    edge_i: np.ndarray,
    edge_j: np.ndarray,
    weights: np.ndarray | None = None,
    words: int = NAME_WORDS,
) -> tuple[np.ndarray, dict[int, str]]:
    """Clusters of a map (its ``rows`` and links as positions in them, e.g. a ``Subgraph``'s): the label of
    each row and the name of each cluster."""
    labels = communities(len(rows), edge_i, edge_j, weights)
    named = labels != OTHER
    titles = store.titles(rows) if named.any() else [""] * len(rows)
    return labels, cluster_names(titles, labels, words)
