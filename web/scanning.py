"""The scanner in the app: photo uploads become cards, their combination, its verdict and
their points; calibration photos become a saved deck profile.

Routes (JSON errors as the rest of ``/api``: ``{"error": message}``, never a stack trace):

- ``POST /api/scan``: a photo (multipart field ``image``, or the raw image as the body)
  with optional ``game``, ``deck`` (a saved profile's name) and ``trick`` (the last play on
  the table) as form fields or query parameters.  Answers the ``trickmate scan`` line of
  CONTRACTS section 4 plus ``width``/``height`` of the scanned picture (the corners are in
  its pixels) and, given a trick, the referee's ``verdict``.  Nothing is ever saved.
- ``POST /api/judge-cards``: ``{"game", "cards", "trick"}`` after the user corrected a card:
  the combination, points and verdict again.
- ``POST /api/profiles`` (multipart: ``game``, ``name``, then ``photo`` files and, in the
  same order, ``cards`` lists) learns a deck; ``GET /api/profiles`` lists the saved ones.
- ``GET /scan`` and ``GET /calibrate``: the pages.

Photos are decoded only by :func:`vision.io.decode_image`.  A scan is bounded: the photo is
downscaled before scanning and at most :data:`SCAN_SLOTS` scans run at once, so a burst
of uploads queues briefly and then gets 503 instead of starving the score keeping.
"""

from __future__ import annotations

import os
import re
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import Blueprint, current_app, jsonify, render_template, request
from werkzeug.datastructures import FileStorage
from werkzeug.exceptions import RequestEntityTooLarge

from companion.cards import Card, Deck, card_points, format_cards, parse_cards
from companion.errors import TrickmateError
from web import pages
from web.api import ApiError, fail, json_body
from web.app import get_store

if TYPE_CHECKING:
    import numpy as np

    from vision.profile import DeckProfile

bp = Blueprint("scanning", __name__)

#: One photo upload may be this large (phone photos are 2 to 8 MB).
MAX_PHOTO_BYTES = 20 * 1024 * 1024
#: A calibration upload carries several photos.
MAX_CALIBRATION_BYTES = 64 * 1024 * 1024
MAX_CALIBRATION_PHOTOS = 12
#: Photos are scanned at most this large (long side, pixels); the scanner itself works at 1280.
SCAN_SIDE = 2048
#: Scans (and calibrations) running at once; others wait up to SCAN_WAIT seconds, then 503.
SCAN_SLOTS = 2
SCAN_WAIT = 30.0
GAMES = ("tichu", "standard")
PROFILE_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")
PROFILE_SUFFIX = ".npz"

_slots = threading.BoundedSemaphore(SCAN_SLOTS)

# The scanner in the navigation bar (web.pages collects the entries).
if ("scanning.scan_page", "Scan") not in pages.NAV:
    pages.NAV.append(("scanning.scan_page", "Scan"))


@bp.errorhandler(ApiError)
def api_error(error: ApiError) -> Any:
    response = jsonify(error=error.message)
    response.status_code = error.code or 400
    return response


@bp.errorhandler(RequestEntityTooLarge)
def too_large(error: RequestEntityTooLarge) -> Any:
    if request.endpoint == "scanning.scan":
        message = f"the photo is too large (limit {MAX_PHOTO_BYTES // (1024 * 1024)} MB)"
    elif request.endpoint == "scanning.create_profile":
        message = f"the photos are too large together (limit {MAX_CALIBRATION_BYTES // (1024 * 1024)} MB)"
    else:
        limit = (current_app.config["MAX_CONTENT_LENGTH"] or 0) // 1024
        message = f"request body too large (limit {limit} KiB)"
    return jsonify(error=message), 413


# -- helpers --------------------------------------------------------------------------------------


def deck_of(game: str) -> Deck:
    return Deck.TICHU if game == "tichu" else Deck.STANDARD


def read_game(value: str | None, default: str = "tichu") -> str:
    game = (value or default).strip().lower()
    if game not in GAMES:
        fail(400, f"unknown game {value!r} (use tichu or standard)")
    return game


def read_cards(text: Any, game: str, what: str) -> list[Card]:
    """Cards in notation (a string, or a list of strings), or 400 naming the bad token."""
    if isinstance(text, list) and all(isinstance(item, str) for item in text):
        text = " ".join(text)
    if not isinstance(text, str):
        fail(400, f"{what} must be cards in notation, like \"Kj Ks\"")
    try:
        return list(parse_cards(text, deck_of(game)))
    except TrickmateError as error:
        fail(400, f"{what}: {error}")


def profiles_dir() -> Path:
    """Saved deck profiles live beside the database, in the app's data folder."""
    return Path(current_app.config["DATA"]) / "profiles"


def profile_path(name: str) -> Path:
    """The file of the profile called ``name``; 400 unless it is a safe slug."""
    if not PROFILE_NAME.fullmatch(name):
        fail(400, f"deck name {name[:60]!r} is not allowed: use 1 to 40 lower-case letters, digits, - or _")
    return profiles_dir() / (name + PROFILE_SUFFIX)


def load_profile(name: str) -> DeckProfile:
    from vision.profile import DeckProfile, ProfileError

    path = profile_path(name)
    if not path.is_file():
        fail(400, f"no saved deck called {name!r}: learn it on the calibration page first")
    try:
        return DeckProfile.load(path)
    except ProfileError:
        fail(400, f"the saved deck {name!r} cannot be read: learn it again")


@contextmanager
def scan_slot() -> Iterator[None]:
    if not _slots.acquire(timeout=SCAN_WAIT):
        fail(503, "the scanner is busy with other photos: try again in a moment")
    try:
        yield
    finally:
        _slots.release()


def decode(data: bytes) -> np.ndarray:
    """The photo as a BGR array no larger than SCAN_SIDE, or 400 with the decoder's reason."""
    import cv2

    from vision.io import ImageError, decode_image

    try:
        image = decode_image(data)
    except ImageError as error:
        fail(400, f"cannot read the photo: {error}")
    height, width = image.shape[:2]
    if max(height, width) > SCAN_SIDE:
        factor = SCAN_SIDE / max(height, width)
        size = (max(1, round(width * factor)), max(1, round(height * factor)))
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    return image


def judge_cards(cards: Sequence[Card], game: str, trick: Sequence[Card] | None) -> dict[str, Any]:
    """Combination, points and (given a trick) the referee's verdict of ``cards`` played on it."""
    combination: dict[str, Any] | None = None
    verdict: dict[str, Any] | None = None
    if game == "tichu" and cards:
        from companion.tichu.combinations import classify
        from companion.tichu.referee import judge_situation

        try:
            found = classify(cards)
        except TrickmateError:
            found = None  # e.g. a card read twice: no combination
        combination = None if found is None else dict(found.to_json())
        if trick:
            try:
                verdict = judge_situation(
                    {"game": "tichu", "play": format_cards(cards), "trick": [format_cards(trick)]}
                )
            except TrickmateError as error:
                verdict = {"legal": False, "error": str(error)}
    return {
        "combination": combination,
        "points": card_points(cards),
        "verdict": verdict,
    }


# -- the API ----------------------------------------------------------------------------------------


def uploaded_photo() -> tuple[bytes, str]:
    """The photo's bytes and name, from the multipart field ``image`` or the raw body."""
    request.max_content_length = MAX_PHOTO_BYTES
    if request.mimetype == "multipart/form-data":
        upload = request.files.get("image")
        if upload is None:
            fail(400, "no photo: send it as the multipart field 'image'")
        return upload.read(), upload.filename or "photo"
    return request.get_data(cache=False), "photo"


@bp.post("/api/scan")
def scan() -> Any:
    from vision.profile import builtin_profile
    from vision.scan import scan_image

    data, name = uploaded_photo()
    values = request.values
    deck = (values.get("deck") or "").strip()
    profile = load_profile(deck) if deck else None
    game = read_game(values.get("game"), profile.game if profile else "tichu")
    if profile is not None and profile.game != game:
        fail(400, f"the deck {deck!r} is a {profile.game} deck, not {game}")
    trick_text = (values.get("trick") or "").strip()
    trick = read_cards(trick_text, game, "the trick") if trick_text else None
    started = time.perf_counter()
    with scan_slot():
        image = decode(data)
        result = scan_image(image, game, profile or builtin_profile(game))
    result.ms = (time.perf_counter() - started) * 1000.0
    body = result.to_json(name)
    height, width = image.shape[:2]
    body.update(width=width, height=height, game=game, deck=deck or None)
    body["trick"] = format_cards(trick) if trick else None
    body["verdict"] = judge_cards([found.card for found in result.cards], game, trick)["verdict"]
    return jsonify(body)


@bp.post("/api/judge-cards")
def judge() -> Any:
    body = json_body()
    if not isinstance(body, dict):
        fail(400, 'the body must be a JSON object: {"game": "tichu", "cards": "Kj Ks", "trick": "Qj Qs"}')
    game = read_game(body.get("game") if isinstance(body.get("game"), str) else None)
    cards = read_cards(body.get("cards", ""), game, "the cards")
    trick_text = body.get("trick") or ""
    trick = read_cards(trick_text, game, "the trick") if trick_text else None
    answer = judge_cards(cards, game, trick)
    answer["cards"] = [str(card) for card in cards]
    return jsonify(answer)


def saved_profiles() -> list[dict[str, Any]]:
    from vision.profile import DeckProfile, ProfileError

    folder = profiles_dir()
    found: list[dict[str, Any]] = []
    if not folder.is_dir():
        return found
    for path in sorted(folder.glob("*" + PROFILE_SUFFIX)):
        name = path.name[: -len(PROFILE_SUFFIX)]
        if not PROFILE_NAME.fullmatch(name):
            continue
        try:
            profile = DeckProfile.load(path)
        except ProfileError:
            continue
        found.append(_profile_json(name, profile))
    return found


def _profile_json(name: str, profile: DeckProfile) -> dict[str, Any]:
    """What the app says of a saved deck: its name, game, cards learnt, the colours of its
    suits learnt from the photos (suit -> "black", "red", "green" or "blue") and the special
    cards whose printed names it learnt (found by them in fans and piles)."""
    return {
        "name": name,
        "game": profile.game,
        "cards_learnt": len(profile.templates),
        "suit_colours": profile.suit_colour_words(),
        "names_learnt": sorted(profile.words),
    }


@bp.get("/api/profiles")
def list_profiles() -> Any:
    return jsonify(profiles=saved_profiles())


def calibration_photos(game: str) -> tuple[list[tuple[np.ndarray, list[Card]]], list[str]]:
    uploads: list[FileStorage] = request.files.getlist("photo")
    lists = request.form.getlist("cards")
    if not uploads:
        fail(400, "no photos: send each as a multipart field 'photo'")
    if len(uploads) > MAX_CALIBRATION_PHOTOS:
        fail(400, f"at most {MAX_CALIBRATION_PHOTOS} photos at once, got {len(uploads)}")
    if len(lists) != len(uploads):
        fail(400, f"{len(uploads)} photos but {len(lists)} card lists: send one 'cards' field per photo")
    names: list[str] = []
    photos: list[tuple[np.ndarray, list[Card]]] = []
    for number, (upload, text) in enumerate(zip(uploads, lists, strict=True), start=1):
        name = f"photo {number}" + (f" ({upload.filename})" if upload.filename else "")
        cards = read_cards(text, game, name)
        if not cards:
            fail(400, f"{name}: list the cards it shows")
        try:
            image = decode(upload.read())
        except ApiError as error:
            fail(400, f"{name}: {error.message}")
        names.append(name)
        photos.append((image, cards))
    return photos, names


@bp.post("/api/profiles")
def create_profile() -> Any:
    from vision.profile import CalibrationError, calibrate

    request.max_content_length = MAX_CALIBRATION_BYTES
    if request.mimetype != "multipart/form-data":
        fail(400, "send the photos as multipart/form-data: game, name, and per photo 'photo' and 'cards'")
    name = (request.form.get("name") or "").strip()
    if not name:
        fail(400, "name the deck (e.g. my-tichu-deck)")
    path = profile_path(name)
    game = read_game(request.form.get("game"))
    with scan_slot():
        photos, names = calibration_photos(game)
        try:
            profile = calibrate(photos, game, names=names)
        except CalibrationError as error:
            fail(400, str(error))
    profile.name = name
    path.parent.mkdir(parents=True, exist_ok=True)
    # Write beside it and rename: a scan never sees half a profile.
    handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    os.close(handle)
    try:
        profile.save(temporary)
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    response = jsonify(_profile_json(name, profile))
    response.status_code = 201
    return response


# -- the pages ----------------------------------------------------------------------------------------


def suggested_photos(game: str) -> list[dict[str, str]]:
    """The calibration photos we suggest: one suit per photo, the special cards with them.

    >>> [step["cards"] for step in suggested_photos("tichu")][0]
    '2j 3j 4j 5j 6j 7j 8j 9j 10j Jj Qj Kj Aj Mahjong'
    >>> len(suggested_photos("standard")), suggested_photos("standard")[-1]["cards"]
    (5, 'BJ RJ')
    """
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    if game == "tichu":
        suits = [
            ("j", "Jade", "Mahjong"),
            ("s", "Sword", "Dog"),
            ("p", "Pagoda", "Phoenix"),
            ("t", "Star", "Dragon"),
        ]
        return [
            {"title": f"{suit} and the {special}", "cards": " ".join([*(r + letter for r in ranks), special])}
            for letter, suit, special in suits
        ]
    steps = [
        {"title": suit, "cards": " ".join(r + letter for r in ranks)}
        for letter, suit in (("c", "Clubs"), ("d", "Diamonds"), ("h", "Hearts"), ("s", "Spades"))
    ]
    steps.append({"title": "The jokers", "cards": "BJ RJ"})
    return steps


@bp.get("/scan")
def scan_page() -> str:
    table_id = request.args.get("table", "")
    players: list[str] | None = None
    store = get_store(current_app)
    if table_id and store.exists(table_id):
        players = store.get_table(table_id).players
    else:
        table_id = ""
    return render_template("scan.html", table_id=table_id, players=players)


@bp.get("/calibrate")
def calibrate_page() -> str:
    return render_template(
        "calibrate.html", steps={game: suggested_photos(game) for game in GAMES}
    )
