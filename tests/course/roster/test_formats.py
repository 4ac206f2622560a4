"""Class lists as gradebooks export them: Canvas, Moodle (grader and user exports), plain CSVs.

The Canvas fixtures follow canvas-lms's GradebookExporter (header, the manual-posting row with
an empty first cell, ``    Points Possible``, names as ``Last, First``, the student view's
``Student, Test`` last); the Moodle ones its grader report export and bulk user download.
"""

from __future__ import annotations

import codecs

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course.roster.formats import MAX_ROWS, Imported, layout, merge, read_class_list, read_roster
from course.roster.model import Roster, RosterError, Student

CANVAS = (
    "\ufeffStudent,ID,SIS User ID,SIS Login ID,Section,Othello 1: flips (70512),Othello 2: legal moves (70513),"
    "Current Score,Unposted Current Score,Final Score,Unposted Final Score\n"
    ",,,,,Manual Posting,,,,,\n"
    "    Points Possible,,,,,10.00,10.00,(read only),(read only),(read only),(read only)\n"
    '"Lovelace, Ada",101,S-0001,ada@school.example,"Period 3, Room 12",8.00,,80.00,80.00,40.00,40.00\n'
    '"Lovelace, Ada",102,S-0002,ada.l@school.example,"Period 3, Room 12",,N/A,,,0.00,0.00\n'
    '"Müller, Jürgen",103,S-0003,jm@school.example,"Period 3, Room 12",EX,,,,,\n'
    '"Student, Test",999,,8f3c2a1b9d,"Period 3, Room 12",,,,,,\n'
)
#: Canvas with "Show first and last names", an Integration ID, semicolons (a European locale).
CANVAS_FIRST_LAST = (
    "LastName;FirstName;ID;SIS User ID;SIS Login ID;Integration ID;Section;Quiz 1 (811)\n"
    "    Points Possible;;;;;;;5,00\n"
    "Ñúñez;Sofía;201;S-0201;snunez;;Gruppe A;4,00\n"
    "Student;Test;299;;0a9b8c;;Gruppe A;\n"
)
MOODLE_GRADER = (
    '"First name","Last name","ID number",Institution,Department,"Email address",'
    '"Assignment: Flips (Real)","Course total (Real)","Last downloaded from this course"\n'
    "Zoë,Martin,20231,Lycée,Maths,zoe@lycee.example,12.00,12.00,1700000000\n"
    "Ada,Lovelace,20232,Lycée,Maths,ada@lycee.example,-,-,1700000000\n"
)
MOODLE_USERS = (
    "id;username;email;firstname;lastname;idnumber;institution;department;phone1;phone2;city;country\n"
    "57;zmartin;zoe@lycee.example;Zoë;Martin;20231;Lycée;Maths;;;Lyon;FR\n"
)
#: A German Moodle grader export, opened in Excel and saved again: semicolons, Windows-1252.
MOODLE_GERMAN = (
    "Vorname;Nachname;ID-Nummer;Institution;Abteilung;E-Mail-Adresse;Aufgabe: Züge (Punkte)\n"
    "Jürgen;Müller;4711;Gymnasium;Informatik;jm@gym.example;7,50\n"
    "François;Weiß;4712;Gymnasium;Informatik;fw@gym.example;-\n"
)


def students(text: str, encoding: str = "utf-8") -> tuple[str, list[Imported]]:
    return read_class_list(text.encode(encoding), "roster.csv")


def test_canvas_export_with_its_bom_hidden_row_points_row_quoted_commas_and_test_student() -> None:
    kind, found = students(CANVAS)
    assert kind == "Canvas"
    assert found == [
        Imported("Ada Lovelace", "101", "S-0001", "ada@school.example"),
        Imported("Ada Lovelace", "102", "S-0002", "ada.l@school.example"),
        Imported("Jürgen Müller", "103", "S-0003", "jm@school.example"),
    ]
    assert read_roster(CANVAS.encode(), "roster.csv") == found


def test_canvas_with_first_and_last_name_columns_and_semicolons() -> None:
    kind, found = students(CANVAS_FIRST_LAST, "utf-8-sig")
    assert kind == "Canvas" and found == [Imported("Sofía Ñúñez", "201", "S-0201", "snunez")]


def test_a_canvas_name_that_canvas_quoted_against_spreadsheet_formulas() -> None:
    text = 'Student,ID,SIS Login ID,Section\n"=""=Smith, Bob""",7,bsmith,A\n'
    assert students(text)[1] == [Imported("Bob =Smith", "7", "", "bsmith")]


def test_moodle_grader_export_user_download_and_a_german_one_from_excel() -> None:
    kind, found = students(MOODLE_GRADER)
    assert kind == "Moodle" and found == [
        Imported("Zoë Martin", "", "20231", "", "zoe@lycee.example"),
        Imported("Ada Lovelace", "", "20232", "", "ada@lycee.example"),
    ]
    kind, users = students(MOODLE_USERS)
    assert kind == "Moodle" and users == [Imported("Zoë Martin", "57", "20231", "zmartin", "zoe@lycee.example")]
    kind, german = students(MOODLE_GERMAN, "cp1252")
    assert kind == "Moodle" and [s.name for s in german] == ["Jürgen Müller", "François Weiß"]
    assert german[0].sis_id == "4711" and german[1].email == "fw@gym.example"


@pytest.mark.parametrize(
    ("data", "kind", "names"),
    [
        (b"name,email\nAda Lovelace,ada@x.example\nGrace Hopper,\n", "CSV", ["Ada Lovelace", "Grace Hopper"]),
        (b'Name,Email\n"King, Ada",ada@x.example\n', "CSV", ["King, Ada"]),
        ("Ada Lovelace\n\nZoë Martin\n李雷\n".encode(), "list of names", ["Ada Lovelace", "Zoë Martin", "李雷"]),
        ("Name\tStudent ID\nRenée Fleming\t7\n".encode("cp1252"), "CSV", ["Renée Fleming"]),
        ("name;id\nAndré Weil;1\nEmmy Noether;2\n".encode("cp1252"), "CSV", ["André Weil", "Emmy Noether"]),
        (b"First Name,Last Name,Student ID\r\nAda,Lovelace,1\r\n", "CSV", ["Ada Lovelace"]),
        (codecs.BOM_UTF16_LE + "Name\tEmail\nZoë Martin\tz@x\n".encode("utf-16-le"), "CSV", ["Zoë Martin"]),
    ],
    ids=["comma", "quoted-comma", "headerless", "tab-cp1252", "semicolon-cp1252", "first-last-crlf", "utf16"],
)
def test_plain_lists_in_any_encoding_and_separator(data: bytes, kind: str, names: list[str]) -> None:
    found_kind, found = read_class_list(data, "roster.csv")
    assert (found_kind, [s.name for s in found]) == (kind, names)


def test_the_header_is_found_by_its_columns_whatever_the_case() -> None:
    found = layout(["STUDENT NAME", "E-Mail", "Student ID"])
    assert found is not None and found.kind == "CSV"
    assert found.columns == {"full": 0, "email": 1, "lms_id": 2}
    assert layout(["Exercise", "Points"]) is None


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"", "is empty"),
        (b"\n\n ,\n", "is empty"),
        (b"Exercise,Points\n04_flips,3\n", "line 1: its first line names no column of students \\(Exercise, Points\\)"),
        (b"student_id,04_flips:q1\nada,3\n", "names no column of students \\(student_id, 04_flips:q1\\)"),
        (b"name,email\n", "a header but no student in it"),
        (b"name\n" + b"x" * 6_000_000, "bytes; a class list of at most"),
        (b"name\n" + b"Ada\n" * (MAX_ROWS + 10), "line 2004: more than 2000 rows"),
        (b"name\nAda\n" + b"Bob" + b",x" * 300 + b"\n", "line 3: 301 fields; at most 200"),
        (b"\x00\x01PK\x03", "not a text file"),
        (b"name,email\nAda Lovelace,a@x\nBob\x07 Byron,b@x\n", "line 3: the name .* contains a control character"),
        (b"name\nAda\nBj\x81rn\n", "line 3: the name .* contains a control character"),  # not cp1252: latin-1
        (b"name,id\nAda," + b"9" * 200 + b"\n", "line 2: the id .* has 200 characters"),
        (codecs.BOM_UTF16_LE + b"N\x00a\x00m", "begins like UTF-16 text but is not"),
    ],
    ids=["empty", "blank", "wrong-columns", "a-grade-sheet", "header-only", "too-large", "too-many-rows",
         "too-many-fields", "binary", "control-character", "neither-utf8-nor-cp1252", "long-id", "broken-utf16"],
)
def test_wrong_files_are_refused_with_the_file_the_line_and_the_reason(data: bytes, reason: str) -> None:
    with pytest.raises(RosterError, match=reason) as refused:
        read_roster(data, "roster.csv")
    assert "roster.csv" in str(refused.value)


def test_a_wrong_file_is_told_which_columns_are_expected() -> None:
    with pytest.raises(RosterError, match="a 'name' column \\(or 'first name' and 'last name'\\)"):
        read_roster(b"Exercise,Points\n04_flips,3\n", "grades.csv")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(
    st.binary(max_size=400),
    st.builds(lambda cut, byte, at: (lambda d: d[:at % len(d)] + bytes([byte]) + d[at % len(d) + 1 : cut])(CANVAS.encode()),
              st.integers(0, 2000), st.integers(0, 255), st.integers(0, 2000)),
))  # fmt: skip
def test_any_bytes_are_read_or_refused_with_the_kits_error(data: bytes) -> None:
    try:
        found = read_roster(data, "fuzzed.csv")
    except RosterError as refused:
        assert "fuzzed.csv" in str(refused)
    else:
        assert found and all(isinstance(student, Imported) and student.name for student in found)


# ---------------------------------------------------------------- merge


def test_twins_are_told_apart_by_their_ids_and_a_second_import_changes_nothing() -> None:
    roster, said = merge(Roster(), students(CANVAS)[1])
    assert [s.key for s in roster] == ["ada-lovelace", "ada-lovelace-2", "jurgen-muller"]
    assert said == [
        "added Ada Lovelace (ada-lovelace)",
        "added Ada Lovelace (ada-lovelace-2): the same name as ada-lovelace, told apart by id 102",
        "added Jürgen Müller (jurgen-muller)",
    ]
    again, said = merge(roster, students(CANVAS)[1])
    assert again == roster and said == ["kept 3 students already on the list as they were"]


def test_names_typed_first_take_their_ids_from_the_gradebook_export() -> None:
    typed = Roster().add("Ada Lovelace").add("ada  lovelace").add("Jürgen Müller")
    roster, said = merge(typed, students(CANVAS)[1])
    assert [(s.key, s.lms_id, s.login) for s in roster] == [
        ("ada-lovelace", "101", "ada@school.example"),
        ("ada-lovelace-2", "102", "ada.l@school.example"),
        ("jurgen-muller", "103", "jm@school.example"),
    ]
    assert said[0] == "kept Ada Lovelace (ada-lovelace): took id 101, SIS id S-0001, login ada@school.example"


def test_a_student_is_found_by_id_then_email_then_name_and_a_renamed_one_stays_renamed() -> None:
    roster = Roster().add("Ada King", lms_id="101").add("Zoë Martin", email="Zoe@Lycee.example")
    merged, said = merge(roster, [Imported("Ada Lovelace", "101"), Imported("Zoé Martin", sis_id="20231",
                                                                             email="zoe@lycee.example")])  # fmt: skip
    assert [s.name for s in merged] == ["Ada King", "Zoë Martin"] and merged.students[1].sis_id == "20231"
    assert said == [
        "kept Ada King (ada-king): the file names them 'Ada Lovelace'",
        "kept Zoë Martin (zoe-martin): the file names them 'Zoé Martin'; took SIS id 20231",
    ]


def test_a_name_on_the_list_with_another_id_is_a_new_student() -> None:
    roster = Roster().add("Ada Lovelace", lms_id="101")
    merged, said = merge(roster, [Imported("Ada Lovelace", "555")])
    assert [s.key for s in merged] == ["ada-lovelace", "ada-lovelace-2"]
    assert said == ["added Ada Lovelace (ada-lovelace-2): the same name as ada-lovelace, told apart by id 555"]


def test_one_name_twice_without_ids_is_two_students_each_time() -> None:
    roster, said = merge(Roster(), students("Ada Lovelace\nAda Lovelace\n")[1])
    assert [s.key for s in roster] == ["ada-lovelace", "ada-lovelace-2"]
    assert said[1] == ("added Ada Lovelace (ada-lovelace-2): the same name as ada-lovelace, "
                       "the file gives no id to tell them apart")  # fmt: skip
    again, said = merge(roster, students("Ada Lovelace\nAda Lovelace\nGrace Hopper\n")[1])
    assert len(again) == 3 and said == ["added Grace Hopper (grace-hopper)",
                                        "kept 2 students already on the list as they were"]  # fmt: skip


def test_an_id_another_student_has_is_not_taken_twice() -> None:
    roster = Roster().add("Ada Lovelace", lms_id="101").add("Grace Hopper", email="g@x")
    merged, said = merge(roster, [Imported("Ada Lovelace", "101", sis_id="S1", email="G@x")])
    assert merged.students[0].sis_id == "S1" and merged.students[0].email == ""
    assert said == ["kept Ada Lovelace (ada-lovelace): took SIS id S1"]


def test_a_full_roster_refuses_the_whole_import() -> None:
    roster = Roster(tuple(Student(f"s-{n}", f"S {n}") for n in range(2000)))
    with pytest.raises(RosterError, match="at most 2000 students"):
        merge(roster, [Imported("One More")])
