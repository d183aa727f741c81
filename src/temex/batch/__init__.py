"""Whole collections: detect a site's template once, strip it everywhere.

``temex batch INPUT... -o OUTDIR``: folders of HTML, WARC and JSONL inputs are
indexed (:mod:`.readers`), grouped by site and template cluster
(:mod:`.grouping`), fitted once per cluster and stripped page by page
(:mod:`.pipeline`) on a local process pool or a Dask cluster (:mod:`.engines`);
rows and done-markers are written by :mod:`.writers`.
"""

from __future__ import annotations

from .pipeline import BatchOptions, SiteTask, run_batch, run_site
from .readers import Entry, RecordError, index_inputs, read_entry

__all__ = ["BatchOptions", "Entry", "RecordError", "SiteTask", "index_inputs", "read_entry",
           "run_batch", "run_site"]
