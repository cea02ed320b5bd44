"""vision.scan: index readings assembled into cards, on drawn scenes with exact answers."""

from __future__ import annotations

from tests.vision.conftest import draw_card, paste, table
from vision.detect import paper_regions
from vision.scan import scan_image


def test_a_fan_squared_off_into_a_card_shaped_region_gives_every_card() -> None:
    # Cards spread in a straight row at the same angle: their paper is one near-rectangle,
    # card-shaped enough to pass for one card, but its corners name several cards.
    scene = table(600, 900)
    cards = [("7", "spades"), ("2", "clubs"), ("A", "hearts"), ("8", "diamonds"), ("J", "clubs")]
    for k, (rank, suit) in enumerate(cards):
        paste(scene, draw_card(rank, suit, 1.6), (260 + 55 * k, 300), 0.0)
    regions = paper_regions(scene)
    assert len(regions.quads) == 1 and regions.quads[0] is not None  # the trap is set
    found = sorted(str(card.card) for card in scan_image(scene, "standard").cards)
    assert found == sorted(["7s", "2c", "Ah", "8d", "Jc"])
