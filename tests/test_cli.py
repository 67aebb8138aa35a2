"""The command line: info, import, error messages and exit codes."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from dashboard.cli import main
from tests.conftest import DEFAULT_DATA, ROOT, seed_pages


def test_info_on_default_dataset(capsys) -> None:
    assert main(["info"]) == 0
    out = capsys.readouterr().out
    # the seed pages merged with arxiv-2023: both sources named, with how many papers each describes
    assert "\npapers     30,377\nsources    mlsanity pages 156, arxiv-2023 30,281 (papers each describes)\n" in out
    assert "citations  280,748 edges" in out and "years      1971-2025" in out
    assert "cs.LG 8,349" in out and "unknown 95" in out
    assert "dataset    mlsanity seed pages + arxiv-2023" in out
    for line in (
        "2106.03764  On the Expressive Power of Self-Attention Matrices",
        "2006.04862  O(n) Connections are Expressive Enough",
        "2110.10090  Inductive Biases and Variable Creation in Self-Attention Mechanisms",
    ):
        assert line in out
    # the two counts, each labelled: citers inside the dataset, and the pages' own figure
    assert (
        "first posted 2021-10-19 · areas cs.LG, stat.ML · cited by 50 in this dataset, 144 per mlsanity pages · "
        "builds on 43 of its 79 references" in out
    )
    assert "cited by 30 in this dataset, 47 per mlsanity pages · builds on 30 of its 46 references" in out


def test_import_then_info(tmp_path: Path, capsys) -> None:
    out = tmp_path / "d"
    assert main(["import", "mlsanity", *map(str, seed_pages()), "--out", str(out), "--quiet"]) == 0
    assert "papers             156" in capsys.readouterr().out
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
    assert r.returncode == 0 and "papers     30,377" in r.stdout
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
