"""Synthetic card photos with exact ground truth, to develop, train and test the scanner.

- :mod:`vision.synth.style`: DeckStyle, drawn from a seed within a design FAMILY (some
  families are held out of development);
- :mod:`vision.synth.card`: render_card (one card face);
- :mod:`vision.synth.scene`: render_scene (a table photo with CardLabels).
"""

from vision.synth.card import CardFace, render_card, render_card_face
from vision.synth.scene import LAYOUTS, CardLabel, SceneSpec, render_scene
from vision.synth.style import FAMILIES, DeckStyle, families, random_style

__all__ = [
    "FAMILIES",
    "LAYOUTS",
    "CardFace",
    "CardLabel",
    "DeckStyle",
    "SceneSpec",
    "families",
    "random_style",
    "render_card",
    "render_card_face",
    "render_scene",
]
