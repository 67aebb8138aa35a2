"""The OpenAlex importer for JSON Lines at snapshot scale, on DuckDB: bounded memory, same dataset.

``citemap import openalex`` takes this path when every source file is JSON Lines of work objects (the
snapshot's ``part_NNN.gz``, ``citemap fetch``'s ``works.jsonl``) and nothing is merged into it; it gives the
dataset that :func:`dashboard.importers.openalex.build` gives, paper for paper and edge for edge, with the
same error messages, and holds no Python object per work:

1. **Extract** (SQL, streamed by DuckDB over all files): every field :func:`~openalex.parse_work` reads,
   with the same rules (whitespace collapsed, arXiv id found in the same places, DOI cleaned...) and a
   ``fast`` flag: true when each field has the plain shape that the SQL reads exactly as Python does.
   A line that is not (a wrong type, a stray space around an id, concepts instead of a primary topic,
   an escaped surrogate...) keeps its raw text and is parsed by ``parse_work`` itself: such lines are
   rare, and a wrong one raises the importer's own error, located by reading its file again
   (:func:`locate_error`: file, line, field, as today). A file DuckDB cannot read (bad JSON, gzip, UTF-8)
   is read again the same way for the exact message.
2. **Merge**: works that share an id or a normalised title with another work (preprint and published
   version, the same work in two files) are the only ones that can merge; they, and only they, go
   through :class:`~dashboard.importers.common.DatasetBuilder` in file order. Every other work is a paper
   as it is.
3. **Edges** (SQL): references resolved through every id of every paper, self-citations and duplicates
   counted and dropped, as the builder does; papers in order of first appearance, edges sorted the same way.

DuckDB spills to a temporary database beside the output (``memory_limit``), so that memory stays flat as
the input grows; see ``bench/import_scale.py``.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from dashboard.importers.common import DatasetBuilder, InputError, PaperRecord, normalise_title
from dashboard.importers.fields import Where, open_text, source_files
from dashboard.importers.openalex import iter_works, parse_work, referenced_works

MEMORY_LIMIT = "1GB"  # DuckDB's own memory; it spills to disk beyond it
# Python's str.isspace() characters (str.split() splits on them), as an RE2 class
WS = r"[\t\n\x0b\x0c\r\x1c-\x20\x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]"
# a work id as SQL reads it: its number without leading zeros and within BIGINT (any other goes to parse_work)
WORK_ID = r"(?:https?://(?:api\.)?openalex\.org/(?:works/)?)?[Ww][1-9][0-9]{0,17}"
W_NUMBER = "W[1-9][0-9]{0,17}"
NEW_ARXIV, OLD_ARXIV = r"[0-9]{4}\.[0-9]{4,5}", r"[a-zA-Z][a-zA-Z\-]*(?:\.[a-zA-Z]{2})?/[0-9]{7}"
ARXIV_DOI = rf"(?i)10\.48550/arxiv\.({NEW_ARXIV}|{OLD_ARXIV})(?:v[0-9]+)?$"
ARXIV_URL = rf"(?i)arxiv\.org/(?:abs|pdf)/({NEW_ARXIV}|{OLD_ARXIV})(?:v[0-9]+)?(?:\.pdf)?/?(?:[?#]|$)"
ARXIV_BARE = rf"(?i)^({NEW_ARXIV}|{OLD_ARXIV})(?:v[0-9]+)?$"
DOI_PREFIX = r"(?i)^(?:https?://(?:dx\.)?doi\.org/|doi:)"
# whitespace other than one space between words: only then is a text collapsed (most are not)
WS_ODD = WS.replace(r"\x1c-\x20", r"\x1c-\x1f") + "|  |^ | $"

# One path per value parse_work reads; json_extract parses each line once for all of them.
PATHS = (
    "id", "doi", "display_name", "title", "publication_year", "publication_date", "ids", "primary_location",
    "best_oa_location", "locations", "authorships", "primary_topic", "primary_topic.field",
    "primary_topic.subfield", "primary_topic.field.display_name", "primary_topic.subfield.display_name",
    "concepts", "cited_by_count", "counts_by_year", "referenced_works_count", "referenced_works", "host_venue",
    "primary_location.source", "primary_location.source.display_name", "host_venue.display_name", "ids.arxiv",
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
CREATE MACRO jint(x, lo, hi) AS (jnull(x) OR (regexp_full_match(CAST(x AS VARCHAR), '-?[0-9]{{1,19}}')
    AND TRY_CAST(CAST(x AS VARCHAR) AS HUGEINT) BETWEEN lo AND hi));
CREATE MACRO jintv(x) AS TRY_CAST(CAST(x AS VARCHAR) AS BIGINT);
CREATE MACRO jraw(x) AS CASE WHEN jis(x, '"') THEN substring(CAST(x AS VARCHAR), 2, length(CAST(x AS VARCHAR)) - 2) END;
CREATE MACRO collapse(s) AS CASE WHEN regexp_matches(s, '{WS_ODD}')
    THEN nullif(trim(regexp_replace(s, '{WS}+', ' ', 'g')), '') ELSE nullif(s, '') END;
CREATE MACRO jtext(x) AS collapse(jraw(x));
CREATE MACRO ascii(x) AS (x IS NULL OR strlen(CAST(x AS VARCHAR)) = length(CAST(x AS VARCHAR)));
CREATE MACRO arxiv_key(s) AS CASE WHEN s IS NULL OR s = '' THEN NULL
    WHEN NOT contains(s, '/') THEN s
    ELSE lower(split_part(split_part(s, '/', 1), '.', 1))
         || CASE WHEN contains(split_part(s, '/', 1), '.') THEN '.' || upper(split_part(split_part(s, '/', 1), '.', 2))
                 ELSE '' END
         || '_' || split_part(s, '/', 2) END;
CREATE MACRO arxiv_in(s) AS coalesce(nullif(regexp_extract(s, '{ARXIV_DOI}', 1), ''),
                                     nullif(regexp_extract(s, '{ARXIV_URL}', 1), ''));
CREATE MACRO loc_urls(loc) AS CASE WHEN jis(loc, '{{') THEN
    list_transform(json_extract(loc, ['$.landing_page_url', '$.pdf_url', '$.id']), lambda u: jraw(u)) ELSE [] END;
CREATE MACRO title_key(t) AS CASE WHEN strlen(t) = length(t)
    THEN array_to_string(regexp_extract_all(lower(t), '[a-z0-9]+'), ' ') ELSE py_norm(t) END;
CREATE MACRO ref_keys(r) AS list_transform(regexp_extract_all(r, '([0-9]+)"', 1), lambda d: 'W' || d);
CREATE MACRO ref_numbers(r) AS list_transform(regexp_extract_all(r, '([0-9]+)"', 1), lambda d: CAST(d AS BIGINT));
CREATE MACRO pystrip(s) AS regexp_replace(s, '^{WS}+|{WS}+$', '', 'g');
CREATE MACRO doi_text(s) AS lower(pystrip(regexp_replace(pystrip(s), '{DOI_PREFIX}', '')));
CREATE MACRO doi_clean(s) AS CASE WHEN regexp_full_match(doi_text(s), '10\.[0-9]{{4,9}}/[^\t\n\x0b\x0c\r\x1c-\x20]+')
    THEN doi_text(s) END;
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
  CASE WHEN fast THEN NULL ELSE j END AS raw,
  fast, wid, title, year, posted, arxiv, doi, areas, cited_by, ref_count, cby, authors, venue, refnums,
  NULL::VARCHAR AS reftext,
  hash(title_key(title)) AS tkey  -- 8 bytes: equal titles, equal hashes (a collision only adds a candidate)
FROM (
 SELECT *,
  (json_type(j) = 'OBJECT'
   AND NOT contains(j, '\\')  -- an escape (a quote, a newline, \\uD800...) in any string: Python reads it
   AND jis(v_id, '"') AND regexp_full_match(jraw(v_id), '{WORK_ID}')
   AND title IS NOT NULL AND jstr({V['display_name']}) AND jstr({V['title']})
   AND jint({V['publication_year']}, 1, 9999)
   AND (jnull(v_date) OR (jis(v_date, '"') AND regexp_full_match(jraw(v_date), '[0-9]{{4}}-[0-9]{{2}}-[0-9]{{2}}')
        AND TRY_CAST(jraw(v_date) AS DATE) IS NOT NULL AND left(jraw(v_date), 4) <> '0000'))
   AND jstr({V['doi']}) AND ascii({V['doi']}) AND jobj({V['ids']}) AND ascii({V['ids']})
   AND jobj({V['primary_location']}) AND jobj({V['best_oa_location']}) AND jarr({V['locations']})
   AND ascii({V['primary_location']}) AND ascii({V['best_oa_location']}) AND ascii({V['locations']})
   AND jobj({V['primary_location.source']}) AND jstr({V['primary_location.source.display_name']})
   AND jobj({V['host_venue']}) AND jstr({V['host_venue.display_name']})
   AND jobj({V['primary_topic']}) AND jobj({V['primary_topic.field']}) AND jobj({V['primary_topic.subfield']})
   AND jstr({V['primary_topic.field.display_name']}) AND jstr({V['primary_topic.subfield.display_name']})
   AND (len(areas) > 0 OR jnull({V['concepts']}) OR CAST({V['concepts']} AS VARCHAR) = '[]')
   AND jint({V['cited_by_count']}, 0, 9223372036854775807)
   AND jint({V['referenced_works_count']}, 0, 9223372036854775807)
   AND (jnull(v_refs) OR regexp_full_match(CAST(v_refs AS VARCHAR), '{REFS_SHAPE}'))
   AND (jnull(v_cby) OR (regexp_full_match(CAST(v_cby AS VARCHAR), '{CBY_SHAPE}')
                         AND len(list_distinct(cby_years)) = len(cby_years)))
   AND jarr({V['authorships']}) AND coalesce(list_bool_and(list_transform(author_parts,
       lambda p: p IS NOT NULL AND jobj(p[1]) AND jstr(p[2]) AND jstr(p[3]))), true)
  ) IS TRUE AS fast
 FROM (
  SELECT filename, j, v, v_id, v_date, v_refs, v_cby, author_parts, cby_years,
    'W' || regexp_extract(jraw(v_id), '([0-9]+)$', 1) AS wid,
    coalesce(jtext({V['display_name']}), jtext({V['title']})) AS title,
    coalesce(jintv({V['publication_year']}), TRY_CAST(left(jraw(v_date), 4) AS INTEGER)) AS year,
    jraw(v_date) AS posted,
    CASE WHEN regexp_matches(j, '[aA][rR][xX][iI][vV]') THEN arxiv_key(list_filter(list_transform(
        [jraw({V['doi']}),
         CASE WHEN regexp_matches(pystrip(jraw({V['ids.arxiv']})), '{ARXIV_BARE}')
              THEN 'arxiv.org/abs/' || regexp_extract(pystrip(jraw({V['ids.arxiv']})), '{ARXIV_BARE}', 1) END]
        || CASE WHEN jis({V['ids']}, '{{') THEN list_transform(json_extract({V['ids']}, '$.*'), lambda x: jraw(x))
                ELSE [] END
        || loc_urls({V['primary_location']}) || loc_urls({V['best_oa_location']})
        || CASE WHEN jis({V['locations']}, '[')
                THEN flatten(list_transform(json_extract({V['locations']}, '$[*]'), lambda l: loc_urls(l))) ELSE [] END,
        lambda c: arxiv_in(c)), lambda a: a IS NOT NULL)[1]) END AS arxiv,
    doi_clean(jraw({V['doi']})) AS doi,
    list_filter([jtext({V['primary_topic.field.display_name']}),
                 jtext({V['primary_topic.subfield.display_name']})], lambda a: a IS NOT NULL) AS areas0,
    CASE WHEN len(areas0) = 2 AND areas0[1] = areas0[2] THEN [areas0[1]] ELSE areas0 END AS areas,
    jintv({V['cited_by_count']}) AS cited_by,
    CASE WHEN jis(v_refs, '[') THEN ref_numbers(CAST(v_refs AS VARCHAR)) ELSE [] END AS refnums,
    coalesce(jintv({V['referenced_works_count']}),
             CASE WHEN jis(v_refs, '[') THEN len(refnums) END) AS ref_count,
    CASE WHEN jis(v_cby, '[') THEN list_transform(cby_years, lambda y, i: {{'year': CAST(y AS BIGINT),
        'count': CAST(regexp_extract_all(CAST(v_cby AS VARCHAR), '"cited_by_count":([0-9]+)', 1)[i] AS BIGINT)}})
    END AS cby,
    CASE WHEN jis({V['authorships']}, '[') THEN list_filter(list_transform(author_parts,
        lambda p: coalesce(jtext(p[2]), jtext(p[3]))), lambda n: n IS NOT NULL) ELSE [] END AS authors,
    coalesce(jtext({V['primary_location.source.display_name']}), jtext({V['host_venue.display_name']})) AS venue
  FROM (
   SELECT filename, j, v, {V['id']} AS v_id, {V['publication_date']} AS v_date, {V['referenced_works']} AS v_refs,
     {V['counts_by_year']} AS v_cby,
     regexp_extract_all(CAST({V['counts_by_year']} AS VARCHAR), '"year":([0-9]+)', 1) AS cby_years,
     CASE WHEN jis({V['authorships']}, '[') THEN list_transform(json_extract({V['authorships']}, '$[*]'),
       lambda a: CASE WHEN jis(a, '{{') THEN json_extract(a, ['$.author', '$.author.display_name', '$.raw_author_name'])
                      WHEN jnull(a) THEN [NULL, NULL, NULL] END) END AS author_parts
   FROM (SELECT filename, json AS j, json_extract(json, {[f"$.{p}" for p in PATHS]}) AS v
         FROM read_ndjson_objects(?, filename = true))
  )
 )
)
"""

VALUES = ("wid", "title", "year", "posted", "arxiv", "doi", "areas", "cited_by", "ref_count", "cby", "authors",
          "venue", "refnums", "reftext")  # a work's row (``works``), after ``ord``: its references
# are numbers of W ids (refnums) where SQL read them, else (parse_work's) a JSON list of ids (reftext)
SLOW_SCHEMA = pa.schema([
    ("ord", pa.int64()), ("wid", pa.string()), ("title", pa.string()), ("year", pa.int64()), ("posted", pa.string()),
    ("arxiv", pa.string()), ("doi", pa.string()), ("areas", pa.list_(pa.string())), ("cited_by", pa.int64()),
    ("ref_count", pa.int64()), ("cby", pa.list_(pa.struct([("year", pa.int64()), ("count", pa.int64())]))),
    ("authors", pa.list_(pa.string())), ("venue", pa.string()), ("refnums", pa.list_(pa.int64())),
    ("reftext", pa.string()), ("tnorm", pa.string()),
])
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


def connect(workdir: Path, memory_limit: str = MEMORY_LIMIT) -> Any:
    import duckdb

    con = duckdb.connect()  # in memory, spilling to temp_directory beyond memory_limit
    con.execute(f"SET memory_limit = '{memory_limit}'")
    con.execute(f"SET temp_directory = '{workdir / 'spill'}'")
    con.execute("SET preserve_insertion_order = true")
    con.create_function("py_norm", normalise_title, ["VARCHAR"], "VARCHAR", side_effects=False)
    for statement in MACROS.strip().split(";\n"):
        if statement.strip():
            con.execute(statement)
    return con


# -- 1. extract --------------------------------------------------------------------------------------------
def extract(con: Any, files: list[Path]) -> None:
    """Table ``lines``: one row per line, in input order (``rowid``), its values and ``fast``."""
    import duckdb

    try:
        con.execute(f"CREATE TABLE lines AS {EXTRACT}", [[str(p) for p in files]])
    except (duckdb.InvalidInputException, duckdb.IOException, duckdb.ConversionException) as e:  # the input's
        raise locate_error(files, str(e)) from e


def locate_error(files: list[Path], detail: str) -> InputError:
    """The Python importer's own error for these files (it reads them again, one work at a time); if it finds
    none, an error that says what DuckDB said."""
    for path in files:
        for where, raw in iter_works(path):
            parse_work(raw, where)
            referenced_works(raw, where)
    return InputError(files[0] if len(files) == 1 else ", ".join(map(str, files)),
                      f"could not be read as OpenAlex JSON Lines: {detail.splitlines()[0]}")


def slow_rows(con: Any) -> int:
    """Table ``slow``: the works of the lines SQL did not read, read by ``parse_work`` itself; view ``works``:
    every work (``ord``: its place in the input). Returns how many lines were read so."""
    rows = con.execute("SELECT rowid, file, raw FROM lines WHERE NOT fast ORDER BY rowid").fetchall()
    out: dict[str, list[Any]] = {name: [] for name in SLOW_SCHEMA.names}
    for rowid, file, raw in rows:
        path = Path(file)
        value = json.loads(raw)
        items = value["results"] if isinstance(value, dict) and "results" in value and "id" not in value else value
        works = list(enumerate(items)) if isinstance(items, list) else [(None, items)]
        for k, work in works:
            where = Where(path, None, k if k is not None else rowid)
            try:
                rec, refs = parse_work(work, where), referenced_works(work, where)
            except InputError as e:
                raise locate_error([path], str(e)) from e
            _append(out, rowid * SUB + (k or 0), rec, refs)
    slow = pa.table(out, schema=SLOW_SCHEMA)  # noqa: F841 (read by DuckDB by name)
    con.execute("CREATE TABLE slow AS SELECT * FROM slow")
    con.execute(f"""CREATE VIEW works AS SELECT *, coalesce(arxiv, wid) AS pid FROM (
                      SELECT CAST(rowid AS BIGINT) * {SUB} AS ord, {", ".join(VALUES)}, tkey FROM lines WHERE fast
                      UNION ALL SELECT * EXCLUDE (tnorm), hash(tnorm) FROM slow)""")
    return len(rows)


def _append(out: dict[str, list[Any]], ord_: int, rec: PaperRecord, refs: list[str]) -> None:
    arxiv = rec.id if rec.alt_ids else None
    values = {
        "ord": ord_, "wid": rec.alt_ids[0] if rec.alt_ids else rec.id, "title": rec.title, "year": rec.year,
        "posted": rec.posted, "arxiv": arxiv, "doi": rec.doi, "areas": rec.areas, "cited_by": rec.cited_by,
        "ref_count": rec.reference_count, "authors": rec.authors, "venue": rec.venue, "refnums": None,
        "reftext": json.dumps(refs),
        "cby": None if rec.citations_by_year is None
        else [{"year": y, "count": c} for y, c in rec.citations_by_year.items()],
        "tnorm": normalise_title(rec.title),
    }
    for name, value in values.items():
        out[name].append(value)


# -- 2. merge ------------------------------------------------------------------------------------------------
KEYS = """
CREATE TABLE keys AS SELECT ord, pid AS key FROM works UNION ALL SELECT ord, wid FROM works WHERE arxiv IS NOT NULL;
CREATE TABLE cand AS SELECT DISTINCT ord FROM (
  SELECT ord FROM keys WHERE key IN (SELECT key FROM keys GROUP BY key HAVING count(*) > 1)
  UNION ALL
  SELECT ord FROM works WHERE tkey IN (SELECT tkey FROM works GROUP BY tkey HAVING count(*) > 1));
"""


def record(row: dict[str, Any]) -> PaperRecord:
    """A ``works`` row as the record parse_work makes of the same work."""
    cby = row["cby"]
    return PaperRecord(
        title=row["title"], id=row["pid"], year=row["year"], posted=row["posted"], areas=list(row["areas"] or []),
        cited_by=row["cited_by"], reference_count=row["ref_count"],
        citations_by_year=None if cby is None else {c["year"]: c["count"] for c in cby},
        alt_ids=[row["wid"]] if row["arxiv"] else [], authors=list(row["authors"] or []), venue=row["venue"],
        doi=row["doi"])


def merge(con: Any) -> dict[str, int]:
    """Tables ``paper`` (one row per paper, in order of first appearance) and ``keymap`` (every id of every paper
    -> the paper), merging the works that can merge exactly as DatasetBuilder does; returns the merge counts."""
    for statement in KEYS.strip().split(";\n"):
        con.execute(statement)
    cand = con.sql("SELECT w.* EXCLUDE (refnums, reftext, tkey) FROM works w SEMI JOIN cand USING (ord) "
                   "ORDER BY ord").to_arrow_table().to_pylist()
    builder = DatasetBuilder("OpenAlex")
    first_ord: list[int] = []
    ord_paper: list[tuple[int, int]] = []
    for row in cand:
        n = len(builder.papers)
        k = builder.add(record(row), authoritative=True)
        if k == n:
            first_ord.append(row["ord"])
        ord_paper.append((row["ord"], k))
    ids = builder.final_ids()
    recs = [p.rec for p in builder.papers]
    merged = pa.table({  # noqa: F841 (read by DuckDB by name)
        "ord": pa.array(first_ord, pa.int64()), "id": ids, "title": [r.title for r in recs],
        "year": pa.array([r.year for r in recs], pa.int32()), "posted": [r.posted for r in recs],
        "areas": pa.array([r.areas for r in recs], pa.list_(pa.string())),
        "cited_by": pa.array([r.cited_by for r in recs], pa.int64()),
        "ref_count": pa.array([r.reference_count for r in recs], pa.int64()),
        "cby": pa.array([None if r.citations_by_year is None else
                         [{"year": y, "count": c} for y, c in r.citations_by_year.items()] for r in recs],
                        SLOW_SCHEMA.field("cby").type),
        "authors": pa.array([r.authors for r in recs], pa.list_(pa.string())), "venue": [r.venue for r in recs],
        "doi": [r.doi for r in recs],
    })
    ord_map = pa.table({"ord": pa.array([o for o, _ in ord_paper], pa.int64()),  # noqa: F841
                        "id": pa.array([ids[k] for _, k in ord_paper], pa.string())})
    key_map = pa.table({"key": list(builder.by_id), "id": [ids[k] for k in builder.by_id.values()]})  # noqa: F841
    con.execute("""CREATE TABLE paper AS
        SELECT ord, pid AS id, title, year, posted, areas, cited_by, ref_count, cby, authors, venue, doi
        FROM works ANTI JOIN cand USING (ord)
        UNION ALL SELECT * FROM merged""")
    con.execute("""CREATE TABLE ordmap AS SELECT ord, pid AS id FROM works ANTI JOIN cand USING (ord)
                   UNION ALL SELECT * FROM ord_map""")
    con.execute("""CREATE TABLE keymap AS SELECT key, pid AS id
                   FROM keys JOIN works USING (ord) ANTI JOIN cand USING (ord)
                   UNION ALL SELECT * FROM key_map""")
    return {"records": builder.stats["records"] + con.execute("SELECT count(*) FROM works ANTI JOIN cand "
                                                              "USING (ord)").fetchall()[0][0],
            "merged": builder.stats["merged"]}


# -- 3. edges -------------------------------------------------------------------------------------------------
EDGES = f"""
CREATE TABLE rank AS SELECT id, CAST(row_number() OVER (ORDER BY ord) - 1 AS INTEGER) AS r FROM paper;
CREATE TABLE ordrank AS SELECT ord, r FROM ordmap JOIN rank USING (id);
CREATE TABLE keyrank AS SELECT key, r FROM keymap JOIN rank USING (id);
CREATE TABLE keynum AS SELECT CAST(substr(key, 2) AS BIGINT) AS num, r FROM keyrank
  WHERE regexp_full_match(key, '{W_NUMBER}');
CREATE TABLE refs AS
  SELECT o.r AS citing, k.r AS cited FROM (SELECT ord, unnest(refnums) AS ref FROM works WHERE refnums IS NOT NULL) x
    JOIN ordrank o USING (ord) LEFT JOIN keynum k ON x.ref = k.num
  UNION ALL
  SELECT o.r, k.r FROM (SELECT ord, unnest(ref_keys(reftext)) AS ref FROM works WHERE reftext IS NOT NULL) x
    JOIN ordrank o USING (ord) LEFT JOIN keyrank k ON x.ref = k.key;
CREATE TABLE edge AS SELECT DISTINCT citing, cited FROM refs WHERE cited IS NOT NULL AND citing <> cited;
"""


def edges(con: Any) -> dict[str, int]:
    """Table ``edge``: each citation once, as the rows (``rank``) of its two papers; returns the counts."""
    for statement in EDGES.strip().split(";\n"):
        con.execute(statement)
    seen, outside, self_loops = con.execute(
        "SELECT count(*), count(*) FILTER (cited IS NULL), count(*) FILTER (citing = cited) FROM refs").fetchall()[0]
    unique = con.execute("SELECT count(*) FROM edge").fetchall()[0][0]
    return {"edges_seen": seen, "self_loops": self_loops, "duplicate_edges": seen - outside - self_loops - unique,
            "edges_outside": outside, "citations": unique}


# -- output ----------------------------------------------------------------------------------------------------
PAPERS_SQL = """
SELECT id, title, CAST(year AS SMALLINT) AS year, posted, areas, cited_by, ref_count AS reference_count,
  CASE WHEN cby IS NULL THEN NULL ELSE list_transform(list_sort(cby), lambda c: {'year': CAST(c.year AS SMALLINT),
                                                                            'count': CAST(c.count AS INTEGER)}) END
    AS citations_by_year,
  CASE WHEN cited_by IS NOT NULL THEN 'OpenAlex' END AS cited_by_from,
  authors, venue, doi, ['OpenAlex'] AS sources
FROM paper ORDER BY ord
"""
# builder order: by the citing paper's row, then the cited paper's
CITATIONS_SQL = "SELECT citing, cited FROM edge ORDER BY citing, cited"


@dataclass
class Imported:
    """What an import gives: the papers table, the citations as rows of it, the summary and the metadata."""

    papers: pa.Table
    citing: np.ndarray
    cited: np.ndarray
    summary: dict[str, Any]
    info: dict[str, Any]

    def citations(self) -> pa.Table:
        """The citations table (ids): for tests and small imports; a big one is written from the rows."""
        from dashboard.dataset import citations_table

        ids = self.papers.column("id")
        return citations_table(ids.take(pa.array(self.citing)), ids.take(pa.array(self.cited)))


def build(sources: list[Path], progress: bool = True, workdir: Path | None = None,
          memory_limit: str = MEMORY_LIMIT) -> Imported:
    """The dataset of the OpenAlex JSON Lines ``sources`` (DuckDB spills into a folder under ``workdir``)."""
    from dashboard.dataset import PAPERS_SCHEMA

    files = source_files(sources)
    tmp = Path(tempfile.mkdtemp(prefix="citemap-import-", dir=workdir))
    try:
        con = connect(tmp, memory_limit)
        steps: dict[str, float] = {}
        with _step(steps, "extract", progress):
            extract(con, files)
            slow_rows(con)
        if con.execute("SELECT count(*) FROM works").fetchall()[0][0] == 0:
            raise InputError(files[0], "no works found")
        with _step(steps, "merge", progress):
            counts = merge(con)
        with _step(steps, "edges", progress):
            stats = edges(con)
        for done in ("VIEW works", "TABLE lines", "TABLE slow", "TABLE refs", "TABLE keys", "TABLE keymap",
                     "TABLE keyrank", "TABLE keynum", "TABLE ordmap", "TABLE ordrank"):
            con.execute(f"DROP {done}")  # what the output does not read: its memory back before the output's
        with _step(steps, "tables", progress):
            papers = con.sql(PAPERS_SQL).to_arrow_table().cast(PAPERS_SCHEMA)
            rows = con.sql(CITATIONS_SQL).fetchnumpy()
            with_areas, with_authors = con.execute(
                "SELECT count(*) FILTER (len(areas) > 0), count(*) FILTER (len(authors) > 0) FROM paper").fetchall()[0]
        con.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    summary: dict[str, Any] = {
        **counts, "merged": counts["records"] - papers.num_rows,
        **{k: v for k, v in stats.items() if k != "citations"},
        "papers": papers.num_rows, "citations": stats["citations"], "papers_with_areas": with_areas,
    }
    if with_authors:
        summary["papers_with_authors"] = with_authors
    return Imported(papers, np.asarray(rows["citing"], np.int32), np.asarray(rows["cited"], np.int32),
                    _order(summary), info_for(files, stats["edges_outside"]))


def _order(summary: dict[str, Any]) -> dict[str, Any]:
    """The summary's keys in DatasetBuilder.build's order."""
    keys = ("records", "merged", "edges_seen", "self_loops", "duplicate_edges", "edges_outside", "papers",
            "citations", "papers_with_areas", "papers_with_authors")
    return {k: summary[k] for k in keys if k in summary}


def info_for(files: list[Path], outside: int) -> dict[str, Any]:
    from dashboard.importers.openalex import info_for as python_info

    return python_info(files, outside)


class _step:
    def __init__(self, steps: dict[str, float], name: str, progress: bool) -> None:
        self.steps, self.name, self.progress = steps, name, progress

    def __enter__(self) -> None:
        self.t0 = time.perf_counter()

    def __exit__(self, *exc: object) -> None:
        self.steps[self.name] = time.perf_counter() - self.t0
        if self.progress and exc[0] is None:
            print(f"  {self.name}: {self.steps[self.name]:.1f} s", flush=True)

