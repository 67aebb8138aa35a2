"""Helper of bench/browser.py, not an entry point: the floor of this stack, a bare Dash page with one dash-cytoscape
component that draws given elements at given (``preset``) positions, with a plain stylesheet, and nothing else.

    python bench/floor_app.py ELEMENTS.json PORT
"""

from __future__ import annotations

import sys
from pathlib import Path

import dash_cytoscape as cyto
import orjson
from dash import Dash, html

STYLE = [
    {"selector": "node", "style": {"width": "data(size)", "height": "data(size)", "background-color": "#0072B2"}},
    {
        "selector": "edge",
        "style": {
            "width": 1,
            "line-color": "#b9c1cd",
            "curve-style": "straight",
            "target-arrow-shape": "triangle",
            "opacity": 0.5,
        },
    },
]


def make_app(elements: list[dict]) -> Dash:
    app = Dash(__name__, assets_folder=str(Path(__file__).parent / "floor_assets"))
    app.layout = html.Div(
        cyto.Cytoscape(
            id="floor",
            elements=elements,
            stylesheet=STYLE,
            layout={"name": "preset", "fit": True, "padding": 40},
            style={"width": "100%", "height": "96vh"},
        )
    )
    return app


if __name__ == "__main__":
    make_app(orjson.loads(Path(sys.argv[1]).read_bytes())).run(host="127.0.0.1", port=int(sys.argv[2]), debug=False)
