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
* :func:`cluster_names` names each cluster by at most ``NAME_TERMS`` **terms** (``MAX_NAME_LENGTH`` words at most)
  that its titles hold and the rest of the map's and the dataset's titles rarely do. A term is a word of a title,
  or two words that follow each other in one with nothing but spaces between ("machine translation"); a plural "s"
  is folded ("transformer" and "transformers" are one term, written as the cluster's titles most often write it).
  Never a term: English stop words, ``GENERIC_WORDS`` (words that say what kind of paper a title is, or what it
  claims: "survey", "analysis", "towards", "need", "one", ...), numbers, single characters, and a title's first
  word if it ends in "ing" ("Approximating How ...", "Exploring ...": what the paper does). A term may name a
  cluster only if it is

  - **frequent in it**: found in ``MIN_TITLES`` of its titles at least, and ``MIN_SHARE`` of them (titles holding
    it are counted, not occurrences);
  - **not generic**: found in at most ``GENERIC_SHARE`` of the dataset's titles (or in fewer than ``GENERIC_MIN``),
    and not a pair of two generic words ("learning", "neural", "models", "deep learning" in a dataset of machine
    learning). The dataset's counts are taken once per store, when first needed, over all its titles or
    ``BACKGROUND_TITLES`` rows evenly spread over a larger one (:func:`dataset_background`); without them
    (:func:`cluster_names` with no ``background``), only the map's titles count;
  - **specific to it**: its share of the cluster's titles is ``SPECIFIC_LIFT`` times its share of the rest of the
    map's titles and of the dataset's, at least (the larger of the two is the **lift**'s denominator);
  - **a whole phrase**: not a pair followed by one same word in ``FRAGMENT_SHARE`` of its titles in the cluster
    ("neural machine" of "neural machine translation").

  Its **score** is ``n * log(min(lift, LIFT_CAP))``, ``n`` the cluster's titles holding it: among terms specific
  enough, the more frequent one wins. Names are then chosen in rounds: each cluster takes its best term left, then
  its second, ..., taken over all clusters in the order of their scores, and a word names one cluster at most (no
  word is in two names). A word that the dataset's titles hold next to one same word in ``FRAGMENT_SHARE`` of
  them is a word of a phrase ("question" of "question answering", "reading" of "reading comprehension"): it names a
  cluster only as its best pair there. A word whose cluster's titles hold it in one pair in ``PAIR_SHARE`` of its
  titles at least is named by that pair ("translation" as "machine translation"), and not at all if the pair does
  not fit, unless the name has the pair's other word already ("visual · question answering · reasoning").
  **Ties**: the higher score first; then the term in more of the cluster's titles; then a pair before a word; then
  the term in more of the dataset's titles (an established term rather than a rare one); then the cluster numbered
  first; then alphabetical order (of the folded term).

  A cluster whose terms make fewer than ``MIN_NAME_WORDS`` words is named after its most cited paper (citers in the
  dataset; ties: the first in the map's order), ``around “BERT”``: its title up to a colon or question mark, its
  first ``SHORT_TITLE_WORDS`` words at most; ``cluster N`` (its number + 1) if that paper has no title; two such
  names alike get the cluster's number + 1 after them. So names differ, and none is made of generic words.

Clusters are meant to be computed per view (on the map shown, not the whole dataset): they then reflect what the
map shows, and stay cheap for the largest view, names included (see :func:`view_clusters`).
"""

from __future__ import annotations

import functools
import math
import random
import re
import threading
import weakref
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

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
NAME_TERMS = 3  # terms in a cluster's name at most (a term: a word, or two words that follow each other in titles)
MIN_NAME_WORDS = 2  # words a name needs (a pair of words counts two): a cluster with fewer is named after a paper
MAX_NAME_LENGTH = 4  # words in a name at most (a pair of words counts two)
NAME_SEPARATOR = " · "
MIN_TITLES = 2  # titles of a cluster a term must be found in to name it...
MIN_SHARE = 0.05  # ... and this share of the cluster's titles at least
SPECIFIC_LIFT = 2.0  # times more frequent in a cluster's titles than in the rest of the map's and the dataset's
LIFT_CAP = 20.0  # a term this many times more frequent in a cluster or more is as specific as can be
GENERIC_SHARE = 0.05  # a term in a larger share of the dataset's titles is generic: it never names a cluster...
GENERIC_MIN = 10  # ... if found in this many of them at least
BACKGROUND_TITLES = 40_000  # dataset titles counted for the dataset's term frequencies (evenly spread rows)
PAIR_SHARE = 0.5  # a word is named by a pair holding it if the pair is in this share of the word's titles
FRAGMENT_SHARE = 2 / 3  # a term next to one same word in this share of its titles is part of a phrase: no term
SHORT_TITLE_WORDS = 6  # words of a paper's title in a name made of it, at most

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
# words that say what kind of paper a title is, or what it claims, rather than what it is about ("A Survey of",
# "Towards", "Attention Is All You Need", "Revisiting", "One Model for"), and nouns of every field ("data",
# "system", "tasks"). Kept to such words: a word frequent all over the dataset ("learning", "neural", "models" in a
# dataset of machine learning) is generic by GENERIC_SHARE, and one frequent all over a map ("transformers" in a
# map of transformers) is not specific to one of its clusters.
GENERIC_WORDS = frozenset(
    [
        "ability",
        "application",
        "applications",
        "analysis",
        "analyzing",
        "approach",
        "approaches",
        "based",
        "better",
        "beyond",
        "case",
        "challenges",
        "comprehensive",
        "data",
        "effective",
        "empirical",
        "framework",
        "general",
        "good",
        "improved",
        "improving",
        "information",
        "introduction",
        "large",
        "learn",
        "learned",
        "learns",
        "limitations",
        "limits",
        "make",
        "makes",
        "method",
        "methods",
        "need",
        "new",
        "novel",
        "one",
        "overview",
        "performance",
        "paper",
        "perspective",
        "power",
        "problem",
        "problems",
        "review",
        "revisited",
        "revisiting",
        "rethinking",
        "role",
        "simple",
        "studies",
        "study",
        "survey",
        "system",
        "systematic",
        "systems",
        "task",
        "tasks",
        "toward",
        "towards",
        "tutorial",
        "two",
        "understanding",
        "using",
        "via",
    ]
)
STOP_WORDS = ENGLISH_STOP_WORDS | GENERIC_WORDS  # words that never name a cluster
SHORT_TITLE = re.compile(r"[^:?!]*[?!]?")  # a title's head: up to a colon, question or exclamation mark
TOKEN = re.compile(r"[^\W_]+(?:-[^\W_]+)*")  # letters and digits, hyphens kept inside a word
TOKEN_OR_MARK = re.compile(r"[^\W_]+(?:-[^\W_]+)*|\S|\n")  # a word, or any other character but a space


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


def _nameable(word: str) -> bool:
    """Whether a word (lower case) may be part of a cluster's name: not a stop or generic word, a number or a
    single character."""
    return len(word) > 1 and word not in STOP_WORDS and not word.replace("-", "").isdigit()


def fold(word: str) -> str:
    """A word without its plural "s", so that "transformer" and "transformers" count as one term (not after "ss",
    "us", "is": "process", "corpus", "analysis")."""
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def title_words(text: str) -> list[str]:
    """The words of a title (or of titles joined) that may name a cluster: lower case, hyphenated words kept whole,
    without stop words, generic words, one-character words and numbers."""
    return [w for w in TOKEN.findall(text.lower()) if _nameable(w)]


Term = str  # a term: its folded words, joined by a space ("transformer", "machine translation")


@functools.lru_cache(maxsize=1 << 15)
def _key(word: str) -> str | None:
    """A word (lower case) folded, or None if it may not name a cluster."""
    return fold(word) if _nameable(word) else None


def words(term: Term) -> int:
    """The words of a term."""
    return term.count(" ") + 1


class _Parsed:
    """The terms of some titles as arrays, to count them many at a time.

    A title's tokens are its words and its other characters but spaces (marks), after a token "\\n" that starts
    it. ``ids`` numbers each token by its folded word in ``vocab`` (-1: a mark, or a word that may not name a
    cluster), ``surface`` by its form in ``forms``; ``title`` says whose it is. ``word_title``, ``word_id``: each
    title's words, once (not a title's first word if it ends in "ing"). Pairs are two words next to each other
    with nothing but spaces between: ``pairs`` numbers them (codes ``first * V + second``, sorted), ``pair_at`` is
    the position of each occurrence's first token, ``pair_id`` its pair; ``pair_title``, ``pair_once``: each
    title's pairs, once."""

    def __init__(self, texts: Sequence[str]) -> None:
        # one token "\n" before each title: where titles start
        self.tokens = tokens = TOKEN_OR_MARK.findall("".join("\n" + t.replace("\n", " ") for t in texts).lower())
        self.forms = list(dict.fromkeys(tokens))
        self.surface = np.fromiter(
            map(dict(zip(self.forms, range(len(self.forms)), strict=True)).__getitem__, tokens), np.int64, len(tokens)
        )
        keys = [_key(form) for form in self.forms]
        self.vocab = [w for w in dict.fromkeys(keys) if w is not None]
        index: dict[str | None, int] = dict(zip(self.vocab, range(len(self.vocab)), strict=True))
        index[None] = -1
        self.ids = np.asarray([index[key] for key in keys], dtype=np.int64)[self.surface]
        start = self.surface == (self.forms.index("\n") if texts else -1)
        self.title = np.cumsum(start) - 1
        # a title's first word in -ing says what the paper does ("Approximating ...", "Exploring ..."): a verb
        self.word = word = self.ids >= 0
        ing = np.fromiter((form.endswith("ing") for form in self.forms), bool, len(self.forms))
        first = np.flatnonzero(start[:-1]) + 1
        word[first[ing[self.surface[first]]]] = False
        V = self.V = max(len(self.vocab), 1)
        once = np.unique(self.title[word] * V + self.ids[word])
        self.word_title, self.word_id = np.divmod(once, V)
        a, b = self.ids[:-1], self.ids[1:]
        self.pair_at = np.flatnonzero((a >= 0) & (b >= 0) & (a != b))
        self.pairs, self.pair_id = np.unique(a[self.pair_at] * V + b[self.pair_at], return_inverse=True)
        self.pair_id = self.pair_id.reshape(-1)
        P = self.P = max(len(self.pairs), 1)
        once = np.unique(self.title[self.pair_at] * P + self.pair_id)
        self.pair_title, self.pair_once = np.divmod(once, P)

    def pair(self, pair: int) -> Term:
        """A pair by its number, as a term."""
        a, b = divmod(int(self.pairs[pair]), self.V)
        return f"{self.vocab[a]} {self.vocab[b]}"


def title_terms(text: str) -> dict[Term, str]:
    """The terms of a title, each once, as ``{term: its form in the title}``: each word that may name a cluster
    (not a title's first word if it ends in "ing": "Approximating How ...", "Exploring ..." say what a paper does),
    and each two such words that follow each other with nothing but spaces between ("Neural Machine Translation":
    neural, machine, translation, "neural machine", "machine translation")."""
    parsed = _Parsed([text])
    out: dict[Term, str] = {}
    for at in np.flatnonzero(parsed.word).tolist():
        out.setdefault(parsed.vocab[parsed.ids[at]], parsed.forms[parsed.surface[at]])
    for at, pair in zip(parsed.pair_at.tolist(), parsed.pair_id.tolist(), strict=True):
        form = f"{parsed.forms[parsed.surface[at]]} {parsed.forms[parsed.surface[at + 1]]}"
        out.setdefault(parsed.pair(pair), form)
    return out


@dataclass(frozen=True)
class Background:
    """In how many of a dataset's titles (or of a sample of them) each term is found (terms found once left out),
    and the words that are found next to one same word in most of their titles (``FRAGMENT_SHARE``): words of a
    phrase ("natural" of "natural language", "reading" of "reading comprehension")."""

    titles: int
    counts: dict[Term, int]
    fragments: frozenset[str] = frozenset()

    def share(self, term: Term) -> float:
        """The share of titles holding ``term``, counting one more title that holds it (so never 0)."""
        return (self.counts.get(term, 0) + 1) / (self.titles + 1)

    def generic(self, term: Term) -> bool:
        """Whether ``term`` is found in more than ``GENERIC_SHARE`` of the titles and ``GENERIC_MIN`` of them, or is
        a pair of such words ("deep learning")."""
        if " " in term and all(self.generic(word) for word in term.split(" ")):
            return True
        count = self.counts.get(term, 0)
        return count > GENERIC_SHARE * self.titles and count >= GENERIC_MIN


def count_terms(titles: Sequence[str | None]) -> Background:
    """The :class:`Background` of some titles."""
    parsed = _Parsed([t or "" for t in titles])
    counts: dict[Term, int] = {}
    held = np.bincount(parsed.word_id, minlength=parsed.V)
    for w in np.flatnonzero(held > 1).tolist():
        counts[parsed.vocab[w]] = int(held[w])
    held_pair = np.bincount(parsed.pair_once, minlength=parsed.P)
    for pair in np.flatnonzero(held_pair > 1).tolist():
        counts[parsed.pair(pair)] = int(held_pair[pair])
    most = np.zeros(parsed.V, dtype=np.int64)  # each word's titles with its most frequent neighbour
    for end in np.divmod(parsed.pairs, parsed.V):
        np.maximum.at(most, end, held_pair[: len(parsed.pairs)])
    fragments = frozenset(parsed.vocab[w] for w in np.flatnonzero((held > 1) & (most >= FRAGMENT_SHARE * held)))
    return Background(len(titles), counts, fragments)


_BACKGROUNDS: weakref.WeakKeyDictionary[Store, Background] = weakref.WeakKeyDictionary()
_BACKGROUND_LOCK = threading.Lock()


def dataset_background(store: Store) -> Background:
    """The terms of a dataset's titles: all of them, or ``BACKGROUND_TITLES`` rows evenly spread over a larger
    dataset (the shares of frequent terms, the ones that matter, barely change). Counted once per store, when first
    needed."""
    with _BACKGROUND_LOCK:
        found = _BACKGROUNDS.get(store)
        if found is None:
            rows = np.unique(np.linspace(0, store.n - 1, min(store.n, BACKGROUND_TITLES)).astype(np.int64))
            found = _BACKGROUNDS[store] = count_terms(store.titles(rows) if store.n else [])
    return found


def short_title(title: str) -> str:
    """A title as a name: its part before a colon, or up to a question mark ("BERT" of "BERT: Pre-training of ...",
    "Asleep at the Keyboard?" of "Asleep at the Keyboard? Assessing the ..."), its first
    ``SHORT_TITLE_WORDS`` words at most."""
    parts = SHORT_TITLE.match(title).group(0).split()
    return " ".join(parts[:SHORT_TITLE_WORDS]) + ("…" if len(parts) > SHORT_TITLE_WORDS else "")


def _forms(parsed: _Parsed, slot: np.ndarray, rank: dict[int, int], chosen: dict[int, list[Term]]) -> dict:
    """``{(label, term): form}``: how the titles of each cluster (``slot``: each title's cluster by its ``rank``) most
    often write each of its ``chosen`` terms (ties: the first in alphabetical order)."""
    counts: dict[tuple[int, Term], Counter[str]] = {(label, t): Counter() for label, ts in chosen.items() for t in ts}
    index = {w: i for i, w in enumerate(parsed.vocab)}
    where = slot[parsed.title]
    for (label, term), found in counts.items():
        first, *more = (index[w] for w in term.split(" "))
        at = np.flatnonzero((parsed.ids == first) & (where == rank[label]))
        if more:  # a pair: its second word next (a title's end is a token of its own)
            at = at[at + 1 < len(parsed.ids)]
            at = at[parsed.ids[at + 1] == more[0]]
        else:  # not where it is a title's first word in -ing
            at = at[parsed.word[at]]
        found.update(" ".join(parsed.tokens[a : a + 1 + len(more)]) for a in at.tolist())
    return {key: min(found.items(), key=lambda x: (-x[1], x[0]))[0] for key, found in counts.items()}


def cluster_names(
    titles: Sequence[str | None],
    labels: np.ndarray,
    terms: int = NAME_TERMS,
    background: Background | None = None,
    cited: Sequence[int] | np.ndarray | None = None,
) -> dict[int, str]:
    """``{label: "term1 · term2 · term3"}`` for each cluster in ``labels`` (``OTHER`` not named), by the rule of the
    module docstring: at most ``terms`` terms, each specific to its cluster against the rest of the ``titles`` and
    against ``background``, the dataset's terms (none: against the rest of the ``titles`` alone, and no term is
    generic by its frequency nor a word of a phrase). A cluster that cannot get ``MIN_NAME_WORDS`` words is named
    after its most cited paper (by ``cited``, one number per title; ties, or no ``cited``: the first title), or
    ``cluster <label + 1>`` if that has no title."""
    labels = np.asarray(labels)
    if len(titles) != len(labels):
        raise ValueError("one label per title")
    if cited is not None and len(cited) != len(labels):
        raise ValueError("one citation count per title")
    texts = [t or "" for t in titles]
    named = sorted(set(labels.tolist()) - {OTHER})
    if not named:
        return {}
    k = len(named)  # clusters 0..k-1 by rank in ``named``; k: other
    rank = {label: i for i, label in enumerate(named)}
    slot = np.fromiter((rank.get(x, k) for x in labels.tolist()), np.int64, len(labels))
    sizes = np.bincount(slot, minlength=k + 1)
    need = np.maximum(MIN_TITLES, np.ceil(MIN_SHARE * sizes[:k]).astype(np.int64))
    parsed = _Parsed(texts)
    V, P = parsed.V, parsed.P
    # titles of each cluster holding each word, each pair; each pair as its two words
    held = np.bincount(slot[parsed.word_title] * V + parsed.word_id, minlength=(k + 1) * V).reshape(k + 1, V)
    held_pair = np.bincount(slot[parsed.pair_title] * P + parsed.pair_once, minlength=(k + 1) * P).reshape(k + 1, P)
    # a pair followed by one same word in most of its cluster's titles is part of a phrase ("neural machine"
    # translation): it does not name the cluster (a word of a phrase, by the dataset's titles: Background)
    fragment_pair = np.zeros((k + 1, P), dtype=bool)
    at = parsed.pair_at[parsed.pair_at + 2 < len(parsed.ids)]
    follow = at[parsed.ids[at + 2] >= 0]
    if len(follow):
        pid = np.searchsorted(parsed.pairs, parsed.ids[follow] * V + parsed.ids[follow + 1])
        once = np.unique((parsed.title[follow] * P + pid) * V + parsed.ids[follow + 2])
        tit, rest_ = np.divmod(once, P * V)
        codes, n = np.unique(slot[tit] * (P * V) + rest_, return_counts=True)
        c, rest_ = np.divmod(codes, P * V)
        pid = rest_ // V
        hit = n >= FRAGMENT_SHARE * held_pair[c, pid]
        fragment_pair[c[hit], pid[hit]] = True
    in_map, in_map_pair = held.sum(0), held_pair.sum(0)
    candidates = []  # (-score, -titles, -words, -titles in the dataset, label, term): the best first
    found = []  # (cluster, word or -1, pair or -1)
    c, w = np.nonzero(held[:k] >= need[:, None])
    found += zip(c.tolist(), w.tolist(), [-1] * len(c), strict=True)
    c, j = np.nonzero((held_pair[:k] >= need[:, None]) & ~fragment_pair[:k])
    found += zip(c.tolist(), [-1] * len(c), j.tolist(), strict=True)
    for c, w, j in found:
        term = parsed.pair(j) if j >= 0 else parsed.vocab[w]
        if background is not None and background.generic(term):
            continue
        n = int(held_pair[c, j] if j >= 0 else held[c, w])
        size, rest = int(sizes[c]), len(texts) - int(sizes[c])
        elsewhere = (int(in_map_pair[j] if j >= 0 else in_map[w]) - n) / rest if rest else 0.0
        if background is not None:
            elsewhere = max(elsewhere, background.share(term))
        lift = n / size / elsewhere if elsewhere else math.inf
        if lift >= SPECIFIC_LIFT:
            score = round(n * math.log(min(lift, LIFT_CAP)), 9)
            common = background.counts.get(term, 0) if background is not None else 0
            candidates.append((-score, -n, -words(term), -common, named[c], term))
    candidates.sort()
    pairs: dict[tuple[int, str], list[tuple[int, Term]]] = {}  # each cluster's pairs holding a word, best first
    for _, minus_n, _, _, label, term in candidates:
        if " " in term:
            for word in term.split(" "):
                pairs.setdefault((label, word), []).append((-minus_n, term))
    chosen: dict[int, list[Term]] = {label: [] for label in named}
    fragments = background.fragments if background is not None else frozenset()
    taken: dict[str, int] = {}  # the (folded) words of the names so far, and whose: a word names one cluster at most

    def fits(label: int, term: Term) -> bool:
        return (
            not any(w in taken for w in term.split(" "))
            and sum(map(words, chosen[label])) + words(term) <= MAX_NAME_LENGTH
        )

    for round_ in range(1, terms + 1):  # each cluster's best term, then its second best left, ...
        for _, minus_n, _, _, label, term in candidates:
            if len(chosen[label]) >= round_ or not fits(label, term):
                continue
            if " " not in term:
                # a word most of whose titles hold it in one pair is named by that pair, and a word of a phrase
                # ("question" of "question answering") by its best pair; by nothing else (but the former alone if
                # the name has the pair's other word already: "visual · question answering · reasoning")
                phrase = term in fragments
                bound = [pair for n, pair in pairs.get((label, term), []) if phrase or n >= PAIR_SHARE * -minus_n]
                alone = any(taken.get(w) == label for pair in bound for w in pair.split(" "))
                if phrase or (bound and not alone):
                    term = next((pair for pair in bound if fits(label, pair)), "")
                    if not term:
                        continue
            chosen[label].append(term)
            taken.update(dict.fromkeys(term.split(" "), label))
    written = _forms(parsed, slot, rank, chosen)
    names: dict[int, str] = {}
    for label in sorted(chosen):
        if sum(map(words, chosen[label])) >= MIN_NAME_WORDS:
            names[label] = NAME_SEPARATOR.join(written[label, term] for term in chosen[label])
            continue
        rows = np.flatnonzero(labels == label)
        top = int(rows[np.argmax(np.asarray(cited)[rows])] if cited is not None else rows[0])
        short = short_title(texts[top])
        name = f"around “{short}”" if short else f"cluster {label + 1}"
        names[label] = name if name not in names.values() else f"{name} ({label + 1})"
    return names


def clusters_of(
    store: Store,
    rows: np.ndarray,
    edge_i: np.ndarray,
    edge_j: np.ndarray,
    weights: np.ndarray | None = None,
    terms: int = NAME_TERMS,
) -> tuple[np.ndarray, dict[int, str]]:
    """Clusters of a map (its ``rows`` and links as positions in them, e.g. a ``Subgraph``'s): the label of
    each row and the name of each cluster, its terms weighed against the dataset's titles."""
    labels = communities(len(rows), edge_i, edge_j, weights)
    if not (labels != OTHER).any():
        return labels, {}
    rows = np.asarray(rows, dtype=np.int64)
    names = cluster_names(
        store.titles(rows), labels, terms, background=dataset_background(store), cited=store.in_cited[rows]
    )
    return labels, names
