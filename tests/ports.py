"""Ports for the servers a test starts on 127.0.0.1 and must name before they listen.

A port found by binding to port 0 comes from the system's ephemeral range, the range every
outgoing connection takes its own local port from.  Between the choice and the server's
``listen``, any connection on the machine may take it (a hub's own connections to its proxy
did: "the class server cannot listen on 127.0.0.1:37847: Address already in use"), so a port
is chosen outside that range, and never twice in one test process.
"""

from __future__ import annotations

import random
import socket
from pathlib import Path

#: Linux's own default, where the system does not say (macOS and Windows use 49152-65535).
DEFAULT_EPHEMERAL = (32768, 60999)
_given: set[int] = set()


def ephemeral() -> tuple[int, int]:
    """The system's range of ports for outgoing connections, lowest and highest."""
    try:
        low, high = (int(n) for n in Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split())
    except (OSError, ValueError):
        return DEFAULT_EPHEMERAL
    return low, high


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now, outside the ephemeral range."""
    low, high = ephemeral()
    below = range(10_000, min(low, DEFAULT_EPHEMERAL[0], 49152))
    above = range(max(high, DEFAULT_EPHEMERAL[1]) + 1, 65_000)
    ports = below if len(below) >= len(above) else above
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
    with socket.socket() as probe:  # a system whose ephemeral range leaves nothing outside it
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
