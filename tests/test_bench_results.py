"""bench/ as a reference: bench/README.md's results are generated from the committed bench/results/latest.json, each
bench command has its latest run there, a run's results file becomes the latest with one command, and no bench
output names an issue."""

from __future__ import annotations

import importlib.util
import json
import math
import re
from pathlib import Path

import pytest

from tests.conftest import ROOT

BENCH = ROOT / "bench"
COMMANDS = [
    "run",
    "startup",
    "browser",
    "lighthouse",
    "load",
    "import_scale",
    "similar_eval",
    "similar_exact",
    "field_speed",
    "flood",
]


def load_results():
    """bench/results.py, imported as a module of its own (bench/ is not a package)."""
    spec = importlib.util.spec_from_file_location("bench_results", BENCH / "results.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


results = load_results()


def test_the_readme_shows_latest_json() -> None:
    latest = json.loads(results.LATEST.read_text())
    readme = results.README.read_text()
    assert results.with_results(readme, latest) == readme, "run python bench/results.py"
    for e in latest["results"]:  # every figure of every table is in the README
        for row in e["rows"]:
            assert results.markdown(e["columns"], e["rows"]).splitlines()[0] in readme
            assert all(cell in readme for cell in row)


def test_every_command_has_its_latest_run_and_writes_its_results() -> None:
    latest = json.loads(results.LATEST.read_text())
    scripts = [e["command"].split()[1] for e in latest["results"]]
    assert sorted({s.removeprefix("bench/").removesuffix(".py") for s in scripts}) == sorted(COMMANDS)
    readme = results.README.read_text()
    for name in COMMANDS:
        source = (BENCH / f"{name}.py").read_text()
        assert "write_results(" in source, f"bench/{name}.py writes no results file"
        assert f"python bench/{name}.py" in readme, f"bench/README.md does not list bench/{name}.py"


def test_the_readme_is_a_reference_not_a_diary() -> None:
    # what each command measures and one table per command of its latest run: no dated runs beside them
    assert len(results.README.read_text().splitlines()) <= 260
    assert (BENCH / "HISTORY.md").exists()


@pytest.mark.parametrize(
    "path",
    [*sorted(BENCH.glob("*.py")), BENCH / "README.md", BENCH / "HISTORY.md", BENCH / "results" / "latest.json"],
    ids=lambda p: p.name,
)
def test_no_issue_numbers_in_bench_output(path: Path) -> None:
    found = re.findall(r"\bissues? \d+|#\d+\b", path.read_text(), flags=re.IGNORECASE)
    assert not found, found


def test_a_run_becomes_the_latest_and_the_readme_follows(tmp_path: Path) -> None:
    latest_path, readme_path = tmp_path / "latest.json", tmp_path / "README.md"
    latest_path.write_text(results.LATEST.read_text())
    readme_path.write_text(results.README.read_text())
    before = json.loads(latest_path.read_text())["results"]
    columns = ["measure", "seed pages", "default data", "ratio", "target", "result"]
    rows = [["start-up (s)", "1.25", "3.75", "3.00", "<= 2", "FAIL"]]
    written = results.write(tmp_path / "out", "startup", columns, rows, "targets: missed", spread=math.nan)
    assert json.loads(written.read_text())["details"] == {"spread": None}  # strict JSON
    new = results.write(tmp_path / "out", "brand-new", ["a", "b"], [["x", "y"]], "no target")

    assert results.main(["--check", "--latest", str(latest_path), "--readme", str(readme_path)]) == 0
    assert (
        results.main(["take", str(written), str(new), "--latest", str(latest_path), "--readme", str(readme_path)]) == 0
    )
    after = json.loads(latest_path.read_text())["results"]
    assert [e["name"] for e in after] == [*(e["name"] for e in before), "brand-new"]  # replaced in place, added last
    startup = next(e for e in after if e["name"] == "startup")
    assert startup["rows"] == rows and "details" not in startup
    assert startup["command"].startswith("python bench/")
    readme = readme_path.read_text()
    assert results.markdown(columns, rows) in readme and "3.75" not in results.README.read_text()
    assert "| x | y |" in readme and readme.count(results.BEGIN) == 1
    assert results.main(["--check", "--latest", str(latest_path), "--readme", str(readme_path)]) == 0
    readme_path.write_text(results.README.read_text())  # a README not regenerated fails the check
    assert results.main(["--check", "--latest", str(latest_path), "--readme", str(readme_path)]) == 1


def test_a_file_that_is_not_a_result_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no rows, verdict"):
        results.take({"results": []}, {"name": "x", "command": "c", "date": "d", "machine": "m", "columns": []})
    with pytest.raises(ValueError, match="columns"):
        results.markdown(["a", "b"], [["only one"]])
