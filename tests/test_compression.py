"""Compressed responses (dashboard/web/compression.py): what goes over the wire for a big view, its ETag, and the switch
for a proxy that compresses instead."""

from __future__ import annotations

import gzip

import brotli
import pytest

from dashboard.dataset.store import Store
from dashboard.web.app import create_app
from dashboard.web.compression import etag_matches
from tests.conftest import DEFAULT_DATA

BIG = "/graph?seeds=1412.6980,1512.03385,1409.1556&limit=3000"


@pytest.fixture(scope="module")
def client():
    return create_app(DEFAULT_DATA, store=Store.load(DEFAULT_DATA)).server.test_client()


@pytest.mark.parametrize(
    "accept, encoding, decode",
    [("gzip", "gzip", gzip.decompress), ("gzip, deflate, br, zstd", "br", brotli.decompress)],
)
def test_a_5000_paper_view_goes_out_compressed(client, accept, encoding, decode) -> None:
    plain = client.get(BIG, headers={"Accept-Encoding": "identity"})
    assert plain.headers.get("Content-Encoding") is None
    packed = client.get(BIG, headers={"Accept-Encoding": accept})
    assert packed.headers["Content-Encoding"] == encoding and "Accept-Encoding" in packed.headers["Vary"]
    assert decode(packed.data) == plain.data
    print(f"{len(plain.data):,} bytes plain, {len(packed.data):,} as {encoding}")
    assert len(packed.data) <= 0.31 * len(plain.data)
    # the browser's revalidation with the compressed ETag is answered without a body
    again = client.get(BIG, headers={"Accept-Encoding": accept, "If-None-Match": packed.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""


def test_pages_scripts_and_callbacks_are_compressed_small_answers_are_not(client) -> None:
    for path in (
        "/",
        "/_dash-layout",
        "/_dash-dependencies",
        "/assets/js/draw.js",
        "/assets/vendor/plotly-basic.min.js",
    ):
        with client.get(path, headers={"Accept-Encoding": "br"}) as resp:  # files are streamed: read, closed
            assert resp.status_code == 200 and resp.headers.get("Content-Encoding") == "br", path
            assert len(brotli.decompress(resp.get_data())) > 1024, path
    assert client.get("/health", headers={"Accept-Encoding": "br"}).headers.get("Content-Encoding") is None


def test_off_when_a_proxy_compresses(monkeypatch) -> None:
    monkeypatch.setenv("CITEMAP_COMPRESS", "0")
    c = create_app(DEFAULT_DATA, store=Store.load(DEFAULT_DATA)).server.test_client()
    resp = c.get(BIG, headers={"Accept-Encoding": "gzip, br"})
    assert resp.status_code == 200 and resp.headers.get("Content-Encoding") is None
    assert c.get(BIG, headers={"If-None-Match": resp.headers["ETag"]}).status_code == 304


def test_etag_matches() -> None:
    assert etag_matches(["b-q"], "b-q") and etag_matches(["b-q:gzip"], "b-q") and etag_matches(["x", "b-q:br"], "b-q")
    assert not etag_matches(["b-q2"], "b-q") and not etag_matches(["b:gzip"], "b-q") and not etag_matches([], "b-q")
