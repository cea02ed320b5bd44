"""Fetch free fonts from Debian's archive so that training meets far more lettering.

Usage: python scripts/fetch_fonts.py [DEST]   (DEST defaults to ./.training-fonts)

A machine with only DejaVu and the Hershey faces trains the glyph reader on one type design
and a few strokes; real decks print their indices in many. This downloads font packages
with ``apt-get download`` (no root needed, nothing installed) and sorts the files into
folders named for the synthetic generator's font tags (``sans``, ``serif``, ``mono``,
``condensed``, and ``italic`` for script-like hands), because vision.synth.style picks a
font by those words in its path. Then train with

    TRICKMATE_FONT_DIRS=.training-fonts python scripts/train_reader.py ...

GNU FreeFont is fetched too, for held-out deck families only (vision.synth.text keeps it out
of everything trained), and so are no fonts drawn from it: the URW Nimbus faces are its
ancestors, so they are left out lest held-out lettering be seen in training.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

#: Debian package -> (file name pattern, tag) rules; the first rule a file matches wins and
#: files matching none are skipped (symbols, maths, display cuts, duplicates).
PACKAGES: dict[str, list[tuple[str, str]]] = {
    "fonts-liberation2": [
        (r"LiberationSans-", "sans"),
        (r"LiberationSerif-", "serif"),
        (r"LiberationMono-", "mono"),
    ],
    "fonts-freefont-ttf": [(r"FreeSans", "sans"), (r"FreeSerif", "serif"), (r"FreeMono", "mono")],
    "fonts-croscore": [(r"Arimo-", "sans"), (r"Tinos-", "serif"), (r"Cousine-", "mono")],
    "fonts-crosextra-carlito": [(r"Carlito-", "sans")],
    "fonts-crosextra-caladea": [(r"Caladea-", "serif")],
    "fonts-lato": [(r"Lato-(Regular|Bold|Italic|BoldItalic|Black|Light|Medium)\.", "sans")],
    "fonts-cantarell": [(r"Cantarell-(Regular|Bold|ExtraBold|Light)\.otf", "sans")],
    "fonts-comic-neue": [(r"ComicNeue-", "italic")],
    "fonts-adf-gillius": [(r"GilliusADF(No2)?-(Bold)?Cond", "condensed"), (r"GilliusADF(No2)?-", "sans")],
    "fonts-adf-universalis": [
        (r"UniversalisADFStd-(Bold)?Cond", "condensed"),
        (r"UniversalisADFStd-", "sans"),
    ],
    "fonts-adf-accanthis": [(r"AccanthisADFStd-", "serif")],
    "fonts-adf-berenis": [(r"BerenisADFPro-(Regular|Bold|Italic|BoldItalic)\.", "serif")],
    "fonts-b612": [(r"B612Mono-", "mono"), (r"B612-", "sans")],
    "fonts-bebas-neue": [(r"BebasNeue-(Regular|Bold|Book)\.", "condensed")],
    "fonts-cabin": [(r"Cabin-", "sans")],
    "fonts-comfortaa": [(r"Comfortaa-", "sans")],
    "fonts-dosis": [(r"Dosis-", "condensed")],
    "fonts-ebgaramond": [(r"EBGaramond12-", "serif")],
    "fonts-fantasque-sans": [(r"FantasqueSansMono-.*\.ttf", "mono")],
    "fonts-go": [(r"Go-Mono", "mono"), (r"Go-(Regular|Bold|Italic|Bold-Italic|Medium)\.", "sans")],
    "fonts-hack": [(r"Hack-", "mono")],
    "fonts-inter": [(r"Inter-(Regular|Bold|Italic|BoldItalic|Black|Light|SemiBold)\.", "sans")],
    "fonts-junicode": [
        (r"JunicodeTwoBeta-Condensed(Italic)?\.", "condensed"),
        (r"JunicodeTwoBeta-(Regular|Bold|Italic|BoldItalic)\.", "serif"),
    ],
    "fonts-jura": [(r"Jura-", "sans")],
    "fonts-league-spartan": [(r"LeagueSpartan-(Regular|Bold|Black|Light)\.", "sans")],
    "fonts-linuxlibertine": [
        (r"LinBiolinum_(R|RB|RI)\.", "sans"),
        (r"LinLibertine_(R|RB|RI|RBI|DR)\.", "serif"),
    ],
    "fonts-manrope": [(r"Manrope-", "sans")],
    "fonts-mononoki": [(r"mononoki-", "mono")],
    "fonts-mplus": [
        (r"Mplus1Code-(Regular|Bold)\.", "mono"),
        (r"Mplus[12]-(Regular|Bold|Black|Light)\.", "sans"),
    ],
    "fonts-noto-core": [
        (r"NotoSans-(Regular|Bold|Italic|BoldItalic)\.ttf", "sans"),
        (r"NotoSerif-(Regular|Bold|Italic|BoldItalic)\.ttf", "serif"),
    ],
    "fonts-oldstandard": [(r"OldStandard-", "serif")],
    "fonts-open-sans": [(r"OpenSans-Cond", "condensed"), (r"OpenSans-", "sans")],
    "fonts-oxygen": [(r"OxygenMono-", "mono"), (r"Oxygen-Sans", "sans")],
    "fonts-play": [(r"Play-.*\.ttf", "sans")],
    "fonts-quicksand": [(r"Quicksand-", "sans")],
    "fonts-roboto-unhinted": [(r"RobotoCondensed-", "condensed"), (r"Roboto-", "sans")],
    "fonts-sil-andika": [(r"Andika-", "sans")],
    "fonts-sil-charis": [(r"CharisSIL-", "serif")],
    "fonts-sil-gentiumplus": [(r"GentiumPlus-", "serif")],
    "fonts-urw-base35": [
        (r"(C059|P052)-", "serif"),
        (r"URWBookman-", "serif"),
        (r"URWGothic-", "sans"),
        (r"Z003-", "italic"),
    ],
    "fonts-yanone-kaffeesatz": [(r"YanoneKaffeesatz-", "condensed")],
    "fonts-anonymous-pro": [(r"Anonymous Pro", "mono")],
    "fonts-breip": [(r"Breip\.ttf", "italic")],
}


def tag_of(package: str, file_name: str) -> str | None:
    """The folder a package's font file goes to, or None to skip it.

    >>> tag_of("fonts-open-sans", "OpenSans-CondBold.ttf"), tag_of("fonts-open-sans", "OpenSans-Bold.ttf")
    ('condensed', 'sans')
    >>> tag_of("fonts-urw-base35", "NimbusSans-Regular.otf") is None
    True
    """
    for pattern, tag in PACKAGES[package]:
        if re.match(pattern, file_name):
            return tag
    return None


def fetch(dest: Path) -> int:
    """Download, unpack and sort every package; the number of font files placed."""
    placed = 0
    with tempfile.TemporaryDirectory() as work:
        subprocess.run(["apt-get", "download", *PACKAGES], cwd=work, check=True)
        for deb in sorted(Path(work).glob("*.deb")):
            package = deb.name.split("_")[0]
            unpacked = Path(work) / package
            subprocess.run(["dpkg-deb", "-x", str(deb), str(unpacked)], check=True)
            for font in sorted([*unpacked.rglob("*.ttf"), *unpacked.rglob("*.otf")]):
                tag = tag_of(package, font.name)
                if tag is None or font.is_symlink():
                    continue
                (dest / tag).mkdir(parents=True, exist_ok=True)
                shutil.copyfile(font, dest / tag / font.name)
                placed += 1
    return placed


def main() -> int:
    dest = Path(sys.argv[1] if len(sys.argv) > 1 else ".training-fonts").resolve()
    # The generator matches tag words anywhere in a font's path, so the folder above the tags
    # must carry none of them.
    words = ("sans", "serif", "mono", "condensed", "narrow", "italic", "oblique", "bold")
    if any(word in str(dest).lower() for word in words):
        print(f"choose a folder whose path has none of the words {', '.join(words)}: {dest}", file=sys.stderr)
        return 2
    placed = fetch(dest)
    print(f"{placed} font files in {dest} ({', '.join(sorted(p.name for p in dest.iterdir()))})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
