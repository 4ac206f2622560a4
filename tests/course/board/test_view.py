"""Canvas geometry, the animation's timing, pawn pictures, the move sound and the text panels."""

from __future__ import annotations

import io
import wave

import pytest

from course.board.panels import log_html, scores_html
from course.board.sound import SoundPlayer, move_sound
from course.board.view import (
    FLIP_FRAMES,
    FRAME_MS,
    SLOW_FRAME_MS,
    SLOW_PAUSE_MS,
    BoardCanvas,
    BoardGeometry,
)
from course.pictures.pawns import SAMPLE_PAWNS, PawnImageError, check_pawn_image, load_pawn_image
from reversi import BLACK, Board, Square
from reversi.scores import Scoreboard


@pytest.mark.parametrize("size", [4, 8, 10, 16])
def test_every_pixel_of_a_cell_maps_to_its_square(size):
    g = BoardGeometry.fit(size)
    for row in range(size):
        for col in range(size):
            x, y = g.corner((row, col))
            for dx, dy in [
                (0, 0),
                (g.cell - 0.01, 0),
                (0, g.cell - 0.01),
                (g.cell / 2, g.cell / 2),
            ]:
                assert g.square_at(x + dx, y + dy) == Square(row, col)
    assert g.square_at(g.margin - 1, g.margin + 1) is None
    assert g.square_at(g.pixels - g.margin + 0.5, g.margin + 1) is None
    assert g.pixels <= 400


def test_an_animation_reports_how_long_it_takes():
    view = BoardCanvas()
    board = Board()
    flipped = board.play("d3", BLACK)
    assert view.animate(board, BLACK, Square(2, 3), flipped) == FLIP_FRAMES * FRAME_MS / 1000
    slow = view.animate(board, BLACK, Square(2, 3), flipped, slow=True)
    assert slow == (SLOW_PAUSE_MS + FLIP_FRAMES * SLOW_FRAME_MS) / 1000


def test_the_kit_pawns_are_64x64_pngs():
    for path in SAMPLE_PAWNS.values():
        data, size = check_pawn_image(path)
        assert size == (64, 64) and data.startswith(b"\x89PNG")


def test_unusable_pawn_pictures_are_refused_with_a_reason(tmp_path):
    not_png = tmp_path / "pawn.png"
    not_png.write_text("hello")
    with pytest.raises(PawnImageError, match="it is not a PNG file"):
        check_pawn_image(not_png)
    damaged = tmp_path / "damaged.png"
    damaged.write_bytes(SAMPLE_PAWNS[BLACK].read_bytes()[:200])
    with pytest.raises(PawnImageError, match="it is damaged"):
        check_pawn_image(damaged)
    image, note = load_pawn_image(damaged)
    assert image is None and note.startswith("Cannot use pawn image") and "solid discs" in note
    assert load_pawn_image(None) == (None, "")


def test_a_pawn_picture_is_refused_in_french_when_the_reader_is(tmp_path):
    from course.i18n import speaking
    from reversi.errors import shown

    not_png = tmp_path / "pawn.png"
    not_png.write_text("hello")
    with speaking("fr"):
        image, note = load_pawn_image(not_png)
        with pytest.raises(PawnImageError, match="ce fichier n’existe pas$"):
            check_pawn_image(tmp_path / "none.png")
    assert image is None and note == (
        f"Impossible d’utiliser l’image de pion {shown(str(not_png))} : ce n’est pas un fichier PNG : "
        "des pions pleins sont dessinés à la place.")  # fmt: skip
    assert load_pawn_image(not_png)[1].endswith("it is not a PNG file: drawing solid discs instead.")


def test_a_pawn_picture_of_another_size_is_used_scaled(tmp_path):
    from PIL import Image

    path = tmp_path / "big.png"
    Image.new("RGBA", (128, 100), (200, 0, 0, 255)).save(path)
    image, note = load_pawn_image(path)
    assert image is not None and "is 128x100, not 64x64" in note


def test_the_move_sound_is_a_short_wav():
    with wave.open(io.BytesIO(move_sound())) as wav:
        assert wav.getnchannels() == 1 and wav.getframerate() == 22050
        assert 0.05 < wav.getnframes() / wav.getframerate() < 0.2
    player = SoundPlayer()
    player.play()
    assert player.widget.value == "" and player.plays == 0


def test_panels_escape_what_they_show():
    assert "&lt;b&gt;" in log_html(["New game: <b> against x"])
    board = Scoreboard()
    assert "Games finished: 0" in scores_html(board) and "Draws" in scores_html(board)
