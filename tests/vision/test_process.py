"""The scanner's process settings (:mod:`vision.process`), checked in fresh processes (they
are process-wide): after an entry point's setup, OpenCV and numpy's BLAS run on one thread."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

PROBE = """
import json, sys
import cv2
from threadpoolctl import threadpool_info, threadpool_limits

def threads():
    blas = [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]
    return {"opencv": cv2.getNumThreads(), "blas": blas}

cv2.setNumThreads(4)  # pools of several threads, as a machine with cores to spare starts them
threadpool_limits(limits=4, user_api="blas")
before = threads()
if sys.argv[1] == "prepare":
    from vision.process import prepare_for_scanning
    prepare_for_scanning()
else:  # the scan command's own setup, on an empty table photo
    from companion.cli import main
    main(["scan", sys.argv[2]])
print(json.dumps({"before": before, "after": threads()}))
"""


def _threads(*args: str) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, check=True)
    figures: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return figures


def test_prepare_for_scanning_leaves_one_thread_to_opencv_and_blas() -> None:
    figures = _threads("prepare")
    assert figures["before"]["opencv"] == 4
    assert figures["after"]["opencv"] == 1
    assert figures["after"]["blas"] == [1] * len(figures["before"]["blas"])
    assert figures["after"]["blas"]  # numpy's BLAS was found


def test_the_scan_command_scans_on_one_thread(tmp_path: Path) -> None:
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), np.full((120, 160, 3), 90, np.uint8))
    figures = _threads("command", str(photo))
    assert figures["before"]["opencv"] == 4
    assert figures["after"] == {"opencv": 1, "blas": figures["after"]["blas"]}
    assert figures["after"]["blas"] and set(figures["after"]["blas"]) == {1}
