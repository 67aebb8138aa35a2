"""A library file's bytes decoded in the encoding they were written in (dashboard/view/library_text.py)."""

from __future__ import annotations

import codecs

import pytest

from dashboard.view.library_text import UndecodableError, decode


@pytest.mark.parametrize(
    ("text", "codec", "name"),
    [
        ("Schrödinger's café: a naïve étude — “quoted”", "cp1252", "windows-1252"),
        ("Müller, Straße, Café", "latin-1", "windows-1252"),
        ("Łódź i Kraków: zażółć gęślą jaźń", "cp1250", "windows-1250"),
        ("Глубокое обучение для распознавания изображений", "cp1251", "windows-1251"),
        ("Ελληνικά κείμενα", "cp1253", "windows-1253"),
        ("基于深度学习的图像识别方法研究", "gbk", "GBK"),
        ("李明", "gbk", "GBK"),  # a few characters: GBK is preferred among the double-byte codes
        ("深層学習による画像認識の研究 田中太郎", "shift_jis", "Shift_JIS (CP932)"),
        ("Ü ist ein Umlaut", "utf-8", "UTF-8"),
    ],
)
def test_legacy_encodings_are_found(text: str, codec: str, name: str) -> None:
    data = f"@article{{k,\n  title = {{{text}}},\n  year = 2020\n}}\n".encode(codec)
    decoded, found = decode(data)
    assert found == name and text in decoded


@pytest.mark.parametrize(
    ("bom", "codec", "name"),
    [
        (codecs.BOM_UTF8, "utf-8", "UTF-8 with BOM"),
        (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16LE"),
        (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16BE"),
        (codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32LE"),
    ],
)
def test_a_byte_order_mark_decides(bom: bytes, codec: str, name: str) -> None:
    assert decode(bom + "@misc{a, title={Ü}}".encode(codec)) == ("@misc{a, title={Ü}}", name)


def test_jabrefs_encoding_line_decides_when_the_bytes_agree() -> None:
    # windows-1250 declared: read so, though windows-1252 would read these bytes too
    data = "% Encoding: windows-1250\n\n@misc{a, title={Šťastný}}\n".encode("cp1250")
    assert decode(data) == (data.decode("cp1250"), "windows-1250")
    # an unknown name or bytes that are not in the declared encoding: found as if undeclared
    assert decode(b"% Encoding: no-such-code\n@misc{a}")[1] == "UTF-8"
    assert decode("% Encoding: UTF-8\n@misc{a, title={Café}}".encode("cp1252"))[1] == "windows-1252"


def test_bytes_that_are_no_text_say_where_utf8_stopped() -> None:
    with pytest.raises(UndecodableError) as e:
        decode(b"@misc{a,\n title={x}}\n" + bytes(range(256)) * 8)
    assert e.value.line == 4  # the bytes 0..255 hold a newline before their first that is not UTF-8
    with pytest.raises(UndecodableError):
        decode(codecs.BOM_UTF16_LE + b"\x00\xd8")  # a lone surrogate
