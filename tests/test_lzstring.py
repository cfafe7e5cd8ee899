"""lz-string: the JavaScript library's outputs, round trips, real f-puzzles strings, errors."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satdoku.io.lzstring import (LZStringError, compress_to_base64, compress_to_uri,
                              decompress_from_base64, decompress_from_uri)

VARIANTS = Path(__file__).resolve().parent.parent / "puzzles" / "variants"

# (text, compressToBase64, compressToEncodedURIComponent) as lz-string 1.5.0 (npm) gives them.
VECTORS = [
    ("a", "IZA=", "IZA"),
    ("aaaaaaaaaaaaaaaaaaaa", "IY1/kA==", "IY1-kA"),
    ("abababababab", "IYI17Sg=", "IYI17Sg"),
    ("Hello, world", "BIUwNmD2A0AEDukBOYAmQ===", "BIUwNmD2A0AEDukBOYAmQ"),
    ('{"size":9,"grid":[[{},{}]]}', "N4IgzglgXgpiBcBOANCA5gJwgEwQbT2AF9liBdMooA==",
     "N4IgzglgXgpiBcBOANCA5gJwgEwQbT2AF9liBdMooA"),
    ("Grüße, 漢字 and 😀𝄞", "OIJwPw+wpgNABIIntDq2nAhgOwCZ0LwbgAPcBYNwPF2g",
     "OIJwPw+wpgNABIIntDq2nAhgOwCZ0LwbgAPcBYNwPF2g"),
    ("\u0000\u00ff\u0100\uffff", "AAf8AICP//Q=", "AAf8AICP--Q"),
    ("TOBEORNOTTOBEORTOBEORNOT#", "CoeQQgoiBKByLFJGSpwQYiA=", "CoeQQgoiBKByLFJGSpwQYiA"),
    ("", "Q===", "Q"),
]


@pytest.mark.parametrize("text, b64, uri", VECTORS)
def test_known_outputs_of_the_javascript_library(text, b64, uri):
    assert compress_to_base64(text) == b64
    assert compress_to_uri(text) == uri
    assert decompress_from_base64(b64) == text
    assert decompress_from_uri(uri) == text


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=300))
def test_round_trip_any_text(text):
    assert decompress_from_base64(compress_to_base64(text)) == text
    assert decompress_from_uri(compress_to_uri(text)) == text


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet="ab{}\":,[]R1C9", min_size=1, max_size=2000))
def test_round_trip_long_repetitive_text(text):
    """Long inputs grow the dictionary past several token widths."""
    assert decompress_from_base64(compress_to_base64(text)) == text


def test_base64_padding_is_optional_and_spaces_read_as_plus_in_uri_form():
    assert decompress_from_base64("IY1/kA") == "a" * 20
    assert decompress_from_uri("OIJwPw wpgNABIIntDq2nAhgOwCZ0LwbgAPcBYNwPF2g") == \
        "Grüße, 漢字 and 😀𝄞"


def real_strings():
    return list(_real_strings())


def _real_strings():
    for path in sorted(VARIANTS.glob("*.txt")):
        item = next(line for line in path.read_text().splitlines()
                    if line and not line.startswith("#"))
        yield pytest.param(item.split("load=")[-1], id=path.stem)


@pytest.mark.parametrize("packed", real_strings())
def test_real_fpuzzles_strings_decompress_to_json_and_compress_back_identically(packed):
    text = decompress_from_base64(packed)
    assert text.startswith("{") and text.endswith("}")
    assert compress_to_base64(text) == packed


@pytest.mark.parametrize("bad, message", [
    ("", "it is empty"),
    ("IZ!A", "character '!' at position 3 is not in its alphabet"),
    ("BIUwNmD2A0A", "it ends in the middle of a token"),
    ("////", "starts with token 3"),
    ("IZ//////", "beyond the dictionary"),
])
def test_bad_input_is_refused_with_a_reason(bad, message):
    with pytest.raises(LZStringError, match=message):
        decompress_from_base64(bad)


def test_uri_form_refuses_base64_only_characters():
    with pytest.raises(LZStringError, match="'/' at position 6"):
        decompress_from_uri("IY1-k/A")
