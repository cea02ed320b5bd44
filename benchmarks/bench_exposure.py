"""The scanner on underexposed photos: the sample sets read at a fraction of their exposure.

    .venv/bin/python benchmarks/bench_exposure.py [SET ...] [--gains 1,0.6,0.4,0.25,0.15]

Phones expose for the scene, but a dim room or a lamp in the frame leaves white cards dark
grey.  Each labelled photo is darkened the way a sensor's shorter exposure darkens it (its
pixel values times the gain, with the sensor noise that a darker picture shows more of) and
scanned with the built-in profile; precision and recall are printed per gain.  Without
brightening first (:func:`vision.detect.well_exposed`), a photo at a quarter of its exposure
shows no card paper at all.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from vision.evaluate import evaluate_set, scanner_predictor  # noqa: E402
from vision.io import read_image  # noqa: E402

DEFAULT_SETS = ("sample_images/standard_heldout", "sample_images/tichu_heldout")


def darkened(image: np.ndarray, gain: float, seed: int) -> np.ndarray:
    """(H, W, 3) uint8 ``image`` at ``gain`` of its exposure, with noise of 2 + 4 (1 - gain)
    levels (at a gain of 1 or more, ``image`` as it is)."""
    if gain >= 1.0:
        return image
    noise = np.random.default_rng(seed).normal(0.0, 2.0 + 4.0 * (1.0 - gain), image.shape)
    return np.clip(image.astype(np.float32) * gain + noise, 0, 255).astype(np.uint8)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*", default=list(DEFAULT_SETS), help="labelled photo folders")
    parser.add_argument("--gains", default="1,0.6,0.4,0.25,0.15", help="exposures, comma separated")
    args = parser.parse_args()
    gains = [float(gain) for gain in args.gains.split(",")]
    print(f"{'set':28s} {'gain':>5s} {'cards':>6s} {'precision':>9s} {'recall':>7s}")
    for folder in args.sets:
        for gain in gains:
            count = 0

            def read(path: Path, gain: float = gain) -> np.ndarray:
                nonlocal count
                count += 1
                return darkened(read_image(path), gain, count)

            summary, _ = evaluate_set(ROOT / folder, scanner_predictor(), read=read)
            print(
                f"{Path(folder).name:28s} {gain:5.2f} {summary.cards:6d} "
                f"{summary.precision:9.3f} {summary.recall:7.3f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
