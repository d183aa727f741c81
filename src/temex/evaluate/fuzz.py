"""Mutation fuzzer of the library entry points over real shared pages.

Seeds are the HTML pages of the data folder (:func:`.data.find_data`: ``sites/*/www/**`` and
``content/*/*/*.html``; the demo site when the data is absent). Each case
takes a seed page, applies 1-4 seeded mutations (byte flips, inserted,
deleted, duplicated or spliced ranges, truncation, another doctype at the
start, and hostile markup: deep nesting, unclosed comments and raw text,
misnested tables and formatting, end-tag runs, charsets and byte-order marks,
NUL bytes, foreign content, long attributes), and runs, with two pages of
the same seed folder (mutated half of the time) as candidates:

    parse -> a detector fit (vote, intersect, rtdm, chunks in turn) ->
    render in every format -> extract_content -> SavedTemplate strip

Allowed outcomes: a result, or a :class:`temex.errors.TemexError` (a clear
one-line error). Any other exception, or a case over ``--case-timeout``
seconds (SIGALRM), is a crash: the input is written to ``--save`` (default
``tests/fuzz_crashes/``) as ``<kind>-<hash>.html`` with the traceback beside
it, and ``tests/test_fuzz.py`` replays every saved input.

    .venv/bin/python -m bench.robust.fuzz --minutes 10 [--seed 1] [--save DIR]

Single process, bounded by ``--minutes`` / ``--cases``; prints a Markdown
summary.
"""

from __future__ import annotations

import hashlib
import random
import signal
import sys
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..content.extract import extract_content
from ..content.render import FORMATS, render
from ..errors import TemexError
from ..page.dom import parse
from ..template.detectors.chunks import ChunksDetector
from ..template.detectors.intersect import IntersectDetector
from ..template.detectors.rtdm import RTDMDetector
from ..template.detectors.vote import VoteDetector
from ..template.saved import SavedTemplate, strip
from ..template.site_index import SiteIndex
from .data import find_data

__all__ = ["Stats", "fuzz", "mutate", "run_case", "save_crash", "seed_pages"]

DETECTORS = (VoteDetector, IntersectDetector, RTDMDetector, ChunksDetector)
MAX_SEED_BYTES = 400_000  # larger seed pages are skipped (cases stay fast)

HOSTILE = [
    b"<div>" * 3000, b"<table><tr><td>" * 700, b"<b><i><u>" * 500, b"<a href=x>" * 800,
    b"<svg><g>" * 600, b"<math><mrow>" * 600, b"<select><option>" * 300, b"<template>" * 400,
    b"<!--", b"<script>", b"<style>", b"<textarea>", b"<title>", b"<plaintext>", b"<xmp>",
    b"<!DOCTYPE html PUBLIC>", b"<!DOCTYPE html SYSTEM>", b"<!DOCTYPE>", b"<!doctype html>",
    b"</p>" * 500, b"</div>" * 500, b"</table></tr></td>", b"<p>" * 1000, b"<li>" * 800,
    b"<frameset><frame src=a>", b"<body><body><html>", b"<head><body><head>",
    b"<meta charset=utf-16>", b"<meta charset=idna>", b"<meta charset=x-unknown>",
    b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\x00" * 8, b"\xc3\x28\xa0\xa1",
    b"<p class='" + b"a " * 2000 + b"'>", b"<p title='" + b"x" * 100_000 + b"'>",
    b"<base href='http://elsewhere.example/'>", b"<noscript><p>n</p></noscript>",
    b"<![CDATA[ x ]]>", b"<?xml version='1.0'?>", b"&#0;&#xD800;&nbsp;&amp",
    b"<form><form><input><button><button>", b"<ruby><rb>a<rt>b<rp>c",
    b"<image src=x><isindex><nobr><nobr>", b"<dl><dt><dd><dt>" * 100,
    b"<h1><h2><h3>" * 200, b"<iframe src=x>", b"<object data=x><embed src=y>",
]


DOCTYPES = [b"<!DOCTYPE html PUBLIC>", b"<!DOCTYPE html SYSTEM>", b"<!DOCTYPE html PUBLIC \"\">",
            b"<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01//EN\">", b"<!DOCTYPE>",
            b"<!DOCTYPE html SYSTEM \"about:legacy-compat\">", b"<!doctype svg>", b"",
            b"<!DOCTYPE html PUBLIC '-//W3C//DTD XHTML 1.0 Strict//EN' SYSTEM>"]


@dataclass
class Stats:
    cases: int = 0
    crashes: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)  # TemexError kinds (expected)
    saved: list[str] = field(default_factory=list)
    slowest: tuple[float, str] = (0.0, "")


class Hang(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise Hang()


def seed_pages(data: Path | None = None) -> list[Path]:
    """Seed HTML files: the shared data, else the demo site."""
    for d in [data or find_data()]:
        if d is not None and (d / "sites").is_dir():
            files = sorted(d.glob("sites/*/www/**/*.htm*")) + sorted(d.glob("content/*/*/*.html"))
            files = [f for f in files if f.is_file() and f.stat().st_size <= MAX_SEED_BYTES]
            if files:
                return files
    from ..demo import DEMO_SITE
    return sorted(Path(DEMO_SITE).glob("www/**/*.html"))


def mutate(data: bytes, rng: random.Random, other: bytes) -> bytes:
    """1-4 random mutations of ``data`` (``other`` is another page to splice)."""
    b = bytearray(data or b"<p>")
    for _ in range(rng.randint(1, 4)):
        n = len(b)
        op = rng.randrange(10)
        pos = rng.randrange(n + 1)
        if op == 0 and n:  # flip bytes
            for _ in range(rng.randint(1, 16)):
                b[rng.randrange(n)] = rng.randrange(256)
        elif op == 1:  # insert random bytes
            b[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 64)))
        elif op == 2 and n:  # delete a range
            del b[pos:pos + rng.randint(1, max(1, n // 8))]
        elif op == 3 and n:  # duplicate a range
            a = rng.randrange(n)
            chunk = b[a:a + rng.randint(1, 2048)]
            b[pos:pos] = chunk * rng.randint(1, 20)
        elif op == 4 and other:  # splice another page
            a = rng.randrange(len(other))
            b[pos:pos] = other[a:a + rng.randint(1, 8192)]
        elif op == 5 and n:  # truncate
            del b[rng.randrange(n):]
        elif op == 6:  # hostile markup at a tag boundary
            k = b.find(b"<", pos)
            at = k if k >= 0 else pos
            b[at:at] = rng.choice(HOSTILE)
        elif op == 7:  # hostile markup anywhere
            b[pos:pos] = rng.choice(HOSTILE)
        elif op == 8 and n:  # swap a tag name
            k = b.find(b"<", pos)
            if k >= 0:
                b[k + 1:k + 1] = rng.choice([b"table", b"p", b"li", b"svg", b"select", b"td",
                                             b"frameset", b"template", b"a ", b"/", b"!"])
        elif op == 9:  # a doctype of another kind at the start
            start = bytes(b[:9]).lower()
            end = b.find(b">") + 1 if start == b"<!doctype" else 0
            b[:end] = rng.choice(DOCTYPES)
    return bytes(b)


def run_case(key: bytes, others: list[bytes], which: int) -> str | None:
    """Every entry point on one mutated key page; returns the TemexError kind
    when one ended it cleanly, None on success; anything else raises."""
    try:
        kdoc = parse(key)
        pages = []
        for o in others:
            try:
                pages.append(parse(o))
            except TemexError:
                continue
        if not pages:
            pages = [kdoc]
        det = DETECTORS[which % len(DETECTORS)]().fit(kdoc, pages)
        model = det.model_ if hasattr(det, "model_") else VoteDetector().fit(kdoc, pages).model_
        for fmt in FORMATS:
            render(model, fmt)
        extract_content(kdoc, SiteIndex([kdoc, *pages]))
        strip(SavedTemplate.from_models([model]), kdoc)
    except TemexError as e:
        return type(e).__name__
    return None


def save_crash(folder: Path, kind: str, key: bytes, others: list[bytes], which: int,
               tb: str) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    h = hashlib.blake2b(key, digest_size=8).hexdigest()
    name = f"{kind}-{h}"
    (folder / f"{name}.html").write_bytes(key)
    for i, o in enumerate(others):
        (folder / f"{name}.cand{i}.html").write_bytes(o)
    (folder / f"{name}.txt").write_text(f"detector {which}\n{tb}")
    return name


def fuzz(seconds: float, seed: int = 1, cases: int | None = None,
         save: Path | None = None, case_timeout: int = 60,
         data: Path | None = None, log: bool = False) -> Stats:
    """Run mutated cases for ``seconds`` (or ``cases`` cases); crashing
    inputs are written to ``save`` when given."""
    rng = random.Random(seed)
    seeds = seed_pages(data)
    by_folder: dict[Path, list[Path]] = {}
    for f in seeds:
        by_folder.setdefault(f.parent, []).append(f)
    stats = Stats()
    old = signal.signal(signal.SIGALRM, _alarm)
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline and (cases is None or stats.cases < cases):
            f = rng.choice(seeds)
            sibs = [s for s in by_folder[f.parent] if s != f] or [f]
            other_files = rng.sample(sibs, min(2, len(sibs)))
            base = f.read_bytes()
            key = mutate(base, rng, rng.choice(seeds).read_bytes())
            others = [mutate(o.read_bytes(), rng, base) if rng.random() < 0.5
                      else o.read_bytes() for o in other_files]
            which = stats.cases
            t0 = time.perf_counter()
            signal.alarm(case_timeout)
            try:
                err = run_case(key, others, which)
                if err:
                    stats.errors[err] += 1
            except Hang:
                stats.crashes["hang"] += 1
                if save is not None:
                    stats.saved.append(save_crash(save, "hang", key, others, which,
                                                  f"over {case_timeout} s from {f}"))
            except Exception as e:  # noqa: BLE001 - that is what we look for
                kind = type(e).__name__
                stats.crashes[kind] += 1
                if save is not None:
                    stats.saved.append(save_crash(save, kind, key, others, which,
                                                  f"from {f}\n{traceback.format_exc()}"))
                if log:
                    print(f"crash {kind} from {f}", file=sys.stderr)
            finally:
                signal.alarm(0)
            took = time.perf_counter() - t0
            if took > stats.slowest[0]:
                stats.slowest = (took, f"{f} ({DETECTORS[which % len(DETECTORS)].__name__})")
            stats.cases += 1
    finally:
        signal.signal(signal.SIGALRM, old)
    return stats
