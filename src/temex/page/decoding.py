"""HTML bytes to text: :func:`decode_html` (byte-order mark, valid UTF-8, the
declared charset, windows-1252 or a detected charset) and the binary-data
test :func:`parse <temex.page.dom.parse>` refuses with
(:func:`_looks_binary`). A declared charset that fails, or an undeclared
page with many bytes that are not UTF-8, goes to :mod:`temex.page.charset`.
"""

from __future__ import annotations

import codecs
import re

__all__ = ["MIN_DETECT_BYTES", "decode_html"]

_META_CHARSET = re.compile(
    rb"""<meta[^>]+charset\s*=\s*["']?\s*([a-zA-Z0-9_.:-]+)""", re.IGNORECASE
)
# UTF-32 before UTF-16: the UTF-32-LE mark begins with the UTF-16-LE one.
_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF32_LE, "utf-32-le"),
         (codecs.BOM_UTF32_BE, "utf-32-be"), (codecs.BOM_UTF16_LE, "utf-16-le"),
         (codecs.BOM_UTF16_BE, "utf-16-be"))
# Python codecs that are no page charset: they fail on any non-ASCII byte
# (idna, punycode, undefined) or rewrite the text (backslash escapes, UTF-7).
_NOT_CHARSETS = frozenset({"idna", "punycode", "undefined", "unicode-escape",
                           "raw-unicode-escape", "utf-7", "mbcs", "oem"})
# WHATWG maps these labels to windows-1252, a superset that never fails.
_LATIN1_LABELS = frozenset({"iso-8859-1", "latin1", "latin-1", "ascii", "us-ascii",
                            "iso8859-1", "l1", "cp819", "windows-1252", "cp1252"})


def _codec(label: str | None) -> str | None:
    if not label:
        return None
    label = label.strip().strip("\"'").lower()
    if label in _LATIN1_LABELS:
        return "cp1252"
    try:
        name = codecs.lookup(label).name
    except LookupError:
        return None
    # utf-16 declared inside an ASCII-compatible byte stream is a lie (WHATWG).
    if name.startswith("utf-16") or name.startswith("utf-32"):
        return "utf-8"
    # bytes-to-bytes codecs (base64, zlib, ...) and the non-charsets above
    if not getattr(codecs.lookup(name), "_is_text_encoding", True) or name in _NOT_CHARSETS:
        return None
    return name


def _sniff_utf16(data: bytes) -> str | None:
    """UTF-16 without a byte-order mark: HTML markup is ASCII, so one byte of
    every pair is NUL ("<\x00h\x00..." is little-endian)."""
    head = data[:1024]
    half = len(head) // 2
    if half < 2:
        return None
    even, odd = head[0:2 * half:2].count(0), head[1:2 * half:2].count(0)
    if odd >= half * 0.3 and even <= half * 0.05:
        return "utf-16-le"
    if even >= half * 0.3 and odd <= half * 0.05:
        return "utf-16-be"
    return None


#: Fewest bytes that are not UTF-8 with which a page's charset is detected
#: (:mod:`temex.page.charset`): fewer are stray bytes, read as windows-1252
#: without loading the detection.
MIN_DETECT_BYTES = 32


def _cp1252_fallback(err: UnicodeError) -> tuple[str, int]:
    """Codec error handler: bytes that are not UTF-8 are read as windows-1252
    (pages that mix UTF-8 with Latin-1 lose neither part)."""
    assert isinstance(err, UnicodeDecodeError)
    return err.object[err.start:err.end].decode("cp1252", errors="replace"), err.end


codecs.register_error("temex.cp1252", _cp1252_fallback)


def decode_html(data: bytes, declared: str | None = None) -> tuple[str, str]:
    """Decode HTML bytes to text, returning ``(text, encoding)``.

    Order: a byte-order mark; else UTF-8 when the bytes are valid UTF-8 (valid
    multi-byte UTF-8 is almost never an accident, and pages often keep a stale
    ``<meta charset>`` after being converted); else the charset *declared* by
    the transport (HTTP ``Content-Type``), then a ``<meta>`` charset in the
    first 1024 bytes (WHATWG labels: latin-1 means windows-1252); else
    UTF-8 where valid and windows-1252 elsewhere (what browsers fall back to;
    pages mixing the two keep both) where the other bytes are few, and the
    detected charset where they are many (a Shift_JIS, GBK or windows-1251
    page served without a charset:
    :func:`temex.page.charset.undeclared_charset`). UTF-32 marks and UTF-16 without a mark
    (every other byte NUL) are recognised; a ``<meta>`` naming no charset
    (``base64``, ``idna``, an unknown label) is ignored.
    A declared charset that does not decode the bytes is not obeyed blindly
    (:func:`temex.page.charset.declared_charset_failed`: windows-1252 for a
    few stray bytes, charset detection for many); the encoding returned then
    says so (a :class:`~temex.page.charset.CharsetFallback`). No page is
    rejected for its encoding.
    This is the HTML Standard's sniffing with UTF-8 validity checked first,
    the rule the evaluation data used to store its pages.
    """
    for bom, enc in _BOMS:
        if data.startswith(bom):
            return data[len(bom):].decode(enc, errors="replace"), enc
    utf16 = _sniff_utf16(data)
    if utf16:
        return data.decode(utf16, errors="replace"), utf16
    candidates: list[str] = []
    for label in (declared, _sniff_meta(data[:1024])):
        codec = _codec(label)
        if codec and codec not in candidates:
            candidates.append(codec)
    for enc in ("utf-8", *candidates):
        try:
            return data.decode(enc), enc
        except (UnicodeError, LookupError):
            continue
    if not candidates:  # undeclared: windows-1252 for a few stray bytes, else detected
        # the first test of page/charset.py's policy (bad bytes counted as it
        # counts them), here: a page with a few stray bytes never loads it
        if data.decode("utf-8", errors="replace").count("\ufffd") < MIN_DETECT_BYTES:
            return data.decode("utf-8", errors="temex.cp1252"), "cp1252"
        from .charset import undeclared_charset  # legacy pages only

        return undeclared_charset(data, MIN_DETECT_BYTES)
    from .charset import declared_charset_failed  # broken pages only

    return declared_charset_failed(data, candidates, MIN_DETECT_BYTES)


_CONTROL = bytes(b for b in range(32) if b not in (9, 10, 12, 13, 27))
_MAGIC = (b"\x89PNG", b"GIF8", b"\xff\xd8\xff", b"%PDF", b"PK\x03\x04", b"\x1f\x8b",
          b"BZh", b"\xfd7zXZ", b"7z\xbc\xaf", b"\x7fELF", b"RIFF", b"OggS", b"wOF")


def _looks_binary(data: bytes) -> bool:
    """Binary data rather than HTML: a known file signature, or more than 2%
    control bytes in the first 4 KB (text has none; a stray NUL in a page is
    not enough). Byte-order marks and BOM-less UTF-16 are text."""
    if data.startswith(tuple(b for b, _ in _BOMS)) or _sniff_utf16(data):
        return False
    if data.startswith(_MAGIC):
        return True
    head = data[:4096]
    return len(head) - len(head.translate(None, _CONTROL)) > len(head) // 50


def _sniff_meta(head: bytes) -> str | None:
    m = _META_CHARSET.search(head)
    return m.group(1).decode("ascii", "replace") if m else None
