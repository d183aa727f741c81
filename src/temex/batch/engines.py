"""Execution engines: run the same per-site task locally or on Dask.

``local`` (default): ``workers == 1`` runs tasks in this process, one after
the other; more workers use a :class:`concurrent.futures.ProcessPoolExecutor`.
``dask``: a ``distributed.Client`` on ``scheduler`` (an address), or on a new
``LocalCluster`` of ``workers`` single-threaded workers when no address is
given. Tasks carry only (file, offset) entries, never page bytes: each worker
reads its site's records itself.

Both yield ``(task, result)`` pairs as tasks finish; a task that raises yields
``(task, exception)``, so the pipeline can turn it into error records.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

__all__ = ["run_tasks", "ENGINES"]

ENGINES = ("local", "dask")


def _die_with_parent(parent: int, pdeathsig: bool, every: float = 0.5) -> None:
    """Worker initializer: end this worker when the batch process is gone.

    A pool worker blocks on its task queue, whose pipe it holds open itself,
    so a parent killed by SIGTERM or SIGKILL would leave it running forever,
    owned by init. On Linux the kernel sends SIGKILL when the parent dies
    (``PR_SET_PDEATHSIG``); a daemon thread that polls ``getppid`` covers the
    other systems and a parent that died before this ran. (The kernel signal
    follows the parent *thread* that forked, so it is asked for only when the
    pool is driven from the main thread.)"""
    if pdeathsig and sys.platform.startswith("linux"):
        try:
            import ctypes
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(every)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, daemon=True, name="temex-parent-watch").start()


def _local(fn: Callable[[Any], Any], tasks: Sequence[Any], workers: int
           ) -> Iterator[tuple[Any, Any]]:
    if workers <= 1 or len(tasks) <= 1:
        for t in tasks:
            try:
                yield t, fn(t)
            except Exception as e:  # noqa: BLE001 - reported as error records
                yield t, e
        return
    with ProcessPoolExecutor(max_workers=workers, initializer=_die_with_parent,
                             initargs=(os.getpid(), threading.current_thread()
                                       is threading.main_thread())) as ex:
        futs = {ex.submit(fn, t): t for t in tasks}
        try:
            for f in as_completed(futs):
                try:
                    yield futs[f], f.result()
                except Exception as e:  # noqa: BLE001
                    yield futs[f], e
        except (KeyboardInterrupt, GeneratorExit):
            # Ctrl-C: leaving the pool would wait for every queued site. Drop
            # them and stop the workers: a site is marked done only when its
            # rows are written, so the next run redoes the unfinished ones.
            procs = list((getattr(ex, "_processes", None) or {}).values())
            ex.shutdown(wait=False, cancel_futures=True)
            for proc in procs:
                proc.terminate()
            raise


def _dask(fn: Callable[[Any], Any], tasks: Sequence[Any], workers: int,
          scheduler: str | None) -> Iterator[tuple[Any, Any]]:
    from distributed import Client, LocalCluster
    from distributed import as_completed as d_completed

    cluster = None
    if scheduler:
        client = Client(scheduler)
    else:
        cluster = LocalCluster(n_workers=max(1, workers), threads_per_worker=1,
                               processes=True, dashboard_address=None)
        client = Client(cluster)
    try:
        futs = {client.submit(fn, t, pure=False): k for k, t in enumerate(tasks)}
        for f in d_completed(list(futs)):
            t = tasks[futs[f]]
            try:
                yield t, f.result()
            except Exception as e:  # noqa: BLE001
                yield t, e
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def run_tasks(fn: Callable[[Any], Any], tasks: Sequence[Any], engine: str = "local",
              workers: int | None = None, scheduler: str | None = None
              ) -> Iterator[tuple[Any, Any]]:
    """Run ``fn`` over ``tasks`` with the chosen engine (see module docstring)."""
    workers = workers or os.cpu_count() or 1
    if engine == "local":
        return _local(fn, tasks, workers)
    if engine == "dask":
        return _dask(fn, tasks, workers, scheduler)
    raise ValueError(f"unknown engine {engine!r}; choose from {', '.join(ENGINES)}")
