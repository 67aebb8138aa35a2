"""Values and input files shared by the record importers (importers/fields.py): each check and its message."""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path

import pytest

from dashboard.importers.common import InputError
from dashboard.importers.fields import (
    ARXIV_BARE,
    ARXIV_DOI,
    ARXIV_URL,
    Where,
    arxiv_key,
    check_type,
    dedupe,
    is_gzip,
    iter_json,
    list_items,
    opt_date,
    opt_int,
    opt_number,
    opt_text,
    opt_year,
    preview,
    source_files,
)

W = Where(Path("in.json"), line=4, record="W1")


def err(fn, *args) -> str:
    with pytest.raises(InputError) as e:
        fn(*args)
    return str(e.value)


def test_where_names_the_place() -> None:
    assert str(W.error("bad", "year")) == "in.json, line 4, record W1, field 'year': bad"
    assert str(W.at(7).error("bad")) == "in.json, line 4, record 7: bad"
    assert W.at(None).record is None and W.record == "W1"


def test_check_type() -> None:
    assert check_type(None, int, W, "f", "a number") is None
    assert check_type(3, int, W, "f", "a number") == 3
    assert check_type(True, (int, bool), W, "f", "x") is True
    assert (
        err(check_type, True, int, W, "n", "a whole number")
        == "in.json, line 4, record W1, field 'n': expected a whole number, found True"
    )
    assert (
        err(check_type, "3", int, W, "n", "a whole number")
        == "in.json, line 4, record W1, field 'n': expected a whole number, found str '3'"
    )
    assert err(check_type, False, (int, float), W, "n", "a number").endswith("expected a number, found False")


def test_preview_cuts_long_values() -> None:
    assert preview("abc") == "'abc'" and preview(1) == "1"
    assert preview("x" * 58) == "'" + "x" * 58 + "'"  # 60 characters: whole
    assert preview("x" * 59) == "'" + "x" * 56 + "..."  # 61: cut
    long = preview("x" * 100)
    assert long == "'" + "x" * 56 + "..." and len(long) == 60


def test_opt_text() -> None:
    assert opt_text("  a \n b\tc ", W, "t") == "a b c"
    assert opt_text("   ", W, "t") is None and opt_text(None, W, "t") is None and opt_text("", W, "t") is None
    assert (
        err(opt_text, "bad \udc80", W, "t") == "in.json, line 4, record W1, field 't': not valid Unicode text "
        "(surrogates not allowed)"
    )
    assert err(opt_text, 5, W, "t").endswith("field 't': expected a string, found int 5")


def test_opt_int_and_year() -> None:
    assert opt_int(0, W, "n") == 0 and opt_int(2**63 - 1, W, "n") == 2**63 - 1 and opt_int(None, W, "n") is None
    assert err(opt_int, -1, W, "n").endswith("field 'n': -1 is out of range (0..9223372036854775807)")
    assert err(opt_int, 2**63, W, "n").endswith(f"field 'n': {2**63} is out of range (0..9223372036854775807)")
    assert err(opt_int, 5, W, "n", 6, 9).endswith("5 is out of range (6..9)")
    assert opt_int(9, W, "n", 6, 9) == 9 and opt_int(6, W, "n", 6, 9) == 6
    assert err(opt_int, 1.5, W, "n").endswith("expected a whole number, found float 1.5")
    assert opt_year(1, W, "y") == 1 and opt_year(9999, W, "y") == 9999
    assert err(opt_year, 0, W, "y").endswith("0 is out of range (1..9999)")
    assert err(opt_year, 10000, W, "y").endswith("10000 is out of range (1..9999)")


def test_opt_date() -> None:
    assert opt_date("2021-06-07", W, "d") == "2021-06-07" and opt_date(" 2021-06-07 ", W, "d") == "2021-06-07"
    assert opt_date(None, W, "d") is None and opt_date("  ", W, "d") is None
    assert err(opt_date, "2021-6-7", W, "d").endswith("field 'd': expected a date YYYY-MM-DD, found '2021-6-7'")
    assert err(opt_date, "x2021-06-07", W, "d").endswith("expected a date YYYY-MM-DD, found 'x2021-06-07'")
    assert err(opt_date, "2021-06-07x", W, "d").endswith("expected a date YYYY-MM-DD, found '2021-06-07x'")
    assert err(opt_date, "2021-02-30", W, "d").endswith("field 'd': not a valid date: '2021-02-30'")
    assert err(opt_date, "0000-01-01", W, "d").endswith("not a valid date: '0000-01-01'")
    assert err(opt_date, 20210607, W, "d").endswith("field 'd': expected a string, found int 20210607")


def test_opt_number_is_a_sort_key() -> None:
    assert opt_number(3) == 3.0 and isinstance(opt_number(3), float) and opt_number(-2.5) == -2.5
    for bad in (None, "3", True, math.nan, [1]):
        assert opt_number(bad) == -math.inf


def test_small_helpers() -> None:
    assert dedupe(["b", "a", "b", "c", "a"]) == ["b", "a", "c"]
    assert arxiv_key("2106.03764") == "2106.03764"
    assert arxiv_key("math.ag/0101001") == "math.AG_0101001" and arxiv_key("HEP-TH/9901001") == "hep-th_9901001"
    assert arxiv_key("cs/9901001") == "cs_9901001"
    assert ARXIV_BARE.match("2106.03764v2")["id"] == "2106.03764" and not ARXIV_BARE.match("2106.03764x")
    assert ARXIV_URL.search("https://arxiv.org/pdf/2106.03764v1.pdf")["id"] == "2106.03764"
    assert ARXIV_URL.search("http://arxiv.org/abs/cs/9901001?x=1")["id"] == "cs/9901001"
    assert ARXIV_DOI.search("https://doi.org/10.48550/arXiv.2106.03764")["id"] == "2106.03764"
    assert list_items(None, W, "l") == [] and list_items([1], W, "l") == [1]
    assert err(list_items, {}, W, "refs").endswith("field 'refs': expected a list, found dict {}")


def test_gzip_detection_and_source_files(tmp_path: Path) -> None:
    plain, packed = tmp_path / "a.json", tmp_path / "b.json"
    plain.write_text("{}")
    packed.write_bytes(gzip.compress(b"{}"))
    assert not is_gzip(plain) and is_gzip(packed)
    (tmp_path / "one").write_bytes(b"\x1f")
    assert not is_gzip(tmp_path / "one")
    assert err(is_gzip, tmp_path / "absent") == f"{tmp_path / 'absent'}: cannot be read (No such file or directory)"
    folder = tmp_path / "f"
    (folder / "sub").mkdir(parents=True)
    for name in ("b.jsonl", "a.json", "sub/c.gz", "d.ndjson", "notes.txt", "e.json.bak"):
        (folder / name).write_text("{}")
    assert source_files([folder, plain]) == [
        folder / "a.json",
        folder / "b.jsonl",
        folder / "d.ndjson",
        folder / "sub" / "c.gz",
        plain,
    ]
    empty = tmp_path / "empty"
    empty.mkdir()
    assert err(source_files, [empty]) == f"{empty}: folder holds no .json, .jsonl or .gz file"


def write(path: Path, text: str | bytes, packed: bool = False) -> Path:
    data = text.encode() if isinstance(text, str) else text
    path.write_bytes(gzip.compress(data) if packed else data)
    return path


@pytest.mark.parametrize("packed", [False, True])
def test_iter_json_documents_and_lines(tmp_path: Path, packed: bool) -> None:
    doc = write(tmp_path / "d", json.dumps({"results": [1, 2]}, indent=2), packed)
    assert list(iter_json(doc)) == [(None, {"results": [1, 2]})]
    lines = write(tmp_path / "l", '\n{"a": 1}\n\n{"a": 2}\r\n[3]\n', packed)
    assert list(iter_json(lines)) == [(2, {"a": 1}), (4, {"a": 2}), (5, [3])]
    one = write(tmp_path / "o", '{"a": 1}', packed)
    assert list(iter_json(one)) == [(1, {"a": 1})]
    late = write(tmp_path / "late", '\n\n{\n  "a": 1\n}\n', packed)  # a document after blank lines
    assert list(iter_json(late)) == [(None, {"a": 1})]


def test_iter_json_errors_name_file_and_line(tmp_path: Path) -> None:
    def message(path: Path) -> str:
        with pytest.raises(InputError) as e:
            list(iter_json(path))
        return str(e.value)

    for text in ("", "\n  \n"):
        p = write(tmp_path / "empty", text)
        assert message(p) == f"{p}, line 1: file is empty"
    p = write(tmp_path / "bad", '{"a": 1}\n{"a": \n')
    assert message(p) == f"{p}, line 2: line is not valid JSON: Expecting value at column 1"
    p = write(tmp_path / "doc", '{\n  "a": [1,\n  2,, 3]\n}')
    assert message(p) == f"{p}, line 3: not valid JSON: Expecting value at column 5"
    p = write(tmp_path / "cut", '{\n  "a": [1,\n  2')
    assert message(p) == f"{p}, line 3: not valid JSON (the file looks truncated): Expecting ',' delimiter at column 4"
    deep = "[" * 100_000 + "]" * 100_000
    p = write(tmp_path / "deep1", deep + "\n")
    assert message(p) == f"{p}, line 1: JSON is nested too deeply"
    p = write(tmp_path / "deep2", '{"a": 1}\n' + deep + "\n")
    assert message(p) == f"{p}, line 2: JSON is nested too deeply"
    p = write(tmp_path / "deep3", "[\n" + deep + "\n]")
    assert message(p) == f"{p}: JSON is nested too deeply"
    p = write(tmp_path / "latin", b'{"a": 1}\n{"a": "\xe9"}\n')
    assert message(p) == f"{p}, line 2: not UTF-8 text (invalid continuation byte)"
    p = write(tmp_path / "latin.gz", b'{"a": 1}\n[1]\n{"a": "\xe9"}\n', packed=True)
    assert message(p) == f"{p}, line 3: not UTF-8 text (invalid continuation byte)"
    p = write(tmp_path / "latin0", b'\xe9{"a": 1}\n')
    assert message(p) == f"{p}, line 1: not UTF-8 text (invalid continuation byte)"
    data = gzip.compress(("".join(f'{{"n": {i}}}\n' for i in range(5000))).encode())
    p = write(tmp_path / "trunc.gz", data[: len(data) // 2])
    got = message(p)
    assert got.startswith(f"{p}, line ") and "file is truncated or not valid gzip after " in got
    n = int(got.split("after ")[1].split(" complete")[0])
    assert 0 < n < 5000 and got.startswith(f"{p}, line {n + 1}: ")
    p = write(tmp_path / "trunc0.gz", data[:15])
    assert message(p).startswith(f"{p}, line 1: file is truncated or not valid gzip after 0 complete lines (")
    (tmp_path / "dir.json").mkdir()
    assert message(tmp_path / "dir.json") == f"{tmp_path / 'dir.json'}: cannot be read (Is a directory)"


def test_a_read_error_names_the_file(tmp_path: Path, monkeypatch) -> None:
    import io

    from dashboard.importers import fields

    class Failing(io.StringIO):
        def __iter__(self):
            yield '{"a": 1}\n'
            raise OSError(5, "Input/output error")

    monkeypatch.setattr(fields, "open_text", lambda path: Failing())
    p = tmp_path / "x.jsonl"
    with pytest.raises(InputError) as e:
        list(iter_json(p))
    assert str(e.value) == f"{p}: cannot be read (Input/output error)"


def test_the_bad_byte_line_is_exact_across_read_blocks(tmp_path: Path) -> None:
    # a two-byte character cut by the first 1 MiB block's end, then a bad byte two lines on; and a bad byte
    # after more than a block of lines
    p = write(tmp_path / "cut.jsonl", b"[1]" + b" " * ((1 << 20) - 4) + "é".encode() + b"\n[2]\n\xe9\n[3]\n")
    with pytest.raises(InputError, match=r"cut\.jsonl, line 3: not UTF-8 text"):
        list(iter_json(p))
    p = write(tmp_path / "far.jsonl", b"[1]\n" * 300_000 + b'["\xff"]\n', packed=True)
    with pytest.raises(InputError, match=r"far\.jsonl, line 300001: not UTF-8 text \(invalid start byte\)"):
        list(iter_json(p))


def test_the_bad_byte_line_counts_lines_as_the_reader_does(tmp_path: Path) -> None:
    p = write(tmp_path / "cr.jsonl", b'[1]\r[2]\r\n[3]\n["\xff"]\n')  # \r, \r\n and \n each end a line
    with pytest.raises(InputError, match=r"cr\.jsonl, line 4: not UTF-8 text"):
        list(iter_json(p))
    p = write(tmp_path / "end.jsonl", b'[1]\n[2]\n["\xc3')  # ends inside a character
    with pytest.raises(InputError, match=r"end\.jsonl, line 3: not UTF-8 text"):
        list(iter_json(p))
    p = write(tmp_path / "crlf.jsonl", b"[1]" + b" " * ((1 << 20) - 4) + b'\r\n[2]\n[3]\n["\xff"]\n')  # \r | \n
    with pytest.raises(InputError, match=r"crlf\.jsonl, line 4: not UTF-8 text"):
        list(iter_json(p))
    p = write(tmp_path / "lf.jsonl", b'\n[1]\n["\xff"]\n')  # a first line that is empty
    with pytest.raises(InputError, match=r"lf\.jsonl, line 3: not UTF-8 text"):
        list(iter_json(p))


def test_a_file_that_ends_inside_a_character(tmp_path: Path) -> None:
    p = write(tmp_path / "end.jsonl", b'[1]\n[2]\n[3]\n["\xc3')  # the reader's own count: line 4
    with pytest.raises(InputError, match=r"end\.jsonl, line 4: not UTF-8 text \(unexpected end of data\)"):
        list(iter_json(p))
