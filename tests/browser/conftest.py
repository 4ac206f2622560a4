"""Real-browser test harness: a private JupyterLab, headless Chromium and notebook helpers.

Fixtures (see README.md in this folder):

* ``jupyter_server`` (session) -> :class:`JupyterServer`: a JupyterLab on 127.0.0.1 whose root is a
  temp copy of the repository's ``notebooks/`` and ``exercises/``.
* ``browser`` (session) -> Playwright ``Browser`` (Debian's /usr/bin/chromium, headless).
* ``page`` (function) -> Playwright ``Page`` in a fresh context; screenshot on failure.
* ``notebook_page`` (function) -> factory ``notebook_page(path) -> NotebookPage``.

Every test using these must be marked ``@pytest.mark.browser``.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

from course.worksheets import NO_POPUP
from tests.ports import free_port

REPO_ROOT = Path(__file__).resolve().parents[2]
ARTIFACT_DIR = REPO_ROOT / "test-artifacts" / "browser"
CHROMIUM = os.environ.get("BROWSER_TEST_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    # Each new headless window loads its address bar's popup, a WebUI page in a process of its
    # own: 0.5-2.2 s of processor time beside the page that just opened (Chromium 156), which
    # a lesson opened in a tab of a student's open window does not pay.
    NO_POPUP,
]
VIEWPORT = {"width": 1400, "height": 1000}
# Folders of the repository copied into the server's root (relative paths are kept, so a
# notebook in notebooks/ can still reach ../exercises/).
COPIED_FOLDERS = ("notebooks", "exercises")
# Prebuilt lab extensions the widgets need; checked once the server is up.
REQUIRED_LAB_EXTENSIONS = ("@jupyter-widgets/jupyterlab-manager", "ipycanvas")

SERVER_START_TIMEOUT = 60.0  # s
OPEN_TIMEOUT = 90_000  # ms: page load to kernel idle (3.4-5.6 s measured; CI may be slower)
RUN_TIMEOUT = 120_000  # ms: run-all until every cell finished
WAIT_TIMEOUT = 15_000  # ms: default for wait_text / wait_pixel / canvas appearance

STDERR_MIME = "application/vnd.jupyter.stderr"
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")

# JupyterLab user settings written into the server's private settings dir: no news / update
# pop-ups or toasts, no kernel-selection dialog, no autosave (tests never write back to the
# notebooks), no extension manager (it would query PyPI).
LAB_SETTINGS: dict[str, dict[str, Any]] = {
    "@jupyterlab/apputils-extension/notification": {
        "fetchNews": "false",
        "checkForUpdates": False,
        "doNotDisturbMode": True,
    },
    "@jupyterlab/notebook-extension/tracker": {"autoStartDefaultKernel": True},
    "@jupyterlab/docmanager-extension/plugin": {"autosave": False},
    "@jupyterlab/extensionmanager-extension/plugin": {"enabled": False},
}


# --------------------------------------------------------------------------------------------
# The server
# --------------------------------------------------------------------------------------------


class JupyterServer:
    """A running ``jupyter lab`` started by the ``jupyter_server`` fixture."""

    def __init__(self, base: Path):
        self.base = base
        self.root_dir = base / "root"
        self.log_path = base / "server.log"
        self.token = secrets.token_hex(24)
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self._log_file: Any = None

    # -- URLs and REST ---------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def lab_url(self, path: str, workspace: str | None = None) -> str:
        """URL that opens ``path`` (relative to root_dir) in JupyterLab, logged in by token.

        ``workspace`` names a JupyterLab workspace; a new name gives a clean layout that does
        not reopen what earlier tests had open.
        """
        path = path.lstrip("/")
        prefix = f"/lab/workspaces/{workspace}" if workspace else "/lab"
        return f"{self.base_url}{prefix}/tree/{urllib.request.quote(path)}?token={self.token}"

    def api(self, method: str, path: str, body: Any = None, timeout: float = 10) -> Any:
        """Call the server's REST API (``path`` like ``/api/sessions``); returns parsed JSON."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base_url + path, data=data, method=method)
        req.add_header("Authorization", f"token {self.token}")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            raw = resp.read()
        return json.loads(raw) if raw else None

    def lab_extensions(self) -> list[str]:
        """Names of the prebuilt lab extensions the server hands to the page."""
        req = urllib.request.Request(f"{self.base_url}/lab?token={self.token}")
        with urllib.request.urlopen(req, timeout=10) as resp:
            html = resp.read().decode()
        m = re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>',
                      html, re.S)  # fmt: skip
        config = json.loads(m[1]) if m else {}
        return [e["name"] for e in config.get("federated_extensions", [])]

    def sessions(self) -> list[dict[str, Any]]:
        return self.api("GET", "/api/sessions")

    def delete_sessions(self) -> None:
        """Shut down every session's kernel, so the next notebook opened gets a fresh kernel."""
        for s in self.sessions():
            try:
                self.api("DELETE", f"/api/sessions/{s['id']}")
            except urllib.error.HTTPError as e:  # already gone
                if e.code != 404:
                    raise
        for k in self.api("GET", "/api/kernels"):
            try:
                self.api("DELETE", f"/api/kernels/{k['id']}")
            except urllib.error.HTTPError as e:
                if e.code != 404:
                    raise

    # -- files -----------------------------------------------------------------------------
    def write_notebook(self, path: str, cells: Iterable[str | tuple[str, str]]) -> str:
        """Write a notebook into root_dir (for tests' own scratch notebooks); returns ``path``.

        ``cells`` are code sources, or ``("markdown", text)`` / ``("code", source)`` pairs.
        """
        import nbformat
        from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

        nb_cells = []
        for cell in cells:
            kind, src = ("code", cell) if isinstance(cell, str) else cell
            nb_cells.append(new_markdown_cell(src) if kind == "markdown" else new_code_cell(src))
        nb = new_notebook(
            cells=nb_cells,
            metadata={
                "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
                "language_info": {"name": "python"},
            },
        )
        target = self.root_dir / path
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, target)
        return path

    # -- lifecycle -------------------------------------------------------------------------
    def log_tail(self, lines: int = 40) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return "(no server log)"
        return "\n".join(text.splitlines()[-lines:])

    def _command(self) -> list[str]:
        return [
            sys.executable, "-m", "jupyterlab",
            "--no-browser", "--allow-root",
            "--ip=127.0.0.1", f"--port={self.port}", "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={self.token}",
            f"--ServerApp.root_dir={self.root_dir}",
            "--LabApp.news_url=None",
            "--LabApp.expose_app_in_browser=True",
            f"--LabApp.workspaces_dir={self.base / 'workspaces'}",
            f"--LabApp.user_settings_dir={self.base / 'settings'}",
            "--ServerApp.terminals_enabled=False",
        ]  # fmt: skip

    def _env(self) -> dict[str, str]:
        env = dict(os.environ)
        for var in ("JUPYTER_TOKEN", "JUPYTER_PATH", "JUPYTER_CONFIG_PATH"):
            env.pop(var, None)
        # Private config/runtime/user-data/IPython dirs. Lab extensions (ipywidgets, ipycanvas)
        # and the python3 kernel are still found: they live under sys.prefix/share/jupyter,
        # which stays on the data path after JUPYTER_DATA_DIR.
        env.update(
            JUPYTER_CONFIG_DIR=str(self.base / "config"),
            JUPYTER_RUNTIME_DIR=str(self.base / "runtime"),
            JUPYTER_DATA_DIR=str(self.base / "data"),
            IPYTHONDIR=str(self.base / "ipython"),
            PYTHONUNBUFFERED="1",
        )
        return env

    def _prepare(self) -> None:
        for d in ("config", "runtime", "data", "ipython", "workspaces"):
            (self.base / d).mkdir(parents=True, exist_ok=True)
        self.root_dir.mkdir(parents=True, exist_ok=True)
        ignore = shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__")
        for name in COPIED_FOLDERS:
            src = REPO_ROOT / name
            if src.is_dir():
                shutil.copytree(src, self.root_dir / name, ignore=ignore, dirs_exist_ok=True)
        for plugin, values in LAB_SETTINGS.items():
            f = self.base / "settings" / f"{plugin}.jupyterlab-settings"
            f.parent.mkdir(parents=True, exist_ok=True)
            f.write_text(json.dumps(values, indent=2))

    def start(self, timeout: float = SERVER_START_TIMEOUT, attempts: int = 3) -> None:
        self._prepare()
        for attempt in range(attempts):
            self.port = free_port()
            self._log_file = open(self.log_path, "ab")  # noqa: SIM115 - closed in stop()
            self._log_file.write(f"\n=== start attempt {attempt + 1}, port {self.port}\n".encode())
            self._log_file.flush()
            self.process = subprocess.Popen(
                self._command(),
                cwd=self.root_dir,
                env=self._env(),
                stdin=subprocess.DEVNULL,
                stdout=self._log_file,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # a Ctrl-C to pytest does not reach the server
            )
            if self._wait_ready(timeout):
                return
            code = self.process.poll()
            self.stop()
            port_taken = "already in use" in self.log_tail(15)
            if code is not None and port_taken and attempt + 1 < attempts:
                continue  # lost the race for the free port: try another
            what = (
                f"exited with code {code}"
                if code is not None
                else f"did not answer /api/status within {timeout:.0f} s"
            )
            pytest.fail(
                f"JupyterLab {what}; last lines of {self.log_path}:\n{self.log_tail()}",
                pytrace=False,
            )

    def _wait_ready(self, timeout: float) -> bool:
        assert self.process is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            try:
                self.api("GET", "/api/status", timeout=2)
                return True
            except (OSError, urllib.error.URLError, ValueError):
                time.sleep(0.2)
        return False

    def stop(self) -> None:
        proc = self.process
        if proc is not None and proc.poll() is None:
            # shut kernels down cleanly first, so none is left orphaned
            with contextlib.suppress(Exception):
                self.delete_sessions()
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None


def _check_imports(root: Path) -> None:
    """The kernel runs with cwd in the temp root: the kit must import from the installation."""
    proc = subprocess.run(
        [sys.executable, "-c", "import reversi, course"],
        cwd=root, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    if proc.returncode != 0:
        pytest.fail(
            "the kernel could not `import reversi, course` outside the repository; "
            f"run `pip install -e .` first:\n{proc.stderr}",
            pytrace=False,
        )


@pytest.fixture(scope="session")
def jupyter_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[JupyterServer]:
    server = JupyterServer(tmp_path_factory.mktemp("jupyter"))
    try:
        server.start()
        _check_imports(server.root_dir)
        missing = set(REQUIRED_LAB_EXTENSIONS) - set(server.lab_extensions())
        if missing:
            pytest.fail(
                f"JupyterLab does not load the lab extensions {sorted(missing)} "
                f"(loaded: {server.lab_extensions()}); check `jupyter labextension list`",
                pytrace=False,
            )
        yield server
    finally:
        server.stop()


# --------------------------------------------------------------------------------------------
# The browser
# --------------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - environment problem
        pytest.fail("Python playwright is not installed (pip install playwright)", pytrace=False)
    if not os.path.exists(CHROMIUM):
        pytest.fail(
            f"no Chromium at {CHROMIUM}: apt-get install -y chromium (never `playwright install`)",
            pytrace=False,
        )
    pw = sync_playwright().start()
    try:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()
    finally:
        pw.stop()


# Browser console lines and the NotebookPage per live page, for the report of a failing test.
_CONSOLE: dict[int, list[str]] = {}
_NOTEBOOKS: dict[int, NotebookPage] = {}


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=VIEWPORT)
    pg = context.new_page()
    lines: list[str] = []
    _CONSOLE[id(pg)] = lines
    pg.on("console", lambda m: lines.append(f"[{m.type}] {m.text}"))
    pg.on("pageerror", lambda e: lines.append(f"[pageerror] {e}"))
    try:
        yield pg
    finally:
        _CONSOLE.pop(id(pg), None)
        _NOTEBOOKS.pop(id(pg), None)
        context.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    rep = outcome.get_result()
    if rep.when not in ("setup", "call") or not rep.failed:
        return
    funcargs = getattr(item, "funcargs", {})
    pg = funcargs.get("page")
    if pg is not None and not pg.is_closed():
        ARTIFACT_DIR.mkdir(parents=True, exist_ok=True)
        shot = ARTIFACT_DIR / (re.sub(r"[^\w.\-\[\]]+", "_", item.name) + ".png")
        try:
            pg.screenshot(path=str(shot))
            msg = f"screenshot: {shot}"
        except Exception as e:  # the page may have crashed
            msg = f"screenshot failed: {e}"
        print(f"\n[browser] {msg}")
        nb = _NOTEBOOKS.get(id(pg))
        if nb is not None:
            with contextlib.suppress(Exception):
                focus = pg.evaluate(
                    "() => { const e = document.activeElement;"
                    " return e ? e.tagName + '.' + e.className : null; }"
                )
                msg += f"\nnotebook {nb.path}; focused element: {focus}"
                msg += f"\nerrors(): {nb.errors()!r}\ncallback_log(): {nb.callback_log()[-10:]!r}"
        console = _CONSOLE.get(id(pg), [])
        if console:
            msg += "\nlast browser console lines:\n" + "\n".join(console[-15:])
        rep.sections.append(("browser", msg))
    server = funcargs.get("jupyter_server")
    if isinstance(server, JupyterServer):
        rep.sections.append((f"server log tail ({server.log_path})", server.log_tail(15)))


# --------------------------------------------------------------------------------------------
# Notebook helpers
# --------------------------------------------------------------------------------------------

_JS_INSTALL = """
(path) => {
  // Installed as soon as the notebook panel exists, before its kernel starts, so that no
  // kernel message is missed. Returns false until the panel is there.
  const app = window.jupyterapp;
  if (!app || !app.shell) return false;
  const w = app.shell.currentWidget;
  if (!w || !w.context || w.context.path !== path || !w.sessionContext) return false;
  if (window.__harness) return true;
  const h = { callbackLog: [], ignored: [], runAll: null, idleCount: 0, lateHook: false,
              controlComms: new Set(), controlMsgs: new Set() };
  window.__harness = h;
  // On connecting to a kernel, the ipywidgets manager opens a 'jupyter.widget.control' comm and
  // sends 'request_states'. Until the kernel has imported ipywidgets it answers on stderr with
  // "No such comm target registered: jupyter.widget.control" and "No such comm: <id>": harmless
  // noise, normally invisible. Remember those messages to leave their output out of errors().
  const hook = (kernel) => {
    if (!kernel) return;
    kernel.anyMessage.connect((_, args) => {
      const m = args.msg;
      if (args.direction !== 'send' || !m.header.msg_type.startsWith('comm_')) return;
      if (m.header.msg_type === 'comm_open' && m.content.target_name === 'jupyter.widget.control') {
        h.controlComms.add(m.content.comm_id);
      }
      if (h.controlComms.has(m.content.comm_id)) h.controlMsgs.add(m.header.msg_id);
    });
  };
  const s = w.sessionContext;
  if (s.session && s.session.kernel) { h.lateHook = true; hook(s.session.kernel); }
  s.kernelChanged.connect((_, change) => hook(change.newValue));
  // Output of widget callbacks (comm messages) never reaches a cell: JupyterLab only routes it
  // to the log console. Record it here so tests can see exceptions raised in handlers.
  s.iopubMessage.connect((_, msg) => {
    const ph = msg.parent_header || {};
    if (!ph.msg_type || !ph.msg_type.startsWith('comm_')) return;
    const t = msg.header.msg_type;
    let entry;
    if (t === 'error') {
      entry = { kind: 'error', text: (msg.content.traceback || []).join('\\n')
                || (msg.content.ename + ': ' + msg.content.evalue) };
    } else if (t === 'stream') {
      entry = { kind: msg.content.name, text: msg.content.text };
    } else {
      return;
    }
    const m = /^No such comm: (\\S+)\\s*$/.exec(entry.text);
    const noise = h.controlMsgs.has(ph.msg_id)
      || (m && h.controlComms.has(m[1]))
      || /^No such comm target registered: jupyter\\.widget\\.control\\s*$/.test(entry.text);
    (noise ? h.ignored : h.callbackLog).push(entry);
  });
  return true;
}
"""

_JS_KERNEL_IDLE = """
(path) => {
  const app = window.jupyterapp;
  if (!app || !app.shell) return false;
  const w = app.shell.currentWidget;
  if (!w || !w.context || w.context.path !== path || !w.sessionContext) return false;
  const s = w.sessionContext;
  const k = s.session && s.session.kernel;
  return !!(w.context.isReady && s.isReady && k && k.status === 'idle' && k.connectionStatus === 'connected');
}
"""

_JS_ALL_IDLE = """
(needed) => {
  const h = window.__harness;
  const w = window.jupyterapp.shell.currentWidget;
  const k = w && w.sessionContext.session && w.sessionContext.session.kernel;
  let idle = !!k && k.status === 'idle';
  if (idle) {
    for (const cell of w.content.widgets) {
      if (cell.model.type !== 'code') continue;
      const prompt = cell.node.querySelector('.jp-InputPrompt');
      if (cell.model.executionState === 'running' || (prompt && prompt.textContent.includes('*'))) {
        idle = false; break;
      }
    }
  }
  h.idleCount = idle ? h.idleCount + 1 : 0;
  return h.idleCount >= needed;
}
"""

_JS_PIXEL = """
(c, [x, y]) => Array.from(c.getContext('2d').getImageData(x, y, 1, 1).data)
"""

_JS_TEXT_MATCH = """
([selector, kind, pattern, flags]) => {
  const re = kind === 'regex' ? new RegExp(pattern, flags) : null;
  for (const el of document.querySelectorAll(selector)) {
    const t = (el.textContent || '').trim();
    if (re ? re.test(t) : t.includes(pattern)) return t;
  }
  return false;
}
"""


class NotebookPage:
    """One notebook open in JupyterLab in a Playwright page, with its own fresh kernel.

    Canvas coordinates are canvas pixels (``canvas.width`` x ``canvas.height``), whatever CSS
    scaling the output area applies.
    """

    def __init__(self, page: Any, server: JupyterServer, path: str):
        self.page = page
        self.server = server
        self.path = path.lstrip("/")
        self.open_seconds = 0.0  # page load to idle kernel, set by open()

    # -- opening and running ---------------------------------------------------------------
    def open(self, timeout: int = OPEN_TIMEOUT) -> NotebookPage:
        """Delete all sessions, open the notebook in a new workspace, wait for an idle kernel."""
        __tracebackhide__ = True
        if not (self.server.root_dir / self.path).is_file():
            raise FileNotFoundError(f"{self.path} is not in the server root {self.server.root_dir}")
        self.server.delete_sessions()  # ipycanvas #322: never reuse a kernel
        t0 = time.monotonic()
        self.page.goto(self.server.lab_url(self.path, workspace=f"t{uuid.uuid4().hex[:12]}"))
        deadline = t0 + timeout / 1000
        self._wait_dismissing(_JS_INSTALL, deadline, "the notebook panel to appear", polling=20)
        self._wait_dismissing(_JS_KERNEL_IDLE, deadline, "an idle kernel", polling=100)
        _NOTEBOOKS[id(self.page)] = self
        self.open_seconds = time.monotonic() - t0
        return self

    def _wait_dismissing(self, js: str, deadline: float, what: str, polling: int) -> None:
        """Wait for ``js(path)`` to be truthy, accepting dialogs meanwhile."""
        __tracebackhide__ = True
        while True:
            remaining = int((deadline - time.monotonic()) * 1000)
            try:
                self.page.wait_for_function(
                    js, arg=self.path, timeout=max(min(remaining, 2000), 1), polling=polling
                )
                return
            except Exception as e:
                if "Timeout" not in type(e).__name__ and "Timeout" not in str(e):
                    raise
            self.dismiss_dialogs()
            if time.monotonic() >= deadline:
                raise AssertionError(
                    f"{self.path}: timed out waiting for {what} after opening the page; "
                    f"server log tail:\n{self.server.log_tail(15)}"
                )

    def dismiss_dialogs(self) -> list[str]:
        """Accept any JupyterLab dialog (e.g. kernel selection); returns their texts."""
        texts = []
        dialogs = self.page.locator(".jp-Dialog")
        while dialogs.count():
            d = dialogs.first
            texts.append(d.inner_text())
            accept = d.locator(".jp-mod-accept")
            if accept.count():
                accept.first.click()
            else:
                self.page.keyboard.press("Escape")
            self.page.wait_for_timeout(100)
            if len(texts) > 5:
                break
        for t in texts:
            print(f"[browser] dismissed dialog: {t!r}")
        return texts

    def run_all(self, timeout: int = RUN_TIMEOUT, check: bool = True) -> bool:
        """Run all cells, wait until every cell finished and the kernel is idle.

        Returns JupyterLab's result (False if a cell raised). With ``check`` an error output
        raises AssertionError naming it.
        """
        __tracebackhide__ = True
        self.page.evaluate(
            """() => {
              const h = window.__harness;
              h.runAll = { done: false };
              window.jupyterapp.commands.execute('notebook:run-all-cells').then(
                r => { h.runAll = { done: true, ok: r !== false }; },
                e => { h.runAll = { done: true, ok: false, error: String(e) }; });
            }"""
        )
        self.page.wait_for_function(
            "() => window.__harness.runAll.done", timeout=timeout, polling=100
        )
        result = self.page.evaluate("() => window.__harness.runAll")
        self.wait_idle(timeout=timeout)
        if check:
            errs = self.errors()
            if errs or not result.get("ok"):
                raise AssertionError(
                    f"{self.path}: run-all {'failed' if not result.get('ok') else 'left errors'}"
                    f" {result.get('error', '')}\n" + "\n---\n".join(errs)
                )
        return bool(result.get("ok"))

    def wait_idle(self, timeout: int = RUN_TIMEOUT, stable_polls: int = 3) -> None:
        """Wait until the kernel is idle and no cell is queued or running (3 polls in a row)."""
        self.page.evaluate("() => { window.__harness.idleCount = 0; }")
        self.page.wait_for_function(_JS_ALL_IDLE, arg=stable_polls, timeout=timeout, polling=100)

    # -- canvases --------------------------------------------------------------------------
    def canvases(self) -> Any:
        """Locator of every ``<canvas>`` in the notebook's outputs, in document order."""
        return self.page.locator(".jp-OutputArea-output canvas")

    def canvas(self, index: int = 0, timeout: int = WAIT_TIMEOUT) -> Any:
        """The ``index``-th output canvas (negative counts from the end), once it is visible.

        In ipycanvas 0.14 a Canvas *and* a MultiCanvas are each ONE ``<canvas>`` element (the
        MultiCanvas view composites its layers), so index = widget order in the outputs.
        """
        __tracebackhide__ = True
        loc = self.canvases()
        try:
            loc.first.wait_for(state="attached", timeout=timeout)
            if index < 0:
                index = loc.count() + index
            target = loc.nth(index)
            target.wait_for(state="visible", timeout=timeout)
        except Exception as e:
            raise AssertionError(
                f"{self.path}: no visible output canvas #{index} "
                f"({loc.count()} found) after {timeout / 1000:.0f} s: {e}\n"
                f"outputs:\n{self.outputs_text()}\nerrors:\n" + "\n".join(self.errors())
            ) from None
        return target

    def canvas_box(self, canvas: Any) -> dict[str, float]:
        """CSS box of the canvas and its scale: keys left, top, width, height, cw, ch, sx, sy."""
        canvas.scroll_into_view_if_needed()
        b = canvas.evaluate(
            """c => { const r = c.getBoundingClientRect();
                      return {left: r.left, top: r.top, width: r.width, height: r.height,
                              cw: c.width, ch: c.height}; }"""
        )
        b["sx"] = b["width"] / b["cw"]
        b["sy"] = b["height"] / b["ch"]
        return b

    def _client_point(self, canvas: Any, x: float, y: float) -> tuple[float, float]:
        __tracebackhide__ = True
        b = self.canvas_box(canvas)
        assert abs(b["sx"] - b["sy"]) < 0.01, f"{self.path}: the canvas is drawn out of proportion: {b}"
        if not (0 <= x < b["cw"] and 0 <= y < b["ch"]):
            raise ValueError(f"({x}, {y}) is outside the {b['cw']}x{b['ch']} canvas")
        # Aim at the pixel's centre: Chromium truncates MouseEvent.clientX/Y to whole CSS pixels
        # and the canvas often sits at a fractional offset (top 284.6875 seen), so aiming at the
        # corner lands in the neighbouring pixel. Aiming at the centre, ipycanvas reports a float
        # in (x + 0.5 - 1/scale, x + 0.5]: at scale 1, round() gives back x.
        px, py = b["left"] + (x + 0.5) * b["sx"], b["top"] + (y + 0.5) * b["sy"]
        hit = canvas.evaluate(
            """(c, [px, py]) => { const e = document.elementFromPoint(px, py);
                 return e === c ? null : (e ? e.outerHTML.slice(0, 200) : 'nothing'); }""",
            [px, py],
        )
        if hit is not None:
            raise AssertionError(
                f"a click at canvas ({x}, {y}) = page ({px:.1f}, {py:.1f}) would hit {hit}, "
                "not the canvas (a pop-up or another element covers it)"
            )
        return px, py

    def click_canvas(self, canvas: Any, x: float, y: float, button: str = "left") -> None:
        """Mouse down + up at canvas pixel (x, y): sends ipycanvas mouse_down/mouse_up."""
        __tracebackhide__ = True
        px, py = self._client_point(canvas, x, y)
        self.page.mouse.click(px, py, button=button)

    def tap_canvas(self, canvas: Any, x: float, y: float) -> None:
        """A finger's tap at canvas pixel (x, y) (the page's context must have ``has_touch``)."""
        __tracebackhide__ = True
        self.page.touchscreen.tap(*self._client_point(canvas, x, y))

    def mouse_move(self, canvas: Any, x: float, y: float) -> None:
        px, py = self._client_point(canvas, x, y)
        self.page.mouse.move(px, py)

    def pixel(self, canvas: Any, x: int, y: int) -> tuple[int, int, int, int]:
        """RGBA of canvas pixel (x, y), as drawn in the browser."""
        return tuple(canvas.evaluate(_JS_PIXEL, [int(x), int(y)]))

    def wait_pixel(
        self,
        canvas: Any,
        x: int,
        y: int,
        rgba: tuple[int, ...],
        tolerance: int = 0,
        timeout: int = WAIT_TIMEOUT,
    ) -> None:
        """Wait until pixel (x, y) equals ``rgba`` (3 or 4 values) within ``tolerance``."""
        __tracebackhide__ = True
        # Polled through the locator (not an element handle), so a canvas re-rendered by a
        # re-run cell is followed instead of reading the stale detached element.
        want = list(rgba)
        deadline = time.monotonic() + timeout / 1000
        while True:
            got = self.pixel(canvas, x, y)
            if all(abs(g - w) <= tolerance for g, w in zip(got, want, strict=False)):
                return
            if time.monotonic() >= deadline:
                raise AssertionError(
                    f"pixel ({x}, {y}) is {got}, not {tuple(rgba)} (±{tolerance}) after "
                    f"{timeout / 1000:.0f} s; errors: {self.errors()}"
                )
            self.page.wait_for_timeout(100)

    # -- keyboard --------------------------------------------------------------------------
    def focus_canvas(self, canvas: Any, at: tuple[float, float] | None = None) -> None:
        """Give the canvas keyboard focus: by a click at canvas pixel ``at`` (as a user would;
        the kernel sees a mouse_down), or with ``at=None`` by element.focus() (no mouse event)."""
        __tracebackhide__ = True
        if at is not None:
            self.click_canvas(canvas, *at)
        else:
            canvas.scroll_into_view_if_needed()
            canvas.focus()
        if not canvas.evaluate("c => document.activeElement === c"):
            raise AssertionError("the canvas did not get keyboard focus")

    def press(self, key: str, canvas: Any = None, at: tuple[float, float] | None = None) -> None:
        """Press ``key`` (Playwright key name, e.g. "ArrowLeft", "a", "Shift+A").

        With ``canvas``, focus it first (see :meth:`focus_canvas`); otherwise the key goes to
        whatever has focus.
        """
        __tracebackhide__ = True
        if canvas is not None:
            self.focus_canvas(canvas, at=at)
        self.page.keyboard.press(key)

    # -- reading what the user sees --------------------------------------------------------
    def wait_text(
        self,
        selector: str,
        expected: str | re.Pattern[str] | Callable[[str], bool],
        timeout: int = WAIT_TIMEOUT,
    ) -> str:
        """Wait until an element matching ``selector`` has text containing ``expected``
        (substring), matching it (compiled regex, searched), or for which ``expected(text)``
        is true. Returns that element's (stripped) text."""
        __tracebackhide__ = True
        if callable(expected) and not isinstance(expected, re.Pattern):
            deadline = time.monotonic() + timeout / 1000
            while True:
                texts = self.texts(selector)
                for t in texts:
                    if expected(t):
                        return t
                if time.monotonic() >= deadline:
                    break
                self.page.wait_for_timeout(50)
        else:
            if isinstance(expected, re.Pattern):
                flags = "i" if expected.flags & re.IGNORECASE else ""
                arg = [selector, "regex", expected.pattern, flags]
            else:
                arg = [selector, "substring", expected, ""]
            try:
                handle = self.page.wait_for_function(
                    _JS_TEXT_MATCH, arg=arg, timeout=timeout, polling=50
                )
                return handle.json_value()
            except Exception as e:
                if "Timeout" not in type(e).__name__ and "Timeout" not in str(e):
                    raise
        raise AssertionError(
            f"timed out after {timeout / 1000:.0f} s waiting for {selector!r} to match "
            f"{getattr(expected, 'pattern', expected)!r}; texts now: {self.texts(selector)!r}; "
            f"errors: {self.errors()!r}"
        )

    def texts(self, selector: str) -> list[str]:
        return [t.strip() for t in self.page.locator(selector).all_text_contents()]

    def outputs_text(self) -> str:
        return "\n".join(self.texts(".jp-OutputArea-output"))

    def callback_log(self, ignored: bool = False) -> list[dict[str, str]]:
        """Everything widget callbacks printed or raised ({"kind": stdout|stderr|error, "text"}).

        ``ignored=True`` returns instead the kernel's known-harmless complaints about the
        ipywidgets control comm (see _JS_INSTALL), which errors() leaves out."""
        key = "ignored" if ignored else "callbackLog"
        log = self.page.evaluate(f"() => window.__harness ? window.__harness.{key} : []")
        return [{"kind": e["kind"], "text": _ANSI.sub("", e["text"])} for e in log]

    def errors(self) -> list[str]:
        """Visible error/stderr outputs, widget render errors, and errors raised (or written to
        stderr) by widget callbacks, which JupyterLab itself does not show in the notebook."""
        found = self.texts(f'.jp-OutputArea-output[data-mime-type="{STDERR_MIME}"]')
        found += [
            t
            for t in self.texts(".jp-OutputArea-output")
            if "Error displaying widget" in t or "Error rendering" in t
        ]
        found += [e["text"] for e in self.callback_log() if e["kind"] in ("error", "stderr")]
        return [_ANSI.sub("", t) for t in found if t]


def open_notebook(page: Any, server: JupyterServer, path: str, **kwargs: Any) -> NotebookPage:
    """Open ``path`` (relative to the server root) with a fresh kernel; see NotebookPage.open."""
    __tracebackhide__ = True
    return NotebookPage(page, server, path).open(**kwargs)


@pytest.fixture
def notebook_page(page: Any, jupyter_server: JupyterServer) -> Callable[..., NotebookPage]:
    """Factory: ``nb = notebook_page("notebooks/board.ipynb")`` opens it with a fresh kernel."""

    def _open(path: str, **kwargs: Any) -> NotebookPage:
        __tracebackhide__ = True
        return open_notebook(page, jupyter_server, path, **kwargs)

    return _open


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the real-browser tests after all the others (this hook sees every item).

    Playwright's sync API keeps an asyncio event loop running in the main thread
    for as long as the session-scoped browser lives; tests that call
    ``asyncio.run`` or execute notebooks with nbclient cannot run after it starts.
    """
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


# --------------------------------------------------------------------------------------------
# Notebook 7 and Voila: the same board in the other front ends a teacher may use
# --------------------------------------------------------------------------------------------


class Notebook7Server(JupyterServer):
    """A running ``jupyter notebook`` (Notebook 7) on 127.0.0.1, same private dirs as the lab one.

    :meth:`lab_url` opens a notebook in Notebook 7's own page (``/notebooks/...``), which
    exposes the app as ``window.jupyterapp`` too, so :class:`NotebookPage` drives it as well.
    """

    def lab_url(self, path: str, workspace: str | None = None) -> str:
        where = urllib.request.quote(path.lstrip("/"))
        return f"{self.base_url}/notebooks/{where}?token={self.token}"

    def _command(self) -> list[str]:
        return [
            sys.executable, "-m", "notebook",
            "--no-browser", "--allow-root",
            "--ip=127.0.0.1", f"--port={self.port}", "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={self.token}",
            f"--ServerApp.root_dir={self.root_dir}",
            "--JupyterNotebookApp.expose_app_in_browser=True",
            f"--JupyterNotebookApp.workspaces_dir={self.base / 'workspaces'}",
            f"--JupyterNotebookApp.user_settings_dir={self.base / 'settings'}",
            "--ServerApp.terminals_enabled=False",
        ]  # fmt: skip


@pytest.fixture(scope="session")
def notebook7_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Notebook7Server]:
    """A Notebook 7 server (``jupyter notebook``) whose root is a temp copy of the lessons."""
    server = Notebook7Server(tmp_path_factory.mktemp("notebook7"))
    try:
        server.start()
        yield server
    finally:
        server.stop()


class VoilaApp:
    """``voila NOTEBOOK`` on 127.0.0.1 and a free port: the notebook as an app-like page.

    Voila runs the notebook in a kernel of its own for each page and shows only the
    outputs (the boards and their controls), no code.  Started in a session of its own
    and stopped by its process id (its kernels go with it).
    """

    def __init__(self, base: Path, notebook: str):
        self.base = base
        self.notebook = notebook
        self.root_dir = base / "root"
        self.log_path = base / "voila.log"
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self._log_file: Any = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no voila log)"

    def start(self, timeout: float = SERVER_START_TIMEOUT) -> None:
        for d in ("config", "runtime", "data", "ipython"):
            (self.base / d).mkdir(parents=True, exist_ok=True)
        ignore = shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__")
        for name in COPIED_FOLDERS:
            if (REPO_ROOT / name).is_dir():
                shutil.copytree(REPO_ROOT / name, self.root_dir / name, ignore=ignore)
        self.port = free_port()
        env = dict(os.environ)
        env.update(
            JUPYTER_CONFIG_DIR=str(self.base / "config"),
            JUPYTER_RUNTIME_DIR=str(self.base / "runtime"),
            JUPYTER_DATA_DIR=str(self.base / "data"),
            IPYTHONDIR=str(self.base / "ipython"),
            PYTHONUNBUFFERED="1",
        )
        self._log_file = open(self.log_path, "ab")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "voila", self.notebook, "--no-browser",
             f"--port={self.port}", "--Voila.ip=127.0.0.1", "--show_tracebacks=True"],  # fmt: skip
            cwd=self.root_dir,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self._log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=1),
            ):
                return
            time.sleep(0.2)
        code = self.process.poll()
        self.stop()
        pytest.fail(
            f"Voila {'exited with code ' + str(code) if code is not None else 'did not listen'}"
            f"; last lines of {self.log_path}:\n{self.log_tail()}",
            pytrace=False,
        )

    def stop(self) -> None:
        proc = self.process
        if proc is not None and proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)  # its session: Voila and the kernels it started
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None


@pytest.fixture(scope="module")
def voila_play(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaApp]:
    """Voila serving notebooks/01_play.ipynb (a temp copy) as an app-like page."""
    app = VoilaApp(tmp_path_factory.mktemp("voila"), "notebooks/01_play.ipynb")
    try:
        app.start()
        yield app
    finally:
        app.stop()
