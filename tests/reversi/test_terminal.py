"""The terminal game, driven the way a user drives it: lines in on standard input, text out."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap

import pytest

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
    assert "Black 3, White 3; Ann (Black) to move" in out
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
    assert move_prompts[:4] == ["Black, your move: "] * 4
    assert move_prompts[4] == "White, your move: "


def test_a_human_against_greedy_sees_the_computer_reply_and_can_undo():
    ask, _ = scripted(["human", "Ann", "greedy", "", "d3", "undo", "quit"])
    out: list[str] = []
    main([], input=ask, output=out.append)
    text = "\n".join(out)
    assert "Greedy (White) plays" in text
    assert "White accepts Black's undo: taken back d3" in text
    assert text.count("Black 2, White 2; Ann (Black) to move") == 2


def test_resign_ends_the_game_and_play_again_keeps_scores(tmp_path):
    result = run_terminal(
        ["human", "Ann", "human", "Bob", "resign", "y", "d3", "resign", "n"],
        "--saves",
        str(tmp_path),
    )
    out = result.stdout
    assert "Congratulations Bob! White wins, Black 2 – White 2 (resignation)" in out
    assert "Scores: Bob 1, Draws 0, Stalemates 0" in out
    assert "Congratulations Ann! Black wins, Black 4 – White 1 (resignation)" in out
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
    assert "Black 5, White 2; Bob (White) to move" in second.stdout  # after f5 d6 c3


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
    # Both are called Greedy, so the colour tells them apart everywhere.
    assert "Congratulations Greedy (Black)!" in text or "Congratulations Greedy (White)!" in text or "Draw" in text
    assert "Congratulations Greedy!" not in text


def test_the_end_of_input_quits_cleanly():
    result = run_terminal([])
    assert result.returncode == 0 and "Goodbye." in result.stdout


def test_the_end_of_input_says_goodbye_on_a_line_of_its_own():
    result = run_terminal(["human", "Ann", "human", "Bob"])  # then Ctrl-D at Ann's prompt
    assert result.returncode == 0
    assert result.stdout.endswith("Ann (Black), your move: \nGoodbye.\n")


def test_typing_quit_says_goodbye_once():
    result = run_terminal(["human", "Ann", "human", "Bob", "quit"])
    assert result.stdout.endswith("Ann (Black), your move: Goodbye.\n")  # the typed line ended it


def test_two_people_left_unnamed_are_greeted_by_their_colours_alone():
    result = run_terminal(["d3", "quit"], "--black", "human", "--white", "human")
    assert "Black, your move:" in result.stdout and "White, your move:" in result.stdout
    assert "(Black)" not in result.stdout and "(White)" not in result.stdout


def test_two_computer_players_of_one_kind_keep_their_colours_in_the_scores():
    ask, _ = scripted(["y", "n"])  # two games of Greedy against Greedy
    out: list[str] = []
    main(["--black", "greedy", "--white", "greedy"], input=ask, output=out.append)
    scores = [line for line in out if line.startswith("Scores:")]
    assert len(scores) == 2
    # Greedy is deterministic, so both games end alike: the same seat wins twice.
    assert scores[-1] in (
        "Scores: Greedy (Black) 2, Draws 0, Stalemates 0",
        "Scores: Greedy (White) 2, Draws 0, Stalemates 0",
        "Scores: Draws 2, Stalemates 0",
    )


@pytest.mark.parametrize(
    ("flag", "value", "problem"),
    [
        ("--size", "5", "must be an even whole number from 4 to 16, not '5'"),
        ("--size", "18", "must be an even whole number from 4 to 16, not '18'"),
        ("--size", "big", "must be an even whole number from 4 to 16, not 'big'"),
        ("--time", "0", "must be a finite number of seconds above 0.5"),
        ("--time", "-3", "not '-3'"),
        ("--time", "nan", "not 'nan'"),
        ("--time", "inf", "not 'inf'"),
        ("--time", "1e-300", "not '1e-300'"),
        ("--time", "soon", "not 'soon'"),
        ("--undo-limit", "-1", "must be a whole number from 0 to 1000000000, not '-1'"),
        ("--undo-limit", "1.5", "not '1.5'"),
        ("--undo-limit", "9" * 20, "must be a whole number from 0"),
        ("--saves", "/proc/x", "is inside '/proc'"),
        ("--saves", "/dev/null", "exists and is not a folder"),
        ("--saves", "x" * 5000, "characters long"),
        ("--load", "../etc/passwd", "argument --load: '../etc/passwd' is not a save name"),
    ],
)
def test_a_bad_setting_is_refused_before_any_question_naming_its_flag(flag, value, problem):
    result = run_terminal(["human", "Ann", "human", "Bob"], flag, value)
    assert result.returncode == 2
    assert result.stdout == ""  # not one question asked
    assert f"argument {flag}:" in result.stderr and problem in result.stderr
    assert "time_per_move" not in result.stderr and "Traceback" not in result.stderr


SLOW_THINKER = textwrap.dedent(
    """
    import sys, time
    from reversi.game import Game
    from reversi.players import HumanPlayer, Player
    from reversi.terminal import TerminalGame

    class SlowThinker(Player):
        kind, label = "slow", "Slow"

        def choose_move(self, board, color):
            print("thinking...", flush=True)
            time.sleep(60)  # Ctrl-C arrives while the computer thinks
            return board.legal_moves(color)[0]

    session = TerminalGame(output=lambda text: print(text, flush=True))
    session.run(Game(SlowThinker("Slow"), HumanPlayer("Ann")))
    print("exit normally", flush=True)
    """
)


def test_ctrl_c_while_the_computer_thinks_stops_cleanly():
    process = subprocess.Popen(
        [sys.executable, "-c", SLOW_THINKER],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        lines = []
        while not lines or lines[-1] != "thinking...\n":
            line = process.stdout.readline()
            assert line, f"the game ended before thinking: {lines}"
            lines.append(line)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert out == "\nGoodbye.\nexit normally\n"


def test_computer_means_the_easy_level_in_make_player_and_the_terminal(tmp_path):
    from reversi.players import DEFAULT_COMPUTER, Easy, make_player

    assert DEFAULT_COMPUTER == "easy"
    assert type(make_player("computer")) is Easy
    assert make_player("computer", name="Robo").name == "Robo"
    result = run_terminal(["d3", "quit"], "--black", "human", "--white", "computer",
                          "--saves", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "Easy (White)" in result.stdout


def test_computers_that_think_past_the_time_per_move_lose_turns_not_the_session(tmp_path):
    """Hard thinks about 1 s a move; with 0.5 s per move each turn is lost to the clock,
    the game ends after the turns lost in a row, and the session says so (no traceback)."""
    result = run_terminal(["n"], "--black", "hard", "--white", "hard", "--time", "0.6",
                          cwd=tmp_path)
    assert result.returncode == 0 and "Traceback" not in result.stderr
    assert "ran out of time" in result.stdout and "Goodbye." in result.stdout
