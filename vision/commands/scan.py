"""``trickmate scan``: cards, combination and points from photos, one JSON line per image."""

from __future__ import annotations

import argparse
import json
import sys
import time

HELP = "read the cards in photos: one JSON line per image (cards, combination, points)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="photo files (JPEG, PNG, ...)")
    parser.add_argument("--game", choices=("tichu", "standard"), default="tichu", help="which deck to expect")
    parser.add_argument("--deck", metavar="PROFILE", help="a deck profile made by 'trickmate calibrate'")


def run(args: argparse.Namespace) -> int:
    from vision.io import ImageError, read_photo
    from vision.process import prepare_for_scanning
    from vision.profile import DeckProfile, ProfileError, builtin_profile
    from vision.scan import scan_image

    prepare_for_scanning()

    try:
        profile = DeckProfile.load(args.deck) if args.deck else builtin_profile(args.game)
    except ProfileError as error:
        print(f"trickmate scan: {error}", file=sys.stderr)
        return 2
    if profile.game != args.game:
        print(
            f"trickmate scan: the deck profile {args.deck} is for {profile.game}, not {args.game}",
            file=sys.stderr,
        )
        return 2
    failed = False
    for name in args.images:
        started = time.perf_counter()
        try:
            photo = read_photo(name)
            # Corners in the file's own pixels, also for a large photo decoded at a reduced size.
            result = scan_image(photo.image, args.game, profile).scaled(photo.scale)
            result.ms = (time.perf_counter() - started) * 1000.0
            line = result.to_json(name)
        except ImageError as error:
            failed = True
            message = str(error)
            prefix = f"{name}: "
            line = {"image": name, "error": message[len(prefix) :] if message.startswith(prefix) else message}
            print(f"trickmate scan: {message}", file=sys.stderr)
        print(json.dumps(line), flush=True)
    return 1 if failed else 0
