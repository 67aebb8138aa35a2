"""Helper of bench/browser.py and bench/lighthouse.py, not an entry point: the floor of this stack, a bare Dash page
with one dash-cytoscape component that draws given elements at given (``preset``) positions, with a plain
stylesheet, and nothing else; ``--compress``: its answers compressed as citemap's are (flask-compress).

    python bench/floor_app.py ELEMENTS.json PORT [--compress]
"""

from __future__ import annotations

import sys
from pathlib import Path

import dash_cytoscape as cyto
import orjson
from dash import Dash, html

from dashboard.view.payload import payload_nodes

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


def floor_elements(payload: dict) -> list[dict]:
    """The view's papers and citations as plain Cytoscape elements at the server's positions."""
    nodes = payload_nodes(payload)
    out: list[dict] = [
        {"data": {"id": n["id"], "size": 14}, "position": {"x": x, "y": y}}
        for n, x, y in zip(nodes, payload["x"], payload["y"], strict=True)
    ]
    ids = [n["id"] for n in nodes]
    out += [
        {"data": {"id": f"{ids[s]}>{ids[t]}", "source": ids[s], "target": ids[t]}}
        for s, t in zip(payload["edges"]["source"], payload["edges"]["target"], strict=True)
    ]
    return out


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
    app = make_app(orjson.loads(Path(sys.argv[1]).read_bytes()))
    if "--compress" in sys.argv[3:]:
        from flask_compress import Compress

        Compress(app.server)
    app.run(host="127.0.0.1", port=int(sys.argv[2]), debug=False)
