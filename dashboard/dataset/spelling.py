"""Spelling in search: the British and American forms of a word (either finds both), and a word typed wrong
matched to the closest of the dataset's own frequent words (:class:`Vocabulary`), for a search's "Did you mean".

The two forms come from the ``eng`` package's word list (``normalisation`` / ``normalization``, ``modelling`` /
``modeling``, ``colour`` / ``color``, ...), and ``-isation`` / ``-ization`` for any word. Closeness is the optimal
string alignment distance (rapidfuzz): letters added, dropped, changed, or two neighbours swapped."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import OSA

MIN_LETTERS = 4  # shorter words are never corrected: too many others are one letter away
LONG_WORD = 8  # from this length a word may be two changes away from the one meant, below it one
MORE_COMMON = 10  # a word the dataset knows is taken for a typo only if a close one is this many times as common


@lru_cache(maxsize=2)
def _forms(target: str) -> Mapping[str, str]:
    """British -> American (``target`` "us") or American -> British ("uk") spellings of the words that differ."""
    from eng import Target, TextFixer

    return TextFixer(content="", target=Target.US if target == "us" else Target.UK).words


def spellings(word: str) -> list[str]:
    """``word`` (lower case) and its other spellings, British or American: ``normalisation`` ->
    ``["normalisation", "normalization"]``; a word spelt one way only -> ``[word]``."""
    out = [word]
    others = [_forms("us").get(word), _forms("uk").get(word)]
    for british, american in (("isation", "ization"), ("isations", "izations")):
        if word.endswith(british):
            others.append(word[: -len(british)] + american)
        elif word.endswith(american):
            others.append(word[: -len(american)] + british)
    for other in others:
        if other and other not in out:
            out.append(other)
    return out


def max_changes(word: str) -> int:
    """How many changes away a word may be from the one meant: 0 (never corrected), 1 or 2, by its length."""
    if len(word) < MIN_LETTERS:
        return 0
    return 2 if len(word) >= LONG_WORD else 1


class Vocabulary:
    """A dataset's frequent title words with the number of papers holding each (``docs``), grouped by length and
    by first and second letter, so that the words close to a typed one are compared with a few thousand at most:
    those of a length within reach that begin with the typed word's first or second letter (its first two
    swapped, or a letter put before them) or whose second letter is its first (the first letter dropped). A
    first letter typed wrong is not looked for."""

    def __init__(self, words: Iterable[tuple[str, int]]) -> None:
        self.docs: dict[str, int] = {}
        groups: dict[tuple[int, int, str], list[str]] = {}
        for word, docs in words:
            self.docs[word] = int(docs)
            for place in (0, 1):
                groups.setdefault((len(word), place, word[place : place + 1]), []).append(word)
        self._groups = {key: (group, np.array([self.docs[w] for w in group])) for key, group in groups.items()}

    def __len__(self) -> int:
        return len(self.docs)

    def closest(self, word: str, docs: int = 0) -> str | None:
        """The word of the vocabulary nearest ``word`` (fewest changes, then most common) within
        :func:`max_changes`, other than ``word`` itself and held by more than :data:`MORE_COMMON` times ``docs``
        papers (``docs``: the papers holding ``word``); or None."""
        reach = max_changes(word)
        if not reach:
            return None
        floor = docs * MORE_COMMON
        best: tuple[int, int, str] | None = None
        places = dict.fromkeys([(0, word[0]), (0, word[1]), (1, word[0])])
        for length in range(len(word) - reach, len(word) + reach + 1):
            for place, letter in places:
                group = self._groups.get((length, place, letter))
                if group is None:
                    continue
                words, counts = group
                for candidate, changes, i in process.extract(
                    word, words, scorer=OSA.distance, score_cutoff=reach, limit=None
                ):
                    if candidate == word or counts[i] <= floor:
                        continue
                    key = (changes, -int(counts[i]), candidate)
                    if best is None or key < best:
                        best = key
        return None if best is None else best[2]
