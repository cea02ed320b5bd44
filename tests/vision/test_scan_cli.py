"""`trickmate scan` run as a real subprocess on generated photos."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from tests.vision.conftest import draw_card, paste, table

TRICKMATE = str(Path(sys.executable).with_name("trickmate"))


def scan(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([TRICKMATE, "scan", *args], capture_output=True, text=True, timeout=120)


def test_scan_writes_one_line_per_image_in_order_and_flags_bad_ones(tmp_path: Path) -> None:
    pair = table(500, 700)
    paste(pair, draw_card("K", "hearts", 1.3), (200, 250), 10)
    paste(pair, draw_card("K", "spades", 1.3), (480, 250), -15)
    cv2.imwrite(str(tmp_path / "pair.jpg"), pair, [cv2.IMWRITE_JPEG_QUALITY, 92])
    cv2.imwrite(str(tmp_path / "empty.png"), table(300, 400))
    (tmp_path / "broken.jpg").write_bytes(b"\xff\xd8\xff\xe0 not really a jpeg")
    result = scan("--game", "standard", str(tmp_path / "pair.jpg"), str(tmp_path / "broken.jpg"),
                  str(tmp_path / "empty.png"))
    assert result.returncode == 1
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    names = ("pair.jpg", "broken.jpg", "empty.png")
    assert [line["image"] for line in lines] == [str(tmp_path / n) for n in names]
    first, broken, empty = lines
    assert set(first) == {"image", "cards", "combination", "points", "ms"}
    assert sorted(card["card"] for card in first["cards"]) == ["Kh", "Ks"]
    assert first["combination"] is None  # not a Tichu game
    assert first["points"] == 20 and first["ms"] > 0
    for card in first["cards"]:
        assert 0 < card["confidence"] <= 1
        assert np.asarray(card["corners"]).shape == (4, 2)
    assert set(broken) == {"image", "error"} and "jpeg" in broken["error"].lower()
    assert empty["cards"] == [] and empty["points"] == 0
    assert "broken.jpg" in result.stderr


def test_corners_are_in_the_files_own_pixels_also_for_a_photo_decoded_at_half_size(tmp_path: Path) -> None:
    # Phones save 48 to 200 megapixel photos; above 16 MP a JPEG is decoded at half size or
    # less, and the corners must still be the photo's own pixels (CONTRACTS section 4).
    photo = table(500, 700)
    paste(photo, draw_card("K", "hearts", 1.3), (200, 250), 10)
    paste(photo, draw_card("5", "spades", 1.3), (480, 250), -15)
    cv2.imwrite(str(tmp_path / "small.jpg"), photo, [cv2.IMWRITE_JPEG_QUALITY, 92])
    big = cv2.resize(photo, None, fx=7, fy=7, interpolation=cv2.INTER_LINEAR)  # 4900 x 3500: 17 MP
    cv2.imwrite(str(tmp_path / "big.jpg"), big, [cv2.IMWRITE_JPEG_QUALITY, 92])
    result = scan("--game", "standard", str(tmp_path / "small.jpg"), str(tmp_path / "big.jpg"))
    assert result.returncode == 0, result.stderr
    small_line, big_line = (json.loads(line) for line in result.stdout.splitlines())

    def centres(line: dict[str, Any]) -> dict[str, np.ndarray]:
        return {card["card"]: np.mean(card["corners"], axis=0) for card in line["cards"]}

    small_centres, big_centres = centres(small_line), centres(big_line)
    assert sorted(small_centres) == sorted(big_centres) == ["5s", "Kh"]
    for card, centre in small_centres.items():
        # The cards' centres (pasted at x 200 and 480) seven times as far out, within 1%.
        assert np.linalg.norm(big_centres[card] - 7 * centre) < 0.01 * 7 * 700, (card, big_centres[card])
    assert abs(small_centres["Kh"][0] - 200) < 15 and abs(small_centres["5s"][0] - 480) < 15


def test_a_tichu_scan_names_the_combination(tmp_path: Path) -> None:
    # Two Tichu cards drawn with the star suit: a pair of 7s is not possible with one star
    # suit, so a single K star and its combination "single".
    photo = table(400, 400)
    paste(photo, draw_card("K", "star", 1.4), (200, 200), 0)
    cv2.imwrite(str(tmp_path / "single.png"), photo)
    result = scan(str(tmp_path / "single.png"))
    assert result.returncode == 0, result.stderr
    line = json.loads(result.stdout)
    assert [card["card"] for card in line["cards"]] == ["Kt"]
    assert line["combination"] == {"kind": "single", "rank": 13, "length": 1}
    assert line["points"] == 10


def test_a_missing_profile_is_a_clear_error(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "a.png"), table(100, 100))
    result = scan("--deck", str(tmp_path / "nope.npz"), str(tmp_path / "a.png"))
    assert result.returncode == 2
    assert "nope.npz" in result.stderr and result.stdout == ""


def test_a_heic_photo_from_an_iphone_is_scanned_like_a_jpeg(tmp_path: Path) -> None:
    from tests.vision.test_io import heic

    photo = table(500, 700)
    paste(photo, draw_card("K", "hearts", 1.3), (200, 250), 10)
    paste(photo, draw_card("5", "spades", 1.3), (480, 250), -15)
    (tmp_path / "IMG_0001.HEIC").write_bytes(heic(photo))
    result = scan("--game", "standard", str(tmp_path / "IMG_0001.HEIC"))
    assert result.returncode == 0, result.stderr
    (line,) = (json.loads(text) for text in result.stdout.splitlines())
    assert sorted(card["card"] for card in line["cards"]) == ["5s", "Kh"] and line["points"] == 15
