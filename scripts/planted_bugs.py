#!/usr/bin/env python3
"""Plant known one-line bugs, one at a time, in a copy of the project, and check that the tests named for each
fail. These are the mutants that once survived the suite (a layout step that moves papers placed before it,
raised caps, an ETag without the build id, a CSV column, a year filter or a node range read wrong, a chart
selection left unvalidated, callback errors the fuzz test would not see), and a title's box a pixel narrower than
its text, which the page's unit tests (node's test runner, tests/js/) must catch without a browser; a bug that the
suite lets through again makes this script exit 1. A test is named ``path::name``: a pytest test, or a test of a
``tests/js/*.test.mjs`` file (its name as given to node's ``test()``).

    python scripts/planted_bugs.py            # every bug (slow: each bug runs its tests in a copy)
    python scripts/planted_bugs.py caps etag  # bugs whose name contains a word
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from xml.etree import ElementTree

ROOT = Path(__file__).resolve().parent.parent

# name, file, the line as it is, the line with the bug, the tests that must fail
BUGS: list[tuple[str, str, str, str, list[str]]] = [
    (
        "a new seed's step nudges the papers placed before it",
        "dashboard/graph/force_layout.py",
        "first = 1 if old == 0 else old  # what stays put: the papers placed before (the first seed: the middle)",
        "first = 1",
        ["tests/test_force_layout.py::test_an_action_moves_no_paper_that_stays"],
    ),
    (
        "caps: MAX_SEEDS 20 -> 21",
        "dashboard/graph/state.py",
        "MAX_SEEDS = 20",
        "MAX_SEEDS = 21",
        ["tests/test_state.py::test_caps_are_the_documented_ones"],
    ),
    (
        "caps: MAX_EXPAND 60 -> 400",
        "dashboard/graph/state.py",
        "MAX_EXPAND = 60",
        "MAX_EXPAND = 400",
        ["tests/test_state.py::test_caps_are_the_documented_ones", "tests/test_state.py::test_actions_keep_the_caps"],
    ),
    (
        "caps: MAX_NODES 5,000 -> 500,000",
        "dashboard/graph/neighbourhood.py",
        "MAX_NODES = 5000",
        "MAX_NODES = 500000",
        ["tests/test_graph.py::test_node_cap_is_5000"],
    ),
    (
        "caps: MAX_BODY 256 kB -> 1 MiB",
        "dashboard/web/security.py",
        "MAX_BODY = 256 * 1024",
        "MAX_BODY = 1024 * 1024",
        ["tests/test_security.py::test_validate_update_unit", "tests/test_security.py::test_body_limit_over_http"],
    ),
    (
        "etag without the build id",
        "dashboard/web/app.py",
        'f"{build_id}-{view_query(state)}", lambda: work(store, state, "graph"',
        'f"{view_query(state)}", lambda: work(store, state, "graph"',
        ["tests/test_security.py::test_etag_names_the_dataset_build"],
    ),
    (
        "csv column from the wrong field",
        "dashboard/view/export.py",
        '"citers_in_dataset": p["in_cited"]',
        '"citers_in_dataset": p["in_refs"]',
        ["tests/test_export.py::test_csv_columns_are_the_stores_facts"],
    ),
    (
        "chart selection left unvalidated",
        "dashboard/web/callbacks/state.py",
        'if isinstance(p, dict) and _finite(p.get("x")):',
        'if isinstance(p, dict) and p.get("x") is not None:',
        [
            "tests/test_security.py::test_chart_selection_is_validated",
            "tests/test_security.py::test_any_chart_selection_gives_a_valid_state",
        ],
    ),
    (
        "unknown years pass any year filter",
        "dashboard/dataset/store.py",
        "if self.year_min is not None and years[0] <= self.year_min and years[1] >= self.year_max:",
        "if True:",
        ["tests/test_store.py::test_unknown_years_pass_only_a_year_filter_that_covers_the_dataset"],
    ),
    (
        "arxiv2023 node range off by one",
        "dashboard/importers/arxiv2023.py",
        "if not 0 <= v < n:",
        "if not 0 <= v <= n:",
        ["tests/test_importers_arxiv2023.py::test_missing_column_and_bad_rows_are_named"],
    ),
    (
        "callback errors unseen by the fuzz test",
        "dashboard/web/app.py",
        'log.error("callback error %s", eid, exc_info=err)',
        "pass",
        ["tests/test_security.py::test_callback_errors_are_seen"],
    ),
    (
        "a title's box a pixel narrower than its text",
        "assets/js/logic/title-placement.js",
        "x2: x1 + w + dx,",
        "x2: x1 + w - 1 / z + dx,",
        [
            "tests/js/title-placement.test.mjs::a title's box is its text's box on screen with 5 px of room at the "
            "sides and 4 px above and below"
        ],
    ),
]


def copy_project(dest: Path) -> None:
    files = subprocess.run(
        ["git", "ls-files", "-z", "-co", "--exclude-standard"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.split("\0")
    for name in files:
        src = ROOT / name
        if src.is_symlink():  # data/current: a link to the build it serves
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            os.symlink(os.readlink(src), dest / name)
        elif src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)


TIMEOUT = 300  # seconds for one bug's tests


def failed_in_call(report: Path, test: str) -> bool:
    """Whether the JUnit report says ``test`` (``path::name``) ran and failed its assertions (not its setup): pytest
    names a test's class after its module, node's test runner names a test as given."""
    path, name = test.split("::", 1)
    classname = path.removesuffix(".py").replace("/", ".")
    node = path.endswith(".mjs")
    root = ElementTree.parse(report).getroot()
    for case in root.iter("testcase"):
        named = case.get("name", "") == name if node else case.get("name", "").split("[")[0] == name
        if named and (node or case.get("classname") == classname):
            return case.find("failure") is not None
    return False


def run_tests(work: Path, tests: list[str], report: Path) -> str:
    """Run the tests named (all pytest's, or all of one node test file) in ``work``, writing a JUnit report; their
    output."""
    if all(t.split("::", 1)[0].endswith(".mjs") for t in tests):
        files = sorted({t.split("::", 1)[0] for t in tests})
        cmd = ["node", "--test", "--test-reporter=junit", f"--test-reporter-destination={report}", *files]
    else:
        cmd = [sys.executable, "-m", "pytest", "-q", "-n0", "-p", "no:cacheprovider", f"--junitxml={report}", *tests]
    return subprocess.run(cmd, cwd=work, capture_output=True, text=True, timeout=TIMEOUT).stdout


def main(words: list[str]) -> int:
    chosen = [b for b in BUGS if not words or any(w.lower() in b[0].lower() for w in words)]
    failed = 0
    with tempfile.TemporaryDirectory(prefix="citemap-planted-") as tmp:
        work = Path(tmp) / "main"
        copy_project(work)
        for name, rel, good, bad, tests in chosen:
            path = work / rel
            text = path.read_text()
            if text.count(good) != 1:
                print(f"STALE  {name}: {rel} does not hold the line exactly once: {good}")
                failed += 1
                continue
            path.write_text(text.replace(good, bad))
            start = time.monotonic()
            report = Path(tmp) / "report.xml"
            try:
                output = run_tests(work, tests, report)
                missed = [t for t in tests if not failed_in_call(report, t)]
            except subprocess.TimeoutExpired:  # a bug that hangs the tests is caught too (by the time limit)
                missed, output = [], ""
            finally:
                path.write_text(text)
            failed += bool(missed)
            print(f"{'MISSED' if missed else 'CAUGHT'} {name} ({time.monotonic() - start:.0f} s)")
            if missed:
                print(f"  these tests passed (or did not run): {missed}\n{output[-2000:]}")
    print(f"{len(chosen) - failed} of {len(chosen)} planted bugs caught")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
