"""Google Lighthouse on the first page and on a ~1,500-paper view of the default dataset: the scores and what they
come from, the median of a few runs.

    python bench/lighthouse.py [--runs 3] [--data DIR] [--port PORT]
    python bench/lighthouse.py --again    # the tables again, from the reports the last run kept

* The app under gunicorn (2 workers) with its own compression on, as the hosted viewer answers (nginx compresses
  there instead; the bytes on the wire are about the same).
* Lighthouse from ``.test-tools/`` (``scripts/install-test-tools`` installs the pinned version) with Debian's
  Chromium, its mobile defaults (a mid-range phone: simulated slow 4G and a 4x slower CPU), the categories
  performance, accessibility, best practices and SEO; one fresh Chromium per run.
* Each page's floor, measured the same way: a bare Dash page with one dash-cytoscape component drawing the same
  papers and citations at the same places (bench/floor_app.py, compressed), nothing else. What the stack itself
  costs; no target applies to it.
* Per page: the medians of the scores, Total Blocking Time and Largest Contentful Paint, the element Lighthouse
  took as the largest paint (the one most runs named), the bytes transferred; then, from the run with the median
  Performance score, the largest scripts on the wire and the scripts that kept the main thread busiest.

Targets: Performance >= 90 on ``/`` and >= 75 on the 1,500-paper view, Accessibility and Best Practices 100, SEO
>= 95 on ``/`` (the views' URLs are closed to crawlers by assets/robots.txt, which Lighthouse counts against their
SEO score), first page at most 700 kB on the wire. Prints the tables and writes the first, with each run's figures, to
bench/out/results-lighthouse.json; exits 1 if a target is missed. Each run's
report is kept in ``bench/out/lighthouse/`` (JSON; open it in https://googlechrome.github.io/lighthouse/viewer/).

Timings on these shared 2-core machines move from run to run: Lighthouse slows the CPU by a fixed 4x whatever the
machine, so a busy machine lowers Performance and raises TBT (each run's benchmark index, on stderr, says how fast
the machine was then).
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import statistics
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import common  # first: puts the repository on sys.path
import floor_app
import orjson
import requests
from common import BENCH, OUT, ROOT, log

LIGHTHOUSE = ROOT / ".test-tools" / "node_modules" / ".bin" / "lighthouse"
CHROMIUM = os.environ.get("CITEMAP_CHROMIUM", "/usr/bin/chromium")
PAGES = [("first", "/"), ("1500", "/?seeds=1810.04805&limit=1462")]  # (report files' name, page)
FLOOR = "floor:"  # the results of a page's floor are kept under FLOOR + its path
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]
# the least each page's median must reach: (page's query, category) -> score; and the first page's bytes
TARGETS = {
    ("/", "performance"): 90,
    ("/?seeds=1810.04805&limit=1462", "performance"): 75,
    ("/", "seo"): 95,
}
TARGET_ALL = {"accessibility": 100, "best-practices": 100}
FIRST_PAGE_BYTES = 700_000
TOP = 6  # scripts listed per table


def lighthouse(url: str, report: Path) -> dict[str, Any]:
    """One Lighthouse run on ``url``; its JSON report (also written to ``report``)."""
    args = [
        str(LIGHTHOUSE),
        url,
        "--output=json",
        f"--output-path={report}",
        "--only-categories=" + ",".join(CATEGORIES),
        "--chrome-flags=--headless=new --no-sandbox",
        "--quiet",
    ]
    done = common.run_child(args, timeout=600)
    if done.returncode != 0 or not report.exists():
        raise RuntimeError(f"lighthouse failed ({done.returncode}) on {url}: {done.stderr[-2000:]}")
    return orjson.loads(report.read_bytes())


def short(url: str) -> str:
    """A script's URL as its path without Dash's cache-busting version (``.v4_4_1m1796441555``) and query:
    ``/_dash-component-suites/dash/deps/react-dom@18.3.1.min.js``."""
    return re.sub(r"\.v\d+(?:_\d+)*m\d+", "", urlparse(url).path or url)


def lcp_element(report: dict[str, Any]) -> str:
    """What Lighthouse took as the largest paint: the element's label and its selector."""
    details = report["audits"].get("largest-contentful-paint-element", {}).get("details") or {}
    items = details.get("items") or []
    if items and items[0].get("type") == "table":  # a list of tables, the element's first
        items = items[0].get("items") or []
    node = items[0].get("node", {}) if items else {}
    if not node:
        return "none"
    label = (node.get("nodeLabel") or "").replace("\n", " ")[:50]
    return f"{label} ({node.get('selector', '?')})"


METRICS = ("total-blocking-time", "largest-contentful-paint", "first-contentful-paint", "speed-index")


def unmeasured(report: dict[str, Any]) -> str | None:
    """Why a run measured none of the metrics (Lighthouse's own message, such as NO_LCP when the page painted
    nothing it could take as the largest paint), or None when it measured them all."""
    for name in METRICS:
        audit = report["audits"].get(name, {})
        if "numericValue" not in audit:
            return f"{name}: {audit.get('errorMessage') or 'no value'}"
    return None


def summary(report: dict[str, Any]) -> dict[str, Any]:
    """The figures of one run."""
    audits = report["audits"]
    scores = {c: round(100 * (report["categories"][c]["score"] or 0)) for c in CATEGORIES}
    requests = audits["network-requests"]["details"]["items"]
    scripts = collections.Counter()
    for r in requests:
        if r.get("resourceType") == "Script":
            scripts[short(r["url"])] += r.get("transferSize", 0)
    bootup = {short(i["url"]): i["total"] for i in audits["bootup-time"]["details"].get("items", [])}
    work = {i["groupLabel"]: i["duration"] for i in audits["mainthread-work-breakdown"]["details"].get("items", [])}
    return {
        **scores,
        "tbt": audits["total-blocking-time"]["numericValue"],
        "lcp": audits["largest-contentful-paint"]["numericValue"],
        "fcp": audits["first-contentful-paint"]["numericValue"],
        "si": audits["speed-index"]["numericValue"],
        "cls": audits["cumulative-layout-shift"]["numericValue"],
        "lcp_element": lcp_element(report),
        "bytes": audits["total-byte-weight"]["numericValue"],
        "requests": len(requests),
        "scripts": scripts,
        "bootup": bootup,
        "work": work,
        "failed": sorted(
            a["id"] for a in audits.values() if a.get("scoreDisplayMode") == "binary" and a.get("score") == 0
        ),
        "benchmark_index": report.get("environment", {}).get("benchmarkIndex"),
    }


def median_run(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The run whose Performance score is the median (the lower one of an even count)."""
    return sorted(runs, key=lambda r: r["performance"])[(len(runs) - 1) // 2]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3, help="Lighthouse runs per page (default 3)")
    ap.add_argument("--data", type=Path, help="dataset folder (default: the default dataset)")
    ap.add_argument("--port", type=int, help="the app's loopback port (default: a free one)")
    ap.add_argument("--again", action="store_true", help="print the tables of the reports the last run kept")
    args = ap.parse_args()
    out = OUT / "lighthouse"
    if args.again:
        kept = {path: sorted(out.glob(f"{name}-*.json")) for name, path in PAGES}
        kept |= {FLOOR + path: sorted(out.glob(f"floor-{name}-*.json")) for name, path in PAGES}
        if not all(kept.values()):
            sys.exit(f"no reports in {out}: run without --again first")
        results = {path: [summary(orjson.loads(f.read_bytes())) for f in files] for path, files in kept.items()}
        return report(results, min(len(v) for v in results.values()))
    if not LIGHTHOUSE.exists():
        sys.exit(f"{LIGHTHOUSE} not found: run scripts/install-test-tools")
    if not Path(CHROMIUM).exists():
        sys.exit(f"{CHROMIUM} not found: run scripts/install-test-tools")
    os.environ["CHROME_PATH"] = CHROMIUM  # what Lighthouse's Chrome launcher starts
    data = (args.data or common.default_data()).resolve()
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.json"):
        old.unlink()  # --again reads this run's reports only
    common.guard()
    port = args.port or common.free_port()
    citemap = common.Gunicorn(
        data, 2, out / "gunicorn.log", port=port, env={"CITEMAP_COMPRESS": "1"}, timeout=180, group=True
    )
    results: dict[str, list[dict[str, Any]]] = {}
    try:
        for name, path in PAGES:
            results[path] = runs(citemap.url + path, path, out / name, args.runs)
            # the floor: the same papers and citations drawn by a bare Dash page with one dash-cytoscape component
            view = path.removeprefix("/")
            payload = orjson.loads(requests.get(f"{citemap.url}/graph{view}", timeout=300).content)
            elements = out / f"floor-{name}-elements.json"
            elements.write_bytes(orjson.dumps(floor_app.floor_elements(payload)))
            fport = common.free_port()
            cmd = [sys.executable, str(BENCH / "floor_app.py"), str(elements), str(fport), "--compress"]
            with common.server(cmd, fport, out / f"floor-{name}.log", health="/") as floor:
                results[FLOOR + path] = runs(floor.url + "/", FLOOR + path, out / f"floor-{name}", args.runs)
            elements.unlink()
    finally:
        common.stop(citemap.proc)
    return report(results, args.runs)


def runs(url: str, label: str, stem: Path, n: int) -> list[dict[str, Any]]:
    """``n`` Lighthouse runs on ``url``, each report kept as ``stem-K.json``; their figures."""
    got: list[dict[str, Any]] = []
    tries = 0
    while len(got) < n:
        tries += 1
        if tries > 2 * n:
            sys.exit(f"{label}: Lighthouse measured {len(got)} of {tries - 1} runs")
        i = len(got)
        kept = stem.with_name(f"{stem.name}-{i + 1}.json")
        report = lighthouse(url, kept)
        if (why := unmeasured(report)) is not None:  # run it again; the report is not kept for --again
            log(f"{label} run {i + 1}: not measured ({why}); running it again")
            kept.unlink(missing_ok=True)
            continue
        one = summary(report)
        got.append(one)
        log(
            f"{label} run {i + 1}: performance {one['performance']}, TBT {one['tbt']:,.0f} ms, LCP "
            f"{one['lcp']:,.0f} ms, {one['bytes'] / 1000:,.0f} kB, benchmark index {one['benchmark_index']}"
        )
    return got


def report(results: dict[str, list[dict[str, Any]]], runs: int) -> int:
    """Print the tables; 1 if a target is missed."""
    print(f"Lighthouse, mobile defaults, median of {runs} runs\n")
    columns = [
        "page",
        "Performance",
        "Accessibility",
        "Best Practices",
        "SEO",
        "TBT",
        "LCP",
        "FCP",
        "Speed Index",
        "CLS",
        "LCP element",
        "transferred",
        "requests",
    ]
    rows = []
    missed = []
    for path, got in results.items():
        med = {
            k: statistics.median(r[k] for r in got)
            for k in [*CATEGORIES, "tbt", "lcp", "fcp", "si", "cls", "bytes", "requests"]
        }
        element = collections.Counter(r["lcp_element"] for r in got).most_common(1)[0][0]
        page = f"floor of `{path.removeprefix(FLOOR)}`" if path.startswith(FLOOR) else f"`{path}`"
        rows.append(
            [
                page,
                f"{med['performance']:.0f}",
                f"{med['accessibility']:.0f}",
                f"{med['best-practices']:.0f}",
                f"{med['seo']:.0f}",
                f"{med['tbt']:,.0f} ms",
                f"{med['lcp'] / 1000:.1f} s",
                f"{med['fcp'] / 1000:.1f} s",
                f"{med['si'] / 1000:.1f} s",
                f"{med['cls']:.3f}",
                element,
                f"{med['bytes'] / 1000:,.0f} kB",
                f"{med['requests']:.0f}",
            ]
        )
        if path.startswith(FLOOR):
            continue  # the floor is measured, not held to targets
        for c in CATEGORIES:
            least = TARGETS.get((path, c), TARGET_ALL.get(c))
            if least is not None and med[c] < least:
                missed.append(f"{path} {c} {med[c]:.0f} < {least}")
        if path == "/" and med["bytes"] > FIRST_PAGE_BYTES:
            missed.append(f"{path} {med['bytes'] / 1000:,.0f} kB > {FIRST_PAGE_BYTES / 1000:,.0f} kB")
    print(common.markdown(columns, rows))
    for _, path in PAGES:
        run = median_run(results[path])
        print(f"\n`{path}` (the run with the median Performance score)\n")
        print("| largest scripts | transferred | | main thread by script | busy (ms) |")
        print("|---|---|---|---|---|")
        big = run["scripts"].most_common(TOP)
        busy = sorted(run["bootup"].items(), key=lambda kv: -kv[1])[:TOP]
        for k in range(max(len(big), len(busy))):
            left = f"`{big[k][0]}` | {big[k][1] / 1000:,.1f} kB" if k < len(big) else " | "
            right = f"`{busy[k][0]}` | {busy[k][1]:,.0f}" if k < len(busy) else " | "
            print(f"| {left} | | {right} |")
        work = ", ".join(f"{k} {v:,.0f} ms" for k, v in sorted(run["work"].items(), key=lambda kv: -kv[1])[:5])
        print(f"\nmain thread: {work}")
        if run["failed"]:
            print(f"failed audits: {', '.join(run['failed'])}")
    verdict = f"targets: {'all met' if not missed else 'missed: ' + '; '.join(missed)}"
    print(f"\n{verdict}")
    details = {
        path: [{k: v for k, v in r.items() if k not in ("scripts", "bootup")} for r in got]
        for path, got in results.items()
    }
    common.write_results("lighthouse", columns, rows, verdict, runs=details)
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
