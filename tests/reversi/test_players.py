"""The players: names, the human prompt, the random, greedy and positional rules, the registry."""

from __future__ import annotations

import itertools
import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reversi.board import Board
from reversi.errors import ArgumentError, BoardSizeError, InputEnded, PlayerError, ReversiError
from reversi.evaluation import weights
from reversi.game import Game
from reversi.notation import BLACK, PASS, WHITE, Color, Square
from reversi.outcome import EndReason
from reversi.players import (
    MAX_NAME_LENGTH,
    PLAYER_KINDS,
    AlphaBetaPlayer,
    GreedyPlayer,
    HumanPlayer,
    MinimaxPlayer,
    Player,
    PositionalPlayer,
    RandomPlayer,
    make_player,
    validate_name,
)

COMPUTER_KINDS = [kind for kind, cls in PLAYER_KINDS.items() if not cls.is_human]

# Black may move on all four corners, each flipping one disc, and on h4 flipping five.
FOUR_CORNERS = """
. . . . . . . .
W . . . . . . W
B . . . . . . B
. B W W W W W .
. . . . . . . .
B . . . . . . B
W . . . . . . W
. . . . . . . .
"""

# Black has no legal move; White has.
BLACK_STUCK = """
. . . .
. B W W
. . . .
. . . .
"""


def names(squares):
    return [str(s) for s in squares]


# -- names ------------------------------------------------------------------------------


def test_names_are_stripped_and_may_have_up_to_20_characters():
    assert MAX_NAME_LENGTH == 20
    assert validate_name("  Ann  ") == "Ann"
    assert validate_name("x" * 20) == "x" * 20
    assert validate_name("Zoë Ångström-Łukasz") == "Zoë Ångström-Łukasz"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", r"^player name '' is blank: a player needs a name$"),
        ("   ", r"^player name '   ' is blank"),
        ("x" * 21, r"^player name 'x{21}' is too long: it has 21 characters, at most 20 are"),
        ("Ann\nBob", r"^player name 'Ann\\nBob' contains the control character '\\n'$"),
        ("Ann\tBob", r"contains the control character '\\t'"),
        ("Ann\x1b[31m", r"contains the control character '\\x1b'"),
        (42, r"^player name 42 is not text$"),
        (None, r"^player name None is not text$"),
    ],
)
def test_bad_names_are_refused_naming_the_input_and_the_reason(name, message):
    with pytest.raises(PlayerError, match=message):
        validate_name(name)


def test_players_validate_their_names_and_default_to_their_label():
    assert GreedyPlayer().name == "Greedy"
    assert RandomPlayer().name == "Randomizer"
    assert AlphaBetaPlayer().name == "Alpha-beta"
    assert HumanPlayer(" Ann ").name == "Ann"
    with pytest.raises(PlayerError, match="too long"):
        MinimaxPlayer("A" * 30)


def test_player_is_abstract():
    with pytest.raises(TypeError):
        Player()  # type: ignore[abstract]


# -- the human player ----------------------------------------------------------------------


class Script:
    """Typed lines in, shown messages and prompts recorded."""

    def __init__(self, *lines: str) -> None:
        self.lines, self.prompts, self.shown = list(lines), [], []

    def input(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)

    def output(self, message: str) -> None:
        self.shown.append(message)


def human(script: Script, name: str = "Ann") -> HumanPlayer:
    return HumanPlayer(name, input=script.input, output=script.output)


def test_a_human_is_asked_again_after_bad_text_an_illegal_move_and_a_pass():
    script = Script("z9", "hello", "a1", "d4", "pass", "0", "D3")
    assert human(script).choose_move(Board(), BLACK) == Square(2, 3)
    assert script.prompts == ["Black (Ann), your move: "] * 7
    assert script.shown == [
        "'z9' is not a square of an 8x8 board: columns run from a to h",
        "'hello' is not a square: write a column letter then a row number, like 'd3'",
        "'a1' is not a legal move for Black: no White disc is next to a1",
        "'d4' is not a legal move for Black: d4 is already taken by a White disc",
        "Black cannot pass while it has a legal move (d3, c4, f5, e6)",
        "Black cannot pass while it has a legal move (d3, c4, f5, e6)",
    ]


@pytest.mark.parametrize("typed", ["C 4", "c4", "C4", " c 4 "])
def test_a_human_may_type_a_square_as_the_zx81_article_does(typed):
    script = Script(typed)
    assert human(script).choose_move(Board(), BLACK) == (3, 2)
    assert script.shown == []


@pytest.mark.parametrize("typed", ["0", "pass", "PASS"])
def test_a_human_without_a_legal_move_passes(typed):
    board = Board.from_text(BLACK_STUCK)
    script = Script("a1", typed)
    assert human(script, "Bob").choose_move(board, BLACK) is PASS
    assert script.shown == [
        "'a1' is not a legal move for Black: no White disc is next to a1; "
        "there is no legal move, so type 0 or pass"
    ]


def test_the_end_of_input_is_the_kits_error_naming_the_player():
    with pytest.raises(InputEnded, match="^Ann's input ended, so Ann can make no more moves and resigns$"):
        human(Script("nonsense")).choose_move(Board(), WHITE)


def test_a_human_whose_input_ends_resigns_the_game():
    game = Game(human(Script("d3")), GreedyPlayer("Bob"))
    assert game.step() == Square(2, 3)
    game.step()
    assert game.step() is None  # Ann's script has ended
    assert game.is_over and game.winner is WHITE and game.outcome.reason is EndReason.RESIGNATION
    assert game.log[-3:-1] == ["Ann's input ended, so Ann can make no more moves and resigns", "Ann (Black) resigns"]
    assert game.play_out() is game.outcome


def test_a_human_is_human_and_computers_are_not():
    assert HumanPlayer.is_human and HumanPlayer().is_human
    assert not any(PLAYER_KINDS[kind].is_human for kind in COMPUTER_KINDS)


# -- every computer player ------------------------------------------------------------------


@pytest.mark.parametrize("kind", COMPUTER_KINDS)
def test_computer_players_pass_only_without_a_legal_move(kind):
    player = make_player(kind)
    assert player.choose_move(Board.from_text(BLACK_STUCK), BLACK) is PASS
    assert player.choose_move(Board.from_text(BLACK_STUCK), WHITE) == Square(1, 0)


@pytest.mark.parametrize("kind", COMPUTER_KINDS)
@pytest.mark.parametrize("size", [4, 6, 8, 10])
def test_computer_players_choose_legal_moves_and_leave_the_board_alone(kind, size):
    player, board, color = make_player(kind), Board(size), BLACK
    for _ in range(6):
        before = board.copy()
        move = player.choose_move(board, color)
        assert board == before
        assert move is PASS or board.is_legal(move, color)
        if move is not PASS:
            board.play(move, color)
        color = color.opponent


# -- random ------------------------------------------------------------------------------------


def game_moves(player: Player, plies: int = 30) -> list:
    board, color, moves = Board(), BLACK, []
    for _ in range(plies):
        move = player.choose_move(board.copy(), color)
        moves.append(move)
        if move is not PASS:
            board.play(move, color)
        color = color.opponent
    return moves


def test_a_seeded_random_player_repeats_its_moves():
    assert game_moves(RandomPlayer(seed=5)) == game_moves(RandomPlayer(seed=5))
    assert game_moves(RandomPlayer(seed=5)) != game_moves(RandomPlayer(seed=6))


def test_random_moves_are_spread_evenly_over_the_legal_moves():
    player = RandomPlayer(seed=1)
    counts = Counter(str(player.choose_move(Board(), BLACK)) for _ in range(4000))
    assert set(counts) == {"d3", "c4", "f5", "e6"}
    assert all(900 < n < 1100 for n in counts.values())


def test_the_random_state_survives_json_and_the_game_goes_on_the_same():
    player = RandomPlayer("Rita", seed=11)
    board = Board()
    player.choose_move(board, BLACK)
    saved = json.loads(json.dumps(player.get_state()))
    expected = [player.choose_move(board, BLACK) for _ in range(20)]
    restored = RandomPlayer("Rita", seed=999)
    restored.set_state(saved)
    assert [restored.choose_move(board, BLACK) for _ in range(20)] == expected


@pytest.mark.parametrize(
    ("state", "message"),
    [
        ("junk", "it must be a list"),
        ([3, [1, 2], None], "it must hold a list of 625 whole numbers"),
        ([2, [0] * 625, None], "version 2 is not the generator's version"),
        ([3, [0] * 624 + [2**40], None], "from 0 to 2\\*\\*32 - 1"),
        ([3, [0] * 624 + ["x"], None], "from 0 to 2\\*\\*32 - 1"),
        ([3, [0] * 624 + [700], None], "Randomizer's random state is not valid"),
        ([3, [0] * 625, "x"], "gauss_next 'x' is not a number"),
    ],
)
def test_a_garbage_random_state_is_refused_and_changes_nothing(state, message):
    player = RandomPlayer(seed=3)
    before = player.get_state()
    with pytest.raises(PlayerError, match=message):
        player.set_state(state)
    assert player.get_state() == before


def test_players_without_state_accept_only_none():
    player = GreedyPlayer()
    assert player.get_state() is None
    player.set_state(None)
    with pytest.raises(PlayerError, match="a Greedy player keeps no state, but was given"):
        player.set_state({"anything": 1})


# -- greedy ------------------------------------------------------------------------------------


def test_greedy_takes_corners_top_left_top_right_bottom_right_bottom_left():
    board = Board.from_text(FOUR_CORNERS)
    flips = {str(s): len(board.flips(s, BLACK)) for s in board.legal_moves(BLACK)}
    assert flips == {"a1": 1, "h1": 1, "h4": 5, "f5": 1, "a8": 1, "h8": 1}
    chosen = []
    for guard in ("a2", "h2", "h7", "a7"):  # emptying the guard makes its corner illegal
        chosen.append(str(GreedyPlayer().choose_move(board, BLACK)))
        board[guard] = None
    assert chosen == ["a1", "h1", "h8", "a8"]
    assert str(GreedyPlayer().choose_move(board, BLACK)) == "h4"  # no corner: most flips


def test_greedy_finds_the_corners_of_any_board_size():
    board = Board.from_text("""
    . . . . . .
    . . . . . .
    . . . . . .
    . . . . . .
    . . . . W B
    . . . . . .
    """)
    assert names(board.legal_moves(BLACK)) == ["d5"]
    board["e6"], board["d4"] = WHITE, BLACK
    assert names(board.legal_moves(BLACK)) == ["d5", "f6"]
    assert GreedyPlayer().choose_move(board, BLACK) == Square(5, 5)


def test_greedy_breaks_ties_for_the_last_move_in_reading_order():
    rows_apart = Board.from_text("""
    . . . . . . . .
    . W W B . . . .
    . . . . . . . .
    . . . . . . . .
    B W W . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    """)
    assert [(str(s), len(rows_apart.flips(s, BLACK))) for s in rows_apart.legal_moves(BLACK)] == [
        ("a2", 2),
        ("d5", 2),
    ]
    assert str(GreedyPlayer().choose_move(rows_apart, BLACK)) == "d5"  # farther down
    same_row = Board.from_text("""
    . . . . . .
    . . . . . .
    . W B W . .
    . . . . . .
    . . . . . .
    . . . . . .
    """)
    assert names(same_row.legal_moves(BLACK)) == ["a3", "e3"]
    assert str(GreedyPlayer().choose_move(same_row, BLACK)) == "e3"  # farther right


def test_greedy_prefers_more_flips_to_a_later_square():
    board = Board.from_text("""
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . B W W . .
    . . . . . . . .
    . . B W . . . .
    """)
    assert [(str(s), len(board.flips(s, BLACK))) for s in board.legal_moves(BLACK)] == [
        ("g6", 2),
        ("e8", 1),
    ]
    assert str(GreedyPlayer().choose_move(board, BLACK)) == "g6"


# -- greedy against seed 002's own rule -------------------------------------------------------
#
# Seed 002 (the CS106 README) describes its computer player: a corner if one is a valid move,
# "starting with the top left corner, then moving in a clockwise direction"; otherwise the move
# that flips the most pieces, "preferring moves that are farthest to the right and down on the
# board".  Its board is a list of rows, each a dict of columns, with "." for an empty square.
# The reading below follows that text step by step, with its own flip count, and knows
# nothing of the kit's Board except how to copy the squares out of it.

_SEED_DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def seed_rows(board: Board) -> list[dict[int, str]]:
    """The board as the CS106 program keeps it: rows top to bottom, each ``{column: "." | "B" | "W"}``."""
    letter = {None: ".", BLACK: "B", WHITE: "W"}
    return [{col: letter[board[row, col]] for col in range(board.size)} for row in range(board.size)]


def seed_flips(rows: list[dict[int, str]], row: int, col: int, me: str) -> int:
    """How many pieces a piece of ``me`` placed on (row, col) flips; 0 means not a valid move."""
    if rows[row][col] != ".":
        return 0
    other = "W" if me == "B" else "B"
    total = 0
    for d_row, d_col in _SEED_DIRECTIONS:
        r, c, run = row + d_row, col + d_col, 0
        while 0 <= r < len(rows) and rows[r].get(c) == other:
            r, c, run = r + d_row, c + d_col, run + 1
        if run and 0 <= r < len(rows) and rows[r].get(c) == me:
            total += run
    return total


def seed_comp_player(rows: list[dict[int, str]], me: str) -> tuple[int, int] | None:
    """Seed 002's Comp_Player: the move it makes, or None when it has no valid move."""
    last = len(rows) - 1
    for corner in ((0, 0), (0, last), (last, last), (last, 0)):  # top left, then clockwise
        if seed_flips(rows, *corner, me):
            return corner
    best, most = None, 0
    for row in range(len(rows)):  # top to bottom
        for col in range(len(rows[row])):  # left to right
            count = seed_flips(rows, row, col, me)
            if count and count >= most:  # ">=": a later (lower, farther right) move wins a tie
                best, most = (row, col), count
    return best


def seed_move(board: Board, color: Color) -> tuple[int, int] | None:
    return seed_comp_player(seed_rows(board), "B" if color is BLACK else "W")


def has_tied_best_moves(board: Board, color: Color) -> bool:
    """No corner is legal and two or more moves share the most flips: the tie rule decides."""
    rows, me = seed_rows(board), "B" if color is BLACK else "W"
    last = board.size - 1
    if any(seed_flips(rows, *corner, me) for corner in ((0, 0), (0, last), (last, last), (last, 0))):
        return False
    counts = [seed_flips(rows, r, c, me) for r in range(board.size) for c in range(board.size)]
    return max(counts) > 0 and counts.count(max(counts)) > 1


def seed_test_positions() -> list[tuple[Board, Color]]:
    """Every position of 100 seeded random games, 25 on each of the 4x4, 6x6, 8x8 and 10x10 boards,
    with the side to move (passes included)."""
    found = []
    for size, seed in itertools.product((4, 6, 8, 10), range(25)):
        board, color, mover = Board(size), BLACK, RandomPlayer(seed=1000 * size + seed)
        while not board.is_finished():
            found.append((board.copy(), color))
            move = mover.choose_move(board.copy(), color)
            if move is not PASS:
                board.play(move, color)
            color = color.opponent
    return found


def test_the_reading_of_seed_002_is_its_text():
    board = Board()
    board.play("f5", BLACK)  # White: f4, d6 and f6 flip one piece each; the last (f6) is taken
    assert seed_move(board, WHITE) == (5, 5)
    assert has_tied_best_moves(board, WHITE)
    corners = Board.from_text(FOUR_CORNERS)  # every corner valid: the top left first
    assert seed_move(corners, BLACK) == (0, 0)
    assert seed_move(Board.from_text(BLACK_STUCK), BLACK) is None


def test_greedy_plays_seed_002s_move_on_every_position_of_many_games():
    positions = seed_test_positions()
    tied = sum(has_tied_best_moves(board, color) for board, color in positions)
    # 5062 positions, 1259 of them with no corner and tied best moves: only the tie rule decides.
    assert len(positions) > 5000 and tied > 1200
    for board, color in positions:
        chosen = GreedyPlayer().choose_move(board.copy(), color)
        assert (None if chosen is PASS else tuple(chosen)) == seed_move(board, color), board


@settings(max_examples=150, deadline=None)
@given(
    size=st.sampled_from([4, 6, 8, 10]),
    cells=st.lists(st.sampled_from([None, BLACK, WHITE]), min_size=100, max_size=100),
    color=st.sampled_from([BLACK, WHITE]),
)
def test_greedy_plays_seed_002s_move_on_any_position(size, cells, color):
    board = Board.empty(size)
    for index, sq in enumerate(board.squares()):
        board[sq] = cells[index]
    chosen = GreedyPlayer().choose_move(board, color)
    assert (None if chosen is PASS else tuple(chosen)) == seed_move(board, color)


# -- positional ----------------------------------------------------------------------------------


@pytest.mark.parametrize("size", range(4, 17, 2))
def test_weights_are_symmetric_with_corners_best_and_x_squares_worst(size):
    table = weights(size)
    last = size - 1
    assert len(table) == size and all(len(row) == size for row in table)
    assert all(
        table[r][c] == table[c][r] == table[last - r][c] for r in range(size) for c in range(size)
    )
    flat = [w for row in table for w in row]
    assert table[0][0] == max(flat) and table[1][1] == min(flat)
    assert table[0][1] < 0 < table[0][size // 2] if size > 4 else table[0][1] < 0


def test_weights_follow_the_zx81_tips_on_8x8():
    table = weights(8)
    second_line = [table[1][3], table[6][4], table[3][1], table[4][6]]  # rows 2/7, columns b/g
    assert all(-10 < w < 0 for w in second_line)
    assert table[0][3] > table[3][3] > second_line[0] > table[0][1] > table[1][1]


@pytest.mark.parametrize("size", [3, 5, 18, 2])
def test_weights_refuse_sizes_a_board_cannot_have(size):
    with pytest.raises(BoardSizeError):
        weights(size)


def test_positional_takes_a_corner_over_more_discs():
    board = Board.from_text(FOUR_CORNERS)
    assert str(PositionalPlayer().choose_move(board, BLACK)) == "h8"  # four equal corners: the last


def test_positional_takes_the_last_of_equally_good_moves_in_reading_order():
    tied = 0
    for board, color in seed_test_positions()[::5]:
        table, squares = weights(board.size), list(itertools.product(range(board.size), repeat=2))
        scores = {}
        for move in board.legal_moves(color):  # reading order
            after = board.copy()
            after.play(move, color)
            scores[move] = sum(table[r][c] * (1 if after[r, c] is color else -1)
                               for r, c in squares if after[r, c] is not None)  # fmt: skip
        best = [move for move, score in scores.items() if score == max(scores.values())]
        tied += len(best) > 1
        assert PositionalPlayer().choose_move(board, color) == (best[-1] if best else PASS)
    assert tied > 50


def test_positional_avoids_the_x_square_that_greedy_takes_for_its_flips():
    board = Board.from_text("""
    . . . . . . . .
    . . . . . . . .
    . . W . . . . .
    . . . W . . . .
    . . . . B W . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    """)
    assert [(str(s), len(board.flips(s, BLACK))) for s in board.legal_moves(BLACK)] == [
        ("b2", 2),
        ("g5", 1),
    ]
    assert str(GreedyPlayer().choose_move(board, BLACK)) == "b2"
    assert str(PositionalPlayer().choose_move(board, BLACK)) == "g5"


# -- the registry -------------------------------------------------------------------------------


def test_the_registry_lists_every_kind_with_a_label():
    labels = {kind: cls.label for kind, cls in PLAYER_KINDS.items()}
    assert labels == {
        "human": "Human",
        "beginner": "Beginner",
        "easy": "Easy",
        "medium": "Medium",
        "hard": "Hard",
        "expert": "Expert",
        "random": "Randomizer",
        "greedy": "Greedy",
        "positional": "Positional",
        "minimax": "Minimax",
        "alphabeta": "Alpha-beta",
    }
    assert all(cls.kind == kind for kind, cls in PLAYER_KINDS.items())
    with pytest.raises(TypeError):
        PLAYER_KINDS["clever"] = GreedyPlayer  # type: ignore[index]


@pytest.mark.parametrize(
    "player",
    [
        RandomPlayer("R", seed=4),
        GreedyPlayer(),
        PositionalPlayer("P"),
        MinimaxPlayer(depth=2),
        AlphaBetaPlayer("Deep", depth=6, time_limit=1.5),
        HumanPlayer("Ann"),
    ],
)
def test_make_player_rebuilds_a_player_from_its_kind_name_and_options(player):
    settings = json.loads(json.dumps({"name": player.name, **player.options()}))
    again = make_player(player.kind, **settings)
    assert type(again) is type(player) and repr(again) == repr(player)


def test_repr_shows_the_settings():
    assert repr(AlphaBetaPlayer(depth=5)) == (
        "AlphaBetaPlayer(name='Alpha-beta', depth=5, time_limit=None)"
    )
    assert repr(RandomPlayer(seed=1)) == "RandomPlayer(name='Randomizer', seed=1)"


def test_make_player_names_an_unknown_kind_and_lists_the_known_ones():
    with pytest.raises(PlayerError) as caught:
        make_player("clever")
    assert str(caught.value) == (
        "unknown player kind 'clever': "
        "choose one of human, beginner, easy, medium, hard, expert, "
        "random, greedy, positional, minimax, alphabeta"
    )
    assert isinstance(caught.value, (ReversiError, ValueError))
    with pytest.raises(ArgumentError, match=r"^make_player\(\): kind must be a text, not None$"):
        make_player(None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kind", "options", "message"),
    [
        ("alphabeta", {"depth": 0}, "depth 0 is not a whole number from 1 to 16"),
        ("minimax", {"depth": -1}, "depth -1 is not a whole number"),
        ("minimax", {"depth": "3"}, "depth '3' is not a whole number"),
        ("minimax", {"depth": 2.0}, "depth 2.0 is not a whole number"),
        ("alphabeta", {"depth": 99}, "from 1 to 16"),
        ("alphabeta", {"time_limit": -1}, "time limit -1 is not positive"),
        ("alphabeta", {"time_limit": 0}, "time limit 0 is not positive"),
        ("alphabeta", {"time_limit": float("nan")}, "time limit nan is not a number of seconds"),
        ("alphabeta", {"time_limit": "1"}, "time limit '1' is not a number of seconds"),
        ("random", {"seed": "x"}, "seed 'x' is not a whole number"),
        ("greedy", {"depth": 3}, r"a greedy player has no setting 'depth' \(its settings: none\)"),
        (
            "minimax",
            {"dpth": 3, "speed": 1},
            r"a minimax player has no setting 'dpth', 'speed' \(its settings: depth\)",
        ),
        ("alphabeta", {"name": None, "x": 1}, "has no setting 'x'"),
    ],
)
def test_make_player_refuses_bad_options(kind, options, message):
    with pytest.raises(PlayerError, match=message):
        make_player(kind, **options)
