"""A lesson's page does less before the student's first cell runs: six fixes to JupyterLab's site.

On a 2-core machine the page's main thread is the slowest part of a lesson's start: it is
busy from the page's first script to the first board drawn, and every step of the kernel's
start and of the student's first run waits for its turn.  Parts of JupyterLab's start do work
no lesson needs or wait for work they do not need, and JupyterLite's service worker keeps the
browser from keeping compiled scripts:

* :func:`_fix_typeset`: the MathJax typesetter loaded MathJax (1 MB of script, then its fonts
  and TeX parser) for the first Markdown cell of every notebook, math or not, just as the
  student's first cell ran; no lesson has math.  It is now loaded for the first text that
  may hold some (``$``, ``\\(``, ``\\[``, ``\\begin{``) and typesets every text after, as before.
* :func:`_fix_settings_cache`: the settings registry compiles two JSON-schema validators
  (Ajv) for each of about 90 plugins as the page opens, to check the student's settings and
  fill in their defaults: 0.25-0.4 s of the main thread on every page.  The result depends
  only on the plugin's schema and the student's settings text, so a page keeps each plugin's
  checked result in the browser's ``localStorage`` with both, exactly, and the next page uses
  it when both are the same, compiling nothing; anything else (a new site, changed
  settings, an error) is checked by Ajv as before, and only a result without errors is kept.
  A browser that keeps no storage checks every time.
* :func:`_fix_checkpoint_first`: a notebook's document made a checkpoint of the file (in the
  browser's storage) before it started its kernel session; the session now starts first and
  the checkpoint is made beside it (0.15-0.35 s sooner on a busy page).  A checkpoint that
  fails still fails the document's start, as before, but no longer keeps its kernel away.
* :func:`_fix_workspace_wait`: a page opens its notebook (``?path=``) by a route that JupyterLab
  runs after its ``loadState`` route, which ended by waiting for the workspace to be saved: a
  save held back 0.5 s after the last change of the page's state, and the page's start changes
  it again and again (0.5-1 s of an idle main thread on a fresh page, before the notebook could
  even be fetched).  The save still happens as before; the route no longer waits for it, so the
  notebook opens as soon as the page has started (a cold page's board 1.3 s sooner: medians of
  four rounds of the site with and without it in turns).
* :func:`_fix_service_worker`: JupyterLite's service worker answered every request of a page it
  controls (every page after the first), with ``fetch(request)``: the same file, but a
  script a service worker hands over from the network gets no code cache, so Chromium compiled
  JupyterLab's scripts again on every page.  It now answers only what it is there for
  (the kernel's ``/api/drive`` and ``/api/stdin``); the rest goes to the browser's own cache
  as on a page without it.  In a browser profile on disk, the third page on is 0.3-0.4 s sooner.
* :func:`_lighter_config`: JupyterLab's splash screen came up over the notebook just drawn
  (shown while the theme loads) and faded out once the page had started: 0.4-0.5 s of an
  overlay that takes no click, and its animation's frames; it is turned off
  (:data:`SPLASH`), as JupyterLab lets any plugin be, and the page shows JupyterLite's own
  "Loading" until JupyterLab's shell is drawn.  The lab extensions no lesson uses
  (:data:`LEFT_OUT`) are no longer loaded by every page.  Both together, in turns with the site
  without them (ten rounds each): cold medians 3.39 s against 3.52 s, warm 2.68 s against 2.76 s.
  Chromium's own request for ``/favicon.ico``, answered "not found" on every page (an error
  in the page's console), finds JupyterLab's icon at the site's root (:data:`ICON`).

Measured on this 2-core machine, lesson 00 opened to its ``play()`` board drawn, the same
site with and without the settings cache in turns (two rounds): warm pages 3.7-4.2 s against 4.1-4.5 s.

The build pins JupyterLab, so the patterns are known; a bundle without them is refused.

>>> _fix_typeset("async typeset(n){try{await this._ensureInitialized()}}")[1]
1
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

from course.site import SiteError
from course.site.patches import LAB_BUILD, rewrite

#: JupyterLab's MathJax typesetter, run on every rendered Markdown cell:
#: ``async typeset(NODE){try{await this._ensureInitialized()}``.
TYPESET = re.compile(r"async typeset\(([\w$]+)\)\{(try\{await this\._ensureInitialized\(\)\})")
#: Before MathJax is loaded, a text with no math is left as it is.
NO_MATH = r'if(!this._initialized&&!/[$]|\\[([]|\\begin\{/.test(NODE.textContent||""))return;'
#: The settings' validator: ``validateData(PLUGIN,KEEP=!0){let o,r=this._validator.getSchema(PLUGIN.id)``.
VALIDATE = re.compile(
    r"validateData\(([\w$]+),([\w$]+)=!0\)\{(let [\w$]+,[\w$]+=this\._validator\.getSchema\(\1\.id\))"
)
#: Its result kept by plugin, with the schema and the settings text it was checked for.
#: An entry that cannot be read (a browser's storage damaged, or edited) is checked by Ajv again.
KEPT = (
    'validateData(@P,@K=!0){let $k="kit-settings:"+@P.id,$s=JSON.stringify(@P.schema),$d=null;'
    'try{let $h=JSON.parse(localStorage.getItem($k)||"null");'
    "Array.isArray($h)&&$h[0]===$s&&$h[1]===@P.raw&&($d={composite:JSON.parse($h[2]),user:JSON.parse($h[3])})}catch($x){}"
    "if($d){@K&&(@P.data=$d);return null}"
    "let $e=this.$kitValidateData(@P,@K);"
    "if(null===$e&&@K&&@P.data)try{localStorage.setItem($k,JSON.stringify("
    "[$s,@P.raw,JSON.stringify(@P.data.composite),JSON.stringify(@P.data.user)]))}catch($x){}"
    "return $e}"
)
#: The document's start: ``async _populate(){if(FLAGS,await CHECKPOINT,this.isDisposed)return;START}``
#: where ``START`` sets the session's kernel preference and starts it.
POPULATE = re.compile(
    r"async _populate\(\)\{if\((this\._isPopulated=!0,this\._isReady=!0,this\._populatedPromise\.resolve\(void 0\)),"
    r"await (this\._maybeCheckpoint\(!1\)),this\.isDisposed\)return;"
    r"(let [^{}]*?\{[^{}]*\},this\.sessionContext\.initialize\(\)\.then\([^{}]*?\{[^{}]*\}\))\}"
)
#: The end of JupyterLab's ``loadState`` route, waiting for the workspace's debounced save, just
#: before the ``reset`` command: ``await SAVE.invoke()}}),COMMANDS.addCommand(IDS.reset,``.
STATE_WAIT = re.compile(r"await ([\w$]+)\.invoke\(\)\}\}\),([\w$]+)\.addCommand\(([\w$]+)\.reset,")
#: The save started, not waited for; a save that fails says so, as the route did.
SAVE_STARTED = 'void @S.invoke().catch(e=>console.warn("The workspace was not saved",e))}}),@C.addCommand(@I.reset,'
#: Marks of a bundle patched already.
DONE = ("!this._initialized&&!/[$]", "$kitValidateData(", "$kitCheckpoint", "The workspace was not saved")
#: JupyterLite's service worker, at the site's top.
SERVICE_WORKER = Path("service-worker.js")
#: Its answer to a request: ``shouldBroadcast(URL)?ANSWER=broadcastOne(REQUEST,URL):
#: shouldDrop(REQUEST,URL)||(ANSWER=maybeFromCache(EVENT))``; with the cache off (as JupyterLite
#: registers it), ``maybeFromCache`` is ``fetch(request)``.
PASS_THROUGH = re.compile(
    r"(shouldBroadcast\(([\w$]+)\))\?([\w$]+)=(broadcastOne\([\w$]+,\2\)):"
    r"shouldDrop\([\w$]+,\2\)\|\|\(\3=maybeFromCache\([\w$]+\)\)"
)


def _fix_typeset(source: str) -> tuple[str, int]:
    """``source`` with MathJax loaded only for a text that may hold math; and how many places."""
    return TYPESET.subn(
        lambda m: f"async typeset({m[1]}){{{NO_MATH.replace('NODE', m[1])}{m[2]}", source
    )


def _fix_settings_cache(source: str) -> tuple[str, int]:
    """``source`` with each plugin's checked settings kept for the next page; and how many places."""
    return VALIDATE.subn(
        lambda m: (
            KEPT.replace("@P", m[1]).replace("@K", m[2])
            + f"$kitValidateData({m[1]},{m[2]}=!0){{{m[3]}"
        ),
        source,
    )


def _fix_checkpoint_first(source: str) -> tuple[str, int]:
    """``source`` with a document's kernel session started before its checkpoint is made; and
    how many places changed."""
    return POPULATE.subn(
        lambda m: (
            f"async _populate(){{{m[1]};let $kitCheckpoint={m[2]};"
            f"if(this.isDisposed)return $kitCheckpoint;{m[3]};await $kitCheckpoint}}"
        ),
        source,
    )


def _fix_workspace_wait(source: str) -> tuple[str, int]:
    """``source`` with the notebook's route no longer waiting for the workspace's save; and how
    many places changed.

    >>> _fix_workspace_wait("await A.invoke()}}),d.addCommand(v.reset,")[0]
    'void A.invoke().catch(e=>console.warn("The workspace was not saved",e))}}),d.addCommand(v.reset,'
    """
    return STATE_WAIT.subn(
        lambda m: SAVE_STARTED.replace("@S", m[1]).replace("@C", m[2]).replace("@I", m[3]), source
    )


def _fix_service_worker(source: str) -> tuple[str, int]:
    """``source`` with the service worker answering the kernel's requests only; and how many places.

    >>> _fix_service_worker("shouldBroadcast(a)?n=broadcastOne(t,a):shouldDrop(t,a)||(n=maybeFromCache(e))")
    ('shouldBroadcast(a)&&(n=broadcastOne(t,a))', 1)
    """
    return PASS_THROUGH.subn(lambda m: f"{m[1]}&&({m[3]}={m[4]})", source)


#: The site's configuration, read by each of its pages.
CONFIG = Path("jupyter-lite.json")
#: JupyterLab's splash screen, turned off (``disabledExtensions``: nothing a lesson uses needs it).
SPLASH = "@jupyterlab/apputils-extension:splash"
#: Lab extensions the build's environment brings and no lesson uses: jupyterlab_pygments colours
#: Pygments' HTML, which no lesson shows (the kernel's tracebacks are coloured by ANSI codes).
LEFT_OUT = ("jupyterlab_pygments",)
#: JupyterLab's icon, and where a browser looks for a site's icon before a page names one.
ICON = (Path("lab") / "favicon.ico", Path("favicon.ico"))


def _lighter_config(config: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """``config`` with the splash screen off and :data:`LEFT_OUT` not loaded; and how many changes.

    >>> _lighter_config({"jupyter-config-data": {"federated_extensions": [{"name": "jupyterlab_pygments"}]}})
    ({'jupyter-config-data': {'federated_extensions': [], 'disabledExtensions': ['@jupyterlab/apputils-extension:splash']}}, 2)
    """
    data = config["jupyter-config-data"]
    extensions = data.get("federated_extensions", [])
    kept = [extension for extension in extensions if extension["name"] not in LEFT_OUT]
    disabled = data.get("disabledExtensions", [])
    lighter = {**data, "federated_extensions": kept, "disabledExtensions": [*disabled, SPLASH]}
    return {**config, "jupyter-config-data": lighter}, 1 + len(extensions) - len(kept)


def patch_page_start(site: Path) -> int:
    """Make the built ``site``'s page start lighter; returns how many places changed.

    Raises :class:`SiteError`, and changes nothing, unless JupyterLab's bundle holds the
    typesetter, the settings' validator, the document's start and the wait for the workspace's
    save once each, the service worker its answer once, and the site's configuration has its
    ``jupyter-config-data`` without the splash screen turned off already.
    """
    config_file = Path(site) / CONFIG
    try:
        config = json.loads(config_file.read_text(encoding="utf-8"))
        patched = SPLASH in config["jupyter-config-data"].get("disabledExtensions", [])
        config, changes = _lighter_config(config)
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise SiteError(f"{config_file} is not a JupyterLite site's configuration: {error}") from error
    if patched:
        raise SiteError(f"{config_file} is already patched: build the site again from scratch")
    found = {
        "the MathJax typesetter": 0,
        "the settings' validator": 0,
        "the document's start": 0,
        "the wait for the workspace's save": 0,
    }
    fixes: dict[Path, str] = {}
    for bundle in sorted((Path(site) / LAB_BUILD).glob("*.js")):
        source = bundle.read_text(encoding="utf-8")
        if not any(mark in source for mark in ("_ensureInitialized", "_validator.getSchema", ".reset,")):
            continue
        if any(mark in source for mark in DONE):
            raise SiteError(f"{bundle} is already patched: build the site again from scratch")
        fixed, typesets = _fix_typeset(source)
        fixed, validators = _fix_settings_cache(fixed)
        fixed, starts = _fix_checkpoint_first(fixed)
        fixed, waits = _fix_workspace_wait(fixed)
        found["the MathJax typesetter"] += typesets
        found["the settings' validator"] += validators
        found["the document's start"] += starts
        found["the wait for the workspace's save"] += waits
        if typesets or validators or starts or waits:
            fixes[bundle] = fixed
    for what, count in found.items():
        if count != 1:
            raise SiteError(
                f"JupyterLab's bundle holds {what} in {count} places of {Path(site) / LAB_BUILD}, "
                "not 1: the JupyterLab version is not the one the build pins"
            )
    worker = Path(site) / SERVICE_WORKER
    served, answers = _fix_service_worker(worker.read_text(encoding="utf-8") if worker.is_file() else "")
    if answers != 1:
        raise SiteError(
            f"{worker} answers requests in {answers} places, not 1: the JupyterLite version "
            "is not the one the build pins"
        )
    for bundle, fixed in fixes.items():  # written only once every place was found
        rewrite(bundle, fixed)
    rewrite(worker, served)
    rewrite(config_file, json.dumps(config, indent=1))
    for name in LEFT_OUT:
        shutil.rmtree(Path(site) / "extensions" / name, ignore_errors=True)
    icon, root_icon = (Path(site) / path for path in ICON)
    if icon.is_file():
        shutil.copy2(icon, root_icon)
        changes += 1
    return sum(found.values()) + answers + changes
