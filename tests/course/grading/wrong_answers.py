"""Plausible wrong answers, each with the check that must catch it and what its report shows."""

from __future__ import annotations

from dataclasses import dataclass

from course.grading.mistakes import sentence


@dataclass(frozen=True)
class Wrong:
    exercise: str
    tag: str  # the answer cell it replaces
    check: str  # the check function that must fail
    why: str
    code: str
    shows: str  # a piece of the check's output: the failing case, expected or actual

    @property
    def id(self) -> str:
        return f"{self.exercise}-{self.why.replace(' ', '-')}"


LETTERS = '"abcdefghijklmnop"'
#: What the report says of an answer that broke a tie the old way (the first of equal moves).
TIE_RULE = f"  likely cause: {sentence('tie rule')}\n"

WRONG = [
    # 01 squares
    Wrong(
        "01_squares",
        "answer:to_notation",
        "to_notation",
        "row and column swapped",
        f"def to_notation(row, col):\n    return {LETTERS}[row] + str(col + 1)",
        "row 2, column 3",
    ),
    Wrong(
        "01_squares",
        "answer:to_notation",
        "to_notation",
        "rows counted from 0",
        f"def to_notation(row, col):\n    return {LETTERS}[col] + str(row)",
        "expected: 'a1'",
    ),
    Wrong(
        "01_squares",
        "answer:from_notation",
        "from_notation",
        "one digit only",
        f"def from_notation(text):\n    return int(text[1]) - 1, {LETTERS}.index(text[0].lower())",
        "'a10'",
    ),
    Wrong(
        "01_squares",
        "answer:from_notation",
        "from_notation",
        "capitals not handled",
        f"def from_notation(text):\n    return int(text[1:]) - 1, {LETTERS}.index(text[0])",
        "'D3'",
    ),
    Wrong(
        "01_squares",
        "answer:from_notation",
        "from_notation",
        "returns col then row",
        f"def from_notation(text):\n    return {LETTERS}.index(text[0].lower()), int(text[1:]) - 1",
        "'d3'",
    ),
    # 02 counting
    Wrong(
        "02_counting",
        "answer:count_discs",
        "count_discs",
        "board size fixed at 8",
        "def count_discs(board, color):\n"
        "    return sum(board[r, c] is color for r in range(8) for c in range(8))",
        "4x4",
    ),
    Wrong(
        "02_counting",
        "answer:count_discs",
        "count_discs",
        "counts every disc",
        "def count_discs(board, color):\n"
        "    n = board.size\n    return sum(board[r, c] is not None for r in range(n) for c in range(n))",
        "Black on the start",
    ),
    Wrong(
        "02_counting",
        "answer:leader",
        "leader",
        "a tie goes to Black",
        "def leader(board):\n"
        "    return BLACK if count_discs(board, BLACK) >= count_discs(board, WHITE) else WHITE",
        "expected: None",
    ),
    Wrong(
        "02_counting",
        "answer:leader",
        "leader",
        "the side with fewer discs",
        "def leader(board):\n    b, w = count_discs(board, BLACK), count_discs(board, WHITE)\n"
        "    return None if b == w else (WHITE if b > w else BLACK)",
        "Figure 2",
    ),
    # 03 lines
    Wrong(
        "03_lines",
        "answer:walk",
        "walk",
        "stops one short of the edge",
        "def walk(start, direction, size):\n    (row, col), (dr, dc) = start, direction\n"
        "    out = []\n    row, col = row + dr, col + dc\n"
        "    while 0 < row < size - 1 and 0 < col < size - 1:\n"
        "        out.append((row, col))\n        row, col = row + dr, col + dc\n    return out",
        "expected: e4 f4 g4 h4",
    ),
    Wrong(
        "03_lines",
        "answer:walk",
        "walk",
        "includes the start square",
        "def walk(start, direction, size):\n    (row, col), (dr, dc) = start, direction\n"
        "    out = []\n    while 0 <= row < size and 0 <= col < size:\n"
        "        out.append((row, col))\n        row, col = row + dr, col + dc\n    return out",
        "actual:   d4 e4 f4 g4 h4",
    ),
    Wrong(
        "03_lines",
        "answer:walk",
        "walk",
        "no check below zero",
        "def walk(start, direction, size):\n    (row, col), (dr, dc) = start, direction\n"
        "    out = []\n    row, col = row + dr, col + dc\n"
        "    while row < size and col < size and len(out) < size:\n"
        "        out.append((row, col))\n        row, col = row + dr, col + dc\n    return out",
        "is off the board",
    ),
    Wrong(
        "03_lines",
        "answer:neighbours",
        "neighbours",
        "no diagonals",
        "def neighbours(square, size):\n"
        "    return [walk(square, d, size)[0] for d in [(-1, 0), (1, 0), (0, -1), (0, 1)]\n"
        "            if walk(square, d, size)]",
        "d4 on 8x8",
    ),
    Wrong(
        "03_lines",
        "answer:neighbours",
        "neighbours",
        "off the board kept",
        "def neighbours(square, size):\n"
        "    return [(square[0] + dr, square[1] + dc) for dr, dc in DIRECTIONS]",
        "is off the board",
    ),
    # 04 flips
    Wrong(
        "04_flips",
        "answer:flips",
        "figure2",
        "ignores diagonals",
        "def flips(board, square, color):\n    row, col = square\n"
        "    if board[row, col] is not None:\n        return []\n    taken = []\n"
        "    for dr, dc in [(-1, 0), (1, 0), (0, -1), (0, 1)]:\n        line = []\n"
        "        r, c = row + dr, col + dc\n"
        "        while 0 <= r < board.size and 0 <= c < board.size and board[r, c] is color.opponent:\n"
        "            line.append((r, c))\n            r, c = r + dr, c + dc\n"
        "        if line and 0 <= r < board.size and 0 <= c < board.size and board[r, c] is color:\n"
        "            taken += line\n    return taken",
        "Figure 2, Black on g2",
    ),
    Wrong(
        "04_flips",
        "answer:flips",
        "figure2",
        "no closing disc needed",
        "def flips(board, square, color):\n    row, col = square\n"
        "    if board[row, col] is not None:\n        return []\n    taken = []\n"
        "    for dr, dc in DIRECTIONS:\n        r, c = row + dr, col + dc\n"
        "        while 0 <= r < board.size and 0 <= c < board.size and board[r, c] is color.opponent:\n"
        "            taken.append((r, c))\n            r, c = r + dr, c + dc\n    return taken",
        "Figure 2, Black on f7 (invalid)",
    ),
    Wrong(
        "04_flips",
        "answer:flips",
        "flips",
        "taken squares not refused",
        "def flips(board, square, color):\n    row, col = square\n    taken = []\n"
        "    for dr, dc in DIRECTIONS:\n        line = []\n        r, c = row + dr, col + dc\n"
        "        while 0 <= r < board.size and 0 <= c < board.size and board[r, c] is color.opponent:\n"
        "            line.append((r, c))\n            r, c = r + dr, c + dc\n"
        "        if line and 0 <= r < board.size and 0 <= c < board.size and board[r, c] is color:\n"
        "            taken += line\n    return taken",
        "expected: none",
    ),
    Wrong(
        "04_flips",
        "answer:flips",
        "flips",
        "uses the board's own flips",
        "def flips(board, square, color):\n    return board.flips(square, color)",
        "board.flips is not allowed here",
    ),
    Wrong(
        "04_flips",
        "answer:is_legal",
        "is_legal",
        "returns the list",
        "def is_legal(board, square, color):\n    return flips(board, square, color)",
        "expected True or False",
    ),
    Wrong(
        "04_flips",
        "answer:is_legal",
        "is_legal",
        "any neighbour will do",
        "def is_legal(board, square, color):\n    row, col = square\n"
        "    if board[row, col] is not None:\n        return False\n"
        "    return any(0 <= row + dr < board.size and 0 <= col + dc < board.size\n"
        "               and board[row + dr, col + dc] is color.opponent for dr, dc in DIRECTIONS)",
        "expected: False",
    ),
    # 05 play
    Wrong(
        "05_play",
        "answer:play",
        "play",
        "forgets the new disc",
        "def play(board, square, color):\n    captured = board.flips(square, color)\n"
        "    if not captured:\n        raise ValueError('illegal')\n"
        "    for taken in captured:\n        board[taken] = color\n    return captured",
        "Figure 2, Black on d1",
    ),
    Wrong(
        "05_play",
        "answer:play",
        "play",
        "an illegal move is played",
        "def play(board, square, color):\n    captured = board.flips(square, color)\n"
        "    board[square] = color\n"
        "    for taken in captured:\n        board[taken] = color\n    return captured",
        "expected: should raise ValueError and leave the board as it was",
    ),
    Wrong(
        "05_play",
        "answer:play",
        "play",
        "places the disc before checking",
        "def play(board, square, color):\n    board[square] = color\n"
        "    captured = board.flips(square, color)\n"
        "    if not captured:\n        raise ValueError('illegal')\n"
        "    return captured",
        "Figure 2, Black on d1",
    ),
    Wrong(
        "05_play",
        "answer:play",
        "play",
        "changes the board then refuses",
        "def play(board, square, color):\n    captured = board.flips(square, color)\n"
        "    board[square] = color\n"
        "    if not captured:\n        raise ValueError('illegal')\n"
        "    for taken in captured:\n        board[taken] = color\n    return captured",
        "it changed the board before raising",
    ),
    Wrong(
        "05_play",
        "answer:replay",
        "replay",
        "Black plays every move",
        "def replay(moves):\n    board = Board()\n"
        "    for i in range(0, len(moves), 2):\n        play(board, moves[i:i + 2], BLACK)\n    return board",
        "but it raised ValueError",
    ),
    Wrong(
        "05_play",
        "answer:replay",
        "replay",
        "White moves first",
        "def replay(moves):\n    board, color = Board(), WHITE\n"
        "    for i in range(0, len(moves), 2):\n        play(board, moves[i:i + 2], color)\n"
        "        color = color.opponent\n    return board",
        "First failing case",
    ),
    # 06 legal moves
    Wrong(
        "06_legal_moves",
        "answer:legal_moves",
        "legal_moves",
        "next to an opponent disc is enough",
        "def legal_moves(board, color):\n"
        "    DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]\n"
        "    found = []\n"
        "    for r, c in board.squares():\n        if board[r, c] is None and any(\n"
        "                0 <= r + dr < board.size and 0 <= c + dc < board.size\n"
        "                and board[r + dr, c + dc] is color.opponent for dr, dc in DIRECTIONS):\n"
        "            found.append((r, c))\n    return found",
        "position 1, Black to move",
    ),
    Wrong(
        "06_legal_moves",
        "answer:legal_moves",
        "legal_moves",
        "the opponent's moves",
        "def legal_moves(board, color):\n"
        "    return [sq for sq in board.squares() if board.is_legal(sq, color.opponent)]",
        "position 1, Black to move",
    ),
    Wrong(
        "06_legal_moves",
        "answer:must_pass",
        "must_pass",
        "passes at the end too",
        "def must_pass(board, color):\n    return len(legal_moves(board, color)) == 0",
        "game over with empty squares",
    ),
    Wrong(
        "06_legal_moves",
        "answer:must_pass",
        "must_pass",
        "returns a list",
        "def must_pass(board, color):\n"
        "    return not legal_moves(board, color) and legal_moves(board, color.opponent)",
        "expected True or False",
    ),
    Wrong(
        "06_legal_moves",
        "answer:game_over",
        "game_over",
        "over only when full",
        "def game_over(board):\n    return all(board[sq] is not None for sq in board.squares())",
        "game over with empty squares",
    ),
    Wrong(
        "06_legal_moves",
        "answer:game_over",
        "game_over",
        "only Black is asked",
        "def game_over(board):\n    return not legal_moves(board, BLACK)",
        "Black must pass",
    ),
    Wrong(
        "06_legal_moves",
        "answer:winner",
        "winner",
        "a draw goes to White",
        "def winner(board):\n    return BLACK if board.count(BLACK) > board.count(WHITE) else WHITE",
        "expected: None",
    ),
    Wrong(
        "06_legal_moves",
        "answer:winner",
        "winner",
        "more than half the board",
        "def winner(board):\n    half = board.size * board.size // 2\n"
        "    if board.count(BLACK) > half:\n        return BLACK\n"
        "    if board.count(WHITE) > half:\n        return WHITE\n    return None",
        "a wipe-out",
    ),
    Wrong(
        "07_greedy",
        "answer:greedy_move",
        "greedy_move",
        "corners counter-clockwise",
        "def greedy_move(board, color):\n    moves = board.legal_moves(color)\n    if not moves:\n        return PASS\n    last = board.size - 1\n    for corner in [(0, 0), (last, 0), (last, last), (0, last)]:\n        if corner in moves:\n            return corner\n    best, most = None, -1\n    for move in moves:\n        count = len(board.flips(move, color))\n        if count >= most:\n            best, most = move, count\n    return best",
        "corners: top-right h1, bottom-left a8",
    ),
    Wrong(
        "07_greedy",
        "answer:greedy_move",
        "greedy_move",
        "first of equal moves",
        "def greedy_move(board, color):\n    moves = board.legal_moves(color)\n    if not moves:\n        return PASS\n    last = board.size - 1\n    for corner in [(0, 0), (0, last), (last, last), (last, 0)]:\n        if corner in moves:\n            return corner\n    best, most = None, -1\n    for move in moves:\n        count = len(board.flips(move, color))\n        if count > most:\n            best, most = move, count\n    return best",
        TIE_RULE,
    ),
    Wrong(
        "07_greedy",
        "answer:greedy_move",
        "greedy_move",
        "corners of an 8x8 board only",
        "def greedy_move(board, color):\n    moves = board.legal_moves(color)\n    if not moves:\n        return PASS\n    last = board.size - 1\n    for corner in [(0, 0), (0, 7), (7, 7), (7, 0)]:\n        if corner in moves:\n            return corner\n    best, most = None, -1\n    for move in moves:\n        count = len(board.flips(move, color))\n        if count >= most:\n            best, most = move, count\n    return best",
        "6x6 game 1",
    ),
    Wrong(
        "07_greedy",
        "answer:greedy_move",
        "greedy_move",
        "no corner rule",
        "def greedy_move(board, color):\n    moves = board.legal_moves(color)\n    if not moves:\n        return PASS\n    last = board.size - 1\n    for corner in []:\n        if corner in moves:\n            return corner\n    best, most = None, -1\n    for move in moves:\n        count = len(board.flips(move, color))\n        if count >= most:\n            best, most = move, count\n    return best",
        "corners: top-left a1",
    ),
    Wrong(
        "07_greedy",
        "answer:greedy_move",
        "greedy_games",
        "first of equal moves in games",
        "def greedy_move(board, color):\n    moves = board.legal_moves(color)\n    if not moves:\n        return PASS\n    last = board.size - 1\n    for corner in [(0, 0), (0, last), (last, last), (last, 0)]:\n        if corner in moves:\n            return corner\n    best, most = None, -1\n    for move in moves:\n        count = len(board.flips(move, color))\n        if count > most:\n            best, most = move, count\n    return best",
        TIE_RULE,
    ),
    Wrong(
        "08_positional",
        "answer:positional_score",
        "positional_score",
        "opponent not subtracted",
        "def positional_score(board, color):\n    table = weights(board.size)\n    return sum(table[r][c] for r, c in board.squares() if board[r, c] is color)",
        "position 1",
    ),
    Wrong(
        "08_positional",
        "answer:positional_score",
        "positional_score",
        "the 8x8 table for every board",
        "def positional_score(board, color):\n    table = weights(8)\n    score = 0\n    for r, c in board.squares():\n        if board[r, c] is color:\n            score += table[r][c]\n        elif board[r, c] is color.opponent:\n            score -= table[r][c]\n    return score",
        "4x4 position",
    ),
    Wrong(
        "08_positional",
        "answer:positional_move",
        "positional_move",
        "the best square, not the best position",
        "def positional_move(board, color):\n    moves = board.legal_moves(color)\n    if not moves:\n        return PASS\n    table = weights(board.size)\n    return max(moves, key=lambda m: table[m[0]][m[1]])",
        "against random moves",
    ),
    Wrong(
        "08_positional",
        "answer:positional_move",
        "positional_move",
        "first of equal moves",
        "def positional_move(board, color):\n    best, top = PASS, None\n    for move in board.legal_moves(color):\n        after = board.copy()\n        after.play(move, color)\n        score = positional_score(after, color)\n        if top is None or score > top:\n            best, top = move, score\n    return best",
        TIE_RULE,
    ),
    Wrong(
        "09_minimax",
        "answer:minimax",
        "minimax_value",
        "no minus sign",
        "def minimax(board, color, depth, counter):\n    counter.visit()\n    if depth == 0:\n        return evaluate(board, color)\n    moves = board.legal_moves(color)\n    if not moves:\n        if not board.legal_moves(color.opponent):\n            return evaluate(board, color)\n        return -minimax(board, color.opponent, depth - 1, counter)\n    best = -math.inf\n    for move in moves:\n        child = board.copy()\n        child.play(move, color)\n        best = max(best, minimax(child, color.opponent, depth - 1, counter))\n    return best",
        "the start, depth 3",
    ),
    Wrong(
        "09_minimax",
        "answer:minimax",
        "minimax_value",
        "a pass ends the game",
        "def minimax(board, color, depth, counter):\n    counter.visit()\n    if depth == 0:\n        return evaluate(board, color)\n    moves = board.legal_moves(color)\n    if not moves:\n        return evaluate(board, color)\n    best = -math.inf\n    for move in moves:\n        child = board.copy()\n        child.play(move, color)\n        best = max(best, -minimax(child, color.opponent, depth - 1, counter))\n    return best",
        "must pass",
    ),
    Wrong(
        "09_minimax",
        "answer:minimax",
        "minimax_nodes",
        "a pass costs no depth",
        "def minimax(board, color, depth, counter):\n    counter.visit()\n    if depth == 0:\n        return evaluate(board, color)\n    moves = board.legal_moves(color)\n    if not moves:\n        if not board.legal_moves(color.opponent):\n            return evaluate(board, color)\n        return -minimax(board, color.opponent, depth, counter)\n    best = -math.inf\n    for move in moves:\n        child = board.copy()\n        child.play(move, color)\n        best = max(best, -minimax(child, color.opponent, depth - 1, counter))\n    return best",
        "must pass",
    ),
    Wrong(
        "09_minimax",
        "answer:minimax",
        "minimax_nodes",
        "counter removed",
        "def minimax(board, color, depth, counter):\n    if depth == 0:\n        return evaluate(board, color)\n    moves = board.legal_moves(color)\n    if not moves:\n        if not board.legal_moves(color.opponent):\n            return evaluate(board, color)\n        return -minimax(board, color.opponent, depth - 1, counter)\n    best = -math.inf\n    for move in moves:\n        child = board.copy()\n        child.play(move, color)\n        best = max(best, -minimax(child, color.opponent, depth - 1, counter))\n    return best",
        "actual:   0 positions visited",
    ),
    Wrong(
        "09_minimax",
        "answer:minimax",
        "minimax_value",
        "plays on the board itself",
        "def minimax(board, color, depth, counter):\n    counter.visit()\n    if depth == 0:\n        return evaluate(board, color)\n    moves = board.legal_moves(color)\n    if not moves:\n        if not board.legal_moves(color.opponent):\n            return evaluate(board, color)\n        return -minimax(board, color.opponent, depth - 1, counter)\n    best = -math.inf\n    for move in moves:\n        child = board\n        child.play(move, color)\n        best = max(best, -minimax(child, color.opponent, depth - 1, counter))\n    return best",
        "but it raised",
    ),
    Wrong(
        "09_minimax",
        "answer:best_move",
        "best_move",
        "the worst move",
        "def best_move(board, color, depth):\n    moves = board.legal_moves(color)\n    if not moves:\n        return PASS\n    def value(move):\n        child = board.copy()\n        child.play(move, color)\n        return -minimax(child, color.opponent, depth - 1, NodeCounter())\n    return min(moves, key=value)",
        ", worth",
    ),
    Wrong(
        "09_minimax",
        "answer:best_move",
        "best_move",
        "first of equally good moves",
        "def best_move(board, color, depth):\n    best, top = PASS, -math.inf\n    for move in board.legal_moves(color):\n        child = board.copy()\n        child.play(move, color)\n        value = -minimax(child, color.opponent, depth - 1, NodeCounter())\n        if best == PASS or value > top:\n            best, top = move, value\n    return best",
        TIE_RULE,
    ),
    Wrong(
        "09_minimax",
        "answer:best_move",
        "best_move",
        "no PASS without moves",
        "def best_move(board, color, depth):\n    moves = board.legal_moves(color)\n    def value(move):\n        child = board.copy()\n        child.play(move, color)\n        return -minimax(child, color.opponent, depth - 1, NodeCounter())\n    return max(reversed(moves), key=value)",
        "must pass",
    ),
    Wrong(
        "10_alphabeta",
        "answer:alphabeta",
        "alphabeta_prunes",
        "never prunes",
        "def alphabeta(board, color, depth, alpha, beta, counter):\n    counter.visit()\n    if depth == 0:\n        return evaluate(board, color)\n    moves = board.legal_moves(color)\n    if not moves:\n        if not board.legal_moves(color.opponent):\n            return evaluate(board, color)\n        return -alphabeta(board, color.opponent, depth - 1, -beta, -alpha, counter)\n    for move in moves:\n        child = board.copy()\n        child.play(move, color)\n        value = -alphabeta(child, color.opponent, depth - 1, -beta, -alpha, counter)\n        if False:\n            return value\n        alpha = max(alpha, value)\n    return alpha",
        "here alpha-beta must cut",
    ),
    Wrong(
        "10_alphabeta",
        "answer:alphabeta",
        "alphabeta_value",
        "window not turned around",
        "def alphabeta(board, color, depth, alpha, beta, counter):\n    counter.visit()\n    if depth == 0:\n        return evaluate(board, color)\n    moves = board.legal_moves(color)\n    if not moves:\n        if not board.legal_moves(color.opponent):\n            return evaluate(board, color)\n        return -alphabeta(board, color.opponent, depth - 1, -beta, -alpha, counter)\n    for move in moves:\n        child = board.copy()\n        child.play(move, color)\n        value = -alphabeta(child, color.opponent, depth - 1, alpha, beta, counter)\n        if value >= beta:\n            return value\n        alpha = max(alpha, value)\n    return alpha",
        "First failing case",
    ),
    Wrong(
        "10_alphabeta",
        "answer:alphabeta",
        "alphabeta_value",
        "prunes as soon as alpha improves",
        "def alphabeta(board, color, depth, alpha, beta, counter):\n    counter.visit()\n    if depth == 0:\n        return evaluate(board, color)\n    moves = board.legal_moves(color)\n    if not moves:\n        if not board.legal_moves(color.opponent):\n            return evaluate(board, color)\n        return -alphabeta(board, color.opponent, depth - 1, -beta, -alpha, counter)\n    for move in moves:\n        child = board.copy()\n        child.play(move, color)\n        value = -alphabeta(child, color.opponent, depth - 1, -beta, -alpha, counter)\n        if value > alpha:\n            return value\n        alpha = max(alpha, value)\n    return alpha",
        "First failing case",
    ),
    Wrong(
        "10_alphabeta",
        "answer:alphabeta",
        "alphabeta_window",
        "a pass keeps the window",
        "def alphabeta(board, color, depth, alpha, beta, counter):\n    counter.visit()\n    if depth == 0:\n        return evaluate(board, color)\n    moves = board.legal_moves(color)\n    if not moves:\n        if not board.legal_moves(color.opponent):\n            return evaluate(board, color)\n        return -alphabeta(board, color.opponent, depth - 1, alpha, beta, counter)\n    for move in moves:\n        child = board.copy()\n        child.play(move, color)\n        value = -alphabeta(child, color.opponent, depth - 1, -beta, -alpha, counter)\n        if value >= beta:\n            return value\n        alpha = max(alpha, value)\n    return alpha",
        "must pass",
    ),
    Wrong(
        "11_map_files",
        "answer:map_lines",
        "map_lines",
        "the closing quote not looked for",
        'def map_lines(text, width, height):\n    lines = text.split("\\n")\n    index = [line.strip() for line in lines].index("start:") + 1\n    while index < len(lines) and not lines[index].strip():\n        index += 1  # blank lines may stand between \'start:\' and the map\n    found = []\n    for _ in range(2 * height):\n        if index >= len(lines):\n            raise MapFileError("the map ends too soon", line=len(lines))\n        line = lines[index].strip()\n        if not line.startswith(\'"\'):\n            raise MapFileError("expected a map line in double quotes", line=index + 1)\n        closing = line.find(\'"\', 1)\n        if closing < 0:\n            raise MapFileError("the map line has no closing quote", line=index + 1)\n        inside = line.strip(\'"\')\n        if len(inside) != width:\n            raise MapFileError(f"{len(inside)} characters between the quotes; width is {width}", line=index + 1)\n        found.append(inside)\n        index += 1\n    for number, line in enumerate(lines[index:], start=index + 1):\n        if line.strip().startswith(\'"\'):\n            raise MapFileError(f"a map line too many: height is {height}", line=number)\n    return found\n',
        "the sample map 01_first_steps",
    ),
    Wrong(
        "11_map_files",
        "answer:map_lines",
        "map_line_errors",
        "lines counted from 0",
        'def map_lines(text, width, height):\n    lines = text.split("\\n")\n    index = [line.strip() for line in lines].index("start:") + 1\n    while index < len(lines) and not lines[index].strip():\n        index += 1  # blank lines may stand between \'start:\' and the map\n    found = []\n    for _ in range(2 * height):\n        if index >= len(lines):\n            raise MapFileError("the map ends too soon", line=len(lines))\n        line = lines[index].strip()\n        if not line.startswith(\'"\'):\n            raise MapFileError("expected a map line in double quotes", line=index + 1)\n        closing = line.find(\'"\', 1)\n        if closing < 0:\n            raise MapFileError("the map line has no closing quote", line=index)\n        inside = line[1:closing]\n        if len(inside) != width:\n            raise MapFileError(f"{len(inside)} characters between the quotes; width is {width}", line=index + 1)\n        found.append(inside)\n        index += 1\n    for number, line in enumerate(lines[index:], start=index + 1):\n        if line.strip().startswith(\'"\'):\n            raise MapFileError(f"a map line too many: height is {height}", line=number)\n    return found\n',
        "no closing quote",
    ),
    Wrong(
        "11_map_files",
        "answer:map_lines",
        "map_line_errors",
        "no map line too many",
        'def map_lines(text, width, height):\n    lines = text.split("\\n")\n    index = [line.strip() for line in lines].index("start:") + 1\n    while index < len(lines) and not lines[index].strip():\n        index += 1  # blank lines may stand between \'start:\' and the map\n    found = []\n    for _ in range(2 * height):\n        if index >= len(lines):\n            raise MapFileError("the map ends too soon", line=len(lines))\n        line = lines[index].strip()\n        if not line.startswith(\'"\'):\n            raise MapFileError("expected a map line in double quotes", line=index + 1)\n        closing = line.find(\'"\', 1)\n        if closing < 0:\n            raise MapFileError("the map line has no closing quote", line=index + 1)\n        inside = line[1:closing]\n        if len(inside) != width:\n            raise MapFileError(f"{len(inside)} characters between the quotes; width is {width}", line=index + 1)\n        found.append(inside)\n        index += 1\n    for number, line in enumerate(lines[index:], start=index + 1):\n        if line.strip().startswith(\'"\'):\n            pass\n    return found\n',
        "a map line too many",
    ),
    Wrong(
        "11_map_files",
        "answer:parse_definitions",
        "definition_errors",
        "lines counted from 0",
        'KEYS = ["width", "height", "one", "two", "none", "on", "off", "empty", "penguin"]\nREQUIRED = KEYS[:-1]\n\n\ndef parse_definitions(text):\n    found = {}\n    lines = text.split("\\n")\n    for number, line in enumerate(lines):\n        if line.strip() == "start:":\n            missing = [key for key in REQUIRED if key not in found]\n            if missing:\n                raise MapFileError(f"missing definition of {\', \'.join(missing)}", line=number)\n            return found\n        before, equals, rest = line.partition("=")\n        key = before.strip()\n        if not equals or key not in KEYS:\n            continue  # a comment\n        value, semicolon, _comment = rest.partition(";")\n        if not semicolon:\n            raise MapFileError(f"the definition of {key!r} must end with \';\'", line=number)\n        if key in found:\n            raise MapFileError(f"{key!r} is defined twice", line=number)\n        value = value.strip()\n        if key in ("width", "height"):\n            if not value.isdigit() or int(value) == 0:\n                raise MapFileError(f"{key} must be a positive whole number, got {value!r}", line=number)\n            found[key] = int(value)\n        elif len(value) != 1:\n            raise MapFileError(f"{key!r} needs exactly one character, got {value!r}", line=number)\n        else:\n            found[key] = value\n    raise MapFileError("there is no \'start:\' line", line=len(lines) - 1)\n',
        "MapFileError on line",
    ),
    Wrong(
        "11_map_files",
        "answer:parse_definitions",
        "parse_definitions",
        "sizes kept as text",
        'KEYS = ["width", "height", "one", "two", "none", "on", "off", "empty", "penguin"]\nREQUIRED = KEYS[:-1]\n\n\ndef parse_definitions(text):\n    found = {}\n    lines = text.split("\\n")\n    for number, line in enumerate(lines, start=1):\n        if line.strip() == "start:":\n            missing = [key for key in REQUIRED if key not in found]\n            if missing:\n                raise MapFileError(f"missing definition of {\', \'.join(missing)}", line=number)\n            return found\n        before, equals, rest = line.partition("=")\n        key = before.strip()\n        if not equals or key not in KEYS:\n            continue  # a comment\n        value, semicolon, _comment = rest.partition(";")\n        if not semicolon:\n            raise MapFileError(f"the definition of {key!r} must end with \';\'", line=number)\n        if key in found:\n            raise MapFileError(f"{key!r} is defined twice", line=number)\n        value = value.strip()\n        if key in ("width", "height"):\n            if not value.isdigit() or int(value) == 0:\n                raise MapFileError(f"{key} must be a positive whole number, got {value!r}", line=number)\n            found[key] = value\n        elif len(value) != 1:\n            raise MapFileError(f"{key!r} needs exactly one character, got {value!r}", line=number)\n        else:\n            found[key] = value\n    raise MapFileError("there is no \'start:\' line", line=len(lines))\n',
        "the sample map 01_first_steps",
    ),
    Wrong(
        "11_map_files",
        "answer:parse_definitions",
        "parse_definitions",
        "values not stripped",
        'KEYS = ["width", "height", "one", "two", "none", "on", "off", "empty", "penguin"]\nREQUIRED = KEYS[:-1]\n\n\ndef parse_definitions(text):\n    found = {}\n    lines = text.split("\\n")\n    for number, line in enumerate(lines, start=1):\n        if line.strip() == "start:":\n            missing = [key for key in REQUIRED if key not in found]\n            if missing:\n                raise MapFileError(f"missing definition of {\', \'.join(missing)}", line=number)\n            return found\n        before, equals, rest = line.partition("=")\n        key = before.strip()\n        if not equals or key not in KEYS:\n            continue  # a comment\n        value, semicolon, _comment = rest.partition(";")\n        if not semicolon:\n            raise MapFileError(f"the definition of {key!r} must end with \';\'", line=number)\n        if key in found:\n            raise MapFileError(f"{key!r} is defined twice", line=number)\n        if key in ("width", "height"):\n            if not value.strip().isdigit() or int(value.strip()) == 0:\n                raise MapFileError(f"{key} must be a positive whole number, got {value!r}", line=number)\n            found[key] = int(value.strip())\n        elif len(value) != 1:\n            raise MapFileError(f"{key!r} needs exactly one character, got {value!r}", line=number)\n        else:\n            found[key] = value\n    raise MapFileError("there is no \'start:\' line", line=len(lines))\n',
        "04_own_characters",
    ),
    Wrong(
        "11_map_files",
        "answer:parse_definitions",
        "definition_errors",
        "a second definition wins",
        'KEYS = ["width", "height", "one", "two", "none", "on", "off", "empty", "penguin"]\nREQUIRED = KEYS[:-1]\n\n\ndef parse_definitions(text):\n    found = {}\n    lines = text.split("\\n")\n    for number, line in enumerate(lines, start=1):\n        if line.strip() == "start:":\n            missing = [key for key in REQUIRED if key not in found]\n            if missing:\n                raise MapFileError(f"missing definition of {\', \'.join(missing)}", line=number)\n            return found\n        before, equals, rest = line.partition("=")\n        key = before.strip()\n        if not equals or key not in KEYS:\n            continue  # a comment\n        value, semicolon, _comment = rest.partition(";")\n        if not semicolon:\n            raise MapFileError(f"the definition of {key!r} must end with \';\'", line=number)\n        if False:\n            raise MapFileError(f"{key!r} is defined twice", line=number)\n        value = value.strip()\n        if key in ("width", "height"):\n            if not value.isdigit() or int(value) == 0:\n                raise MapFileError(f"{key} must be a positive whole number, got {value!r}", line=number)\n            found[key] = int(value)\n        elif len(value) != 1:\n            raise MapFileError(f"{key!r} needs exactly one character, got {value!r}", line=number)\n        else:\n            found[key] = value\n    raise MapFileError("there is no \'start:\' line", line=len(lines))\n',
        "'on' defined twice",
    ),
    Wrong(
        "12_cursor",
        "answer:combine",
        "combine",
        "XOR taken for OR",
        "def combine(operator, field, bit):\n    if operator not in ('AND', 'OR', 'XOR'):\n        raise ValueError(operator)\n    if field == '.':\n        return '.'\n    if operator == 'AND':\n        return str(int(field) & bit)\n    return str(int(field) | bit)",
        "'1' 'XOR' 1",
    ),
    Wrong(
        "12_cursor",
        "answer:combine",
        "combine",
        "empty field switched",
        "def combine(operator, field, bit):\n    if operator not in ('AND', 'OR', 'XOR'):\n        raise ValueError(operator)\n    value = int(field.replace('.', '0'))\n    if operator == 'AND':\n        return str(value & bit)\n    if operator == 'OR':\n        return str(value | bit)\n    return str(value ^ bit)",
        "'.' 'OR' 1",
    ),
    Wrong(
        "12_cursor",
        "answer:combine",
        "combine",
        "an unknown operator taken for XOR",
        "def combine(operator, field, bit):\n    if field == '.':\n        return '.'\n    if operator == 'AND':\n        return str(int(field) & bit)\n    if operator == 'OR':\n        return str(int(field) | bit)\n    return str(int(field) ^ bit)",
        "'1' 'NAND' 1",
    ),
    Wrong(
        "12_cursor",
        "answer:apply_cursor",
        "apply_cursor",
        "bits in reading order",
        'def apply_cursor(rows, bits, operator, row, col):\n    offsets = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]\n    grid = [list(text) for text in rows]\n    for bit, (dr, dc) in zip(bits, offsets):\n        r, c = row + dr, col + dc\n        if 0 <= r < len(grid) and 0 <= c < len(grid[r]) and grid[r][c] != ".":\n            grid[r][c] = str(combine(operator, int(grid[r][c]), bit))\n    return ["".join(cells) for cells in grid]',
        "bits listed clockwise",
    ),
    Wrong(
        "12_cursor",
        "answer:apply_cursor",
        "apply_cursor",
        "empty fields read as 0",
        'def apply_cursor(rows, bits, operator, row, col):\n    offsets = [(-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1)]\n    grid = [list(text) for text in rows]\n    for bit, (dr, dc) in zip(bits, offsets):\n        r, c = row + dr, col + dc\n        if 0 <= r < len(grid) and 0 <= c < len(grid[r]) and True:\n            grid[r][c] = str(combine(operator, int(grid[r][c].replace(".", "0")), bit))\n    return ["".join(cells) for cells in grid]',
        "empty fields never change",
    ),
    Wrong(
        "12_cursor",
        "answer:apply_cursor",
        "apply_cursor",
        "no check above the first row",
        'def apply_cursor(rows, bits, operator, row, col):\n    offsets = [(-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1)]\n    grid = [list(text) for text in rows]\n    for bit, (dr, dc) in zip(bits, offsets):\n        r, c = row + dr, col + dc\n        if r < len(grid) and c < len(grid[r]) and grid[r][c] != ".":\n            grid[r][c] = str(combine(operator, int(grid[r][c]), bit))\n    return ["".join(cells) for cells in grid]',
        "top-left corner",
    ),
    # the likely causes a check names
    Wrong(
        "01_squares",
        "answer:from_notation",
        "from_notation",
        "rows counted from 1",
        f"def from_notation(text):\n    return (int(text[1:]), {LETTERS}.index(text[0].lower()))",
        "likely cause: off by one",
    ),
    Wrong(
        "02_counting",
        "answer:count_discs",
        "count_discs",
        "printed instead of returned",
        "def count_discs(board, color):\n    print(sum(board[r, c] == color for r, c in board.squares()))",
        "likely cause: it printed its answer instead of returning it",
    ),
    Wrong(
        "08_positional",
        "answer:positional_move",
        "positional_move",
        "plays on the real board",
        "def positional_move(board, color):\n    best, top = PASS, None\n    for move in board.legal_moves(color):\n        board.play(move, color)\n        score = positional_score(board, color)\n        if top is None or score > top:\n            best, top = move, score\n    return best",
        "likely cause: it played on the board it was given instead of on a copy",
    ),
    Wrong(
        "10_alphabeta",
        "answer:alphabeta",
        "alphabeta_prunes",
        "minimax counting only the root and its children",
        "def alphabeta(board, color, depth, alpha, beta, counter, top=True):\n"
        "    if top:\n        counter.visit()\n"
        "    if depth == 0:\n        return evaluate(board, color)\n"
        "    moves = board.legal_moves(color)\n"
        "    if not moves:\n        if not board.legal_moves(color.opponent):\n"
        "            return evaluate(board, color)\n"
        "        if top:\n            counter.visit()\n"
        "        return -alphabeta(board, color.opponent, depth - 1, -beta, -alpha, counter, False)\n"
        "    best = -math.inf\n    for move in moves:\n"
        "        if top:\n            counter.visit()\n"
        "        child = board.copy()\n        child.play(move, color)\n"
        "        best = max(best, -alphabeta(child, color.opponent, depth - 1, -beta, -alpha, counter, False))\n"
        "    return best",
        "too few to know the value",
    ),
]


def cause(name: str) -> str:
    """The report's line naming the kind of mistake ``name``, whole (nothing after it)."""
    return f"  likely cause: {sentence(name)}\n"


_CURSOR = (
    "def apply_cursor(rows, bits, operator, row, col):\n    offsets = {}\n"
    "    grid = [list(text) for text in rows]\n    for bit, (dr, dc) in zip(bits, offsets):\n"
    "        r, c = row + dr, col + dc\n"
    "        if 0 <= r < len(grid) and 0 <= c < len(grid[r]) and grid[r][c] != '.':\n"
    "            grid[r][c] = str(combine(operator, int(grid[r][c]), bit))\n"
    "    return [''.join(cells) for cells in grid]"
)
_MINIMAX = (
    "def minimax(board, color, depth, counter):\n    counter.visit()\n"
    "    if depth == 0:\n        return {leaf}\n    moves = board.legal_moves(color)\n"
    "    if not moves:\n        if not board.legal_moves(color.opponent):\n"
    "            return {leaf}\n"
    "        return -minimax(board, color.opponent, depth - 1, counter)\n"
    "    best = -math.inf\n    for move in moves:\n        child = board.copy()\n"
    "        child.play(move, color)\n"
    "        best = max(best, {sign}minimax(child, color.opponent, depth - 1, counter))\n"
    "    return best"
)

#: One wrong answer (or more) per kind of mistake in course.grading.mistakes: the report
#: names exactly that kind's sentence as the likely cause.
WRONG += [
    Wrong("01_squares", "answer:to_notation", "to_notation", "swap named as a swap",
          f"def to_notation(row, col):\n    return {LETTERS}[row] + str(col + 1)",
          cause("swapped")),
    Wrong("01_squares", "answer:from_notation", "from_notation", "(col, row) named as a swap",
          f"def from_notation(text):\n    return {LETTERS}.index(text[0].lower()), int(text[1:]) - 1",
          cause("swapped")),
    Wrong("06_legal_moves", "answer:legal_moves", "legal_moves", "moves as (col, row)",
          "def legal_moves(board, color):\n"
          "    return [(c, r) for r, c in board.squares() if board.is_legal((r, c), color)]",
          cause("swapped")),
    Wrong("01_squares", "answer:to_notation", "to_notation", "row 0 named as off by one",
          f"def to_notation(row, col):\n    return {LETTERS}[col] + str(row)", cause("off by one")),
    Wrong("01_squares", "answer:to_notation", "to_notation", "columns from b named as off by one",
          f"def to_notation(row, col):\n    return {LETTERS}[col + 1] + str(row + 1)",
          cause("off by one")),
    Wrong("09_minimax", "answer:minimax", "minimax_value", "no minus sign named as the sign",
          _MINIMAX.format(leaf="evaluate(board, color)", sign=""), cause("wrong sign")),
    Wrong("09_minimax", "answer:minimax", "minimax_value", "the opponent's view",
          _MINIMAX.format(leaf="evaluate(board, color.opponent)", sign="-"), cause("wrong sign")),
    Wrong("02_counting", "answer:count_discs", "count_discs", "printing named as printing",
          "def count_discs(board, color):\n"
          "    print(sum(board[r, c] == color for r, c in board.squares()))",
          cause("printed")),
    Wrong("12_cursor", "answer:apply_cursor", "apply_cursor", "bits counter-clockwise",
          _CURSOR.format("[(-1, -1), (0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)]"),
          cause("bit order")),
    Wrong("12_cursor", "answer:apply_cursor", "apply_cursor", "bits clockwise from the top",
          _CURSOR.format("[(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)]"),
          cause("bit order")),
    Wrong("12_cursor", "answer:apply_cursor", "apply_cursor", "bits in reading order named",
          _CURSOR.format("[(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]"),
          cause("bit order")),
    Wrong("12_cursor", "answer:combine", "combine", "an unknown operator should raise",
          "def combine(operator, field, bit):\n    if field == '.':\n        return '.'\n"
          "    if operator == 'AND':\n        return str(int(field) & bit)\n"
          "    if operator == 'OR':\n        return str(int(field) | bit)\n"
          "    return str(int(field) ^ bit)",
          "  expected: should raise ValueError\n"),
    Wrong("05_play", "answer:replay", "replay", "the last move left out",
          "def replay(moves):\n    board, color = Board(), BLACK\n"
          "    for i in range(0, len(moves) - 2, 2):\n        play(board, moves[i:i + 2], color)\n"
          "        color = color.opponent\n    return board",
          "  actual:   a board where\n    b6 should be White; yours is empty\n"),
]
