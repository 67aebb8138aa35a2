"""Spelling in search: British and American forms, and the closest common word to one typed wrong."""

from __future__ import annotations

from dashboard.dataset.spelling import Vocabulary, max_changes, spellings


def test_british_and_american_forms_of_a_word() -> None:
    assert spellings("normalisation") == ["normalisation", "normalization"]
    assert spellings("normalization") == ["normalization", "normalisation"]
    assert spellings("modelling") == ["modelling", "modeling"] and spellings("colour") == ["colour", "color"]
    # -isation / -ization for any word, listed or not
    assert spellings("tokenisations") == ["tokenisations", "tokenizations"]
    assert spellings("quantization") == ["quantization", "quantisation"]
    # words spelt one way only
    assert spellings("four") == ["four"] and spellings("attention") == ["attention"] and spellings("") == [""]


def test_how_far_a_word_may_be_from_the_one_meant() -> None:
    assert [max_changes(w) for w in ("gan", "bert", "resnets", "attention")] == [0, 1, 1, 2]


def test_the_closest_common_word() -> None:
    v = Vocabulary([("attention", 600), ("retention", 40), ("residual", 120), ("learning", 7000), ("leaning", 3)])
    assert len(v) == 5
    assert v.closest("atention") == "attention"  # one letter dropped
    assert v.closest("resdiual") == "residual"  # two neighbours swapped: one change
    assert v.closest("attentoin") == "attention"
    assert v.closest("ttention") == "attention"  # the first letter dropped: found by the second
    assert v.closest("xttention") is None  # a first letter changed: not looked for
    assert v.closest("retentoin") == "retention"  # fewest changes first, though attention is more common
    # a word the data holds is replaced only by one that many times as many papers hold
    assert v.closest("leaning", docs=3) == "learning" and v.closest("retention", docs=40) is None
    assert v.closest("learning", docs=7000) is None  # itself is never its own correction
    assert v.closest("gam") is None and v.closest("zzzzzzzz") is None and Vocabulary([]).closest("attention") is None
