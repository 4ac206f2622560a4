"""A real JupyterHub on 127.0.0.1 for the tests: the ``jupyterhub`` package, Node's
configurable-http-proxy (npm, installed once into build/hub-cache), JupyterHub's
SimpleLocalProcessSpawner starting ``python -m course.hub.singleuser`` for each user,
the DummyAuthenticator with an allowed list (a test authenticator, never for a school),
and the kit's class service (``python -m course.hub.service``) managed by the hub.

Stopped by its PID (the hub stops the proxy, the service and the users' servers).
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CACHE = REPO / "build" / "hub-cache"
PASSWORD = "class-password"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def proxy_command() -> str:
    """configurable-http-proxy, installed with npm into build/hub-cache the first time."""
    program = CACHE / "node_modules" / ".bin" / "configurable-http-proxy"
    if not program.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        npm = shutil.which("npm")
        assert npm, "npm is needed to install JupyterHub's configurable-http-proxy"
        subprocess.run([npm, "install", "--silent", "--prefix", str(CACHE), "configurable-http-proxy@4"],
                       check=True, timeout=600)  # fmt: skip
    return str(program)


class Hub:
    """A JupyterHub with users ``students`` and the admin ``teacher``, and the class service."""

    def __init__(self, root: Path, students: tuple[str, ...] = ("ada", "grace"), teacher: str = "teach") -> None:
        self.root, self.students, self.teacher = root, students, teacher
        self.port, self.service_port = free_port(), free_port()
        self.data = root / "class-data"
        self.homes = root / "homes"
        self.log = root / "hub.log"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def service(self) -> str:
        return f"{self.base}/services/reversi"

    def home(self, user: str) -> Path:
        return self.homes / user

    def config(self) -> str:
        python = sys.executable
        users = {*self.students, self.teacher}
        for user in users:
            self.home(user).mkdir(parents=True, exist_ok=True)
        args = ["--allow-root"] if os.geteuid() == 0 else []
        settings = {
            "ip": "127.0.0.1", "port": self.port, "hub_ip": "127.0.0.1", "hub_port": free_port(),
            "proxy": proxy_command(), "root": str(self.root), "homes": str(self.homes), "python": python,
            "users": sorted(users), "admin": [self.teacher], "password": PASSWORD, "args": args,
            "service_port": self.service_port, "data": str(self.data), "base": self.base,
        }  # fmt: skip
        return f"""
import json
s = json.loads({json.dumps(json.dumps(settings))})
c.JupyterHub.ip = s["ip"]
c.JupyterHub.port = s["port"]
c.JupyterHub.hub_ip = s["hub_ip"]
c.JupyterHub.hub_port = s["hub_port"]
c.JupyterHub.db_url = "sqlite:///" + s["root"] + "/hub.sqlite"
c.JupyterHub.cookie_secret_file = s["root"] + "/cookie_secret"
c.ConfigurableHTTPProxy.command = [s["proxy"]]
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:%d" % {free_port()}
c.JupyterHub.authenticator_class = "dummy"
c.DummyAuthenticator.password = s["password"]
c.Authenticator.allowed_users = set(s["users"])
c.Authenticator.admin_users = set(s["admin"])
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = s["homes"] + "/{{username}}"
c.Spawner.cmd = [s["python"], "-m", "course.hub.singleuser"]
c.Spawner.args = s["args"]
c.Spawner.default_url = "/lab"
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
c.Spawner.environment = {{"REVERSI_CLASS_SERVER": s["base"] + "/services/reversi"}}
c.JupyterHub.services = [{{
    "name": "reversi", "url": "http://127.0.0.1:%d" % s["service_port"], "oauth_no_confirm": True,
    "command": [s["python"], "-m", "course.hub.service", "--data", s["data"]],
}}]
c.JupyterHub.load_roles = [{{"name": "user", "scopes": ["self", "access:services"]}}]
"""

    def start(self, timeout: float = 90) -> None:
        config = self.root / "jupyterhub_config.py"
        config.write_text(self.config())
        env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "jupyterhub", "-f", str(config)],
                cwd=self.root, stdout=out, stderr=subprocess.STDOUT, env=env,
            )  # fmt: skip
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            try:
                with urllib.request.urlopen(f"{self.base}/hub/api/", timeout=2):
                    if self._service_up():
                        return
            except OSError:
                pass
            time.sleep(0.3)
        self.stop()
        raise AssertionError(f"the hub did not start:\n{self.log.read_text()[-3000:]}")

    def _service_up(self) -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.service_port}/services/reversi/teacher", timeout=2):
                return True
        except OSError:
            return False

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.kill(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(5)

    def opener(self, user: str) -> urllib.request.OpenerDirector:
        """A logged-in HTTP client of ``user`` (cookies kept), its server started."""
        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        opener.open(f"{self.base}/hub/login", timeout=30).read()
        xsrf = next(c.value for c in jar if c.name == "_xsrf")
        form = urllib.parse.urlencode({"username": user, "password": PASSWORD, "_xsrf": xsrf}).encode()
        opener.open(f"{self.base}/hub/login?next=", form, timeout=120).read()
        return opener
