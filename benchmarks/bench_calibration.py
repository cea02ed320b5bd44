"""Calibration figures: how often the cards of a calibration photo are all outlined, in order.

    .venv/bin/python benchmarks/bench_calibration.py [--seeds 100:112] [--game tichu|standard|both]

`trickmate calibrate` needs every card of each photo outlined (the contract refuses a photo
whose card count does not match its list), and an outline in the wrong place would teach the
deck a wrong card.  This draws calibration photos the way users take them, the deck's cards
laid apart in rows of seven on a table (felt, plain, wood or cloth; light, glare, shadow,
tilt, blur and JPEG as in `vision.synth`), for every deck family and each seed, and prints
per game and family:

- photos outlined: all cards found, in reading order, each inside its true outline;
- decks calibrated: all four photos of the deck outlined;
- cards out of place: outlines found in the right number but not where the listed card is
  (they would be learnt as the wrong card; should be 0);
- and, for comparison, the photos the scanner's own paper outlines alone would have
  outlined (:func:`vision.detect.paper_regions`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.detect import paper_regions, working_image  # noqa: E402
from vision.laid_out import laid_out_cards  # noqa: E402
from vision.profile import sort_reading_order  # noqa: E402
from vision.synth.dataset import calibration_photo  # noqa: E402
from vision.synth.style import DeckStyle, families  # noqa: E402

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
ROWS = {
    "tichu": [
        " ".join([*(f"{rank}{suit}" for rank in RANKS), special])
        for suit, special in zip("jspt", ("Mahjong", "Dog", "Phoenix", "Dragon"), strict=True)
    ],
    "standard": [" ".join(f"{rank}{suit}" for rank in RANKS) for suit in "hdcs"],
}


def photo(
    game: str, style: DeckStyle, seed: int, index: int
) -> tuple[np.ndarray, list[tuple[str, np.ndarray]]]:
    """Calibration photo ``index`` of a deck and its cards' true outlines, in reading order."""
    row = ROWS[game][index].split()
    image, labels = calibration_photo(np.random.default_rng([505 + seed, index]), style, row, index, 88)
    outline = {label.card: np.array(label.corners, np.float32) for label in labels}
    return image, [(card, outline[card]) for card in row]


def outlined(image: np.ndarray, truth: list[tuple[str, np.ndarray]]) -> tuple[bool, int, bool]:
    """(all outlined in place, cards out of place, paper outlines alone numbered the cards)."""
    small, scale = working_image(image)
    alone = sum(quad is not None for quad in paper_regions(small).quads) == len(truth)
    regions = laid_out_cards(small, len(truth))
    if regions is None:
        return False, 0, alone
    quads = [quad for quad in regions.quads if quad is not None]
    centers = np.array([quad.mean(axis=0) for quad in quads])
    order = sort_reading_order(centers, np.array([float(np.ptp(quad[:, 1])) for quad in quads]))
    wrong = 0
    for position, (_, corners) in zip(order, truth, strict=True):
        center = (float(centers[position][0]), float(centers[position][1]))
        wrong += cv2.pointPolygonTest((corners / scale).reshape(-1, 1, 2), center, False) < 0
    return wrong == 0, wrong, alone


def line(game: str, name: str, figures: np.ndarray, paper_alone: int) -> str:
    photos, outlined_photos, decks, calibrated, out_of_place = (int(v) for v in figures)
    return (
        f"{game:9} {name:22} {outlined_photos:>9}/{photos:<6} {calibrated:>10}/{decks:<6} "
        f"{out_of_place:>13} {paper_alone:>7}/{photos:<4}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="100:112", help="deck seeds FIRST:END (END excluded)")
    parser.add_argument("--game", choices=("tichu", "standard", "both"), default="both")
    args = parser.parse_args()
    first, end = (int(part) for part in args.seeds.split(":"))
    games = ("tichu", "standard") if args.game == "both" else (args.game,)
    headings = ("photos outlined", "decks calibrated", "out of place", "paper alone")
    print(f"{'game':9} {'family':22} {headings[0]:>16} {headings[1]:>17} {headings[2]:>13} {headings[3]:>12}")
    for game in games:
        totals, total_alone = np.zeros(5, int), 0
        for held_out in (False, True):
            for family in families(game, held_out=held_out):
                figures = np.zeros(5, int)  # photos, outlined, decks, decks calibrated, out of place
                paper_alone = 0
                for seed in range(first, end):
                    style = DeckStyle.from_seed(seed, family=family)
                    results = [outlined(*photo(game, style, seed, index)) for index in range(len(ROWS[game]))]
                    in_place = [result[0] for result in results]
                    misplaced = sum(result[1] for result in results)
                    figures += [len(results), sum(in_place), 1, all(in_place), misplaced]
                    paper_alone += sum(result[2] for result in results)
                totals += figures
                total_alone += paper_alone
                print(
                    line(game, family + (" (held out)" if held_out else ""), figures, paper_alone), flush=True
                )
        print(line(game, "all", totals, total_alone))
    return 0


if __name__ == "__main__":
    sys.exit(main())
