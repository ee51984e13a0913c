"""`flotilla up`: its metrics follow FLOTILLA_METRICS_PORT (a base port) and FLOTILLA_METRICS_ADDR, it
serves the web client at FLOTILLA_BROWSER_BIND (on by default; `off` turns it off), with a TLS
gateway its health wait, matchmaker, demo and page speak TLS, and its embedded Redis is private
(a password, ACL users, files only its user can read: flotilla/redis_acl.py)."""

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
from flotilla.redis_acl import ADMIN_USER, APP_USER, PASSWORDS_FILE, URL_FILE, RedisUsers
from flotilla.redis_server import embedded_redis, free_port
from support import ask, listening_on

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
    """The demo's host, bots and verification all speak TLS to the gateway; the game plays on the
    private embedded Redis (its ACL user), whose state directory an older run had left open."""
    env = tls_env(tmp_path, FLOTILLA_METRICS_PORT="0", FLOTILLA_BROWSER_BIND="off")
    command = [sys.executable, "-m", "flotilla.cli", "up", "--workers", "1", "--port", str(free_port())]
    state = tmp_path / "state"
    older_state(state)
    done = subprocess.run(
        [*command, "--demo", "--game", "counter", "--state-dir", str(state)],
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
    users = RedisUsers.load_or_create(state / PASSWORDS_FILE)
    assert f"Redis at redis://{APP_USER}:***@127.0.0.1:" in out
    assert users.app_password not in out + done.stderr.decode()
    assert (state / URL_FILE).read_text().startswith(f"redis://{APP_USER}:{users.app_password}@127.0.0.1:")
    assert_private(state, PASSWORDS_FILE, URL_FILE, "redis/users.acl")


def assert_private(top: Path, *files: str) -> None:
    """`top` and every directory under it are 0700, every file 0600 (the AOF is one file on Redis 6.2,
    a directory of them on 7), and `files` are there."""
    found = {p: p.stat().st_mode & 0o777 for p in (top, *top.rglob("*"))}
    assert {top / name for name in files} <= set(found)
    assert found == {p: 0o700 if p.is_dir() else 0o600 for p in found}


def older_state(state: Path) -> None:
    """A state directory as an older `flotilla up` left it: 0755, its AOF and log 0644."""
    (state / "redis").mkdir(parents=True)
    for name in ("redis/appendonly.aof", "redis/redis.log"):
        (state / name).write_bytes(b"")
        (state / name).chmod(0o644)
    for directory in (state, state / "redis"):
        directory.chmod(0o755)


REFUSALS = (b"NOPERM", b"can't run this command", b"DEBUG command not allowed")  # (a script's; Redis 7's DEBUG)
DANGEROUS = (
    (b"CONFIG", b"SET", b"dir", b"/tmp"),
    (b"SAVE",),
    (b"BGSAVE",),
    (b"ACL", b"LIST"),
    (b"MODULE", b"LIST"),
    (b"DEBUG", b"SLEEP", b"0"),
    (b"FLUSHALL",),
    (b"KEYS", b"*"),
    (b"SHUTDOWN", b"NOSAVE"),
    (b"MONITOR",),
    (b"SCRIPT", b"FLUSH"),
    (b"CLIENT", b"KILL", b"TYPE", b"normal"),
    (b"EVAL", b"return redis.call('FLUSHALL')", b"0"),  # not from a script either
)


def test_the_embedded_redis_refuses_strangers_and_the_app_user_cannot_touch_the_server(tmp_path: Path) -> None:
    """No password: NOAUTH. The application's user: no CONFIG SET dir, SAVE, ACL, MODULE, ... (the
    attack of issue 23 point 9: write files as Flotilla's user); its data commands work. The
    password is on no command line, and what an older run left readable is closed."""
    state = tmp_path / "state"
    older_state(state)
    server = embedded_redis(state).start()
    assert server.users is not None
    users = server.users
    try:
        assert ask(server.port, b"PING").startswith(b"-NOAUTH")
        assert ask(server.port, b"SET", b"k", b"v").startswith(b"-NOAUTH")
        app = {"user": APP_USER.encode(), "password": users.app_password.encode()}
        assert ask(server.port, b"PING", user=APP_USER.encode(), password=b"wrong").startswith(b"-NOAUTH")
        for command in DANGEROUS:
            reply = ask(server.port, *command, **app)
            assert reply.startswith(b"-"), command
            assert any(why in reply for why in REFUSALS), reply
        assert ask(server.port, b"SET", b"k", b"v", **app) == b"+OK\r\n"
        assert ask(server.port, b"CONFIG", b"GET", b"dir", **app).startswith(b"-NOPERM")  # nothing changed it
        admin = {"user": ADMIN_USER.encode(), "password": users.admin_password.encode()}
        assert ask(server.port, b"CONFIG", b"GET", b"dir", **admin).endswith(str(state / "redis").encode() + b"\r\n")
        assert ask(server.port, b"DBSIZE", **admin) == b":1\r\n"  # FLUSHALL refused: the key is still there
        assert server.process is not None
        command_line = Path(f"/proc/{server.process.pid}/cmdline").read_bytes()
        assert users.app_password.encode() not in command_line
        assert users.admin_password.encode() not in command_line
        assert server.url == f"redis://{APP_USER}:{users.app_password}@127.0.0.1:{server.port}/0"
    finally:
        server.stop()
    assert_private(state, PASSWORDS_FILE, "redis/redis.log", "redis/users.acl")  # and the AOF, whatever its form
    assert users.app_password not in (state / "redis" / "users.acl").read_text()  # only its SHA-256
    assert RedisUsers.load_or_create(state / PASSWORDS_FILE) == users  # made once, kept across restarts
