"""The first view says in one line what it shows and offers the dataset's story about its seeds; a click on a seed
(which stays expanded) says what it did."""

from __future__ import annotations

from dash import html

from dashboard.dataset.store import Store
from dashboard.view.describe import first_view_line
from dashboard.view.stories import story_of_seeds
from dashboard.web.callbacks.common import default_seeds, read_state
from dashboard.web.callbacks.state import apply_action
from dashboard.web.layout import _first_view

SEEDS = ["2106.03764", "2006.04862", "2110.10090"]


def _text(node: object) -> str:
    if isinstance(node, str):
        return node
    children = getattr(node, "children", None)
    children = children if isinstance(children, list) else [children] if children is not None else []
    return "".join(_text(c) for c in children)


def test_the_first_view_line_says_what_the_seeds_are_and_offers_their_story(default_store: Store) -> None:
    assert default_seeds(default_store) == SEEDS
    story = story_of_seeds(default_store.folder, list(reversed(SEEDS)))  # in any order
    assert story is not None and story.name == "seeds" and len(story.steps) == 5
    assert story_of_seeds(default_store.folder, ["1706.03762"]) is None
    line = first_view_line(default_store, SEEDS, story.title)
    # the story's title counts them already; two of the three seeds have no area in the data: it says why grey
    assert line == (
        "Three papers on what self-attention can express (★), with the papers they cite (■) and those citing them"
        " (●); grey ones have no area in the data."
    )
    assert first_view_line(default_store, ["2110.10090"], None) == (
        "One seed paper (★), with the papers it cites (■) and those citing it (●)."  # cs.LG: no grey note
    )
    assert first_view_line(default_store, SEEDS[:2], "Attention").startswith("Two seed papers: Attention (★)")
    div = _first_view(default_store)
    assert _text(div) == line + " Show their story (5 steps) →"
    link = [c for c in div.children if isinstance(c, html.A)]
    assert len(link) == 1 and link[0].href == "?story=seeds"


def test_a_click_on_a_seed_selects_it_and_says_so(default_store: Store) -> None:
    state, _ = read_state(default_store, "")
    clicked, notices = apply_action(default_store, state, "graph-citations", {"id": "2006.04862"}, None)
    assert clicked.selected == "2006.04862" and clicked.seeds == state.seeds and clicked.expand == state.expand
    assert len(notices) == 1 and notices[0].startswith("“O(n) Connections are Expressive Enough")
    assert "is a seed: its references and citers in this dataset are already on the map" in notices[0]
    other, notices = apply_action(default_store, state, "graph-citations", {"id": "1706.03762"}, None)
    assert other.expand == ("1706.03762",) and not any("is a seed" in n for n in notices)
