"""The process settings the scanner's entry points make: memory reuse, and one thread a scan.

OpenCV and numpy's BLAS each start a pool of threads, one per core, and split work among
them.  The scanner's steps are small (a 1280x720 image, matrices of a few hundred rows), so
the pools mostly wait: on a 2-core machine a 1920x1080 standard photo took 108 ms of wall
clock and 216 ms of CPU with both pools, 102 ms and 102 ms on one thread (and in a process
pinned to one core, 104 against 99 ms: BLAS threads spin while they wait).  Several phones'
photos are scanned side by side in the server's own threads instead.

The scanner's entry points (``trickmate scan``, ``calibrate`` and ``serve``, the evaluation
command and the benchmark) call :func:`prepare_for_scanning` once; the library itself
leaves the process's settings alone.
"""

from __future__ import annotations

import cv2
import numpy  # noqa: F401  (loads numpy's BLAS, so that threadpoolctl finds it)
from threadpoolctl import threadpool_limits

from vision.memory import reuse_freed_memory


def scan_on_one_thread() -> None:
    """Run OpenCV and numpy's BLAS on the calling thread alone, for the rest of the process.
    (threadpoolctl sets the BLAS pool whichever BLAS numpy was built with, after numpy is
    loaded: the environment variables count only before.)"""
    cv2.setNumThreads(1)
    threadpool_limits(limits=1, user_api="blas")


def prepare_for_scanning() -> None:
    """:func:`vision.memory.reuse_freed_memory` and :func:`scan_on_one_thread`."""
    reuse_freed_memory()
    scan_on_one_thread()
