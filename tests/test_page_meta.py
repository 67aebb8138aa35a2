"""What the first page tells crawlers and browsers besides the map: /robots.txt, the page's description naming the
dataset, the viewport, and the icon."""

from __future__ import annotations

import re
from html import unescape

import pytest

from dashboard.view.naming import about_line
from tests.conftest import ROOT


def rules(text: str) -> list[tuple[str, str]]:
    """The (directive, value) lines of a robots.txt, comments and blank lines left out."""
    out = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            key, _, value = line.partition(":")
            out.append((key.strip().lower(), value.strip()))
    return out


def allowed(text: str, path: str) -> bool:
    """Whether a crawler may fetch ``path`` (with its query string) under ``text``: the longest matching rule wins,
    Allow on a tie (RFC 9309); ``*`` matches any characters and a final ``$`` the end of the path."""
    best: tuple[int, bool] = (-1, True)
    for key, value in rules(text):
        if key not in ("allow", "disallow") or not value:
            continue
        pattern = re.escape(value.removesuffix("$")).replace(r"\*", ".*") + ("$" if value.endswith("$") else "")
        if re.match(pattern, path) and (len(value), key == "allow") > best:
            best = (len(value), key == "allow")
    return best[1]


def test_robots_txt_is_a_text_file_that_lets_crawlers_read_the_front_page_only(client) -> None:
    r = client.get("/robots.txt")
    assert r.status_code == 200 and r.mimetype == "text/plain"
    text = r.get_data(as_text=True)
    assert "<html" not in text.lower()
    assert ("user-agent", "*") in rules(text)
    assert {k for k, _ in rules(text)} <= {"user-agent", "allow", "disallow"}
    for path in ("/", "/assets/style.css", "/_dash-layout", "/_dash-dependencies", "/favicon.ico"):
        assert allowed(text, path), path
    assert allowed(text, "/_dash-component-suites/dash/deps/react@18.min.js?v=4")
    for path in (
        "/?seeds=1810.04805&limit=1462",
        "/?mode=field",
        "/graph?seeds=1810.04805",
        "/image-title?seeds=1810.04805",
        "/library",
        "/_dash-update-component",
        "/health",
        "/some/other/path",
    ):
        assert not allowed(text, path), path


def test_the_page_describes_the_dataset_it_shows(client, store) -> None:
    html = client.get("/").get_data(as_text=True)
    head = html.split("</head>", 1)[0]
    found = re.findall(r'<meta name="description" content="([^"]*)"', head)
    assert len(found) == 1
    text = unescape(found[0])
    assert about_line(store) in text  # what and how many, and where from
    assert "156 papers" in text and "mlsanity.com" in text
    assert len(re.findall(r'<meta name="viewport"', head)) == 1


def test_the_description_is_escaped(client, store, monkeypatch: pytest.MonkeyPatch) -> None:
    from dashboard.web import app as app_mod

    monkeypatch.setattr(app_mod, "about_line", lambda store: 'papers "quoted" <b>and</b> & more')
    app = app_mod.create_app(store.folder, store=store)
    head = app.server.test_client().get("/").get_data(as_text=True).split("</head>", 1)[0]
    meta = re.search(r'<meta name="description" content="([^"]*)"', head)
    assert meta is not None and "<b>" not in meta.group(0)
    assert unescape(meta.group(1)) == app_mod.description(store)


def test_the_icon_answers_as_an_image(client) -> None:
    html = client.get("/").get_data(as_text=True)
    head = html.split("</head>", 1)[0]
    links = re.findall(r'<link rel="icon"[^>]*href="([^"]+)"', head)
    assert links, "the page links no icon"
    for href in [*links, "/favicon.ico"]:
        r = client.get(href)
        assert r.status_code == 200, href
        assert r.mimetype in ("image/x-icon", "image/vnd.microsoft.icon", "image/svg+xml"), (href, r.mimetype)
        body = r.get_data()
        assert body.startswith(b"\x00\x00\x01\x00") or body.lstrip().startswith(b"<svg"), href


def test_the_page_loads_regenerator_runtime_instead_of_babels_polyfill_and_no_table_bundle(client) -> None:
    """Dash's own bundles call ``regeneratorRuntime`` when a lazily loaded component's code arrives: the page loads
    that runtime (vendored as npm publishes it, with its licence) where Dash put the polyfill, before React, and
    neither the polyfill nor dash_table's bundle (the page has no table)."""
    page = client.get("/").get_data(as_text=True)
    scripts = re.findall(r'<script src="([^"]+)"', page)
    assert scripts[0] == "/assets/vendor/regenerator-runtime.js"
    assert any("/deps/react@" in s for s in scripts) and any("dash_renderer" in s for s in scripts)
    assert not [s for s in scripts if "polyfill" in s or "dash_table" in s]
    runtime = client.get(scripts[0])
    assert runtime.status_code == 200 and b"globalThis.regeneratorRuntime = runtime" in runtime.get_data()
    vendor = ROOT / "assets" / "vendor"
    assert (vendor / "regenerator-runtime.LICENSE").read_text(encoding="utf-8").startswith("MIT License")


def test_the_page_starts_from_its_one_module_and_announces_every_module(client) -> None:
    """The page's own code is the ES modules of assets/js/: Dash puts none of them in the page as a classic script;
    the entry, main.js, is the one module script, where Dash's inline script that starts its renderer was; every
    module is announced (modulepreload) and served as JavaScript."""
    page = client.get("/").get_data(as_text=True)
    classic = re.findall(r'<script src="([^"]+)"', page)
    assert classic and not [s for s in classic if "/assets/js/" in s]
    assert re.findall(r'<script type="module"[^>]*src="([^"]+)"', page) == ["/assets/js/main.js"]
    assert 'id="_dash-renderer" src="/assets/js/main.js"' in page and "new DashRenderer" not in page
    folder = ROOT / "assets" / "js"
    files = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.js"))
    announced = re.findall(r'<link rel="modulepreload" href="/assets/js/([^"]+)">', page)
    assert announced == files and "logic/title-placement.js" in files
    for name in ("main.js", "logic/fit.js"):
        r = client.get(f"/assets/js/{name}")
        assert r.status_code == 200 and r.mimetype in ("text/javascript", "application/javascript"), name
        r.close()
