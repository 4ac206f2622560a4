"""The terminal game, driven the way a user drives it: lines in on standard input, text out."""

from __future__ import annotations

import subprocess
import sys

from reversi.terminal import main


def run_terminal(lines: list[str], *args: str, cwd=None) -> subprocess.CompletedProcess[str]:
    """Run ``python -m reversi`` with ``lines`` typed on its standard input."""
    return subprocess.run(
        [sys.executable, "-m", "reversi", *args],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
    )


def scripted(lines: list[str]):
    """An input function that answers prompts from a list (and ends like Ctrl-D)."""
    answers = iter(lines)
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    return ask, prompts


def test_two_humans_play_moves_in_both_notations_through_stdin(tmp_path):
    result = run_terminal(
        ["human", "Ann", "human", "Bob", "d3", "C 3", "quit"], "--saves", str(tmp_path)
    )
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "Who plays Black?" in out and "Name for White" in out
    assert "Ann (Black), your move:" in out and "Bob (White), your move:" in out
    # After d3 then c3 the board shows both moves, with labels and counts.
    assert "  a b c d e f g h\n1 . . . . . . . .\n2 . . . . . . . .\n3 . . W B . . . ." in out
    assert "Black 3, White 3; Black (Ann) to move" in out
    assert out.rstrip().endswith("Goodbye.")


def test_bad_input_gets_a_message_and_the_same_player_tries_again():
    ask, prompts = scripted(["z9", "a1", "pass", "d3", "quit"])
    out: list[str] = []
    main(["--black", "human", "--white", "human"], input=ask, output=out.append)
    text = "\n".join(out)
    assert "Sorry: 'z9' is not a square of an 8x8 board" in text
    assert "Sorry: 'a1' is not a legal move for Black: no White disc is next to a1" in text
    assert "Sorry: Black cannot pass: it has legal moves (d3, c4, f5, e6)" in text
    move_prompts = [p for p in prompts if "your move" in p]
    assert move_prompts[:4] == ["Black (Black), your move: "] * 4
    assert move_prompts[4] == "White (White), your move: "


def test_a_human_against_greedy_sees_the_computer_reply_and_can_undo():
    ask, _ = scripted(["human", "Ann", "greedy", "", "d3", "undo", "quit"])
    out: list[str] = []
    main([], input=ask, output=out.append)
    text = "\n".join(out)
    assert "Greedy (White) plays" in text
    assert "White accepts Black's undo: taken back d3" in text
    assert text.count("Black 2, White 2; Black (Ann) to move") == 2


def test_resign_ends_the_game_and_play_again_keeps_scores(tmp_path):
    result = run_terminal(
        ["human", "Ann", "human", "Bob", "resign", "y", "d3", "resign", "n"],
        "--saves",
        str(tmp_path),
    )
    out = result.stdout
    assert "Congratulations Bob! White wins, 2-2 (resignation)" in out
    assert "Scores: Bob 1, Draws 0, Stalemates 0" in out
    assert "Congratulations Ann! Black wins, 4-1 (resignation)" in out
    assert "Scores: Ann 1, Bob 1, Draws 0, Stalemates 0" in out


def test_save_then_load_from_another_session(tmp_path):
    first = run_terminal(
        ["human", "Ann", "human", "Bob", "f5", "d6", "save lesson one", "quit"],
        "--saves",
        str(tmp_path),
    )
    assert "Saved as 'lesson one'" in first.stdout
    second = run_terminal(["c3", "quit"], "--saves", str(tmp_path), "--load", "lesson one")
    assert second.returncode == 0, second.stderr
    assert "Ann (Black), your move:" in second.stdout
    assert "Black 5, White 2; White (Bob) to move" in second.stdout  # after f5 d6 c3


def test_a_corrupt_save_is_reported_not_a_traceback(tmp_path):
    (tmp_path / "broken.json").write_text('{"format": "reversi-kit save", "vers')
    result = run_terminal([], "--saves", str(tmp_path), "--load", "broken")
    assert result.returncode == 2
    assert "Sorry: cannot load" in result.stdout and "not valid JSON" in result.stdout
    assert "Traceback" not in result.stderr


def test_computer_against_computer_plays_to_the_end_and_offers_another_game(tmp_path):
    result = run_terminal(["n"], "--black", "random", "--white", "greedy", "--saves", str(tmp_path))
    out = result.stdout
    assert result.returncode == 0
    assert ("Congratulations" in out) or ("Draw" in out)
    assert "Play again? [y/N]:" in out


def test_a_bad_player_kind_is_asked_again():
    ask, _ = scripted(["wizard", "Merlin", "greedy", "", "greedy", "", "n"])
    out: list[str] = []
    main([], input=ask, output=out.append)
    text = "\n".join(out)
    assert "Sorry:" in text and "'wizard'" in text
    assert "Greedy (Black) plays" in text and "Greedy (White) plays" in text
    assert "Congratulations Greedy!" in text or "Draw" in text


def test_the_end_of_input_quits_cleanly():
    result = run_terminal([])
    assert result.returncode == 0 and "Goodbye." in result.stdout
