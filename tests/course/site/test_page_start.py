"""A lesson's page start made lighter (course.site.page_start), run in Node against JupyterLab's
code as minified, cut short; the browser proof is tests/browser/test_lite.py (a page's settings,
a first cell, a board) and ``benchmarks/site.py``."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from course.site import SiteError
from course.site.page_start import (
    CONFIG,
    LEFT_OUT,
    SERVICE_WORKER,
    SPLASH,
    _fix_checkpoint_first,
    _fix_service_worker,
    _fix_settings_cache,
    _fix_typeset,
    _fix_workspace_wait,
    patch_page_start,
)
from course.site.patches import LAB_BUILD


def node(script: str) -> object:
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script], capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


#: JupyterLab 4's MathJax typesetter, as minified (its MathJax a stand-in that counts loads).
TYPESETTER = (
    "class M{constructor(){this._initialized=!1}"
    "async _ensureInitialized(){this._initialized||(globalThis.loads++,this._initialized=!0)}"
    "async typeset(n){try{await this._ensureInitialized()}catch(n){console.error(n);return}n.typeset=!0}}"
)
TYPESET_CHECK = r"""
globalThis.loads = 0;
SOURCE
const seen = [];
for (const texts of [["Play a move: click a square.", "Costs $5", "No math here"], ["\\(x^2\\)"],
                     ["\\[x\\]"], ["\\begin{align} a \\end{align}"]]) {
  const typesetter = new M();  // a fresh page's
  for (const text of texts) {
    const node = {textContent: text};
    await typesetter.typeset(node);
    seen.push([text, globalThis.loads, !!node.typeset]);
  }
}
console.log(JSON.stringify(seen));
"""


def test_in_node_mathjax_is_loaded_only_for_a_text_that_may_hold_math() -> None:
    fixed, count = _fix_typeset(TYPESETTER)
    assert count == 1
    assert node(TYPESET_CHECK.replace("SOURCE", fixed)) == [
        ["Play a move: click a square.", 0, False],  # no math: MathJax stays unloaded
        ["Costs $5", 1, True],  # a dollar may be math: loaded and typeset, as before
        ["No math here", 1, True],  # loaded already: every text is typeset
        ["\\(x^2\\)", 2, True],
        ["\\[x\\]", 3, True],
        ["\\begin{align} a \\end{align}", 4, True],
    ]


#: JupyterLab 4's settings validator, as minified: two compiled validators per plugin (the
#: compiles counted), the user's settings checked, then their defaults filled in.
VALIDATOR = (
    "class A{constructor(){this.v=new Map}"
    "validateData(n,i=!0){let o,r=this._validator.getSchema(n.id),s=r;"
    "if(!r)return this.v.set(n.id,(d)=>(globalThis.compiles++,Object.keys(d).every(k=>k in n.schema.properties))),"
    "this.validateData(n,i);o=JSON.parse(n.raw);if(!r(o))return[{keyword:\"additionalProperties\"}];"
    "let a={...Object.fromEntries(Object.entries(n.schema.properties).map(([k,p])=>[k,p.default])),...o};"
    "return i&&(n.data={composite:a,user:o}),null}"
    "get _validator(){return{getSchema:(id)=>this.v.get(id)}}}"
)
SETTINGS_CHECK = r"""
globalThis.compiles = 0;
const stored = new Map();
globalThis.localStorage = {
  getItem: (k) => { if (globalThis.locked) throw new Error("SecurityError"); return stored.has(k) ? stored.get(k) : null; },
  setItem: (k, v) => { if (globalThis.locked) throw new Error("SecurityError"); stored.set(k, String(v)); },
};
SOURCE
const schema = {type: "object", properties: {theme: {default: "light"}, size: {default: 12}}};
const plugin = (raw, s = schema) => ({id: "@jupyterlab/apputils-extension:themes", schema: s, raw});
const page = (raw, s, keep = true) => {  // a fresh page's registry checks one plugin
  const p = plugin(raw, s), before = globalThis.compiles;
  const errors = new A().validateData(p, keep);
  return {errors, data: p.data || null, compiled: globalThis.compiles - before};
};
const seen = {first: page("{}"), second: page("{}")};
seen.second.fresh = (() => { const a = plugin("{}"), b = plugin("{}"), v = new A();
  v.validateData(a); v.validateData(b); a.data.composite.theme = "dark"; return b.data.composite.theme; })();
seen.changed = page('{"theme": "dark"}');
seen.changedAgain = page('{"theme": "dark"}');
seen.newSchema = page("{}", {type: "object", properties: {theme: {default: "dark"}}});
seen.wrong = page('{"colour": 1}');
seen.wrongAgain = page('{"colour": 1}');
seen.checkOnly = page("{}", undefined, false);
const key = "kit-settings:" + plugin("{}").id;  // an entry for this schema and text, damaged or edited
stored.set(key, JSON.stringify([JSON.stringify(schema), "{}", "{not json", "{}"]));
seen.damaged = page("{}");
seen.repaired = page("{}");  // the damaged entry was replaced by the one Ajv checked
stored.set(key, "[1, 2");
seen.unreadable = page("{}");
globalThis.locked = true;
seen.noStorage = page("{}");
seen.stored = stored.size;
console.log(JSON.stringify(seen));
"""


def test_in_node_a_plugins_checked_settings_are_kept_for_the_next_page_with_their_schema() -> None:
    fixed, count = _fix_settings_cache(VALIDATOR)
    assert count == 1
    seen = node(SETTINGS_CHECK.replace("SOURCE", fixed))
    light = {"composite": {"theme": "light", "size": 12}, "user": {}}
    assert seen == {
        "first": {"errors": None, "data": light, "compiled": 1},
        "second": {"errors": None, "data": light, "compiled": 0, "fresh": "light"},  # not shared
        "changed": {"errors": None, "data": {"composite": {"theme": "dark", "size": 12},
                                             "user": {"theme": "dark"}}, "compiled": 1},  # fmt: skip
        "changedAgain": {"errors": None, "data": {"composite": {"theme": "dark", "size": 12},
                                                  "user": {"theme": "dark"}}, "compiled": 0},  # fmt: skip
        "newSchema": {"errors": None, "data": {"composite": {"theme": "dark"}, "user": {}}, "compiled": 1},
        "wrong": {"errors": [{"keyword": "additionalProperties"}], "data": None, "compiled": 1},
        "wrongAgain": {"errors": [{"keyword": "additionalProperties"}], "data": None, "compiled": 1},
        "checkOnly": {"errors": None, "data": None, "compiled": 1},  # kept results not set on the plugin
        "damaged": {"errors": None, "data": light, "compiled": 1},  # checked again, and kept anew
        "repaired": {"errors": None, "data": light, "compiled": 0},
        "unreadable": {"errors": None, "data": light, "compiled": 1},
        "noStorage": {"errors": None, "data": light, "compiled": 1},
        "stored": 1,  # one entry per plugin: the last checked settings
    }
    unpatched = node(SETTINGS_CHECK.replace("SOURCE", VALIDATOR))
    assert unpatched["second"]["compiled"] == unpatched["repaired"]["compiled"] == 1  # type: ignore[index]


#: JupyterLab 4's document context, as minified: its start, with a checkpoint that takes a while.
CONTEXT = (
    "class C{constructor(fails){this.isDisposed=!1;this.seen=[];this.fails=fails;this._model={defaultKernelName:\"python\","
    "defaultKernelLanguage:\"python\"};this.sessionContext={kernelPreference:{name:\"\"},initialize:async()=>"
    "(this.seen.push(\"kernel \"+this.sessionContext.kernelPreference.name),!1)};this._dialogs={selectKernel(){}}}"
    "async _maybeCheckpoint(n){await new Promise(d=>setTimeout(d,30));if(this.fails)throw Error(\"storage full\");"
    "this.seen.push(\"checkpoint\")}"
    "async _populate(){if(this._isPopulated=!0,this._isReady=!0,this._populatedPromise.resolve(void 0),"
    "await this._maybeCheckpoint(!1),this.isDisposed)return;let n=this._model.defaultKernelName||"
    "this.sessionContext.kernelPreference.name;this.sessionContext.kernelPreference={...this.sessionContext"
    ".kernelPreference,name:n,language:this._model.defaultKernelLanguage},this.sessionContext.initialize()"
    ".then(n=>{n&&this._dialogs.selectKernel(this.sessionContext)})}}"
)
CONTEXT_CHECK = """
SOURCE
const run = async (fails) => {
  const c = new C(fails);
  c._populatedPromise = {resolve() { c.seen.push("populated"); }};
  try { await c._populate(); c.seen.push("done"); } catch (e) { c.seen.push("failed: " + e.message); }
  return c.seen;
};
console.log(JSON.stringify([await run(false), await run(true)]));
"""


def test_in_node_a_notebooks_kernel_starts_before_its_checkpoint_is_made() -> None:
    fixed, count = _fix_checkpoint_first(CONTEXT)
    assert count == 1
    assert node(CONTEXT_CHECK.replace("SOURCE", CONTEXT)) == [
        ["populated", "checkpoint", "kernel python", "done"],
        ["populated", "failed: storage full"],  # as shipped: no kernel when the checkpoint fails
    ]
    assert node(CONTEXT_CHECK.replace("SOURCE", fixed)) == [
        ["populated", "kernel python", "checkpoint", "done"],  # the start waits for the checkpoint still
        ["populated", "kernel python", "failed: storage full"],
    ]


#: JupyterLab's ``loadState`` route as minified, cut short (its workspace save debounced by 60 ms
#: here, 500 ms in JupyterLab), and a router that runs the page's routes one after the other.
LOAD_STATE = (
    "class Debouncer{constructor(f,limit=60){this.f=f;this.limit=limit;this.t=null;this.w=[]}"
    "invoke(){clearTimeout(this.t);return new Promise((ok,no)=>{this.w.push([ok,no]);"
    "this.t=setTimeout(async()=>{let w=this.w;this.w=[];try{let r=await this.f();w.forEach(([ok])=>ok(r))}"
    "catch(e){w.forEach(([,no])=>no(e))}},this.limit)})}}"
    'const v={loadState:"apputils:load-statedb",reset:"apputils:reset"},d={c:{},addCommand(i,c){this.c[i]=c}};'
    'let A=new Debouncer(async()=>{if(globalThis.failing)throw Error("storage full");globalThis.seen.push("workspace saved")});'
    'd.addCommand(v.loadState,{execute:async n=>{globalThis.seen.push("state loaded");await A.invoke()}}),'
    "d.addCommand(v.reset,{execute:async()=>{}});"
)
LOAD_STATE_CHECK = r"""
const warned = [];
console.warn = (...a) => warned.push(String(a[0]));
process.on("unhandledRejection", (e) => warned.push("unhandled " + e));
SOURCE
const pages = {};
for (const failing of [false, true]) {
  globalThis.seen = [];
  globalThis.failing = failing;
  for (const route of [v.loadState]) {  // the router awaits each route, and warns of one that failed
    try { await d.c[route].execute({}); } catch (e) { console.warn(`Routing to ${route} failed`); }
  }
  globalThis.seen.push("notebook opened");  // the next route: JupyterLite's opener
  await new Promise((done) => setTimeout(done, 200));
  pages[failing ? "failing" : "saving"] = globalThis.seen;
}
console.log(JSON.stringify({...pages, warned}));
"""


def test_in_node_the_notebook_is_opened_without_waiting_for_the_workspaces_save() -> None:
    assert node(LOAD_STATE_CHECK.replace("SOURCE", LOAD_STATE)) == {  # as shipped
        "saving": ["state loaded", "workspace saved", "notebook opened"],
        "failing": ["state loaded", "notebook opened"],
        "warned": ["Routing to apputils:load-statedb failed"],
    }
    fixed, count = _fix_workspace_wait(LOAD_STATE)
    assert count == 1
    assert node(LOAD_STATE_CHECK.replace("SOURCE", fixed)) == {
        "saving": ["state loaded", "notebook opened", "workspace saved"],  # saved still, after
        "failing": ["state loaded", "notebook opened"],
        "warned": ["The workspace was not saved"],  # said, not an unhandled rejection
    }


#: JupyterLite 0.8.6's service worker, as minified, cut to its answer to a request; the network,
#: the kernel's broadcast and the event are stand-ins that say who answered.
SERVICE_WORKER_SOURCE = (
    'let enableCache=!1;const location={origin:"http://127.0.0.1:8765"};'
    "async function onFetch(e){let{request:t}=e,a=new URL(e.request.url);"
    'if("/api/service-worker-heartbeat"===a.pathname)return void e.respondWith(new Response("ok"));'
    "let n=null;shouldBroadcast(a)?n=broadcastOne(t,a):shouldDrop(t,a)||(n=maybeFromCache(e)),n&&e.respondWith(n)}"
    "async function maybeFromCache(e){let{request:t}=e;if(!enableCache)return await fetch(t);return null}"
    'function shouldBroadcast(e){return e.origin===location.origin&&(e.pathname.includes("/api/drive")||e.pathname.includes("/api/stdin/"))}'
    'function shouldDrop(e,t){return"GET"!==e.method||null===t.origin.match(/^http/)||t.pathname.includes("/api/")}'
    'async function broadcastOne(e,t){return "the kernel\'s page"}'
)
SERVICE_WORKER_CHECK = r"""
globalThis.fetch = async () => "the network, through the service worker";
SOURCE
const seen = [];
for (const [method, path] of [["GET", "/build/jlab_core.a86436d.js"], ["GET", "/lab/index.html"],
    ["GET", "/static/pyodide/kernel.snapshot"], ["POST", "/api/drive.v1"], ["GET", "/api/stdin/abc"],
    ["GET", "/api/contents/all.json"]]) {
  let answer = "the browser";  // no respondWith: the browser fetches it as on a page without the worker
  await onFetch({request: {url: "http://127.0.0.1:8765" + path, method}, respondWith: (a) => { answer = a; }});
  seen.push([path, await answer]);
}
console.log(JSON.stringify(seen));
"""


def test_in_node_the_service_worker_answers_the_kernels_requests_only() -> None:
    assert node(SERVICE_WORKER_CHECK.replace("SOURCE", SERVICE_WORKER_SOURCE))[:3] == [
        ["/build/jlab_core.a86436d.js", "the network, through the service worker"],  # as shipped
        ["/lab/index.html", "the network, through the service worker"],
        ["/static/pyodide/kernel.snapshot", "the network, through the service worker"],
    ]
    fixed, count = _fix_service_worker(SERVICE_WORKER_SOURCE)
    assert count == 1
    assert node(SERVICE_WORKER_CHECK.replace("SOURCE", fixed)) == [
        ["/build/jlab_core.a86436d.js", "the browser"],  # its code cache works again
        ["/lab/index.html", "the browser"],
        ["/static/pyodide/kernel.snapshot", "the browser"],
        ["/api/drive.v1", "the kernel's page"],  # what the worker is there for, as before
        ["/api/stdin/abc", "the kernel's page"],
        ["/api/contents/all.json", "the browser"],  # dropped as before
    ]


#: A built site's configuration, cut short: a setting of the kit's, an extension turned off
#: already, and the lab extensions the build's environment brought.
LITE_CONFIG = {
    "jupyter-lite-schema-version": 0,
    "jupyter-config-data": {
        "appName": "Reversi kit",
        "disabledExtensions": ["@jupyterlab/mathjax-extension:plugin"],
        "federated_extensions": [
            {"name": "ipycanvas", "load": "static/remoteEntry.b3a3.js", "extension": "./extension"},
            {"name": "jupyterlab_pygments", "load": "static/remoteEntry.5cbb.js", "style": "./style"},
        ],
    },
}


def test_the_page_start_is_patched_once_or_the_build_is_refused(tmp_path: Path) -> None:
    build = tmp_path / LAB_BUILD
    build.mkdir()
    (build / "jlab_core.js").write_text(TYPESETTER + VALIDATOR + CONTEXT + LOAD_STATE)
    (build / "other.js").write_text("let unrelated = 1;")
    (tmp_path / SERVICE_WORKER).write_text(SERVICE_WORKER_SOURCE)
    (tmp_path / CONFIG).write_text(json.dumps(LITE_CONFIG))
    for name in ("ipycanvas", *LEFT_OUT):
        (tmp_path / "extensions" / name / "static").mkdir(parents=True)
    (tmp_path / "lab").mkdir()
    (tmp_path / "lab" / "favicon.ico").write_bytes(b"\x00\x00\x01\x00icon")
    assert patch_page_start(tmp_path) == 8
    assert (tmp_path / "favicon.ico").read_bytes() == b"\x00\x00\x01\x00icon"
    patched = (build / "jlab_core.js").read_text()
    assert "$kitValidateData(" in patched and "!this._initialized&&" in patched
    assert "shouldDrop(t,a)||" not in (tmp_path / SERVICE_WORKER).read_text()
    assert (build / "other.js").read_text() == "let unrelated = 1;"
    data = json.loads((tmp_path / CONFIG).read_text())["jupyter-config-data"]
    assert data["disabledExtensions"] == ["@jupyterlab/mathjax-extension:plugin", SPLASH]
    assert [extension["name"] for extension in data["federated_extensions"]] == ["ipycanvas"]
    assert data["appName"] == "Reversi kit"  # the rest as it was
    assert sorted(p.name for p in (tmp_path / "extensions").iterdir()) == ["ipycanvas"]
    with pytest.raises(SiteError, match="already patched"):
        patch_page_start(tmp_path)
    (tmp_path / CONFIG).write_text(json.dumps(LITE_CONFIG))
    with pytest.raises(SiteError, match="already patched"):
        patch_page_start(tmp_path)
    (build / "jlab_core.js").write_text(VALIDATOR + CONTEXT)
    with pytest.raises(SiteError, match="MathJax typesetter in 0 places"):
        patch_page_start(tmp_path)
    (build / "jlab_core.js").write_text(TYPESETTER + "class A{validateData(n){return null}_validator}" + CONTEXT)
    with pytest.raises(SiteError, match="settings' validator in 0 places"):
        patch_page_start(tmp_path)
    (build / "jlab_core.js").write_text(TYPESETTER + VALIDATOR)
    with pytest.raises(SiteError, match="document's start in 0 places"):
        patch_page_start(tmp_path)
    assert (build / "jlab_core.js").read_text() == TYPESETTER + VALIDATOR  # left as it was
    (build / "jlab_core.js").write_text(TYPESETTER + VALIDATOR + CONTEXT)
    with pytest.raises(SiteError, match="wait for the workspace's save in 0 places"):
        patch_page_start(tmp_path)
    (build / "jlab_core.js").write_text(TYPESETTER + VALIDATOR + CONTEXT + LOAD_STATE)
    (tmp_path / SERVICE_WORKER).write_text(SERVICE_WORKER_SOURCE.replace("maybeFromCache(e))", "fetch(t))"))
    with pytest.raises(SiteError, match="answers requests in 0 places"):
        patch_page_start(tmp_path)
    assert (build / "jlab_core.js").read_text() == TYPESETTER + VALIDATOR + CONTEXT + LOAD_STATE  # as it was
    (tmp_path / SERVICE_WORKER).write_text(SERVICE_WORKER_SOURCE)
    (tmp_path / CONFIG).write_text('{"jupyter-config-data": [')
    with pytest.raises(SiteError, match="jupyter-lite.json is not a JupyterLite site's configuration"):
        patch_page_start(tmp_path)
    (tmp_path / CONFIG).unlink()
    with pytest.raises(SiteError, match="not a JupyterLite site's configuration"):
        patch_page_start(tmp_path)
    assert (build / "jlab_core.js").read_text() == TYPESETTER + VALIDATOR + CONTEXT + LOAD_STATE  # as it was
