"""``python -m course site build``: the JupyterLite site of the kit, made offline from caches.

The site holds the lessons, the *released* exercises (never the teacher folder, the
grading seed or a notebook with a solution), the kit as a wheel built from this
checkout, the widget wheels and the pure-Python wheels Pyodide's lock pins, and Pyodide's
core from the npm registry (:mod:`course.pyodide`).  JupyterLite runs in a venv of its own.

numpy and Pillow (which ipycanvas imports) exist only in Pyodide's own distribution:
they come from the folder the teacher names (``--pyodide-packages``), checked against
the lock's hashes, or else minimal stand-ins (:mod:`course.site.wheels`) take their place.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from course import i18n, pyodide
from course.grading.notebook import BEGIN_SOLUTION
from course.site import SiteError, languages
from course.site.batching import patch_batching
from course.site.bytecode import compile_wheels
from course.site.canvas_events import patch_canvas
from course.site.compression import compress_site, size_report
from course.site.notebooks import copy_notebooks
from course.site.page_start import patch_page_start
from course.site.patches import KERNEL_PLUGIN, kernel_settings, patch_kernel, patch_lab
from course.site.prewarm import patch_prewarm
from course.site.snapshot import make_snapshot
from course.site.stamp import STAMP_FILE, kit_stamp
from course.site.wheels import STANDINS, build_standin, canonical_name, file_sha256, read_wheel

#: Its face is ``python -m course site build`` (course.site.cli); the rest is course.site's inside.

REPO = Path(__file__).resolve().parents[2]
LESSONS = REPO / "notebooks"
EXERCISES = REPO / "exercises"
CACHE = REPO / "build" / "site-cache"
OUT = REPO / "build" / "site"

PYODIDE_VERSION = pyodide.VERSION
BUILD_TOOLS = (
    "jupyterlite-core==0.8.6",
    "jupyterlite-pyodide-kernel==0.8.6",
    "jupyter_server",
    "jupyterlab_server",  # how jupyter lite build finds the language packs
    "ipywidgets==8.1.9",
    "ipycanvas==0.14.3",
)
#: Wheels the kernel needs beside the kit, from PyPI (widgetsnbextension comes with the kernel).
RUNTIME_WHEELS = (
    "ipywidgets==8.1.9",
    "jupyterlab_widgets==3.0.17",
    "ipycanvas==0.14.3",
    "comm==0.2.3",
)
#: What the kernel loads from the lock when it starts, all at once: with the kernel's own
#: packages among them, its start installs nothing more with piplite (one micropip
#: resolution and three wheels fetched one after another, before the first cell could run).
#: Not jedi: IPython completes without it, and it is half a second of every start (course.site.prewarm).
PRELOADED = (
    "micropip",
    "ipython",
    "comm",
    "piplite",
    "ipykernel",
    "pyodide-kernel",
    "reversi-kit",
)
#: The kernel's own wheels (in its labextension), preloaded like the kit.
KERNEL_WHEELS = (
    "widgetsnbextension-4.0.999-py3-none-any.whl",
    "piplite-0.8.6-py3-none-any.whl",
    "ipykernel-6.9.2-py3-none-any.whl",
    "pyodide_kernel-0.8.6-py3-none-any.whl",
)
PYODIDE_CORE = ("pyodide.mjs", "pyodide.js", "pyodide.asm.mjs", "pyodide.asm.wasm",
                "python_stdlib.zip", "package.json")  # fmt: skip
#: The file in a built site that says which copy of the kit it was built from.
#: Files and folders a site must never hold: the teacher's sources and the grading seed.
TEACHER_NAMES = ("source", "grading_seed.txt")

Say = Callable[[str], None]


def _released_notebooks(folder: Path) -> list[Path]:
    """The notebooks of ``folder`` that a student may see; refuses solutions and teacher files.

    >>> _released_notebooks(REPO / "exercises" / "source")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    course.site.SiteError: .../exercises/source is the teacher folder ...
    """
    folder = Path(folder).resolve()
    if folder.name in TEACHER_NAMES or (folder / "grading_seed.txt").exists():
        raise SiteError(
            f"{folder} is the teacher folder (solutions, seed): the site takes released copies only"
        )
    if not folder.is_dir():
        raise SiteError(f"{folder} is not a folder of notebooks")
    notebooks = sorted(folder.glob("*.ipynb"))
    for notebook in notebooks:
        text = notebook.read_text(encoding="utf-8")
        if BEGIN_SOLUTION in text:
            raise SiteError(
                f"{notebook} contains a solution ({BEGIN_SOLUTION!r}): release the exercises with "
                "'python -m course release' and build from the released copies"
            )
    return notebooks


@dataclass
class SiteBuild:
    """One build of the site: where things come from, where they go, and what it printed."""

    out: Path = OUT
    cache: Path = CACHE
    pyodide_packages: Path | None = None
    lessons: Path = LESSONS
    exercises: Path = EXERCISES
    say: Say = print
    standins: list[str] = field(default_factory=list)
    #: Its notebooks, the kernel's KIT_LANG (os.environ) and JupyterLab's menus (default: KIT_LANG's).
    language: str = field(default_factory=i18n.language)

    @property
    def lite(self) -> Path:
        return self.cache / "lite"

    @property
    def tools(self) -> Path:
        """The build environment's programs (``Scripts`` on Windows, ``bin`` elsewhere)."""
        return self.cache / "venv" / ("Scripts" if os.name == "nt" else "bin")

    # -- the whole build ------------------------------------------------------------------

    def run(self) -> Path:
        """Build the site into :attr:`out` and return it."""
        lessons = languages.translated_notebooks(_released_notebooks(self.lessons), self.language)
        exercises = languages.translated_notebooks(_released_notebooks(self.exercises), self.language)
        self._check_out()
        self.cache.mkdir(parents=True, exist_ok=True)
        self._build_tools()
        core = self._pyodide_core()
        kit = self._kit_wheel()
        runtime = self._download("runtime", RUNTIME_WHEELS)
        runtime += [self._kernel_shim(name) for name in KERNEL_WHEELS]
        lock = json.loads((core / "pyodide-lock.json").read_text())
        pinned = self._lock_closure(lock)
        lock_wheels = self._download(
            "lock",
            [f"{lock['packages'][k]['name']}=={lock['packages'][k]['version']}" for k in pinned],
        )
        self._prepare_lite(lessons, exercises)
        self._lay_out_pyodide(core, lock, pinned, lock_wheels, [kit, *runtime])
        self._jupyter_lite_build()
        make_snapshot(self.out, self.say)  # before the page's script copies the kernel's options
        # the kernel's files on any address, no lost first cell, the kernel started with the page,
        # a click's answer in one message, the boards' presses only, a lighter page start
        patches = (patch_kernel, patch_lab, patch_prewarm, patch_batching, patch_canvas, patch_page_start)
        for patch in patches:  # each module says why
            patch(self.out)
        (self.out / STAMP_FILE).write_text(kit_stamp(self.lessons, self.exercises) + "\n")
        self.say(size_report(self.out))
        compress_site(self.out)
        return self.out

    # -- inputs (cached) ------------------------------------------------------------------

    def _build_tools(self) -> None:
        marker = self.cache / "venv" / "course-site-tools.txt"
        tools = (*BUILD_TOOLS, *languages.language_packs())
        wanted = "\n".join(tools)
        if marker.exists() and marker.read_text() == wanted:
            return
        self.say("Making the build environment (JupyterLite) in " + str(self.cache / "venv"))
        self._call([sys.executable, "-m", "venv", "--clear", str(self.cache / "venv")])
        self._call([str(self.tools / "python"), "-m", "pip", "install", "-q", *tools])
        marker.write_text(wanted)

    def _pyodide_core(self) -> Path:
        return pyodide.core(self.cache / f"pyodide-{PYODIDE_VERSION}", say=self.say)

    def _kit_wheel(self) -> Path:
        folder = self.cache / "kit"
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        self.say("Building the kit's wheel from " + str(REPO))
        self._call(
            [str(self.tools / "python"), "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(folder), str(REPO)]
        )
        return next(folder.glob("reversi_kit-*.whl"))

    def _download(self, group: str, requirements: Iterable[str]) -> list[Path]:
        folder = self.cache / "wheels" / group
        folder.mkdir(parents=True, exist_ok=True)
        wheels = []
        for requirement in requirements:
            name, version = requirement.split("==")
            found = _find_wheel(folder, name, version)
            if found is None:
                self._call(
                    [str(self.tools / "python"), "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
                     "--python-version", "3.14", "-d", str(folder), requirement]
                )  # fmt: skip
                found = _find_wheel(folder, name, version)
            if found is None:
                raise SiteError(f"pip downloaded no wheel for {requirement}")
            wheels.append(found)
        return wheels

    def _kernel_shim(self, file_name: str) -> Path:
        shims = (
            self.cache
            / "venv"
            / "share"
            / "jupyter"
            / "labextensions"
            / "@jupyterlite"
            / "pyodide-kernel-extension"
            / "static"
            / "pypi"
        )
        if not (shims / file_name).exists():
            raise SiteError(f"the kernel's {file_name} is missing from {shims}")
        return shims / file_name

    def _lock_closure(self, lock: dict[str, Any]) -> list[str]:
        """Lock keys the preloaded packages need (numpy and Pillow excepted: they come apart)."""
        packages = lock["packages"]
        by_name = {canonical_name(key): key for key in packages}
        wanted: list[str] = []
        todo = [by_name[canonical_name(n)] for n in PRELOADED if canonical_name(n) in by_name]
        while todo:
            key = todo.pop()
            if key in wanted or key in {s.lock_key for s in STANDINS}:
                continue
            entry = packages[key]
            if not entry["file_name"].endswith("py3-none-any.whl"):
                raise SiteError(
                    f"{key} in Pyodide's lock is not pure Python; it must come from Pyodide's distribution"
                )
            wanted.append(key)
            todo += [by_name[canonical_name(d)] for d in entry["depends"]]
        return sorted(wanted)

    # -- the lite folder ------------------------------------------------------------------

    def _prepare_lite(self, lessons: list[Path], exercises: list[Path]) -> None:
        shutil.rmtree(self.lite, ignore_errors=True)
        copy_notebooks({"lessons": lessons, "exercises": exercises}, self.lite / "files", REPO)
        config = {
            "LiteBuildConfig": {
                "contents": ["files"],
                "output_dir": str(self.out.resolve()),
                "no_sourcemaps": True,
            }
        }
        (self.lite / "jupyter_lite_config.json").write_text(json.dumps(config, indent=1))
        settings = {
            "disablePyPIFallback": True,
            "loadPyodideOptions": {"packages": list(PRELOADED), "env": {"KIT_LANG": self.language}},
        }
        interface = languages.interface_locale(self.language)
        if interface:  # JupyterLite's menus through the language pack, as in JupyterLab
            overrides = {languages.TRANSLATION_PLUGIN: {"locale": interface}}
            (self.lite / "overrides.json").write_text(json.dumps(overrides, indent=1))
        lite = {
            "jupyter-lite-schema-version": 0,
            "jupyter-config-data": {
                "appName": "Reversi kit",
                # hand_in() saves the notebook through the page's app (window.jupyterapp)
                "exposeAppInBrowser": "true",
                "litePluginSettings": {KERNEL_PLUGIN: settings},
            },
        }
        (self.lite / "jupyter-lite.json").write_text(json.dumps(lite, indent=1))

    def _lay_out_pyodide(
        self,
        core: Path,
        lock: dict[str, Any],
        pinned: list[str],
        lock_wheels: list[Path],
        extra: list[Path],
    ) -> None:
        target = self.lite / "static" / "pyodide"
        target.mkdir(parents=True)
        for name in PYODIDE_CORE:
            shutil.copy2(core / name, target / name)
        packages = lock["packages"]
        kept: dict[str, Any] = {}
        for key, wheel in zip(pinned, lock_wheels, strict=True):
            kept[key] = self._ship(packages[key], wheel, target)
        for standin in STANDINS:
            kept[standin.lock_key] = self._numeric(standin, packages[standin.lock_key], target)
        names = {canonical_name(key): key for key in [*packages, *kept]}
        for wheel in extra:
            info = read_wheel(wheel)
            key = canonical_name(info.name)
            entry = {
                "name": info.name, "version": info.version, "file_name": "", "install_dir": "site",
                "sha256": "", "package_type": "package", "imports": info.imports,
                "depends": [names.get(canonical_name(d), canonical_name(d)) for d in info.depends],
                "unvendored_tests": False, "shared_library": False,
            }  # fmt: skip
            names[key] = key
            kept[key] = self._ship(entry, wheel, target)
        modules = compile_wheels([target / entry["file_name"] for entry in kept.values()], core, self.say)
        self.say(f"Compiled {modules} modules of the site's wheels to Pyodide's bytecode")
        for entry in kept.values():
            entry["sha256"] = file_sha256(target / entry["file_name"])
        keys = {canonical_name(key): key for key in kept}
        for key, entry in kept.items():
            missing = [d for d in entry["depends"] if canonical_name(d) not in keys]
            if missing:
                raise SiteError(f"{key} needs {', '.join(missing)}, which the site does not ship")
            entry["depends"] = [keys[canonical_name(d)] for d in entry["depends"]]
        lock["packages"] = kept
        (target / "pyodide-lock.json").write_text(json.dumps(lock))

    def _ship(self, entry: dict[str, Any], wheel: Path, target: Path) -> dict[str, Any]:
        shutil.copy2(wheel, target / wheel.name)
        return {**entry, "file_name": wheel.name, "sha256": file_sha256(wheel)}

    def _numeric(self, standin: Any, entry: dict[str, Any], target: Path) -> dict[str, Any]:
        """Pyodide's own numpy or Pillow from the teacher's folder, else the stand-in."""
        if self.pyodide_packages is not None:
            real = Path(self.pyodide_packages) / entry["file_name"]
            if real.is_file():
                if file_sha256(real) != entry["sha256"]:
                    raise SiteError(
                        f"{real} is not Pyodide {PYODIDE_VERSION}'s {entry['name']}: its SHA-256 differs from the lock's"
                    )
                shutil.copy2(real, target / real.name)
                return dict(entry)
            self.say(f"{entry['file_name']} is not in {self.pyodide_packages}; using the stand-in")
        self.standins.append(standin.name)
        wheel = build_standin(standin, self.cache)
        return {**self._ship(entry, wheel, target), "depends": []}

    def _jupyter_lite_build(self) -> None:
        (self.lite / ".jupyterlite.doit.db").unlink(missing_ok=True)
        for stale in self.lite.glob(".jupyterlite.doit.db*"):
            stale.unlink()
        shutil.rmtree(self.out, ignore_errors=True)
        self.say("Running jupyter lite build")
        env = {
            **os.environ,
            "JUPYTER_PLATFORM_DIRS": "1",
            "JUPYTER_CONFIG_DIR": str(self.cache / "jupyter-config"),
        }
        self._call([str(self.tools / "python"), "-m", "jupyter", "lite", "build"], cwd=self.lite, env=env)
        where = kernel_settings(self.out).get("pyodideUrl")
        if where != "./static/pyodide/pyodide.mjs":
            raise SiteError(f"the built site would load Pyodide from {where!r}, not from the site")
        if self.standins:
            note = ", ".join(self.standins)
            self.say(
                f"Note: {note} in this site are offline STAND-INS (not the real packages); see docs/browser-classroom.md"
            )

    def _check_out(self) -> None:
        """Refuse to replace a folder that holds anything but a site (checked before any work)."""
        if (
            self.out.exists()
            and any(self.out.iterdir())
            and not (self.out / "jupyter-lite.json").exists()
        ):
            raise SiteError(
                f"{self.out} is not empty and holds no site: choose an empty or new folder for --out"
            )

    def _call(
        self, command: list[str], cwd: Path | None = None, env: dict[str, str] | None = None
    ) -> None:
        done = subprocess.run(
            command, cwd=cwd, env=env, capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            tail = (done.stderr or done.stdout).strip().splitlines()[-8:]
            raise SiteError(
                f"{' '.join(command[:3])} ... failed (exit {done.returncode}):\n" + "\n".join(tail)
            )


def _find_wheel(folder: Path, name: str, version: str) -> Path | None:
    for wheel in folder.glob("*.whl"):
        parts = wheel.name.split("-")
        if canonical_name(parts[0]) == canonical_name(name) and parts[1] == version:
            return wheel
    return None
