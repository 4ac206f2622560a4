"""The site and hand-in routes, served by a small Starlette app of the test's own."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from course.contest import handins as contest_handins
from course.roster.signin import SignIns
from course.roster.store import RosterFile
from course.site.compression import COMPRESSIBLE, compress_site
from course.site.routes import ISOLATION, MIME_TYPES, content_type, known_exercises, site_routes
from course.site.signin_routes import Gate
from course.site.store import Flood, HandInStore

NOTEBOOK = {"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
FILES = {
    "index.html": b"<html>site</html>" * 100,
    "lab/index.html": b"<html>lab</html>",
    "static/pyodide/pyodide.asm.wasm": b"\x00asm" + b"\x01" * 5000,
    "static/pyodide/pyodide.mjs": b"export const x = 1;\n" * 200,
    "static/pyodide/reversi_kit-0.1.0-py3-none-any.whl": b"PK" + bytes(range(256)) * 10,
    "build/bundle.js": b"console.log(1);\n" * 200,
    "files/exercises/04_flips.ipynb": json.dumps(NOTEBOOK).encode(),
    "files/lessons/project_tournament.ipynb": json.dumps(NOTEBOOK).encode(),
    "files/lessons/01_play.ipynb": json.dumps(NOTEBOOK).encode(),
    "jupyter-lite.json": b"{}",
}


@pytest.fixture
def site(tmp_path: Path) -> Path:
    root = tmp_path / "site"
    for name, data in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    (tmp_path / "secret.txt").write_text("teacher only")
    compress_site(root)
    return root


@pytest.fixture
def client(site: Path, tmp_path: Path) -> TestClient:
    store = HandInStore(tmp_path / "data", known_exercises(site))
    app = Starlette(routes=site_routes(site, store, casual(tmp_path), Flood(limit=5, window=60)))
    return TestClient(app)


def casual(folder: Path) -> Gate:
    """A class without a roster: the first browser to give a name keeps it."""
    return Gate(SignIns(RosterFile(folder / "roster.json")))


def test_every_file_of_the_site_is_served_whole_with_its_type_and_headers(
    client: TestClient,
) -> None:
    for name, data in FILES.items():
        for encoding in ("identity", "gzip"):
            answer = client.get("/" + name, headers={"Accept-Encoding": encoding})
            assert answer.status_code == 200, name
            assert answer.content == data, name  # httpx undoes the gzip
            assert answer.headers["content-type"].split(";")[0] == content_type(Path(name)), name
            for header, value in ISOLATION.items():
                assert answer.headers[header] == value
            assert "etag" in answer.headers and "cache-control" in answer.headers


def test_mime_types_of_the_files_a_module_worker_and_webassembly_need(client: TestClient) -> None:
    assert (
        client.get("/static/pyodide/pyodide.asm.wasm").headers["content-type"] == "application/wasm"
    )
    assert (
        client.get("/static/pyodide/pyodide.mjs")
        .headers["content-type"]
        .startswith("text/javascript")
    )
    assert MIME_TYPES[".wasm"] == "application/wasm"


def test_gzip_is_sent_from_the_builds_copies_when_the_browser_accepts_it(
    client: TestClient, site: Path
) -> None:
    packed = [p for p in site.rglob("*.gz")]
    assert packed and all(Path(str(p)[:-3]).suffix in COMPRESSIBLE for p in packed)
    raw = client.get("/build/bundle.js", headers={"Accept-Encoding": "gzip"}, extensions={})
    assert raw.headers["content-encoding"] == "gzip"
    assert int(raw.headers["content-length"]) == len(
        gzip.compress(FILES["build/bundle.js"], 6, mtime=0)
    )
    plain = client.get("/build/bundle.js", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    assert not (
        site / "static/pyodide/reversi_kit-0.1.0-py3-none-any.whl.gz"
    ).exists()  # a wheel is zipped already


def test_caching_revalidates_with_etags_and_keeps_hashed_bundles(client: TestClient) -> None:
    first = client.get("/static/pyodide/pyodide.mjs", headers={"Accept-Encoding": "identity"})
    assert first.headers["cache-control"] == "no-cache"
    again = client.get(
        "/static/pyodide/pyodide.mjs",
        headers={"If-None-Match": first.headers["etag"], "Accept-Encoding": "identity"},
    )
    assert again.status_code == 304 and again.content == b""
    assert client.get("/build/bundle.js").headers["cache-control"] == "public, max-age=600"


def test_folders_redirect_then_serve_their_index(client: TestClient) -> None:
    answer = client.get("/lab?path=lessons/00_welcome.ipynb", follow_redirects=False)
    assert (
        answer.status_code == 307
        and answer.headers["location"] == "/lab/?path=lessons/00_welcome.ipynb"
    )
    assert client.get("/lab/").content == FILES["lab/index.html"]
    assert client.get("/").content == FILES["index.html"]


@pytest.mark.parametrize(
    "path",
    [
        "/../secret.txt",
        "/%2e%2e/secret.txt",
        "/lab/../../secret.txt",
        "/nothing.js",
        "/.hidden",
        "/lab/%00",
    ],
)
def test_nothing_outside_the_site_is_served(client: TestClient, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 404
    assert b"teacher only" not in answer.content


def test_only_get_and_head_on_files(client: TestClient) -> None:
    assert client.head("/index.html").status_code == 200
    assert client.put("/index.html", content=b"x").status_code == 405


def hand_in(client: TestClient, **fields: object):
    return client.post("/hand-in", content=json.dumps(fields).encode())


def test_a_hand_in_answers_with_its_receipt_and_lands_in_the_store(
    client: TestClient, tmp_path: Path
) -> None:
    answer = hand_in(client, student="Ada", exercise="04_flips", notebook=json.dumps(NOTEBOOK))
    assert answer.status_code == 200
    receipt = answer.json()["receipt"]
    assert (
        answer.json()["ok"] is True
        and receipt["student"] == "Ada"
        and receipt["exercise"] == "04_flips"
    )
    kept = list((tmp_path / "data" / "handins" / "ada" / "04_flips").glob("*.ipynb"))
    assert len(kept) == 1 and json.loads(kept[0].read_text()) == NOTEBOOK
    assert answer.headers["cross-origin-resource-policy"] == "same-origin"


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        (b"not json", 400, "the hand-in is not valid JSON"),
        (b"[1]", 400, "the hand-in must be a JSON object"),
        (b"[" * 1000, 400, "the hand-in nests deeper than"),
        (b"{" * 100_000, 400, "the hand-in nests deeper than"),
        (b'{"student": ' + b"[" * 1000 + b"]" * 1000 + b"}", 400, "nests deeper than"),
        (json.dumps({"student": "Ada", "exercise": "04_flips", "notebook": "[" * 1000}).encode(), 400,
         "the notebook nests deeper than"),
        (json.dumps({"student": "Ada", "exercise": "04_flips"}).encode(), 400, "needs the field 'notebook'"),
        (json.dumps({"student": 3, "exercise": "04_flips", "notebook": "{}"}).encode(), 400,
         "field 'student' of the hand-in must be str, not int"),
        (json.dumps({"student": "Ada", "exercise": "04_flips", "notebook": 3}).encode(), 400,
         "the notebook (an object) or its JSON text"),
        (
            json.dumps({"student": "Ada", "exercise": "04_flips", "notebook": "hello"}).encode(),
            400,
            "not a notebook",
        ),
        (
            json.dumps({"student": "A/da", "exercise": "04_flips", "notebook": "{}"}).encode(),
            400,
            "path separator",
        ),
        (
            json.dumps({"student": "Ada", "exercise": "07_greedy", "notebook": "{}"}).encode(),
            400,
            "no exercise",
        ),
        (b'{"notebook": "' + b"x" * 4_100_000 + b'"}', 413, "larger than"),
    ],
)
def test_every_refusal_is_a_message_for_the_student(
    client: TestClient, tmp_path: Path, body: bytes, status: int, message: str
) -> None:
    answer = client.post("/hand-in", content=body)
    assert answer.status_code == status
    assert answer.json()["ok"] is False and message in answer.json()["error"]
    assert not list((tmp_path / "data").rglob("*.ipynb"))


def test_the_project_player_is_handed_in_where_the_tournament_finds_it(
    client: TestClient, tmp_path: Path
) -> None:
    player = {**NOTEBOOK, "cells": [{"cell_type": "code", "metadata": {}, "outputs": [],
              "execution_count": None, "source": "def choose(board, color):\n    return 'd3'"}]}  # fmt: skip
    answer = hand_in(
        client, student="Ada", exercise="project_tournament", notebook=json.dumps(player)
    )
    assert answer.status_code == 200, answer.json()
    entrants, warnings = contest_handins.collect(tmp_path / "data" / "handins")
    assert [(e.name, e.cells) for e in entrants] == [("ada", (player["cells"][0]["source"],))]
    assert warnings == []
    refused = hand_in(client, student="Ada", exercise="01_play", notebook=json.dumps(NOTEBOOK))
    assert refused.status_code == 400 and "no exercise '01_play'" in refused.json()["error"]


def test_a_flood_from_one_address_is_refused(client: TestClient) -> None:
    codes = [
        hand_in(client, student="Ada", exercise="04_flips", notebook=NOTEBOOK).status_code
        for _ in range(7)
    ]
    assert codes == [200] * 5 + [429] * 2
    assert "too many hand-ins" in hand_in(client, student="Ada").json()["error"]


def test_the_hand_in_route_takes_only_post(client: TestClient) -> None:
    assert client.get("/hand-in").status_code == 405


def test_a_body_shorter_than_its_content_length_is_answered_quietly(
    site: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The sender went away mid-body: an answer (nobody reads it), no traceback, nothing kept."""
    import asyncio

    app = Starlette(routes=site_routes(site, HandInStore(tmp_path / "data", known_exercises(site)), casual(tmp_path)))
    parts = iter([
        {"type": "http.request", "body": b'{"student": "Ada", "exer', "more_body": True},
        {"type": "http.disconnect"},
    ])  # fmt: skip
    sent: list[dict[str, object]] = []

    async def receive() -> dict[str, object]:
        return next(parts)

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/hand-in", "headers": [(b"content-length", b"100")],
             "query_string": b"", "client": ("127.0.0.1", 5), "server": ("127.0.0.1", 80), "scheme": "http",
             "root_path": "", "http_version": "1.1", "app": app}  # fmt: skip
    asyncio.run(app(scope, receive, send))
    assert sent[0]["type"] == "http.response.start" and sent[0]["status"] == 400
    assert not [record for record in caplog.records if record.exc_info]
    assert not list((tmp_path / "data").rglob("*.ipynb"))
