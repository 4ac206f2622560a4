"""The class server run for a class: it serves until stopped and tells the teacher what to type.

:func:`run` serves until Ctrl-C or SIGTERM.  The standard library alone finds this
computer's addresses (on Windows, macOS and Linux); :func:`ready_lines` turns them into
the lines printed once the server listens: the addresses students type, the teacher's
page with its key, where hand-ins and games are kept.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket as sockets
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from starlette.routing import BaseRoute, Match

from course.classroom.lobby import Identify
from course.classroom.overview import Section
from course.classroom.people import Limits, RoomSettings
from course.classroom.server import ClassServer, build_app
from course.i18n import gettext as _

#: Hosts that mean "every address of this computer".
EVERYWHERE = ("0.0.0.0", "::")
#: An address of TEST-NET-1 (RFC 5737, never routed): "connecting" a UDP socket to it sends
#: nothing, but makes the system choose the interface it would send from, its main address.
PROBE = ("192.0.2.1", 9)
#: What students type when this computer's address could not be found.
UNKNOWN = "<this computer's address>"  # translated where it is shown


def machine_addresses() -> list[str]:
    """This computer's IPv4 addresses that other machines may reach, its main one first.

    The standard library alone, on Windows, macOS and Linux: the main address (the UDP
    trick of :data:`PROBE`), then every address the computer's name has.  Loopback
    (127.x) is left out; ``[]`` when nothing else is found (no network).
    """
    found = []
    with contextlib.suppress(OSError), sockets.socket(sockets.AF_INET, sockets.SOCK_DGRAM) as probe:
        probe.connect(PROBE)
        found.append(str(probe.getsockname()[0]))
    with contextlib.suppress(OSError):
        for *_, address in sockets.getaddrinfo(sockets.gethostname(), None, sockets.AF_INET):
            found.append(str(address[0]))
    return reachable(found)


def reachable(addresses: Sequence[str]) -> list[str]:
    """``addresses`` without repeats, loopback (127.x) and the unspecified 0.0.0.0, in order.

    >>> reachable(["192.168.1.20", "127.0.1.1", "10.0.0.5", "192.168.1.20", "0.0.0.0"])
    ['192.168.1.20', '10.0.0.5']
    """
    kept: list[str] = []
    for address in addresses:
        if address not in kept and not address.startswith("127.") and address != "0.0.0.0":
            kept.append(address)
    return kept


def answers(route: BaseRoute, path: str) -> bool:
    """Whether ``route`` answers a browser's ``GET path`` (the browser classroom answers ``/``)."""
    scope = {"type": "http", "path": path, "method": "GET", "root_path": ""}
    return route.matches(scope)[0] is Match.FULL


def ready_lines(
    host: str, port: int, machine: Sequence[str], key: str, data: str, site: bool
) -> list[str]:
    """What the teacher reads once the server listens: the addresses students type, the
    teacher's page with its key, where hand-ins and games are kept.

    ``machine`` is this computer's addresses (:func:`machine_addresses`), used when
    ``host`` is every address (0.0.0.0); ``data`` is the database folder (or ``:memory:``);
    ``site`` says whether the browser classroom is served at ``/``.

    >>> for line in ready_lines("0.0.0.0", 8765, ["192.168.1.20", "10.0.0.5"], "K3y", "/srv/class", True):
    ...     print(line)
    Students open one of these addresses in a browser (the one of the network they are on):
      http://192.168.1.20:8765/
      http://10.0.0.5:8765/
    In a notebook of their own, students join with:  from course import join; join("ws://192.168.1.20:8765", room="table-1", name="Ada")
    Teacher key: K3y
    Teacher's page (on this computer): http://127.0.0.1:8765/teacher#key=K3y
    Hand-ins and games are kept in /srv/class
    """
    everywhere = host in EVERYWHERE
    unknown = _(UNKNOWN)
    hosts = [f"[{h}]" if ":" in h else h for h in (machine if everywhere else [host])] or [unknown]
    note = []
    if hosts == [unknown]:
        note = [_("  (no network address of this computer was found: see its network settings)")]
    elif not everywhere and (host.startswith("127.") or host in ("localhost", "::1")):
        note = [_("  (this computer only: --host 0.0.0.0 lets the students' machines in)")]
    lines = []
    if site and len(hosts) == 1:
        opened = _("Students open this address in a browser: {url}")
        lines += [opened.format(url=f"http://{hosts[0]}:{port}/"), *note]
    elif site:
        lines.append(_("Students open one of these addresses in a browser (the one of the network they are on):"))
        lines += [f"  http://{h}:{port}/" for h in hosts]
    joining = _("In a notebook of their own, students join with:") if site else _("Students join with:")
    lines.append(f'{joining}  from course import join; join("ws://{hosts[0]}:{port}", room="table-1", name="Ada")')
    if not site:
        others = [_("  (or with another address of this computer: {addresses})").format(
            addresses=", ".join(hosts[1:]))]  # fmt: skip
        lines += others if len(hosts) > 1 else note
    local = ("127.0.0.1" if host == "0.0.0.0" else "[::1]") if everywhere else hosts[0]
    lines.append(_("Teacher key: {key}").format(key=key))
    page = f"http://{local}:{port}/teacher#key={key}"
    lines.append((_("Teacher's page (on this computer): {url}") if everywhere
                  else _("Teacher's page: {url}")).format(url=page))  # fmt: skip
    if data == ":memory:":
        lines.append(_("Nothing is kept: the database is in memory"))
    elif site:
        lines.append(_("Hand-ins and games are kept in {folder}").format(folder=data))
    else:
        lines.append(_("Games are kept in {folder} (no hand-ins without the browser classroom)").format(
            folder=data))  # fmt: skip
    return lines


async def run(
    host: str,
    port: int,
    data: Path,
    settings: RoomSettings,
    print_: Callable[[str], Any] = print,
    extra_routes: Sequence[BaseRoute] = (),
    sections: Sequence[Section] = (),
    limits: Limits | None = None,
    identify: Identify | None = None,
) -> None:
    """Serve until cancelled (Ctrl-C) or SIGTERM, printing what the teacher needs to know.

    Once the server listens: the addresses students type (every address of this computer
    when ``host`` is 0.0.0.0), the teacher's page with its key, where hand-ins and games
    are kept (see :func:`~course.classroom.announce.ready_lines`), and how to stop.
    """
    server = ClassServer(data, settings, limits=limits, identify=identify)
    app = build_app(server, extra_routes=extra_routes, sections=sections)
    # SIGTERM stops cleanly from the start: the server answers while it is still starting.
    stop = asyncio.get_running_loop().create_future()
    with contextlib.suppress(NotImplementedError):
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.cancel)
    url = await server.start(host, port, app)
    clock = (_("no move clock") if settings.move_time is None
             else _("{seconds:g} s per move").format(seconds=settings.move_time))  # fmt: skip
    print_(_("Class server listening on {url} ({clock}; seats held {seconds:g} s)").format(
        url=url, clock=clock, seconds=settings.grace))  # fmt: skip
    # Looking the name up may wait for a slow DNS: in a thread, while the server serves.
    machine = await asyncio.to_thread(machine_addresses) if host in EVERYWHERE else []
    kept = str(data) if str(data) == ":memory:" else str(Path(data).resolve())
    site = any(answers(route, "/") for route in extra_routes)
    for line in ready_lines(host, int(url.rsplit(":", 1)[1]), machine, server.teacher_key, kept, site):
        print_(line)
    if server.resumed:
        print_(_("Resumed games in rooms: {rooms}").format(rooms=", ".join(server.resumed)))
    for line in server.storage.set_aside:
        print_(_("Set aside (kept in the database, table set_aside): {what}").format(what=line))
    print_(_("Press Ctrl-C to stop."))
    try:
        await stop
    except asyncio.CancelledError:
        pass
    finally:
        await server.close()
        storage = server.storage
        mean = 1000 * storage.write_seconds / max(1, storage.writes)
        print_(_("Stored {writes} changes ({mean:.2f} ms each on average); "
                 "{received} messages in, {sent} out.").format(writes=storage.writes, mean=mean,
               received=server.messages_in, sent=server.messages_out))  # fmt: skip
        print_(_("Class server stopped; everything is stored."))
