"""``python -m course class ...``: the class list, its sign-in cards and a student's data.

Every change is checked whole before anything is written (the roster file is replaced in
one step), and a refusal is ``error: ...`` with exit status 2.  Codes are never printed:
they go only onto the cards page, which the teacher prints and deletes.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path

from course import arguments as checked
from course.roster.cards import cards_html, check_address
from course.roster.formats import merge, read_roster
from course.roster.model import RosterError, Student, folder_key
from course.roster.signin import SignIns
from course.roster.store import ROSTER, Places, RosterFile
from course.roster.term import erase_student, export_student

#: The port ``serve`` listens on by default (the cards' address says it).
PORT = 8765


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--roster", type=checked.output_file, default=ROSTER,
                        help="the class list (default: class/roster.json)")  # fmt: skip
    parser.add_argument("--data", type=checked.output_folder, default=Path("class/classroom-data"),
                        help="the class server's data (default: class/classroom-data)")  # fmt: skip
    steps = parser.add_subparsers(dest="step", required=True, metavar="STEP")
    bring = steps.add_parser("import", help="read a class list: Canvas's or Moodle's export, or a CSV of names")
    bring.add_argument("file", type=checked.existing_file)
    steps.add_parser("list", help="the students, their keys and ids, cards and browsers signed in")
    add = steps.add_parser("add", help="add a student")
    add.add_argument("name")
    add.add_argument("--id", default="", help="the gradebook's id (Canvas's ID, Moodle's ID number)")
    add.add_argument("--email", default="")
    rename = steps.add_parser("rename", help="rename a student (their work stays theirs)")
    rename.add_argument("name")
    rename.add_argument("new_name")
    for step, text in (("remove", "take a student off the list (signed out at once; their work is kept)"),
                       ("new-code", "a new card for one student (the old code stops; signed out everywhere)"),
                       ("sign-out", "sign a student out of every browser"),
                       ("free", "a class without a list: free a name a browser took"),
                       ("export", "everything kept about one student, as one JSON file"),
                       ("erase", "erase everything kept about one student (and take them off the list)")):  # fmt: skip
        one = steps.add_parser(step, help=text)
        one.add_argument("name", help="the student: a name as typed, a key, an id or an email")
        if step == "export":
            one.add_argument("--out", type=checked.output_file, default=None, help="default: class/exports/KEY.json")
        if step == "erase":
            one.add_argument("--yes", action="store_true", help="erase without asking again")
        if step == "new-code":
            _card_options(one, "class/cards-NAME.html")
    cards = steps.add_parser("cards", help="new codes and a printable page of cards (default: every student)")
    cards.add_argument("names", nargs="*", help="only these students")
    _card_options(cards, "class/cards.html")


def _card_options(parser: argparse.ArgumentParser, default: str) -> None:
    parser.add_argument("--address", type=check_address, default=None,
                        help=f"the site's address on the cards (default: this computer's, port {PORT})")  # fmt: skip
    parser.add_argument("--out", type=checked.output_file, default=None, help=f"the page (default: {default})")


def run(args: argparse.Namespace) -> int:
    places = Places(args.roster, args.data)
    roster_file = RosterFile(places.roster)
    signins = SignIns(roster_file, places.signin)
    try:
        return STEPS[args.step](args, roster_file, signins)
    except RosterError as refused:
        print(f"error: {refused}")
        return 2
    finally:
        signins.close()


def _import(args: argparse.Namespace, roster_file: RosterFile, signins: SignIns) -> int:
    kind, students = read_roster(args.file.read_bytes(), str(args.file))
    roster, said = merge(roster_file.load(), students)
    roster_file.save(roster)
    for line in said:
        print(line)
    added = sum(line.startswith("added") for line in said)
    print(f"Read {len(students)} students from {args.file} ({kind}): {added} new, {len(roster)} on the list "
          f"in {roster_file.path}. Next: python3 kit.py class cards")  # fmt: skip
    return 0


def _list(args: argparse.Namespace, roster_file: RosterFile, signins: SignIns) -> int:
    roster, browsers = roster_file.load(), signins.signed_in()
    if not roster:
        print(f"No class list in {roster_file.path}: python3 kit.py class import FILE")
        for key, name in signins.claims():
            print(f"{name} ({key}): a name a browser took, on {browsers.get(key, 0)} browser(s)")
        return 0
    for student in roster:
        ids = ", ".join(f"{what} {value}" for what, value in (("id", student.lms_id), ("SIS", student.sis_id),
                        ("login", student.login), ("email", student.email)) if value)  # fmt: skip
        card = "card" if signins.has_code(student.key) else "no card yet"
        print(f"{student.name} ({student.key}){': ' + ids if ids else ''}; {card}; "
              f"signed in on {browsers.get(student.key, 0)} browser(s)")
    print(f"{len(roster)} students in {roster_file.path}")
    return 0


def _add(args: argparse.Namespace, roster_file: RosterFile, signins: SignIns) -> int:
    roster = roster_file.load().add(args.name, lms_id=args.id, email=args.email)
    roster_file.save(roster)
    new = roster.students[-1]
    print(f"added {new.name} ({new.key}); make a card: python3 kit.py class new-code {new.key}")
    return 0


def _rename(args: argparse.Namespace, roster_file: RosterFile, signins: SignIns) -> int:
    roster = roster_file.load()
    student = roster.find(args.name)
    roster_file.save(roster.rename(student.key, args.new_name))
    print(f"renamed {student.name} to {args.new_name} ({student.key}: the same work, the same card)")
    return 0


def _remove(args: argparse.Namespace, roster_file: RosterFile, signins: SignIns) -> int:
    roster = roster_file.load()
    student = roster.find(args.name)
    roster_file.save(roster.remove(student.key))
    ended = signins.sign_out_student(student.key)
    print(f"removed {student.name} ({student.key}): signed out of {ended} browser(s); their work is kept "
          "until you erase it (python3 kit.py class erase)")
    return 0


def _address(args: argparse.Namespace) -> str:
    if args.address:
        return str(args.address)
    from course.classroom.announce import machine_addresses

    found = machine_addresses()
    return f"http://{found[0] if found else '127.0.0.1'}:{PORT}/"


def _write_cards(args: argparse.Namespace, cards: list[tuple[Student, str]], default: Path) -> Path:
    out = Path(args.out or default)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(cards_html(cards, _address(args)), encoding="utf-8")
    return out


def _cards(args: argparse.Namespace, roster_file: RosterFile, signins: SignIns) -> int:
    roster = roster_file.load()
    if not roster:
        raise RosterError(f"no class list in {roster_file.path} yet: python3 kit.py class import FILE")
    chosen = [roster.find(name) for name in args.names] if args.names else list(roster)
    out = _write_cards(args, [(student, signins.issue(student.key)) for student in chosen],
                       roster_file.path.parent / "cards.html")  # fmt: skip
    print(f"Wrote {len(chosen)} cards to {out}: print it, cut it, and delete the file. Earlier cards of "
          "these students stop working; browsers already signed in stay signed in.")
    return 0


def _new_code(args: argparse.Namespace, roster_file: RosterFile, signins: SignIns) -> int:
    student = roster_file.load().find(args.name)
    code = signins.issue(student.key)
    ended = signins.sign_out_student(student.key)
    out = _write_cards(args, [(student, code)], roster_file.path.parent / f"cards-{student.key}.html")
    print(f"A new card for {student.name} in {out}; the old code stops working and {ended} browser(s) "
          "were signed out.")
    return 0


def _sign_out(args: argparse.Namespace, roster_file: RosterFile, signins: SignIns) -> int:
    student = roster_file.load().find(args.name)
    print(f"{student.name} was signed out of {signins.sign_out_student(student.key)} browser(s).")
    return 0


def _free(args: argparse.Namespace, roster_file: RosterFile, signins: SignIns) -> int:
    if signins.free(args.name):
        print(f"The name {args.name!r} is free again (its browsers were signed out).")
        return 0
    raise RosterError(f"no browser has taken the name {args.name!r} in this class")


def _student(args: argparse.Namespace, roster_file: RosterFile, signins: SignIns) -> Student:
    roster = roster_file.load()
    if roster:
        return roster.find(args.name)
    claims = dict(signins.claims())
    key = args.name if args.name in claims else folder_key(args.name)
    return Student(key, claims.get(key, args.name))


def _export(args: argparse.Namespace, roster_file: RosterFile, signins: SignIns) -> int:
    student = _student(args, roster_file, signins)
    places = Places(roster_file.path, args.data)
    out = Path(args.out or roster_file.path.parent / "exports" / f"{student.key}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(export_student(student, places, signins), ensure_ascii=False, indent=1), encoding="utf-8")
    print(f"Everything kept about {student.name} is in {out}.")
    return 0


def _erase(args: argparse.Namespace, roster_file: RosterFile, signins: SignIns) -> int:
    student = _student(args, roster_file, signins)
    if not args.yes:
        print(f"This erases everything kept about {student.name} ({student.key}): hand-ins, self-checks, "
              "grades, sign-ins, and their place on the list. To go on: add --yes")
        return 1
    places = Places(roster_file.path, args.data)
    for line in erase_student(student, places, signins):
        print(line)
    roster = roster_file.load()
    if roster.get(student.key):
        roster_file.save(roster.remove(student.key))
        print(f"took {student.name} off the class list")
    return 0


STEPS: dict[str, Callable[[argparse.Namespace, RosterFile, SignIns], int]] = {
    "import": _import, "list": _list, "cards": _cards, "new-code": _new_code, "sign-out": _sign_out,
    "free": _free, "export": _export, "erase": _erase,
    "add": _add, "rename": _rename, "remove": _remove,
}  # fmt: skip
