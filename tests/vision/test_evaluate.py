"""vision.evaluate: matching and metrics on hand-made predictions, a whole set through a fake
scanner, the command line, and the shipped sample sets' labels."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cards import Card, Deck
from vision import evaluate
from vision.evaluate import (
    ImageOutcome,
    Prediction,
    Truth,
    evaluate_set,
    match_cards,
    polygon_iou,
    score_image,
    summarise,
)


def box(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)


def test_same_card_with_centroid_inside_matches() -> None:
    truths = [Truth("Kj", box(0, 0, 10, 14))]
    assert match_cards([Prediction("Kj", box(2, 2, 6, 6))], truths) == [(0, 0)]  # the index corner only


def test_a_different_card_or_a_distant_one_does_not_match() -> None:
    truths = [Truth("Kj", box(0, 0, 10, 14))]
    assert match_cards([Prediction("Ks", box(0, 0, 10, 14))], truths) == []
    assert match_cards([Prediction("Kj", box(30, 0, 40, 14))], truths) == []
    # Overlapping a little (IoU 0.25), centroid outside: no match.
    assert match_cards([Prediction("Kj", box(6, 0, 16, 14))], truths) == []


def test_iou_above_threshold_matches_even_with_the_centroid_outside() -> None:
    truths = [Truth("5p", box(0, 0, 10, 10))]
    tall = box(0, 0, 10, 30)  # centroid (5, 15) is outside; IoU = 1/3
    assert polygon_iou(tall, truths[0].corners) == pytest.approx(1 / 3, abs=1e-3)
    assert match_cards([Prediction("5p", tall)], truths) == [(0, 0)]


def test_each_label_is_matched_once_and_confidence_decides() -> None:
    truths = [Truth("Kh", box(0, 0, 10, 14))]
    predictions = [Prediction("Kh", box(0, 0, 10, 14), 0.4), Prediction("Kh", box(1, 1, 9, 13), 0.9)]
    assert match_cards(predictions, truths) == [(1, 0)]


def test_two_decks_same_card_each_prediction_takes_its_own_label() -> None:
    truths = [Truth("Kh", box(0, 0, 10, 14)), Truth("Kh", box(20, 0, 30, 14))]
    predictions = [Prediction("Kh", box(21, 1, 29, 13)), Prediction("Kh", box(1, 1, 9, 13))]
    assert match_cards(predictions, truths) == [(0, 1), (1, 0)]


def test_score_image_judges_exactness_and_points() -> None:
    truths = [Truth("Kj", box(0, 0, 10, 14)), Truth("5s", box(20, 0, 30, 14))]
    right = [Prediction("Kj", box(0, 0, 10, 14)), Prediction("5s", box(20, 0, 30, 14))]
    outcome = score_image("a.jpg", right, truths, "tichu", 12.0)
    assert (outcome.matched, outcome.exact, outcome.points_exact) == (2, True, True)
    # A 10 read as a K: wrong card, but the points still add up.
    truths_ten = [Truth("10j", box(0, 0, 10, 14))]
    misread = score_image("b.jpg", [Prediction("Kj", box(0, 0, 10, 14))], truths_ten, "tichu")
    assert (misread.matched, misread.exact, misread.points_exact) == (0, False, True)
    assert misread.missed == ("10j",) and misread.extra == ("Kj",)
    extra = score_image("c.jpg", [*right, Prediction("Dragon", box(50, 0, 60, 14))], truths, "tichu")
    assert (extra.matched, extra.exact, extra.points_exact) == (2, False, False)


def test_summaries_on_empty_and_nothing_found() -> None:
    nothing = ImageOutcome("empty.jpg", 0, 0, 0, True, True, 5.0)
    s = summarise("empty", [nothing])
    assert (s.precision, s.recall, s.exact_image_rate, s.cards) == (1.0, 1.0, 1.0, 0)
    missed = ImageOutcome("m.jpg", 3, 0, 0, False, False, 7.0)
    s = summarise("missed", [nothing, missed])
    assert (s.precision, s.recall, s.exact_image_rate, s.exact_points_rate) == (1.0, 0.0, 0.5, 0.5)
    times = [ImageOutcome(f"{i}.jpg", 0, 0, 0, True, True, float(i)) for i in range(1, 101)]
    s = summarise("times", times)
    assert s.ms_median == 50.5 and s.ms_p95 == pytest.approx(95.05, abs=0.1)


@pytest.fixture
def tiny_set(tmp_path: Path) -> Path:
    """Two small images: one with two cards, one empty table."""
    folder = tmp_path / "tiny"
    folder.mkdir()
    for name in ("one.jpg", "two.jpg"):
        cv2.imwrite(str(folder / name), np.full((60, 80, 3), 90, np.uint8))
    labels = {
        "game": "tichu",
        "images": [
            {
                "file": "one.jpg",
                "width": 80,
                "height": 60,
                "cards": [
                    {"card": "Kj", "corners": box(5, 5, 25, 35).tolist()},
                    {"card": "Dragon", "corners": box(40, 5, 60, 35).tolist()},
                ],
            },
            {"file": "two.jpg", "width": 80, "height": 60, "cards": []},
        ],
    }
    (folder / "labels.json").write_text(json.dumps(labels))
    return folder


def truth_predictor(set_dir: Path) -> evaluate.Predictor:
    """A fake scanner that 'sees' the labelled cards of the image it is given (by its size order)."""
    entries = json.loads((set_dir / "labels.json").read_text())["images"]
    queue = [
        [Prediction(c["card"], np.asarray(c["corners"], np.float32)) for c in e["cards"]] for e in entries
    ]

    def predict(image: np.ndarray, game: str) -> list[Prediction]:
        assert image.shape == (60, 80, 3) and game == "tichu"
        return queue.pop(0)

    return predict


def test_evaluate_set_with_a_perfect_and_a_blind_fake_scanner(tiny_set: Path) -> None:
    perfect, outcomes = evaluate_set(tiny_set, truth_predictor(tiny_set))
    assert (perfect.images, perfect.cards, perfect.precision, perfect.recall) == (2, 2, 1.0, 1.0)
    assert perfect.exact_image_rate == 1.0 and [o.file for o in outcomes] == ["one.jpg", "two.jpg"]
    blind, _ = evaluate_set(tiny_set, lambda image, game: [])
    assert (blind.precision, blind.recall, blind.exact_image_rate, blind.exact_points_rate) == (
        1.0,
        0.0,
        0.5,
        0.5,
    )
    ghost, _ = evaluate_set(tiny_set, lambda image, game: [Prediction("Phoenix", box(0, 0, 9, 9))])
    assert (ghost.matched, ghost.predictions, ghost.precision, ghost.exact_image_rate) == (0, 2, 0.0, 0.0)


def test_evaluate_set_scales_predictions_back_when_the_reader_shrinks(tiny_set: Path) -> None:
    def half_size_reader(path: Path) -> np.ndarray:
        return np.zeros((30, 40, 3), np.uint8)

    def predict(image: np.ndarray, game: str) -> list[Prediction]:  # in the half-size image's pixels
        assert image.shape == (30, 40, 3)
        return [Prediction("Kj", box(2.5, 2.5, 12.5, 17.5))]

    _, outcomes = evaluate_set(tiny_set, predict, read=half_size_reader)
    assert outcomes[0].matched == 1 and outcomes[1].extra == ("Kj",)


def test_an_unreadable_image_counts_as_missed_and_is_reported(tiny_set: Path) -> None:
    (tiny_set / "one.jpg").write_bytes(b"not a jpeg")
    summary, outcomes = evaluate_set(tiny_set, lambda image, game: [])
    assert outcomes[0].missed == ("Kj", "Dragon") and summary.errors and "one.jpg" in summary.errors[0]


def test_command_line_prints_a_table_and_json(
    tiny_set: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def scanner(profile: object = None, census: bool = False) -> evaluate.Predictor:
        return truth_predictor(tiny_set)

    monkeypatch.setattr(evaluate, "scanner_predictor", scanner)
    assert evaluate.main([str(tiny_set)]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].split()[:4] == ["set", "profile", "images", "cards"]
    assert table[1].split()[:6] == ["tiny", "builtin", "2", "2", "1.000", "1.000"]
    monkeypatch.setattr(evaluate, "scanner_predictor", scanner)
    assert evaluate.main(["--json", str(tiny_set)]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["sets"]["tiny"]["recall"] == 1.0 and document["sets"]["tiny"]["images"] == 2
    assert evaluate.main([str(tiny_set.parent / "missing")]) == 2
    assert "no labels.json" in capsys.readouterr().err
    (tiny_set.parent / "junk.profile").write_bytes(b"not a profile")
    assert evaluate.main(["--deck", str(tiny_set.parent / "junk.profile"), str(tiny_set)]) == 2
    assert "cannot use the deck profile" in capsys.readouterr().err


def test_misses_say_what_became_of_each_missed_card(
    tiny_set: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The K of Jade's index corner is labelled; the Dragon shows none.  A scanner that read
    # the K right but laid it elsewhere, then one that read a Q there, then one blind.
    labels = json.loads((tiny_set / "labels.json").read_text())
    labels["images"][0]["cards"][0]["index_corners"] = [box(6, 6, 11, 16).tolist()]
    (tiny_set / "labels.json").write_text(json.dumps(labels))

    def scanner(name: str | None) -> evaluate.Predictor:
        def predict(image: np.ndarray, game: str) -> evaluate.Scanned:
            seen = [evaluate.IndexSeen(name, np.array([8.5, 11.0]))] if name else []
            laid = [Prediction(name, box(50, 40, 70, 58))] if name else []
            return evaluate.Scanned(laid, seen)

        return predict

    kinds = [evaluate_set(tiny_set, scanner(name))[1][0].missed_kinds for name in ("Kj", "Qj", None)]
    assert kinds == [
        ("laid elsewhere", "no index showing"),
        ("misread", "no index showing"),
        ("unread", "no index showing"),
    ]
    monkeypatch.setattr(evaluate, "scanner_predictor", lambda profile=None, census=False: scanner("Qj"))
    assert evaluate.main(["--misses", "--errors", str(tiny_set)]) == 0
    out = capsys.readouterr().out
    assert "tiny: 2 missed: 0 unread, 1 misread, 0 laid elsewhere, 1 no index showing (1 special)" in out
    assert "tiny/one.jpg: missed Kj (misread) Dragon (no index showing); extra Qj" in out


def test_the_real_scanner_reports_the_indices_it_read_where_they_lie() -> None:
    # A sample photo of the held-out Tichu families, read with the built-in profile: the
    # cards it finds were read at their labelled index corners.
    folder = SAMPLES / "tichu_heldout"
    entry = json.loads((folder / "labels.json").read_text())["images"][0]
    from vision.io import read_image

    scanned = evaluate.scanner_predictor(census=True)(read_image(folder / entry["file"]), "tichu")
    assert isinstance(scanned, evaluate.Scanned) and scanned.predictions
    truths = evaluate.truths_of(entry)
    found = {truths[j].card for _, j in evaluate.match_cards(scanned.predictions, truths)}
    read_right = {
        truth.card
        for truth in truths
        for outline in truth.index_corners
        for index in scanned.seen
        if index.card == truth.card and float(np.linalg.norm(index.center - outline.mean(axis=0))) < 15
    }
    assert found and found <= read_right


SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"


def test_the_shipped_sample_sets_are_small_and_well_formed() -> None:
    sets = sorted(p for p in SAMPLES.iterdir() if (p / "labels.json").is_file())
    names = {p.name for p in sets}
    assert {"tichu_seen", "tichu_heldout", "standard_heldout", "calibration", "calibration_scenes"} <= names
    assert "calibration" not in {p.name for p in evaluate.default_sets(SAMPLES)}
    total = 0
    for set_dir in sets:
        labels = evaluate.load_labels(set_dir)
        deck = Deck.TICHU if labels["game"] == "tichu" else Deck.STANDARD
        assert 4 <= len(labels["images"]) <= 60, set_dir.name
        for entry in labels["images"]:
            path = set_dir / entry["file"]
            assert path.stat().st_size < 400_000, path
            for card in entry["cards"]:
                assert str(Card.parse(card["card"], deck)) == card["card"]
                corners = np.asarray(card["corners"])
                assert corners.shape == (4, 2)
                assert np.all(corners[:, 0] > -3) and np.all(corners[:, 0] < entry["width"] + 3)
        held = {entry["held_out"] for entry in labels["images"]}
        assert held == ({False} if set_dir.name == "tichu_seen" else {True}), set_dir.name
        total += sum(f.stat().st_size for f in set_dir.iterdir())
    assert total < 24_000_000  # seven sets of about 3.5 MB
    manifest = json.loads((SAMPLES / "calibration" / "manifest.json").read_text())
    assert len(manifest["photos"]) == 4
    assert all(len(photo["cards"].split()) == 14 for photo in manifest["photos"])
    seen = {card for photo in manifest["photos"] for card in photo["cards"].split()}
    assert len(seen) == 56


def test_a_set_with_a_calibration_manifest_is_scanned_with_the_learnt_profile(
    tiny_set: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    labels = json.loads((tiny_set / "labels.json").read_text())
    labels["calibration_manifest"] = "manifest.json"
    (tiny_set / "labels.json").write_text(json.dumps(labels))
    learnt = object()
    given: list[object] = []
    monkeypatch.setattr(evaluate, "calibrated_profile", lambda manifest, game: learnt)

    def predictor(profile: object = None, census: bool = False) -> evaluate.Predictor:
        given.append(profile)
        return truth_predictor(tiny_set)

    monkeypatch.setattr(evaluate, "scanner_predictor", predictor)
    assert evaluate.main(["--json", str(tiny_set)]) == 0
    assert (
        given == [learnt] and json.loads(capsys.readouterr().out)["sets"]["tiny"]["profile"] == "calibrated"
    )
    assert evaluate.main(["--no-calibrate", str(tiny_set)]) == 0
    assert given[-1] is None

    def failing(manifest: Path, game: str) -> object:
        from vision.profile import CalibrationError

        raise CalibrationError("calibration_2.jpg: found 12 cards but the list names 14")

    monkeypatch.setattr(evaluate, "calibrated_profile", failing)
    assert evaluate.main([str(tiny_set)]) == 0
    captured = capsys.readouterr()
    assert "calibration failed" in captured.err and "calibration_2.jpg" in captured.err
    assert "uncalib" in captured.out and given[-1] is None
