"""Types of the content layer's compiled feature rows (``_kernel.pyx``)."""

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
def context_rows(s1: list[float], chars: list[int], node: list[int], parent: list[int],
                 body: int, n_elements: int, lk: list[int], rk: list[int], ws: list[Any],
                 cs: list[Any]) -> list[list[float]]: ...
