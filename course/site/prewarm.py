"""The kernel starts with the page: Python is loading while JupyterLab is still drawing itself.

Without this, JupyterLite starts a notebook's kernel only once the notebook is open
(about 2.5 s after a cold page opens on a 2-core machine), and the kernel then spends
about 4 s loading Pyodide, its packages and IPython: a student waits for both, one after
the other.  Here the page starts the kernel's Web Worker as it opens and tells it to
load Pyodide and import the kernel and the widget libraries at once (a *spare* worker);
when JupyterLab asks for the notebook's kernel it takes that worker, already warm, if it
was started with the same Pyodide and packages, and starts a new one otherwise.  Any
later kernel (a restart, a second notebook) starts the usual way.

Three places change, all in the built site (the build pins the versions, so the patterns
are known; a site where one is missing is refused, as in :mod:`course.site.patches`):

* ``lab/index.html`` and ``notebooks/index.html`` get :data:`PAGE_SCRIPT`, which starts the
  spare worker (the worker's file, the Pyodide address and the packages are written in by
  the build, from the site's own ``jupyter-lite.json``);
* the kernel's workers (``coincident`` for an isolated page, ``comlink`` on a plain-http
  LAN address) load Pyodide when the page's message comes, and their ``initialize`` uses
  that start instead of a second one;
* the page's ``initWorker`` takes the spare when it matches.

The kernel also starts without jedi (:data:`course.site.build.PRELOADED` leaves it out and
the workers no longer install it): its wheel is 2.7 MB of 1,964 files to unpack and import,
half a second of every start, and IPython completes names and attributes without it (once
the kernel, which turns jedi on, is told to use IPython's own completer).

>>> _fix_spare_worker('initWorker(e){let t=e=>new Worker(e,{type:"module"});return t(1)}')[1]
1
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from course.site import SiteError
from course.site.patches import KERNEL_STATIC, kernel_settings, rewrite

#: The pages a notebook opens in (JupyterLab's and Jupyter Notebook's).
PAGES = ("lab/index.html", "notebooks/index.html")
#: What the spare worker imports once Pyodide is there: the kernel and the widget library.
#: Not ipycanvas: importing it opens a widget, which needs the kernel connected to the page.
IMPORTS = "import pyodide_kernel, ipywidgets, reversi"

#: The worker's start: ``await this.initRuntime(OPTIONS),`` inside ``initialize``.
RUNTIME = re.compile(r"await this\.initRuntime\(([\w$]+)\),")
#: The worker's kernel: ``export{CLASS as PyodideCoincidentKernel`` (or ``Comlink``).
EXPORTED = re.compile(r"export\{([\w$]+) as Pyodide(?:Coincident|Comlink)Kernel\b")
#: The packages the worker installs at its start if they were not preloaded: jedi is left out.
KERNEL_INSTALLS = '"pyodide-kernel","jedi","ipython"'
#: The worker imports the kernel: ``LINES.push("import pyodide_kernel")``; the kernel turns
#: jedi on, which without jedi completes nothing: IPython's own completer is turned back on.
KERNEL_IMPORT = re.compile(r'([\w$]+)\.push\("import pyodide_kernel"\)')
NO_JEDI = "pyodide_kernel.kernel_instance.interpreter.Completer.use_jedi = False"
#: The page makes the worker: ``initWorker(OPTIONS){let MAKE=URL=>new Worker(URL,{type:"module"});``
INIT_WORKER = re.compile(
    r'initWorker\(([\w$]+)\)\{let ([\w$]+)=([\w$]+)=>new Worker\(\3,\{type:"module"\}\);'
)
#: The page's script goes after the configuration it reads its root from.
CONFIG_SCRIPT = re.compile(r'(<script id="jupyter-config-data"[^>]*>.*?</script>)', re.S)

#: In the worker: load Pyodide (and :data:`IMPORTS`) when the page's message comes, once.
LISTENER = (
    'self.addEventListener("message",m=>{let o=m.data&&m.data.$kitPrewarm,c=()=>performance.timeOrigin+performance.now();'
    "if(o&&!K.$kitRuntime){let t=[c()];K.$kitRuntime=K.initRuntime(o).then(()=>(t.push(c()),K._pyodide.runPythonAsync(IMPORTS)"
    ".then(()=>{t.push(c());console.info(TIMES+JSON.stringify(t))})"
    '.catch(e=>console.warn("The kernel will import its libraries later:",e))))}});'
)
#: What the worker says once the page's kernel is warm: when (ms since 1970) it began, had
#: Pyodide with its packages, and had imported :data:`IMPORTS` (``benchmarks/site.py`` reads it).
TIMES = "The kernel's Python started, loaded, imported: "
#: In the page's ``initWorker``: take the spare if it was started for this kernel, else end it.
SPARE = (
    "{let k=self.$kitSpare;if(k){self.$kitSpare=null;"
    "if(k.isolated===!!crossOriginIsolated&&k.url===E.pyodideUrl&&"
    "k.options===JSON.stringify(E.loadPyodideOptions||{})){"
    'console.info("The kernel was started with the page");return k.worker}k.worker.terminate()}}'
)
#: Starts the spare worker as the page opens (placeholders filled by :func:`page_script`).
PAGE_SCRIPT = """<script id="kit-prewarm">
(function () {
  // Reversi kit: start the Python kernel with the page (course/site/prewarm.py).
  try {
    var config = document.getElementById("jupyter-config-data");
    var root = new URL((config && config.getAttribute("data-jupyter-lite-root") || ".") + "/", location.href);
    var isolated = !!self.crossOriginIsolated;
    var url = new URL(PYODIDE_URL, root).href;
    var options = LOAD_OPTIONS;
    var worker = new Worker(new URL(isolated ? ISOLATED_WORKER : PLAIN_WORKER, root), {type: "module"});
    worker.postMessage({$kitPrewarm: {pyodideUrl: url, indexUrl: url.slice(0, url.lastIndexOf("/") + 1),
                                      loadPyodideOptions: options}});
    self.$kitSpare = {worker: worker, isolated: isolated, url: url, options: JSON.stringify(options)};
  } catch (failed) {
    console.warn("The kernel will start with the notebook:", failed);
  }
})();
</script>"""


def _fix_worker(source: str) -> tuple[str, int]:
    """A kernel worker that loads Pyodide on the page's message and starts from that; and how many places."""
    exported = EXPORTED.search(source)
    if not exported:
        return source, 0
    made = re.search(rf"([\w$]+)=new {re.escape(exported[1])}[,;]", source)
    if not made:
        return source, 0
    source, started = RUNTIME.subn(
        lambda m: (
            f"await (this.$kitRuntime?this.$kitRuntime.catch(()=>this.initRuntime({m[1]})):this.initRuntime({m[1]})),"
        ),
        source,
    )
    source, without_jedi = (
        source.replace(KERNEL_INSTALLS, '"pyodide-kernel","ipython"'),
        source.count(KERNEL_INSTALLS),
    )
    source, completes = KERNEL_IMPORT.subn(
        lambda m: f'{m[1]}.push("import pyodide_kernel","{NO_JEDI}")', source
    )
    listener = (
        LISTENER.replace("K.", f"{made[1]}.")
        .replace("IMPORTS", json.dumps(IMPORTS))
        .replace("TIMES", json.dumps(TIMES))
    )
    at = source.rindex("export{")
    return source[:at] + listener + source[at:], started + without_jedi + completes + 1


def _fix_spare_worker(source: str) -> tuple[str, int]:
    """The page's ``initWorker`` taking the spare worker; and how many places changed."""
    return INIT_WORKER.subn(lambda m: m[0] + SPARE.replace("E.", f"{m[1]}."), source)


def _worker_file(static: Path, kind: str) -> str:
    found = sorted(static.glob(f"{kind}.worker.*.js"))
    if len(found) != 1:
        raise SiteError(
            f"{static} has {len(found)} {kind} kernel workers, not one: the kernel is not the one the build pins"
        )
    return f"{KERNEL_STATIC}/{found[0].name}"


def page_script(site: Path) -> str:
    """:data:`PAGE_SCRIPT` for ``site``: its workers, its Pyodide address and its packages."""
    static = site / KERNEL_STATIC
    settings = kernel_settings(site)
    fills = {
        "ISOLATED_WORKER": json.dumps(_worker_file(static, "coincident")),
        "PLAIN_WORKER": json.dumps(_worker_file(static, "comlink")),
        "PYODIDE_URL": json.dumps(settings.get("pyodideUrl", "./static/pyodide/pyodide.mjs")),
        "LOAD_OPTIONS": json.dumps(settings.get("loadPyodideOptions", {})),
    }
    script = PAGE_SCRIPT
    for name, value in fills.items():  # "<" escaped: a value cannot end the script element
        script = script.replace(name, value.replace("<", "\\u003c"))
    return script


def patch_prewarm(site: Path) -> int:
    """Start the kernel with the page in the built ``site``; returns how many places changed.

    Raises :class:`SiteError` when a bundle or page lacks the place it needs.
    """
    site = Path(site)
    static = site / KERNEL_STATIC
    workers = pages = spares = 0
    for bundle in sorted(static.glob("*.js")):
        source = bundle.read_text(encoding="utf-8")
        if "$kitPrewarm" in source or "$kitSpare" in source:
            raise SiteError(f"{bundle} is already patched: build the site again from scratch")
        fixed, count = (
            _fix_worker(source) if ".worker." in bundle.name else _fix_spare_worker(source)
        )
        if ".worker." in bundle.name:
            workers += count
        else:
            spares += count
        if count:
            rewrite(bundle, fixed)
    if workers != 8 or spares != 1:
        raise SiteError(
            f"the kernel's start was found in {workers} places of its workers and {spares} of the page "
            f"(8 and 1 expected) in {static}: the kernel is not the one the build pins"
        )
    script = page_script(site)
    for name in PAGES:
        page = site / name
        html = page.read_text(encoding="utf-8")
        fixed, count = CONFIG_SCRIPT.subn(lambda m: m[1] + "\n" + script, html, count=1)
        if count != 1:
            raise SiteError(f"{page} has no jupyter-config-data script: not a JupyterLite page")
        rewrite(page, fixed)
        pages += 1
    return workers + spares + pages
