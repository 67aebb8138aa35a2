"""The first page's picture of the map (dashboard/view/preview.py, ``GET /preview.svg``): the view's papers at the
map's places, in the map's colours and shapes, its drawn citations; put in the first page where the map will be."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import orjson

from dashboard.graph.state import encode_query
from dashboard.view.payload import payload_nodes
from dashboard.view.preview import node_colors
from dashboard.web.callbacks.common import read_state

SVG = "{http://www.w3.org/2000/svg}"
QUERIES = ["", "?seeds=2006.04862&color=year", "?seeds=2006.04862&color=cluster&expand=2106.03764&more=2106.03764:1"]


def shapes(svg: bytes) -> list[ET.Element]:
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    return [e for e in root if e.tag in (SVG + "circle", SVG + "rect", SVG + "polygon")]


def centre(e: ET.Element) -> tuple[float, float]:
    if e.tag.endswith("circle"):
        return float(e.get("cx")), float(e.get("cy"))
    if e.tag.endswith("rect"):
        return float(e.get("x")) + float(e.get("width")) / 2, float(e.get("y")) + float(e.get("height")) / 2
    pts = [tuple(map(float, p.split(","))) for p in e.get("points").split()]
    return sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)


def test_the_picture_draws_each_paper_of_the_view_where_and_as_the_map_does(client) -> None:
    for query in QUERIES:
        payload = orjson.loads(client.get("/graph" + query).get_data())
        nodes = payload_nodes(payload)
        r = client.get("/preview.svg" + query)
        assert r.status_code == 200 and r.mimetype == "image/svg+xml"
        drawn = shapes(r.get_data())
        assert len(drawn) == len(nodes) > 10, query
        for i, (e, colour) in enumerate(zip(drawn, node_colors(payload, nodes), strict=True)):
            x, y = centre(e)
            assert abs(x - payload["x"][i]) < 0.2 and abs(y - payload["y"][i]) < 0.2, (query, i)
            assert e.get("fill") == colour
            want = "polygon" if i in payload["seeds"] else "rect" if payload["role"][i] == "r" else "circle"
            assert e.tag == SVG + want, (query, i)
        lines = ET.fromstring(r.get_data()).find(SVG + "path").get("d")
        assert lines.count("M") == len(payload["edges"]["source"])
        assert len({e.get("fill") for e in drawn}) >= 3  # coloured, not one grey


def test_the_picture_is_kept_by_caches_and_asked_again_with_its_etag(client) -> None:
    first = client.get("/preview.svg?seeds=2006.04862")
    assert "no-cache" in first.headers["Cache-Control"] and first.headers["ETag"]
    again = client.get("/preview.svg?seeds=2006.04862", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.get_data() == b""
    other = client.get("/preview.svg?seeds=2110.10090")
    assert other.headers["ETag"] != first.headers["ETag"]


def test_the_first_page_shows_the_picture_of_its_own_view_and_none_for_the_field(app, client) -> None:
    store = app.server.config["CITEMAP_STORE"]
    for query in ["", "?seeds=arXiv:2006.04862&layout=timeline", "?seeds=no-such-paper"]:
        page = client.get("/" + query).get_data(as_text=True)
        src = re.findall(r'<img class="boot-map" src="([^"]+)" alt="">', page)
        state, _ = read_state(store, query.lstrip("?"))
        assert src == ["/preview.svg" + encode_query(state).replace("&", "&amp;")], query
        assert page.index('class="boot-map"') < page.index('id="react-entry-point"')
        assert client.get(src[0].replace("&amp;", "&")).status_code == 200
    assert 'class="boot-map"' not in client.get("/?mode=field").get_data(as_text=True)
