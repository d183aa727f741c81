"""Name resolution for the address-guard tests, in process: no DNS traffic.

``fake_getaddrinfo(table)`` is a ``socket.getaddrinfo`` that answers the
names of ``table`` (name -> list of addresses, or a callable of the port
asked for returning one: a name whose answer changes between lookups), says
that any other ``.test`` name does not exist, and passes every other name
to the real resolver. The tests install it with
``monkeypatch`` in their own process; a command run as a subprocess gets it
from this file as its ``sitecustomize`` (this folder on ``PYTHONPATH``) with
the table in ``$TEMEX_TEST_HOSTS``: ``name=address,name=address``.

Only names under ``.test`` (RFC 6761: never resolved on the Internet) are
used. This replaces the DNS server, not the guard under test.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable
from typing import Any

Table = dict[str, "list[str] | Callable[[Any], list[str]]"]


def fake_getaddrinfo(table: Table, real: Callable[..., Any] = socket.getaddrinfo
                     ) -> Callable[..., Any]:
    def getaddrinfo(host: Any, port: Any, family: int = 0, type: int = 0, proto: int = 0,
                    flags: int = 0) -> list[Any]:
        name = host.decode() if isinstance(host, bytes) else str(host or "")
        key = name.lower().rstrip(".")
        entry = table.get(key)
        if entry is None and key.endswith(".test"):
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        if entry is None:
            return list(real(host, port, family, type, proto, flags))
        addrs = entry(port) if callable(entry) else entry
        p = int(port) if port not in (None, "") else 0
        out = []
        for a in addrs:
            fam = socket.AF_INET6 if ":" in a else socket.AF_INET
            if family not in (0, socket.AF_UNSPEC, fam):
                continue
            sockaddr = (a, p, 0, 0) if fam == socket.AF_INET6 else (a, p)
            out.append((fam, type or socket.SOCK_STREAM, proto or socket.IPPROTO_TCP, "",
                        sockaddr))
        if not out:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return out

    return getaddrinfo


def _table_from_env(text: str) -> Table:
    table: Table = {}
    for item in text.split(","):
        name, sep, addr = item.partition("=")
        if sep:
            found = table.setdefault(name.strip().lower(), [])
            assert isinstance(found, list)
            found.append(addr.strip())
    return table


if os.environ.get("TEMEX_TEST_HOSTS"):
    socket.getaddrinfo = fake_getaddrinfo(_table_from_env(os.environ["TEMEX_TEST_HOSTS"]))
