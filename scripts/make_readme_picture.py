"""Draw the board picture in the README (docs/board.svg) with the kit's own SVG renderer."""

from pathlib import Path

from course.pictures.svg import board_svg
from reversi import WHITE, Game

game = Game()
for move in ["f5", "d6", "c3", "d3", "c4"]:
    game.play(move)
picture = board_svg(
    game.board,
    markers=game.board.legal_moves(WHITE),
    last_move=game.plies[-1].move,
    size_px=360,
)
out = Path(__file__).resolve().parent.parent / "docs" / "board.svg"
out.write_text(picture, encoding="utf-8")
print(f"wrote {out} ({game.turn} to move, {len(game.board.legal_moves(WHITE))} legal moves marked)")
