"""The browser libraries the page loads from assets/vendor/ (not Python packages, so pip does not keep them in step)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import plotly

from tests.conftest import ROOT

VERSION = re.compile(r"plotly\.js(?: \(basic - minified\))? v(\d+)\.(\d+)\.(\d+)")


def _version(path: Path) -> tuple[int, int, int]:
    head = path.read_text(encoding="utf-8", errors="replace")[:400]
    found = VERSION.search(head)
    assert found, f"{path}: no plotly.js version in its header"
    return tuple(int(g) for g in found.groups())  # type: ignore[return-value]


def test_the_charts_plotly_bundle_is_basic_and_of_dashs_major_version() -> None:
    """assets/js/charts.js gives dcc.Graph plotly.js's basic bundle instead of the full one Dash serves
    (plotly's package_data/plotly.min.js): same major version, so that dcc.Graph's calls exist in it, and the
    traces the page draws (dashboard/view/figures.py) among the basic bundle's: bar, scatter, pie."""
    vendored = ROOT / "assets" / "vendor" / "plotly-basic.min.js"
    full = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
    assert _version(vendored)[0] == _version(full)[0]
    assert "(basic - minified)" in vendored.read_text(encoding="utf-8")[:200]
    figures = (ROOT / "dashboard" / "view" / "figures.py").read_text(encoding="utf-8")
    assert set(re.findall(r'"type": "(\w+)"', figures)) <= {"bar", "scatter", "pie"}
    assert (ROOT / "assets" / "vendor" / "plotly-basic.LICENSE").read_text(encoding="utf-8").startswith("MIT License")


def test_the_story_exports_libraries_are_vendored_with_their_licences() -> None:
    """A story's PNGs go in a zip made by JSZip and its handout in a PDF made by jsPDF (assets/js/export-story.js
    loads them on first use): both vendored whole, minified as published, with their MIT licences."""
    vendor = ROOT / "assets" / "vendor"
    assert "JSZip v3.10.2" in (vendor / "jszip.min.js").read_text(encoding="utf-8")[:200]
    assert "Version 4.2.1" in (vendor / "jspdf.umd.min.js").read_text(encoding="utf-8")[:300]
    assert "The MIT License" in (vendor / "jszip.LICENSE").read_text(encoding="utf-8")
    assert "Permission is hereby granted, free of charge" in (vendor / "jspdf.LICENSE").read_text(encoding="utf-8")
    script = (ROOT / "assets" / "js" / "export-story.js").read_text(encoding="utf-8")
    assert 'vendorScript("jszip.min.js", "JSZip")' in script and 'vendorScript("jspdf.umd.min.js", "jspdf")' in script


def test_the_svg_exports_canvas2svg_is_vendored_as_published_with_its_licence() -> None:
    """The map's SVG export draws through canvas2svg (assets/js/export-image.js loads it on first use), vendored as
    npm's canvas2svg 1.0.16 publishes it (its header says v1.0.15), with its MIT licence; and the page loads
    dash-cytoscape's plain bundle, not the extra one whose SVG extension is GPL."""
    vendor = ROOT / "assets" / "vendor"
    published = "fa13ad545867c31fccdcb81629d139832b255b1734cd6dcd4d5e38dff7af71c9"
    assert hashlib.sha256((vendor / "canvas2svg.js").read_bytes()).hexdigest() == published
    licence = (vendor / "canvas2svg.LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("The MIT License") and "Copyright (c) 2014 Gliffy Inc." in licence
    script = (ROOT / "assets" / "js" / "export-image.js").read_text(encoding="utf-8")
    assert 'vendorScript("canvas2svg.js", "C2S")' in script and "cy.svg(" not in script
    layout = (ROOT / "dashboard" / "web" / "layout.py").read_text(encoding="utf-8")
    assert not re.search(r"^\s*cyto\.load_extra_layouts\(", layout, re.M)
