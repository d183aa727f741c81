"""The page-level content datasets of ``DATA/content`` (shared by the content
benchmark and the scorer's training script).

Every dataset folder holds ``manifest.jsonl`` (one page a line: ``site``,
``page``, ``html``, ``gold`` relative to the folder); pages are ``.html`` or
gzip-compressed ``.html.gz`` (wceb2025). :data:`DATASETS` is the order of the
tables; a folder with a manifest that is not listed comes after them.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from pathlib import Path

__all__ = ["DATASETS", "PageRef", "dataset_names", "pages_by_site", "read_html"]

#: Development datasets, in the order of the tables (data README).
DATASETS = ("big9", "cleanportaleval", "dragnet", "cleaneval", "readability", "wceb2025")


@dataclass(frozen=True)
class PageRef:
    """One page of a content dataset."""

    dataset: str
    site: str
    page: str
    html: Path
    gold: Path

    @property
    def key(self) -> str:
        return f"{self.dataset}/{self.site}/{self.page}"

    def read(self) -> bytes:
        return read_html(self.html)

    def gold_text(self) -> str:
        return self.gold.read_text(encoding="utf-8")


def read_html(path: Path) -> bytes:
    """The bytes of a page file (``.gz``: decompressed)."""
    if path.suffix == ".gz":
        with gzip.open(path, "rb") as fh:
            return fh.read()
    return path.read_bytes()


def dataset_names(data: Path) -> list[str]:
    """Datasets present under ``data/content``, in :data:`DATASETS` order."""
    root = data / "content"
    found = [p.name for p in root.iterdir() if (p / "manifest.jsonl").is_file()] \
        if root.is_dir() else []
    return sorted(found, key=lambda d: (DATASETS.index(d) if d in DATASETS else len(DATASETS),
                                        d))


def pages_by_site(data: Path, dataset: str) -> dict[str, list[PageRef]]:
    """The pages of ``dataset`` by site (sites and pages sorted by name)."""
    folder = data / "content" / dataset
    out: dict[str, list[PageRef]] = {}
    for line in (folder / "manifest.jsonl").read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        r = json.loads(line)
        out.setdefault(r["site"], []).append(
            PageRef(dataset, r["site"], r["page"], folder / r["html"], folder / r["gold"]))
    return {s: sorted(v, key=lambda p: p.page) for s, v in sorted(out.items())}
