"""A view's map as an SVG picture drawn on the server: its papers at their places, in their colours and shapes, and
its citations, without titles. The first page shows it where the map will be while the page's scripts load, so the
first thing a visitor sees (and the page's largest paint) is the map itself; the live map then draws over it.

Colours, sizes and shapes follow the live map's rules (assets/js/logic/map-elements.js: elementsFrom,
nodeSize; the stylesheet's shapes: a seed a star, a reference a rounded square, other papers a circle).
"""

from __future__ import annotations

import math

import numpy as np
import orjson

from dashboard.graph.layouts import node_radius
from dashboard.view.payload import payload_nodes

PAD = 30  # model units around the papers (the live map fits with a margin too)
EDGE_COLOR = "#b9c1cd"
SEED_STROKE = "#1d2430"


def _star(x: float, y: float, r: float) -> str:
    """A five-pointed star's points around (x, y), outer radius ``r``, one point up."""
    pts = []
    for k in range(10):
        rad = r if k % 2 == 0 else r * 0.45
        a = math.pi / 2 + k * math.pi / 5
        pts.append(f"{x + rad * math.cos(a):.1f},{y - rad * math.sin(a):.1f}")
    return " ".join(pts)


def node_colors(payload: dict, nodes: list[dict]) -> list[str]:
    """Each paper's fill, by the payload's colour mode and palette (as the page colours it)."""
    pal = payload["palette"]
    unknown = pal["unknown"]
    if payload["color"] == "year":
        scale, y0 = pal["year"], pal["year0"]
        return [scale[n["year"] - y0] if n["year"] is not None and 0 <= n["year"] - y0 < len(scale) else unknown
                for n in nodes]  # fmt: skip
    if payload["color"] == "cluster":
        colours = pal.get("cluster", [])
        return [colours[c] if 0 <= c < len(colours) else unknown for c in payload.get("cluster", [])]
    return [pal["area"].get(n["areas"][0], unknown) if n["areas"] else unknown for n in nodes]


def preview_svg(payload_json: str) -> str:
    """The SVG picture of the view whose graph payload (``GET /graph``'s text) is ``payload_json``."""
    payload = orjson.loads(payload_json)
    nodes = payload_nodes(payload)
    x = np.asarray(payload["x"], dtype=float)
    y = np.asarray(payload["y"], dtype=float)
    seed = np.zeros(len(nodes), dtype=bool)
    seed[payload["seeds"]] = True
    r = np.asarray(node_radius(np.array([n["in_cited"] for n in nodes], dtype=np.int64), seed), dtype=float)
    if len(nodes):
        lo_x, hi_x = float((x - r).min()) - PAD, float((x + r).max()) + PAD
        lo_y, hi_y = float((y - r).min()) - PAD, float((y + r).max()) + PAD
    else:
        lo_x, hi_x, lo_y, hi_y = -PAD, PAD, -PAD, PAD
    width, height = hi_x - lo_x, hi_y - lo_y
    source, target = payload["edges"]["source"], payload["edges"]["target"]
    lines = "".join(f"M{x[s]:.1f} {y[s]:.1f}L{x[t]:.1f} {y[t]:.1f}" for s, t in zip(source, target, strict=True))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{lo_x:.1f} {lo_y:.1f} {width:.1f} {height:.1f}" '
        f'width="{width:.0f}" height="{height:.0f}">',
        f'<path d="{lines}" stroke="{EDGE_COLOR}" stroke-width="1" opacity="0.6" fill="none"/>' if lines else "",
    ]
    roles = payload["role"]
    for i, colour in enumerate(node_colors(payload, nodes)):
        xi, yi, ri = float(x[i]), float(y[i]), float(r[i])
        if seed[i]:
            parts.append(f'<polygon points="{_star(xi, yi, ri)}" fill="{colour}" stroke="{SEED_STROKE}"/>')
        elif roles[i] == "r":
            parts.append(
                f'<rect x="{xi - ri:.1f}" y="{yi - ri:.1f}" width="{2 * ri:.1f}" height="{2 * ri:.1f}" '
                f'rx="{ri / 4:.1f}" fill="{colour}"/>'
            )
        else:
            parts.append(f'<circle cx="{xi:.1f}" cy="{yi:.1f}" r="{ri:.1f}" fill="{colour}"/>')
    parts.append("</svg>")
    return "".join(parts)
