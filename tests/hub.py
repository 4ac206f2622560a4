"""A real JupyterHub on 127.0.0.1 for the tests: the ``jupyterhub`` package, Node's
configurable-http-proxy (npm, installed once into build/hub-cache), JupyterHub's
SimpleLocalProcessSpawner starting ``python -m course.hub.singleuser`` for each user,
the DummyAuthenticator with an allowed list (a test authenticator, never for a school),
and the kit's class service (``python -m course.hub.service``) managed by the hub.

With ``admin_token``, a second service holds that API token and the scopes to make users
and their tokens (``admin:users``, ``tokens``, ``list:users``): :meth:`Hub.add_users` makes
students a benchmark can act for without a browser (benchmarks/hub_service.py).

Stopped by its PID (the hub stops the proxy, the service and the users' servers).
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

from tests.ports import free_port

REPO = Path(__file__).resolve().parents[1]
CACHE = REPO / "build" / "hub-cache"
PASSWORD = "class-password"
#: The service holding ``admin_token`` (no process, no URL: a token with scopes) and its scopes.
MANAGER = "hub-manager"
MANAGER_SCOPES = ("admin:users", "tokens", "list:users")


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

    def __init__(self, root: Path, students: tuple[str, ...] = ("ada", "grace"), teacher: str = "teach",
                 admin_token: str | None = None) -> None:  # fmt: skip
        self.root, self.students, self.teacher = root, students, teacher
        self.admin_token = admin_token
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
""" + (self.manager_config() if self.admin_token else "")

    def manager_config(self) -> str:
        """The config lines of the service that holds ``admin_token`` and its role."""
        service = {"name": MANAGER, "api_token": self.admin_token}
        role = {"name": MANAGER, "scopes": list(MANAGER_SCOPES), "services": [MANAGER]}
        return (f"c.JupyterHub.services.append(json.loads({json.dumps(json.dumps(service))}))\n"
                f"c.JupyterHub.load_roles.append(json.loads({json.dumps(json.dumps(role))}))\n")

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

    def api(self, method: str, path: str, body: object = None) -> object:
        """A call of the hub's REST API (``/hub/api`` + ``path``) with ``admin_token``; the JSON answer."""
        assert self.admin_token, "the hub was started without admin_token"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"{self.base}/hub/api{path}", data, method=method,
                                         headers={"Authorization": f"token {self.admin_token}",
                                                  "Content-Type": "application/json"})  # fmt: skip
        with urllib.request.urlopen(request, timeout=60) as answer:
            text = answer.read()
        return json.loads(text) if text else None

    def add_users(self, names: list[str], batch: int = 100) -> None:
        """Make hub users ``names`` (no server started for them)."""
        for start in range(0, len(names), batch):
            self.api("POST", "/users", {"usernames": names[start:start + batch]})

    def new_token(self, user: str, note: str = "benchmark") -> str:
        """A new API token of ``user`` (acts for them as their kernel's own token does)."""
        answer = self.api("POST", f"/users/{urllib.parse.quote(user)}/tokens", {"note": note})
        assert isinstance(answer, dict)
        return str(answer["token"])

    def children(self) -> list[int]:
        """The PIDs of the hub's child processes (the proxy, the service, users' servers), from /proc."""
        if self.process is None:
            return []
        found = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    status = (entry / "status").read_text()
                except OSError:
                    continue
                parent = next((line.split()[1] for line in status.splitlines() if line.startswith("PPid:")), "")
                if parent == str(self.process.pid):
                    found.append(int(entry.name))
        return found

    def service_pid(self) -> int:
        """The PID of the class service (the hub's child whose command line holds course.hub.service)."""
        for pid in self.children():
            try:
                command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"course.hub.service" in command:
                return pid
        raise LookupError("the hub has no course.hub.service process")

    def opener(self, user: str) -> urllib.request.OpenerDirector:
        """A logged-in HTTP client of ``user`` (cookies kept), its server started."""
        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        opener.open(f"{self.base}/hub/login", timeout=30).read()
        xsrf = next(c.value for c in jar if c.name == "_xsrf")
        form = urllib.parse.urlencode({"username": user, "password": PASSWORD, "_xsrf": xsrf}).encode()
        opener.open(f"{self.base}/hub/login?next=", form, timeout=120).read()
        return opener
