"""Fixes to the built JupyterLite site: a kernel with files on any address, and no lost first cell.

The first two fix the kernel under cross-origin isolation.

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

:func:`_fix_lan_files` gives the kernel its files where it has no drive (a plain-http LAN
address is not a secure context, so the browser runs neither a service worker nor an
isolated page): the JavaScript of :mod:`course.site.lan_files`.

:func:`_fix_settings_fetch` reads JupyterLite's two settings files once per page (they were
fetched and parsed twice as a page opened, 140 kB each time).

:func:`_fix_socket_send` sends the page's messages to its kernel as soon as the code that sent
them is done: JupyterLite's in-page WebSocket (mock-socket) waited for a 4 ms timer first,
which the page's other work can delay further (a click on a board answered 2-5 ms sooner,
median, with the timer gone).

:func:`_fix_first_cell` keeps a cell run before the kernel is there: JupyterLab's
``CodeCell.execute`` dropped a cell whose session had no kernel yet (the prompt stayed
``[ ]``, the kernel idle: a third of fresh pages lost the student's first run, and a Run
All in the first seconds ran nothing).  The cell now shows ``[*]`` and waits for the
session's kernel (at most two minutes), then runs.

:func:`_fix_kernel_start` keeps the "Select Kernel" dialog away from a student's first run.
A notebook shows (its document context is *populated*) before the context has read the
notebook's kernelspec into its session's kernel preference: it first makes a checkpoint of
the file, then sets the preference (``python``) and starts the kernel.  A cell run in that
window reached JupyterLab's ``runCell``, which saw no kernel and called
``SessionContext.startKernel`` with the preference still empty (no name, no language, no
default allowed): no kernel could be chosen, so it opened "Select Kernel for
00_welcome.ipynb" and kept the cell ``[ ]``, while the context went on and started the
Pyodide kernel (idle in the status bar): about one fresh page in 20-30.  A ``startKernel``
from outside the session's own start now waits until that start is done (at most two
minutes) and starts nothing more when it gave the session its kernel (a second kernel
would also have thrown away the one started with the page, :mod:`course.site.prewarm`);
the cell shows ``[*]`` meanwhile.  And a start waits for the kernelspec list when it has
not arrived yet (at most 30 s), instead of finding no kernel to start.

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

import json
import re
from pathlib import Path
from typing import Any

from course.site import SiteError
from course.site.lan_files import PAGE_FILES, WORKER_FILES, WORKER_SYNC

#: The fixes are the site build's inside (:func:`patch_kernel` runs on every build).

#: Where the kernel's bundles are in a built site.
KERNEL_STATIC = Path("extensions/@jupyterlite/pyodide-kernel-extension/static")
#: The kernel's settings in ``jupyter-lite.json``.
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
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


#: The page starts the kernel: ``let OPTS=this.initRemoteOptions(ARGS);return REMOTE.initialize(OPTS).then(``
REMOTE_START = re.compile(
    r"let ([\w$]+)=this\.initRemoteOptions\(([\w$]+)\);return ([\w$]+)\.initialize\(\1\)\.then\("
)
#: The worker mounts its drive: ``async initFilesystem(OPTS){``
FILESYSTEM = re.compile(r"async initFilesystem\(([\w$]+)\)\{")
#: The worker runs a cell: ``let RESULT=await this._kernel.run(REQUEST.code)``
CELL_RUN = re.compile(r"(let [\w$]+=await this\._kernel\.run\([\w$]+\.code\))([,;])")
#: JupyterLab drops a cell with no kernel: ``if(!SRC.trim()||!(null==(K=CTX.session)?void 0:K.kernel))return void``
DROPPED_CELL = re.compile(
    r"if\(!([\w$]+)\.trim\(\)\|\|!\(null==\(([\w$]+)=([\w$]+)\.session\)\?void 0:\2\.kernel\)\)"
    r"return void ([\w$]+)\.sharedModel"
)
#: ``(context, model) => Promise``: shows the cell queued and waits for the session's kernel.
WAIT_FOR_KERNEL = (
    '(async(c,m)=>{m.executionState="running";try{await c.ready}catch(e){}'
    "for(let t=0;t<2400&&!c.isDisposed&&!(c.session&&c.session.kernel);t++)"
    "await new Promise(d=>setTimeout(d,50))})"
)
#: JupyterLab's session start: ``async startKernel(){let PICK,PREF=this.kernelPreference;``
START_KERNEL = re.compile(r"async startKernel\(\)\{(let [\w$]+,[\w$]+=this\.kernelPreference;)")
#: The session's own start, from ``initialize``: ``&&!1!==PREF.canStart&&this.startKernel()}``
OWN_START = re.compile(r"(&&!1!==[\w$]+\.canStart&&this\.)startKernel\(\)\}")
#: A run with no kernel: ``if(SESSION.hasNoKernel&&await SESSION.startKernel()&&DIALOGS&&await
#: DIALOGS.selectKernel(SESSION),SESSION.hasNoKernel)return CELL.model.sharedModel.transact``
RUN_STARTS = re.compile(
    r"if\(([\w$]+)\.hasNoKernel&&await \1\.startKernel\(\)"
    r"(&&[\w$]+&&await [\w$]+\.selectKernel\(\1\),\1\.hasNoKernel\)return ([\w$]+)\.model\.sharedModel)"
)
#: ``startKernel`` from outside the session's own start (a run): waits for that start first.
AFTER_OWN_START = (
    "async startKernel(){if(!this.$kitStarted){let w,s=await Promise.race([this._initPromise.promise"
    ".catch(()=>!1),new Promise(d=>{w=setTimeout(()=>d(!1),12e4)})]);clearTimeout(w);this.$kitStarted=!0;"
    "if(this.isDisposed||s||!this.hasNoKernel)return!1}return this.$kitStartKernel()}"
)
#: The start itself waits for the kernelspec list if it has not arrived (at most 30 s).
SPECS_WAIT = (
    "for(let t=0;t<600&&!this.isDisposed&&!Object.keys((this.specsManager.specs||{}).kernelspecs||{}).length;t++)"
    "await new Promise(d=>setTimeout(d,50));"
)
#: Where JupyterLab's own code is in a built site.
LAB_BUILD = Path("build")
#: JupyterLite's settings read their two files on every ``list()`` (twice as a page opens):
#: ``async _getAll(NAME){BODY}``, the fetch of ``all.json`` or ``all_federated.json``.
SETTINGS_FETCH = re.compile(
    r"async _getAll\(([\w$]+)\)\{(var [\w$]+;let [\w$]+=[^{}]*?\.json\(\))\}"
)
#: The same, fetched once per page (they are files of the site) and copied for each caller.
SETTINGS_ONCE = (
    r"_getAll(\1){let m=self.$kitAll||(self.$kitAll=new Map);"
    r"m.has(\1)||m.set(\1,this.$kitGetAll(\1).catch(x=>{m.delete(\1);throw x}));"
    r"return m.get(\1).then(v=>structuredClone(v))}async $kitGetAll(\1){\2}"
)


def kernel_settings(site: Path) -> dict[str, Any]:
    """The Pyodide kernel's settings in a built site's jupyter-lite.json."""
    config = json.loads((Path(site) / "jupyter-lite.json").read_text(encoding="utf-8"))
    settings: dict[str, Any] = (
        config["jupyter-config-data"].get("litePluginSettings", {}).get(KERNEL_PLUGIN, {})
    )
    return settings


def rewrite(path: Path, text: str) -> None:
    """Write a fixed file of the site, and drop its compressed copy (the build makes a new one)."""
    path.write_text(text, encoding="utf-8")
    Path(f"{path}.gz").unlink(missing_ok=True)


def _fix_lan_files(source: str) -> tuple[str, int]:
    """``source`` with the kernel given its files where it has no drive; and how many places changed."""
    source, page = REMOTE_START.subn(
        lambda m: (
            f"let {m[1]}=this.initRemoteOptions({m[2]});return {PAGE_FILES}({m[2]}.contentsManager,"
            f"{m[1]},this._worker).then({m[1]}=>{m[3]}.initialize({m[1]})).then("
        ),
        source,
    )
    source, files = FILESYSTEM.subn(
        lambda m: (
            f"{m[0]}if(!{m[1]}.mountDrive&&{m[1]}.kitFiles)return void {WORKER_FILES}(this,{m[1]});"
        ),
        source,
    )
    sync = f"$kitSynced=(()=>{{try{{{WORKER_SYNC}}}catch(failed){{console.warn(failed)}}}})()"
    source, runs = CELL_RUN.subn(lambda m: f"{m[1]},{sync}{m[2]}", source)
    return source, page + files + runs

#: mock-socket, JupyterLite's in-page kernel connection, sends each message from the page to its
#: kernels after a 4 ms timer, a task the page's other work delays further:
#: ``SERVER=...serverLookup(this.url);SERVER&&DELAY(function(){SOCKET.dispatchEvent(EVENT,DATA)},SERVER)``.
SOCKET_SEND = re.compile(
    r'(type:"server::message",[^;]*?;)([\w$]+)&&[\w$]+\(function\(\)\{([\w$]+)\.dispatchEvent\(([\w$]+),([\w$]+)\)\},\2\)'
)
#: The same message goes on as soon as the page's code that sent it is done, in order.
QUEUED = "&&queueMicrotask(function(){"


def _fix_socket_send(source: str) -> tuple[str, int]:
    """``source`` with the page's messages to its kernels sent without a timer; and how many places.

    >>> _fix_socket_send('j({type:"server::message",origin:this.url}),n=T.serverLookup(this.url);n&&O(function(){o.dispatchEvent(r,t)},n)')
    ('j({type:"server::message",origin:this.url}),n=T.serverLookup(this.url);n&&queueMicrotask(function(){o.dispatchEvent(r,t)})', 1)
    """
    return SOCKET_SEND.subn(
        lambda m: f"{m[1]}{m[2]}{QUEUED}{m[3]}.dispatchEvent({m[4]},{m[5]})}})", source
    )


def _fix_first_cell(source: str) -> tuple[str, int]:
    """``source`` with a cell run before the kernel is there kept until it is; and how many."""
    return DROPPED_CELL.subn(
        lambda m: (
            f"if({m[1]}.trim()&&!(null==({m[2]}={m[3]}.session)?void 0:{m[2]}.kernel))"
            f"await {WAIT_FOR_KERNEL}({m[3]},{m[4]});{m[0]}"
        ),
        source,
    )


def _fix_kernel_start(source: str) -> tuple[str, int]:
    """``source`` with a run's kernel start waiting for the session's own; and how many places
    changed (3 in JupyterLab's bundle: the start, the session's call, the run)."""
    source, starts = START_KERNEL.subn(
        lambda m: f"{AFTER_OWN_START}async $kitStartKernel(){{{SPECS_WAIT}{m[1]}", source
    )
    source, own = OWN_START.subn(lambda m: f"{m[1]}$kitStartKernel()}}", source)
    source, runs = RUN_STARTS.subn(
        lambda m: (
            f'if({m[1]}.hasNoKernel&&await({m[3]}.model.executionState="running",'
            f"{m[1]}.startKernel()){m[2]}"
        ),
        source,
    )
    return source, starts + own + runs


def _fix_settings_fetch(source: str) -> tuple[str, int]:
    """``source`` with the settings files fetched once per page; and how many places changed."""
    return SETTINGS_FETCH.subn(SETTINGS_ONCE, source)


def patch_lab(site: Path) -> int:
    """Fix JupyterLab's bundles in the built ``site``: no lost first cell, no "Select Kernel"
    before the session's own start, settings fetched once, messages to the kernel sent at once.

    Returns how many places changed.  Raises :class:`SiteError` when a fix finds its place
    other than once (another JupyterLab or JupyterLite).
    """
    cells = settings = starts = sends = 0
    for bundle in sorted((Path(site) / LAB_BUILD).glob("*.js")):
        source = bundle.read_text(encoding="utf-8")
        if "server::message" in source:
            fixed, found = _fix_socket_send(source)
            sends += found or int(QUEUED in source)  # patched already
            if found:
                rewrite(bundle, fixed)
        if "clearExecution" not in source and "_getAll" not in source:
            continue
        if WAIT_FOR_KERNEL in source or "$kitGetAll" in source:  # patched already
            cells += source.count(WAIT_FOR_KERNEL)
            settings += source.count("async $kitGetAll(")
            starts += 3 * source.count("async $kitStartKernel(")  # its three places
            continue
        fixed, cell_count = _fix_first_cell(source)
        fixed, settings_count = _fix_settings_fetch(fixed)
        fixed, start_count = _fix_kernel_start(fixed)
        if cell_count or settings_count or start_count:
            rewrite(bundle, fixed)
            cells += cell_count
            settings += settings_count
            starts += start_count
    for what, count, wanted in (
        ("JupyterLab's cell run", cells, 1),
        ("JupyterLite's settings fetch", settings, 1),
        ("JupyterLab's kernel start (the start, the session's own call, a run's call)", starts, 3),
        ("JupyterLite's message sending to its kernels", sends, 1),
    ):
        if count != wanted:
            raise SiteError(
                f"{what} was found in {count} places of {Path(site) / LAB_BUILD}, not {wanted}: "
                "the JupyterLab version is not the one the build pins"
            )
    return cells + settings + starts + sends


def _fix_wait_async(source: str) -> tuple[str, int]:
    """``source`` with every coincident wait made safe, and how many were changed."""
    return WAIT_THEN.subn(SETTLED, source)


def _fix_answer_write(source: str) -> tuple[str, int]:
    """``source`` with every answer written last-first, its first word atomically; and how many."""
    return ANSWER_WRITE.subn(WHOLE_WRITE, source)


def patch_kernel(site: Path) -> int:
    """Fix the kernel's bundles in the built ``site`` in place; returns how many waits changed.

    Raises :class:`SiteError` when the kernel's bundles are missing, when none holds
    the wait, or when a ``.value.then(`` is left that the pattern did not reach.
    """
    static = Path(site) / KERNEL_STATIC
    bundles = sorted(static.glob("*.js"))
    if not bundles:
        raise SiteError(f"the built site has no kernel bundles in {static}")
    changed = writes_fixed = lan = 0
    for bundle in bundles:
        source = bundle.read_text(encoding="utf-8")
        fixed, count = _fix_wait_async(source)
        fixed, writes = _fix_answer_write(fixed)
        fixed, places = _fix_lan_files(fixed)
        writes_fixed += writes
        lan += places
        count += writes + places
        if ".value.then(" in fixed:
            raise SiteError(
                f"{bundle.name}: a coincident wait in a form this kit does not know; "
                "the kernel's version is not the one the build pins"
            )
        if count:
            rewrite(bundle, fixed)
            changed += count
    if changed == 0 or writes_fixed == 0:
        what = "wait" if changed == writes_fixed else "answer write"
        raise SiteError(
            f"no coincident {what} found in {static}: the kernel's version is not the one the build pins"
        )
    if lan < 3:
        raise SiteError(
            f"the kernel's start, drive and cell run were not all found in {static}: "
            "the kernel's version is not the one the build pins"
        )
    return changed
