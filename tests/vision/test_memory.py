"""The allocator setting of :mod:`vision.memory`, measured in fresh processes (it is
process-wide): arrays of a working image's size made and dropped over and over must reuse
their memory instead of faulting in fresh pages every time."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

PROBE = """
import json, resource, sys
import numpy as np
from vision.memory import reuse_freed_memory
tuned = reuse_freed_memory() if sys.argv[1] == "tuned" else False

def faults():
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt

start = faults()
for _ in range(20):
    darkness = np.ones((720, 1280), np.float32)  # a working image's float32 map, 3.7 MB
    image = np.ones((720, 1280, 3), np.uint8)  # and its colour image, 2.8 MB
    doubled = darkness * 2
    del darkness, image, doubled
print(json.dumps({"tuned": tuned, "faults": faults() - start}))
"""


def _faults(mode: str) -> dict[str, int]:
    done = subprocess.run([sys.executable, "-c", PROBE, mode], capture_output=True, text=True, check=True)
    figures: dict[str, int] = json.loads(done.stdout)
    return figures


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the setting is glibc's")
def test_freed_blocks_are_reused_instead_of_faulted_in_again() -> None:
    plain, tuned = _faults("plain"), _faults("tuned")
    assert tuned["tuned"]
    # 20 rounds of 10 MB each fault in about 50,000 pages by default; reused, the first
    # round's 2,500 or so.
    assert plain["faults"] > 10_000
    assert tuned["faults"] < plain["faults"] / 5
