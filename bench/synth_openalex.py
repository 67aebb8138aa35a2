"""Helper of bench/import_scale.py, not an entry point: a seeded synthetic OpenAlex snapshot (gzipped JSON Lines
of work objects, as in ``works/.../part_000.gz``).

    python bench/synth_openalex.py --works 300000 --seed 1 --out bench/out/openalex-300000-s1
    citemap import openalex bench/out/openalex-300000-s1/works --out /tmp/oa300k

The citation graph, dates, titles and areas come from :func:`synth.generate` (the same generator as the
benchmark datasets); each paper becomes an OpenAlex work with the fields citemap reads (``id``, ``doi``,
``display_name``, ``publication_year`` / ``_date``, ``ids``, ``primary_location`` with its source,
``authorships``, ``primary_topic``, ``cited_by_count``, ``counts_by_year``, ``referenced_works_count``,
``referenced_works``) and a few it does not (``type``, ``language``, ``open_access``, ``updated_date``), so
that a line weighs about what a real one does without its abstract (~1.3 kB).

Shape beyond the graph: REFS_PER_WORK references a work on average, OUTSIDE_SHARE of them to works that are
not in the snapshot (only counted by an importer); ARXIV_SHARE of the works name an arXiv id (DOI
``10.48550/arxiv.*``); DUPLICATE_SHARE are the published version of an arXiv preprint (same title, a year
later, its own W id and DOI, as OpenAlex often lists the two): importers merge each pair into one paper.
Written as PART_WORKS-work parts (``OUT/works/part_NNN.gz``, gzip level 1) and ``OUT/synth.json``. The same
arguments give the same files.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import numpy as np
import orjson

ROOT = Path(__file__).resolve().parent.parent
for _p in (ROOT, ROOT / "bench"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

from synth import generate  # noqa: E402

GENERATOR_VERSION = 2  # 2: references point at the cited paper's own work (they were one off)
REFS_PER_WORK = 13.2  # references a work on average, as in a real snapshot's works
OUTSIDE_SHARE = 0.2
ARXIV_SHARE = 0.1
DUPLICATE_SHARE = 0.01
PART_WORKS = 250_000
MANIFEST = "synth.json"
PARTS = "works"  # the parts' folder, as in the snapshot (works/updated_date=.../part_000.gz)
W_OFFSET = 1_000_000_000  # W ids of the works: W1000000001...; outside works: W2000000000 and up
FIELDS = ("Computer Science", "Mathematics", "Physics and Astronomy", "Engineering", "Decision Sciences")
VENUES = (
    "arXiv (Cornell University)",
    "Neural Information Processing Systems",
    "Lecture Notes in Computer Science",
    "IEEE Transactions on Pattern Analysis and Machine Intelligence",
    "Journal of Machine Learning Research",
)
NAMES = ("Ada Li", "Bo Chen", "Carla Diaz", "Dev Patel", "Emma Novak", "Farid Haddad", "Gita Rao", "Hugo Martin")


def work(i: int, p: dict[str, Any], refs: list[int], arxiv: bool, published_of: int | None) -> dict[str, Any]:
    """Work ``i`` (its W id is ``W_OFFSET + i``) from row ``p`` of the synthetic papers table."""
    wid = f"https://openalex.org/W{W_OFFSET + i}"
    doi = f"https://doi.org/10.48550/arxiv.{p['id']}" if arxiv else f"https://doi.org/10.5555/synth.{i}"
    year, date = p["year"], p["posted"]
    if published_of is not None:
        year, date = year + 1, f"{year + 1}{date[4:]}"
    areas = p["areas"] or []
    fld = FIELDS[sum(map(ord, areas[0])) % len(FIELDS)] if areas else None
    cited = p["cited_by"] or 0
    return {
        "id": wid,
        "doi": doi,
        "title": p["title"],
        "display_name": p["title"],
        "publication_year": year,
        "publication_date": date,
        "ids": {"openalex": wid, "doi": doi},
        "language": "en",
        "type": "preprint" if arxiv else "article",
        "primary_location": {
            "is_oa": arxiv,
            "landing_page_url": doi,
            "pdf_url": None,
            "source": {
                "id": f"https://openalex.org/S{4306400194 + i % 5}",
                "display_name": VENUES[0 if arxiv else 1 + i % 4],
                "type": "repository",
            },
        },
        "authorships": [
            {
                "author_position": "first" if k == 0 else "middle",
                "author": {
                    "id": f"https://openalex.org/A{(i * 7 + k) % 900001}",
                    "display_name": NAMES[(i + k) % len(NAMES)],
                },
                "institutions": [],
                "raw_author_name": NAMES[(i + k) % len(NAMES)],
            }
            for k in range(1 + i % 4)
        ],
        "primary_topic": None
        if fld is None
        else {
            "id": f"https://openalex.org/T{10000 + i % 300}",
            "display_name": areas[0],
            "score": 0.99,
            "subfield": {"id": f"https://openalex.org/subfields/{1700 + i % 20}", "display_name": areas[0]},
            "field": {"id": "https://openalex.org/fields/17", "display_name": fld},
            "domain": {"id": "https://openalex.org/domains/3", "display_name": "Physical Sciences"},
        },
        "open_access": {"is_oa": arxiv, "oa_status": "green" if arxiv else "closed"},
        "cited_by_count": cited,
        "counts_by_year": [{"year": 2024, "cited_by_count": cited // 2}, {"year": 2023, "cited_by_count": cited // 3}],
        "referenced_works_count": len(refs),
        "referenced_works": [f"https://openalex.org/W{r}" for r in refs],
        "updated_date": "2026-11-30T00:00:00",
    }


def write(works: int, seed: int, out: Path, quiet: bool = False) -> dict[str, Any]:
    """Write the parts into ``out/works`` and the manifest into ``out/synth.json``; returns it."""
    t0 = time.perf_counter()
    inside_refs = int(works * REFS_PER_WORK * (1 - OUTSIDE_SHARE))
    table, cites, _ = generate(works, inside_refs, seed)
    rng = np.random.default_rng(seed + 1)
    n = table.num_rows
    index = {pid: k for k, pid in enumerate(table.column("id").to_pylist())}
    src = np.fromiter((index[c] for c in cites.column("citing").to_pylist()), np.int64, len(cites))
    dst = np.fromiter((index[c] for c in cites.column("cited").to_pylist()), np.int64, len(cites))
    order = np.argsort(src, kind="stable")
    src, dst = src[order], dst[order] + W_OFFSET + 1  # paper k is work k + 1
    starts = np.searchsorted(src, np.arange(n + 1))
    outside = rng.poisson(REFS_PER_WORK * OUTSIDE_SHARE, n)
    arxiv = rng.random(n) < ARXIV_SHARE
    duplicate = arxiv & (rng.random(n) < DUPLICATE_SHARE / ARXIV_SHARE)
    parts = out / PARTS
    parts.mkdir(parents=True, exist_ok=True)
    for old in parts.glob("part_*.gz"):
        old.unlink()
    rows = table.to_pylist()
    lines = refs_total = 0
    with ExitStack() as stack:
        part = None
        for i in range(n):
            if lines % PART_WORKS == 0:
                part = stack.enter_context(
                    gzip.open(parts / f"part_{lines // PART_WORKS:03d}.gz", "wb", compresslevel=1)
                )
            refs = [int(r) for r in dst[starts[i] : starts[i + 1]]]
            refs += [2 * W_OFFSET + int(r) for r in rng.integers(0, 50_000_000, outside[i])]
            refs_total += len(refs)
            part.write(orjson.dumps(work(i + 1, rows[i], refs, bool(arxiv[i]), None)) + b"\n")
            lines += 1
            if duplicate[i]:  # the published version: same title, its own W id and DOI, no arXiv id
                part.write(orjson.dumps(work(n + 1 + i, rows[i], refs, False, i)) + b"\n")
                lines += 1
    manifest = {
        "works": works,
        "seed": seed,
        "version": GENERATOR_VERSION,
        "lines": lines,
        "references": refs_total,
        "inside_edges": len(cites),
        "duplicates": int(duplicate.sum()),
        "arxiv": int(arxiv.sum()),
        "seconds": round(time.perf_counter() - t0, 1),
    }
    (out / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    if not quiet:
        print(
            f"{lines:,} works ({manifest['duplicates']:,} published twins of preprints), {refs_total:,} references "
            f"({len(cites):,} inside), in {manifest['seconds']} s -> {out}"
        )
    return manifest


def ensure(works: int, seed: int, out: Path) -> dict[str, Any]:
    """The manifest of ``out``, written first unless it already holds these works."""
    path = out / MANIFEST
    if path.is_file():
        manifest = json.loads(path.read_text())
        if (manifest.get("works"), manifest.get("seed"), manifest.get("version")) == (works, seed, GENERATOR_VERSION):
            return manifest
    return write(works, seed, out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--works", type=int, required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, required=True, help="folder for part_NNN.gz and synth.json")
    args = ap.parse_args(argv)
    if args.works < 2:
        ap.error("--works must be at least 2")
    write(args.works, args.seed, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
