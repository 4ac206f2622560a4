"""The fixes to the built site's JavaScript: what each changes, what the build refuses."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from course.site import SiteError
from course.site.patches import (
    KERNEL_STATIC,
    LAB_BUILD,
    _fix_answer_write,
    _fix_first_cell,
    _fix_kernel_start,
    _fix_lan_files,
    _fix_settings_fetch,
    _fix_socket_send,
    _fix_wait_async,
    patch_kernel,
    patch_lab,
)

#: The two forms seen in jupyterlite-pyodide-kernel 0.8.6 (page chunk and worker), cut short.
PAGE = "return L&&u&&(c=1),A(u,s).value.then(()=>{let e=s[1];return A(u,s).value.then(()=>t(e))})"
WORKER = "u=(e,t)=>e?re(t,0):(ge(t,0),ut);return u(f,o).value.then(()=>1)"
WRITE = "for(let t=new Pe(o.buffer),i=0;i<e.length;i++)t[i]=e.charCodeAt(i)"
#: The kernel's start in the page, its drive and its cell run in the worker (0.8.6, cut short).
START = "let s=this.initRemoteOptions(e);return t.initialize(s).then(this._ready.resolve)"
DRIVE = 'async initFilesystem(e){if(e.mountDrive){let t="/drive"}}'
RUN = "let l=await this._kernel.run(e.code),h=this.formatResult(l);"
LAN = START + ";" + DRIVE + RUN
#: JupyterLab 4.6's CodeCell.execute, cut short.
CELL_RUN = (
    "x.execute=async function(n,i,o){var r;let s,a=n.model,l=a.sharedModel.getSource();"
    "if(!l.trim()||!(null==(r=i.session)?void 0:r.kernel))return void a.sharedModel.transact(()=>{a.clearExecution()},!1);"
    "return RUN(l)}"
)


def site_with(tmp_path: Path, **bundles: str) -> Path:
    static = tmp_path / KERNEL_STATIC
    static.mkdir(parents=True)
    for name, source in bundles.items():
        (static / f"{name}.js").write_text(source)
        (static / f"{name}.js.gz").write_bytes(b"stale")
    return tmp_path


def test_every_wait_is_settled_and_nothing_else_changes() -> None:
    fixed, count = _fix_wait_async(PAGE)
    assert count == 2 and ".value.then(" not in fixed
    assert fixed.startswith("return L&&u&&(c=1),(v=>typeof v")
    assert _fix_wait_async("x.value.y(1)") == ("x.value.y(1)", 0)


NODE_CHECK = """
const A = (flag, buffer) => flag ? Atomics.waitAsync(buffer, 0, 0) : {value: {then: (f) => f()}};
const already = new Int32Array(new SharedArrayBuffer(8)); already[0] = 1;  // the answer is there
const later = new Int32Array(new SharedArrayBuffer(8));
const seen = [];
SOURCE_ALREADY;
SOURCE_SYNC;
seen.push("sync " + (seen.includes("thenable") ? "before" : "after"));
SOURCE_LATER;
setTimeout(() => { Atomics.store(later, 0, 1); Atomics.notify(later, 0); }, 20);
setTimeout(() => console.log(JSON.stringify(seen)), 200);
"""


def test_in_node_the_settled_wait_goes_on_where_the_original_throws() -> None:
    """Node (Debian's nodejs, installed by kit.py test): its Atomics.waitAsync is the oracle: an answer already there comes back synchronously."""
    calls = {
        "SOURCE_ALREADY": 'A(true,already).value.then(() => seen.push("already"))',
        "SOURCE_SYNC": 'A(false,already).value.then(() => seen.push("thenable"))',
        "SOURCE_LATER": 'A(true,later).value.then(() => seen.push("later"))',
    }
    original = fixed = NODE_CHECK
    for mark, call in calls.items():
        original = original.replace(mark, call)
        fixed = fixed.replace(mark, _fix_wait_async(call)[0])
    broken = subprocess.run(["node", "-e", original], capture_output=True, text=True, timeout=30)
    assert broken.returncode != 0 and "value.then is not a function" in broken.stderr
    done = subprocess.run(["node", "-e", fixed], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    # the synchronous thenable stays synchronous; the settled and the awaited waits go on later
    assert json.loads(done.stdout) == ["thenable", "sync before", "already", "later"]


WRITE_CHECK = """
const texts = ["", "{", "[1]", '{"a": "é\\u2603 and more"}', "x".repeat(1001)];
const out = texts.map((e) => {
  const o = new Int32Array(new SharedArrayBuffer(4 * e.length + 8));
  WRITE;
  return new TextDecoder("utf-16").decode(new Uint16Array(o.buffer).slice(0, e.length));
});
console.log(JSON.stringify(out));
"""


def test_in_node_the_answer_is_written_whole_first_word_last() -> None:
    """The reordered write leaves the same text in the buffer as the original, for any length."""
    for source in (WRITE, _fix_answer_write(WRITE)[0]):
        script = WRITE_CHECK.replace("WRITE", source.replace("Pe", "Uint16Array"))
        done = subprocess.run(["node", "-e", script], capture_output=True, text=True, timeout=30)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout) == ["", "{", "[1]", '{"a": "é\u2603 and more"}', "x" * 1001]
    fixed = _fix_answer_write(WRITE)[0]
    assert fixed.endswith("Atomics.store(o,0,(e.charCodeAt(0)|0)|(e.charCodeAt(1)|0)<<16)")


def test_a_site_is_patched_in_place_and_its_stale_gzip_copies_dropped(tmp_path: Path) -> None:
    site = site_with(tmp_path, page=PAGE + WRITE, worker=WORKER + WRITE + LAN, other="let x = 1;")
    assert patch_kernel(site) == 8
    static = site / KERNEL_STATIC
    for name in ("page", "worker"):
        assert ".value.then(" not in (static / f"{name}.js").read_text()
        assert not (static / f"{name}.js.gz").exists()
    assert (static / "other.js").read_text() == "let x = 1;"
    assert (static / "other.js.gz").exists()


def test_a_site_without_the_kernels_bundles_or_the_wait_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SiteError, match="no kernel bundles"):
        patch_kernel(tmp_path)
    with pytest.raises(SiteError, match="no coincident wait"):
        patch_kernel(site_with(tmp_path / "a", other="let x = 1;"))
    with pytest.raises(SiteError, match="no coincident answer write"):
        patch_kernel(site_with(tmp_path / "b", page=PAGE))


def test_a_wait_in_an_unknown_form_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    site = site_with(tmp_path, odd="A(u, s).value.then(()=>1)")
    with pytest.raises(SiteError, match="odd.js: a coincident wait in a form"):
        patch_kernel(site)
    assert (site / KERNEL_STATIC / "odd.js").read_text() == "A(u, s).value.then(()=>1)"


def test_a_kernel_without_the_start_drive_and_run_the_build_knows_is_refused(
    tmp_path: Path,
) -> None:
    with pytest.raises(SiteError, match="start, drive and cell run were not all found"):
        patch_kernel(site_with(tmp_path, page=PAGE + WRITE + START))


def test_the_lan_files_go_in_where_the_kernel_starts_mounts_and_runs() -> None:
    fixed, count = _fix_lan_files(LAN)
    assert count == 3
    assert (
        "(e.contentsManager,s,this._worker).then(s=>t.initialize(s)).then(this._ready.resolve)"
        in fixed
    )
    assert (
        "async initFilesystem(e){if(!e.mountDrive&&e.kitFiles)return void ((kernel, options)"
        in fixed
    )
    assert fixed.endswith(",h=this.formatResult(l);") and "this._kitSync&&this._kitSync()" in fixed
    start, drive, run = (_fix_lan_files(piece)[0] for piece in (START, DRIVE, RUN))
    script = f"class K{{a(e,t){{{start}}}{drive}async c(e){{{run}}}}}"
    checked = subprocess.run(
        ["node", "--check", "-"], input=script, capture_output=True, text=True, timeout=30
    )
    assert checked.returncode == 0, checked.stderr


FIRST_CELL_CHECK = """
const x = {};
const RUN = (code) => "ran " + code;
SOURCE;
const model = {executionState: "idle", sharedModel: {getSource: () => "1 + 1", transact: (f) => f()},
               clearExecution() { this.executionState = "idle"; }};
const context = {session: null, isDisposed: false, ready: Promise.resolve()};
const states = [];
setTimeout(() => { states.push(model.executionState); context.session = {kernel: {}}; }, 120);
x.execute({model}, context, {}).then((result) => console.log(JSON.stringify([result, ...states])));
"""


def test_in_node_a_cell_run_before_the_kernel_waits_for_it_where_the_original_drops_it() -> None:
    script = FIRST_CELL_CHECK.replace("SOURCE", CELL_RUN)
    dropped = subprocess.run(["node", "-e", script], capture_output=True, text=True, timeout=30)
    assert json.loads(dropped.stdout) == [None]
    fixed, count = _fix_first_cell(CELL_RUN)
    assert count == 1
    kept = subprocess.run(["node", "-e", FIRST_CELL_CHECK.replace("SOURCE", fixed)],
                          capture_output=True, text=True, timeout=30)  # fmt: skip
    assert kept.returncode == 0, kept.stderr
    assert json.loads(kept.stdout) == ["ran 1 + 1", "running"]  # queued ([*]) while it waited


#: JupyterLite 0.8's settings reading its files (cut short), and a page listing them twice.
SETTINGS = (
    'class S{async list(){return [await this._getAll("all.json"),await this._getAll("all_federated.json")]}'
    'async _getAll(e){var t;let s=null!=(t=u.get("settingsUrl"))?t:"/";return await (await fetch(u.join(s,e))).json()}}'
)
SETTINGS_CHECK = """
const fetched = [];
const u = {get: () => "/s/", join: (a, b) => a + b};
globalThis.self = globalThis;
globalThis.fetch = async (url) => { fetched.push(url); return {json: async () => ({url, schema: {properties: {}}})}; };
SOURCE
const first = await new S().list(), second = await new S().list();
first[0].schema.properties.changed = 1;  // a caller changing its copy changes nobody else's
const third = await new S().list();
console.log(JSON.stringify([fetched, second[0], third[0]]));
"""


def test_in_node_the_settings_files_are_fetched_once_per_page_and_copied() -> None:
    fixed, count = _fix_settings_fetch(SETTINGS)
    assert count == 1
    for source, fetches in ((SETTINGS, 6), (fixed, 2)):
        done = subprocess.run(["node", "--input-type=module", "-e", SETTINGS_CHECK.replace("SOURCE", source)],
                              capture_output=True, text=True, timeout=30)  # fmt: skip
        assert done.returncode == 0, done.stderr
        fetched, second, third = json.loads(done.stdout)
        assert len(fetched) == fetches and set(fetched) == {"/s/all.json", "/s/all_federated.json"}
        assert second == third == {"url": "/s/all.json", "schema": {"properties": {}}}


#: mock-socket 4.9's WebSocket.send, as JupyterLite's bundle has it (its delay: a 4 ms timer).
SOCKET = (
    "function O(t,e){setTimeout(function(e){return t.call(e)},4,e)}"
    "class W{constructor(url){this.url=url}send(t){var o=this;"
    'var r=j({type:"server::message",origin:this.url,data:t}),n=T.serverLookup(this.url);'
    "n&&O(function(){o.dispatchEvent(r,t)},n)}}"
)
SOCKET_CHECK = """
const order = [];
const j = (e) => e, T = {serverLookup: () => ({})};
SOURCE
W.prototype.dispatchEvent = (event, data) => order.push(data);
const socket = new W("ws://kernel");
setTimeout(() => order.push("a 1 ms timer"), 1);
socket.send("click"); socket.send("undo");
order.push("the sender goes on");
await Promise.resolve();
order.push("the next microtask");
await new Promise((done) => setTimeout(done, 20));
console.log(JSON.stringify(order));
"""


def test_in_node_a_message_to_the_kernel_goes_in_order_before_any_timer() -> None:
    fixed, count = _fix_socket_send(SOCKET)
    assert count == 1
    found = {}
    for name, source in (("shipped", SOCKET), ("fixed", fixed)):
        done = subprocess.run(["node", "--input-type=module", "-e", SOCKET_CHECK.replace("SOURCE", source)],
                              capture_output=True, text=True, timeout=30)  # fmt: skip
        assert done.returncode == 0, done.stderr
        found[name] = json.loads(done.stdout)
    assert found["shipped"] == ["the sender goes on", "the next microtask", "a 1 ms timer", "click", "undo"]
    assert found["fixed"] == ["the sender goes on", "click", "undo", "the next microtask", "a 1 ms timer"]


def test_jupyterlabs_bundle_is_patched_once_or_the_build_is_refused(tmp_path: Path) -> None:
    (tmp_path / LAB_BUILD).mkdir()
    bundle = tmp_path / LAB_BUILD / "jlab_core.js"
    bundle.write_text(CELL_RUN + SESSION + RUN_CELL)
    (tmp_path / LAB_BUILD / "settings.js").write_text(SETTINGS)
    (tmp_path / LAB_BUILD / "other.js").write_text("clearExecution();")
    (tmp_path / LAB_BUILD / "4641.socket.js").write_text(SOCKET)
    assert patch_lab(tmp_path) == 6
    patched = bundle.read_text()
    assert "c.session&&c.session.kernel" in patched and "async $kitStartKernel(){" in patched
    assert "queueMicrotask" in (tmp_path / LAB_BUILD / "4641.socket.js").read_text()
    assert patch_lab(tmp_path) == 6 and bundle.read_text() == patched  # patched once only
    bundle.write_text("clearExecution(); /* another JupyterLab */")
    with pytest.raises(SiteError, match="cell run was found in 0 places"):
        patch_lab(tmp_path)
    bundle.write_text(CELL_RUN + SESSION)  # the run's call to startKernel missing
    with pytest.raises(SiteError, match=r"kernel start \(.*\) was found in 2 places .*, not 3"):
        patch_lab(tmp_path)
    bundle.write_text(CELL_RUN + SESSION + RUN_CELL)
    (tmp_path / LAB_BUILD / "settings.js").write_text("_getAll() /* another JupyterLite */")
    with pytest.raises(SiteError, match="settings fetch was found in 0 places"):
        patch_lab(tmp_path)
    (tmp_path / LAB_BUILD / "settings.js").write_text(SETTINGS)
    (tmp_path / LAB_BUILD / "4641.socket.js").write_text('"server::message" /* another mock-socket */')
    with pytest.raises(SiteError, match="message sending to its kernels was found in 0 places"):
        patch_lab(tmp_path)


#: JupyterLab 4.6's SessionContext (its start, as minified, cut short; the rest made up) and the
#: notebook's runCell: a run with no kernel calls startKernel, then the dialog if it says so.
SESSION = (
    "class S{constructor(){this._initPromise=new PD;this._initializing=!1;this.isDisposed=!1;"
    'this.kernelPreference={language:"",shouldStart:!0,canStart:!0,autoStartDefault:!1};'
    'this.specsManager={specs:null};this.session=null;this._pendingKernelName="";this.started=[]}'
    "get hasNoKernel(){return!this._pendingKernelName&&!(this.session&&this.session.kernel)}"
    "async initialize(){if(this._initializing)return this._initPromise.promise;this._initializing=!0;"
    "let n=await this._initialize();return this._initPromise.resolve(n),n}"
    "async _initialize(){return await new Promise(d=>setTimeout(d,30)),await this._startIfNecessary()}"
    "async _startIfNecessary(){var n;let i=this.kernelPreference;return!this.isDisposed&&(null==(n=this.session)"
    "||!n.kernel)&&!1!==i.shouldStart&&!1!==i.canStart&&this.startKernel()}"
    "async startKernel(){let n,i=this.kernelPreference;if(!i.autoStartDefault&&!1===i.shouldStart)return!0;"
    "let o=this.specsManager.specs&&i.name in this.specsManager.specs.kernelspecs?i.name:null;o&&(n={name:o});"
    "if(n)try{return await this._changeKernel(n),!1}catch(n){}return!0}"
    "async _changeKernel(n){this._pendingKernelName=n.name;this.started.push(n.name);"
    'await new Promise(d=>setTimeout(d,10));this.session={kernel:n};this._pendingKernelName="";return n}}'
)
RUN_CELL = (
    "async function runCell(n,a,l){if(a.hasNoKernel&&await a.startKernel()&&l&&await l.selectKernel(a),a.hasNoKernel)"
    'return n.model.sharedModel.transact(()=>{n.model.clearExecution()}),"dropped";return"ran"}'
)
SESSION_CHECK = """
class PD { constructor() { this.promise = new Promise((ok) => { this.resolve = ok; }); } }
SOURCE
const session = new S(), dialogs = [], states = [];
const cell = {model: {executionState: "idle", sharedModel: {transact: (f) => f()},
                      clearExecution() { this.executionState = "idle"; }}};
// the notebook shows: a run comes before the session read the notebook's kernelspec
const run = runCell(cell, session, {selectKernel: async () => { dialogs.push("Select Kernel"); }});
setTimeout(() => { states.push(cell.model.executionState); session.specsManager.specs = {default: "python",
    kernelspecs: {python: {language: "python"}}}; }, 20);
setTimeout(() => { session.kernelPreference = {...session.kernelPreference, name: "python", language: "python"};
                   session.initialize(); }, 40);
setTimeout(() => run.then((said) => console.log(JSON.stringify({said, dialogs, states, started: session.started}))), 300);
"""


def test_in_node_a_run_before_the_sessions_own_start_waits_for_it_where_the_original_asks() -> None:
    """The moment of the "Select Kernel" dialog: JupyterLab as shipped asks (and drops the run);
    the fixed start waits for the session's own (and for the kernelspecs), starts one kernel,
    shows the cell queued meanwhile, and runs it."""
    source = SESSION + RUN_CELL
    fixed, count = _fix_kernel_start(source)
    assert count == 3
    for code, expected in (
        (
            source,
            {
                "said": "dropped",
                "dialogs": ["Select Kernel"],
                "states": ["idle"],
                "started": ["python"],
            },
        ),
        (fixed, {"said": "ran", "dialogs": [], "states": ["running"], "started": ["python"]}),
    ):
        done = subprocess.run(["node", "-e", SESSION_CHECK.replace("SOURCE", code)],
                              capture_output=True, text=True, timeout=30)  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout) == expected
