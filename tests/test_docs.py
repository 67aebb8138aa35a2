"""The README and the guides in docs/ state what the code does today: each figure a command prints is checked in
the file that states it, the README's two commands are the ones CI runs, and the paths and links they name exist."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dashboard.dataset.store import Store
from dashboard.web.app import create_app
from tests.conftest import DEFAULT_DATA, ROOT

README = ROOT / "README.md"
GUIDES = [ROOT / "docs" / f"{name}.md" for name in ("using", "data", "hosting", "development", "cli")]
DATA = ROOT / "docs" / "data.md"
HOSTING = ROOT / "docs" / "hosting.md"
TEST_COMMAND = "scripts/install-test-tools && pip install -e '.[test]' && python -m pytest"
RUN_COMMAND = "pip install -e . && citemap serve"


def text(path: Path) -> str:
    """The file's text with every run of white space made one space, so that a sentence may wrap anywhere."""
    return " ".join(path.read_text().split())


def number(s: str) -> int:
    return int(s.replace(",", ""))


def stated(pattern: str, path: Path) -> re.Match[str]:
    m = re.search(pattern, text(path))
    assert m, f"{path.relative_to(ROOT)} no longer states /{pattern}/"
    return m


@pytest.mark.parametrize("path", [README, DATA], ids=lambda p: p.name)
def test_default_dataset_size(default_store: Store, path: Path) -> None:
    m = stated(r"holds ([\d,]+) papers and ([\d,]+) citation edges \((\d+) MB with its index\)", path)
    assert (number(m[1]), number(m[2])) == (default_store.n, default_store.n_citations)
    size = sum(f.stat().st_size for f in default_store.build.rglob("*") if f.is_file())  # the build it serves
    assert abs(size / 2**20 - int(m[3])) < 1


def test_default_dataset_sources_and_the_pages_alone(default_store: Store, store: Store) -> None:
    m = stated(r"counts them: mlsanity pages ([\d,]+), arxiv-2023 ([\d,]+)\)", DATA)
    assert default_store.source_counts() == {"mlsanity pages": number(m[1]), "arxiv-2023": number(m[2])}
    m = stated(r"The (\d+) papers the pages list that arxiv-2023 also holds", DATA)
    shared = sum(1 for s in default_store.papers.column("sources").to_pylist() if len(s) == 2)
    assert number(m[1]) == shared
    m = stated(r"give ([\d,]+) papers and ([\d,]+) citations", DATA)  # the pages alone
    assert (number(m[1]), number(m[2])) == (store.n, store.n_citations)


def test_the_merge_rule_as_citemap_info_reports_it(default_store: Store) -> None:
    from dashboard.cli import info_text

    block = re.search(
        r"title, and why the rule keeps them apart\. For the default dataset:\n+```\n(.*?)```", DATA.read_text(), re.S
    )
    assert block, "docs/data.md no longer shows what citemap info says of the merge rule"
    lines = info_text(default_store).splitlines()
    for line in block[1].splitlines():
        assert line in lines, line


@pytest.mark.slow
def test_arxiv_2023_figures(arxiv_store: Store) -> None:
    m = stated(r"citemap import arxiv2023 .*?# ([\d,]+) papers, ([\d,]+) citations", DATA)
    assert (number(m[1]), number(m[2])) == (arxiv_store.n, arxiv_store.n_citations)
    s = arxiv_store.meta["summary"]
    m = stated(r"arxiv-2023 has ([\d,]+) rows and ([\d,]+) edge rows", DATA)
    assert (number(m[1]), number(m[2])) == (s["records"], s["edges_seen"])


def test_compressed_size_of_the_largest_view(default_store: Store) -> None:
    client = create_app(DEFAULT_DATA, store=default_store).server.test_client()
    big = "/graph?seeds=1412.6980,1512.03385,1409.1556&limit=3000"
    m = stated(r"\(`" + re.escape(big) + r"`\) is about (\d+) kB instead of (\d+) kB", HOSTING)
    plain = len(client.get(big, headers={"Accept-Encoding": "identity"}).data)
    packed = len(client.get(big, headers={"Accept-Encoding": "br"}).data)
    assert abs(packed / 1000 / int(m[1]) - 1) < 0.02 and abs(plain / 1000 / int(m[2]) - 1) < 0.02, (packed, plain)
    m = stated(r"the largest view is about (\d+) kB compressed", HOSTING)
    assert abs(packed / 1000 / int(m[1]) - 1) < 0.02


def test_the_readme_gives_the_two_commands_and_ci_runs_the_test_command() -> None:
    readme = README.read_text()
    assert f"```bash\n{RUN_COMMAND}\n```" in readme
    assert f"```bash\n{TEST_COMMAND}\n```" in readme
    assert TEST_COMMAND in (ROOT / ".ci" / "run").read_text().splitlines()


def test_the_readme_stays_short() -> None:
    assert len(README.read_text().splitlines()) <= 150


@pytest.mark.parametrize("path", [README, *GUIDES], ids=lambda p: p.name)
def test_named_paths_and_links_exist(path: Path) -> None:
    body = path.read_text()
    # a path of the repository alone in backticks: `dashboard/dataset/store.py`, `data/seed-pages/*.txt`
    named = re.findall(r"`((?:dashboard|assets|data|tests|bench|deploy|docs|scripts|\.ci)/[^`\s]*)`", body)
    missing = [p for p in named if not list(ROOT.glob(p.rstrip("/")))]
    # relative Markdown links: [text](docs/data.md), [text](../bench/README.md#a-section)
    links = [link.split("#")[0] for link in re.findall(r"\]\(([^)\s]+)\)", body) if "://" not in link]
    missing += [link for link in links if link and not (path.parent / link).exists()]
    assert named and not missing, missing


def test_hosting_states_the_bounds_the_code_sets() -> None:
    """The bound on seeds, the budget and the estimate's figures, nginx's connections, files and buffers, as
    docs/hosting.md states them."""
    from dashboard.graph.cost import PICKING, force_units
    from dashboard.graph.neighbourhood import MAX_NODES
    from dashboard.graph.state import MAX_EXPAND, MAX_SEEDS
    from dashboard.web.budget import CAPACITY, RATE
    from tests.servers import render_module

    m = stated(r"A view holds at most (\d+) seeds and (\d+) expanded papers, and sends at most ([\d,]+)", HOSTING)
    assert (int(m[1]), int(m[2]), number(m[3])) == (MAX_SEEDS, MAX_EXPAND, MAX_NODES)
    m = stated(r"a map of (\d+) papers costs ([\d.]+) units, one of ([\d,]+) papers ([\d.]+)\.", HOSTING)
    small, big = int(m[1]), number(m[3])
    cost = {n: force_units(n) + PICKING * n / 1000 for n in (small, big)}
    assert (float(m[2]), float(m[4])) == (round(cost[small], 2), round(cost[big], 1))
    m = stated(r"a bucket of (\d+) units, refilled at ([\d.]+) units a second", HOSTING)
    assert (float(m[1]), float(m[2])) == (CAPACITY, RATE)
    m = stated(r"(\w+) maps of [\d,]+ papers, then one every (\d+) s; or (\d+) maps of \d+ papers", HOSTING)
    assert m[1] == "three" and int(CAPACITY // cost[big]) == 3 and round(cost[big] / RATE) == int(m[2])
    assert int(CAPACITY / cost[small] // 10 * 10) == int(m[3])
    conf = render_module().render(8080, ["a:1"], ROOT)
    nginx, app = conf["nginx.conf"], conf["citemap-app.conf"]
    unit = (ROOT / "deploy" / "systemd" / "citemap-nginx.service").read_text()
    m = stated(r"A worker may hold ([\d,]+) connections and open ([\d,]+) files .*? unit allows ([\d,]+)\)", HOSTING)
    assert f"worker_connections {number(m[1])};" in nginx and f"worker_rlimit_nofile {number(m[2])};" in nginx
    assert f"LimitNOFILE={number(m[3])}" in unit
    m = stated(
        r"At most (\d+) requests in progress in all.*? at most \d+ times (\d+) kB in memory \((\d+) MB\) and 1 MB on "
        r"disk \((\d+) MB\)",
        HOSTING,
    )
    assert f"limit_conn citemap_all {m[1]};" in app
    assert "proxy_buffer_size 16k;" in app and "proxy_buffers 8 16k;" in app and int(m[2]) == 16 + 8 * 16
    assert (int(m[3]), int(m[4])) == (int(m[1]) * int(m[2]) // 1024, int(m[1]))
    assert "proxy_max_temp_file_size 1m;" in app
