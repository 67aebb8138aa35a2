"""Library files from other projects' test suites (tests/fixtures/libraries/, sources in its README.md): read in the
encoding they were written in, their broken entries skipped and named by line, their papers found in the default
dataset."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from dashboard.dataset.store import Store
from dashboard.view.library import MAX_LOG, LibraryError, match, match_file, read_library
from dashboard.view.library_text import decode

FILES = Path(__file__).parent / "fixtures" / "libraries"


def read(name: str):
    return read_library(name, (FILES / name).read_bytes())


@pytest.mark.parametrize(
    ("name", "fmt", "encoding", "entries"),
    [
        ("bibtexparser-gbk_test.bib", "BibTeX", "GBK", 1),
        ("bibtexparser-example.bib", "BibTeX", "UTF-8", 1),
        ("jabref-encoding-windows-1252-with-header.bib", "BibTeX", "windows-1252", 1),
        ("jabref-encoding-utf-16BE-with-header.bib", "BibTeX", "UTF-16BE", 1),
        ("jabref-encoding-windows-1252-but-utf-8-declared--decoding-fails.bib", "BibTeX", "windows-1252", 1),
        ("jabref-BibtexImporter.examples.bib", "BibTeX", "UTF-8", 4),
        ("rispy-example_full.ris", "RIS", "UTF-8", 2),
        ("rispy-example_bom.ris", "RIS", "UTF-8 with BOM", 1),
        ("rispy-example_utf_chars.ris", "RIS", "UTF-8 with BOM", 1),
        ("rispy-example_extraneous_data.ris", "RIS", "UTF-8", 2),
        ("rispy-example_wos.ris", "Web of Science", "UTF-8", 2),
        ("jabref-RisImporterTest1.ris", "RIS", "UTF-8", 1),  # nine type lines, one record
        ("bbt-duplicate-fields-2300.bib", "BibTeX", "UTF-8", 7),  # repeated fields: the entries are whole
        ("bbt-plus-in-field-name-2660.bib", "BibTeX", "UTF-8", 284),  # a repeated key: both entries read
        ("bbt-arxiv-preprints-2163.bib", "BibTeX", "UTF-8", 12),
        ("bbt-one-item-2430.csl.json", "CSL-JSON", "UTF-8", 1),
    ],
)
def test_every_readable_file_is_read_whole_in_its_encoding(name: str, fmt: str, encoding: str, entries: int) -> None:
    reading = read(name)
    assert (reading.format, reading.encoding, len(reading.refs), reading.skipped) == (fmt, encoding, entries, [])


def test_accented_and_non_latin_text_is_decoded_right() -> None:
    assert read("jabref-encoding-utf-16BE-with-header.bib").refs[0].title == "Ü ist ein Umlaut"
    assert "abstract = {25° C}" in decode((FILES / "jabref-encoding-windows-1252-with-header.bib").read_bytes())[0]
    gbk, encoding = decode((FILES / "bibtexparser-gbk_test.bib").read_bytes())
    assert encoding == "GBK" and "journal = {测试期刊}" in gbk
    declared_wrongly = decode(
        (FILES / "jabref-encoding-windows-1252-but-utf-8-declared--decoding-fails.bib").read_bytes()
    )
    assert "author  = {Test\xa0I. Last}" in declared_wrongly[0]
    assert "Состояние рецепторного" in decode((FILES / "rispy-example_utf_chars.ris").read_bytes())[0]
    titles = [r.title for r in read("jabref-BibtexImporter.examples.bib").refs]
    aksin = "Effect of immobilization on catalytic characteristics of saturated Pd-N-heterocyclic carbenes in "
    assert aksin + "Mizoroki-Heck reactions" in titles
    wos = read("rispy-example_wos.ris").refs[0]
    assert wos.title.startswith("Interactions stabilizing the structure of the core light-harvesting complex")
    assert wos.year == 2004 and wos.doi == "10.1021/bi049798f"


def test_a_record_with_type_lines_among_its_fields_keeps_its_title_year_and_doi() -> None:
    """JabRef's RIS test record has nine type lines at its top and two more among its fields; JabRef and rispy read
    one record, and so does this reader: its first title line, its first full year, its DOI link."""
    (ref,) = read("jabref-RisImporterTest1.ris").refs
    assert ref.title == "Editorial: Open Source and Empirical Software Engineering:"
    assert (ref.year, ref.doi) == (2001, "10.1023/a:1017379030770")


@pytest.mark.parametrize(
    ("name", "fmt", "entries"),
    [
        ("rispy-example_full.ris", "RIS", 2),
        ("rispy-example_extraneous_data.ris", "RIS", 2),  # text before its first record
        ("rispy-example_wos.ris", "Web of Science", 2),
        ("jabref-RisImporterTest1.ris", "RIS", 1),  # a space and a byte-order mark on the line before it
        ("bibtexparser-example.bib", "BibTeX", 1),
        ("bbt-one-item-2430.csl.json", "CSL-JSON", 1),
    ],
)
def test_every_format_saved_as_txt_is_read_by_what_it_holds(name: str, fmt: str, entries: int) -> None:
    """Web of Science saves its tagged export as ``savedrecs.txt``, and some databases save RIS as ``.txt``."""
    reading = read_library(name.split(".")[0] + ".txt", (FILES / name).read_bytes())
    assert (reading.format, len(reading.refs)) == (fmt, entries)
    assert reading.refs == read(name).refs


def test_a_latin1_copy_of_a_utf8_library_reads_the_same() -> None:
    utf8 = (FILES / "jabref-BibtexImporter.examples.bib").read_bytes()
    latin = utf8.decode("utf-8").encode("latin-1")
    assert latin != utf8 and "Preißel, René".encode("latin-1") in latin
    reading = read_library("latin.bib", latin)
    assert reading.encoding == "windows-1252" and reading.refs == read("jabref-BibtexImporter.examples.bib").refs


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "bbt-endnote-should-parse.bib",
            r"bbt-endnote-should-parse\.bib, line 2: not a valid BibTeX entry: no comma after the entry's key",
        ),
        (
            "bbt-import-from-clipboard-2377.bib",
            r"bbt-import-from-clipboard-2377\.bib, line 1: not a valid BibTeX entry: a comma where a field \('name = ",
        ),
        (
            "jabref-RisImporterCorrupted.ris",
            r"jabref-RisImporterCorrupted\.ris, line 2: a record without its type line \('TY'\)",
        ),
    ],
)
def test_a_file_with_nothing_readable_names_the_file_the_line_and_the_field(name: str, message: str) -> None:
    with pytest.raises(LibraryError, match=message):
        read(name)


def test_broken_entries_of_a_big_real_library_are_skipped_each_named_by_line() -> None:
    """The biblatex test library with three entries broken the way real exports break them (an unclosed brace in
    a publisher): those three are skipped, named by the line they start on and their key; the other 281 are read."""
    text = (FILES / "bbt-plus-in-field-name-2660.bib").read_text("utf-8")
    starts = [m.start() for m in re.finditer(r"(?m)^@", text)]
    broken = text
    for k in (200, 100, 10):  # from the end, so that the earlier offsets hold
        at = broken.index("\n", starts[k]) + 1
        broken = broken[:at] + "  PUBLISHER = {Taylor {{\\&} Francis},\n" + broken[at:]
    reading = read_library("broken.bib", broken.encode())
    assert len(reading.refs) == 281
    assert [(s.line, s.entry) for s in reading.skipped] == [(65, "9.8:11"), (765, "10.1:15c"), (1901, "10.11:83b")]
    assert {s.reason for s in reading.skipped} == {"the value of field 'publisher' opens a brace that is never closed"}


def test_the_answer_names_the_first_skipped_entries_and_counts_all(default_store: Store) -> None:
    good = "@article{a, title = {Attention Is All You Need}, year = {2017}}\n"
    bad = "".join(f"@misc{{bad{i} title = {{No comma}}}}\n" for i in range(100))
    answer = match_file(default_store, "many.bib", (good + bad).encode())
    assert (answer["entries"], answer["matched"], answer["ids"], answer["skipped"]) == (1, 1, ["1706.03762"], 100)
    assert len(answer["log"]) == MAX_LOG == 40
    assert answer["log"][0] == {
        "line": 2,
        "entry": "bad0",
        "reason": "no comma after the entry's key, or no key at all",
    }
    assert answer["log"][-1]["line"] == 41 and answer["encoding"] == "UTF-8" and answer["format"] == "BibTeX"
    json.dumps(answer)  # plain data, as the page keeps it


def test_real_exports_find_their_papers_in_the_default_dataset(default_store: Store) -> None:
    """Better BibTeX's biblatex export of arXiv preprints (eprint, eprinttype = {arXiv}, arxiv.org links): each
    preprint and its published twin find the one paper."""
    found = match(default_store, read("bbt-arxiv-preprints-2163.bib").refs)
    assert (found.entries, found.matched) == (12, 8)
    assert found.ids == ["1502.01852", "1710.11029", "1802.05957", "2008.02217"]
    for name in ("rispy-example_full.ris", "rispy-example_wos.ris", "bbt-one-item-2430.csl.json"):
        assert match(default_store, read(name).refs).matched == 0, name  # no paper of theirs is in the dataset
