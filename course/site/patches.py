"""Two fixes to the built JupyterLite site, so the kernel runs with cross-origin isolation.

On a plain-http LAN address (``http://192.168.1.20:8765``) a browser runs no service
worker, so the Pyodide kernel reaches its files (``/drive``) only when the page is
cross-origin isolated (the COOP and COEP headers the class server sends): then the
kernel's worker talks to the page through the ``coincident`` library over a
SharedArrayBuffer.  The copy of ``coincident`` bundled in jupyterlite-pyodide-kernel
0.8.6 reads ``Atomics.waitAsync(...).value.then(...)``; when the answer is already there,
``Atomics.waitAsync`` returns ``{async: false, value: "not-equal"}`` and the page fails
with "value.then is not a function", leaving the cell running for ever (seen in Chromium
on the first rich output of a lesson).  :func:`_fix_wait_async` turns such a string into
a resolved promise and leaves every promise and thenable as it was (the worker's own
synchronous path returns a thenable that must stay synchronous).

The second fix is a race in the same library.  A synchronous call from the kernel
(every file the kernel stats or reads) gets its answer in a shared buffer that the page
fills character by character; the kernel, polling every 42 ms, wakes as soon as the
buffer's first word is not zero, which is after the first two characters, and may read
the rest before it is written ("Bad control character in string literal in JSON", and
Pyodide stops for good: about one kernel start in ten on a busy machine).
:func:`_fix_answer_write` writes the characters from the last to the third, then the
first two at once with ``Atomics.store``: the kernel wakes only on a whole answer.

The build pins the kernel's version, so the patterns are known: a bundle that holds the
pattern and cannot be patched, or a site with none of it, is refused rather than served
half-working.

>>> _fix_wait_async('return u(f,o).value.then(()=>1)')
('return (v=>typeof v=="string"?Promise.resolve(v):v)(u(f,o).value).then(()=>1)', 1)
>>> _fix_wait_async('nothing here')
('nothing here', 0)
>>> _fix_answer_write('for(let t=new P(o.buffer),i=0;i<e.length;i++)t[i]=e.charCodeAt(i)')[1]
1
"""

from __future__ import annotations

import re
from pathlib import Path

from course.site import SiteError

#: The fixes are the site build's inside (:func:`_patch_kernel` runs on every build).
__all__ = [
    "KERNEL_STATIC",
]

#: Where the kernel's bundles are in a built site.
KERNEL_STATIC = Path("extensions/@jupyterlite/pyodide-kernel-extension/static")
#: ``WAIT(flag, buffer).value.then(``: coincident's wait on the shared buffer.
WAIT_THEN = re.compile(r"([\w$]+\([\w$]+,[\w$]+\))\.value\.then\(")
SETTLED = r'(v=>typeof v=="string"?Promise.resolve(v):v)(\1.value).then('
#: ``for(let VIEW=new Uint16Array(WORDS.buffer),I=0;I<TEXT.length;I++)VIEW[I]=TEXT.charCodeAt(I)``
ANSWER_WRITE = re.compile(
    r"for\(let ([\w$]+)=new ([\w$]+)\(([\w$]+)\.buffer\),([\w$]+)=0;\4<([\w$]+)\.length;\4\+\+\)"
    r"\1\[\4\]=\5\.charCodeAt\(\4\)"
)
WHOLE_WRITE = (
    r"for(let \1=new \2(\3.buffer),\4=\5.length;\4-->2;)\1[\4]=\5.charCodeAt(\4);"
    r"Atomics.store(\3,0,(\5.charCodeAt(0)|0)|(\5.charCodeAt(1)|0)<<16)"
)


def _fix_wait_async(source: str) -> tuple[str, int]:
    """``source`` with every coincident wait made safe, and how many were changed."""
    return WAIT_THEN.subn(SETTLED, source)


def _fix_answer_write(source: str) -> tuple[str, int]:
    """``source`` with every answer written last-first, its first word atomically; and how many."""
    return ANSWER_WRITE.subn(WHOLE_WRITE, source)


def _patch_kernel(site: Path) -> int:
    """Fix the kernel's bundles in the built ``site`` in place; returns how many waits changed.

    Raises :class:`SiteError` when the kernel's bundles are missing, when none holds
    the wait, or when a ``.value.then(`` is left that the pattern did not reach.
    """
    static = Path(site) / KERNEL_STATIC
    bundles = sorted(static.glob("*.js"))
    if not bundles:
        raise SiteError(f"the built site has no kernel bundles in {static}")
    changed = writes_fixed = 0
    for bundle in bundles:
        source = bundle.read_text(encoding="utf-8")
        fixed, count = _fix_wait_async(source)
        fixed, writes = _fix_answer_write(fixed)
        writes_fixed += writes
        count += writes
        if ".value.then(" in fixed:
            raise SiteError(
                f"{bundle.name}: a coincident wait in a form this kit does not know; "
                "the kernel's version is not the one the build pins"
            )
        if count:
            bundle.write_text(fixed, encoding="utf-8")
            Path(f"{bundle}.gz").unlink(missing_ok=True)
            changed += count
    if changed == 0 or writes_fixed == 0:
        what = "wait" if changed == writes_fixed else "answer write"
        raise SiteError(
            f"no coincident {what} found in {static}: the kernel's version is not the one the build pins"
        )
    return changed
