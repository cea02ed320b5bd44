"""JSON reading shared by the commands: a key written twice is refused, not dropped.

``json.loads`` silently keeps the last of two equal keys, so a second ``"play"`` or a
second call for the same seat would vanish unnoticed.

>>> import json
>>> json.loads('{"a": 1}', object_pairs_hook=object_without_repeats)
{'a': 1}
>>> json.loads('{"a": 1, "a": 2}', object_pairs_hook=object_without_repeats)
Traceback (most recent call last):
...
companion.commands.strict_json.RepeatedKeyError: key 'a' is written twice in one JSON object
"""

from __future__ import annotations

from typing import Any

from companion.errors import TrickmateError


class RepeatedKeyError(TrickmateError):
    """A JSON object that names one key twice (deliberately not a ValueError)."""


def object_without_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An ``object_pairs_hook`` for :mod:`json` that refuses repeated keys."""
    result = dict(pairs)
    if len(result) != len(pairs):  # rare: only then find which key it was
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise RepeatedKeyError(f"key {key!r} is written twice in one JSON object")
            seen.add(key)
    return result
