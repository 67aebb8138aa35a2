"""The OpenAlex importer for JSON Lines at snapshot scale, on DuckDB: bounded memory, same dataset.

``citemap import openalex`` takes this path when every source file is JSON Lines of work objects (the
snapshot's ``part_NNN.gz``, ``citemap fetch``'s ``works.jsonl``) and nothing is merged into it; it gives the
dataset that :func:`dashboard.importers.openalex.build` gives, paper for paper and edge for edge, with the
same error messages, and holds no Python object per work:

1. **Extract** (SQL, streamed by DuckDB over all files into a Parquet file of the import's folder, read back
   as view ``lines``): every field :func:`~openalex.parse_work` reads,
   with the same rules (whitespace collapsed, arXiv id found in the same places, DOI cleaned...) and a
   ``fast`` flag: true when each field has the plain shape that the SQL reads exactly as Python does.
   A line that is not (a wrong type, a stray space around an id, concepts instead of a primary topic,
   an escaped surrogate...) keeps its raw text and is parsed by ``parse_work`` itself: such lines are
   rare, and a wrong one raises the importer's own error, located by reading its file again
   (:func:`locate_error`: file, line, field, as today). A file DuckDB cannot read (bad JSON, gzip, UTF-8)
   is read again the same way for the exact message.
2. **Merge** and 3. **edges**: :mod:`~dashboard.importers.duckdb_engine`, the same for every format; the
   references are W-id numbers (``refnums``) where SQL read them, else the ids parse_work gave (``reftext``).

DuckDB spills to a temporary folder beyond its memory limit; see ``bench/import_scale.py`` for its time and memory
on large inputs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa

from dashboard.importers.common import InputError, PaperRecord, normalise_title
from dashboard.importers.duckdb_engine import (
    ARXIV_BARE,
    CBY,
    MEMORY_LIMIT,
    NEW_ARXIV,
    OLD_ARXIV,
    Imported,
    run,
    staged,
)
from dashboard.importers.fields import Where, open_text, source_files
from dashboard.importers.openalex import info_for, iter_works, parse_work, referenced_works

# a work id as SQL reads it: its number without leading zeros and within BIGINT (any other goes to parse_work)
WORK_ID = r"(?:https?://(?:api\.)?openalex\.org/(?:works/)?)?[Ww][1-9][0-9]{0,17}"
W_NUMBER = "W[1-9][0-9]{0,17}"
ARXIV_DOI = rf"(?i)10\.48550/arxiv\.({NEW_ARXIV}|{OLD_ARXIV})(?:v[0-9]+)?$"
ARXIV_URL = rf"(?i)arxiv\.org/(?:abs|pdf)/({NEW_ARXIV}|{OLD_ARXIV})(?:v[0-9]+)?(?:\.pdf)?/?(?:[?#]|$)"

# One path per value parse_work reads; json_extract parses each line once for all of them.
PATHS = (
    "id",
    "doi",
    "display_name",
    "title",
    "publication_year",
    "publication_date",
    "ids",
    "primary_location",
    "best_oa_location",
    "locations",
    "authorships",
    "primary_topic",
    "primary_topic.field",
    "primary_topic.subfield",
    "primary_topic.field.display_name",
    "primary_topic.subfield.display_name",
    "concepts",
    "cited_by_count",
    "counts_by_year",
    "referenced_works_count",
    "referenced_works",
    "host_venue",
    "primary_location.source",
    "primary_location.source.display_name",
    "host_venue.display_name",
    "ids.arxiv",
)
V = {name: f"v[{i + 1}]" for i, name in enumerate(PATHS)}

# JSON values as json_extract writes them (compact, UTF-8, and without escapes on the lines read here: a line
# with a backslash is parse_work's), so that a value's kind is its first character and a string's text is
# what lies between its quotes.
MACROS = rf"""
CREATE MACRO jnull(x) AS (x IS NULL OR CAST(x AS VARCHAR) = 'null');
CREATE MACRO jis(x, c) AS (x IS NOT NULL AND starts_with(CAST(x AS VARCHAR), c));
CREATE MACRO jstr(x) AS (jnull(x) OR jis(x, '"'));
CREATE MACRO jobj(x) AS (jnull(x) OR jis(x, '{{'));
CREATE MACRO jarr(x) AS (jnull(x) OR jis(x, '['));
CREATE MACRO jintv(x) AS TRY_CAST(CAST(x AS VARCHAR) AS BIGINT);
CREATE MACRO jint(x, lo, hi) AS (jnull(x) OR (CAST(jintv(x) AS VARCHAR) = CAST(x AS VARCHAR)  -- as written
    AND jintv(x) BETWEEN lo AND hi));
CREATE MACRO jraw(x) AS CASE WHEN jis(x, '"') THEN substring(CAST(x AS VARCHAR), 2, length(CAST(x AS VARCHAR)) - 2) END;
CREATE MACRO jtext(x) AS collapse(jraw(x));
CREATE MACRO arxiv_key(s) AS CASE WHEN s IS NULL OR s = '' THEN NULL
    WHEN NOT contains(s, '/') THEN s
    ELSE lower(split_part(split_part(s, '/', 1), '.', 1))
         || CASE WHEN contains(split_part(s, '/', 1), '.') THEN '.' || upper(split_part(split_part(s, '/', 1), '.', 2))
                 ELSE '' END
         || '_' || split_part(s, '/', 2) END;
CREATE MACRO arxiv_in(s) AS coalesce(nullif(regexp_extract(s, '{ARXIV_DOI}', 1), ''),
                                     nullif(regexp_extract(s, '{ARXIV_URL}', 1), ''));
CREATE MACRO first_arxiv(texts) AS list_filter(list_transform(texts, lambda c: arxiv_in(c)),
                                               lambda a: a IS NOT NULL)[1];
CREATE MACRO loc_urls(loc) AS CASE WHEN jis(loc, '{{') THEN
    list_transform(json_extract(loc, ['$.landing_page_url', '$.pdf_url', '$.id']), lambda u: jraw(u)) ELSE [] END;
CREATE MACRO ref_keys(r) AS list_transform(regexp_extract_all(r, '([0-9]+)"', 1), lambda d: 'W' || d);
CREATE MACRO ref_numbers(r) AS TRY_CAST(list_transform(json_transform(r, '["VARCHAR"]'),
    lambda u: regexp_extract(u, '[0-9]+$')) AS BIGINT[]);  -- of a list REFS_SHAPE matched: W ids, no escapes
"""
QUOTED_ID = f'"{WORK_ID}"'
REFS_SHAPE = rf"\[({QUOTED_ID}(,{QUOTED_ID})*)?\]"
CBY_ITEM = r'\{"year":[1-9][0-9]{0,3},"cited_by_count":[0-9]{1,9}\}'
CBY_SHAPE = rf"\[({CBY_ITEM}(,{CBY_ITEM})*)?\]"

# The values of one line (``v``: the PATHS of its object) and whether SQL reads them exactly as parse_work does
# (``fast``); each layer names what the next one reads more than once.
EXTRACT = f"""
SELECT
  CASE WHEN fast THEN NULL ELSE filename END AS file,
  CASE WHEN fast THEN NULL ELSE CAST(j AS VARCHAR) END AS raw,  -- text: a JSON column is checked again when read
  fast, wid, title, year, posted, arxiv, doi, areas, cited_by, ref_count, cby, authors, venue, refnums,
  NULL::VARCHAR AS reftext,
  hash(title_key(title)) AS tkey  -- 8 bytes: equal titles, equal hashes (a collision only adds a candidate)
FROM (
 SELECT *,
  (NOT contains(j, '\\')  -- an escape (a quote, a newline, \\uD800...) in any string: Python reads it
   AND jis(v_id, '"') AND regexp_full_match(jraw(v_id), '{WORK_ID}')
   AND title IS NOT NULL AND jstr({V["display_name"]}) AND jstr({V["title"]})
   AND jint({V["publication_year"]}, 1, 9999)
   AND (jnull(v_date) OR (jis(v_date, '"') AND strlen(jraw(v_date)) = 10 AND left(jraw(v_date), 4) <> '0000'
        AND strftime(TRY_CAST(jraw(v_date) AS DATE), '%Y-%m-%d') = jraw(v_date)))  -- YYYY-MM-DD, a real day
   AND jstr({V["doi"]}) AND ascii({V["doi"]}) AND jobj({V["ids"]}) AND ascii({V["ids"]})
   AND jobj({V["primary_location"]}) AND jobj({V["best_oa_location"]}) AND jarr({V["locations"]})
   AND ascii({V["primary_location"]}) AND ascii({V["best_oa_location"]}) AND ascii({V["locations"]})
   AND jobj({V["primary_location.source"]}) AND jstr({V["primary_location.source.display_name"]})
   AND jobj({V["host_venue"]}) AND jstr({V["host_venue.display_name"]})
   AND jobj({V["primary_topic"]}) AND jobj({V["primary_topic.field"]}) AND jobj({V["primary_topic.subfield"]})
   AND jstr({V["primary_topic.field.display_name"]}) AND jstr({V["primary_topic.subfield.display_name"]})
   AND (len(areas) > 0 OR jnull({V["concepts"]}) OR CAST({V["concepts"]} AS VARCHAR) = '[]')
   AND jint({V["cited_by_count"]}, 0, 9223372036854775807)
   AND jint({V["referenced_works_count"]}, 0, 9223372036854775807)
   AND (jnull(v_refs) OR regexp_full_match(CAST(v_refs AS VARCHAR), '{REFS_SHAPE}'))
   AND (jnull(v_cby) OR (cby_shaped AND len(list_distinct(list_transform(cby, lambda c: c.year))) = len(cby)))
   AND jarr({V["authorships"]}) AND (plain_authors OR coalesce(list_bool_and(list_transform(author_parts,
       lambda p: p IS NOT NULL AND jobj(p[1]) AND jstr(p[2]) AND jstr(p[3]))), true))
  ) IS TRUE AS fast,
  CASE WHEN plain_authors THEN author_names WHEN jis({V["authorships"]}, '[') THEN list_filter(list_transform(
    author_parts, lambda p: coalesce(jtext(p[2]), jtext(p[3]))), lambda n: n IS NOT NULL) ELSE [] END AS authors
 FROM (
  SELECT filename, j, v, v_id, v_date, v_refs, v_cby, author_names, plain_authors, cby_shaped,
    CASE WHEN jis({V["authorships"]}, '[') AND NOT plain_authors THEN list_transform(
      json_extract({V["authorships"]}, '$[*]'), lambda a: CASE
        WHEN jis(a, '{{') THEN json_extract(a, ['$.author', '$.author.display_name', '$.raw_author_name'])
        WHEN jnull(a) THEN [NULL, NULL, NULL] END) END AS author_parts,
    'W' || regexp_extract(jraw(v_id), '([0-9]+)$', 1) AS wid,
    coalesce(jtext({V["display_name"]}), jtext({V["title"]})) AS title,
    coalesce(jintv({V["publication_year"]}), TRY_CAST(left(jraw(v_date), 4) AS INTEGER)) AS year,
    jraw(v_date) AS posted,
    -- the first arXiv id of the places parse_work looks, in its order (coalesce: the later places are not
    -- read where an earlier one has it)
    CASE WHEN regexp_matches(j, '[aA][rR][xX][iI][vV]') THEN arxiv_key(coalesce(
        arxiv_in(jraw({V["doi"]})),
        CASE WHEN regexp_matches(pystrip(jraw({V["ids.arxiv"]})), '{ARXIV_BARE}') THEN arxiv_in(
          'arxiv.org/abs/' || regexp_extract(pystrip(jraw({V["ids.arxiv"]})), '{ARXIV_BARE}', 1)) END,
        CASE WHEN jis({V["ids"]}, '{{') THEN first_arxiv(list_transform(json_extract({V["ids"]}, '$.*'),
                                                                         lambda x: jraw(x))) END,
        first_arxiv(loc_urls({V["primary_location"]})), first_arxiv(loc_urls({V["best_oa_location"]})),
        CASE WHEN jis({V["locations"]}, '[') THEN first_arxiv(flatten(list_transform(
          json_extract({V["locations"]}, '$[*]'), lambda l: loc_urls(l)))) END)) END AS arxiv,
    doi_clean(jraw({V["doi"]})) AS doi,
    list_filter([jtext({V["primary_topic.field.display_name"]}),
                 jtext({V["primary_topic.subfield.display_name"]})], lambda a: a IS NOT NULL) AS areas0,
    CASE WHEN len(areas0) = 2 AND areas0[1] = areas0[2] THEN [areas0[1]] ELSE areas0 END AS areas,
    jintv({V["cited_by_count"]}) AS cited_by,
    CASE WHEN jis(v_refs, '[') THEN ref_numbers(CAST(v_refs AS VARCHAR)) ELSE [] END AS refnums,
    coalesce(jintv({V["referenced_works_count"]}),
             CASE WHEN jis(v_refs, '[') THEN len(refnums) END) AS ref_count,
    CASE WHEN cby_shaped THEN list_transform(json_transform(v_cby, '[{{"year":"BIGINT","cited_by_count":"BIGINT"}}]'),
                                             lambda c: {{'year': c.year, 'count': c.cited_by_count}}) END AS cby,
    coalesce(jtext({V["primary_location.source.display_name"]}), jtext({V["host_venue.display_name"]})) AS venue
  FROM (
   SELECT filename, j, v, {V["id"]} AS v_id, {V["publication_date"]} AS v_date, {V["referenced_works"]} AS v_refs,
     {V["counts_by_year"]} AS v_cby,
     -- read as typed values only where each item is {{"year": Y, "cited_by_count": N}}, small numbers
     regexp_full_match(CAST({V["counts_by_year"]} AS VARCHAR), '{CBY_SHAPE}') IS TRUE AS cby_shaped,
     CASE WHEN jis({V["authorships"]}, '[') THEN list_transform(
       json_extract({V["authorships"]}, '$[*].author.display_name'), lambda s: jtext(s)) END AS author_names,
     -- every authorship an object whose author has a name: its names as they are (parse_work reads no more of
     -- it); else each authorship's parts, checked
     (len(author_names) = json_array_length({V["authorships"]})
      AND coalesce(list_bool_and(list_transform(author_names, lambda s: s IS NOT NULL)), true)) IS TRUE
       AS plain_authors
   FROM (SELECT filename, json AS j, json_extract(json, {[f"$.{p}" for p in PATHS]}) AS v
         FROM read_ndjson_objects(?, filename = true))
  )
 )
)
"""

VALUES = (
    "wid",
    "title",
    "year",
    "posted",
    "arxiv",
    "doi",
    "areas",
    "cited_by",
    "ref_count",
    "cby",
    "authors",
    "venue",
    "refnums",
    "reftext",
)  # a work's row (``works``), after ``ord``: its references
# are numbers of W ids (refnums) where SQL read them, else (parse_work's) a JSON list of ids (reftext)
SLOW_SCHEMA = pa.schema(
    [
        ("ord", pa.int64()),
        ("wid", pa.string()),
        ("title", pa.string()),
        ("year", pa.int64()),
        ("posted", pa.string()),
        ("arxiv", pa.string()),
        ("doi", pa.string()),
        ("areas", pa.list_(pa.string())),
        ("cited_by", pa.int64()),
        ("ref_count", pa.int64()),
        ("cby", CBY),
        ("authors", pa.list_(pa.string())),
        ("venue", pa.string()),
        ("refnums", pa.list_(pa.int64())),
        ("reftext", pa.string()),
        ("tnorm", pa.string()),
    ]
)
SUB = 1_000_000  # a line holding a list of works: work k of line n has the order n * SUB + k


def is_jsonl_of_works(path: Path) -> bool:
    """Whether ``path`` is JSON Lines whose first record is one work object (not a list page, a list, or a
    pretty-printed document): what this importer reads."""
    try:
        with open_text(path) as stream:
            for text in stream:
                if text.strip():
                    value = json.loads(text)
                    return isinstance(value, dict) and not ("results" in value and "id" not in value)
    except (OSError, ValueError, EOFError):
        return False
    return False


def usable(sources: list[Path]) -> bool:
    files = source_files(sources)
    return bool(files) and all(is_jsonl_of_works(p) for p in files)


# -- 1. extract --------------------------------------------------------------------------------------------
def extract(con: Any, files: list[Path], folder: Path) -> None:
    """View ``lines``: one row per line, in input order (``line``), its values and ``fast`` (a file in ``folder``:
    :func:`~dashboard.importers.duckdb_engine.staged`)."""
    import duckdb

    try:
        staged(con, folder, "lines", EXTRACT, [[str(p) for p in files]])
    except (duckdb.InvalidInputException, duckdb.IOException, duckdb.ConversionException) as e:  # the input's
        raise locate_error(files, str(e)) from e


def locate_error(files: list[Path], detail: str) -> InputError:
    """The Python importer's own error for these files (it reads them again, one work at a time); if it finds
    none, an error that says what DuckDB said."""
    for path in files:
        for where, raw in iter_works(path):
            parse_work(raw, where)
            referenced_works(raw, where)
    return InputError(
        files[0] if len(files) == 1 else ", ".join(map(str, files)),
        f"could not be read as OpenAlex JSON Lines: {detail.splitlines()[0]}",
    )


def slow_rows(con: Any) -> int:
    """Table ``slow``: the works of the lines SQL did not read, read by ``parse_work`` itself; view ``works``:
    every work (``ord``: its place in the input), those SQL read (``works_bulk``, in input order) and the others
    (``works_rest``). Returns how many lines were read so."""
    rows = con.execute("SELECT line, file, raw FROM lines WHERE NOT fast ORDER BY line").fetchall()
    out: dict[str, list[Any]] = {name: [] for name in SLOW_SCHEMA.names}
    for line, file, raw in rows:
        path = Path(file)
        value = json.loads(raw)
        items = value["results"] if isinstance(value, dict) and "results" in value and "id" not in value else value
        works = list(enumerate(items)) if isinstance(items, list) else [(None, items)]
        for k, work in works:
            where = Where(path, None, k if k is not None else line)
            try:
                rec, refs = parse_work(work, where), referenced_works(work, where)
            except InputError as e:
                raise locate_error([path], str(e)) from e
            _append(out, line * SUB + (k or 0), rec, refs)
    slow = pa.table(out, schema=SLOW_SCHEMA)  # noqa: F841 (read by DuckDB by name)
    con.execute("CREATE TABLE slow AS SELECT * FROM slow")
    con.execute(f"""CREATE VIEW works_bulk AS SELECT *, coalesce(arxiv, wid) AS pid FROM (
                      SELECT line * {SUB} AS ord, {", ".join(VALUES)}, tkey FROM lines WHERE fast)""")
    con.execute("""CREATE VIEW works_rest AS SELECT *, coalesce(arxiv, wid) AS pid FROM (
                      SELECT * EXCLUDE (tnorm), hash(tnorm) FROM slow)""")
    con.execute("CREATE VIEW works AS SELECT * FROM works_bulk UNION ALL SELECT * FROM works_rest")
    return len(rows)


def _append(out: dict[str, list[Any]], ord_: int, rec: PaperRecord, refs: list[str]) -> None:
    arxiv = rec.id if rec.alt_ids else None
    values = {
        "ord": ord_,
        "wid": rec.alt_ids[0] if rec.alt_ids else rec.id,
        "title": rec.title,
        "year": rec.year,
        "posted": rec.posted,
        "arxiv": arxiv,
        "doi": rec.doi,
        "areas": rec.areas,
        "cited_by": rec.cited_by,
        "ref_count": rec.reference_count,
        "authors": rec.authors,
        "venue": rec.venue,
        "refnums": None,
        "reftext": json.dumps(refs),
        "cby": None
        if rec.citations_by_year is None
        else [{"year": y, "count": c} for y, c in rec.citations_by_year.items()],
        "tnorm": normalise_title(rec.title),
    }
    for name, value in values.items():
        out[name].append(value)


# -- the references, as the engine's ``refs`` -------------------------------------------------------------------
REFS = f"""
CREATE TABLE keynum AS SELECT CAST(substr(key, 2) AS BIGINT) AS num, r FROM keyrank
  WHERE regexp_full_match(key, '{W_NUMBER}');
CREATE VIEW refs AS  -- each work's row joined before its references are unnested: a row a work, not a row a reference
  SELECT x.citing, k.r AS cited FROM (SELECT o.r AS citing, unnest(w.refnums) AS ref FROM works w JOIN ordrank o
                                     USING (ord) WHERE w.refnums IS NOT NULL) x LEFT JOIN keynum k ON x.ref = k.num
  UNION ALL
  SELECT x.citing, k.r FROM (SELECT o.r AS citing, unnest(ref_keys(w.reftext)) AS ref FROM works w JOIN ordrank o
                             USING (ord) WHERE w.reftext IS NOT NULL) x LEFT JOIN keyrank k ON x.ref = k.key;
"""


@dataclass
class OpenAlexLines:
    """The engine's :class:`~dashboard.importers.duckdb_engine.Reader` for OpenAlex JSON Lines."""

    files: list[Path]
    source: str = "OpenAlex"
    macros: str = MACROS
    refs_sql: str = REFS
    drops: tuple[str, ...] = ("TABLE keynum",)  # not the works: view paper reads them

    @property
    def first(self) -> Path:
        return self.files[0]

    def extract(self, con: Any, folder: Path) -> None:
        extract(con, self.files, folder)
        slow_rows(con)

    def info(self, outside: int) -> dict[str, Any]:
        return info_for(self.files, outside)


def build(
    sources: list[Path], progress: bool = True, workdir: Path | None = None, memory_limit: str = MEMORY_LIMIT
) -> Imported:
    """The dataset of the OpenAlex JSON Lines ``sources`` (DuckDB spills into a folder under ``workdir``)."""
    return run(OpenAlexLines(source_files(sources)), progress, workdir, memory_limit)
