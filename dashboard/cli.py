"""``citemap`` command line: serve, import, fetch, info, verify, builds."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path

from dashboard import __version__
from dashboard.dataset.duplicates import APART_ARXIV, APART_YEARS, MERGEABLE, TitleGroups, title_groups
from dashboard.dataset.keys import NEARBY_YEARS
from dashboard.errors import DatasetError
from dashboard.importers.defaults import default_data
from dashboard.view.naming import source_name
from dashboard.view.stories import StoryError, read_story, story_names


def cmd_serve(args: argparse.Namespace) -> int:
    from dashboard.web import app as app_module

    data = Path(args.data) if args.data else default_data()
    if args.allow_unverified:  # in the environment: gunicorn's master (--production) loads the dataset too
        from dashboard.dataset.store import UNVERIFIED_ENV

        os.environ[UNVERIFIED_ENV] = "1"
    from dashboard.importers import field_map

    field_map.start(data)  # the build's field map, if it has none yet (the field view says how far along it is)
    if args.production:
        from dashboard.serving.production import serve_production

        return serve_production(data, host=args.host, port=args.port, workers=args.workers, library=args.library)
    dash_app = app_module.create_app(data, library=args.library)
    print(f"citemap: serving {data} on http://{args.host}:{args.port}/", file=sys.stderr)
    from dashboard.web.security import BannerlessRequestHandler

    dash_app.run(host=args.host, port=args.port, debug=args.debug, request_handler=BannerlessRequestHandler)
    return 0


def cmd_field_map(args: argparse.Namespace) -> int:
    """Make the field map of the build a dataset folder serves, if it has none (an import makes it itself)."""
    from dashboard.importers import field_map

    data = (Path(args.data) if args.data else default_data()).resolve()
    if args.background:
        field_map.background()
    if field_map.make(data, progress=not args.quiet):
        print(f"citemap: {data}: the field map is made")
        return 0
    print(f"citemap: {data}: another process is making its field map", file=sys.stderr)
    return 1


def cmd_build_default(args: argparse.Namespace) -> int:
    print(default_data(progress=not args.quiet))
    return 0


def memory_size(text: str) -> str:
    """A memory size as DuckDB reads it (``500MB``, ``4GB``, ``1.5GiB``), else an argparse error."""
    from dashboard.importers.duckdb_engine import memory_bytes

    try:
        memory_bytes(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text.strip()


# options of ``citemap import`` that change what it prints, not what it builds: not part of the recorded command
NOT_RECORDED = {"help", "quiet"}


def recorded_import(args: argparse.Namespace, options: list[argparse.Action]) -> list[str]:
    """The import's command line as ``dataset.json`` records it (``built_with``): the format, the sources and every
    option given that changes the build (``options``: those of the import's parser), ``--out`` last, so that running
    it again builds the same dataset."""
    argv = ["citemap", "import", args.format, *args.sources]
    for action in options:
        value = getattr(args, action.dest, None)
        given = value is not None and value is not False and value != action.default
        if not action.option_strings or action.dest in NOT_RECORDED | {"out"} or not given:
            continue
        flag = max(action.option_strings, key=len)
        for one in value if isinstance(value, list) else [value]:
            argv += [flag] if one is True else [flag, str(one)]
    return [*argv, "--out", str(args.out)]


def cmd_import(args: argparse.Namespace) -> int:
    from dashboard.importers import parse_merge, run_import

    options = {}
    if args.areas_from:
        options["areas_from"] = Path(args.areas_from)
    if args.meta:
        options["meta"] = Path(args.meta)
    if args.mapping:
        options["mapping"] = args.mapping
    if args.names:
        options["names"] = Path(args.names)
    options["progress"] = not args.quiet
    options["engine"] = args.engine
    if args.memory:
        options["memory_limit"] = args.memory
    merge = [parse_merge(m) for m in args.merge or []]
    argv = recorded_import(args, args.import_options)
    summary = run_import(args.format, args.sources, args.out, argv=argv, merge=merge, **options)
    width = max(len(k) for k in summary)
    print(f"citemap: wrote {args.out}")
    for key, value in summary.items():
        print(f"  {key:<{width}}  {value:,}" if isinstance(value, int) else f"  {key:<{width}}  {value}")
    return 0


def cmd_fetch(args: argparse.Namespace) -> int:
    """A dataset from a web API (OpenAlex, Semantic Scholar) around seed papers, through the normal importer."""
    summary = fetch_from(args)
    print(f"citemap: wrote {args.out}")
    rows = {
        "requests": f"{summary['requests']:,} ({summary['retries']:,} of them retries)",
        "from cache": f"{summary['from_cache']:,}",
        "papers": f"{summary['papers']:,}",
        "citations": f"{summary['citations']:,}",
    }
    for key, value in rows.items():
        print(f"  {key:<10}  {value}")
    return 0


def fetch_from(args: argparse.Namespace) -> dict:
    if args.source == "s2":
        from dashboard.fetch.s2 import fetch_s2

        return fetch_s2(
            args.ids,
            args.out,
            hops=args.hops,
            max_citers=args.max_citers,
            max_papers=args.max_papers,
            cache=args.cache,
            progress=not args.quiet,
        )
    from dashboard.fetch.openalex import fetch_openalex

    return fetch_openalex(
        args.ids,
        args.out,
        hops=args.hops,
        max_citers=args.max_citers,
        max_papers=args.max_papers,
        mailto=args.mailto,
        cache=args.cache,
        progress=not args.quiet,
    )


def cmd_info(args: argparse.Namespace) -> int:
    from dashboard.dataset.store import Store

    data = Path(args.data) if args.data else default_data()
    store = Store.load(data, allow_unverified=True)  # what it holds, whether verified or not
    print(info_text(store))
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """Every file of a dataset against the sizes and checksums its dataset.json recorded, and dataset.json against
    its own checksum; one line per problem."""
    from dashboard.dataset import builds, integrity
    from dashboard.dataset.format import META_FILE, read_meta

    data = (Path(args.data) if args.data else default_data()).resolve()
    build = builds.served(data)
    meta = read_meta(build)
    changed = integrity.meta_problem(meta, build)  # first: what it records of the files is part of its content
    if changed:
        print(f"citemap: {changed}", file=sys.stderr)
        print(
            f"citemap: the other files were not checked against it; {integrity.fix_hint(meta, data)}", file=sys.stderr
        )
        return 1
    recorded = integrity.recorded_files(meta, build)
    if not recorded:
        raise DatasetError(
            f"{build / META_FILE}: records no checksums (written by an older citemap); {integrity.fix_hint(meta, data)}"
        )
    if not integrity.records_meta_checksum(meta, build):
        raise DatasetError(
            f"{build / META_FILE}: records no checksum of its own (written by an older citemap); "
            f"{integrity.fix_hint(meta, data)}"
        )
    found = integrity.problems(build, recorded)
    for problem in found:
        print(f"citemap: {problem}", file=sys.stderr)
    checked = len(recorded) + 1  # and dataset.json
    if found:
        print(
            f"citemap: {len(found)} of {checked} files differ from what was written; {integrity.fix_hint(meta, data)}",
            file=sys.stderr,
        )
        return 1
    size = sum(f["size"] for f in recorded.values()) + (build / META_FILE).stat().st_size
    print(f"citemap: {build}: {checked} files, {size:,} bytes, as written (build {meta.get('build_id')})")
    return 0


def cmd_builds(args: argparse.Namespace) -> int:
    """A dataset folder's builds; ``--use NAME`` serves another (new servers and reloads take it), ``--prune``
    removes old ones no server reads."""
    from dashboard.dataset import builds

    data = (Path(args.data) if args.data else default_data()).resolve()
    if args.use:
        builds.use(data, args.use)
        print(f"citemap: {data / builds.CURRENT} -> {builds.BUILDS}/{args.use}; reload the servers to serve it")
    if args.prune:
        removed, in_use = builds.prune(data, args.keep)
        print(
            f"citemap: removed {len(removed)} build(s)"
            + (f": {', '.join(removed)}" if removed else "")
            + (f"; kept {', '.join(in_use)}: a running server reads them" if in_use else "")
        )
    rows = builds.listing(data)
    if not rows:
        print(f"citemap: {data}: a build, not a folder of builds (served as it is)")
    for r in rows:
        marks = ", ".join(m for m, on in (("current", r["current"]), ("in use", r["pinned"])) if on)
        print(
            f"{r['name']}  {r['papers'] or 0:>10,} papers  {r['bytes'] / 1e6:8.1f} MB"
            + (f"  ({marks})" if marks else "")
        )
    return 0


def info_text(store) -> str:
    meta = store.meta
    counts = ", ".join(f"{k} {v:,}" for k, v in store.source_counts().items())
    lines = [
        f"dataset    {meta.get('name', store.folder.name)}  ({store.folder})",
        f"build      {store.build.relative_to(store.folder) if store.build != store.folder else '(this folder)'}"
        f"  (id {meta.get('build_id', '?')})",
        f"source     {meta.get('source', '?')}",
        f"built with {meta.get('built_with', '?')}",
        f"papers     {store.n:,}",
        *([f"sources    {counts} (papers each describes)"] if counts else []),
        f"citations  {store.n_citations:,} edges",
        f"years      {store.year_min}-{store.year_max}" if store.year_min is not None else "years      unknown",
        "areas      " + ", ".join(f"{name} {count:,}" for name, count in store.area_counts().items()),
        *merge_lines(meta.get("summary") or {}, title_groups(store)),
    ]
    for note in meta.get("notes", []):
        lines.append(f"note       {note}")
    for name in story_names(store.folder):
        try:
            story = read_story(store.folder, name)
            lines.append(f"story      {name}: “{story.title}”, {len(story.steps)} steps (open /?story={name})")
        except StoryError as e:
            lines.append(f"story      {name}: cannot be used: {e}")
    seeds = meta.get("seeds") or []
    if seeds:
        lines.append("seeds")
        for pid in seeds:
            row = store.row(pid)
            if row is None:
                lines.append(f"  {pid}: not in the dataset")
                continue
            p = store.paper(row)
            lines.append(
                f"  {p['id']}  {p['title']}\n"
                f"      first posted {p['posted'] or '?'} · areas {', '.join(p['areas'])} · "
                f"cited by {p['in_cited']:,} in this dataset"
                + (
                    f", {p['cited_by']:,} according to {source_name(p['cited_by_from'])}"
                    if p["cited_by"] is not None
                    else ""
                )
                + f" · builds on {p['in_refs']} of its "
                f"{p['reference_count'] if p['reference_count'] is not None else '?'} references"
            )
    return "\n".join(lines)


def merge_lines(summary: dict, groups: TitleGroups) -> list[str]:
    """What the import merged, by the part of the merge rule (where its summary says), and the papers that still
    share a title, by why the rule keeps them apart."""
    lines = []
    if "merged_by_title" in summary:
        lines.append(
            f"merged     {summary['merged']:,} records into the papers they repeat: "
            f"{summary['merged_by_id']:,} by a shared id, {summary['merged_by_doi']:,} by DOI, "
            f"{summary['merged_by_title']:,} by title and years at most {NEARBY_YEARS} apart, "
            f"{summary['merged_by_title_arxiv']:,} arXiv papers by title"
        )
    apart = groups.by_reason
    lines.append(
        f"same title {groups.groups:,} {'group' if groups.groups == 1 else 'groups'} of papers share a title (case "
        f"and punctuation aside): {apart[APART_ARXIV]:,} with different arXiv ids (arXiv lists them apart), "
        f"{apart[APART_YEARS]:,} more than {NEARBY_YEARS} years apart, {apart[MERGEABLE]:,} the merge rule would join"
        + (f" (e.g. {', '.join(groups.examples[MERGEABLE])})" if apart[MERGEABLE] else "")
    )
    return lines


def fetch_arguments(f: argparse.ArgumentParser, seeds: str, citers_order: str) -> None:
    """The options every ``citemap fetch API`` takes (``seeds``: the id forms; ``citers_order``: which citers come
    first when --max-citers cuts)."""
    f.add_argument("ids", nargs="+", metavar="ID", help=f"seed papers: {seeds}")
    f.add_argument("--out", required=True, help="dataset folder to write a new build into (served once complete)")
    f.add_argument(
        "--hops",
        type=int,
        default=1,
        choices=[1, 2],
        help="1: the seeds' references and citers; 2: theirs too (default 1)",
    )
    f.add_argument(
        "--max-citers", type=int, default=200, help=f"citers fetched per paper, {citers_order} (default 200)"
    )
    f.add_argument("--max-papers", type=int, default=5000, help="papers in all (default 5000)")
    f.add_argument(
        "--cache",
        help="folder keeping every answer, so that a stopped fetch resumes and a repeated "
        "one asks nothing (default: OUT.cache beside --out)",
    )
    f.add_argument("--quiet", action="store_true", help="no progress bar")
    f.set_defaults(func=cmd_fetch)


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="citemap", description="Interactive citation-map dashboard.")
    ap.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = ap.add_subparsers(dest="command", required=True)

    s = sub.add_parser("serve", help="run the dashboard")
    s.add_argument("--data", help="dataset folder (default: the default dataset, built from data/ when first needed)")
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    s.add_argument("--port", type=int, default=8050, help="port to listen on (default 8050)")
    s.add_argument("--debug", action="store_true", help="Dash debug mode (never on a hosted server)")
    s.add_argument("--production", action="store_true", help="serve with gunicorn, as the Procfile does")
    s.add_argument("--workers", type=int, default=None, help="gunicorn workers (--production)")
    s.add_argument(
        "--library",
        help="a BibTeX, RIS, Web of Science, CSL-JSON or citemap JSON file whose papers the page marks as "
        "'in my library' (a visitor can load their own in the page)",
    )
    s.add_argument(
        "--allow-unverified",
        action="store_true",
        help="serve a dataset that records no checksums (written by an older citemap), which `citemap verify` "
        "refuses, with a warning (CITEMAP_ALLOW_UNVERIFIED=1 does the same)",
    )
    s.set_defaults(func=cmd_serve)

    d = sub.add_parser(
        "build-default",
        help="build the default dataset from data/ into the cache now (serve and "
        "info do it when first needed); prints its folder",
    )
    d.add_argument("--quiet", action="store_true", help="no progress bars")
    d.set_defaults(func=cmd_build_default)

    m = sub.add_parser(
        "field-map",
        help="make the map of the whole field (the field view) of the build a dataset folder serves, if it has "
        "none yet (import makes it after publishing the build; serve starts this when it is missing)",
    )
    m.add_argument("--data", help="dataset folder (default: the default dataset)")
    m.add_argument("--quiet", action="store_true", help="no progress bar")
    m.add_argument("--background", action="store_true", help="at a lower priority (beside a server)")
    m.set_defaults(func=cmd_field_map)

    i = sub.add_parser("import", help="build a dataset folder from source files")
    i.add_argument("format", help="mlsanity, arxiv2023, openalex, s2, csv")
    i.add_argument("sources", nargs="+", help="input files or folders")
    i.add_argument("--out", required=True, help="dataset folder to write a new build into (served once complete)")
    i.add_argument(
        "--merge",
        action="append",
        metavar="FORMAT:PATH",
        help="merge another source into the same dataset (repeatable), e.g. "
        "arxiv2023:data/arxiv-2023; the first source's facts win",
    )
    i.add_argument("--areas-from", help="mlsanity: fill missing areas from an arxiv-2023 folder")
    i.add_argument(
        "--engine",
        choices=["auto", "duckdb", "python"],
        default="auto",
        help="openalex: read JSON Lines with DuckDB in bounded memory (auto: when every file is JSON "
        "Lines of works and nothing is merged) or in Python (the same dataset, all in memory)",
    )
    i.add_argument(
        "--memory",
        type=memory_size,
        metavar="SIZE",
        help="DuckDB's memory (openalex, csv on DuckDB): it spills to disk beyond it; default 500MB, "
        "more for a snapshot of tens of millions of works, e.g. 4GB",
    )
    i.add_argument("--meta", help="arxiv2023: the ogbn-arxiv-meta folder (default: beside the source)")
    i.add_argument("--mapping", help="csv: column mapping, e.g. id=paper_id,title=name")
    i.add_argument(
        "--names",
        metavar="FILE",
        help="a CSV table name,id of the papers' common names (resnet,1512.03385): a search for a name finds "
        "its paper first",
    )
    i.add_argument("--quiet", action="store_true", help="no progress bar")
    i.set_defaults(func=cmd_import, import_options=i._actions)

    fetch = sub.add_parser("fetch", help="build a dataset folder from a web API around seed papers")
    apis = fetch.add_subparsers(dest="source", required=True, metavar="API", help="openalex or s2")
    f = apis.add_parser("openalex", help="from the OpenAlex API")
    fetch_arguments(f, "OpenAlex work ids (W2741809807), DOIs or arXiv ids (1706.03762)", "most cited first")
    f.add_argument(
        "--mailto", help="your e-mail address, sent with each request as OpenAlex asks (default: $OPENALEX_MAILTO)"
    )

    f = apis.add_parser(
        "s2",
        help="from the Semantic Scholar Graph API",
        description="A dataset around seed papers from the Semantic Scholar Graph API: the seeds, "
        "the papers they cite and the papers citing them, through the s2 importer. "
        "At most one request a second (the API's documented rate for a key); "
        "S2_API_KEY, if set, is sent as the x-api-key header (without one, requests "
        "share a pool with every other user and meet more 429s, which are waited out); "
        "CITEMAP_S2_URL points it at another server.",
    )
    fetch_arguments(
        f,
        "Semantic Scholar paper ids (40 hex digits), DOIs, arXiv ids (2106.09685 or arXiv:2106.09685) or CorpusId:NNN",
        "in the order Semantic Scholar lists them",
    )

    n = sub.add_parser("info", help="describe a dataset")
    n.add_argument("--data", help="dataset folder (default: the default dataset, built from data/ when first needed)")
    n.set_defaults(func=cmd_info)

    v = sub.add_parser("verify", help="check a dataset's files against the checksums written with it")
    v.add_argument("--data", help="dataset folder (default: the default dataset, built from data/ when first needed)")
    v.set_defaults(func=cmd_verify)

    b = sub.add_parser("builds", help="list a dataset folder's builds; serve another; remove old ones")
    b.add_argument("--data", help="dataset folder (default: the default dataset, built from data/ when first needed)")
    b.add_argument("--use", metavar="NAME", help="point the folder's current link at this build (a roll-back)")
    b.add_argument(
        "--prune",
        action="store_true",
        help="remove builds other than the current one and the --keep "
        "newest others, unless a running server reads them",
    )
    b.add_argument("--keep", type=int, default=1, help="--prune: previous builds to keep (default 1)")
    b.set_defaults(func=cmd_builds)
    return ap


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    args = parser().parse_args(argv)
    try:
        return args.func(args)
    except DatasetError as e:
        print(f"citemap: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
