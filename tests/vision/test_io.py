"""vision.io: every bad input is a clear ImageError; big photos are downscaled."""

from __future__ import annotations

import io
import struct
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.io import (
    MAX_DECODED_PIXELS,
    ImageError,
    declared_size,
    decode_image,
    decode_photo,
    read_image,
    read_photo,
)


def jpeg(height: int, width: int, value: int = 128) -> bytes:
    ok, data = cv2.imencode(".jpg", np.full((height, width, 3), value, np.uint8))
    assert ok
    return data.tobytes()


def png(image: np.ndarray) -> bytes:
    ok, data = cv2.imencode(".png", image)
    assert ok
    return data.tobytes()


def test_a_jpeg_decodes_to_bgr_pixels() -> None:
    image = np.zeros((30, 40, 3), np.uint8)
    image[:, :, 2] = 200  # red in BGR
    _, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    decoded = decode_image(data.tobytes())
    assert decoded.shape == (30, 40, 3) and decoded.dtype == np.uint8
    assert abs(int(decoded[15, 20, 2]) - 200) <= 3 and int(decoded[15, 20, 0]) <= 5


def test_grey_and_transparent_pngs_become_three_channels() -> None:
    assert decode_image(png(np.full((10, 12), 77, np.uint8))).shape == (10, 12, 3)
    rgba = np.zeros((10, 12, 4), np.uint8)
    rgba[..., 1] = 90
    rgba[..., 3] = 255
    decoded = decode_image(png(rgba))
    assert decoded.shape == (10, 12, 3) and int(decoded[5, 5, 1]) == 90


def test_empty_input_is_an_error() -> None:
    with pytest.raises(ImageError, match="empty"):
        decode_image(b"")


@pytest.mark.parametrize("data", [b"%PDF-1.4 not a photo", b"\x00" * 100, "héllo".encode(), b"GIF89"])
def test_bytes_that_are_no_image_are_an_error(data: bytes) -> None:
    with pytest.raises(ImageError, match=r"not an image|damaged|cannot decode"):
        decode_image(data)


def test_a_truncated_jpeg_is_an_error() -> None:
    data = jpeg(200, 300)
    for cut in (len(data) // 2, len(data) - 10, 30):
        with pytest.raises(ImageError, match=r"truncated|damaged"):
            decode_image(data[:cut])


def test_a_png_cut_short_is_an_error() -> None:
    data = png(np.random.default_rng(0).integers(0, 255, (50, 50, 3), dtype=np.uint8))
    with pytest.raises(ImageError):
        decode_image(data[: len(data) // 2])


def test_the_jpeg_header_size_is_read_without_decoding() -> None:
    assert declared_size(jpeg(123, 456)) == (456, 123)


def _with_jpeg_size(data: bytes, width: int, height: int) -> bytes:
    """The JPEG with its frame header claiming another size (the pixels stay small)."""
    buffer = bytearray(data)
    pos = 2
    while True:
        marker = buffer[pos + 1]
        length = struct.unpack(">H", bytes(buffer[pos + 2 : pos + 4]))[0]
        if 0xC0 <= marker <= 0xC2:
            buffer[pos + 5 : pos + 9] = struct.pack(">HH", height, width)
            return bytes(buffer)
        pos += 2 + length


def test_a_100_megapixel_jpeg_is_decoded_downscaled_or_refused_never_full_size() -> None:
    # The header says 10000 x 10000; the decoder must not allocate 300 MB for it.
    data = _with_jpeg_size(jpeg(64, 64), 10000, 10000)
    try:
        image = decode_image(data)
    except ImageError as error:
        assert "image" in str(error)
    else:
        assert image.shape[0] * image.shape[1] <= MAX_DECODED_PIXELS


def test_a_gigapixel_header_is_refused_before_decoding() -> None:
    data = _with_jpeg_size(jpeg(16, 16), 60000, 60000)
    with pytest.raises(ImageError, match="too large"):
        decode_image(data)


def test_a_huge_png_is_refused() -> None:
    data = bytearray(png(np.zeros((8, 8, 3), np.uint8)))
    data[16:24] = struct.pack(">II", 12000, 9000)  # 108 MP declared in IHDR
    with pytest.raises(ImageError, match="too large"):
        decode_image(bytes(data))


def test_a_24_megapixel_jpeg_comes_out_at_a_reduced_scale() -> None:
    image = decode_image(jpeg(4000, 6000))
    assert image.shape == (2000, 3000, 3)


def test_a_photo_says_how_far_it_was_reduced() -> None:
    assert decode_photo(jpeg(40, 60)).scale == 1.0
    photo = decode_photo(jpeg(4000, 6000))
    assert photo.image.shape == (2000, 3000, 3) and photo.scale == 2.0
    # libjpeg rounds a reduced size up: the scale is measured, not assumed.
    odd = decode_photo(jpeg(4001, 6001))
    assert odd.image.shape == (2001, 3001, 3)
    assert abs(odd.scale * odd.image.shape[1] - 6001) < 1e-6


def test_a_large_png_is_shrunk_and_says_by_how_much(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("vision.io.MAX_DECODED_PIXELS", 100 * 100)
    photo = decode_photo(png(np.zeros((200, 300, 3), np.uint8)))
    assert photo.image.shape[0] * photo.image.shape[1] <= 1.01 * 100 * 100  # (sizes round)
    assert abs(photo.scale * photo.image.shape[1] - 300) < 1.0


def test_read_photo_is_read_image_with_its_scale(tmp_path: Path) -> None:
    path = tmp_path / "big.jpg"
    path.write_bytes(jpeg(4000, 6000))
    photo = read_photo(path)
    assert photo.scale == 2.0 and np.array_equal(photo.image, read_image(path))


def test_read_image_names_the_file_in_errors(tmp_path: Path) -> None:
    with pytest.raises(ImageError, match="no such file"):
        read_image(tmp_path / "missing.jpg")
    with pytest.raises(ImageError, match="folder"):
        read_image(tmp_path)
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    with pytest.raises(ImageError, match=r"empty\.jpg: the image is empty"):
        read_image(empty)
    good = tmp_path / "good.jpg"
    good.write_bytes(jpeg(20, 30))
    assert read_image(good).shape == (20, 30, 3)


def sideways_jpeg(height: int, width: int) -> bytes:
    """A phone photo as phones save it when held upright: the sensor's pixels (white left
    half, black right half) and an EXIF orientation of 6, "turn a quarter clockwise to show"."""
    from PIL import Image

    pixels = np.zeros((height, width, 3), np.uint8)
    pixels[:, : width // 2] = 255
    exif = Image.Exif()
    exif[0x0112] = 6  # Orientation
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, "JPEG", exif=exif.tobytes())
    return buffer.getvalue()


@pytest.mark.parametrize(("height", "width", "divisor"), [(40, 60, 1), (3400, 6000, 2)])
def test_a_photo_saved_sideways_is_read_upright(height: int, width: int, divisor: int) -> None:
    # The scan page draws the photo as the browser shows it (EXIF orientation applied), so
    # the card outlines must be found in that frame too, also at a reduced scale.
    photo = decode_photo(sideways_jpeg(height, width))
    image = photo.image
    assert image.shape == (width // divisor, height // divisor, 3)
    assert photo.scale == divisor  # back to the photo as shown: width x height turned upright
    rows = image.shape[0]
    assert image[: rows // 2 - 2].mean() > 240 and image[rows // 2 + 2 :].mean() < 15


def heic(image: np.ndarray, quality: int = 90) -> bytes:
    """(H, W, 3) BGR ``image`` saved as a HEIC photo, as iPhones save them (libheif's encoder)."""
    import pillow_heif

    rgb = cv2.cvtColor(image, cv2.COLOR_BGR2RGB)
    heif = pillow_heif.from_bytes(mode="RGB", size=(rgb.shape[1], rgb.shape[0]), data=rgb.tobytes())
    buffer = io.BytesIO()
    heif.save(buffer, quality=quality)
    return buffer.getvalue()


def test_an_iphone_heic_photo_is_read_as_its_pixels() -> None:
    # OpenCV cannot read HEIC, an iPhone camera's own format: libheif decodes it.
    image = np.zeros((48, 64, 3), np.uint8)
    image[:, :32] = (0, 0, 255)  # red left half, in BGR
    image[:, 32:] = (255, 255, 255)
    data = heic(image)
    assert data[4:12] == b"ftypheic"
    photo = decode_photo(data)
    assert photo.image.shape == (48, 64, 3) and photo.scale == 1.0
    blue, green, red = (int(v) for v in photo.image[24, 10])
    assert red > 200 and blue < 60 and green < 60
    assert photo.image[24, 50].min() > 200


def test_a_heic_photo_is_shrunk_refused_or_reported_damaged_clearly(monkeypatch: pytest.MonkeyPatch) -> None:
    image = np.full((120, 160, 3), 200, np.uint8)
    data = heic(image)
    monkeypatch.setattr("vision.io.MAX_DECODED_PIXELS", 120 * 160 // 4)
    photo = decode_photo(data)
    assert photo.image.shape == (60, 80, 3) and photo.scale == 2.0
    monkeypatch.setattr("vision.io.MAX_HEIF_PIXELS", 120 * 160 - 1)
    with pytest.raises(ImageError, match=r"too large \(160x120 pixels\).*HEIC"):
        decode_photo(data)
    with pytest.raises(ImageError, match="damaged or truncated HEIC"):
        decode_photo(data[: len(data) // 2])
    with pytest.raises(ImageError, match="damaged or truncated HEIC"):
        decode_photo(data[:40])
