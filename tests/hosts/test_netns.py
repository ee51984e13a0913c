"""The simulated-hosts harness itself (`hosts.netns`): hosts reach each other over the switch, a
cut is a black hole (both ways or one way) until healed, and everything made is cleaned up."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from hosts.netns import PREFIX, Host, Net, namespaces, sweep_stale

PORT = 7000


def _udp(host: Host) -> socket.socket:
    sock = host.call(socket.socket, socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind((host.address, PORT))
    sock.settimeout(0.5)
    return sock


def _arrives(sender: socket.socket, receiver: socket.socket, to: Host) -> bool:
    """Whether a datagram from `sender` reaches `receiver` (a few tries: a lost first one is ARP's)."""
    for n in range(4):
        sender.sendto(b"%d" % n, (to.address, PORT))
        try:
            receiver.recv(16)
        except TimeoutError:
            continue
        return True
    return False


def test_cuts_drop_packets_each_way_until_healed(net: Net) -> None:
    a, b = net.add("a"), net.add("b")
    sa, sb = _udp(a), _udp(b)
    try:
        assert _arrives(sa, sb, b)
        assert _arrives(sb, sa, a)
        net.cut(a, b, one_way=True)
        assert not _arrives(sa, sb, b), "a -> b was cut"
        assert _arrives(sb, sa, a), "b -> a was not"
        net.cut(a, b)
        assert not _arrives(sb, sa, a)
        listener = b.call(socket.create_server, (b.address, PORT))
        with pytest.raises(TimeoutError):  # a black hole: nothing is refused, the connect times out
            a.call(socket.create_connection, (b.address, PORT), 1.0)
        net.heal(a, b)
        assert _arrives(sa, sb, b)
        assert _arrives(sb, sa, a)
        a.call(socket.create_connection, (b.address, PORT), 5.0).close()
        listener.close()
        net.isolate(b)
        assert not _arrives(sa, sb, b)
        assert not _arrives(sb, sa, a)
        net.heal_all()
        assert _arrives(sa, sb, b)
    finally:
        sa.close()
        sb.close()


def test_processes_and_namespaces_are_gone_after_close(tmp_path: Path) -> None:
    with Net() as net:
        host = net.add("sleeper")
        proc = host.spawn([sys.executable, "-c", "import time; time.sleep(600)"], tmp_path / "sleeper.log")
        assert host.run(["ip", "-brief", "addr", "show", "eth0"]).split()[2] == f"{host.address}/24"
        made = [ns for ns in namespaces() if ns.startswith(net.prefix)]
        assert sorted(made) == sorted([net.switch, host.ns])
    assert proc.returncode is not None
    assert not [ns for ns in namespaces() if ns.startswith(net.prefix)]


def test_sweep_removes_only_namespaces_of_dead_runs() -> None:
    gone = os.getpid() + 1
    while os.path.exists(f"/proc/{gone}"):
        gone += 1
    stale, mine = f"{PREFIX}{gone}xabc-switch", f"{PREFIX}{os.getpid()}xabc-switch"
    for ns in (stale, mine):
        subprocess.run(["ip", "netns", "add", ns], check=True)
    try:
        swept = sweep_stale()
        assert stale in swept
        assert mine in namespaces()
    finally:
        for ns in (stale, mine):
            subprocess.run(["ip", "netns", "delete", ns], check=False, capture_output=True)
