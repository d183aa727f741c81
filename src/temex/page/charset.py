"""When a page's declared charset does not decode it: the fallback, said.

:func:`temex.page.decoding.decode_html` tries a byte-order mark, valid UTF-8, the
charset declared by the transport and by ``<meta>``, in that order (the HTML
Standard's encoding sniffing, §13.2.3.2, UTF-8 validity first). When a charset *is* declared and
neither it nor UTF-8 decodes the bytes, the page lies about its encoding
(``<meta charset="utf-8">`` over Latin-1 bytes is the common case). Replacing
every bad byte with U+FFFD would lose letters silently ("Caf� cr�me"), so
:func:`declared_charset_failed` chooses, in this order:

1. **UTF-8 where valid, windows-1252 elsewhere** when the bytes that are not
   UTF-8 are few: fewer than :data:`temex.page.decoding.MIN_DETECT_BYTES`
   (``min_bytes``), at most
   :data:`FEW_BAD_BYTES` of the page, or fewer than the valid non-ASCII UTF-8
   characters around them. Such a page is ASCII or UTF-8 with stray Latin-1
   bytes (an accented title, a quoted mail): windows-1252 is what browsers
   fall back to, and detection on a handful of bytes is a guess (on
   "Café crème" charset-normalizer ranks windows-1250 first, which reads
   "è" as "č").
2. **charset detection** otherwise (many bytes in a legacy encoding: a
   Cyrillic, Greek, Central European or East Asian page), by
   `charset-normalizer <https://github.com/jawah/charset_normalizer>`_ (the
   detector of ``requests``; MIT), on the first :data:`DETECT_BYTES` bytes;
   windows-1252 wins a tie.
3. the mixed decoding of 1 when detection finds nothing that decodes the page.

The codec used is returned as a :class:`CharsetFallback`: a ``str`` (the codec
name, as ``Document.encoding`` always is) that also carries ``declared`` and
``reason``; the page's metadata reports it (``encoding_fallback``,
:func:`temex.content.metadata.page_metadata`). Nothing here runs for a page
that decodes: the cost is paid by broken pages only (detection: about 1 ms
for a 10 KB page, 0.1 s for 1 MB).

A page that declares **no** charset and is not UTF-8 goes the same way
(:func:`undeclared_charset`): a few stray bytes are windows-1252, as browsers
read them; many are a legacy encoding, detected. A browser's fallback for an
undeclared page is the encoding of its user's locale, windows-1252 for
Western ones (HTML Standard 13.2.3.2, its table of suggested defaults by
locale); Chromium and Firefox also detect (Compact Encoding Detection,
chardetng). A temex user reads pages of every locale: a Shift_JIS, GBK or
windows-1251 page served without a charset read as windows-1252 was all
mojibake. Here the fallback is not a failure and the codec is returned as a
plain ``str``. Where the detected charset reads the page as Latin letters
(windows-1250 against windows-1252: a guess on "è" or "č"), windows-1252 is
kept, as above.
"""

from __future__ import annotations

import logging
import unicodedata

__all__ = ["DETECT_BYTES", "FEW_BAD_BYTES", "CharsetFallback",
           "declared_charset_failed", "undeclared_charset"]

log = logging.getLogger(__name__)

#: Share of a page's bytes that may be invalid UTF-8 and still be read as
#: UTF-8 with windows-1252 for those bytes (1%: an accented letter every few
#: lines of Western text; a Cyrillic or Greek page has 10-50%).
FEW_BAD_BYTES = 0.01
#: Bytes given to charset detection (its cost grows with the input).
DETECT_BYTES = 256 * 1024


class CharsetFallback(str):
    """The codec a page was decoded with after its declared charset failed.

    A ``str`` (the codec name) with ``declared`` (the charset(s) that failed)
    and ``reason`` (one sentence: what was done instead).
    """

    declared: str
    reason: str

    def __new__(cls, codec: str, declared: str = "", reason: str = "") -> CharsetFallback:
        self = super().__new__(cls, codec)
        self.declared, self.reason = declared, reason
        return self

    def __reduce__(self) -> tuple[type, tuple[str, str, str]]:
        return CharsetFallback, (str(self), self.declared, self.reason)


def _detect(data: bytes) -> str | None:
    from charset_normalizer import from_bytes

    matches = list(from_bytes(data[:DETECT_BYTES]))
    if not matches:
        return None
    best = matches[0]
    for m in matches:  # windows-1252 when it is as good as the best
        if m.encoding == "cp1252" and m.chaos <= best.chaos and m.coherence >= best.coherence:
            return "cp1252"
    return str(best.encoding)


def _few_bad_bytes(data: bytes, min_bytes: int) -> tuple[bool, int, int]:
    """Whether the bytes of ``data`` that are not UTF-8 are few enough to be
    read as windows-1252 (module docstring, 1; under ``min_bytes`` of them
    always), their count and the count of valid non-ASCII UTF-8
    characters."""
    as_utf8 = data.decode("utf-8", errors="replace")
    bad = as_utf8.count("\ufffd")
    non_ascii_ok = len(as_utf8) - len(as_utf8.encode("ascii", "ignore")) - bad
    few = bad < min_bytes or bad <= FEW_BAD_BYTES * len(data) or non_ascii_ok >= bad
    return few, bad, non_ascii_ok


def undeclared_charset(data: bytes, min_bytes: int) -> tuple[str, str]:
    """Decode ``data``, which declares no charset and is not valid UTF-8:
    UTF-8 where valid and windows-1252 elsewhere when the other bytes are
    few (``min_bytes``: :data:`temex.page.decoding.MIN_DETECT_BYTES`), else the
    detected charset (module docstring); the text and the codec."""
    if not _few_bad_bytes(data, min_bytes)[0]:
        detected = _detect(data)
        if detected and detected != "cp1252":
            try:
                text = data.decode(detected)
            except (UnicodeError, LookupError):
                text = ""
            if text and not _latin(text):
                return text, detected
    return data.decode("utf-8", errors="temex.cp1252"), "cp1252"  # the handler of page/dom.py


def _latin(text: str) -> bool:
    """Whether most non-ASCII letters of ``text`` (its first 4,096) are of the
    Latin script: detection that tells windows-1250 from windows-1252 on
    accented Latin letters is a guess ("è" or "č"), and an undeclared page of
    Latin letters is read as browsers of Western locales read it."""
    letters = [c for c in text[:4096] if ord(c) > 127 and c.isalpha()]
    latin = sum(unicodedata.name(c, "").startswith("LATIN") for c in letters)
    return 2 * latin >= len(letters)


def declared_charset_failed(data: bytes, declared: list[str], min_bytes: int
                            ) -> tuple[str, CharsetFallback]:
    """Decode ``data`` whose declared charset(s) ``declared`` (codec names)
    and UTF-8 all failed (``min_bytes``: as :func:`undeclared_charset`);
    returns the text and a :class:`CharsetFallback`."""
    names = " / ".join(declared)
    mixed = data.decode("utf-8", errors="temex.cp1252")  # the handler of page/dom.py
    few, bad, non_ascii_ok = _few_bad_bytes(data, min_bytes)
    if few:
        how = ("read as windows-1252" if non_ascii_ok == 0
               else "read as UTF-8, and its other bytes as windows-1252")
        used = CharsetFallback("cp1252", names, f"the declared charset {names} does not "
                               f"decode the page ({bad} bad bytes); {how}")
        log.info("%s", used.reason)
        return mixed, used
    detected = _detect(data)
    if detected:
        try:
            text = data.decode(detected)
        except (UnicodeError, LookupError):
            text = ""
        if text:
            used = CharsetFallback(detected, names, f"the declared charset {names} does not "
                                   f"decode the page ({bad} bad bytes); detected {detected}")
            log.info("%s", used.reason)
            return text, used
    used = CharsetFallback("cp1252", names, f"the declared charset {names} does not decode "
                           f"the page ({bad} bad bytes) and no other charset was found; read "
                           "as UTF-8 where valid, windows-1252 elsewhere")
    log.info("%s", used.reason)
    return mixed, used
