"""The tournament's results as files: a leaderboard page, one replay page per game, two CSVs.

:func:`write_results` writes into a folder

* ``index.html``: the leaderboard (wins, draws, losses, points, disc difference, games
  lost by a fault), a chart of the results drawn as inline SVG, the cross-table and the
  list of games, each linked to its replay;
* ``games/game-NNN.html``: one game on a board, a picture of
  :func:`course.pictures.svg.board_svg` for every position and a step-through (buttons
  and the arrow keys; a few lines of inline script, no server);
* ``leaderboard.csv`` and ``games.csv``.

Every page is static and self-contained; every name and reason is escaped.
"""

from __future__ import annotations

import csv
import html
from pathlib import Path

from course.contest.referee import Played, positions
from course.contest.roundrobin import Contest, Row
from course.pictures.svg import board_svg
from reversi.errors import ArgumentError, shown
from reversi.notation import BLACK

STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5rem; color: #1d1d1d; max-width: 60rem; }
table { border-collapse: collapse; margin: 0.5rem 0 1.5rem; }
th, td { border-bottom: 1px solid #ccc; padding: 0.3rem 0.6rem; text-align: right; }
th:nth-child(2), td:nth-child(2) { text-align: left; }
.note { color: #8a4b00; }
.replay button { font-size: 1rem; padding: 0.4rem 0.9rem; margin-right: 0.3rem; }
.replay .caption { font-size: 1.1rem; margin: 0.5rem 0; min-height: 1.5em; }
"""
STEP_SCRIPT = """
(function () {
  const frames = Array.from(document.querySelectorAll('.replay .position'));
  const caption = document.querySelector('.replay .caption');
  let at = 0;
  function show(i) {
    at = Math.max(0, Math.min(frames.length - 1, i));
    frames.forEach((frame, k) => { frame.hidden = k !== at; });
    caption.textContent = frames[at].dataset.caption;
    document.querySelector('.replay').dataset.at = String(at);
  }
  const steps = { first: () => 0, back: () => at - 1, next: () => at + 1, last: () => frames.length - 1 };
  for (const [name, where] of Object.entries(steps)) {
    document.querySelector('.replay button.' + name).addEventListener('click', () => show(where()));
  }
  document.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowRight') show(at + 1);
    if (event.key === 'ArrowLeft') show(at - 1);
  });
  show(0);
})();
"""
CHART_COLORS = {"wins": "#1b7a43", "draws": "#9a9a9a", "losses": "#c0392b"}


def write_results(contest: Contest, out: str | Path) -> list[Path]:
    """Write the pages and CSVs into ``out`` (made if missing); returns the files written."""
    out = Path(out)
    try:
        return _write(contest, out)
    except (OSError, ValueError) as error:  # a folder that cannot be made, a name with a NUL
        raise ArgumentError(f"cannot write the results into {shown(str(out))}: {error}") from None


def _write(contest: Contest, out: Path) -> list[Path]:
    (out / "games").mkdir(parents=True, exist_ok=True)
    written = [out / "index.html", out / "leaderboard.csv", out / "games.csv"]
    (out / "index.html").write_text(leaderboard_page(contest), encoding="utf-8")
    _write_csv(out / "leaderboard.csv", _table_rows(contest.table()))
    _write_csv(out / "games.csv", _game_rows(contest))
    for number, game in enumerate(contest.games, start=1):
        path = out / "games" / _game_file(number)
        path.write_text(game_page(game, number), encoding="utf-8")
        written.append(path)
    return written


def _game_file(number: int) -> str:
    return f"game-{number:03d}.html"


def _page(title: str, body: str, script: str = "") -> str:
    return (
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head>"
        f"<body>{body}{f'<script>{script}</script>' if script else ''}</body></html>\n"
    )


def leaderboard_page(contest: Contest) -> str:
    """The leaderboard, the chart, the cross-table and the list of games."""
    s = contest.settings
    rows = contest.table()
    parts = [
        "<h1>Class tournament</h1>",
        f"<p>{len(contest.entrants)} players, {len(contest.games)} games: every player against "
        f"every other {s.games_per_pair} times (half with each colour) on a {s.size}x{s.size} "
        f"board, at most {s.move_time:g} s a move. A win is 1 point, a draw half a point. "
        "A crash, a time-out or an illegal move loses that game.</p>",
    ]
    if not s.isolated:
        parts.append("<p class='note'>The students' code was NOT isolated (run without "
                     "bubblewrap).</p>")  # fmt: skip
    head = "".join(f"<th>{h}</th>" for h in (
        "#", "player", "games", "wins", "draws", "losses", "points", "disc difference",
        "lost by a fault",
    ))  # fmt: skip
    body = "".join(
        f"<tr><td>{r.place}</td><td>{html.escape(r.name)}"
        f"{' <small>(kit level)</small>' if r.kind == 'kit level' else ''}</td>"
        f"<td>{r.games}</td><td>{r.wins}</td><td>{r.draws}</td><td>{r.losses}</td>"
        f"<td>{r.points:g}</td><td>{r.discs:+d}</td><td>{r.forfeits}</td></tr>"
        for r in rows
    )
    parts.append(f"<h2>Leaderboard</h2><table class='leaderboard'><thead><tr>{head}</tr></thead>"
                 f"<tbody>{body}</tbody></table>")  # fmt: skip
    parts.append(f"<h2>Results</h2>{results_chart(rows)}")
    parts.append(_crosstable(contest))
    parts.append(_game_list(contest))
    return _page("Class tournament", "".join(parts))


def results_chart(rows: list[Row]) -> str:
    """Wins, draws and losses of each player as stacked bars (inline SVG), best on top."""
    bar, gap, label, width = 22, 8, 150, 420
    most = max((r.games for r in rows), default=1) or 1
    height = len(rows) * (bar + gap) + 40
    parts = [
        f"<svg class='chart' xmlns='http://www.w3.org/2000/svg' width='{label + width + 80}' "
        f"height='{height}' role='img' aria-label='Wins, draws and losses of each player'>"
    ]
    for i, row in enumerate(rows):
        y, x = i * (bar + gap), float(label)
        parts.append(f"<text x='{label - 6}' y='{y + bar * 0.7:g}' text-anchor='end' "
                     f"font-size='13'>{html.escape(row.name[:22])}</text>")  # fmt: skip
        for field, count in (("wins", row.wins), ("draws", row.draws), ("losses", row.losses)):
            w = width * count / most
            if w:
                parts.append(
                    f"<rect class='{field}' x='{x:g}' y='{y}' width='{w:g}' height='{bar}' "
                    f"fill='{CHART_COLORS[field]}'><title>{html.escape(row.name)}: {count} "
                    f"{field}</title></rect>"
                )
            x += w
        parts.append(f"<text x='{x + 6:g}' y='{y + bar * 0.7:g}' font-size='13'>"
                     f"{row.points:g} pts</text>")  # fmt: skip
    legend_y = len(rows) * (bar + gap) + 14
    for k, (field, color) in enumerate(CHART_COLORS.items()):
        x = label + k * 90
        parts.append(f"<rect x='{x}' y='{legend_y}' width='14' height='14' fill='{color}'/>"
                     f"<text x='{x + 19}' y='{legend_y + 12}' font-size='13'>{field}</text>")  # fmt: skip
    parts.append("</svg>")
    return "".join(parts)


def _crosstable(contest: Contest) -> str:
    result = contest.result()
    names = result.names
    head = "".join(f"<th>{html.escape(n)}</th>" for n in names)
    body = ""
    for name, row in zip(names, result.crosstable(), strict=True):
        cells = "".join(f"<td>{'-' if cell is None else f'{cell:g}'}</td>" for cell in row)
        body += f"<tr><th>{html.escape(name)}</th>{cells}</tr>"
    return (f"<h2>Who took points from whom</h2><p>Points the player of the row took from "
            f"the player of the column.</p><table class='crosstable'><tr><th></th>{head}</tr>"
            f"{body}</table>")  # fmt: skip


def _game_list(contest: Contest) -> str:
    items = "".join(
        f"<li><a href='games/{_game_file(n)}'>Game {n}</a>: {html.escape(g.black)} (Black) v "
        f"{html.escape(g.white)} (White): {html.escape(g.describe())}</li>"
        for n, g in enumerate(contest.games, start=1)
    )
    return f"<h2>Every game</h2><ol class='games'>{items}</ol>"


def game_page(game: Played, number: int) -> str:
    """One game to step through: a board picture for every position, buttons and arrow keys."""
    seen = positions(game)
    frames = []
    color = BLACK
    for ply, (board, last, flipped) in enumerate(seen):
        if ply == 0:
            caption = "The start"
        else:
            move = game.moves[ply - 1]
            who = f"{game.name_of(color)} ({color})"
            caption = f"Move {ply} of {len(game.moves)}: {who} " + (
                "passes"
                if last is None
                else f"plays {move}, turning {len(flipped)} disc{'' if len(flipped) == 1 else 's'}"
            )
            if ply <= len(game.opening):
                caption += " (the opening)"
            color = color.opponent
        counts = board.counts()
        caption += f". Black {counts.black}, White {counts.white}."
        if ply == len(seen) - 1:
            caption += " " + game.describe()
        picture = board_svg(board, highlight=flipped, last_move=last, size_px=360)
        frames.append(f"<div class='position' data-caption='{html.escape(caption, quote=True)}'"
                      f"{'' if ply == 0 else ' hidden'}>{picture}</div>")  # fmt: skip
    title = f"Game {number}: {game.black} (Black) v {game.white} (White)"
    body = (
        f"<p><a href='../index.html'>Back to the leaderboard</a></p><h1>{html.escape(title)}</h1>"
        f"<p class='result'>{html.escape(game.describe())}</p>"
        "<div class='replay' data-at='0'>"
        "<div><button class='first' type='button'>|&lt; Start</button>"
        "<button class='back' type='button'>&lt; Back</button>"
        "<button class='next' type='button'>Next &gt;</button>"
        "<button class='last' type='button'>End &gt;|</button></div>"
        f"<p class='caption' aria-live='polite'>The start</p>{''.join(frames)}</div>"
        f"<p>Moves: {html.escape(' '.join(game.moves))}</p>"
    )
    return _page(title, body, STEP_SCRIPT)


def _table_rows(rows: list[Row]) -> list[list[object]]:
    header: list[object] = ["place", "player", "kind", "games", "wins", "draws", "losses",
                            "points", "disc_difference", "lost_by_fault"]  # fmt: skip
    return [header] + [
        [r.place, r.name, r.kind, r.games, r.wins, r.draws, r.losses, r.points, r.discs,
         r.forfeits]
        for r in rows
    ]  # fmt: skip


def _game_rows(contest: Contest) -> list[list[object]]:
    header: list[object] = ["game", "black", "white", "opening", "winner", "black_discs",
                            "white_discs", "lost_by_fault", "reason", "moves"]  # fmt: skip
    rows = [header]
    for n, g in enumerate(contest.games, start=1):
        fault = g.name_of(g.forfeit.color) if g.forfeit else ""
        rows.append([n, g.black, g.white, " ".join(g.opening), g.winner or "draw",
                     g.outcome.black, g.outcome.white, fault,
                     g.forfeit.reason if g.forfeit else g.outcome.reason.value,
                     " ".join(g.moves)])  # fmt: skip
    return rows


def _write_csv(path: Path, rows: list[list[object]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        for row in rows:
            writer.writerow([_safe(cell) for cell in row])


def _safe(cell: object) -> object:
    """A cell a spreadsheet will not run as a formula (a name may start with '=')."""
    if isinstance(cell, str) and cell[:1] in ("=", "+", "-", "@"):
        return "'" + cell
    return cell
