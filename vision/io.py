"""Reading image files: the only place in trickmate where image bytes are decoded.

Every failure becomes an :class:`ImageError` with a message a user understands:
an empty file, bytes that are no image, a truncated JPEG, an image too large to
decode.  Large JPEGs are decoded at a reduced scale by libjpeg itself (1/2, 1/4 or
1/8), so a 100-megapixel photo never needs 300 MB of pixels.  HEIC photos (an
iPhone's own format) are decoded by libheif through pillow-heif, which OpenCV cannot
read.

>>> decode_image(b"")
Traceback (most recent call last):
...
vision.io.ImageError: the image is empty (0 bytes)
>>> decode_image(b"hello, world")
Traceback (most recent call last):
...
vision.io.ImageError: not an image (unknown file format)
"""

from __future__ import annotations

import io
import struct
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

from companion.errors import TrickmateError

#: Images with more pixels than this are decoded at a reduced scale (12 MP phones fit).
MAX_DECODED_PIXELS = 16_000_000
#: Beyond this many pixels an image that cannot be decoded at reduced scale is refused.
MAX_FULL_DECODE_PIXELS = 40_000_000
#: Beyond this many pixels (declared in the header) nothing is decoded at all.
MAX_DECLARED_PIXELS = 1_000_000_000
#: Files larger than this are refused before reading.
MAX_FILE_BYTES = 200 * 1024 * 1024
#: HEIC photos have no reduced-scale decoding: larger ones are refused (a phone's 48 MP
#: "HEIF Max" photo fits).
MAX_HEIF_PIXELS = 50_000_000
#: The file-type brands of HEIF still images, as phones save them (``ftyp`` box, bytes 8-12).
HEIF_BRANDS = (b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"mif1", b"msf1")


class ImageError(TrickmateError):
    """An image file or upload that cannot be read as a photo."""


class Photo(NamedTuple):
    """A decoded photo: (H, W, 3) uint8 BGR ``image`` and ``scale``, the file's own pixels per
    decoded pixel (2.0 for a large JPEG decoded at half size; 1.0 when decoded whole).
    Positions found in ``image`` times ``scale`` are positions in the photo as its file
    shows it (EXIF orientation applied)."""

    image: np.ndarray
    scale: float


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a JPEG's SOF marker, or None when no frame header is found."""
    pos = 2
    n = len(data)
    while pos + 4 <= n:
        if data[pos] != 0xFF:
            pos += 1
            continue
        marker = data[pos + 1]
        if marker == 0xFF:
            pos += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            pos += 2
            continue
        (length,) = struct.unpack(">H", data[pos + 2 : pos + 4])
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            if pos + 9 > n:
                return None
            height, width = struct.unpack(">HH", data[pos + 5 : pos + 9])
            return int(width), int(height)
        pos += 2 + length
    return None


def image_format(data: bytes) -> str | None:
    """The file format from the first bytes: "jpeg", "png", "bmp", "gif", "webp", "tiff",
    "heif" or None.

    >>> image_format(b"\\xff\\xd8\\xff\\xe0rest"), image_format(b"\\x89PNG\\r\\n\\x1a\\nrest")
    ('jpeg', 'png')
    >>> image_format(b"\\x00\\x00\\x00\\x18ftypheic\\x00\\x00\\x00\\x00mif1")  # an iPhone photo
    'heif'
    >>> image_format(b"abc") is None
    True
    """
    if data[:3] == b"\xff\xd8\xff":
        return "jpeg"
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "png"
    if data[:2] == b"BM":
        return "bmp"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "gif"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    if data[:4] in (b"II*\x00", b"MM\x00*"):
        return "tiff"
    if data[4:8] == b"ftyp" and data[8:12] in HEIF_BRANDS:
        return "heif"
    return None


def declared_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) as the file header declares it, without decoding; None if unknown.

    >>> ok, png = cv2.imencode(".png", np.zeros((7, 5, 3), np.uint8))
    >>> declared_size(png.tobytes())
    (5, 7)
    """
    kind = image_format(data)
    if kind == "jpeg":
        return _jpeg_size(data)
    if kind == "png" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    if kind == "bmp" and len(data) >= 26:
        width, height = struct.unpack("<ii", data[18:26])
        return abs(int(width)), abs(int(height))
    if kind == "gif" and len(data) >= 10:
        width, height = struct.unpack("<HH", data[6:10])
        return int(width), int(height)
    return None


def _reduced_flag(pixels: int) -> tuple[int, int]:
    """The OpenCV read flag and its scale divisor that bring ``pixels`` under the limit."""
    for divisor, flag in (
        (1, cv2.IMREAD_COLOR),
        (2, cv2.IMREAD_REDUCED_COLOR_2),
        (4, cv2.IMREAD_REDUCED_COLOR_4),
        (8, cv2.IMREAD_REDUCED_COLOR_8),
    ):
        if pixels / (divisor * divisor) <= MAX_DECODED_PIXELS:
            return flag, divisor
    return cv2.IMREAD_REDUCED_COLOR_8, 8


def decode_image(data: bytes) -> np.ndarray:
    """Decode image bytes to an (H, W, 3) uint8 BGR array; large images come out downscaled
    (:func:`decode_photo` also says by how much).

    >>> ok, jpg = cv2.imencode(".jpg", np.full((40, 60, 3), 200, np.uint8))
    >>> decode_image(jpg.tobytes()).shape
    (40, 60, 3)
    >>> decode_image(jpg.tobytes()[:-2])
    Traceback (most recent call last):
    ...
    vision.io.ImageError: the JPEG image is truncated (the file ends early)
    """
    return decode_photo(data).image


def decode_photo(data: bytes) -> Photo:
    """:func:`decode_image`, with the scale from the decoded pixels back to the file's own.

    >>> ok, jpg = cv2.imencode(".jpg", np.full((40, 60, 3), 200, np.uint8))
    >>> photo = decode_photo(jpg.tobytes())
    >>> photo.image.shape, photo.scale
    ((40, 60, 3), 1.0)
    """
    if len(data) == 0:
        raise ImageError("the image is empty (0 bytes)")
    if len(data) > MAX_FILE_BYTES:
        raise ImageError(f"the image file is too large ({len(data) // (1024 * 1024)} MB)")
    kind = image_format(data)
    if kind is None:
        raise ImageError("not an image (unknown file format)")
    if kind == "heif":
        return _decode_heif(data)
    size = declared_size(data)
    if kind == "jpeg":
        if size is None:
            raise ImageError("the JPEG image is damaged (no frame header)")
        # A complete JPEG ends with the EOI marker (some writers pad a few bytes after it).
        if b"\xff\xd9" not in data[-64:]:
            raise ImageError("the JPEG image is truncated (the file ends early)")
    flag = cv2.IMREAD_COLOR
    if size is not None:
        width, height = size
        if width <= 0 or height <= 0:
            raise ImageError(f"the image has no pixels ({width}x{height})")
        pixels = width * height
        if pixels > MAX_DECLARED_PIXELS:
            raise ImageError(f"the image is too large ({width}x{height} pixels)")
        if kind == "jpeg":
            flag, _ = _reduced_flag(pixels)
        elif pixels > MAX_FULL_DECODE_PIXELS:
            # PNG and the others cannot be decoded at reduced scale without the full bitmap.
            raise ImageError(
                f"the image is too large ({width}x{height} pixels); "
                f"at most {MAX_FULL_DECODE_PIXELS // 1_000_000} megapixels, or use a JPEG"
            )
    buffer = np.frombuffer(data, dtype=np.uint8)
    try:
        image = cv2.imdecode(buffer, flag)
    except cv2.error as error:  # pragma: no cover - depends on the codec build
        raise ImageError(f"cannot decode the image ({kind}): {error}") from None
    if image is None or image.size == 0:
        raise ImageError(f"cannot decode the image (a damaged {kind} file?)")
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    elif image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.dtype != np.uint8:
        image = cv2.convertScaleAbs(image, alpha=255.0 / max(1.0, float(image.max())))
    pixels = image.shape[0] * image.shape[1]
    shrink = 1.0
    if pixels > MAX_DECODED_PIXELS:
        shrink = (MAX_DECODED_PIXELS / pixels) ** 0.5
        image = cv2.resize(image, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    # The file's own size (turned as its EXIF orientation turns the picture) over the decoded:
    # libjpeg's reduced sizes are rounded up, so the header's size is the exact measure.
    scale = 1.0 / shrink
    if size is not None:
        scale = max(size) / max(image.shape[:2])
    return Photo(np.ascontiguousarray(image), scale)


def _decode_heif(data: bytes) -> Photo:
    """:func:`decode_photo` of a HEIF (HEIC) file: decoded whole by libheif, its rotation
    applied, then shrunk to at most :data:`MAX_DECODED_PIXELS`."""
    import pillow_heif

    try:
        heif = pillow_heif.open_heif(io.BytesIO(data), convert_hdr_to_8bit=True)
        width, height = heif.size
        if width <= 0 or height <= 0:
            raise ImageError(f"the image has no pixels ({width}x{height})")
        if width * height > MAX_HEIF_PIXELS:
            raise ImageError(
                f"the image is too large ({width}x{height} pixels); "
                f"at most {MAX_HEIF_PIXELS // 1_000_000} megapixels in a HEIC photo, or use a JPEG"
            )
        pixels = np.asarray(heif)  # (H, W, 3 or 4) RGB(A), the decoder's own buffer
    except ValueError as error:
        raise ImageError(f"cannot decode the image (a damaged or truncated HEIC file: {error})") from None
    shrink = min(1.0, (MAX_DECODED_PIXELS / (width * height)) ** 0.5)
    if shrink < 1.0:
        # Shrunk before the colour conversion: a 48 MP photo is never copied whole.
        pixels = cv2.resize(pixels, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    code = cv2.COLOR_RGBA2BGR if pixels.shape[2] == 4 else cv2.COLOR_RGB2BGR
    image = cv2.cvtColor(pixels, code)
    return Photo(np.ascontiguousarray(image), max(width, height) / max(image.shape[:2]))


def read_image(path: str | Path) -> np.ndarray:
    """Read an image file to an (H, W, 3) uint8 BGR array, or raise :class:`ImageError`."""
    return read_photo(path).image


def read_photo(path: str | Path) -> Photo:
    """Read an image file as a :class:`Photo`, or raise :class:`ImageError` naming the file."""
    file = Path(path)
    try:
        size = file.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ImageError(f"{file}: the image file is too large ({size // (1024 * 1024)} MB)")
        data = file.read_bytes()
    except FileNotFoundError:
        raise ImageError(f"{file}: no such file") from None
    except IsADirectoryError:
        raise ImageError(f"{file}: is a folder, not an image") from None
    except OSError as error:
        raise ImageError(f"{file}: cannot read the file ({error.strerror or error})") from None
    try:
        return decode_photo(data)
    except ImageError as error:
        raise ImageError(f"{file}: {error}") from None
