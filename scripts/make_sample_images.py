"""Make the labelled sample photos in sample_images/ (deterministic: same seeds, same files).

    python scripts/make_sample_images.py [--out sample_images] [--sets tichu_seen,...] [--count N]

Sets (each a folder with JPEGs and labels.json, see docs in vision/evaluate.py):
- tichu_seen: Tichu decks of the families used in development;
- tichu_heldout: Tichu decks of families never used in development or training;
- standard_heldout: standard decks (some scenes with two decks) of held-out families;
- calibration: photos of one held-out Tichu deck, 14 cards each in two rows in reading order,
  with manifest.json for `trickmate calibrate` (CONTRACTS section 4);
- calibration_scenes: table scenes of that same deck, to score after calibrating;
- standard_unseen_type, tichu_unseen_type: held-out families lettered only in the fonts
  reserved for held-out decks (GNU FreeFont, fetched by scripts/fetch_fonts.py): the other
  held-out sets take their TrueType lettering from the machine's fonts, DejaVu here, which
  the glyph reader trains on.

Files are kept small (JPEG, mostly <= 1600 px wide, each under 400 KB, the whole folder
around 22 MB).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.synth import DeckStyle
from vision.synth.dataset import calibration_photo, image_entry, make_set, save_jpeg, write_labels
from vision.synth.style import families
from vision.synth.text import is_held_out_font, truetype_fonts

CALIBRATION_FAMILY = "mountain"
CALIBRATION_SEED = 2024
CALIBRATION_ROWS: tuple[str, ...] = (
    "2j 3j 4j 5j 6j 7j 8j 9j 10j Jj Qj Kj Aj Mahjong",
    "2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As Dog",
    "2p 3p 4p 5p 6p 7p 8p 9p 10p Jp Qp Kp Ap Phoenix",
    "2t 3t 4t 5t 6t 7t 8t 9t 10t Jt Qt Kt At Dragon",
)


@dataclass(frozen=True)
class SetPlan:
    name: str
    game: str
    families: tuple[str, ...]
    count: int
    seed: int
    fixed_style: bool = False
    #: Lettered only in the fonts reserved for held-out decks (GNU FreeFont), which the glyph
    #: reader never trains on: the set measures reading type the scanner has never seen.
    unseen_type: bool = False


PLANS: tuple[SetPlan, ...] = (
    SetPlan("tichu_seen", "tichu", families("tichu", held_out=False), 36, 101),
    SetPlan(
        "tichu_heldout",
        "tichu",
        tuple(f for f in families("tichu", True) if f != CALIBRATION_FAMILY),
        40,
        202,
    ),
    SetPlan("standard_heldout", "standard", families("standard", held_out=True), 40, 303),
    SetPlan("calibration_scenes", "tichu", (CALIBRATION_FAMILY,), 36, 404, fixed_style=True),
    SetPlan("standard_unseen_type", "standard", families("standard", True), 40, 606, unseen_type=True),
    SetPlan("tichu_unseen_type", "tichu", families("tichu", True), 40, 707, unseen_type=True),
)
FONTS_HINT = (
    "the *_unseen_type sets need the fonts reserved for held-out decks (GNU FreeFont): run "
    "`python scripts/fetch_fonts.py` and set TRICKMATE_FONT_DIRS=.training-fonts"
)


def held_out_fonts_present() -> bool:
    """Whether the fonts reserved for held-out decks are on this machine (without them a
    held-out deck is lettered in the development fonts, which the reader has seen)."""
    return any(is_held_out_font(path) for path in truetype_fonts())


def calibration_style() -> DeckStyle:
    return DeckStyle.from_seed(CALIBRATION_SEED, family=CALIBRATION_FAMILY)


def use_calibration_deck(family: str, seed: int) -> None:
    """Make the calibration sets with another deck (a seen family, to develop calibration on
    without looking at the held-out deck)."""
    global CALIBRATION_FAMILY, CALIBRATION_SEED, PLANS
    CALIBRATION_FAMILY, CALIBRATION_SEED = family, seed
    PLANS = tuple(
        SetPlan(p.name, p.game, (family,), p.count, p.seed + seed, True) if p.fixed_style else p
        for p in PLANS
    )


def lettered_in_reserved_fonts(style: DeckStyle) -> bool:
    """Whether a deck's indices are printed in a font reserved for held-out decks (not in a
    Hershey face or a development font, which the glyph reader trains on)."""
    return style.font.kind == "ttf" and is_held_out_font(style.font.path)


def make_scene_set(plan: SetPlan, out: Path, count: int | None = None) -> int:
    folder = out / plan.name
    if folder.exists():
        shutil.rmtree(folder)
    entries = make_set(
        folder,
        count if count is not None else plan.count,
        plan.seed,
        plan.game,
        plan.families,
        prefix=plan.name,
        fixed_style=calibration_style() if plan.fixed_style else None,
        style_filter=lettered_in_reserved_fonts if plan.unseen_type else None,
    )
    document: dict[str, Any] = {"game": plan.game, "images": entries}
    if plan.fixed_style:
        document["calibration_manifest"] = "../calibration/manifest.json"
    write_labels(folder / "labels.json", document)
    return len(entries)


def make_calibration_set(out: Path) -> int:
    """Photos of the calibration deck in rows, with manifest.json (and labels.json)."""
    folder = out / "calibration"
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    style = calibration_style()
    photos, entries = [], []
    for index, row in enumerate(CALIBRATION_ROWS):
        image, labels = calibration_photo(np.random.default_rng([505, index]), style, row.split(), index)
        file = f"calibration_{index + 1}.jpg"
        save_jpeg(folder / file, image, 88)
        photos.append({"file": file, "cards": row})
        entries.append(image_entry(file, image, labels, style, "rows"))
    (folder / "manifest.json").write_text(json.dumps({"photos": photos}, indent=1) + "\n")
    write_labels(folder / "labels.json", {"game": "tichu", "images": entries})
    return len(entries)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent.parent / "sample_images")
    parser.add_argument("--sets", default="", help="comma-separated set names (default: all)")
    parser.add_argument("--count", type=int, default=None, help="images per scene set (default: the plan's)")
    parser.add_argument("--calibration-deck", default="", help="FAMILY:SEED of the calibration sets' deck")
    args = parser.parse_args(argv)
    if args.calibration_deck:
        family, _, seed = args.calibration_deck.partition(":")
        use_calibration_deck(family, int(seed or 0))
    wanted = {name for name in args.sets.split(",") if name}
    if "calibration" in wanted or not wanted:
        print(f"calibration: {make_calibration_set(args.out)} photos")
    for plan in PLANS:
        if plan.name not in wanted and wanted:
            continue
        if plan.unseen_type and not held_out_fonts_present():
            if plan.name in wanted:
                print(f"error: {FONTS_HINT}", file=sys.stderr)
                return 2
            print(f"{plan.name}: skipped ({FONTS_HINT})", file=sys.stderr)
            continue
        print(f"{plan.name}: {make_scene_set(plan, args.out, args.count)} images")
    total = sum(f.stat().st_size for f in args.out.rglob("*") if f.is_file())
    print(f"sample_images: {total / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
