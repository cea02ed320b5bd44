"""A card lying alone on a plain cloth, dark or pale, after calibration: is it found?

    .venv/bin/python benchmarks/bench_lone_specials.py [--decks jade_temple:86,scroll:71,...]

For each deck (drawn with `scripts/make_sample_images.py --sets calibration
--calibration-deck FAMILY:SEED`, calibrated from its four row photos as `trickmate
calibrate` does), each of its Dog, Phoenix, Dragon and Mahjong and two indexed cards (Kj,
5s) is cut from its calibration photo and laid alone, 25 degrees turned, on four plain
cloths (dark green, and three pale ones: lilac, white, light blue) and scanned.  A pale
cloth passes for the cards' paper, so no outline parts a card from it: a card without an
index is then found by its corner marks or not at all.  Prints, per card kind and cloth,
how many were named right (and only that card).

The README's figures: the default six decks (twenty-third session).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_fresh_decks import draw_deck  # noqa: E402

from vision.evaluate import calibrated_profile  # noqa: E402
from vision.scan import find_cards  # noqa: E402

DECKS = "jade_temple:86,scroll:71,mountain:72,neon_court:73,lantern:84,ink_wash:95"
CLOTHS = {
    "dark green": (40, 90, 40),
    "lilac": (200, 190, 210),
    "white": (225, 230, 235),
    "light blue": (170, 200, 215),
}
CARDS = ("Dog", "Phoenix", "Dragon", "Mahjong", "Kj", "5s")
CARD_SIZE = (160, 230)  # width, height in pixels of the 1280 x 720 photo


def lone_photo(card: np.ndarray, cloth: tuple[int, int, int]) -> np.ndarray:
    """The (H, W, 3) ``card`` face laid alone, 25 degrees turned, in a 1280 x 720 photo of ``cloth``."""
    width, height = CARD_SIZE
    photo = np.full((720, 1280, 3), cloth, np.uint8)
    turn = cv2.getRotationMatrix2D((width / 2, height / 2), 25.0, 1.0)
    turn[:, 2] += np.array([640.0 - width / 2, 360.0 - height / 2])
    inside = cv2.warpAffine(np.full((height, width), 255, np.uint8), turn, (1280, 720))
    photo[inside > 0] = cv2.warpAffine(card, turn, (1280, 720), borderMode=cv2.BORDER_REPLICATE)[inside > 0]
    return photo


def deck_results(family: str, seed: int, work: Path) -> dict[tuple[str, str], bool]:
    """(card, cloth) -> named right, for one deck."""
    out = draw_deck(family, seed, work, "calibration")
    folder = out / "calibration"
    profile = calibrated_profile(folder / "manifest.json", "tichu")
    labels = json.loads((folder / "labels.json").read_text())
    width, height = CARD_SIZE
    results: dict[tuple[str, str], bool] = {}
    for entry in labels["images"]:
        image = cv2.imread(str(folder / entry["file"]))
        if image is None:
            raise SystemExit(f"cannot read {folder / entry['file']}")
        for labelled in entry["cards"]:
            if labelled["card"] not in CARDS:
                continue
            corners = np.array(labelled["corners"], np.float32)
            square = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
            card = cv2.warpPerspective(image, cv2.getPerspectiveTransform(corners, square), (width, height))
            for cloth, colour in CLOTHS.items():
                found, _ = find_cards(lone_photo(card, colour), "tichu", profile)
                results[(labelled["card"], cloth)] = [str(c.card) for c in found] == [labelled["card"]]
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", default=DECKS, help="FAMILY:SEED,... (default: %(default)s)")
    args = parser.parse_args(argv)
    decks = []
    for item in args.decks.split(","):
        family, _, seed = item.partition(":")
        if not seed.isdigit():
            parser.error(f"a deck is FAMILY:SEED, not {item!r}")
        decks.append((family, int(seed)))
    counts: dict[tuple[str, str], list[int]] = {}
    with tempfile.TemporaryDirectory() as work:
        for family, seed in decks:
            for key, right in deck_results(family, seed, Path(work)).items():
                tally = counts.setdefault(key, [0, 0])
                tally[0] += int(right)
                tally[1] += 1
    print(f"{'card':10s}" + "".join(f"{cloth:>12s}" for cloth in CLOTHS))
    for card in CARDS:
        cells = [counts.get((card, cloth), [0, 0]) for cloth in CLOTHS]
        print(f"{card:10s}" + "".join(f"{right:>9d}/{total:<2d}" for right, total in cells))
    specials = [counts.get((card, cloth), [0, 0]) for card in CARDS[:3] for cloth in list(CLOTHS)[1:]]
    print(
        f"Dog, Phoenix and Dragon on the pale cloths: {sum(r for r, _ in specials)} of "
        f"{sum(t for _, t in specials)} named right ({len(decks)} deck{'s' if len(decks) != 1 else ''})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
