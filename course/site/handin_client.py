"""``hand_in()``: send this exercise notebook to the class server, in the browser classroom.

The kernel cannot see unsaved edits (it reads the notebook from the browser's store),
so the hand-in runs in the page: a small script in the cell's output saves the
notebook, posts it to the server that served the page (``/hand-in``, beside the site)
and writes the receipt, or the server's reason for refusing it, in the output.
The server decides who hands in, from the browser's sign-in (course.site.signin_routes):
in a class with a roster no name is needed; in a casual class the name given is claimed
for this browser the first time.  The name and the exercise are checked here first, with
the store's own rules.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from course.classroom.client import hub_headers, hub_server
from course.i18n import gettext as _
from course.site.store import HandInError, exercise_name, student_folder

#: On a hub: the page saves the notebook (JupyterLab with expose_app_in_browser), then the kernel sends it.
SAVE = """(async () => { const app = window.jupyterapp; if (!app) return;
  const panel = Array.from(app.shell.widgets("main")).find((w) => w.context && w.context.path === __PATH__);
  if (panel) await panel.context.save(); })();"""
#: Seconds a hand-in on a hub waits for the page to save the notebook.
SAVE_WAIT = 5.0
#: Tries of a hand-in on a hub while the class service restarts, and the wait between them.
RETRIES, RETRY_WAIT = 3, 2.0

#: The page's part: save, post, show the receipt.  Runs with ``element`` = the output area;
#: its sentences are :func:`words` (placeholders in braces), in the kernel's language.
SCRIPT = r"""
(async () => {
  const WORDS = __WORDS__;
  const t = (key, values = {}) => String(WORDS[key] ?? key).replace(/\{(\w+)\}/g, (_, name) => values[name]);
  const say = (text, colour) => {
    const line = document.createElement("div");
    line.className = "reversi-handin";
    line.style.color = colour;
    line.textContent = text;
    element.replaceChildren(line);
  };
  try {
    const app = window.jupyterapp;
    if (!app) { say(t("noApp"), "#b00"); return; }
    await new Promise((done) => setTimeout(done, 50));  // the output is put on the page after this runs
    const panels = Array.from(app.shell.widgets("main")).filter((w) => w.context);
    const current = app.shell.currentWidget;
    const panel = panels.find((w) => w.node.contains(element)) || (current && current.context ? current : null);
    if (!panel) { say(t("noPanel"), "#b00"); return; }
    say(t("saving"), "#555");
    await panel.context.save();
    const path = panel.context.path;
    const student = __STUDENT__;  // "" when signed in: the server knows who
    const exercise = __EXERCISE__ || path.split("/").pop().replace(/\.ipynb$/, "");
    const notebook = JSON.stringify(panel.context.model.toJSON());
    say(t("handing", {exercise: exercise}), "#555");
    const answer = await fetch(new URL("../hand-in", window.location.href), {
      method: "POST",
      headers: {"Content-Type": "application/json"},
      body: JSON.stringify(Object.assign({exercise: exercise, notebook: notebook},
                                         student ? {student: student} : {})),
    });
    let reply = null;
    try { reply = await answer.json(); } catch (e) { reply = null; }
    if (reply && reply.ok) {
      const r = reply.receipt;
      say(t("handed", {exercise: r.exercise, student: r.student, bytes: r.bytes, received: r.received,
                       receipt: r.sha256.slice(0, 12), note: ""}), "#060");
    } else if (reply && reply.error) {
      say(t("refused", {reason: reply.error}), "#b00");
    } else {
      say(t("noServer", {status: answer.status}), "#b00");
    }
  } catch (failed) {
    say(t("refused", {reason: failed}), "#b00");
  }
})();
"""


def words() -> dict[str, str]:
    """The sentences :data:`SCRIPT` writes, in the language of now (placeholders in braces)."""
    return {
        "noApp": _("Hand-in needs the browser classroom's page (window.jupyterapp is missing)."),
        "noPanel": _("Hand-in could not find this notebook on the page."),
        "saving": _("Saving the notebook..."), "handing": _("Handing in {exercise}..."), "handed": handed(),
        "refused": _("Not handed in: {reason}"),
        "noServer": _("Not handed in: this page's server does not take hand-ins (HTTP {status}). "
                      "Download the notebook (File > Download) and give it to your teacher."),
    }  # fmt: skip


def handed() -> str:
    """The receipt's sentence, in the language of now (the page's and the hub's)."""
    return _("Handed in: {exercise} by {student}, {bytes} bytes, received {received} (receipt {receipt}){note}.")


def hand_in(name: str | None = None, exercise: str | None = None) -> None:
    """Hand in this notebook; shows a receipt.

    In a class that signs in with codes, leave ``name`` out: the server knows who you
    are.  In a class without codes, give your name the first time (``hand_in("Ada")``).
    ``exercise`` defaults to the notebook's file name (``04_flips``).  Works in the
    browser classroom (JupyterLite served by ``python -m course serve``).
    """
    if name is not None:
        student_folder(name)  # refuse a bad name here, with the store's message
    if exercise is not None:
        exercise_name(exercise)
    if sys.platform != "emscripten" and hub_server():
        print(hand_in_on_hub(name, exercise))
        return
    if sys.platform != "emscripten":
        raise HandInError(_(
            "hand_in() works in the browser classroom (the site 'python -m course serve' serves); "
            "here, save the notebook and give the .ipynb file to your teacher"
        ))  # fmt: skip
    from IPython.display import display

    student = name.strip() if name is not None else ""
    bundle: dict[str, Any] = {
        "application/javascript": page_script(student, exercise),
        "text/plain": _("Handing in as {name}...").format(name=student) if student else _("Handing in..."),
    }
    display(bundle, raw=True)


def page_script(student: str, exercise: str | None) -> str:
    """:data:`SCRIPT` for a hand-in by ``student`` ("" when signed in) of ``exercise`` (None: the
    notebook's file name), its sentences in the language of now."""
    script = SCRIPT.replace("__WORDS__", json.dumps(words()).replace("<", "\\u003c"), 1)
    script = script.replace("__EXERCISE__", json.dumps(exercise or ""), 1)
    return script.replace("__STUDENT__", json.dumps(student), 1)


def hand_in_on_hub(name: str | None, exercise: str | None) -> str:
    """On a JupyterHub: save this notebook through the page, send the file with the user's token; the receipt.

    The kernel knows its notebook from ``JPY_SESSION_NAME`` (Jupyter Server sets it) and
    who it is from its hub token; the class service (course.hub.service) decides who hands in.
    """
    import os
    import time
    import urllib.error
    import urllib.request
    from pathlib import Path

    from IPython.display import display

    session = os.environ.get("JPY_SESSION_NAME", "")
    path = Path(session)
    if not session or not path.is_file():
        raise HandInError(_("hand_in() cannot tell which notebook this is: save it (File > Save) and "
                            "run the cell again, or download it and give it to your teacher"))  # fmt: skip
    before = path.stat().st_mtime_ns
    relative = os.path.relpath(path, Path.home()).replace(os.sep, "/")  # a hub serves the home folder
    bundle: dict[str, Any] = {"application/javascript": SAVE.replace("__PATH__", json.dumps(relative), 1),
                              "text/plain": _("Saving the notebook...")}  # fmt: skip
    display(bundle, raw=True)  # type: ignore[no-untyped-call]
    deadline = time.monotonic() + SAVE_WAIT
    while path.stat().st_mtime_ns == before and time.monotonic() < deadline:
        time.sleep(0.1)
    saved = path.stat().st_mtime_ns != before
    while True:  # Jupyter writes the file in place: read it once it is whole JSON again
        try:
            notebook = json.loads(path.read_text(encoding="utf-8"))
            break
        except ValueError:
            if time.monotonic() >= deadline + SAVE_WAIT:
                raise HandInError(_("{name} is not a notebook JupyterLab saved (it is not JSON)").format(
                    name=path.name)) from None  # fmt: skip
            time.sleep(0.1)
    fields: dict[str, Any] = {"exercise": exercise or path.stem, "notebook": notebook}
    if name is not None:
        fields["student"] = name.strip()
    body = json.dumps(fields).encode()
    headers = {"Content-Type": "application/json", **hub_headers()}
    receipt: dict[str, Any] | None = None
    for attempt in range(RETRIES):  # the service restarting (the proxy answers 502/503): try again
        if attempt:
            time.sleep(RETRY_WAIT)
        request = urllib.request.Request(f"{hub_server()}/hand-in", body, headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                receipt = json.loads(answer.read(100_000))["receipt"]
            break
        except urllib.error.HTTPError as refused:
            if refused.code in (502, 503) and attempt + 1 < RETRIES:
                continue
            try:
                reason = json.loads(refused.read(10_000))["error"]
            except (ValueError, KeyError, TypeError):
                reason = _("the class service answered HTTP {status}").format(status=refused.code)
            raise HandInError(_("Not handed in: {reason}").format(reason=reason)) from None
        except (OSError, ValueError, KeyError) as failed:
            if attempt + 1 < RETRIES:
                continue
            raise HandInError(_("Not handed in: the class service cannot be reached ({reason}); "
                                "try again in a minute").format(reason=failed)) from None  # fmt: skip
    assert receipt is not None
    note = "" if saved else _(" (as last saved: save with Ctrl+S first if you changed it since)")
    return handed().format(exercise=receipt["exercise"], student=receipt["student"], bytes=receipt["bytes"],
                           received=receipt["received"], receipt=receipt["sha256"][:12], note=note)
