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

from course.site.store import HandInError, exercise_name, student_folder

#: The page's part: save, post, show the receipt.  Runs with ``element`` = the output area.
SCRIPT = """
(async () => {
  const say = (text, colour) => {
    const line = document.createElement("div");
    line.className = "reversi-handin";
    line.style.color = colour;
    line.textContent = text;
    element.replaceChildren(line);
  };
  try {
    const app = window.jupyterapp;
    if (!app) { say("Hand-in needs the browser classroom's page (window.jupyterapp is missing).", "#b00"); return; }
    await new Promise((done) => setTimeout(done, 50));  // the output is put on the page after this runs
    const panels = Array.from(app.shell.widgets("main")).filter((w) => w.context);
    const current = app.shell.currentWidget;
    const panel = panels.find((w) => w.node.contains(element)) || (current && current.context ? current : null);
    if (!panel) { say("Hand-in could not find this notebook on the page.", "#b00"); return; }
    say("Saving the notebook...", "#555");
    await panel.context.save();
    const path = panel.context.path;
    const student = __STUDENT__;  // "" when signed in: the server knows who
    const exercise = __EXERCISE__ || path.split("/").pop().replace(/\\.ipynb$/, "");
    const notebook = JSON.stringify(panel.context.model.toJSON());
    say("Handing in " + exercise + "...", "#555");
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
      say("Handed in: " + r.exercise + " by " + r.student + ", " + r.bytes + " bytes, received "
          + r.received + " (receipt " + r.sha256.slice(0, 12) + ").", "#060");
    } else if (reply && reply.error) {
      say("Not handed in: " + reply.error, "#b00");
    } else {
      say("Not handed in: this page's server does not take hand-ins (HTTP " + answer.status
          + "). Download the notebook (File > Download) and give it to your teacher.", "#b00");
    }
  } catch (failed) {
    say("Not handed in: " + failed, "#b00");
  }
})();
"""


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
    if sys.platform != "emscripten":
        raise HandInError(
            "hand_in() works in the browser classroom (the site 'python -m course serve' serves); "
            "here, save the notebook and give the .ipynb file to your teacher"
        )
    from IPython.display import display

    student = name.strip() if name is not None else ""
    script = SCRIPT.replace("__EXERCISE__", json.dumps(exercise or ""), 1)
    script = script.replace("__STUDENT__", json.dumps(student), 1)
    bundle: dict[str, Any] = {
        "application/javascript": script,
        "text/plain": f"Handing in{' as ' + student if student else ''}...",
    }
    display(bundle, raw=True)
