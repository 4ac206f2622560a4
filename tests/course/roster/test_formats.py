"""Class lists as gradebooks export them: Canvas, Moodle (grader and user exports), plain CSVs."""

from __future__ import annotations

import pytest

from course.roster.formats import MAX_ROWS, Imported, merge, read_roster
from course.roster.model import Roster, RosterError

CANVAS = (
    "\ufeffStudent,ID,SIS User ID,SIS Login ID,Section,Exercise 1 (8812),Current Score\n"
    "    Points Possible,,,,,10.00,(read only)\n"
    '"Lovelace, Ada",101,S-0001,ada@school.example,"Period 3, Room 12",8.00,80\n'
    '"Lovelace, Ada",102,S-0002,ada.l@school.example,"Period 3, Room 12",,\n'
    '"Müller, Jürgen",103,S-0003,jm@school.example,"Period 3, Room 12",,\n'
    '"Student, Test",999,,,"Period 3, Room 12",,\n'
)
MOODLE_GRADER = (
    "First name,Last name,ID number,Institution,Department,Email address,Assignment: Flips (Real),"
    "Last downloaded from this course\n"
    "Zoë,Martin,20231,Lycée,Maths,zoe@lycee.example,12.00,1700000000\n"
    "Ada,Lovelace,20232,Lycée,Maths,ada@lycee.example,-,1700000000\n"
)
MOODLE_USERS = "username;email;firstname;lastname;idnumber\nzmartin;zoe@lycee.example;Zoë;Martin;20231\n"


def students(text: str, encoding: str = "utf-8") -> tuple[str, list[Imported]]:
    return read_roster(text.encode(encoding), "roster.csv")


def test_canvas_export_with_its_bom_points_row_quoted_commas_test_student_and_twins() -> None:
    kind, found = students(CANVAS)
    assert kind == "Canvas"
    assert found == [
        Imported("Ada Lovelace", "101", "S-0001", "ada@school.example"),
        Imported("Ada Lovelace", "102", "S-0002", "ada.l@school.example"),
        Imported("Jürgen Müller", "103", "S-0003", "jm@school.example"),
    ]
    roster, said = merge(Roster(), found)
    assert [s.key for s in roster] == ["ada-lovelace", "ada-lovelace-2", "jurgen-muller"]
    assert said[1] == "added Ada Lovelace (ada-lovelace-2; also called so: ada-lovelace)"
    again, said = merge(roster, found)  # the same export next week: nothing new
    assert again == roster and all(line.startswith("kept") for line in said)


def test_moodle_grader_and_user_exports_and_their_ids() -> None:
    kind, found = students(MOODLE_GRADER)
    assert kind == "Moodle" and found[0] == Imported("Zoë Martin", "", "20231", "", "zoe@lycee.example")
    kind, users = students(MOODLE_USERS)
    assert kind == "Moodle" and users == [Imported("Zoë Martin", "", "20231", "zmartin", "zoe@lycee.example")]
    roster, _ = merge(Roster(), found)
    merged, said = merge(roster, users)  # the same student by her ID number
    assert len(merged) == 2 and said == ["kept Zoë Martin (zoe-martin)"]


@pytest.mark.parametrize(
    ("text", "encoding", "names"),
    [
        ("name,email\nAda Lovelace,ada@x.example\nGrace Hopper,\n", "utf-8", ["Ada Lovelace", "Grace Hopper"]),
        ("Nom;Prénom\n", "utf-8", None),
        ("Ada Lovelace\nZoë Martin\nAda Lovelace\n", "utf-8", ["Ada Lovelace", "Zoë Martin", "Ada Lovelace"]),
        ("Name\tStudent ID\nRenée Fleming\t7\n", "cp1252", ["Renée Fleming"]),
        ("First Name,Last Name,Student ID\nAda,Lovelace,1\n", "utf-8", ["Ada Lovelace"]),
    ],
)
def test_plain_lists_of_names_in_any_encoding_and_separator(text: str, encoding: str, names: list[str] | None) -> None:
    if names is None:
        with pytest.raises(RosterError, match="names no column of students"):
            students(text, encoding)
        return
    assert [s.name for s in students(text, encoding)[1]] == names


def test_a_plain_list_with_one_name_twice_is_two_students() -> None:
    roster, _ = merge(Roster(), students("Ada Lovelace\nAda Lovelace\n")[1])
    assert [s.key for s in roster] == ["ada-lovelace", "ada-lovelace-2"]
    again, said = merge(roster, students("Ada Lovelace\nAda Lovelace\n")[1])
    assert len(again) == 2 and len(said) == 2 and all(line.startswith("kept") for line in said)


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"", "is empty"),
        (b"\n\n ,\n", "is empty"),
        (b"Exercise,Points\n04_flips,3\n", "names no column of students"),
        (b"name,email\n", "no student in it"),
        (b"name\n" + b"x" * 6_000_000, "bytes; a class list of at most"),
        (b"name\n" + b"Ada\n" * (MAX_ROWS + 10), "more than 2000 rows"),
        (b"name" + b",x" * 300 + b"\n", "fields; at most 200"),
        (b"\x00\x01PK\x03", "not a text file"),
        (b"name\nAda\x07 Lovelace\n", "control character"),
    ],
)
def test_wrong_files_are_refused_with_the_reason_and_the_file(data: bytes, reason: str) -> None:
    with pytest.raises(RosterError, match=reason) as refused:
        read_roster(data, "roster.csv")
    assert "roster.csv" in str(refused.value)
