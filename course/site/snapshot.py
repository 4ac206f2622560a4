"""The kernel starts from a memory snapshot: Python with its packages and the kernel imported.

A kernel's start spent about 3 s starting Pyodide and loading its packages, then 1.2 s
importing the kernel, IPython, the widgets and the kit (a warm page on a 2-core machine),
all before a student's first cell could run.  The build now does that once, in Deno, and
keeps Pyodide's memory (``loadPyodide({_makeSnapshot: true})``, ``makeMemorySnapshot``):
the page's kernel loads that memory instead (``_loadSnapshot``) and only puts the packages'
files back in its file system (a snapshot holds memory, not files; the packages are pure
Python, so nothing else needs loading).

Three things make a snapshot of a kernel with packages possible; each is checked here:

* Pyodide's memory is exported by its WebAssembly module at its first size, smaller than a
  kernel's memory: its ``restoreSnapshot`` grows it first (:func:`_fix_restore`, in the
  site's copy of Pyodide only).
* Pyodide refuses a snapshot whose list of loaded packages is not empty; the page loads
  them again anyway, so the list is emptied just before the snapshot is made.
* Python holds JavaScript objects of Pyodide's after the imports (micropip's ``pyodide_js``,
  its ``loadPackage``, ``install``): they are kept by name, and the page's kernel gives back
  its own Pyodide's (:data:`FROM_SNAPSHOT`).

The snapshot is made with the kernel's own options (its packages, ``KIT_LANG``) and kept only
if a Pyodide started from it imports the kernel and answers; a kernel whose snapshot cannot
be fetched or loaded starts the usual way (the page says so in its console).
"""

from __future__ import annotations

import hashlib
import json
import re
import tempfile
from collections.abc import Callable
from pathlib import Path

from course import pyodide
from course.site import SiteError
from course.site.patches import KERNEL_PLUGIN, KERNEL_STATIC, rewrite
from course.site.prewarm import IMPORTS

#: The snapshot's files, beside the site's Pyodide: its memory, and the packages' files.
SNAPSHOT_FILE = "kernel.snapshot"
FILES_FILE = "kernel.files"
#: What the page's console says when its kernel starts without the snapshot (then why).
WITHOUT_SNAPSHOT = "The kernel starts without its snapshot"
#: The option of ``loadPyodideOptions`` that names them (the kernel's workers read it).
OPTION = "$kitSnapshot"
#: Pyodide's ``restoreSnapshot`` ends by copying the memory into the heap as it is.
RESTORE = "return Module.HEAP8.set(t),l}"
GROWN = "return Module.HEAP8.length<t.length&&Module.growMemory(t.length),Module.HEAP8.set(t),l}"
#: ``(name) -> value``: the snapshot's names of JavaScript objects, given back from ``api``.
DESERIALIZER = '(api=>d=>d.api===""?api:(...a)=>(d.inner?api._api:api)[d.api](...a))'
#: After the files: ``random`` (imported in the snapshot, its state in the memory) is seeded
#: anew, or every page would draw the same "random" numbers.
RESEED = "import random; random.seed()"
#: ``(pyodide, bytes)``: puts the packages' files back (a little-endian length, a JSON index
#: ``{dirs: [[path, mtime]], files: [[path, size, mtime]], packages}``, the files' bytes one
#: after another), marks the packages loaded, as ``loadPackage`` would have, and runs
#: :data:`RESEED`.  Each folder gets back its time too: the import system's caches in the
#: snapshot (each folder's listing, the standard library zip's index) then hold as they are.
#: ``importlib.invalidate_caches()`` had made the first import of a page read them all again
#: (0.2-0.3 s of the first ``from course import play``).  Each folder is made once (making a
#: folder's path throws and catches an error for each folder on it that is there), and each
#: file keeps its bytes where they are in the bundle (``canOwn``: not copied).
PUT_FILES = (
    "((p,b)=>{let n=new DataView(b.buffer,b.byteOffset).getUint32(0,!0),"
    "x=JSON.parse(new TextDecoder().decode(b.subarray(4,4+n))),at=4+n,made=new Set;"
    "for(let[f,size,time]of x.files){let d=f.slice(0,f.lastIndexOf(\"/\"));made.has(d)||(p.FS.mkdirTree(d),made.add(d));"
    "p.FS.writeFile(f,b.subarray(at,at+size),{canOwn:!0});p.FS.utime(f,time,time);at+=size}"
    "for(let[d,time]of x.dirs||[])p.FS.analyzePath(d).exists&&p.FS.utime(d,time,time);"
    "Object.assign(p.loadedPackages,x.packages);p.runPython(RESEED)})".replace("RESEED", json.dumps(RESEED))
)
#: The kernel worker's start: ``this._pyodide=await LOAD({indexURL:URL,...,...OPTS.loadPyodideOptions}),``
WORKER_LOAD = re.compile(
    r"this\._pyodide=await ([\w$]+)\((\{indexURL:[\w$]+,.*?\.\.\.[\w$]+\.loadPyodideOptions\})\),"
)
#: ``(url, fetched) => Promise<ArrayBuffer>``: the bytes the browser keeps for ``url`` (its
#: IndexedDB, ``kit-kernel``), else ``fetched()``'s, kept for the next page in place of any
#: other version of that file (the build names each version: ``?sha256=``).  The server
#: sends the files gzipped, and a page read them back from the HTTP cache through gzip each
#: time (0.55-0.7 s for the two, against 0.3-0.4 s from IndexedDB); without IndexedDB (or on
#: any error) they are fetched as before, and copies a start failed with are thrown away.
KEPT = (
    '(key,fetched)=>(async()=>{let db=null;try{db=await new Promise((ok,no)=>{let q=indexedDB.open("kit-kernel",1);'
    'q.onupgradeneeded=()=>q.result.createObjectStore("bytes");q.onsuccess=()=>ok(q.result);q.onerror=q.onblocked=()=>no(q.error)});'
    'let b=await new Promise((ok,no)=>{let q=db.transaction("bytes").objectStore("bytes").get(key);'
    "q.onsuccess=()=>ok(q.result);q.onerror=()=>no(q.error)});if(b instanceof ArrayBuffer)return b}catch(e){}"
    'let b=await fetched();if(db)try{let s=db.transaction("bytes","readwrite").objectStore("bytes"),path=key.split("?")[0];'
    "s.put(b,key);let k=s.getAllKeys();k.onsuccess=()=>{for(let x of k.result)x!==key&&String(x).split(\"?\")[0]===path&&s.delete(x)}}"
    "catch(e){}return b})()"
)
#: ``(load, options) => Promise<pyodide>``: from the snapshot the options name, else as before.
FROM_SNAPSHOT = (
    "(async(load,o)=>{let f=o[" + json.dumps(OPTION) + "];if(!f)return load(o);let api={},kept=" + KEPT + ","
    "get=g=>{let w=new URL(g,new URL(o.indexURL,self.location.href)).href;return kept(w,()=>fetch(w).then(r=>{"
    "if(!r.ok)throw Error(`${r.status} ${w}`);return r.arrayBuffer()}))};"
    "try{let files=get(f.files);files.catch(()=>{});let p=await load({...o,packages:[],_loadSnapshot:get(f.memory),"
    "_snapshotDeserializer:" + DESERIALIZER + "(api)});"
    "Object.defineProperties(api,Object.getOwnPropertyDescriptors(p));"
    + PUT_FILES + "(p,new Uint8Array(await files));return p}"
    "catch(e){console.warn(" + json.dumps(WITHOUT_SNAPSHOT + ":") + ",e);"
    'try{indexedDB.deleteDatabase("kit-kernel")}catch(x){}return load(o)}})'  # not kept to fail again
)

#: Deno makes the snapshot as the page's kernel starts, then checks a start from it.
MAKER = """
const [coreUrl, core, scratch] = Deno.args;
const { load, imports, check } = JSON.parse(await Deno.readTextFile(scratch + "/options.json"));
const { loadPyodide } = await import(coreUrl + "pyodide.mjs");
const py = await loadPyodide({ indexURL: core, ...load, packages: [], _makeSnapshot: true });
const list = (dir, out, dirs) => {
  for (const name of py.FS.readdir(dir)) {
    const path = (dir === "/" ? "" : dir) + "/" + name, stat = py.FS.lstat(path);
    if (name === "." || name === ".." || ["/dev", "/proc", "/tmp", "/home"].includes(path)) continue;
    if (py.FS.isDir(stat.mode)) list(path, out, dirs.set(path, +stat.mtime));
    else if (py.FS.isFile(stat.mode)) out.set(path, +stat.mtime);
  }
  return out;
};
const before = list("/", new Map(), new Map());
await py.loadPackage(load.packages, { messageCallback: () => {} });
await py.runPythonAsync(imports);
const inMemory = new Set(JSON.parse(py.runPython(IN_MEMORY)));
const needed = (path) => !inMemory.has(path) && !path.startsWith("/share/") && !path.includes(".data/");
py.runPython("import gc; gc.collect(); gc.freeze()");
const dirs = new Map();
const files = [...list("/", new Map(), dirs)].filter(([path, time]) => before.get(path) !== time && needed(path))
  .map(([path, time]) => [path, time, py.FS.readFile(path)]);
const index = new TextEncoder().encode(JSON.stringify({ dirs: [...dirs],
  files: files.map(([path, time, data]) => [path, data.length, time]), packages: { ...py.loadedPackages } }));
const bundle = new Uint8Array(4 + index.length + files.reduce((sum, [, , data]) => sum + data.length, 0));
new DataView(bundle.buffer).setUint32(0, index.length, true);
bundle.set(index, 4);
files.reduce((at, [, , data]) => (bundle.set(data, at), at + data.length), 4 + index.length);
await Deno.writeFile(scratch + "/files", bundle);
for (const name in py.loadedPackages) delete py.loadedPackages[name];
const named = (where, value) =>
  Object.getOwnPropertyNames(where).find((n) => { try { return where[n] === value; } catch { return false; } });
const serializer = (value) => {
  if (value === py) return { api: "" };
  const name = named(py, value), inner = name === undefined ? named(py._api, value) : undefined;
  if (name === undefined && inner === undefined)
    throw new Error("the kernel holds a JavaScript object with no name: " + String(value).slice(0, 80));
  return name === undefined ? { api: inner, inner: true } : { api: name };
};
await Deno.writeFile(scratch + "/memory", py.makeMemorySnapshot({ serializer }));
const api = {};
const again = await loadPyodide({ indexURL: core, ...load, packages: [], _loadSnapshot: Deno.readFile(scratch + "/memory"),
                                  _snapshotDeserializer: DESERIALIZER(api) });
Object.defineProperties(api, Object.getOwnPropertyDescriptors(again));
PUT_FILES(again, await Deno.readFile(scratch + "/files"));
console.log(await again.runPythonAsync(check));
"""
#: The bytecode files of the modules the snapshot has imported: their code is in its memory, so
#: the bundle leaves them out (a fifth of its files), with the packages' data files for
#: JupyterLab (``share/``, a wheel's ``.data``), which the kernel never reads.  Sources stay,
#: for tracebacks and ``inspect``.
IN_MEMORY = (
    "import sys, json; json.dumps([c for m in list(sys.modules.values()) "
    "if isinstance(c := getattr(getattr(m, '__spec__', None), 'cached', None), str)])"
)
#: What the snapshot has imported: the page's own (:data:`IMPORTS`), what the worker's start
#: imports next (piplite's settings) and what a lesson's first board needs; ipycanvas and the
#: board's widget with their widgets held until the first cell (:mod:`course.site.held_widgets`:
#: a widget needs the page).  ``course`` is imported after the kernel, so it registers its
#: pictures with the kernel's shell, the one the page's kernel uses.
SNAPSHOT_IMPORTS = (
    f"{IMPORTS}, piplite.piplite, numpy, PIL.Image, course.board.controller, course.board.panels, "
    "course.board.settings_panel, course.board.sound, course.board.thinking, course.pictures.pawns, "
    "course.pictures.svg, course.site.held_widgets\n"
    "course.site.held_widgets.import_holding_widgets('ipycanvas', 'course.board.widget')"
)
#: What a kernel started from the snapshot must answer: its language (KIT_LANG), the board's
#: widget imported with no widget opened, a package's module read from its files, micropip
#: seeing the packages loaded, the source of a module the snapshot imported (its bytecode left
#: out) there for ``inspect``.
CHECK = (
    "import comm, inspect, os, sys, micropip, IPython.core.magics.osm, course.board.controller as c\n"
    "f\"{os.environ['KIT_LANG']} {'course.board.widget' in sys.modules and not comm.get_comm_manager().comms} "
    "{'ipykernel' in micropip.list()} {'class GameController' in inspect.getsource(c)} {6 * 7}\""
)


def _fix_restore(source: str) -> tuple[str, int]:
    """Pyodide's ``restoreSnapshot`` growing the memory to the snapshot's size first.

    >>> _fix_restore("API.restoreSnapshot=function(t){return Module.HEAP8.set(t),l};")[1]
    1
    """
    return source.replace(RESTORE, GROWN), source.count(RESTORE)


def _fix_worker(source: str) -> tuple[str, int]:
    """A kernel worker starting Pyodide from the snapshot its options name; and how many places.

    >>> _fix_worker("this._pyodide=await i({indexURL:s,stdout:x,...e.loadPyodideOptions}),")[0][:40]
    'this._pyodide=await (async(load,o)=>{let'
    """
    return WORKER_LOAD.subn(lambda m: f"this._pyodide=await {FROM_SNAPSHOT}({m[1]},{m[2]}),", source)


def make_snapshot(site: Path, say: Callable[[str], None]) -> bool:
    """Give the built ``site``'s kernel a start-up snapshot; True if it has one.

    Without Deno, or when the snapshot cannot start a kernel, the site keeps the usual start
    (said with ``say``).  Raises :class:`SiteError` when the site's Pyodide or kernel is not
    the one the build pins (a place to fix is missing).
    """
    site = Path(site)
    core = site / "static" / "pyodide"
    asm = core / "pyodide.asm.mjs"
    original = asm.read_text(encoding="utf-8")
    fixed, restores = _fix_restore(original)
    workers = []
    for bundle in sorted((site / KERNEL_STATIC).glob("*.worker.*.js")):
        source, count = _fix_worker(bundle.read_text(encoding="utf-8"))
        workers.append((bundle, source, count))
    if restores != 1 or [count for _, _, count in workers] != [1, 1]:
        raise SiteError(
            f"Pyodide's snapshot restore ({restores}) or the kernel workers' start "
            f"({[count for _, _, count in workers]}) was not found once each in {site}: "
            "the Pyodide or kernel is not the one the build pins"
        )
    rewrite(asm, fixed)
    config_file = site / "jupyter-lite.json"
    config = json.loads(config_file.read_text(encoding="utf-8"))
    settings = config["jupyter-config-data"]["litePluginSettings"][KERNEL_PLUGIN]
    options = {"load": settings["loadPyodideOptions"], "imports": SNAPSHOT_IMPORTS, "check": CHECK}
    language = options["load"].get("env", {}).get("KIT_LANG")
    with tempfile.TemporaryDirectory(prefix=".snapshot-", dir=site) as scratch:
        (Path(scratch) / "options.json").write_text(json.dumps(options), encoding="utf-8")
        try:
            script = (
                MAKER.replace("DESERIALIZER", DESERIALIZER).replace("PUT_FILES", PUT_FILES)
                .replace("IN_MEMORY", json.dumps(IN_MEMORY))
            )  # fmt: skip
            answer = pyodide.run_in_deno(script, core, Path(scratch))
        except pyodide.PyodideError as problem:
            answer = str(problem)
        if answer != f"{language} True True True 42":
            say(f"Note: the kernel starts without a snapshot (each page starts Python itself): {answer[-300:]}")
            rewrite(asm, original)  # the site as it was: nothing half-changed
            return False
        (Path(scratch) / "memory").replace(core / SNAPSHOT_FILE)
        (Path(scratch) / "files").replace(core / FILES_FILE)
    for bundle, source, _ in workers:
        rewrite(bundle, source)
    snapshot = {  # each version named, for the copies pages keep (KEPT)
        key: f"{name}?sha256={hashlib.sha256((core / name).read_bytes()).hexdigest()}"
        for key, name in (("memory", SNAPSHOT_FILE), ("files", FILES_FILE))
    }
    settings["loadPyodideOptions"] = {**settings["loadPyodideOptions"], OPTION: snapshot}
    config_file.write_text(json.dumps(config, indent=1), encoding="utf-8")
    return True
