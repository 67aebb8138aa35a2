"""A visitor's library in a legacy encoding with a broken entry: the page reads the rest, says which encoding it
read and lists the entry it skipped, as text."""

from __future__ import annotations

from pathlib import Path

from tests.browser.conftest import Page

# Latin-1 bytes (Müller, Café, Résumé); the entry on line 3 never closes its publisher's braces, and its key is
# markup that must stay text
LATIN1_BIB = r"""@article{vaswani, title = {Attention Is All You Need}, author = {Vaswani, Ashish and Müller, Jürgen},
  year = {2017}, eprint = {1706.03762}, archivePrefix = {arXiv}}
@article{<b>broken</b>,
  title = {Café au lait},
  publisher = {Taylor {{\&} Francis},
  year = {2020}
}
@misc{expressive, title = {On the Expressive Power of Self-Attention Matrices}, year = {2021}, note = {Résumé}}
""".encode("latin-1")


def test_a_latin1_library_with_a_broken_entry_reports_its_encoding_and_the_skipped_entry(
    browser, default_server, tmp_path: Path
) -> None:
    lib = tmp_path / "latin1.bib"
    lib.write_bytes(LATIN1_BIB)
    with Page(browser, default_server.url) as p:
        p.open()
        p.page.set_input_files("#upload-library input[type=file]", str(lib))
        p.page.wait_for_function("() => cy.nodes('.lib').length === 2", timeout=15000)
        assert p.node_ids(".lib") == {"1706.03762", "2106.03764"}
        status = p.text("#div-library-status")
        lines = [line.strip() for line in status.split("\n") if line.strip()]
        assert lines[:3] == [
            "latin1.bib: 2 of 2 entries are papers of this dataset.",
            "Read as BibTeX in windows-1252.",
            "1 entry could not be read and was skipped",
        ]
        assert lines[3] == "line 3 (<b>broken</b>): the value of field 'publisher' opens a brace that is never closed"
        # the key is shown as the text it is, not as markup
        assert p.page.evaluate("() => document.querySelectorAll('#div-library-status b').length") == 0
        assert p.page.evaluate("() => document.querySelector('#div-library-status details').open") is True


# Web of Science's tagged export as it saves it (savedrecs.txt): two records, one of them a paper of the dataset
WOS_TXT = """FN Clarivate Analytics Web of Science
VR 1.0
PT J
AU Vaswani, A
TI Attention is all you need
PY 2017
ER

PT J
AU Nobody, N
TI A paper that is not in the dataset
PY 2001
ER

EF
"""


def test_a_txt_export_is_read_and_an_empty_file_keeps_the_library(browser, default_server, tmp_path: Path) -> None:
    """The file picker offers .txt; Web of Science's savedrecs.txt is read by what it holds, in the singular where
    a count is one; an empty file is refused with its name, and the library loaded before stays."""
    wos = tmp_path / "savedrecs.txt"
    wos.write_text(WOS_TXT)
    empty = tmp_path / "empty.bib"
    empty.write_bytes(b"")
    with Page(browser, default_server.url) as p:
        p.open()
        accept = p.page.get_attribute("#upload-library input[type=file]", "accept")
        assert ".txt" in accept.split(",") and ".bib" in accept.split(",")
        p.page.set_input_files("#upload-library input[type=file]", str(wos))
        p.page.wait_for_function("() => cy.nodes('.lib').length === 1", timeout=15000)
        assert p.node_ids(".lib") == {"1706.03762"}
        lines = [line.strip() for line in p.text("#div-library-status").split("\n") if line.strip()]
        assert lines == [
            "savedrecs.txt: 1 of 2 entries is a paper of this dataset.",
            "Read as Web of Science in UTF-8.",
        ]
        p.page.set_input_files("#upload-library input[type=file]", str(empty))
        p.page.wait_for_function(
            "() => document.getElementById('div-library-status').innerText.includes('empty.bib')", timeout=15000
        )
        lines = [line.strip() for line in p.text("#div-library-status").split("\n") if line.strip()]
        assert lines == [
            "Could not read the library: empty.bib: the file is empty. Nothing was changed.",
            "savedrecs.txt: 1 of 2 entries is a paper of this dataset.",
            "Read as Web of Science in UTF-8.",
        ]
        assert p.node_ids(".lib") == {"1706.03762"}
        refused = [e for e in p.errors if "status of 400" in e]  # the browser logs the refused upload
        assert len(refused) == 1
        p.errors.remove(refused[0])
