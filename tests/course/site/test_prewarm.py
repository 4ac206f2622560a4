"""The kernel started with the page: the worker's, the page's and the HTML's changes, run in Node.

The browser proof (the notebook's kernel is the page's worker, Tab completes, a restart
works, the plain-http LAN page too) is in tests/browser/test_lite.py.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from course.site import SiteError
from course.site.prewarm import (
    IMPORTS,
    KERNEL_STATIC,
    NO_JEDI,
    PAGES,
    _fix_spare_worker,
    _fix_worker,
    page_script,
    patch_prewarm,
)

#: jupyterlite-pyodide-kernel 0.8.6's worker, cut short: its initialize, initKernel and end.
WORKER = (
    "class ke{async initialize(e){if(this._options=e,1)await this.initRuntime(e),await this.initKernel(e),"
    "null==(t=this._initializer)||t.resolve()}"
    'async initKernel(e){let t=[],i=[];for(let e of["ipykernel","comm","pyodide-kernel","jedi","ipython"])'
    't.includes(e)||i.push(e);i.push("import pyodide_kernel");return i}}'
    "var q=new ke,_t=B.processWorkerMessage.bind(B);export{ke as PyodideCoincidentKernel,be as X};"
)
#: The page's kernel making its worker (0.8.6, cut short).
PAGE = 'class w{initWorker(e){let t=e=>new Worker(e,{type:"module"});return crossOriginIsolated?t("iso"):t("plain")}}'
SETTINGS = {
    "pyodideUrl": "./static/pyodide/pyodide.mjs",
    "loadPyodideOptions": {"packages": ["micropip", "ipython", "reversi-kit"]},
}


def node(script: str) -> object:
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script], capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_worker_loads_pyodide_on_the_pages_word_and_starts_from_it() -> None:
    fixed, count = _fix_worker(WORKER)
    assert count == 4
    assert '"pyodide-kernel","ipython"' in fixed and '"jedi"' not in fixed
    assert f'i.push("import pyodide_kernel","{NO_JEDI}")' in fixed
    assert 'self.addEventListener("message"' in fixed and "q.$kitRuntime" in fixed
    assert _fix_worker("no kernel here") == ("no kernel here", 0)


#: Runs the fixed worker with a stand-in Pyodide: how often the runtime started, and in what order.
WORKER_RUN = """
const listeners = [], seen = [];
globalThis.self = {addEventListener: (kind, f) => listeners.push(f)};
globalThis.B = {processWorkerMessage: () => 0};
SOURCE
const K = q;
K.initRuntime = async (o) => { seen.push("runtime " + o.pyodideUrl); if (FAIL && seen.length === 1) throw new Error("no");
  K._pyodide = {runPythonAsync: async (code) => { seen.push("python " + code.split("\\n")[0]); }}; };
if (PREWARM) listeners.forEach(f => f({data: {$kitPrewarm: {pyodideUrl: "P"}}}));
listeners.forEach(f => f({data: {somethingElse: 1}}));
await K.initialize({pyodideUrl: "Q"});
const lines = await K.initKernel({});
console.log(JSON.stringify({seen, lines}));
"""


def run_worker(prewarm: bool, fail: bool = False) -> dict[str, list[str]]:
    fixed = _fix_worker(WORKER)[0]
    source = fixed.replace("export{ke as PyodideCoincidentKernel,be as X};", "")
    script = WORKER_RUN.replace("SOURCE", "let t;" + source).replace("PREWARM", json.dumps(prewarm))
    found = node(script.replace("FAIL", json.dumps(fail)))
    assert isinstance(found, dict)
    return found


def test_in_node_initialize_uses_the_started_runtime_once_and_imports_first() -> None:
    warm = run_worker(prewarm=True)
    assert warm["seen"] == ["runtime P", f"python {IMPORTS.splitlines()[0]}"]
    assert warm["lines"][-2:] == ["import pyodide_kernel", NO_JEDI]
    cold = run_worker(prewarm=False)
    assert cold["seen"] == ["runtime Q"]


def test_in_node_a_failed_start_with_the_page_is_started_again_by_the_kernel() -> None:
    # the stand-in fails the page's start only: the kernel starts the runtime itself
    again = run_worker(prewarm=True, fail=True)
    assert again["seen"] == ["runtime P", "runtime Q"]
    assert again["lines"][-1] == NO_JEDI


#: The page's initWorker with a spare: taken when it matches, ended and replaced when not.
PAGE_RUN = """
globalThis.crossOriginIsolated = true;
globalThis.self = globalThis;
class Worker { constructor(url) { this.url = url; this.ended = false; } terminate() { this.ended = true; } }
globalThis.Worker = Worker;
SOURCE
const spare = new Worker("spare");
const options = {pyodideUrl: "http://h/static/pyodide/pyodide.mjs", loadPyodideOptions: {packages: ["a"]}};
self.$kitSpare = {worker: spare, isolated: true, url: options.pyodideUrl, options: JSON.stringify(options.loadPyodideOptions)};
const first = new w().initWorker(options), second = new w().initWorker(options);
const other = new Worker("other");
self.$kitSpare = {worker: other, isolated: true, url: "elsewhere", options: "{}"};
const third = new w().initWorker(options);
console.log(JSON.stringify([first.url, second.url, third.url, other.ended, self.$kitSpare]));
"""


def test_in_node_the_page_takes_the_matching_spare_once_and_ends_another() -> None:
    fixed, count = _fix_spare_worker(PAGE)
    assert count == 1
    assert node(PAGE_RUN.replace("SOURCE", fixed)) == ["spare", "iso", "iso", True, None]


def built_site(root: Path) -> Path:
    static = root / KERNEL_STATIC
    static.mkdir(parents=True)
    (static / "coincident.worker.abc123.js").write_text(WORKER)
    (static / "comlink.worker.def456.js").write_text(
        WORKER.replace("PyodideCoincidentKernel,be as X", "PyodideComlinkKernel")
    )
    (static / "393.page.js").write_text(PAGE)
    (static / "393.page.js.gz").write_bytes(b"stale")
    for name in PAGES:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(
            '<head><script id="jupyter-config-data" type="application/json" '
            'data-jupyter-lite-root="..">\n{}\n</script><script>start()</script></head>'
        )
    config = {
        "jupyter-config-data": {
            "litePluginSettings": {"@jupyterlite/pyodide-kernel-extension:kernel": SETTINGS}
        }
    }
    (root / "jupyter-lite.json").write_text(json.dumps(config))
    return root


def test_the_site_is_patched_in_every_place_once_and_stale_copies_go(tmp_path: Path) -> None:
    site = built_site(tmp_path)
    assert patch_prewarm(site) == 8 + 1 + 2
    assert not (site / KERNEL_STATIC / "393.page.js.gz").exists()
    for name in PAGES:
        html = (site / name).read_text()
        assert html.index("jupyter-config-data") < html.index("kit-prewarm") < html.index("start()")
    with pytest.raises(SiteError, match="already patched"):
        patch_prewarm(site)


def test_a_site_of_another_kernel_version_is_refused(tmp_path: Path) -> None:
    site = built_site(tmp_path)
    (site / KERNEL_STATIC / "393.page.js").write_text("class w{}")
    with pytest.raises(SiteError, match="not the one the build pins"):
        patch_prewarm(site)


#: The page script with stand-ins for the browser: what it posts and what it leaves for the page.
SCRIPT_RUN = """
const posted = [];
globalThis.self = globalThis;
globalThis.crossOriginIsolated = ISOLATED;
globalThis.location = {href: "http://classroom.test:8765/lab/index.html?path=lessons/00.ipynb"};
globalThis.document = {getElementById: () => ({getAttribute: () => ".."})};
globalThis.Worker = class { constructor(url, options) { this.url = String(url); this.type = options.type; }
                            postMessage(m) { posted.push(m); } };
SOURCE
console.log(JSON.stringify({url: self.$kitSpare.worker.url, type: self.$kitSpare.worker.type,
                            spare: {...self.$kitSpare, worker: undefined}, posted}));
"""


@pytest.mark.parametrize("isolated", [True, False])
def test_in_node_the_page_script_starts_the_sites_worker_with_its_pyodide(
    tmp_path: Path, isolated: bool
) -> None:
    source = re.sub(r"</?script[^>]*>", "", page_script(built_site(tmp_path)))
    found = node(SCRIPT_RUN.replace("SOURCE", source).replace("ISOLATED", json.dumps(isolated)))
    assert isinstance(found, dict)
    kind = "coincident.worker.abc123.js" if isolated else "comlink.worker.def456.js"
    assert (
        found["url"] == f"http://classroom.test:8765/{KERNEL_STATIC}/{kind}"
        and found["type"] == "module"
    )
    url = "http://classroom.test:8765/static/pyodide/pyodide.mjs"
    assert found["spare"] == {
        "isolated": isolated,
        "url": url,
        "options": json.dumps(SETTINGS["loadPyodideOptions"], separators=(",", ":")),
    }
    assert found["posted"] == [
        {
            "$kitPrewarm": {
                "pyodideUrl": url,
                "indexUrl": "http://classroom.test:8765/static/pyodide/",
                "loadPyodideOptions": SETTINGS["loadPyodideOptions"],
            }
        }
    ]


def test_a_setting_cannot_end_the_page_script(tmp_path: Path) -> None:
    site = built_site(tmp_path)
    config = json.loads((site / "jupyter-lite.json").read_text())
    settings = config["jupyter-config-data"]["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    settings["loadPyodideOptions"] = {"packages": ["</script><script>alert(1)</script>"]}
    (site / "jupyter-lite.json").write_text(json.dumps(config))
    script = page_script(site)
    assert script.count("</script>") == 1 and "\\u003c/script>" in script
