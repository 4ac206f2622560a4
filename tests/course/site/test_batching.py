"""A comm message's answers reach the page batched (course.site.batching), run in Node.

The browser proof (a click on a board comes back to the page in two messages from the
kernel) is in tests/browser/test_lite.py.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from course.site import SiteError
from course.site.batching import (
    LISTEN,
    _fix_flag,
    _fix_page,
    _fix_posting,
    _fix_worker,
    patch_batching,
)
from course.site.patches import KERNEL_STATIC

#: jupyterlite-pyodide-kernel 0.8.6's worker, cut short: its callback and its comm message.
WORKER = (
    "class K{registerWorkerMessageCallback(e){this._sendWorkerMessage=e}"
    "async commMsg(e,t){await this.setup(t);"
    "let i=this._kernel.comm_manager.comm_msg(this._pyodide.toPy(null),this._pyodide.toPy(e));"
    "return this.formatResult(i)}"
    "async setup(e){await this._initialized,this._kernel._parent_header=this._pyodide.toPy(e)}"
    "sendComm(e,t){this._sendWorkerMessage({type:e,content:t,"
    "parentHeader:this.formatResult(this._kernel._parent_header).header})}"
    "formatResult(i){return i}}"
)
#: The isolated worker's start: coincident's proxy of the page gives the worker its callback.
COINCIDENT = "let B=globalThis.remote,_t=B.processWorkerMessage.bind(B);"
#: The page's kernel, cut short: how it takes one message of the worker, makes its worker and
#: sends a comm message.
PAGE = (
    "class P{constructor(){this.taken=[]}_processWorkerMessage(e){var t;if(e.type)this.taken.push(e.type)}"
    "initWorker(e){let t=globalThis.makeWorker;return t()}"
    "initRemote(e){let t;(t=globalThis.coincident(this._worker)).processWorkerMessage=this._processWorkerMessage.bind(this),"
    "this._remoteKernel=t}"
    "async commMsg(e){return await this._remoteKernel.commMsg(e,this.parent)}}"
)

#: A worker whose Python sends ``sends`` messages per comm message (and two from a cell);
#: every call of the page's callback is one message between the worker and the page.
RUN = """
WORKER
PAGE
const page = new P(), calls = [];
const worker = new K();
worker._pyodide = {toPy: (x) => x};
worker._kernel = {comm_manager: {comm_msg: (a, n) => {
  for (let i = 0; i < n; i++) worker._sendWorkerMessage({type: "comm_msg " + i});
  return null;
}}};
worker.registerWorkerMessageCallback((m) => { calls.push(Array.isArray(m) ? m.length : 1); page._processWorkerMessage(m); });
await worker.commMsg(6, {});
await worker.commMsg(1, {});
worker._sendWorkerMessage({type: "stream"});  // from a cell, not a comm message: at once
worker._sendWorkerMessage({type: "display_data"});
await worker.commMsg(0, {});
// Python holds a computer's move: all its messages in one call; held already, a hold is refused
const held = [globalThis.kitHoldMessages?.(), globalThis.kitHoldMessages?.()];
worker._sendWorkerMessage({type: "move canvas"});
worker._sendWorkerMessage({type: "move texts"});
globalThis.kitSendHeld?.();
globalThis.kitSendHeld?.();  // nothing held: no call
console.log(JSON.stringify({calls, taken: page.taken, held}));
"""


def node(script: str) -> object:
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script], capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_in_node_a_comm_messages_first_answer_goes_at_once_and_the_rest_together_in_order() -> None:
    worker, places = _fix_worker(WORKER)
    assert places == 2
    page, taken = _fix_page(PAGE)
    assert taken == 1
    found = node(RUN.replace("WORKER", worker).replace("PAGE", page))
    taken = [f"comm_msg {i}" for i in range(6)] + ["comm_msg 0", "stream", "display_data",
                                                  "move canvas", "move texts"]  # fmt: skip
    assert found == {
        # six answers in two calls; one alone; a cell's two as they come; a held move's in one
        "calls": [1, 5, 1, 1, 1, 2],
        "taken": taken,
        "held": [True, False],
    }
    unbatched = node(RUN.replace("WORKER", WORKER).replace("PAGE", page))
    assert unbatched == {"calls": [1] * 11, "taken": taken, "held": [None, None]}


def test_in_node_a_worker_without_the_callback_sends_as_before() -> None:
    """The plain-http (comlink) worker posts its messages itself: its comm messages still run."""
    worker, _ = _fix_worker(WORKER)
    script = RUN.replace("WORKER", worker).replace("PAGE", _fix_page(PAGE)[0]).replace(
        "worker.registerWorkerMessageCallback(",
        "worker._sendWorkerMessage = (m) => { calls.push(1); page._processWorkerMessage(m); }; (",
    )
    found = node(script)
    assert found["calls"] == [1] * 11 and found["held"] == [None, None]  # type: ignore[index]


def kernel_static(root: Path, page: str = PAGE) -> Path:
    static = root / KERNEL_STATIC
    static.mkdir(parents=True)
    (static / "coincident.worker.abc.js").write_text(WORKER + COINCIDENT)
    (static / "comlink.worker.def.js").write_text(WORKER)
    (static / "393.page.js").write_text(page + WORKER)  # the page's chunk holds a worker's copy
    (static / "393.page.js.gz").write_bytes(b"stale")
    return static


#: The isolated page's kernel and its worker: comm messages sent while Python runs a search,
#: which reads the flag between two moves.
FLAG_RUN = """
globalThis.crossOriginIsolated = ISOLATED;
const listeners = [], seen = [];
globalThis.addEventListener = (type, listener) => listeners.push(listener);
LISTEN
addEventListener("message", (e) => seen.push(e.data));  // the kernel's own listener
globalThis.makeWorker = () => ({addEventListener() {}, postMessage(data) {
  let stopped = false;
  const event = {data, stopImmediatePropagation() { stopped = true; }};
  for (const listener of listeners) if (!stopped) listener(event);
}});
PAGE
const page = new P();
page._worker = page.initWorker({});
page._remoteKernel = {commMsg: async (m) => { seen.push(m); }};
const read = () => globalThis.kitPending ? globalThis.kitPending() : null;
const before = read();
await page.commMsg("click");
const first = [read(), read()];  // raised once, taken once
await page.commMsg("undo");
await page.commMsg("accept");
console.log(JSON.stringify({before, first, then: [read(), read()], seen}));
"""


@pytest.mark.parametrize("isolated", [True, False])
def test_in_node_a_comm_message_raises_the_flag_a_search_reads_once(isolated: bool) -> None:
    page, places = _fix_flag(PAGE)
    assert places == 2
    script = FLAG_RUN.replace("ISOLATED", json.dumps(isolated))
    found = node(script.replace("LISTEN", LISTEN).replace("PAGE", page))
    sent = ["click", "undo", "accept"]  # the kernel sees the comm messages, never the flag
    if isolated:
        assert found == {"before": False, "first": [True, False], "then": [True, False], "seen": sent}
    else:  # a plain-http page shares no memory: slices end on time alone
        assert found == {"before": None, "first": [None, None], "then": [None, None], "seen": sent}


def test_the_site_is_patched_in_every_place_once_and_its_stale_copy_goes(tmp_path: Path) -> None:
    static = kernel_static(tmp_path)
    assert patch_batching(tmp_path) == 15
    assert not (static / "393.page.js.gz").exists()
    for bundle in static.glob("*.js"):
        assert bundle.read_text().count("$kitBatch") == 2
    with pytest.raises(SiteError, match="already patched"):
        patch_batching(tmp_path)


def test_a_site_of_another_kernel_version_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    static = kernel_static(tmp_path, page="class P{}")
    before = {p.name: p.read_bytes() for p in static.iterdir()}
    with pytest.raises(SiteError, match="6, 1, 4, 1 and 3 expected"):
        patch_batching(tmp_path)
    assert before == {p.name: p.read_bytes() for p in static.iterdir()}


#: The isolated page and its worker, joined by a stand-in of the worker's message port (a
#: message arrives as a task, in order); coincident's synchronous call to the page is counted.
POST_RUN = """
const listeners = [], synchronous = [];
globalThis.self = {postMessage(data) {
  if (data.$kitOut && data.$kitOut.type === "not cloneable") throw new Error("DataCloneError");
  setTimeout(() => {
    let stopped = false;
    const event = {data, stopImmediatePropagation() { stopped = true; }};
    for (const listener of listeners) if (!stopped) listener(event);
  });
}};
globalThis.crossOriginIsolated = true;
globalThis.SharedArrayBuffer ??= ArrayBuffer;
globalThis.makeWorker = () => ({addEventListener: (type, listener) => listeners.push(listener), postMessage() {}});
const others = [];
globalThis.coincident = (worker) => {
  worker.addEventListener("message", (e) => others.push(e.data));  // coincident's own listener
  return {};
};
PAGE
const page = new P();
page._worker = page.initWorker({});
page.initRemote({});
globalThis.remote = {processWorkerMessage: (m) => { synchronous.push(m.type); page._processWorkerMessage(m); }};
WORKER
COINCIDENT
const worker = new K();
worker._pyodide = {toPy: (x) => ({converted: x})};  // Python's copy, which the page must not get
worker._kernel = {};
worker.registerWorkerMessageCallback(_t);
await worker.setup({header: {msg_id: "run 1"}, content: {code: "play()"}});
worker.sendComm("comm_open", "board");
worker.sendComm("not cloneable", "a PyProxy left inside");
worker.sendComm("comm_msg", "draw");
const sent = [...page.taken];  // nothing is taken before the page's turn
await new Promise((done) => setTimeout(done, 20));
console.log(JSON.stringify({sent, taken: page.taken, synchronous, others, header: HEADER}));
"""


def test_in_node_the_isolated_worker_posts_its_messages_and_keeps_their_parents_header() -> None:
    worker, _ = _fix_worker(WORKER)
    worker, posts, setups = _fix_posting(worker + COINCIDENT)
    assert (posts, setups) == (1, 1)
    page, _ = _fix_flag(_fix_page(PAGE)[0])
    page = page.replace("this.taken.push(e.type)", "this.taken.push([e.type,e.parentHeader])")
    found = node(POST_RUN.replace("PAGE", page).replace("WORKER", worker).replace("COINCIDENT", "")
                 .replace("HEADER", "worker.$kitHeader"))  # fmt: skip
    header = {"msg_id": "run 1"}
    assert found == {
        "sent": [["not cloneable", header]],  # the only one that waited for the page
        "taken": [["not cloneable", header], ["comm_open", header], ["comm_msg", header]],
        "synchronous": ["not cloneable"],
        "others": [],  # coincident's listener never sees a posted message
        "header": header,
    }
