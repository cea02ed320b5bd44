"""Text masks for card indices: OpenCV Hershey fonts, and TrueType fonts through Pillow.

Pillow is optional: without it (or without fonts on the machine) only the Hershey faces are
offered. A text mask is a tight ``uint8`` array ``(height, width)``, 255 on the glyphs.

>>> mask = text_mask(FontSpec("hershey", face=0, weight=0.12), "10", 30)
>>> mask.shape[0], mask.shape[1] > 20, int(mask.max())
(30, True, 255)
"""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

# Every Hershey face OpenCV has; italic is a flag added to the face.
HERSHEY_FACES: tuple[int, ...] = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_PLAIN,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_COMPLEX_SMALL,
    cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
    cv2.FONT_HERSHEY_SCRIPT_COMPLEX,
)
FONT_DIRS: tuple[str, ...] = ("/usr/share/fonts", "/usr/local/share/fonts", os.path.expanduser("~/.fonts"))
#: More font folders, separated by os.pathsep (scripts/fetch_fonts.py fills one for training).
FONT_DIRS_VARIABLE = "TRICKMATE_FONT_DIRS"
_REFERENCE_HEIGHT = 64  # glyphs are drawn at this cap height, then scaled
#: TrueType fonts whose file name starts so are reserved for held-out deck families: keep
#: them out of anything trained or tuned, so that held-out evaluation meets unseen type.
HELD_OUT_FONT_PREFIXES: tuple[str, ...] = ("Free",)


def is_held_out_font(path: str) -> bool:
    """Whether a font file is reserved for held-out decks (GNU FreeFont by default).

    >>> is_held_out_font("/usr/share/fonts/FreeSerif.ttf"), is_held_out_font("DejaVuSans.ttf")
    (True, False)
    """
    return os.path.basename(path).startswith(HELD_OUT_FONT_PREFIXES)


@dataclass(frozen=True)
class FontSpec:
    """A font: ``kind`` "hershey" (``face`` from HERSHEY_FACES, ``italic``, ``weight`` = stroke
    thickness relative to the glyph height) or "ttf" (``path`` to a TrueType file)."""

    kind: str
    face: int = 0
    italic: bool = False
    weight: float = 0.1
    path: str = ""

    @property
    def name(self) -> str:
        if self.kind == "ttf":
            return os.path.splitext(os.path.basename(self.path))[0]
        return f"hershey{self.face}{'i' if self.italic else ''}w{self.weight:.2f}"


def _pillow_available() -> bool:
    try:
        import PIL.ImageFont  # noqa: F401
    except ImportError:
        return False
    return True


@lru_cache(maxsize=1)
def truetype_fonts() -> tuple[str, ...]:
    """TrueType fonts usable for card text on this machine (empty without Pillow), sorted."""
    if not _pillow_available():
        return ()
    found: set[str] = set()
    extra = [folder for folder in os.environ.get(FONT_DIRS_VARIABLE, "").split(os.pathsep) if folder]
    for folder in (*FONT_DIRS, *extra):
        for pattern in ("**/*.ttf", "**/*.otf"):
            found.update(glob.glob(os.path.join(folder, pattern), recursive=True))
    # Symbol and math fonts have no usable digits and letters.
    usable = [p for p in found if not any(bad in os.path.basename(p).lower() for bad in ("math", "symbol"))]
    return tuple(sorted(usable))


def _hershey_mask(font: FontSpec, text: str) -> np.ndarray:
    face = font.face | (cv2.FONT_ITALIC if font.italic else 0)
    (_, unit_height), _ = cv2.getTextSize("0", face, 1.0, 1)
    scale = _REFERENCE_HEIGHT / max(1, unit_height)
    thickness = max(1, round(_REFERENCE_HEIGHT * font.weight))
    (width, height), baseline = cv2.getTextSize(text, face, scale, thickness)
    pad = thickness + 8
    canvas = np.zeros((height + baseline + 2 * pad, width + 2 * pad), np.uint8)
    cv2.putText(canvas, text, (pad, pad + height), face, scale, 255, thickness, cv2.LINE_AA)
    return canvas


def _truetype_mask(font: FontSpec, text: str) -> np.ndarray:
    from PIL import Image, ImageDraw, ImageFont

    typeface = ImageFont.truetype(font.path, size=_REFERENCE_HEIGHT * 3 // 2)
    left, top, right, bottom = typeface.getbbox(text)
    image = Image.new("L", (int(right - left) + 16, int(bottom - top) + 16), 0)
    ImageDraw.Draw(image).text((8 - left, 8 - top), text, fill=255, font=typeface)
    return np.asarray(image, dtype=np.uint8)


@lru_cache(maxsize=1024)
def _reference_mask(font: FontSpec, text: str) -> np.ndarray:
    """Text drawn large and cropped to its ink."""
    try:
        canvas = _truetype_mask(font, text) if font.kind == "ttf" else _hershey_mask(font, text)
    except (OSError, ImportError):  # an unreadable font file: fall back rather than fail a scene
        canvas = _hershey_mask(FontSpec("hershey"), text)
    ys, xs = np.nonzero(canvas > 40)
    if len(xs) == 0:
        return np.zeros((1, 1), np.uint8)
    cropped = np.ascontiguousarray(canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1])
    cropped.setflags(write=False)
    return cropped


def text_mask(font: FontSpec, text: str, height: int, stretch: float = 1.0, max_width: int = 0) -> np.ndarray:
    """A tight uint8 mask of ``text``, ``height`` pixels tall, widened by ``stretch`` and
    squeezed to at most ``max_width`` pixels when that is given (for "10")."""
    reference = _reference_mask(font, text)
    ref_h, ref_w = reference.shape
    height = max(2, int(height))
    width = max(1, round(ref_w * height / ref_h * stretch))
    if max_width > 0:
        width = min(width, max_width)
    return cv2.resize(reference, (width, height), interpolation=cv2.INTER_AREA)
