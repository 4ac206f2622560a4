"""A board's answer to a click reaches the page as one message, not one per change.

In the browser classroom served with the class server's headers (a cross-origin
isolated page), the Pyodide kernel's worker calls the page through the ``coincident``
library for every message it sends, and waits each time for the page to answer.  A move
on a board changes its canvas, turn, status, counts, log and live region: six calls,
measured at 8-44 ms of a click's 15-52 ms in the kernel (jupyterlite-pyodide-kernel
0.8.6, Chromium, an idle 2-core machine).

:func:`patch_batching` changes the kernel's bundles so that the messages the kernel sends
while it handles one message from the page (a click, a key, a button: a *comm message*)
go to the page together when it is done, in their order, as one list; the page's kernel
takes a list as its messages one after another.  The kernel's own Python may hold its
messages so too (a slice of a computer's search, its move:
:func:`course.board.background.one_call`).  Everything else (a cell's prints and displays)
is sent at once, as before.  On a plain-http LAN address the worker posts its messages
without waiting (``comlink``), and nothing is batched there.

A click must also not wait for a slice of a computer's search to end.  On the isolated page
the page's kernel shares four bytes with its worker (a ``SharedArrayBuffer``, sent once as
the worker starts) and raises them as it sends a comm message; the search reads them between
two moves, through ``kitPending()`` (:func:`course.board.background.page_waiting`), and gives
the loop its turn at once.

On the isolated page the worker also no longer waits for the page at each message: it posts
them (:data:`POSTED`; a message that cannot be posted goes the old way) and the page's
kernel takes them from its worker in order (:data:`FLAG`), as on a plain-http
address.  Each ``coincident`` call had waited for the page's main thread, which is busiest
just as a lesson opens: a board's first ``play()`` sends about 290 messages, 1.5-4 ms each
there, 0.1-0.4 ms posted.  And each message's parent header is the one the worker was
given (:data:`SETUP`), not Python's copy converted back each time.

>>> _fix_page('_processWorkerMessage(e){var t;if(e.type)')[1]
1
"""

from __future__ import annotations

import re
from pathlib import Path

from course.site import SiteError
from course.site.patches import KERNEL_STATIC, rewrite

#: The worker keeps the page's callback:
#: ``registerWorkerMessageCallback(CB){this._sendWorkerMessage=CB}``.
REGISTER = re.compile(r"registerWorkerMessageCallback\(([\w$]+)\)\{this\._sendWorkerMessage=\1\}")
#: With it, a batch: while ``$kitBatch(f)`` runs ``f``, its first message goes at once (the
#: board's redraw: the page draws it while the kernel goes on) and the others wait in a
#: list sent at its end.
#: Python holds them all the same way with ``kitHoldMessages()`` (false when held already)
#: and sends them with ``kitSendHeld()`` (:func:`course.board.background.one_call`).
BATCHING = (
    "registerWorkerMessageCallback(S){let q=null,send=()=>{let m=q;q=null;m.length&&S(m.length>1?m:m[0])};"
    "this.$kitBatch=f=>{if(q)return f();q=[];try{return f()}finally{send()}};"
    "globalThis.kitHoldMessages=()=>!q&&(q=[],q.sent=1,!0);globalThis.kitSendHeld=()=>{q&&send()};"
    "this._sendWorkerMessage=m=>q?(q.sent?q.push(m):(q.sent=1,S(m))):S(m)}"
)
#: The worker hands a comm message to Python: ``let R=this._kernel.comm_manager.comm_msg(ARGS);``.
COMM_MSG = re.compile(r"let ([\w$]+)=(this\._kernel\.comm_manager\.comm_msg\([^;]*\));")
#: The page takes each message of the worker: ``_processWorkerMessage(MESSAGE){``.
PROCESS = re.compile(r"_processWorkerMessage\(([\w$]+)\)\{")

#: The page's kernel makes its worker: ``initWorker(OPTIONS){let ``; it is kept as
#: ``$kitWorker``, and the worker it makes is given the flag; the page takes the messages the
#: worker posts (:data:`POSTED`) before coincident's own listener sees them.
MAKE = re.compile(r"\binitWorker\(([\w$]+)\)\{let ")
FLAG = (
    "initWorker(ARG){let w=this.$kitWorker(ARG);if(globalThis.crossOriginIsolated){"
    "let f=this.$kitFlag=new Int32Array(new SharedArrayBuffer(4));w.postMessage({kitPending:f});"
    'w.addEventListener("message",e=>{let m=e.data&&e.data.$kitOut;'
    "m&&(e.stopImmediatePropagation(),this._processWorkerMessage(m))})}"
    "return w}$kitWorker(ARG){let "
)
#: The page's kernel sends a comm message; then it raises the flag.
SEND = re.compile(r"async commMsg\(([\w$]+)\)\{return await (this\._remoteKernel\.commMsg\(\1,this\.parent\))\}")
RAISE = "async commMsg({0}){{let p={1};this.$kitFlag&&Atomics.store(this.$kitFlag,0,1);return await p}}"
#: First in a worker's bundle: the flag taken (before the kernel sees the message), and read.
LISTEN = (
    'addEventListener("message",e=>{let f=e.data&&e.data.kitPending;if(f instanceof Int32Array){'
    "e.stopImmediatePropagation();globalThis.kitPending=()=>Atomics.exchange(f,0,0)!==0}});"
)

#: The isolated worker's callback is the page's, reached through coincident:
#: ``CB=REMOTE.processWorkerMessage.bind(REMOTE);``; the worker posts its messages instead.
CALLBACK = re.compile(r"([\w$]+)=([\w$]+)\.processWorkerMessage\.bind\(\2\);")
POSTED = "{0}=(S=>m=>{{try{{self.postMessage({{$kitOut:m}})}}catch(e){{S(m)}}}})({1}.processWorkerMessage.bind({1}));"
#: The worker takes a message's parent: ``async setup(MSG){await this._initialized,this._kernel._parent_header=this._pyodide.toPy(MSG)}``
SETUP = re.compile(
    r"(async setup\(([\w$]+)\)\{await this\._initialized,this\._kernel\._parent_header=this\._pyodide\.toPy\(\2\))\}"
)
#: Every message it sends converts Python's copy back for the header: it keeps the one it had.
HEADER = "this.formatResult(this._kernel._parent_header).header"


def _fix_posting(source: str) -> tuple[str, int, int]:
    """``source`` with the isolated worker posting its messages and each message's header
    kept; and how many callbacks and setups changed (the page takes them: :data:`FLAG`).

    >>> _fix_posting("q=B.processWorkerMessage.bind(B);")[1:]
    (1, 0)
    """
    source, posts = CALLBACK.subn(lambda m: POSTED.format(m[1], m[2]), source)
    source, setups = SETUP.subn(lambda m: f"{m[1]},this.$kitHeader=({m[2]}||{{}}).header}}", source)
    return source.replace(HEADER, "this.$kitHeader"), posts, setups


def _fix_flag(source: str) -> tuple[str, int]:
    """``source`` (the page's kernel) sharing the flag with its worker and raising it; and how
    many places.

    >>> _fix_flag('initWorker(e){let t=1}async commMsg(e){return await this._remoteKernel.commMsg(e,this.parent)}')[1]
    2
    """
    source, made = MAKE.subn(lambda m: FLAG.replace("ARG", m[1]), source)
    source, sent = SEND.subn(lambda m: RAISE.format(m[1], m[2]), source)
    return source, made + sent


def _fix_worker(source: str) -> tuple[str, int]:
    """``source`` with the worker's messages batched during a comm message; and how many places."""
    source, registers = REGISTER.subn(BATCHING, source)
    source, handlers = COMM_MSG.subn(
        lambda m: f"let {m[1]}=(this.$kitBatch||(f=>f()))(()=>{m[2]});", source
    )
    return source, registers + handlers


def _fix_page(source: str) -> tuple[str, int]:
    """``source`` with the page's kernel taking a list of messages; and how many places."""
    return PROCESS.subn(
        lambda m: (
            f"{m[0]}if(Array.isArray({m[1]})){{for(let m of {m[1]})this._processWorkerMessage(m);return}}"
        ),
        source,
    )


def patch_batching(site: Path) -> int:
    """Batch a comm message's answers in the built ``site``; returns how many places changed.

    The page bundle holds the page's kernel (and a copy of the worker's), each worker bundle
    the worker's: 15 places in jupyterlite-pyodide-kernel 0.8.6.  Raises :class:`SiteError`,
    and changes nothing, when they are not found so (another kernel version).
    """
    static = Path(site) / KERNEL_STATIC
    fixes: dict[Path, str] = {}
    workers = pages = flags = posts = setups = 0
    for bundle in sorted(static.glob("*.js")):
        source = bundle.read_text(encoding="utf-8")
        if "$kitBatch" in source:
            raise SiteError(f"{bundle} is already patched: build the site again from scratch")
        fixed, worker = _fix_worker(source)
        fixed, page = _fix_page(fixed)
        fixed, flag = _fix_flag(fixed)
        fixed, post, setup = _fix_posting(fixed)
        if worker and ".worker." in bundle.name:  # the worker's own file, not the page's copy
            fixed, flag = LISTEN + fixed, flag + 1
        if worker or page or flag or post or setup:
            fixes[bundle] = fixed
            workers, pages, flags = workers + worker, pages + page, flags + flag
            posts, setups = posts + post, setups + setup
    if (workers, pages, flags, posts, setups) != (6, 1, 4, 1, 3) or any(
        HEADER in fixed for fixed in fixes.values()
    ):
        raise SiteError(
            f"the kernel's message sending was found in {workers} places of its bundles, its "
            f"page's taking in {pages}, its comm messages' flag in {flags}, its posting in {posts} "
            f"and its parent's header in {setups} (6, 1, 4, 1 and 3 expected, and no header "
            f"converted back) in {static}: the kernel is not the one the build pins"
        )
    for bundle, fixed in fixes.items():  # written only once every place was found
        rewrite(bundle, fixed)
    return workers + pages + flags + posts + setups
