"""Ports for the servers a test starts on 127.0.0.1 and must name before they listen.

A port found by binding to port 0 comes from the system's ephemeral range, the range every
outgoing connection takes its own local port from.  Between the choice and the server's
``listen``, any connection on the machine may take it (a hub's own connections to its proxy
did: "the class server cannot listen on 127.0.0.1:37847: Address already in use"), so a port
is chosen below that range, and never twice in one test process.
"""

from __future__ import annotations

import random
import socket
from pathlib import Path

#: The lowest port of Linux's own default range, where the system does not say (macOS and
#: Windows start theirs higher, at 49152).
LINUX_EPHEMERAL_LOW = 32768
_given: set[int] = set()


def lowest_ephemeral() -> int:
    """The lowest port of the system's range for outgoing connections."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return LINUX_EPHEMERAL_LOW


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now, below the ephemeral range."""
    ports = range(10_000, min(lowest_ephemeral(), LINUX_EPHEMERAL_LOW))
    choices = random.Random()  # seeded from the system: test processes do not agree
    for _ in range(200 if ports else 0):
        port = choices.choice(ports)
        if port in _given:
            continue
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
        _given.add(port)
        return port
    with socket.socket() as probe:  # a system whose ephemeral range leaves nothing below it
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
