"""The kernel started from a memory snapshot: the worker's start, run in Node against a stand-in
Pyodide, and the build's refusals.

The real snapshot (made in Deno by every site build, loaded by Chromium) is proven in
tests/browser/test_lite.py: the page's kernel has the snapshot's modules, shows a board as a
picture, and starts the usual way when the snapshot cannot be fetched.
"""

from __future__ import annotations

import json
import struct
import subprocess
from pathlib import Path

import pytest

from course import pyodide
from course.site import SiteError
from course.site.patches import KERNEL_PLUGIN, KERNEL_STATIC
from course.site.snapshot import (
    FILES_FILE,
    OPTION,
    RESEED,
    SNAPSHOT_FILE,
    WITHOUT_SNAPSHOT,
    _fix_worker,
    make_snapshot,
)

#: jupyterlite-pyodide-kernel 0.8.6's worker start, cut short.
WORKER = (
    "class K{async initRuntime(e){let{pyodideUrl:t,indexUrl:s}=e,{loadPyodide:i}=await e.module;"
    "this._pyodide=await i({indexURL:s,stdout:e=>{console.log(e)},...e.loadPyodideOptions}),"
    "this._pyodide._api.on_fatal=1}}"
)
FILES = {
    "/lib/python3.14/site-packages/kit/__init__.py": b"x = 1\n",
    "/lib/python3.14/site-packages/kit/board.py": b"y = 2\n",
    "/share/a/b.json": b"{}",
}


#: Folders' times in the bundle: one the files make, one that is not there in the page.
DIRS = [["/lib/python3.14/site-packages/kit", 1_600_000_000_000], ["/not/made", 1]]


def bundle(files: dict[str, bytes], packages: dict[str, str]) -> bytes:
    """The files' bundle as the snapshot's maker writes it, read from PUT_FILES' format."""
    index = json.dumps(
        {"dirs": DIRS, "files": [[path, len(data), 1_700_000_000_000 + n] for n, (path, data) in enumerate(files.items())],
         "packages": packages}  # fmt: skip
    ).encode()
    return struct.pack("<I", len(index)) + index + b"".join(files.values())


def start(options: dict[str, object], answers: dict[str, bytes | int], prelude: str = "", pages: int = 1) -> dict[str, object]:
    """Run the patched worker's start in Node with a stand-in ``loadPyodide`` and ``fetch``
    (``answers``: URL -> bytes, or an HTTP status), ``pages`` times after ``prelude``;
    returns what each side saw (``fetched``: the URLs each page fetched)."""
    fixed, count = _fix_worker(WORKER)
    assert count == 1
    served = {url: list(body) if isinstance(body, bytes) else body for url, body in answers.items()}
    script = f"""
const served = {json.dumps(served)}, calls = [], warned = [], written = {{}}, fetched = [], made = [], owned = [];
globalThis.self = {{ location: {{ href: "http://school/lab/index.html" }} }};
{prelude}
globalThis.fetch = async (url) => {{
  fetched.at(-1).push(String(url));
  const body = served[String(url)];
  return typeof body === "number" || body === undefined
    ? {{ ok: false, status: body || 404 }}
    : {{ ok: true, arrayBuffer: async () => new Uint8Array(body).buffer }};
}};
console.warn = (...a) => warned.push(a.map(String).join(" "));
const loadPyodide = async (o) => {{
  const call = {{ packages: o.packages, snapshot: null }};
  calls.push(call);
  if (o._loadSnapshot) {{
    call.snapshot = [...new Uint8Array(await o._loadSnapshot)];
    const api = o._snapshotDeserializer({{ api: "" }}), load = o._snapshotDeserializer({{ api: "loadPackage" }});
    call.forwarded = () => [api.version, load("x")];
  }}
  return {{
    _api: {{}}, version: "314", loadPackage: (n) => "loaded " + n, loadedPackages: {{}}, ran: [],
    FS: {{ mkdirTree: (d) => {{ made.push(d); for (let at = d; at.length > 1; at = at.slice(0, at.lastIndexOf("/"))) written[at + "/"] = true; }},
           analyzePath: (d) => ({{ exists: written[d + "/"] === true }}),
           writeFile: (f, d, opts) => {{ written[f] = new TextDecoder().decode(d); owned.push(opts?.canOwn === true && d.byteOffset > 0); }},
           utime: (f, a, m) => {{ written[f + "@"] = m; }} }},
    runPython(code) {{ this.ran.push(code); }},
  }};
}};
{fixed}
let k;
for (let page = 0; page < {pages}; page++) {{
  fetched.push([]);
  k = new K();
  await k.initRuntime({{ indexUrl: "../static/pyodide/", module: Promise.resolve({{ loadPyodide }}),
                        loadPyodideOptions: {json.dumps(options)} }});
}}
const first = calls[0];
console.log(JSON.stringify({{ calls: calls.map(({{ forwarded, ...c }}) => c), warned, written, fetched,
  kept: globalThis.keptKeys ? globalThis.keptKeys() : null,
  forwarded: first.forwarded ? first.forwarded() : null, loaded: k._pyodide.loadedPackages, ran: k._pyodide.ran,
  made, owned }}));
"""
    done = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


SNAPSHOT_OPTIONS: dict[str, object] = {"packages": ["micropip", "reversi-kit"], OPTION: {"memory": SNAPSHOT_FILE, "files": FILES_FILE}}
BASE = "http://school/static/pyodide/"


def test_the_worker_starts_from_the_snapshot_and_puts_the_packages_files_back() -> None:
    seen = start(SNAPSHOT_OPTIONS, {BASE + SNAPSHOT_FILE: b"MEMORY", BASE + FILES_FILE: bundle(FILES, {"kit": "default channel"})})
    assert seen["calls"] == [{"packages": [], "snapshot": list(b"MEMORY")}]  # no package loaded again
    written = seen["written"]
    assert isinstance(written, dict)
    assert written["/lib/python3.14/site-packages/kit/__init__.py"] == "x = 1\n"
    assert written["/lib/python3.14/site-packages/kit/board.py"] == "y = 2\n"
    assert written["/share/a/b.json"] == "{}" and written["/share/a/b.json@"] == 1_700_000_000_002
    # each folder is made once, and each file keeps its bytes where they are in the bundle
    assert seen["made"] == ["/lib/python3.14/site-packages/kit", "/share/a"]
    assert seen["owned"] == [True, True, True]
    assert seen["loaded"] == {"kit": "default channel"}
    # each folder gets its time back (the import system's caches in the snapshot hold)
    assert written["/lib/python3.14/site-packages/kit@"] == 1_600_000_000_000 and "/not/made@" not in written
    assert seen["ran"] == [RESEED] == ["import random; random.seed()"]  # random is seeded anew
    # the snapshot's JavaScript objects are the new Pyodide's, reached by name
    assert seen["forwarded"] == ["314", "loaded x"]
    assert seen["warned"] == []


@pytest.mark.parametrize("missing", [SNAPSHOT_FILE, FILES_FILE])
def test_a_snapshot_that_cannot_be_fetched_starts_the_kernel_as_before(missing: str) -> None:
    answers: dict[str, bytes | int] = {BASE + SNAPSHOT_FILE: b"MEMORY", BASE + FILES_FILE: bundle(FILES, {})}
    answers[BASE + missing] = 404
    seen = start(SNAPSHOT_OPTIONS, answers)
    calls = seen["calls"]
    assert isinstance(calls, list) and calls[-1] == {"packages": ["micropip", "reversi-kit"], "snapshot": None}
    warned = seen["warned"]
    assert isinstance(warned, list) and len(warned) == 1
    assert warned[0].startswith(WITHOUT_SNAPSHOT) and f"404 {BASE}{missing}" in warned[0]


#: The browser's IndexedDB, enough of it for the worker's kept copies (callbacks run as tasks).
INDEXED_DB = """
const kept = new Map(), later = (f) => setTimeout(f);
globalThis.keptKeys = () => [...kept.keys()].sort();
globalThis.indexedDB = { deleteDatabase() { kept.clear(); }, open(name) {
  const q = {};
  later(() => {
    if (globalThis.broken) return q.onerror();
    q.result = { createObjectStore() {}, transaction: () => ({ objectStore: () => ({
      get(key) { const r = {}; later(() => { r.result = kept.get(key); r.onsuccess(); }); return r; },
      put(value, key) { kept.set(key, value.slice(0)); },
      getAllKeys() { const r = {}; later(() => { r.result = [...kept.keys()]; r.onsuccess && r.onsuccess(); }); return r; },
      delete(key) { kept.delete(key); },
    }) }) };
    q.onupgradeneeded(); q.onsuccess();
  });
  return q;
} };
"""


def test_a_page_keeps_the_snapshot_for_the_next_page_and_only_the_newest_version() -> None:
    named = {"memory": SNAPSHOT_FILE + "?sha256=1", "files": FILES_FILE + "?sha256=1"}
    answers: dict[str, bytes | int] = {BASE + named["memory"]: b"MEMORY", BASE + named["files"]: bundle(FILES, {"kit": "default channel"})}
    seen = start({**SNAPSHOT_OPTIONS, OPTION: named}, answers, prelude=INDEXED_DB, pages=3)
    assert seen["fetched"] == [sorted(answers), [], []]  # the next pages read the kept copies
    assert seen["calls"] == [{"packages": [], "snapshot": list(b"MEMORY")}] * 3 and seen["warned"] == []
    assert seen["loaded"] == {"kit": "default channel"}
    assert seen["kept"] == sorted(answers)
    # a new build: its files are fetched once, and replace the ones the browser kept
    renamed = {key: name.replace("=1", "=2") for key, name in named.items()}
    newer: dict[str, bytes | int] = {BASE + renamed["memory"]: b"NEWER", BASE + renamed["files"]: bundle(FILES, {})}
    old = "".join(f"kept.set({json.dumps(url)}, new Uint8Array([1]).buffer);" for url in answers)
    seen = start({**SNAPSHOT_OPTIONS, OPTION: renamed}, newer, prelude=INDEXED_DB + old, pages=2)
    assert seen["fetched"] == [sorted(newer), []] and seen["kept"] == sorted(newer)
    assert seen["calls"] == [{"packages": [], "snapshot": list(b"NEWER")}] * 2
    # a kept copy a start fails with (damaged, or edited) is thrown away: the next page fetches
    damaged = "".join(f"kept.set({json.dumps(url)}, new Uint8Array([1, 0, 0, 0, 9]).buffer);" for url in answers)
    seen = start({**SNAPSHOT_OPTIONS, OPTION: named}, answers, prelude=INDEXED_DB + damaged, pages=2)
    assert seen["fetched"] == [[], sorted(answers)] and seen["kept"] == sorted(answers)
    warned = seen["warned"]
    assert isinstance(warned, list) and len(warned) == 1 and warned[0].startswith(WITHOUT_SNAPSHOT)
    # a browser whose IndexedDB fails fetches them each time, as before
    seen = start({**SNAPSHOT_OPTIONS, OPTION: named}, answers, prelude=INDEXED_DB + "globalThis.broken = true;", pages=2)
    assert seen["fetched"] == [sorted(answers)] * 2 and seen["warned"] == []


def test_a_site_without_a_snapshot_starts_the_kernel_as_before() -> None:
    seen = start({"packages": ["micropip"]}, {})
    assert seen["calls"] == [{"packages": ["micropip"], "snapshot": None}] and seen["warned"] == []


def site_with(tmp_path: Path, asm: str, worker: str) -> Path:
    site = tmp_path / "site"
    (site / "static" / "pyodide").mkdir(parents=True)
    (site / "static" / "pyodide" / "pyodide.asm.mjs").write_text(asm)
    (site / KERNEL_STATIC).mkdir(parents=True)
    for kind in ("coincident", "comlink"):
        (site / KERNEL_STATIC / f"{kind}.worker.1.js").write_text(worker)
    settings = {"loadPyodideOptions": {"packages": ["micropip"], "env": {"KIT_LANG": "en"}}}
    config = {"jupyter-config-data": {"litePluginSettings": {KERNEL_PLUGIN: settings}}}
    (site / "jupyter-lite.json").write_text(json.dumps(config))
    return site


RESTORE = "API.restoreSnapshot=function(t){return Module.HEAP8.set(t),l};"


def test_a_site_whose_pyodide_or_kernel_is_not_the_pinned_one_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SiteError, match="not the one the build pins"):
        make_snapshot(site_with(tmp_path, "no restore here", WORKER), print)
    with pytest.raises(SiteError, match="not the one the build pins"):
        make_snapshot(site_with(tmp_path / "2", RESTORE, "no worker start"), print)


def test_without_deno_the_site_keeps_the_usual_start_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = site_with(tmp_path, RESTORE, WORKER)
    config = (site / "jupyter-lite.json").read_text()

    def no_deno(*_: object) -> str:
        raise pyodide.PyodideError("Deno is not installed in the kit's environment")

    monkeypatch.setattr(pyodide, "run_in_deno", no_deno)
    said: list[str] = []
    assert make_snapshot(site, said.append) is False
    assert said and "starts without a snapshot" in said[0] and "Deno is not installed" in said[0]
    assert (site / "jupyter-lite.json").read_text() == config  # no snapshot named
    assert all(p.read_text() == WORKER for p in (site / KERNEL_STATIC).glob("*.js"))
    assert (site / "static" / "pyodide" / "pyodide.asm.mjs").read_text() == RESTORE  # as it was
    assert not (site / "static" / "pyodide" / SNAPSHOT_FILE).exists()
    assert not [p for p in site.iterdir() if p.name.startswith(".snapshot-")]
