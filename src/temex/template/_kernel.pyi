"""Types of the template layer's compiled module (``_kernel.pyx``)."""

from typing import Any

def etdm_exact(k1: list[Any], s1: list[int], size1: list[int], children1: list[tuple[int, ...]],
               k2: list[Any], s2: list[int], size2: list[int], children2: list[tuple[int, ...]],
               r1: int, r2: int, max_cells: int, proxy_cells: int) -> dict[int, int]: ...
def key_signatures(keys: list[Any], children: list[tuple[int, ...]]) -> list[int]: ...
def reached_mask(tags: list[str], ids: list[str], classes: list[tuple[str, ...]],
                 parent: list[int], own: list[str], struct: Any, texts: Any,
                 free_paths: dict[str, Any], steps: dict[Any, bytes], known: dict[bytes, Any],
                 text_verdict: dict[Any, bool], step_of: Any, blake2b: Any) -> list[bool]: ...
def reached_mask_cached(parent: list[int], path: list[str], text: list[str], struct: Any,
                        texts: Any, free_paths: dict[str, Any]) -> list[bool]: ...
