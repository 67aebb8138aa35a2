"""Shared fixtures: paths to the seed pages, arxiv-2023 and recorded API answers in the repository, the default
dataset."""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

from dashboard.dataset.store import Store
from dashboard.importers import defaults
from dashboard.resources import INPUTS

# a mutation run (mutmut sets MUTANT_UNDER_TEST) needs the same examples every time, or a mutant's fate is luck
settings.register_profile("mutation", derandomize=True)
if os.environ.get("MUTANT_UNDER_TEST"):
    settings.load_profile("mutation")

ROOT = Path(__file__).resolve().parent.parent
# the default dataset's inputs (data/README.md names their sources) and the recorded API answers
# (tests/fixtures/README.md), all inside the repository
SEEDS = INPUTS / defaults.SEED_PAGES
ARXIV2023 = INPUTS / defaults.ARXIV2023
FIXTURES = ROOT / "tests" / "fixtures"
DEFAULT_DATA = defaults.default_data(progress=False)  # built from data/ into the cache on first need
SEED_IDS = ("2106.03764", "2006.04862", "2110.10090")

seed_pages = defaults.seed_pages  # the three saved pages, in name order

# The test files that take longest, run first: the two workers (pyproject.toml's addopts) take files in collection
# order, so these start at once instead of leaving one worker busy at the end while the other waits.
LONGEST_FIRST = (
    "tests/browser/test_labels.py",
    "tests/browser/test_story.py",
    "tests/test_planted_bugs.py",
    "tests/browser/test_story_export.py",
    "tests/test_security.py",
    "tests/browser/test_explorer.py",
    "tests/test_deploy_nginx.py",
    "tests/browser/test_stable_map.py",
    "tests/browser/test_field.py",
    "tests/test_production.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        path = Path(str(item.fspath)).relative_to(ROOT).as_posix()
        return LONGEST_FIRST.index(path) if path in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)  # stable: each file's tests keep their order


@functools.cache
def seed_data() -> Path:
    """The three seed pages alone (``citemap import mlsanity ... --areas-from arxiv-2023``): 156 papers and 181
    citations, a world small enough to know by heart (the default dataset merges arxiv-2023 into it).

    Built once into the cache, under a name that hashes the pages and the code that writes a dataset, and reused by
    later sessions (the mutation run starts thousands): a changed importer builds a new one. Each session gets its
    own copy (of the build alone), so that code under test (a mutant that writes, say) cannot change the one kept."""
    from dashboard.dataset import builds
    from dashboard.importers import run_import
    from dashboard.importers.defaults import cached

    kept = cached(
        "seed-pages",
        [*seed_pages(), *sorted(ARXIV2023.glob("*"))],
        lambda out: run_import("mlsanity", seed_pages(), out, argv=["test"], areas_from=ARXIV2023, progress=False),
    )
    mine = Path(tempfile.mkdtemp(prefix="citemap-seed-data-copy-"))
    atexit.register(shutil.rmtree, mine, ignore_errors=True)
    shutil.copytree(builds.served(kept), mine / "seeds")
    return mine / "seeds"


@pytest.fixture(scope="session")
def store() -> Store:
    """The seed pages' dataset (see :func:`seed_data`)."""
    return Store.load(seed_data())


@pytest.fixture(scope="module")
def app():
    """The app on the seed pages' dataset (a test module may define its own)."""
    from dashboard.web.app import create_app

    return create_app(seed_data())


@pytest.fixture(scope="module")
def client(app):
    """Flask's test client of :func:`app`."""
    return app.server.test_client()


@pytest.fixture(scope="session")
def default_store() -> Store:
    """The default dataset: the seed pages merged with arxiv-2023, built from data/."""
    return Store.load(DEFAULT_DATA)


@pytest.fixture(scope="session")
def arxiv_store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """arxiv-2023 imported through the importer (33,868 papers), once per test session."""
    from dashboard.importers import run_import

    out = tmp_path_factory.mktemp("a23") / "a23"
    run_import("arxiv2023", [ARXIV2023], out, argv=["test"], progress=False)
    return Store.load(out)


def write_records(folder: Path, papers: list, cites: list[tuple[str, str]] = (), name: str | None = None) -> Path:
    """Write a dataset of ``PaperRecord``s and (citing id, cited id) pairs into ``folder`` (a new build of it),
    built through the importers' builder and written as an importer writes it."""
    from dashboard.dataset.write import write_dataset
    from dashboard.importers.common import DatasetBuilder

    b = DatasetBuilder()
    keys = {rec.id: b.add(rec) for rec in papers}
    for x, y in cites:
        b.cite(keys[x], keys[y])
    tables, citations, _ = b.build()
    return write_dataset(folder, tables, citations, {"name": name or folder.name})


def make_store(folder: Path, papers: list, cites: list[tuple[str, str]] = ()) -> Store:
    """:func:`write_records`, loaded."""
    return Store.load(write_records(folder, papers, cites))


@pytest.fixture(scope="session")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """Six papers, two of unknown year: a, b, c cite d; e cites a; f stands alone."""
    from dashboard.importers.common import PaperRecord

    papers = [
        PaperRecord(title=f"Paper {pid}", id=pid, year=year, areas=areas, cited_by=cited)
        for pid, year, areas, cited in [
            ("a", 2000, ["cs.LG"], 5),
            ("b", 2005, ["cs.CL", "cs.LG"], None),
            ("c", 2010, [], 1),
            ("d", None, ["cs.CL"], 40),
            ("e", None, [], None),
            ("f", 2003, ["stat.ML"], 2),
        ]
    ]
    cites = [("a", "d"), ("b", "d"), ("c", "d"), ("e", "a")]
    return make_store(tmp_path_factory.mktemp("tiny") / "tiny", papers, cites)
