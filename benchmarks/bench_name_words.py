"""A special card found by the name printed under its art, photographed at many sizes.

    .venv/bin/python benchmarks/bench_name_words.py [--seeds 7,8,9,10]

For each seed, a held-out Tichu deck style that prints its specials' names and marks no
corner (`special_word`, `special_mark` "none") is drawn and calibrated from its four row
photos (cards 110 pixels wide, as `trickmate calibrate` learns it). Then its Phoenix is laid
on a green cloth, 110 pixels wide and larger or smaller, turned four ways (0, 25, 160 and 290
degrees), with the Jade 7 over its upper half: only its name and the foot of its art show,
so only its name can find it. Prints, per card width, in how many photos the Phoenix was
found (and no other card than the Jade 7 named). A deck whose calibration learnt no
Phoenix name is skipped.

The README's and docs/scanner.md's figures: the default seeds (twenty-seventh session).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.cards import Card, tichu_deck  # noqa: E402
from vision.profile import DeckProfile, calibrate  # noqa: E402
from vision.scan import scan_image  # noqa: E402
from vision.synth.card import render_card_face  # noqa: E402
from vision.synth.style import DeckStyle, families, random_style  # noqa: E402

WIDTHS = (80, 110, 150, 200, 260, 320)
ANGLES = (0.0, 25.0, 160.0, 290.0)
CLOTH = (40, 90, 40)


def paste(
    canvas: np.ndarray, style: DeckStyle, card: Card, width: int, center: np.ndarray, angle: float
) -> None:
    """``card``'s face, ``width`` pixels wide, pasted onto (H, W, 3) ``canvas`` turned ``angle`` degrees."""
    face = render_card_face(style, card, width)
    height, side = face.image.shape[:2]
    matrix = cv2.getRotationMatrix2D((side / 2, height / 2), angle, 1.0)
    matrix[:, 2] += center - np.array([side / 2, height / 2])
    size = (canvas.shape[1], canvas.shape[0])
    alpha = cv2.warpAffine(face.mask, matrix, size)[:, :, None] / 255.0
    canvas[:] = (canvas * (1 - alpha) + cv2.warpAffine(face.image, matrix, size) * alpha).astype(np.uint8)


def cloth(height: int, width: int) -> np.ndarray:
    """A plain green cloth with a little grain."""
    grain = np.random.default_rng(5).normal(0.0, 4.0, (height, width, 1))
    return np.clip(np.array(CLOTH, np.float64) + grain, 0, 255).astype(np.uint8)


def calibrated(style: DeckStyle) -> DeckProfile:
    """The profile of ``style``'s deck, learnt from four photos of 14 cards in rows of seven."""
    deck = list(tichu_deck())
    photos = []
    for start in range(0, len(deck), 14):
        cards = deck[start : start + 14]
        photo = cloth(60 + 2 * 176, 60 + 7 * 137)
        for i, card in enumerate(cards):
            center = np.array([40 + 66 + (i % 7) * 137.5, 40 + 82.5 + (i // 7) * 176.0])
            paste(photo, style, card, 110, center, 0.0)
        photos.append((photo, cards))
    return calibrate(photos, "tichu")


def found_phoenixes(style: DeckStyle, profile: DeckProfile, width: int) -> int:
    """In how many of the four turned photos at ``width`` the half-covered Phoenix is found."""
    found = 0
    for angle in ANGLES:
        height = width * 1.4
        photo = cloth(int(height * 3), int(width * 5))
        middle = np.array([width * 2.5, height * 1.5])
        paste(photo, style, Card.parse("Phoenix"), width, middle, angle)
        up = np.array(
            [-np.sin(np.radians(angle)), -np.cos(np.radians(angle))]
        )  # the face's top (OpenCV turns anticlockwise)
        paste(photo, style, Card.parse("7j"), width, middle + up * height * 0.45, angle + 8.0)
        cards = sorted(str(c.card) for c in scan_image(photo, "tichu", profile).cards)
        found += cards in (["7j", "Phoenix"], ["Phoenix"])
    return found


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seeds", default="7,8,9,10", help="comma-separated deck style seeds")
    args = parser.parse_args()
    totals = dict.fromkeys(WIDTHS, 0)
    decks = 0
    for seed in (int(s) for s in args.seeds.split(",")):
        style = random_style(np.random.default_rng(seed), "tichu", families("tichu", held_out=True))
        style = dataclasses.replace(style, special_mark="none", special_word=True)
        profile = calibrated(style)
        if "Phoenix" not in profile.words:
            print(f"seed {seed} ({style.id}): no Phoenix name learnt, skipped")
            continue
        decks += 1
        row = {width: found_phoenixes(style, profile, width) for width in WIDTHS}
        print(f"seed {seed} ({style.id}): " + ", ".join(f"{w} px {n}/{len(ANGLES)}" for w, n in row.items()))
        for width, count in row.items():
            totals[width] += count
    photos = decks * len(ANGLES)
    print("card width (calibrated at 110 px) -> Phoenix found by its name:")
    for width, count in totals.items():
        print(f"  {width:4d} px: {count}/{photos}")


if __name__ == "__main__":
    main()
