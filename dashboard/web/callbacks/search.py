"""Search as you type: suggestions under the search box."""

from __future__ import annotations

from dash import Dash, Input, Output, html

from dashboard.dataset.store import Store

SUGGESTIONS = 8


def register(app: Dash, store: Store) -> None:
    @app.callback(Output("div-search-results", "children"), Input("input-search", "value"))
    def suggest(text):
        if not isinstance(text, str) or len(text.strip()) < 2:
            return []
        found = store.search_suggesting(text, SUGGESTIONS)
        rows = found.rows
        if not rows:
            return [html.Div("No match", className="search-empty")]
        ids, titles = store.ids(rows), store.titles(rows)
        out = []
        if found.suggestion:  # the papers below include those of the corrected words: say so, and offer them
            out.append(
                html.Div(
                    className="search-suggestion",
                    children=[
                        "Did you mean ",
                        html.Button(
                            found.suggestion,
                            className="search-fix",
                            title="search this instead",
                            **{"data-text": found.suggestion},
                        ),
                        "?",
                    ],
                )
            )
        for pid, title, row in zip(ids, titles, rows, strict=True):
            year = int(store.year[row])
            out.append(
                html.Div(
                    className="search-item",
                    children=[
                        html.Button(
                            className="search-select",
                            id={"type": "search-select", "index": pid},
                            n_clicks=0,
                            children=[
                                html.Span(title, className="search-title"),
                                html.Span(
                                    f"{pid} · {year if year >= 0 else '?'} · "
                                    f"{int(store.in_cited[row]):,} citing in dataset",
                                    className="search-meta",
                                ),
                            ],
                        ),
                        html.Button(
                            "+ seed",
                            className="search-seed",
                            id={"type": "search-seed", "index": pid},
                            n_clicks=0,
                            title="add as a seed",
                            **{"aria-label": f"Add {title} as a seed"},
                        ),
                    ],
                )
            )
        return out
