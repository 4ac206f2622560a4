"""Colour-blind-safe boards: every pair of colours a person must tell apart, checked through a
simulation of colour-vision deficiency (Machado, Oliveira and Fernandes 2009, severity 1).

The simulation is an independent oracle: the published matrices applied to linear RGB.  A
Reversi pair must keep a WCAG contrast ratio of 3:1 (the guideline for graphics) for normal
vision and each simulated deficiency; the cursor-map owners, whose colours may be alike in
lightness, must stay far apart in CIELAB colour and also carry a letter each.
"""

from __future__ import annotations

import pytest

from course.board.view import MUST_DIFFER, PALETTE
from course.cursormap import scene as cursormap_scene
from reversi.cursormap import Value, load_sample

MACHADO = {
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}


def linear(hex_colour: str) -> tuple[float, float, float]:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return r, g, b


def seen(hex_colour: str, vision: str) -> tuple[float, float, float]:
    """The linear RGB a person with ``vision`` perceives (clipped to the gamut)."""
    rgb = linear(hex_colour)
    out = [sum(m * c for m, c in zip(row, rgb, strict=True)) for row in MACHADO[vision]]
    r, g, b = (min(1.0, max(0.0, v)) for v in out)
    return r, g, b


def luminance(rgb: tuple[float, float, float]) -> float:
    r, g, b = rgb
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str, vision: str) -> float:
    la, lb = sorted((luminance(seen(a, vision)), luminance(seen(b, vision))), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e(a: str, b: str, vision: str) -> float:
    la, lb = lab(seen(a, vision)), lab(seen(b, vision))
    return sum((p - q) ** 2 for p, q in zip(la, lb, strict=True)) ** 0.5


def test_the_simulation_is_a_real_oracle():
    # Pure red and green look alike to a deuteranope (the classic confusion): a far smaller
    # colour difference than for normal vision; so the check below can fail.
    assert delta_e("#ff0000", "#00a000", "deuteranopia") < 0.5 * delta_e(
        "#ff0000", "#00a000", "normal"
    )
    assert contrast("#000000", "#ffffff", "normal") == pytest.approx(21.0)
    assert contrast("#e63b2e", "#2e8b57", "deuteranopia") < 3  # the old red last-move frame


@pytest.mark.parametrize("vision", MACHADO)
@pytest.mark.parametrize("pair", MUST_DIFFER, ids=lambda pair: f"{pair[0]}-{pair[1]}")
def test_reversi_pairs_keep_a_3_to_1_contrast(pair, vision):
    a, b = (PALETTE[key] for key in pair)
    assert contrast(a, b, vision) >= 3.0, (pair, vision)


@pytest.mark.parametrize("vision", MACHADO)
@pytest.mark.parametrize("value", [Value.ON, Value.OFF])
def test_cursormap_owners_stay_apart_in_colour(vision, value):
    blue, red = (cursormap_scene.PALETTE[owner][value] for owner in ("blue", "red"))
    assert delta_e(blue, red, vision) >= 20, (blue, red, vision)


def test_cursormap_players_fields_carry_their_letter():
    board = load_sample("01_first_steps")
    shapes = cursormap_scene.scene(board)
    letters = {shape.text for shape in shapes if isinstance(shape, cursormap_scene.Text)}
    owners = {f.owner.value for row in board.fields for f in row if f.value.switchable}
    assert {
        cursormap_scene.OWNER_LETTERS[o] for o in owners if o in cursormap_scene.OWNER_LETTERS
    } <= letters
    assert owners & set(cursormap_scene.OWNER_LETTERS)  # the sample has a player's field
