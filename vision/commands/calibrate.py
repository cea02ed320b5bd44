"""``trickmate calibrate``: learn one physical deck from photos of its cards in rows."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HELP = "learn your own deck from photos of its cards laid out in rows; writes a deck profile"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--game", choices=("tichu", "standard"), required=True, help="which deck the photos show"
    )
    parser.add_argument(
        "--manifest",
        required=True,
        metavar="FILE",
        help='JSON: {"photos": [{"file": "jade.jpg", "cards": "2j 3j ..."}]}',
    )
    parser.add_argument(
        "-o", "--output", required=True, metavar="PROFILE", help="where to write the deck profile"
    )


class ManifestError(Exception):
    """A manifest that cannot be used; the message says why."""


def read_manifest(path: Path, game: str) -> list[tuple[Path, str, tuple[Any, ...]]]:
    """(photo path, the file as written, cards) per photo of a calibration manifest."""
    from companion.cards import Deck, parse_cards
    from companion.errors import NotationError

    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ManifestError(f"{path}: no such manifest") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ManifestError(f"{path}: cannot read the manifest ({error})") from None
    except json.JSONDecodeError as error:
        raise ManifestError(f"{path}: not JSON ({error})") from None
    photos = document.get("photos") if isinstance(document, dict) else None
    if not isinstance(photos, list) or not photos:
        raise ManifestError(f'{path}: expected {{"photos": [{{"file": ..., "cards": ...}}, ...]}}')
    deck = Deck.TICHU if game == "tichu" else Deck.STANDARD
    entries = []
    for number, entry in enumerate(photos, start=1):
        if (
            not isinstance(entry, dict)
            or not isinstance(entry.get("file"), str)
            or not isinstance(entry.get("cards"), str | list)
        ):
            raise ManifestError(
                f'{path}: photo {number} needs "file" (a path) and "cards" (the cards it shows)'
            )
        try:
            cards = parse_cards(entry["cards"], deck)
        except NotationError as error:
            raise ManifestError(f"{path}: photo {entry['file']}: {error}") from None
        if not cards:
            raise ManifestError(f"{path}: photo {entry['file']} lists no cards")
        entries.append((path.parent / entry["file"], entry["file"], cards))
    return entries


def run(args: argparse.Namespace) -> int:
    from vision.io import ImageError, read_image
    from vision.process import prepare_for_scanning
    from vision.profile import CalibrationError, calibrate

    prepare_for_scanning()

    try:
        entries = read_manifest(Path(args.manifest), args.game)
        photos = [(read_image(file), cards) for file, _, cards in entries]
        profile = calibrate(photos, args.game, names=[written for _, written, _ in entries])
        profile.save(args.output)
    except (ManifestError, ImageError, CalibrationError) as error:
        print(f"trickmate calibrate: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"trickmate calibrate: cannot write {args.output}: {error.strerror or error}", file=sys.stderr)
        return 2
    count = len(profile.templates)
    colours = profile.colour_summary()
    print(
        f"learnt {count} card{'s' if count != 1 else ''} ({len(profile.labels)} index glyphs"
        + (f"; suit colours: {colours}" if colours else "")
        + (f"; names printed on: {', '.join(sorted(profile.words))}" if profile.words else "")
        + f"); wrote {args.output}",
        file=sys.stderr,
    )
    return 0
