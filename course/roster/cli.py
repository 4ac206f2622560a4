"""``python -m course class ...``: the class list, its sign-in cards and a student's data.

Every change is checked whole before anything is written (the roster file is replaced in
one step), and a refusal is ``error: ...`` with exit status 2.  Codes are never printed:
they go only onto the cards page (readable by the teacher's account alone), which the
teacher prints and deletes.  The sign-in database is opened only by the steps that need it.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from course import arguments as checked
from course.roster.cards import cards_html, check_address
from course.roster.formats import MAX_BYTES, merge, read_class_list
from course.roster.model import RosterError, Student, folder_key
from course.roster.signin import SignIns
from course.roster.store import ROSTER, Places, RosterFile
from course.roster.term import erase_student, export_student

#: The port ``serve`` listens on by default (the cards' address says it).
PORT = 8765
WHO = "the student: a name as typed, a key, an id or an email"


def address(value: str) -> str:
    """``--address``: the site's address on the cards (argparse names the flag and the reason)."""
    try:
        return check_address(value)
    except RosterError as refused:
        raise checked.FlagError(str(refused)) from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--roster", type=checked.output_file, default=ROSTER,
                        help="the class list (default: class/roster.json; its sign-ins beside it)")  # fmt: skip
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
    rename = steps.add_parser("rename", help="rename a student (their work and card stay theirs)")
    rename.add_argument("name", help=WHO)
    rename.add_argument("new_name")
    for step, text in (("remove", "take a student off the list (signed out at once; their work is kept)"),
                       ("new-code", "a new card for one student (the old code stops; signed out everywhere)"),
                       ("sign-out", "sign a student out of every browser"),
                       ("free", "a class without a list: free a name a browser took"),
                       ("export", "everything kept about one student, as one JSON file"),
                       ("erase", "erase everything kept about one student (and take them off the list)")):  # fmt: skip
        one = steps.add_parser(step, help=text)
        one.add_argument("name", help=WHO)
        if step == "export":
            one.add_argument("--out", type=checked.output_file, default=None, help="default: class/exports/KEY.json")
        if step == "erase":
            one.add_argument("--yes", action="store_true", help="needed: an erase cannot be undone")
        if step == "new-code":
            _card_options(one, "class/cards-KEY.html")
    cards = steps.add_parser("cards", help="new codes and a printable page of cards (default: every student)")
    cards.add_argument("names", nargs="*", metavar="NAME", help="only these students")
    _card_options(cards, "class/cards.html")


def _card_options(parser: argparse.ArgumentParser, default: str) -> None:
    parser.add_argument("--address", type=address, default=None,
                        help=f"the site's address on the cards (default: this computer's, port {PORT})")  # fmt: skip
    parser.add_argument("--out", type=checked.output_file, default=None, help=f"the page (default: {default})")


class Class:
    """One class's files, as the flags name them; the sign-in database opened when first needed."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.places = Places(args.roster, args.data)
        self.roster_file = RosterFile(self.places.roster)
        self.folder = self.places.roster.parent
        self._signins: SignIns | None = None

    @property
    def signins(self) -> SignIns:
        if self._signins is None:
            self._signins = SignIns(self.roster_file, self.places.signin)
        return self._signins

    def has_signins(self) -> bool:
        return self._signins is not None or self.places.signin.is_file()

    def close(self) -> None:
        if self._signins is not None:
            self._signins.close()


def run(args: argparse.Namespace) -> int:
    here = Class(args)
    try:
        return STEPS[args.step](args, here)
    except RosterError as refused:
        print(f"error: {refused}")
    except (OSError, sqlite3.Error) as failed:
        print(f"error: {failed} (nothing more was changed)")
    finally:
        here.close()
    return 2


def _import(args: argparse.Namespace, here: Class) -> int:
    with args.file.open("rb") as file:
        data = file.read(MAX_BYTES + 1)  # a larger file is refused by its size
    kind, students = read_class_list(data, str(args.file))
    before = here.roster_file.load()
    roster, said = merge(before, students)
    here.roster_file.save(roster)
    for line in said:
        print(line)
    print(f"Read {len(students)} students from {args.file} ({kind}): {len(roster) - len(before)} new, "
          f"{len(roster)} on the list in {here.roster_file.path}. Next: python3 kit.py class cards")  # fmt: skip
    return 0


def _list(args: argparse.Namespace, here: Class) -> int:
    roster = here.roster_file.load()
    signins = here.signins if here.has_signins() else None
    browsers = signins.signed_in() if signins else {}
    if not roster:
        print(f"No class list in {here.roster_file.path}: python3 kit.py class import FILE")
        for key, name in signins.claims() if signins else []:
            print(f"{name} ({key}): a name a browser took, on {browsers.get(key, 0)} browser(s)")
        return 0
    for student in roster:
        ids = ", ".join(f"{what} {value}" for what, value in (("id", student.lms_id), ("SIS", student.sis_id),
                        ("login", student.login), ("email", student.email)) if value)  # fmt: skip
        card = "card" if signins and signins.has_code(student.key) else "no card yet"
        print(f"{student.name} ({student.key}){': ' + ids if ids else ''}; {card}; "
              f"signed in on {browsers.get(student.key, 0)} browser(s)")
    print(f"{len(roster)} students in {here.roster_file.path}")
    return 0


def _add(args: argparse.Namespace, here: Class) -> int:
    roster = here.roster_file.load().add(args.name, lms_id=args.id, email=args.email)
    here.roster_file.save(roster)
    new = roster.students[-1]
    print(f"added {new.name} ({new.key}); make a card: python3 kit.py class new-code {new.key}")
    return 0


def _rename(args: argparse.Namespace, here: Class) -> int:
    roster = here.roster_file.load()
    student = roster.find(args.name)
    renamed = roster.rename(student.key, args.new_name)
    here.roster_file.save(renamed)
    new = renamed.by_key[student.key]
    print(f"renamed {student.name} to {new.name} ({student.key}: the same work, the same card)")
    return 0


def _remove(args: argparse.Namespace, here: Class) -> int:
    roster = here.roster_file.load()
    student = roster.find(args.name)
    here.roster_file.save(roster.remove(student.key))
    ended = here.signins.sign_out_student(student.key)
    print(f"removed {student.name} ({student.key}): signed out of {ended} browser(s); their work is kept "
          f"until you erase it (python3 kit.py class erase {student.key} --yes)")  # fmt: skip
    return 0


def _address(args: argparse.Namespace) -> str:
    if args.address:
        return str(args.address)
    from course.classroom.announce import machine_addresses

    found = machine_addresses()
    if not found:
        raise RosterError("this computer's network address was not found (no network?): give the one "
                          "students will type, like --address http://192.168.1.20:8765/")  # fmt: skip
    return f"http://{found[0]}:{PORT}/"


def _write_page(out: Path, page: Callable[[], str]) -> None:
    """Write ``page()`` to ``out`` whole, its temporary file made first (so a folder that takes no
    file refuses before any code is issued) and readable by the teacher's account alone."""
    out.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{out.name}-", dir=out.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(page())
        os.replace(temporary, out)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _issued(here: Class, students: list[Student]) -> Iterator[tuple[Student, str]]:
    """Each student with a new code, made only as the page takes it (the page checks first)."""
    for student in students:
        yield student, here.signins.issue(student.key)


def _cards(args: argparse.Namespace, here: Class) -> int:
    roster = here.roster_file.load()
    if not roster:
        raise RosterError(f"no class list in {here.roster_file.path} yet: python3 kit.py class import FILE")
    chosen = list(dict.fromkeys(roster.find(name) for name in args.names)) if args.names else list(roster)
    site, out = _address(args), Path(args.out or here.folder / "cards.html")
    _write_page(out, lambda: cards_html(_issued(here, chosen), site))
    print(f"Wrote {len(chosen)} card{'s' if len(chosen) != 1 else ''} for {site} to {out}: print it, cut it, "
          "and delete the file. Earlier cards of these students stop working; browsers already signed in "
          "stay signed in.")  # fmt: skip
    return 0


def _new_code(args: argparse.Namespace, here: Class) -> int:
    student = here.roster_file.load().find(args.name)
    site, out = _address(args), Path(args.out or here.folder / f"cards-{student.key}.html")
    _write_page(out, lambda: cards_html(_issued(here, [student]), site))
    ended = here.signins.sign_out_student(student.key)
    print(f"A new card for {student.name} in {out}; the old code stops working and {ended} browser(s) "
          "were signed out.")  # fmt: skip
    return 0


def _sign_out(args: argparse.Namespace, here: Class) -> int:
    student = here.roster_file.load().find(args.name)
    print(f"{student.name} was signed out of {here.signins.sign_out_student(student.key)} browser(s).")
    return 0


def _free(args: argparse.Namespace, here: Class) -> int:
    if here.signins.free(args.name):
        print(f"The name {args.name!r} is free again (its browsers were signed out).")
        return 0
    raise RosterError(f"no browser has taken the name {args.name!r} in this class")


def _student(args: argparse.Namespace, here: Class) -> Student:
    """The student ``args.name`` means: on the list; else a casual class's name, or the key of a
    student taken off the list (whose data stays until erased)."""
    roster = here.roster_file.load()
    if roster.named(args.name):
        return roster.find(args.name)
    claims = dict(here.signins.claims())
    key = args.name if args.name in claims else folder_key(args.name)
    if roster:
        print(f"{args.name!r} is not on the class list: looking for what is kept under the key {key!r}")
    return Student(key, claims.get(key, args.name))


def _export(args: argparse.Namespace, here: Class) -> int:
    student = _student(args, here)
    out = Path(args.out or here.folder / "exports" / f"{student.key}.json")
    kept = export_student(student, here.places, here.signins)
    _write_page(out, lambda: json.dumps(kept, ensure_ascii=False, indent=1) + "\n")
    print(f"Everything kept about {student.name} ({student.key}) is in {out}.")
    return 0


def _erase(args: argparse.Namespace, here: Class) -> int:
    student = _student(args, here)
    if not args.yes:
        raise RosterError(f"erase takes away everything kept about {student.name} ({student.key}): hand-ins, "
                          "self-checks, grades, sign-ins and their place on the list, for good. Export it "
                          f"first if it may be asked for (python3 kit.py class export {student.key}); "
                          "to erase, add --yes")  # fmt: skip
    for line in erase_student(student, here.places, here.signins):
        print(line)
    roster = here.roster_file.load()
    if roster.get(student.key):
        here.roster_file.save(roster.remove(student.key))
        print(f"took {student.name} off the class list")
    return 0


STEPS: dict[str, Callable[[argparse.Namespace, Class], int]] = {
    "import": _import, "list": _list, "cards": _cards, "new-code": _new_code, "sign-out": _sign_out,
    "free": _free, "export": _export, "erase": _erase,
    "add": _add, "rename": _rename, "remove": _remove,
}  # fmt: skip
