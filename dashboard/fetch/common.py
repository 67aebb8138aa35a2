"""What the fetchers (``citemap fetch openalex``, ``citemap fetch s2``) share: the query and its checks, what a
fetch collected, the progress bar, and the last steps, from the collected records to a dataset.

Those steps are the same for every API: the records are written as JSON Lines into a temporary file and
imported with the source's own importer (:func:`dashboard.importers.run_import`), so the dataset gets the same
checks as any import; ``dataset.json`` records the query and the date under ``fetched``, and the command that
makes it under ``built_with``. A fetch calls :func:`finish` only once every request succeeded, so nothing
partial is ever written to the dataset folder.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from tqdm import tqdm

from dashboard.fetch.http import FetchError, JsonClient
from dashboard.importers.common import DatasetBuilder

DEFAULT_HOPS = 1
MAX_HOPS = 2
DEFAULT_MAX_CITERS = 200
DEFAULT_MAX_PAPERS = 5000


@dataclass(frozen=True)
class Source:
    name: str  # of the importer and of the command: "openalex"
    label: str  # as shown: "OpenAlex"


# -- the query and its result -------------------------------------------------------------------
@dataclass
class Query:
    seeds: list[str]
    hops: int = DEFAULT_HOPS
    max_citers: int = DEFAULT_MAX_CITERS
    max_papers: int = DEFAULT_MAX_PAPERS

    def check(self) -> None:
        if not self.seeds:
            raise FetchError("no seed ids given")
        if not 1 <= self.hops <= MAX_HOPS:
            raise FetchError(f"--hops must be 1 or {MAX_HOPS}, not {self.hops}")
        for name in ("max_citers", "max_papers"):
            if getattr(self, name) < 1:
                raise FetchError(f"--{name.replace('_', '-')} must be at least 1, not {getattr(self, name)}")


@dataclass
class Collected:
    works: dict[str, dict[str, Any]] = field(default_factory=dict)  # the API's id -> record, in the order added
    seeds: list[str] = field(default_factory=list)  # the API's ids of the seeds found
    missing: list[tuple[str, str]] = field(default_factory=list)  # (seed as given, why not)


class Fetcher(Protocol):
    out: Collected

    def run(self, seeds: list[Any]) -> Collected: ...


class Hopper(Protocol):
    """A fetcher seen by :func:`walk_hops`: its query, what it collected, room left, one hop."""

    query: Query
    out: Collected

    def room(self) -> int: ...

    def hop(self, frontier: list[str]) -> list[str]: ...


def walk_hops(fetcher: Hopper) -> None:
    """``query.hops`` hops out from the seeds found, each from the papers the last one added, while there is room."""
    frontier = list(fetcher.out.seeds)
    for _ in range(fetcher.query.hops):
        if not frontier or fetcher.room() <= 0:
            break
        frontier = fetcher.hop(frontier)


# -- small things -------------------------------------------------------------------------------
def utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def warn(message: str) -> None:
    print(f"citemap: warning: {message}", file=sys.stderr)


def default_cache(out: str | Path) -> Path:
    """``DIR.cache`` beside the dataset folder ``DIR``."""
    out = Path(out).resolve()
    return out.with_name(out.name + ".cache")


def dataset_name(label: str, seeds: list[str]) -> str:
    shown = ", ".join(seeds[:3]) + (f" and {len(seeds) - 3} more" if len(seeds) > 3 else "")
    return f"{label} around {shown}"


def command_line(source: str, query: Query, out: Path) -> list[str]:
    """The command that makes this dataset, for ``built_with`` (without e-mail addresses or keys)."""
    argv = ["citemap", "fetch", source, *query.seeds, "--hops", str(query.hops)]
    argv += ["--max-citers", str(query.max_citers), "--max-papers", str(query.max_papers), "--out", str(out)]
    return argv


def write_jsonl(records: Iterable[dict[str, Any]], path: Path) -> Path:
    with open(path, "w", encoding="utf-8") as f:
        for record in records:
            f.write(json.dumps(record, ensure_ascii=False) + "\n")
    return path


def seed_ids(builder: DatasetBuilder, seeds: list[str]) -> list[str]:
    """The dataset ids of the seeds (an arXiv id where the source names one, else the API's id)."""
    ids = builder.final_ids()
    keys = (builder.find(pid) for pid in seeds)
    return list(dict.fromkeys(ids[k] for k in keys if k is not None))


# -- the steps ----------------------------------------------------------------------------------
def collect(
    source: Source,
    client: JsonClient,
    fetcher: Fetcher,
    seeds: list[Any],
    bad: list[tuple[str, str]],
    query: Query,
    progress: bool,
) -> Collected:
    """Run ``fetcher`` on the seeds that parsed with a progress bar of the answers (papers so far beside it);
    ``bad`` are the seeds that did not parse (as given, why). Raises :class:`FetchError` if no seed is found."""
    with tqdm(desc=source.label, unit=" answers", disable=not progress, mininterval=0.5) as bar:

        def answered(_from_cache: bool) -> None:
            bar.update()
            bar.set_postfix(papers=len(fetcher.out.works), refresh=False)

        client.on_answer = answered
        found = fetcher.run(seeds) if seeds else fetcher.out
    order = {text: i for i, text in enumerate(query.seeds)}
    found.missing = sorted([*bad, *found.missing], key=lambda m: order[m[0]])  # in the order given
    if not found.seeds:
        raise FetchError("no seed found: " + "; ".join(f"{text}: {why}" for text, why in found.missing))
    return found


def build_dataset(
    source: Source,
    records: Iterable[dict[str, Any]],
    found: Collected,
    out: Path,
    query: Query,
    fetched: dict[str, Any],
    progress: bool,
    notes: list[str] | None = None,
) -> dict[str, Any]:
    """Import ``records`` into ``out`` through the source's importer; its summary. ``notes``, if given, replace
    the importer's own notes in ``dataset.json``."""
    from dashboard.importers import run_import

    missing = {text for text, _ in found.missing}

    def meta(builder: DatasetBuilder) -> dict[str, Any]:
        named = [s for s in query.seeds if s not in missing]
        extra = {
            "name": dataset_name(source.label, named),
            "seeds": seed_ids(builder, found.seeds),
            "source": f"{source.label} API ({fetched['api']}), fetched {fetched['date']}",
            "fetched": fetched,
        }
        return {**extra, "notes": notes} if notes is not None else extra

    with tempfile.TemporaryDirectory(prefix="citemap-fetch-") as tmp:
        path = write_jsonl(records, Path(tmp) / f"{source.name}-works.jsonl")
        return run_import(
            source.name, [path], out, argv=command_line(source.name, query, out), progress=progress, extra_meta=meta
        )


def finish(
    source: Source,
    client: JsonClient,
    api: str,
    query: Query,
    found: Collected,
    records: Iterable[dict[str, Any]],
    out: Path,
    *,
    progress: bool,
    on_warning: Callable[[str], None],
    notes: list[str] | None = None,
) -> dict[str, Any]:
    """Warn of the seeds not found, write the dataset; the import's summary with ``requests`` (sent, retries
    included), ``from_cache`` and ``retries`` added."""
    for text, why in found.missing:
        on_warning(f"seed {text}: {why}; fetched around the others")
    stats = client.stats
    fetched = {
        "source": source.name,
        "api": api,
        "seeds": query.seeds,
        "found": found.seeds,
        "hops": query.hops,
        "max_citers": query.max_citers,
        "max_papers": query.max_papers,
        "date": utc_now(),
        "requests": stats.requests,
        "from_cache": stats.from_cache,
    }
    summary = build_dataset(source, records, found, out, query, fetched, progress, notes)
    return {"requests": stats.requests, "from_cache": stats.from_cache, "retries": stats.retries, **summary}
