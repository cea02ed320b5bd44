"""Labelled photo sets on disk: JPEGs plus labels.json, the format vision.evaluate reads.

    python -m vision.synth.dataset OUT_DIR [--count 200] [--game tichu] [--held-out | --seen]
                                   [--families a,b] [--seed 1] [--size 1280x720]

makes a set of any size (for training, or a bigger evaluation than sample_images/), one
deck style per image drawn from the chosen families.

labels.json = {"game": ..., "images": [{"file", "width", "height", "cards": [{"card",
"corners", "visible_fraction", "index_corners"}], "style", "family", "held_out", "layout"}]}
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.synth.scene import CardLabel, SceneSpec, render_scene
from vision.synth.style import DeckStyle, families

MAX_FILE_BYTES = 400_000
TARGET_BYTES_PER_MEGAPIXEL = 85_000  # JPEG quality is lowered until a photo fits this
# Photo sizes (width, height), drawn with these weights: mostly phone-video-like sizes.
SIZES: tuple[tuple[tuple[int, int], float], ...] = (
    ((1280, 720), 0.35),
    ((1440, 1080), 0.15),
    ((1600, 900), 0.15),
    ((720, 1280), 0.1),
    ((1080, 1440), 0.1),
    ((1024, 768), 0.1),
    ((1920, 1080), 0.05),
)
LAYOUT_WEIGHTS: tuple[tuple[str, float], ...] = (
    ("apart", 0.25),
    ("fan", 0.3),
    ("pile", 0.2),
    ("mixed", 0.17),
    ("empty", 0.08),
)


def weighted_choice(rng: np.random.Generator, options: Sequence[tuple[Any, float]]) -> Any:
    """One of ``options`` (value, weight) pairs, drawn by weight."""
    weights = np.array([w for _, w in options], np.float64)
    return options[int(rng.choice(len(options), p=weights / weights.sum()))][0]


def save_jpeg(path: Path, image: np.ndarray, quality: int, budgeted: bool = True) -> int:
    """Write ``image`` as JPEG at ``quality`` or lower, until it fits the size budget (about
    85 KB per megapixel, never 400 KB: files small enough for the repository); return the
    quality used.  Not ``budgeted``: at ``quality``, as a phone's camera saves a photo.

    >>> import tempfile
    >>> noise = np.random.default_rng(0).integers(0, 255, (1000, 1000, 3), dtype=np.uint8)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     save_jpeg(Path(folder) / "a.jpg", noise, 85, budgeted=False)
    85
    """
    if not budgeted:
        ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        if not ok:
            raise RuntimeError(f"cannot encode {path}")
        path.write_bytes(encoded.tobytes())
        return quality
    budget = min(MAX_FILE_BYTES, int(TARGET_BYTES_PER_MEGAPIXEL * image.shape[0] * image.shape[1] / 1e6))
    data = b""
    for q in range(quality, 39, -5):
        ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, q])
        if not ok:
            raise RuntimeError(f"cannot encode {path}")
        data = encoded.tobytes()
        if len(data) <= budget:
            quality = q
            break
    if len(data) > MAX_FILE_BYTES:
        raise RuntimeError(f"{path}: {len(data)} bytes even at low quality")
    path.write_bytes(data)
    return quality


def image_entry(
    file: str, image: np.ndarray, labels: Sequence[CardLabel], style: DeckStyle, layout: str
) -> dict[str, Any]:
    """One image's record in labels.json."""
    return {
        "file": file,
        "width": int(image.shape[1]),
        "height": int(image.shape[0]),
        "cards": [label.to_json() for label in labels],
        "style": style.id,
        "family": style.family,
        "held_out": style.held_out,
        "layout": layout,
    }


def write_labels(path: Path, document: dict[str, Any]) -> None:
    """labels.json with one image per line: small, and diffs stay readable."""
    head = {key: value for key, value in document.items() if key != "images"}
    lines = [json.dumps(entry, separators=(",", ":")) for entry in document["images"]]
    text = json.dumps(head)[:-1] + (", " if head else "") + '"images": [\n' + ",\n".join(lines) + "\n]}\n"
    json.loads(text)  # always valid JSON
    path.write_text(text)


#: Calibration photos (`trickmate calibrate`): the sizes and tables of a series, in turn.
CALIBRATION_SIZES = ((1600, 900), (1280, 720), (1440, 1080), (1600, 1200))
CALIBRATION_TABLES = ("felt", "plain", "wood", "cloth")


def calibration_photo(
    rng: np.random.Generator,
    style: DeckStyle,
    cards: Sequence[str],
    index: int,
    jpeg_quality: int | None = None,
    background: str | None = None,
) -> tuple[np.ndarray, list[CardLabel]]:
    """Photo ``index`` of a calibration series, as a user takes it: ``cards`` laid apart in
    reading order, in rows of seven, with the series' size and table for that index (or
    ``background``), light and lens effects, and no other objects."""
    width, height = CALIBRATION_SIZES[index % len(CALIBRATION_SIZES)]
    spec = SceneSpec(
        width=width,
        height=height,
        game=style.game,
        style=style,
        layout="rows",
        cards=tuple(cards),
        row_length=7,
        distractors=0.0,
        background=background or CALIBRATION_TABLES[index % len(CALIBRATION_TABLES)],
        effects=0.4,
        jpeg_quality=jpeg_quality,
    )
    return render_scene(rng, spec)


#: Deck styles drawn for one photo at most, looking for one that a style filter accepts.
STYLE_DRAWS = 200


def make_set(
    folder: Path,
    count: int,
    seed: int,
    game: str,
    family_names: Sequence[str],
    size: tuple[int, int] | None = None,
    prefix: str = "scene",
    fixed_style: DeckStyle | None = None,
    style_filter: Callable[[DeckStyle], bool] | None = None,
    budgeted: bool = True,
) -> list[dict[str, Any]]:
    """Draw ``count`` photos into ``folder`` (created) with labels.json; returns the entries.
    Image ``i`` depends only on (seed, i): sets are reproducible and can be extended.
    ``style_filter``, when given, must accept each drawn deck style (others are redrawn).
    ``budgeted``: JPEGs squeezed into the repository's size budget (see :func:`save_jpeg`)."""
    folder.mkdir(parents=True, exist_ok=True)
    entries = []
    for index in range(count):
        rng = np.random.default_rng([seed, index])
        width, height = size if size is not None else weighted_choice(rng, SIZES)
        layout = weighted_choice(rng, LAYOUT_WEIGHTS)
        if fixed_style is not None:
            style = fixed_style
        else:
            family = family_names[index % len(family_names)]
            for _ in range(STYLE_DRAWS):
                style = DeckStyle.from_seed(int(rng.integers(1 << 16)), family=family)
                if style_filter is None or style_filter(style):
                    break
            else:
                raise ValueError(f"no deck style of family {family!r} passes the style filter")
        spec = SceneSpec(
            width=width,
            height=height,
            game=game,
            style=style,
            layout=layout,
            max_cards=16,
            decks=2 if game == "standard" and rng.random() < 0.25 else 1,
            distractors=0.6,
            effects=float(rng.uniform(0.3, 1.0)),
        )
        image, labels = render_scene(rng, spec)
        file = f"{prefix}_{index:03d}.jpg"
        save_jpeg(folder / file, image, int(rng.integers(70, 88)), budgeted)
        entries.append(image_entry(file, image, labels, style, layout))
    return entries


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m vision.synth.dataset", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("out", type=Path, help="folder to write (JPEGs and labels.json)")
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--game", choices=("tichu", "standard"), default="tichu")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--held-out", action="store_true", help="only families held out of development")
    which.add_argument("--seen", action="store_true", help="only families used in development")
    parser.add_argument("--families", default="", help="comma-separated family names (overrides the above)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", default="", help="WIDTHxHEIGHT for every photo (default: a mix)")
    parser.add_argument(
        "--full-quality",
        action="store_true",
        help="save JPEGs at a camera's quality, not squeezed to the repository's size budget "
        "(for 12-megapixel sets: --size 4032x3024)",
    )
    args = parser.parse_args(argv)
    held_out = True if args.held_out else False if args.seen else None
    names = tuple(f for f in args.families.split(",") if f) or families(args.game, held_out)
    size: tuple[int, int] | None = None
    if args.size:
        width, _, height = args.size.lower().partition("x")
        size = (int(width), int(height))
    entries = make_set(
        args.out, args.count, args.seed, args.game, names, size, budgeted=not args.full_quality
    )
    write_labels(args.out / "labels.json", {"game": args.game, "images": entries})
    print(f"{args.out}: {len(entries)} photos, {sum(len(e['cards']) for e in entries)} cards")
    return 0


if __name__ == "__main__":
    sys.exit(main())
