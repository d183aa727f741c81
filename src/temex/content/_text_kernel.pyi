"""Types of the text layer's compiled module (``_text_kernel.pyx``)."""

from typing import Any

ESCAPABLE: frozenset[str]
def text_lines_kept(start_address: int, start: int, size: list[int], flags: bytes,
                    keep: list[bool], parent: list[int]) -> list[str]: ...
def markdown(start_address: int, doc: Any, keep: list[bool], flags: bytes, m: Any) -> str: ...
