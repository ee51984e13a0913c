"""`flotilla up`: its metrics follow FLOTILLA_METRICS_PORT (a base port) and FLOTILLA_METRICS_ADDR, it
serves the web client at FLOTILLA_BROWSER_BIND (on by default; `off` turns it off), and with a TLS
gateway its health wait, matchmaker, demo and page speak TLS."""

from __future__ import annotations

import os
import signal
import ssl
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import trustme

from flotilla.cli import metrics_ports
from flotilla.redis_server import free_port
from support import listening_on

pytestmark = [pytest.mark.redis, pytest.mark.timeout(120)]


def test_metrics_ports_start_at_the_base() -> None:
    assert metrics_ports(9100, 2) == [9100, 9101, 9102, 9103]  # gateway, two workers, matchmaker
    assert metrics_ports(19000, 1) == [19000, 19001, 19002]
    assert metrics_ports(0, 2) == [0, 0, 0, 0]  # 0: no process serves metrics
    assert metrics_ports(9100, 2, gateways=2) == [9100, 9101, 9102, 9103, 9104]  # 2 gateway processes first


def tls_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """`flotilla up`'s environment for a TLS gateway whose CA is FLOTILLA_GATEWAY_CA (embedded Redis)."""
    ca = trustme.CA()
    cert = ca.issue_cert("127.0.0.1")
    for blob, name in (
        (ca.cert_pem, "ca.pem"),
        (cert.cert_chain_pems[0], "tls.crt"),
        (cert.private_key_pem, "tls.key"),
    ):
        blob.write_to_path(str(tmp_path / name))
    env = dict(
        os.environ,
        FLOTILLA_TLS_CERT=str(tmp_path / "tls.crt"),
        FLOTILLA_TLS_KEY=str(tmp_path / "tls.key"),
        FLOTILLA_GATEWAY_CA=str(tmp_path / "ca.pem"),
        FLOTILLA_HEALTH_BIND=f"127.0.0.1:{free_port()}",
        FLOTILLA_BROWSER_BIND=f"127.0.0.1:{free_port()}",  # not up's default 8080: tests run side by side
        FLOTILLA_LOG_FORMAT="json",
    )
    env.update(extra)
    env.pop("REDIS_URL", None)
    return env


def test_up_serves_tls_and_metrics_where_configured(tmp_path: Path) -> None:
    """Two gateway processes on the one port (their TLS health listener shared too), each with its metrics."""
    base, port = free_port(span=4), free_port()
    env = tls_env(tmp_path, FLOTILLA_METRICS_PORT=str(base), FLOTILLA_METRICS_ADDR="127.0.0.1")
    command = [sys.executable, "-m", "flotilla.cli", "up", "--workers", "1", "--gateways", "2", "--port", str(port)]
    with (tmp_path / "up.log").open("wb") as log:
        up = subprocess.Popen([*command, "--state-dir", str(tmp_path / "state")], env=env, stdout=log, stderr=log)
    try:
        deadline = time.monotonic() + 60
        while "Flotilla is up" not in (text := (tmp_path / "up.log").read_text()):  # its health wait over TLS
            assert up.poll() is None, text
            assert time.monotonic() < deadline, text
            time.sleep(0.1)
        assert f"-cacert {tmp_path / 'ca.pem'} 127.0.0.1:{port}" in text
        assert f"metrics: http://127.0.0.1:{base}-{base + 3}/metrics" in text
        assert "2 gateway processes, 1 worker." in text
        for i in range(4):  # 2 gateways, worker, matchmaker: each on its port from the base, on loopback only
            while not listening_on(base + i):
                log_now = (tmp_path / "up.log").read_text()
                assert time.monotonic() < deadline, f"nothing listens on {base + i}:\n{log_now}"
                time.sleep(0.1)
            assert listening_on(base + i) == {"127.0.0.1"}
        for gateway in (base, base + 1):
            with urllib.request.urlopen(f"http://127.0.0.1:{gateway}/metrics", timeout=5) as reply:
                assert b"flotilla_gateway_open_streams" in reply.read()
        page = f"https://{env['FLOTILLA_BROWSER_BIND']}/"  # the web client, over the gateway's TLS
        assert f"Play in your browser: {page}" in text
        trusted = ssl.create_default_context(cafile=str(tmp_path / "ca.pem"))
        with urllib.request.urlopen(page, timeout=5, context=trusted) as reply:
            assert reply.headers["content-type"] == "text/html; charset=utf-8"
            assert b"<title>Flotilla</title>" in reply.read()
    finally:
        up.send_signal(signal.SIGTERM)
        up.wait(30)


def test_up_demo_plays_over_tls(tmp_path: Path) -> None:
    """The demo's host, bots and verification all speak TLS to the gateway."""
    env = tls_env(tmp_path, FLOTILLA_METRICS_PORT="0", FLOTILLA_BROWSER_BIND="off")
    command = [sys.executable, "-m", "flotilla.cli", "up", "--workers", "1", "--port", str(free_port())]
    done = subprocess.run(
        [*command, "--demo", "--game", "counter", "--state-dir", str(tmp_path / "state")],
        env=env,
        capture_output=True,
        timeout=90,
        check=False,
    )
    out = done.stdout.decode()
    assert done.returncode == 0, out + done.stderr.decode()[-2000:]
    assert "dealing verified" in out
    assert "metrics:" not in out  # FLOTILLA_METRICS_PORT=0: no process serves metrics
    assert "Play in your browser" not in out  # FLOTILLA_BROWSER_BIND=off: no page
