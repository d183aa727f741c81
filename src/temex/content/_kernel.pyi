"""Types of the content layer's compiled module (``_kernel.pyx``)."""

from typing import Any

FEATURE_WIDTHS: tuple[int, ...]
def feature_rows(tag: list[str], parent: list[int], size: list[int], depth: list[int],
                 body: int, node: list[int], chars: list[int], lchars: list[int],
                 texts: list[str], words: list[list[str]], sc: list[Any], sl: list[Any],
                 sb: list[Any], anc_bits: dict[str, int], tag_index: dict[str, int],
                 tag_class: Any, widths: tuple[int, ...], table_bit: int, neg: bytes,
                 pos: bytes, comm: bytes, stop: frozenset[str], title_words: set[str],
                 rule: tuple[Any, ...], lists: list[int], recs: list[int], data_table: Any,
                 site: tuple[Any, ...] | None) -> Any: ...
def dot(f: list[float], k: list[float]) -> float: ...
def psum(xs: list[float]) -> float: ...
def logistic(rows: Any, ctx: list[list[float]] | None, width: int, b: float,
             k: list[float], forest: Forest | None = None) -> list[float]: ...
def context_rows(s1: list[float], chars: list[int], node: list[int], parent: list[int],
                 body: int, n_elements: int, lk: list[int], rk: list[int], ws: list[Any],
                 cs: list[Any]) -> list[list[float]]: ...
def keep_mask(block_of: list[int], chosen: list[int], nblocks: int, parent: list[int],
              text: list[str], tag: list[str], size: list[int], spacers: frozenset[str]
              ) -> list[bool]: ...

class Forest:
    def __init__(self, base: float, feature: list[int], threshold: list[float], left: list[int],
                 right: list[int], value: list[float], roots: list[int]) -> None: ...
    def raw_rows(self, rows: list[list[float]]) -> list[float]: ...
