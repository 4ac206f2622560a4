"""Who is who: sign-in codes, the browsers signed in with them, and names claimed in a casual class.

The class server decides who sent a request from one thing only: the session token in
the browser's cookie, which it issued when that browser signed in.  Two ways in:

* **With a roster** (``class/roster.json``), a student types (or scans) the code on
  their card: :meth:`SignIns.sign_in`.  The code is kept only as an scrypt hash; a new
  code for a student (:meth:`SignIns.issue`) makes the old one fail at once.
* **Without one** (a casual lesson), a browser claims a name: :meth:`SignIns.claim`.
  The first browser keeps it; another is told the name is taken until the teacher
  frees it (:meth:`SignIns.free`).

A code may be used on several browsers (a school PC and a tablet); the teacher sees
each (:meth:`SignIns.browsers`).  Signing out ends one browser's session for good: a
copied or replayed cookie of it is refused.  A student removed from the roster, or
signed out everywhere by the teacher, is refused at their next request.  Sessions do
not expire by the clock (a changed clock on the teacher's computer signs nobody in or
out); times are kept only to show them.

Everything lives in one SQLite file beside the roster (``class/signin.sqlite``), which
the server and the teacher's commands share; wrong codes are counted in memory, per
address and for the whole class (:data:`~course.roster.codes.GUESSES_IN_TOTAL`).
"""

from __future__ import annotations

import secrets
import sqlite3
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from course.i18n import gettext as _
from course.roster import codes
from course.roster.model import Roster, RosterError, Student, clean, folder_key
from course.roster.store import RosterFile

#: Browsers one student may be signed in on at once (the oldest is signed out beyond it).
MAX_BROWSERS = 10
#: Names a casual class may claim.
MAX_CLAIMS = 500
#: How often a session's "last seen" is written, in seconds.
SEEN_EVERY = 60.0
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS codes (student TEXT PRIMARY KEY, hash TEXT NOT NULL UNIQUE, issued TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sessions (hash TEXT PRIMARY KEY, student TEXT NOT NULL, kind TEXT NOT NULL,
    created TEXT NOT NULL, seen TEXT NOT NULL, browser TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS sessions_by_student ON sessions (student);
CREATE TABLE IF NOT EXISTS claims (student TEXT PRIMARY KEY, name TEXT NOT NULL, created TEXT NOT NULL);
"""


class SignInRefused(RosterError):
    """A sign-in, claim or request refused: ``status`` is the HTTP status, the message is for the student."""

    def __init__(self, message: str, status: int = 403) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Identity:
    """Who a signed-in browser is: the student's ``key``, the ``name`` the teacher sees, the ``seat`` name."""

    key: str
    name: str
    seat: str


def _utc(now: datetime) -> str:
    return now.astimezone(timezone.utc).isoformat(timespec="seconds")


class Guesses:
    """Wrong codes counted per address and in total over a sliding window (``clock``: monotonic s)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.wrong: deque[tuple[float, str]] = deque()
        self.per_address: dict[str, int] = {}

    def _expire(self) -> None:
        limit = self.clock() - codes.GUESS_WINDOW
        while self.wrong and self.wrong[0][0] <= limit:
            _, address = self.wrong.popleft()
            self.per_address[address] -= 1
            if not self.per_address[address]:
                del self.per_address[address]

    def check(self, address: str) -> None:
        """Refuse (429) before any code is checked when this address or the class guessed too often."""
        self._expire()
        minutes = round(codes.GUESS_WINDOW / 60)
        if self.per_address.get(address, 0) >= codes.GUESSES_PER_ADDRESS:
            raise SignInRefused(_("too many wrong codes from this computer: wait {minutes} minutes, "
                                  "then type the code on your card again").format(minutes=minutes), 429)  # fmt: skip
        if len(self.wrong) >= codes.GUESSES_IN_TOTAL:
            raise SignInRefused(_("too many wrong codes in this class lately: wait {minutes} minutes "
                                  "and try again, or ask your teacher").format(minutes=minutes), 429)  # fmt: skip

    def failed(self, address: str) -> None:
        self.wrong.append((self.clock(), address))
        self.per_address[address] = self.per_address.get(address, 0) + 1


class SignIns:
    """The class's sign-ins: ``roster`` (its file), the SQLite file ``database``, the clocks."""

    def __init__(
        self,
        roster: RosterFile,
        database: Path | str = ":memory:",
        clock: Callable[[], float] = time.monotonic,
        now: Callable[[], datetime] = lambda: datetime.now(timezone.utc),
    ) -> None:
        self.roster_file, self.now, self.clock = roster, now, clock
        if database != ":memory:":
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(database), timeout=10, isolation_level=None, check_same_thread=False)
        self.db.executescript(SCHEMA)
        salt = self.db.execute("SELECT value FROM meta WHERE name = 'salt'").fetchone()
        if salt is None:
            self.db.execute("INSERT OR IGNORE INTO meta VALUES ('salt', ?)", (secrets.token_hex(16),))
            salt = self.db.execute("SELECT value FROM meta WHERE name = 'salt'").fetchone()
        self.salt = bytes.fromhex(salt[0])
        self.guesses = Guesses(clock)
        self.last_seen: dict[str, float] = {}

    def close(self) -> None:
        self.db.close()

    @property
    def roster(self) -> Roster:
        return self.roster_file.load()

    @property
    def casual(self) -> bool:
        """Whether this class has no roster, so browsers claim names instead of signing in."""
        return not self.roster

    def identity(self, student: Student, roster: Roster | None = None) -> Identity:
        return Identity(student.key, student.name, (roster or self.roster).seat_name(student))

    # ---- the teacher's side

    def issue(self, key: str) -> str:
        """A new code for the student ``key`` (the old one stops working); returned once, stored hashed."""
        code = codes.new_code()
        self.db.execute(
            "INSERT OR REPLACE INTO codes VALUES (?, ?, ?)",
            (key, codes.code_hash(code, self.salt), _utc(self.now())),
        )
        return code

    def has_code(self, key: str) -> bool:
        return self.db.execute("SELECT 1 FROM codes WHERE student = ?", (key,)).fetchone() is not None

    def sign_out_student(self, key: str) -> int:
        """End every browser's session of ``key``; returns how many there were."""
        return self.db.execute("DELETE FROM sessions WHERE student = ?", (key,)).rowcount

    def free(self, name: str) -> bool:
        """Free a casual class's claimed ``name`` (its browsers are signed out); False if unclaimed."""
        key = folder_key(name)
        self.sign_out_student(key)
        return self.db.execute("DELETE FROM claims WHERE student = ?", (key,)).rowcount > 0

    def forget(self, key: str) -> None:
        """Erase everything kept about ``key`` here: code, sessions, claim."""
        for table in ("codes", "sessions", "claims"):
            self.db.execute(f"DELETE FROM {table} WHERE student = ?", (key,))  # noqa: S608 (fixed names)

    def browsers(self, key: str) -> list[dict[str, str]]:
        """The browsers ``key`` is signed in on: when signed in, last seen, the browser's own words."""
        rows = self.db.execute(
            "SELECT created, seen, browser FROM sessions WHERE student = ? ORDER BY created", (key,)
        )
        return [{"signed_in": c, "last_seen": s, "browser": b} for c, s, b in rows]

    def signed_in(self) -> dict[str, int]:
        """How many browsers each student is signed in on."""
        rows = self.db.execute("SELECT student, COUNT(*) FROM sessions GROUP BY student")
        return {student: count for student, count in rows}

    def claims(self) -> list[tuple[str, str]]:
        """A casual class's claimed names: (key, name)."""
        return list(self.db.execute("SELECT student, name FROM claims ORDER BY student"))

    # ---- the student's side

    def sign_in(self, typed: str, address: str, browser: str = "") -> tuple[str, Identity]:
        """Check a typed code; a new session token for this browser and who it is, or a refusal."""
        code = self.check_code(typed, address)
        return self.sign_in_hashed(codes.code_hash(code, self.salt), address, browser)

    def check_code(self, typed: str, address: str) -> str:
        """The first half of :meth:`sign_in`, before the slow hash: the normalised code, or a refusal."""
        if self.casual:
            raise SignInRefused(_("this class has no sign-in codes: give your name instead"), 409)
        self.guesses.check(address)
        try:
            return codes.normalise(typed)
        except RosterError as refused:
            self.guesses.failed(address)
            raise SignInRefused(str(refused), 400) from None

    def sign_in_hashed(self, hashed: str, address: str, browser: str = "") -> tuple[str, Identity]:
        """The second half of :meth:`sign_in`, given the code's hash (a server makes it off its loop)."""
        roster = self.roster
        found = self.db.execute("SELECT student FROM codes WHERE hash = ?", (hashed,)).fetchone()
        student = roster.get(found[0]) if found else None
        if student is None:
            self.guesses.failed(address)
            raise SignInRefused(_("that code is not right: check it against your card (the letters "
                                  "and digits, not the dash) or ask your teacher for a new one"))  # fmt: skip
        return self._session(student.key, "roster", browser), self.identity(student, roster)

    def claim(self, name: str, token: str | None, browser: str = "") -> tuple[str, Identity]:
        """A casual class: this browser takes ``name`` (or keeps it); refused if another browser has it."""
        if not self.casual:
            raise SignInRefused(_("this class signs in with the code on your card: open the class's "
                                  "address and type it there"), 409)  # fmt: skip
        name = clean(name, "your name", required=True)
        key = folder_key(name)
        held = self.db.execute("SELECT name FROM claims WHERE student = ?", (key,)).fetchone()
        mine = self.who(token) if token else None
        if mine is not None and mine.key == key:
            return token or "", mine
        if held is not None:
            raise SignInRefused(_("the name {name!r} is already taken in this class by another browser: "
                                  "choose another name, or ask your teacher to free it").format(name=held[0]),
                                409)  # fmt: skip
        if len(self.claims()) >= MAX_CLAIMS:
            raise SignInRefused(_("this class already has {count} names; ask your teacher").format(count=MAX_CLAIMS), 429)
        if token:
            self.sign_out(token)
        self.db.execute("INSERT INTO claims VALUES (?, ?, ?)", (key, name, _utc(self.now())))
        return self._session(key, "casual", browser), Identity(key, name, name.split()[0][:9])

    def _session(self, key: str, kind: str, browser: str) -> str:
        token, moment = codes.new_token(), _utc(self.now())
        self.db.execute(
            "INSERT INTO sessions VALUES (?, ?, ?, ?, ?, ?)",
            (codes.token_hash(token), key, kind, moment, moment, browser[:120]),
        )
        self.db.execute(
            "DELETE FROM sessions WHERE student = ? AND hash NOT IN (SELECT hash FROM sessions "
            "WHERE student = ? ORDER BY created DESC, rowid DESC LIMIT ?)",
            (key, key, MAX_BROWSERS),
        )
        return token

    def who(self, token: str | None) -> Identity | None:
        """Who the browser with this session token is, or None (no, unknown, ended or removed session)."""
        if not token or len(token) > 100:
            return None
        hashed = codes.token_hash(token)
        row = self.db.execute("SELECT student, kind FROM sessions WHERE hash = ?", (hashed,)).fetchone()
        if row is None:
            return None
        key, kind = row
        identity: Identity | None = None
        if kind == "roster" and not self.casual:
            roster = self.roster
            student = roster.get(key)
            identity = self.identity(student, roster) if student else None
        elif kind == "casual" and self.casual:
            claim = self.db.execute("SELECT name FROM claims WHERE student = ?", (key,)).fetchone()
            identity = Identity(key, claim[0], claim[0].split()[0][:9]) if claim else None
        if identity is not None and self.clock() - self.last_seen.get(hashed, -SEEN_EVERY) >= SEEN_EVERY:
            self.last_seen[hashed] = self.clock()
            self.db.execute("UPDATE sessions SET seen = ? WHERE hash = ?", (_utc(self.now()), hashed))
        return identity

    def sign_out(self, token: str) -> None:
        """End this browser's session for good (a copy of its cookie is refused from now on)."""
        self.db.execute("DELETE FROM sessions WHERE hash = ?", (codes.token_hash(token),))

    def export(self, key: str) -> dict[str, Any]:
        """What is kept here about ``key``: whether a code exists (never the code), browsers, claim."""
        code = self.db.execute("SELECT issued FROM codes WHERE student = ?", (key,)).fetchone()
        claim = self.db.execute("SELECT name, created FROM claims WHERE student = ?", (key,)).fetchone()
        return {
            "code_issued": code[0] if code else None,
            "browsers": self.browsers(key),
            "claimed_name": {"name": claim[0], "claimed": claim[1]} if claim else None,
        }
