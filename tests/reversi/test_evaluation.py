"""The strong evaluation: its fast form adds up exactly the terms it explains."""

from __future__ import annotations

from hypothesis import given, settings

from reversi import bitboard
from reversi.evaluation import (
    FRONTIER,
    PARITY,
    PARITY_EMPTIES,
    STABLE,
    STRONG_MOBILITY,
    TERMS,
    anchored,
    final_score,
    parts,
    strong_score,
    terms,
    weights,
)
from tests.reversi.positions import positions


def slow_terms(player: int, opponent: int, geo: bitboard.Geometry) -> dict[str, int]:
    """Each term straight from its definition, square by square: the oracle."""
    size = geo.size
    table, last = weights(size), size - 1
    corners = {(0, 0), (0, last), (last, 0), (last, last)}

    def corner_of(row: int, col: int) -> tuple[int, int] | None:
        near = [c for c in corners if max(abs(c[0] - row), abs(c[1] - col)) == 1]
        return near[0] if len(near) == 1 and (row, col) not in corners else None

    def owner(row: int, col: int) -> int:
        bit = 1 << (row * size + col)
        return 1 if player & bit else -1 if opponent & bit else 0

    squares = 0
    for row in range(size):
        for col in range(size):
            corner = corner_of(row, col)
            if corner is not None and owner(*corner):
                continue  # an X- or C-square next to a taken corner no longer counts
            squares += table[row][col] * owner(row, col)
    frontier = 0
    for row in range(size):
        for col in range(size):
            if owner(row, col):
                continue
            around = {owner(r, c) for r in range(row - 1, row + 2) for c in range(col - 1, col + 2)
                      if 0 <= r < size and 0 <= c < size}
            frontier += (-1 in around) - (1 in around)
    mine = bitboard.legal_moves(player, opponent, geo).bit_count()
    theirs = bitboard.legal_moves(opponent, player, geo).bit_count()
    empties = size * size - (player | opponent).bit_count()
    parity = 0 if empties > PARITY_EMPTIES else PARITY if empties % 2 else -PARITY
    return {
        "squares": squares,
        "mobility": STRONG_MOBILITY * (mine - theirs),
        "frontier": FRONTIER * frontier,
        "stable": STABLE * (anchored(player, size) - anchored(opponent, size)),
        "parity": parity,
    }


@settings(max_examples=300, deadline=None)
@given(positions(70))
def test_the_fast_score_is_the_sum_of_the_explained_terms(position):
    board, color = position
    geo = bitboard.geometry(board.size)
    player, opponent = board.bits(color), board.bits(color.opponent)
    if board.is_finished():
        assert strong_score(player, opponent, geo) == final_score(player, opponent)
        return
    explained = terms(player, opponent, geo)
    assert list(explained) == list(TERMS)
    assert explained == slow_terms(player, opponent, geo)
    assert strong_score(player, opponent, geo) == sum(explained.values())
    mine = bitboard.legal_moves(player, opponent, geo)
    theirs = bitboard.legal_moves(opponent, player, geo)
    assert parts(player, opponent, geo, mine, theirs) == tuple(explained.values())


@settings(max_examples=100, deadline=None)
@given(positions(70))
def test_the_score_is_seen_from_the_side_to_move(position):
    board, color = position
    geo = bitboard.geometry(board.size)
    player, opponent = board.bits(color), board.bits(color.opponent)
    if board.is_finished():
        return
    mine, theirs = terms(player, opponent, geo), terms(opponent, player, geo)
    for name in ("squares", "mobility", "frontier", "stable"):
        assert mine[name] == -theirs[name]
