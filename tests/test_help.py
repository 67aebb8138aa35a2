"""The "?" help names every feature the page offers: each control it speaks of is one the page has, by the words
the page shows."""

from __future__ import annotations

import json

from dashboard.web.layout import _help, make_layout


def texts(component) -> str:
    """All the text of a Dash component tree, as one string."""
    return json.dumps(component.to_plotly_json(), default=lambda c: c.to_plotly_json(), ensure_ascii=False)


def test_the_help_names_each_feature_by_the_pages_own_words(store) -> None:
    page = texts(make_layout(store, None))
    help_text = texts(_help(store))
    # the controls of the page's features, as the page labels them (the paper panel's "Chain of citations to" and
    # "Show more" are drawn by callbacks: dashboard/web/callbacks/render.py)
    for words in ("similar papers", "cluster", "My library", "Stories and presenting", "Export", "Fit"):
        assert words in page, words
        assert words in help_text, words
    for words in ("Chain of citations to", "Show more", "BibTeX", "GraphML", "PNG", "SVG"):
        assert words in help_text, words
