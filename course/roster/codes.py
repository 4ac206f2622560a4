"""Sign-in codes: ten characters a student types once per browser, kept only as a slow hash.

A code is 10 characters of Crockford's base 32 (digits and letters without I, L, O
and U), 50 bits, shown in two groups: ``K7QM4-XRT9P``.  Typed in any case, with or
without the dash or spaces, and with ``O`` for ``0`` or ``I``/``L`` for ``1``.

Guessing one is hopeless: the server checks at most :data:`GUESSES_IN_TOTAL`
wrong codes per quarter hour (course.roster.signin), 19,200 a day, so a term
of 120 days allows 2.3 million guesses; with 40 students holding codes among
2**50 (10**15) that finds one with a chance of about 1 in 12 million.

Codes are stored as scrypt hashes with the class's salt (about 70 ms each), so a
copied database gives no codes either: trying them all would take millions of
CPU-years.  Session tokens are 256 random bits, stored as SHA-256 (a fast hash is
enough for a secret nobody can guess).

>>> normalise("k7qm4 xrt9p") == normalise("K7QM4-XRT9P")
True
>>> normalise("O1IL0-00000")
'01110-00000'
"""

from __future__ import annotations

import hashlib
import secrets

from course.i18n import gettext as _
from course.roster.model import RosterError

#: Crockford's base 32: no I, L, O or U, which look like 1, 1, 0 and V.
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
LENGTH = 10
#: What a student may type for a character that is not in the alphabet.
LOOKALIKES = str.maketrans({"O": "0", "I": "1", "L": "1"})
#: Wrong codes the whole class may send in :data:`GUESS_WINDOW` seconds, and one address.
GUESSES_IN_TOTAL, GUESSES_PER_ADDRESS, GUESS_WINDOW = 200, 20, 900.0
#: scrypt's cost: 16 MB and about 70 ms a hash on a 2-core laptop.
SCRYPT = {"n": 2**14, "r": 8, "p": 1, "maxmem": 64 * 1024 * 1024}


def new_code() -> str:
    """A fresh random code, shown as ``XXXXX-XXXXX``."""
    code = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
    return f"{code[:5]}-{code[5:]}"


def normalise(typed: str) -> str:
    """The code a student typed, as stored (``XXXXX-XXXXX``); refuses what cannot be a code."""
    letters = "".join(typed.split()).replace("-", "").upper().translate(LOOKALIKES)
    if len(letters) != LENGTH or any(char not in ALPHABET for char in letters):
        raise RosterError(
            _("that is not a sign-in code: a code has 10 letters and digits, like K7QM4-XRT9P")
        )
    return f"{letters[:5]}-{letters[5:]}"


def code_hash(code: str, salt: bytes) -> str:
    """The stored form of a (normalised) code."""
    return hashlib.scrypt(code.encode("ascii"), salt=salt, **SCRYPT).hex()


def new_token() -> str:
    """A fresh session token for a browser's cookie."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """The stored form of a session token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()
