"""How well the scanner reads the labelled photos in ``sample_images/``.

``python -m vision.evaluate [--deck PROFILE] [--json] [--errors] [SET_DIR...]`` scans every
image of each set (default: every set in ``sample_images/`` except the calibration photos)
and prints per set: images, cards, precision, recall, exact-image rate (every card right and
nothing extra), exact-points rate (the card points add up to the truth) and milliseconds per
image (median and 95th percentile, scanning only, not reading the file).

With ``--misses`` it also says what became of each missed card whose labels mark the index
corners that show (``index_corners``, as the synthetic sets have them): the scanner read
nothing there ("unread"), read another card there ("misread"), read it right but laid its
card elsewhere ("laid elsewhere", a false card too), or no index of it shows.

A set is a folder with JPEGs and ``labels.json`` = {"game", "images": [{"file", "cards":
[{"card", "corners", "index_corners" (optional)}], ...}]}. A set whose labels name a
``calibration_manifest`` is scanned with a profile calibrated from that manifest (as a user
would, with ``trickmate calibrate``) unless ``--deck`` is given or ``--no-calibrate``.

Matching a prediction to a label: the same card, and the prediction's corner centroid lies
inside the label's card outline or the two outlines overlap with IoU > 0.3. Each label is
matched at most once, predictions taken by falling confidence.

>>> square = [[0, 0], [10, 0], [10, 10], [0, 10]]
>>> truth = [Truth("Kj", np.array(square, np.float32))]
>>> predicted = [Prediction("Kj", np.array(square, np.float32) + 2), Prediction("Kj", np.array(square) + 50)]
>>> match_cards(predicted, truth)
[(0, 0)]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, NamedTuple

import cv2
import numpy as np

from companion.cards import Card, Deck

IOU_MATCH = 0.3
DEFAULT_SETS_DIR = Path(__file__).resolve().parent.parent / "sample_images"
SKIPPED_BY_DEFAULT = ("calibration",)  # photos to calibrate from, not to score


@dataclass(frozen=True)
class Prediction:
    """A card the scanner reports: ``corners`` (4, 2) in image pixels."""

    card: str
    corners: np.ndarray
    confidence: float = 1.0


@dataclass(frozen=True)
class Truth:
    """A labelled card: ``corners`` (4, 2), the card outline in image pixels, and the
    outlines (4, 2) of its index corners that show, where labelled."""

    card: str
    corners: np.ndarray
    index_corners: tuple[np.ndarray, ...] = ()


@dataclass(frozen=True)
class IndexSeen:
    """An index (or a special's mark) the scanner read, whatever card it made of it: the card
    the index names and its (2,) centre in image pixels."""

    card: str
    center: np.ndarray


class Scanned(NamedTuple):
    """What a predictor may return instead of its predictions alone: those and the indices it
    read on the way (for :func:`miss_kinds`)."""

    predictions: list[Prediction]
    seen: list[IndexSeen]


@dataclass(frozen=True)
class ImageOutcome:
    """How one image went."""

    file: str
    truths: int
    predictions: int
    matched: int
    exact: bool
    points_exact: bool
    ms: float
    missed: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()
    family: str = ""  # the deck family of a synthetic photo, when labelled
    missed_kinds: tuple[str, ...] = ()  # what became of each missed card (:func:`miss_kinds`)


@dataclass(frozen=True)
class SetSummary:
    """The figures of one set. Precision is 1 when nothing was predicted; recall is 1 when
    there was nothing to find."""

    name: str
    images: int
    cards: int
    predictions: int
    matched: int
    precision: float
    recall: float
    exact_image_rate: float
    exact_points_rate: float
    ms_median: float
    ms_p95: float
    profile: str = "builtin"
    errors: list[str] = field(default_factory=list)


Predictor = Callable[[np.ndarray, str], list[Prediction] | Scanned]

#: What became of a missed card (:func:`miss_kinds`).
NO_INDEX, UNREAD, MISREAD, LAID_ELSEWHERE = "no index showing", "unread", "misread", "laid elsewhere"
MISS_KINDS = (UNREAD, MISREAD, LAID_ELSEWHERE, NO_INDEX)


# --- pure matching and metrics ---------------------------------------------------------------


def polygon_area(polygon: np.ndarray) -> float:
    """Area of a simple polygon (N, 2) by the shoelace formula.

    >>> polygon_area(np.array([[0, 0], [4, 0], [4, 3], [0, 3]]))
    12.0
    """
    x, y = np.asarray(polygon, np.float64).T
    return float(abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) / 2)


def polygon_iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of the convex hulls of two polygons (N, 2).

    >>> square = np.array([[0, 0], [2, 0], [2, 2], [0, 2]], np.float32)
    >>> polygon_iou(square, square), round(polygon_iou(square, square + [1, 0]), 3)
    (1.0, 0.333)
    """
    hull_a = cv2.convexHull(np.asarray(a, np.float32).reshape(-1, 1, 2))
    hull_b = cv2.convexHull(np.asarray(b, np.float32).reshape(-1, 1, 2))
    area_a, area_b = polygon_area(hull_a.reshape(-1, 2)), polygon_area(hull_b.reshape(-1, 2))
    if area_a <= 0 or area_b <= 0:
        return 0.0
    inter, _ = cv2.intersectConvexConvex(hull_a, hull_b)
    union = area_a + area_b - float(inter)
    return float(inter) / union if union > 0 else 0.0


def centroid_inside(prediction: np.ndarray, outline: np.ndarray) -> bool:
    """Whether the centroid of ``prediction``'s corners lies inside (or on) ``outline``."""
    cx, cy = np.asarray(prediction, np.float64).mean(axis=0)
    contour = np.asarray(outline, np.float32).reshape(-1, 1, 2)
    return bool(cv2.pointPolygonTest(contour, (float(cx), float(cy)), False) >= 0)


def match_cards(predictions: Sequence[Prediction], truths: Sequence[Truth]) -> list[tuple[int, int]]:
    """Pairs (prediction index, truth index): same card, and centroid inside or IoU > 0.3.
    Predictions are taken by falling confidence; each takes the unmatched label it
    overlaps most; each label is matched at most once."""
    order = sorted(range(len(predictions)), key=lambda i: -predictions[i].confidence)
    free = set(range(len(truths)))
    pairs: list[tuple[int, int]] = []
    for i in order:
        prediction = predictions[i]
        best: tuple[float, int] | None = None
        for j in sorted(free):
            truth = truths[j]
            if truth.card != prediction.card:
                continue
            iou = polygon_iou(prediction.corners, truth.corners)
            overlaps = iou > IOU_MATCH or centroid_inside(prediction.corners, truth.corners)
            if overlaps and (best is None or iou > best[0]):
                best = (iou, j)
        if best is not None:
            free.discard(best[1])
            pairs.append((i, best[1]))
    return sorted(pairs)


def miss_kinds(truths: Sequence[Truth], missed: Sequence[int], seen: Sequence[IndexSeen]) -> tuple[str, ...]:
    """What became of each ``missed`` truth (indices into ``truths``), by the indices ``seen``:
    each goes to the labelled index corner nearest its centre, within that corner's diagonal
    (at least 10 pixels); a missed card none of whose index corners shows is :data:`NO_INDEX`,
    one with nothing read at them :data:`UNREAD`, one with only other cards read there
    :data:`MISREAD`, and one read right there :data:`LAID_ELSEWHERE` (its card was laid
    where no label matched it).

    >>> index = np.array([[0, 0], [8, 0], [8, 14], [0, 14]], np.float32)
    >>> truths = [Truth("Kj", np.zeros((4, 2)), (index,)), Truth("5s", np.zeros((4, 2)), (index + 40,)),
    ...           Truth("9p", np.zeros((4, 2)), (index + 80,)), Truth("Dog", np.zeros((4, 2)))]
    >>> seen = [IndexSeen("Kj", np.array([5.0, 6.0])), IndexSeen("6s", np.array([43.0, 47.0])),
    ...         IndexSeen("Kt", np.array([60.0, 60.0]))]  # the last far from every index
    >>> miss_kinds(truths, [0, 1, 2, 3], seen)
    ('laid elsewhere', 'misread', 'unread', 'no index showing')
    """
    corners = [
        (j, outline.mean(axis=0), max(float(np.linalg.norm(outline[2] - outline[0])), 10.0))
        for j, truth in enumerate(truths)
        for outline in truth.index_corners
    ]
    read_at: dict[int, list[str]] = {}
    for index in seen:
        if not corners:
            break
        distances = [float(np.linalg.norm(index.center - center)) for _, center, _ in corners]
        nearest = int(np.argmin(distances))
        owner, _, reach = corners[nearest]
        if distances[nearest] <= reach:
            read_at.setdefault(owner, []).append(index.card)
    kinds = []
    for j in missed:
        names = read_at.get(j, [])
        if not truths[j].index_corners:
            kinds.append(NO_INDEX)
        elif truths[j].card in names:
            kinds.append(LAID_ELSEWHERE)
        else:
            kinds.append(MISREAD if names else UNREAD)
    return tuple(kinds)


def card_points_of(cards: Sequence[str], game: str) -> int:
    """Card points of card names of ``game``'s deck (unreadable names count 0).

    >>> card_points_of(["Kj", "5s", "Dragon", "??"], "tichu")
    40
    """
    deck = Deck.TICHU if game == "tichu" else Deck.STANDARD
    total = 0
    for name in cards:
        try:
            total += Card.parse(name, deck).points
        except ValueError:
            continue
    return total


def score_image(
    file: str,
    predictions: Sequence[Prediction],
    truths: Sequence[Truth],
    game: str,
    ms: float = 0.0,
    seen: Sequence[IndexSeen] | None = None,
) -> ImageOutcome:
    """Match one image's predictions to its labels and judge it (with the indices ``seen``,
    also what became of each missed card)."""
    pairs = match_cards(predictions, truths)
    used_predictions = {i for i, _ in pairs}
    used_truths = {j for _, j in pairs}
    missing = [j for j in range(len(truths)) if j not in used_truths]
    missed = tuple(truths[j].card for j in missing)
    extra = tuple(predictions[i].card for i in range(len(predictions)) if i not in used_predictions)
    points_exact = card_points_of([p.card for p in predictions], game) == card_points_of(
        [t.card for t in truths], game
    )
    return ImageOutcome(
        file=file,
        truths=len(truths),
        predictions=len(predictions),
        matched=len(pairs),
        exact=not missed and not extra,
        points_exact=points_exact,
        ms=ms,
        missed=missed,
        extra=extra,
        missed_kinds=miss_kinds(truths, missing, seen) if seen is not None else (),
    )


def summarise(name: str, outcomes: Sequence[ImageOutcome], profile: str = "builtin") -> SetSummary:
    """The set's figures from its images' outcomes.

    >>> good = ImageOutcome("a.jpg", 2, 2, 2, True, True, 10.0)
    >>> bad = ImageOutcome("b.jpg", 2, 3, 1, False, False, 30.0)
    >>> s = summarise("demo", [good, bad])
    >>> (s.precision, s.recall, s.exact_image_rate, s.exact_points_rate, s.ms_median)
    (0.6, 0.75, 0.5, 0.5, 20.0)
    """
    cards = sum(o.truths for o in outcomes)
    predictions = sum(o.predictions for o in outcomes)
    matched = sum(o.matched for o in outcomes)
    times = np.array([o.ms for o in outcomes], np.float64)
    count = len(outcomes)
    return SetSummary(
        name=name,
        images=count,
        cards=cards,
        predictions=predictions,
        matched=matched,
        precision=round(matched / predictions, 4) if predictions else 1.0,
        recall=round(matched / cards, 4) if cards else 1.0,
        exact_image_rate=round(sum(o.exact for o in outcomes) / count, 4) if count else 0.0,
        exact_points_rate=round(sum(o.points_exact for o in outcomes) / count, 4) if count else 0.0,
        ms_median=round(float(np.median(times)), 1) if count else 0.0,
        ms_p95=round(float(np.percentile(times, 95)), 1) if count else 0.0,
        profile=profile,
    )


# --- reading sets and running the scanner ----------------------------------------------------


def load_labels(set_dir: Path) -> dict[str, Any]:
    """The set's labels.json, checked for the fields evaluation needs."""
    path = set_dir / "labels.json"
    try:
        labels = json.loads(path.read_text())
    except FileNotFoundError:
        raise ValueError(f"{set_dir}: no labels.json: not a labelled set") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: not valid JSON ({error})") from None
    if labels.get("game") not in ("tichu", "standard") or not isinstance(labels.get("images"), list):
        raise ValueError(f"{path}: needs a 'game' (tichu or standard) and a list of 'images'")
    return dict(labels)


def truths_of(entry: dict[str, Any]) -> list[Truth]:
    return [
        Truth(
            str(c["card"]),
            np.asarray(c["corners"], np.float32),
            tuple(np.asarray(outline, np.float32) for outline in c.get("index_corners", [])),
        )
        for c in entry.get("cards", [])
    ]


def evaluate_set(
    set_dir: Path,
    predictor: Predictor,
    name: str | None = None,
    profile: str = "builtin",
    read: Callable[[Path], np.ndarray] | None = None,
) -> tuple[SetSummary, list[ImageOutcome]]:
    """Scan every labelled image of ``set_dir`` with ``predictor`` (image, game) and score
    it. ``read`` reads an image file (default: vision.io.read_image). Predicted corners (and
    the centres of indices seen, from a predictor returning :class:`Scanned`) are scaled back
    if the reader shrank the image."""
    if read is None:
        from vision.io import read_image

        read = read_image
    labels = load_labels(set_dir)
    game = str(labels["game"])
    outcomes: list[ImageOutcome] = []
    errors: list[str] = []
    for entry in labels["images"]:
        file = str(entry["file"])
        truths = truths_of(entry)
        try:
            image = read(set_dir / file)
        except Exception as error:  # a broken sample counts as a miss, and is reported
            errors.append(f"{file}: {error}")
            outcomes.append(replace(score_image(file, [], truths, game), family=str(entry.get("family", ""))))
            continue
        start = time.perf_counter()
        scanned = predictor(image, game)
        ms = (time.perf_counter() - start) * 1000
        predictions, seen = scanned if isinstance(scanned, Scanned) else (scanned, None)
        width = entry.get("width")
        if width and image.shape[1] != width:
            factor = float(width) / image.shape[1]
            predictions = [Prediction(p.card, p.corners * factor, p.confidence) for p in predictions]
            if seen is not None:
                seen = [IndexSeen(index.card, index.center * factor) for index in seen]
        outcome = score_image(file, predictions, truths, game, ms, seen)
        outcomes.append(replace(outcome, family=str(entry.get("family", ""))))
    summary = summarise(name or set_dir.name, outcomes, profile)
    summary.errors.extend(errors)
    return summary, outcomes


def scanner_predictor(profile: Any = None, census: bool = False) -> Predictor:
    """The real scanner (vision.scan.scan_image) as a predictor, with an optional profile;
    with ``census``, it returns :class:`Scanned`, with the indices it read (its working
    readings, :func:`vision.scan.find_cards`), timed the same."""
    from vision.scan import find_cards, scan_image

    def predictions_of(cards: Sequence[Any]) -> list[Prediction]:
        return [
            Prediction(str(found.card), np.asarray(found.corners, np.float32), float(found.confidence))
            for found in cards
        ]

    def predict(image: np.ndarray, game: str) -> list[Prediction] | Scanned:
        if not census:
            return predictions_of(scan_image(image, game, profile).cards)
        cards, working = find_cards(image, game, profile if profile is None or profile.game == game else None)
        scale = float(working["scale"])
        seen = [
            IndexSeen(str(reading.card(game)), np.asarray(reading.center, np.float64) * scale)
            for reading in working["readings"]
        ]
        return Scanned(predictions_of(cards), seen)

    return predict


def calibrated_profile(manifest: Path, game: str) -> Any:
    """A profile learnt from a calibration manifest (CONTRACTS section 4), as `trickmate
    calibrate` would make it."""
    from companion.cards import parse_cards
    from vision.io import read_image
    from vision.profile import calibrate

    document = json.loads(manifest.read_text())
    deck = Deck.TICHU if game == "tichu" else Deck.STANDARD
    photos = [
        (read_image(manifest.parent / photo["file"]), parse_cards(photo["cards"], deck))
        for photo in document["photos"]
    ]
    names = [str(photo["file"]) for photo in document["photos"]]
    return calibrate(photos, game, names)


def default_sets(root: Path = DEFAULT_SETS_DIR) -> list[Path]:
    """Every labelled set under ``root`` except the calibration photos, sorted by name."""
    if not root.is_dir():
        return []
    return sorted(
        p for p in root.iterdir() if (p / "labels.json").is_file() and p.name not in SKIPPED_BY_DEFAULT
    )


def by_family(set_name: str, outcomes: Sequence[ImageOutcome], profile: str = "builtin") -> list[SetSummary]:
    """The figures of each deck family within a set, named "set/family".

    >>> a = ImageOutcome("a.jpg", 1, 1, 1, True, True, 5.0, family="lantern")
    >>> b = ImageOutcome("b.jpg", 1, 0, 0, False, False, 5.0, family="scroll")
    >>> [(s.name, s.recall) for s in by_family("demo", [a, b])]
    [('demo/lantern', 1.0), ('demo/scroll', 0.0)]
    """
    names = sorted({o.family for o in outcomes if o.family})
    return [
        summarise(f"{set_name}/{name}", [o for o in outcomes if o.family == name], profile) for name in names
    ]


def format_table(summaries: Sequence[SetSummary]) -> str:
    """The figures as an aligned text table."""
    header = (
        f"{'set':<28} {'profile':<10} {'images':>6} {'cards':>6} {'precision':>9} {'recall':>7} "
        f"{'exact-img':>9} {'exact-pts':>9} {'ms-med':>7} {'ms-p95':>7}"
    )
    lines = [header]
    for s in summaries:
        lines.append(
            f"{s.name:<28} {s.profile:<10} {s.images:>6} {s.cards:>6} {s.precision:>9.3f} {s.recall:>7.3f} "
            f"{s.exact_image_rate:>9.3f} {s.exact_points_rate:>9.3f} {s.ms_median:>7.1f} {s.ms_p95:>7.1f}"
        )
    return "\n".join(lines)


def format_misses(name: str, outcomes: Sequence[ImageOutcome], game: str) -> str:
    """One line: how many cards of a set were missed, and of what kind (:func:`miss_kinds`),
    with how many of each were special cards (Tichu's four, jokers).

    >>> a = ImageOutcome("a.jpg", 3, 1, 0, False, False, 5.0, missed=("Kj", "Dragon", "5s"),
    ...                  missed_kinds=("unread", "unread", "misread"))
    >>> format_misses("demo", [a], "tichu")
    'demo: 3 missed: 2 unread (1 special), 1 misread, 0 laid elsewhere, 0 no index showing'
    """
    deck = Deck.TICHU if game == "tichu" else Deck.STANDARD
    counts = {kind: [0, 0] for kind in MISS_KINDS}
    for outcome in outcomes:
        for card, kind in zip(outcome.missed, outcome.missed_kinds, strict=False):
            counts[kind][0] += 1
            counts[kind][1] += Card.parse(card, deck).special is not None
    missed = sum(len(o.missed) for o in outcomes)
    parts = [
        f"{total} {kind}" + (f" ({special} special)" if special else "")
        for kind, (total, special) in counts.items()
    ]
    return f"{name}: {missed} missed: " + ", ".join(parts)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.evaluate", description=__doc__.split("\n\n")[0])
    parser.add_argument("sets", nargs="*", type=Path, help="set folders (default: all in sample_images/)")
    parser.add_argument(
        "--deck", type=Path, help="a deck profile made by `trickmate calibrate`, for every set"
    )
    parser.add_argument("--no-calibrate", action="store_true", help="ignore calibration manifests of sets")
    parser.add_argument("--json", action="store_true", help="write the figures as JSON to standard output")
    parser.add_argument("--errors", action="store_true", help="list each image's missed and extra cards")
    parser.add_argument("--by-family", action="store_true", help="also give the figures per deck family")
    parser.add_argument(
        "--misses",
        action="store_true",
        help="also say what became of each missed card (unread, misread, ...)",
    )
    args = parser.parse_args(argv)
    from vision.process import prepare_for_scanning

    prepare_for_scanning()  # as `trickmate scan` does: its times are the ones reported

    sets = list(args.sets) or default_sets()
    if not sets:
        print(f"no labelled sets found (looked in {DEFAULT_SETS_DIR})", file=sys.stderr)
        return 2
    deck_profile = None
    if args.deck is not None:
        from companion.errors import TrickmateError
        from vision.profile import DeckProfile

        try:
            deck_profile = DeckProfile.load(args.deck)
        except (TrickmateError, OSError) as error:
            print(f"error: cannot use the deck profile {args.deck}: {error}", file=sys.stderr)
            return 2
    summaries: list[SetSummary] = []
    family_summaries: list[SetSummary] = []
    # (Per set in the order given: two sets may share a folder name.)
    details: list[tuple[str, list[ImageOutcome], str]] = []
    for set_dir in sets:
        try:
            labels = load_labels(set_dir)
        except ValueError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        profile, profile_name = deck_profile, ("deck" if deck_profile is not None else "builtin")
        manifest = labels.get("calibration_manifest")
        if profile is None and manifest and not args.no_calibrate:
            from companion.errors import TrickmateError

            try:
                profile, profile_name = (
                    calibrated_profile(set_dir / manifest, str(labels["game"])),
                    "calibrated",
                )
            except TrickmateError as error:  # scored uncalibrated, and said so
                print(
                    f"{set_dir.name}: calibration failed, using the built-in profile: {error}",
                    file=sys.stderr,
                )
                profile_name = "uncalib"
        summary, outcomes = evaluate_set(
            set_dir, scanner_predictor(profile, args.misses), profile=profile_name
        )
        summaries.append(summary)
        if args.by_family:
            family_summaries.extend(by_family(summary.name, outcomes, profile_name))
        details.append((summary.name, outcomes, str(labels["game"])))
        for problem in summary.errors:
            print(f"{summary.name}: could not read {problem}", file=sys.stderr)
    if args.json:
        document: dict[str, Any] = {"sets": {s.name: asdict(s) for s in summaries}}
        if args.by_family:
            document["families"] = {s.name: asdict(s) for s in family_summaries}
        if args.errors:
            document["images"] = {name: [asdict(o) for o in found] for name, found, _ in details}
        print(json.dumps(document, indent=2))
    else:
        print(format_table(summaries))
        if args.by_family:
            print(format_table(family_summaries))
        if args.misses:
            for name, found, game in details:
                print(format_misses(name, found, game))
        if args.errors:
            for name, found, _ in details:
                for o in found:
                    if not o.exact:
                        named = o.missed  # with --misses, each with what became of it
                        if o.missed_kinds:
                            kinds = zip(o.missed, o.missed_kinds, strict=True)
                            named = tuple(f"{card} ({kind})" for card, kind in kinds)
                        missed, extra = " ".join(named) or "-", " ".join(o.extra) or "-"
                        print(f"{name}/{o.file}: missed {missed}; extra {extra}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
