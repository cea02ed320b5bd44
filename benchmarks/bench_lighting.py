"""The scanner under poor light: the sample sets read underexposed and under coloured lamps.

    .venv/bin/python benchmarks/bench_lighting.py [SET ...] [--only exposure|cast]

Phones expose and white-balance for the scene, but a dim room or a lamp in the frame leaves
white cards dark grey, and a warm lamp often leaves them orange (phones keep some of a
tungsten lamp's warmth on purpose).  Each labelled photo is changed the way such light
changes it and scanned with the built-in profile; precision and recall are printed per
condition:

- exposure: pixel values times a gain (1, 0.6, 0.4, 0.25, 0.15), with the sensor noise a
  darker picture shows more of (:func:`vision.detect.well_exposed` brightens such photos);
- cast: the blue, green and red channels times the light's colour (a mild and a strong
  warm lamp, tungsten, a cool daylight shade; :func:`vision.detect.white_balanced` takes a
  strong cast out).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from vision.evaluate import evaluate_set, scanner_predictor  # noqa: E402
from vision.io import read_image  # noqa: E402

DEFAULT_SETS = ("sample_images/standard_heldout", "sample_images/tichu_heldout")
GAINS = (1.0, 0.6, 0.4, 0.25, 0.15)
#: Light colours as blue, green, red channel gains.
CASTS = {
    "warm lamp, mild": (0.85, 0.95, 1.0),
    "warm lamp": (0.72, 0.9, 1.0),
    "tungsten": (0.6, 0.85, 1.0),
    "daylight shade": (1.0, 0.95, 0.8),
}


def darkened(image: np.ndarray, seed: int, gain: float) -> np.ndarray:
    """(H, W, 3) uint8 ``image`` at ``gain`` of its exposure, with noise of 2 + 4 (1 - gain)
    levels (at a gain of 1 or more, ``image`` as it is)."""
    if gain >= 1.0:
        return image
    noise = np.random.default_rng(seed).normal(0.0, 2.0 + 4.0 * (1.0 - gain), image.shape)
    return np.clip(image.astype(np.float32) * gain + noise, 0, 255).astype(np.uint8)


def tinted(image: np.ndarray, seed: int, light: tuple[float, float, float]) -> np.ndarray:
    """(H, W, 3) uint8 BGR ``image`` under a light of that colour (channel gains)."""
    return np.clip(image.astype(np.float32) * np.array(light, np.float32), 0, 255).astype(np.uint8)


def conditions(only: str | None) -> list[tuple[str, Callable[[np.ndarray, int], np.ndarray]]]:
    found: list[tuple[str, Callable[[np.ndarray, int], np.ndarray]]] = []
    if only in (None, "exposure"):
        for gain in GAINS:
            found.append((f"exposure {gain:g}", partial(darkened, gain=gain)))
    if only in (None, "cast"):
        for name, light in CASTS.items():
            found.append((name, partial(tinted, light=light)))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*", default=list(DEFAULT_SETS), help="labelled photo folders")
    parser.add_argument("--only", choices=("exposure", "cast"), help="one kind of light only")
    args = parser.parse_args()
    print(f"{'set':22s} {'light':18s} {'cards':>6s} {'precision':>9s} {'recall':>7s}")
    for folder in args.sets:
        for name, change in conditions(args.only):
            count = 0

            def read(path: Path, change: Callable[[np.ndarray, int], np.ndarray] = change) -> np.ndarray:
                nonlocal count
                count += 1
                return change(read_image(path), count)

            summary, _ = evaluate_set(ROOT / folder, scanner_predictor(), read=read)
            print(
                f"{Path(folder).name:22s} {name:18s} {summary.cards:6d} "
                f"{summary.precision:9.3f} {summary.recall:7.3f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
