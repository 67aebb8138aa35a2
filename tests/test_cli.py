"""The command line: info, import, error messages and exit codes."""

from __future__ import annotations

import gzip
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from dashboard.cli import main
from dashboard.dataset import builds
from dashboard.dataset.format import read_meta
from dashboard.dataset.store import Store
from tests.conftest import DEFAULT_DATA, ROOT, seed_pages


def test_info_on_default_dataset(capsys) -> None:
    assert main(["info"]) == 0
    out = capsys.readouterr().out
    # the seed pages merged with arxiv-2023: both sources named, with how many papers each describes
    assert "\npapers     30,352\nsources    mlsanity pages 156, arxiv-2023 30,256 (papers each describes)\n" in out
    assert "citations  280,542 edges" in out and "years      1971-2025" in out
    assert "cs.LG 8,343" in out and "unknown 95" in out
    assert "dataset    mlsanity seed pages + arxiv-2023" in out
    # the merge rule: what each part merged, and the papers still sharing a title, none that it would join
    assert (
        "\nmerged     3,702 records into the papers they repeat: 35 by a shared id, 0 by DOI, 3,659 by title and "
        "years at most 2 apart, 8 arXiv papers by title\n" in out
    )
    assert (
        "\nsame title 7 groups of papers share a title (case and punctuation aside): 7 with different arXiv ids "
        "(arXiv lists them apart), 0 more than 2 years apart, 0 the merge rule would join\n" in out
    )
    for line in (
        "2106.03764  On the Expressive Power of Self-Attention Matrices",
        "2006.04862  O(n) Connections are Expressive Enough",
        "2110.10090  Inductive Biases and Variable Creation in Self-Attention Mechanisms",
    ):
        assert line in out
    # the two counts, each labelled: citers inside the dataset, and the pages' own figure
    assert (
        "first posted 2021-10-19 · areas cs.LG, stat.ML · cited by 50 in this dataset, 144 according to mlsanity.com · "
        "builds on 43 of its 79 references" in out
    )
    assert "cited by 30 in this dataset, 47 according to mlsanity.com · builds on 30 of its 46 references" in out


def test_import_then_info(tmp_path: Path, capsys) -> None:
    out = tmp_path / "d"
    assert main(["import", "mlsanity", *map(str, seed_pages()), "--out", str(out), "--quiet"]) == 0
    assert re.search(r"\n  papers +156\n", capsys.readouterr().out)
    assert main(["info", "--data", str(out)]) == 0
    assert "papers     156" in capsys.readouterr().out


def test_errors_are_one_line_and_exit_2(tmp_path: Path, capsys) -> None:
    assert main(["info", "--data", str(tmp_path / "absent")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("citemap: error:") and "no such dataset folder" in err and "Traceback" not in err
    bad = tmp_path / "bad.txt"
    bad.write_text("# A title\n\nno arxiv line here\n")
    assert main(["import", "mlsanity", str(bad), "--out", str(tmp_path / "o")]) == 2
    assert "bad.txt, field 'arXiv id'" in capsys.readouterr().err
    assert main(["import", "nosuchformat", str(bad), "--out", str(tmp_path / "o")]) == 2
    assert "unknown format" in capsys.readouterr().err


def test_python_dash_m_and_console_script_agree() -> None:
    r = subprocess.run(
        [sys.executable, "-m", "dashboard", "info", "--data", str(DEFAULT_DATA)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert r.returncode == 0 and "papers     30,352" in r.stdout
    assert (
        "story      seeds: “Three papers on what self-attention can express”, 5 steps (open /?story=seeds)" in r.stdout
    )
    r = subprocess.run([sys.executable, "-m", "dashboard", "--help"], capture_output=True, text=True, timeout=60)
    assert all(word in r.stdout for word in ("serve", "import", "info"))


def test_version_is_the_packages_from_both_entry_points(capsys) -> None:
    from dashboard import __version__

    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out == f"citemap {__version__}\n"
    r = subprocess.run([sys.executable, "-m", "dashboard", "--version"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout == f"citemap {__version__}\n"
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)


def gzipped_csv(path: Path, header: str, rows: list[str]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(gzip.compress(("\n".join([header, *rows]) + "\n").encode()))
    return path


def given(argv: list[str]) -> dict:
    """What a command line asks for: its parsed arguments, without the parser's own entries."""
    from dashboard.cli import parser

    return {k: v for k, v in vars(parser().parse_args(argv)).items() if k not in ("func", "import_options")}


def test_the_recorded_command_line_rebuilds_the_same_dataset(tmp_path: Path, capsys) -> None:
    """A CSV import with a column mapping, merged with an arxiv-2023 folder whose ogbn-arxiv years are given with
    --meta (not beside it, so only --meta finds them): run again as dataset.json records it, it builds the same
    dataset, and the recorded line holds every option that changed the build."""
    papers = tmp_path / "in" / "papers.csv"
    papers.parent.mkdir()
    papers.write_text("paper_id,name,year\n2106.03764,On the Expressive Power of Self-Attention Matrices,2021\n")
    citations = tmp_path / "in" / "citations.csv"
    citations.write_text("source,target\n2106.03764,1706.03762\n")
    graph = tmp_path / "in" / "graph"
    gzipped_csv(graph / "ids.csv.gz", "ids", ["1706.03762", "2", "0"])
    gzipped_csv(graph / "titles.csv.gz", "titles", ["Attention Is All You Need", "An older paper", "The oldest"])
    gzipped_csv(graph / "labels.csv.gz", "labels", ["cs.CL", "cs.LG", "cs.AI"])
    gzipped_csv(graph / "edges.csv.gz", "source,target", ["0,1", "1,2", "0,2"])
    years = gzipped_csv(tmp_path / "elsewhere" / "years" / "node_year.csv.gz", "1999", ["2005", "2012"]).parent
    mapping = "id=paper_id,title=name,citing=source,cited=target"
    first = tmp_path / "first"
    argv = ["import", "csv", str(papers), str(citations), "--mapping", mapping, "--merge", f"arxiv2023:{graph}"]
    argv += ["--meta", str(years), "--engine", "python", "--out", str(first), "--quiet"]
    assert main(argv) == 0
    capsys.readouterr()

    recorded = shlex.split(read_meta(builds.served(first))["built_with"])
    assert recorded[:2] == ["citemap", "import"] and "--quiet" not in recorded  # --quiet changes what is printed
    assert given(recorded[1:]) == given(argv[:-1])  # every other option, with its value
    again = tmp_path / "again"
    recorded[recorded.index("--out") + 1] = str(again)
    assert main(recorded[1:]) == 0

    built = [builds.served(first), builds.served(again)]
    for name in ("papers.parquet", "citations.parquet"):
        assert pq.read_table(built[0] / name).equals(pq.read_table(built[1] / name)), name
    assert read_meta(built[0])["build_id"] == read_meta(built[1])["build_id"]
    store = Store.load(again)  # --meta took effect: the ogbn-arxiv nodes have their years
    assert [store.paper(store.row(p))["year"] for p in ("ogbn-2", "ogbn-0")] == [2012, 1999]
    assert store.n == 4 and store.n_citations == 3


def test_every_option_of_the_import_is_recorded_or_only_changes_what_is_printed(tmp_path: Path) -> None:
    """``built_with`` leaves out only the options named as not changing the build; any other option of the import's
    parser, given, is in the recorded line, whatever option a later change adds."""
    from dashboard.cli import NOT_RECORDED, parser, recorded_import

    args = parser().parse_args(["import", "csv", "a.csv", "--out", "o"])
    options = [a for a in args.import_options if a.option_strings and a.dest not in NOT_RECORDED]
    assert {a.dest for a in options} >= {"mapping", "meta", "engine", "merge", "areas_from", "memory", "out"}
    for action in options:
        flag = max(action.option_strings, key=len)
        value = [] if action.nargs == 0 else [action.choices[-1] if action.choices else "500MB"]
        args = parser().parse_args(["import", "csv", "a.csv", "--out", "o", flag, *value])
        line = recorded_import(args, args.import_options)
        assert flag in line and (not value or line[line.index(flag) + 1] == value[0]), (flag, line)
