"""helm/flotilla rendered by Helm's own engine: lint, Kubernetes schemas, and the properties the
chart promises (probes, drain, PDBs, security, autoscaling, secrets) for default and tuned values."""

from __future__ import annotations

import base64
import inspect
import re
from typing import Any

import helm_python as helm
import jsonschema  # type: ignore[import-untyped]
import kubernetes_validate  # type: ignore[import-untyped]
import pytest
import yaml
from chart_support import (
    CHART,
    KEDA_API,
    RELEASE,
    Manifest,
    Render,
    container,
    deployment,
    env_of,
    find,
    one,
    process_env_vars,
)
from keda_schema import SCHEMAS

from flotilla.cli import build_parser
from flotilla.games import REGISTRY, served
from flotilla.gateway.server import SERVICES, Gateway
from flotilla.store import keys

FULL = f"{RELEASE}-flotilla"
# The oldest Kubernetes the chart supports (Chart.yaml kubeVersion; native gRPC probes) and the newest
# schemas kubernetes-validate ships.
KUBE_VERSIONS = ("1.27", kubernetes_validate.latest_version())

# Value sets the properties are checked on: the defaults and tuned ones.
SCENARIOS: dict[str, tuple[dict[str, Any], tuple[str, ...]]] = {
    "default": ({}, ()),
    "keda-detected": ({}, (KEDA_API,)),
    "keda-forced-secrets": (
        {
            "redis": {
                "url": "rediss://flotilla@redis.prod.svc:6380/1",
                "existingSecret": "redis-auth",
                "existingSecretPasswordKey": "password",
            },
            "secret": {"existingSecret": "flotilla-tokens", "existingSecretKey": "key"},
            "config": {"shards": 2, "submitTimeoutSeconds": 5, "logFormat": "console", "waitReplicas": 1},
            "worker": {
                "autoscaling": {"mode": "keda", "minReplicas": 0, "maxReplicas": 50, "keda": {"lagPerWorker": 20}}
            },
        },
        (),
    ),
    "hpa-forced-tuned": (
        {
            "image": {"repository": "registry.example/flotilla", "tag": "1.2.3"},
            "redis": {"existingSecret": "redis-url", "existingSecretUrlKey": "url"},
            "gateway": {
                "replicas": 4,
                "preStopSleepSeconds": 10,
                "terminationGracePeriodSeconds": 45,
                "autoscaling": {"enabled": True, "minReplicas": 3, "maxReplicas": 12},
                "pdb": {"maxUnavailable": "25%"},
                "service": {"type": "LoadBalancer", "headless": False, "annotations": {"a": "b"}},
                "topologySpreadConstraints": [
                    {
                        "maxSkew": 1,
                        "topologyKey": "topology.kubernetes.io/zone",
                        "whenUnsatisfiable": "ScheduleAnyway",
                        "labelSelector": {"matchLabels": {"app.kubernetes.io/component": "gateway"}},
                    }
                ],
            },
            "worker": {
                "autoscaling": {"mode": "hpa", "targetCPUUtilizationPercentage": 60},
                "livenessProbe": {"exec": {"command": ["flotilla", "--help"]}, "periodSeconds": 30},
                "terminationGracePeriodSeconds": 60,
            },
            "matchmaker": {"replicas": 2, "pdb": {"enabled": False}},
            "extraEnv": [{"name": "FLOTILLA_HEARTBEAT", "value": "5"}],
            "nodeSelector": {"pool": "games"},
            "tolerations": [{"key": "games", "operator": "Exists", "effect": "NoSchedule"}],
        },
        (KEDA_API,),
    ),
    "managed-redis-no-autoscaling": (
        {
            "redis": {"managed": {"enabled": True, "maxmemory": "1gb"}},
            "worker": {"autoscaling": {"enabled": False}, "replicas": 3},
            "matchmaker": {"enabled": False},
            "serviceAccount": {"create": False},
        },
        (KEDA_API,),
    ),
    "tls-mtls": (
        {
            "tls": {
                "enabled": True,
                "secretName": "gateway-tls",
                "clientCA": {"secretName": "client-ca", "key": "ca.pem"},
                "matchmaker": {"clientSecretName": "matchmaker-client", "serverName": "play.example.org"},
            },
            "gateway": {
                "healthPort": 9000,
                "browser": {"enabled": True, "port": 8443, "corsOrigins": "https://play.example.org"},
            },
            "metrics": {"addr": "127.0.0.1"},
        },
        (),
    ),
    "managed-redis-with-password": (
        {
            "redis": {
                "managed": {"enabled": True, "persistence": {"enabled": False}},
                "existingSecret": "redis-auth",
                "existingSecretPasswordKey": "password",
            },
        },
        (KEDA_API,),
    ),
}


_RENDERED: dict[str, list[Manifest]] = {}


@pytest.fixture(params=sorted(SCENARIOS))
def scenario(request: pytest.FixtureRequest, render: Render) -> tuple[dict[str, Any], list[Manifest]]:
    """A scenario's values and manifests (rendered once per session; tests only read them)."""
    name: str = request.param
    values, api_versions = SCENARIOS[name]
    if name not in _RENDERED:
        _RENDERED[name] = render(values, api_versions)
    return values, _RENDERED[name]


def workloads(manifests: list[Manifest]) -> list[Manifest]:
    return [m for m in manifests if m["kind"] in ("Deployment", "StatefulSet")]


def flotilla_deployments(manifests: list[Manifest]) -> dict[str, Manifest]:
    return {
        m["spec"]["template"]["metadata"]["labels"]["app.kubernetes.io/component"]: m
        for m in find(manifests, "Deployment")
    }


# --- lint and schemas ----------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_helm_lint_is_clean(name: str) -> None:
    values, _ = SCENARIOS[name]
    report = helm.lint(CHART, values, strict=True, kube_version="v1.27.0")
    assert report["errors"] == []
    problems = [m for m in report["messages"] if m["severity"] >= 2]
    assert problems == []
    assert report["total_charts_linted"] == 1


def test_every_manifest_matches_the_kubernetes_schemas(scenario: tuple[dict[str, Any], list[Manifest]]) -> None:
    _, manifests = scenario
    assert manifests
    for manifest in manifests:
        if manifest["apiVersion"] == KEDA_API:
            jsonschema.validate(manifest, SCHEMAS[manifest["kind"]])
            continue
        for version in KUBE_VERSIONS:
            kubernetes_validate.validate(manifest, version, strict=True)


def test_values_schema_rejects_bad_values(chart: helm.Chart) -> None:
    chart.validate_schema({})
    bad: list[dict[str, Any]] = [
        {"config": {"shards": 0}},
        {"worker": {"autoscaling": {"mode": "sometimes"}}},
        {"gateway": {"replicas": -1}},
        {"redis": {"url": "http://redis:6379"}},
        {"redis": {"managed": {"appendfsync": "no"}}},  # `no` leaves fsync to the OS: 30 s of moves at risk
        {"worker": {"autoscaling": {"keda": {"games": ["Sail Away"]}}}},
        {"gateway": {"pdb": {"maxUnavailable": "half"}}},
        {"gatway": {"replicas": 2}},  # a misspelt key is refused, not ignored
        {"tls": {"enable": True}},
        {"gateway": {"healthPort": 80}},
        {"metrics": {"addr": ""}},
        {"gateway": {"processes": -1}},
    ]
    for values in bad:
        with pytest.raises(helm.HelmValuesError):
            chart.validate_schema(values)


# --- processes, commands and environment ---------------------------------------------------------
def cli_has(command: str) -> bool:
    """Is `flotilla <command>` a subcommand (parsed without running it)?"""
    try:
        build_parser().parse_args([command])
    except SystemExit:
        return False
    return True


@pytest.mark.parametrize("component", ["gateway", "worker", "matchmaker"])
def test_each_deployment_runs_a_flotilla_command(render: Render, component: str) -> None:
    c = container(deployment(render(), component))
    assert c["args"] == [component]  # the image's ENTRYPOINT is `flotilla`
    if component == "matchmaker" and not cli_has(component):
        pytest.skip("`flotilla matchmaker` has not landed in the CLI yet")
    assert cli_has(component)


def test_one_image_and_only_known_env(scenario: tuple[dict[str, Any], list[Manifest]]) -> None:
    _, manifests = scenario
    known = process_env_vars() | {"REDIS_PASSWORD", "REDIS_USERNAME"}  # the last two: chart plumbing
    if not cli_has("matchmaker"):
        known.add("FLOTILLA_GATEWAY")  # read by `flotilla matchmaker`, which lands with its own work
    deployments = flotilla_deployments(manifests)
    assert {"gateway", "worker"} <= set(deployments)
    assert len({container(d)["image"] for d in deployments.values()}) == 1
    for component, workload in deployments.items():
        unknown = set(env_of(workload)) - known
        assert not unknown, f"{component} sets variables no process reads: {unknown}"
        assert ("FLOTILLA_BIND" in env_of(workload)) == (component == "gateway")


def test_every_process_shares_the_settings(scenario: tuple[dict[str, Any], list[Manifest]]) -> None:
    values, manifests = scenario
    envs = [env_of(d) for d in flotilla_deployments(manifests).values()]
    shared = ("REDIS_URL", "FLOTILLA_SECRET", "FLOTILLA_SHARDS", "FLOTILLA_SUBMIT_TIMEOUT", "FLOTILLA_LOG_FORMAT")
    for name in (*shared, "FLOTILLA_WAIT_REPLICAS", "FLOTILLA_WAIT_TIMEOUT_MS"):
        assert all(env[name] == envs[0][name] for env in envs), name
    shards = values.get("config", {}).get("shards", 4)
    assert envs[0]["FLOTILLA_SHARDS"]["value"] == str(shards)
    assert envs[0]["FLOTILLA_WAIT_REPLICAS"]["value"] == str(values.get("config", {}).get("waitReplicas", 0))


# --- probes and drain ----------------------------------------------------------------------------
def test_gateway_has_native_grpc_probes_on_the_health_service(
    scenario: tuple[dict[str, Any], list[Manifest]],
) -> None:
    values, manifests = scenario
    c = container(deployment(manifests, "gateway"))
    ports = {p["name"]: p["containerPort"] for p in c["ports"]}
    env = env_of(deployment(manifests, "gateway"))
    assert env["FLOTILLA_BIND"]["value"] == f"[::]:{ports['grpc']}"
    tls = values.get("tls", {}).get("enabled", False)
    browser = values.get("gateway", {}).get("browser", {}).get("enabled", False)  # the browser listener
    assert {p for p in ports if not p.startswith("metrics")} == (
        {"grpc"} | ({"health"} if tls else set()) | ({"browser"} if browser else set())
    )
    if tls:  # probes cannot speak TLS: they ask the plaintext health-only listener
        assert env["FLOTILLA_HEALTH_BIND"]["value"] == f"[::]:{ports['health']}"
    for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
        grpc = c[probe]["grpc"]
        assert grpc["port"] == ports["health" if tls else "grpc"]
        assert grpc.get("service", "") in ("", *SERVICES)  # names the gateway reports SERVING


@pytest.mark.parametrize(("processes", "metrics_ports"), [(1, [9100]), (3, [9100, 9101, 9102]), (0, [9100])])
def test_gateway_processes_per_pod_each_expose_their_metrics_port(
    render: Render, processes: int, metrics_ports: list[int]
) -> None:
    """FLOTILLA_GATEWAY_PROCESSES processes share the gRPC port; process i serves /metrics on 9100 + i,
    a named container port each (0: sized in the pod, only the first is known)."""
    workload = deployment(render({"gateway": {"processes": processes}}), "gateway")
    assert env_of(workload)["FLOTILLA_GATEWAY_PROCESSES"]["value"] == str(processes)
    ports = {p["name"]: p["containerPort"] for p in container(workload)["ports"]}
    assert sorted(v for k, v in ports.items() if k.startswith("metrics")) == metrics_ports
    assert ports["metrics"] == 9100


def test_metrics_listen_where_prometheus_scrapes(scenario: tuple[dict[str, Any], list[Manifest]]) -> None:
    """Processes default to loopback; the chart binds every pod address (Prometheus scrapes pod IPs)
    unless `metrics.addr` says otherwise."""
    values, manifests = scenario
    addr = values.get("metrics", {}).get("addr", "0.0.0.0")
    for component, workload in flotilla_deployments(manifests).items():
        assert env_of(workload)["FLOTILLA_METRICS_ADDR"]["value"] == addr, component


def test_browser_listener_gets_its_env_container_port_and_service_port(render: Render) -> None:
    """gateway.browser (docs/browser-transport.md): off by default; on, FLOTILLA_BROWSER_BIND and its
    CORS origins, a `browser` container port and the same port on the gateway Service."""
    default = render({})
    assert "FLOTILLA_BROWSER_BIND" not in env_of(deployment(default, "gateway"))
    manifests = render(SCENARIOS["tls-mtls"][0])
    env = env_of(deployment(manifests, "gateway"))
    assert env["FLOTILLA_BROWSER_BIND"]["value"] == "[::]:8443"
    assert env["FLOTILLA_BROWSER_CORS_ORIGINS"]["value"] == "https://play.example.org"
    ports = {p["name"]: p["containerPort"] for p in container(deployment(manifests, "gateway"))["ports"]}
    assert ports["browser"] == 8443
    service = one(manifests, "Service", f"{FULL}-gateway")
    assert {"name": "browser", "port": 8443, "targetPort": "browser", "protocol": "TCP"} in service["spec"]["ports"]


def test_identity_values_reach_the_gateways_and_impossible_ones_are_refused(render: Render) -> None:
    """identity.*: off by default (guests on, no provider); a provider and the web client's sign-in
    set FLOTILLA_OIDC_* and FLOTILLA_WEB_OIDC_* on the gateways only."""
    default = env_of(deployment(render({}), "gateway"))
    assert not {"FLOTILLA_GUESTS", "FLOTILLA_OIDC_ISSUER", "FLOTILLA_WEB_OIDC_CLIENT_ID"} & set(default)
    issuer = {"issuer": "https://id.example.org/", "audience": "web", "jwksUrl": "https://id.example.org/jwks"}
    values = {"identity": {"guests": False, "oidc": issuer, "web": {"clientId": "web", "provider": "Example ID"}}}
    manifests = render(values)
    env = {name: spec["value"] for name, spec in env_of(deployment(manifests, "gateway")).items() if "value" in spec}
    assert env["FLOTILLA_GUESTS"] == "off"
    assert (env["FLOTILLA_OIDC_ISSUER"], env["FLOTILLA_OIDC_AUDIENCE"]) == ("https://id.example.org/", "web")
    assert env["FLOTILLA_OIDC_JWKS_URL"] == "https://id.example.org/jwks"
    assert (env["FLOTILLA_WEB_OIDC_CLIENT_ID"], env["FLOTILLA_WEB_OIDC_SCOPES"]) == ("web", "openid profile")
    assert env["FLOTILLA_WEB_OIDC_PROVIDER"] == "Example ID"
    assert "FLOTILLA_OIDC_ISSUER" not in env_of(deployment(manifests, "worker"))
    with pytest.raises(helm.HelmRenderError, match=r"identity\.web\.clientId needs identity\.oidc\.issuer"):
        render({"identity": {"web": {"clientId": "web"}}})
    with pytest.raises(helm.HelmRenderError, match=r"needs identity\.oidc\.audience"):
        render({"identity": {"oidc": {"issuer": "https://id.example.org/"}}})


def test_tls_mounts_the_certificates_where_the_settings_point(render: Render) -> None:
    values = SCENARIOS["tls-mtls"][0]
    manifests = render(values)
    for component, secrets in (
        ("gateway", {"gateway-tls", "client-ca"}),
        ("matchmaker", {"gateway-tls", "matchmaker-client"}),  # the CA (ca.crt) of the gateways' Secret
    ):
        workload = deployment(manifests, component)
        spec = workload["spec"]["template"]["spec"]
        volumes = {v["name"]: v["secret"] for v in spec["volumes"] if "secret" in v}
        assert {v["secretName"] for v in volumes.values()} == secrets
        mounts = {m["name"]: m["mountPath"] for m in container(workload)["volumeMounts"]}
        for name, entry in env_of(workload).items():
            value = entry.get("value", "")
            if name.startswith(("FLOTILLA_TLS_", "FLOTILLA_GATEWAY_")) and value.startswith("/"):
                assert any(value.startswith(mounts[v] + "/") for v in volumes), f"{component}: {name}={value}"
    spec = deployment(manifests, "matchmaker")["spec"]["template"]["spec"]
    gateway_ca = {v["name"]: v["secret"] for v in spec["volumes"] if "secret" in v}
    assert gateway_ca["gateway-ca"]["items"] == [{"key": "ca.crt", "path": "ca.crt"}]  # never the gateways' key
    gw, mm = env_of(deployment(manifests, "gateway")), env_of(deployment(manifests, "matchmaker"))
    assert gw["FLOTILLA_TLS_CLIENT_CA"]["value"] == "/etc/flotilla/client-ca/ca.pem"
    assert mm["FLOTILLA_GATEWAY_SERVER_NAME"]["value"] == "play.example.org"
    assert {"FLOTILLA_GATEWAY_TLS", "FLOTILLA_GATEWAY_CERT", "FLOTILLA_GATEWAY_KEY"} <= set(mm)
    plain = render()
    assert not {n for n in env_of(deployment(plain, "gateway")) if n.startswith(("FLOTILLA_TLS_", "FLOTILLA_HEALTH"))}
    assert not {n for n in env_of(deployment(plain, "matchmaker")) if n.startswith("FLOTILLA_GATEWAY_")}


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"tls": {"enabled": True}}, "tls.secretName"),
        ({"tls": {"clientCA": {"secretName": "ca"}}}, "needs tls.enabled"),
        ({"tls": {"enabled": True, "secretName": "t", "clientCA": {"secretName": "ca"}}}, "clientSecretName"),
    ],
)
def test_tls_settings_that_cannot_work_are_refused(render: Render, values: dict[str, Any], message: str) -> None:
    with pytest.raises(helm.HelmRenderError, match=message):
        render(values)


def test_workers_and_matchmakers_have_no_probe_unless_asked(render: Render) -> None:
    manifests = render()
    for component in ("worker", "matchmaker"):
        c = container(deployment(manifests, component))
        assert "ports" not in c
        assert not {"livenessProbe", "readinessProbe", "startupProbe"} & set(c)
    probe = {"exec": {"command": ["flotilla", "--help"]}, "periodSeconds": 30}
    tuned = render({"worker": {"livenessProbe": probe}, "matchmaker": {"readinessProbe": probe}})
    assert container(deployment(tuned, "worker"))["livenessProbe"] == probe
    assert container(deployment(tuned, "matchmaker"))["readinessProbe"] == probe


def test_termination_grace_covers_the_drain(scenario: tuple[dict[str, Any], list[Manifest]]) -> None:
    _, manifests = scenario
    drain = inspect.signature(Gateway.stop).parameters["grace"].default  # what `serve` gives calls on SIGTERM
    gateway = deployment(manifests, "gateway")
    spec = gateway["spec"]["template"]["spec"]
    command = container(gateway)["lifecycle"]["preStop"]["exec"]["command"]
    assert command[0] == "sleep"
    assert spec["terminationGracePeriodSeconds"] >= int(command[1]) + drain + 5
    for component, workload in flotilla_deployments(manifests).items():
        assert workload["spec"]["template"]["spec"]["terminationGracePeriodSeconds"] >= 15, component


def test_a_grace_shorter_than_the_drain_is_refused(render: Render) -> None:
    with pytest.raises(helm.HelmRenderError, match="terminationGracePeriodSeconds"):
        render({"gateway": {"preStopSleepSeconds": 10, "terminationGracePeriodSeconds": 15}})


# --- disruption budgets, resources, security -----------------------------------------------------
def test_each_component_has_a_matching_disruption_budget(scenario: tuple[dict[str, Any], list[Manifest]]) -> None:
    values, manifests = scenario
    budgets = {p["metadata"]["name"]: p for p in find(manifests, "PodDisruptionBudget")}
    for component, workload in flotilla_deployments(manifests).items():
        pdb_enabled = values.get(component, {}).get("pdb", {}).get("enabled", True)
        name = f"{FULL}-{component}"
        if not pdb_enabled:
            assert name not in budgets
            continue
        pdb = budgets.pop(name)
        selector = pdb["spec"]["selector"]["matchLabels"]
        pod_labels = workload["spec"]["template"]["metadata"]["labels"]
        assert selector.items() <= pod_labels.items()
        assert selector == workload["spec"]["selector"]["matchLabels"]
        assert "maxUnavailable" in pdb["spec"]
    assert budgets == {}


def test_pods_run_unprivileged_with_resources(scenario: tuple[dict[str, Any], list[Manifest]]) -> None:
    _, manifests = scenario
    assert workloads(manifests)
    for workload in workloads(manifests):
        pod = workload["spec"]["template"]["spec"]
        assert pod["securityContext"]["runAsNonRoot"] is True
        assert pod["securityContext"]["runAsUser"] > 0
        assert pod["securityContext"]["seccompProfile"]["type"] == "RuntimeDefault"
        assert pod["automountServiceAccountToken"] is False
        for c in pod["containers"]:
            sc = c["securityContext"]
            assert sc["readOnlyRootFilesystem"] is True
            assert sc["allowPrivilegeEscalation"] is False
            assert sc["runAsNonRoot"] is True
            assert sc["capabilities"]["drop"] == ["ALL"]
            assert {"cpu", "memory"} <= set(c["resources"]["requests"])
            assert "memory" in c["resources"]["limits"]


# --- autoscaling ---------------------------------------------------------------------------------
def _worker_scaler(manifests: list[Manifest]) -> str | None:
    hpa = find(manifests, "HorizontalPodAutoscaler", f"{FULL}-worker")
    scaled = find(manifests, "ScaledObject")
    assert not (hpa and scaled), "a worker HPA and a ScaledObject would fight over the replicas"
    return "hpa" if hpa else "keda" if scaled else None


@pytest.mark.parametrize(
    ("autoscaling", "api_versions", "expected"),
    [
        ({}, (), "hpa"),
        ({}, (KEDA_API,), "keda"),
        ({"mode": "keda"}, (), "keda"),
        ({"mode": "hpa"}, (KEDA_API,), "hpa"),
        ({"enabled": False}, (KEDA_API,), None),
        ({"enabled": False, "mode": "keda"}, (), None),
    ],
)
def test_workers_scale_with_keda_when_present_else_on_cpu(
    render: Render, autoscaling: dict[str, Any], api_versions: tuple[str, ...], expected: str | None
) -> None:
    manifests = render({"worker": {"autoscaling": autoscaling, "replicas": 3}}, api_versions)
    assert _worker_scaler(manifests) == expected
    worker = deployment(manifests, "worker")
    if expected is None:
        assert worker["spec"]["replicas"] == 3
        return
    assert "replicas" not in worker["spec"]  # the autoscaler owns it
    if expected == "hpa":
        hpa = one(manifests, "HorizontalPodAutoscaler", f"{FULL}-worker")
        assert hpa["spec"]["scaleTargetRef"] == {
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "name": f"{FULL}-worker",
        }
        (metric,) = hpa["spec"]["metrics"]
        assert metric["resource"]["name"] == "cpu"
    else:
        scaled = one(manifests, "ScaledObject", f"{FULL}-worker")
        assert scaled["spec"]["scaleTargetRef"]["name"] == f"{FULL}-worker"


@pytest.mark.parametrize("shards", [1, 4, 7])
def test_keda_watches_every_work_stream_of_the_workers_group(render: Render, shards: int) -> None:
    manifests = render({"config": {"shards": shards}}, (KEDA_API,))
    spec = one(manifests, "ScaledObject", f"{FULL}-worker")["spec"]
    triggers = spec["triggers"]
    default_games = _default_games()
    expected = {keys.work(kind, version, shard) for kind, version in default_games for shard in range(shards)}
    assert {t["metadata"]["stream"] for t in triggers} == expected
    assert len(triggers) == len(expected)
    for trigger in triggers:
        assert trigger["type"] == "redis-streams"
        assert trigger["metadata"]["consumerGroup"] == keys.WORKER_GROUP
        assert trigger["metadata"]["address"] == "redis:6379"
        assert "lagCount" in trigger["metadata"]
    modifiers = spec["advanced"]["scalingModifiers"]
    assert sorted(modifiers["formula"].split(" + ")) == sorted(t["name"] for t in triggers)
    assert modifiers["metricType"] == "AverageValue"


def _default_games() -> list[tuple[str, str]]:
    values = yaml.safe_load((CHART / "values.yaml").read_text())
    games: list[str] = values["worker"]["autoscaling"]["keda"]["games"]
    return [(kind, version) for kind, _, version in (g.partition("@") for g in games)]


def test_keda_games_cover_every_game_the_workers_run() -> None:
    games = set(_default_games())
    for kind in REGISTRY:
        for rules in served(kind):
            assert (kind, rules.version) in games, f"add {kind}@{rules.version} to worker.autoscaling.keda.games"


def test_keda_reads_redis_like_the_processes(render: Render) -> None:
    values = {
        "redis": {
            "url": "rediss://flotilla@redis.prod.svc:6380/3",
            "existingSecret": "redis-auth",
            "existingSecretPasswordKey": "pw",
        }
    }
    manifests = render(values, (KEDA_API,))
    auth = one(manifests, "TriggerAuthentication", f"{FULL}-redis")
    assert auth["spec"]["secretTargetRef"] == [{"parameter": "password", "name": "redis-auth", "key": "pw"}]
    for trigger in one(manifests, "ScaledObject", f"{FULL}-worker")["spec"]["triggers"]:
        meta = trigger["metadata"]
        assert (meta["address"], meta["databaseIndex"], meta["enableTLS"]) == ("redis.prod.svc:6380", "3", "true")
        assert meta["usernameFromEnv"] == "REDIS_USERNAME"
        assert trigger["authenticationRef"]["name"] == f"{FULL}-redis"
    assert env_of(deployment(manifests, "worker"))["REDIS_USERNAME"]["value"] == "flotilla"


def test_keda_needs_an_address_when_the_url_is_secret(render: Render) -> None:
    values: dict[str, Any] = {"redis": {"existingSecret": "r", "existingSecretUrlKey": "url"}}
    with pytest.raises(helm.HelmRenderError, match="redisAddress"):
        render(values, (KEDA_API,))
    values["worker"] = {"autoscaling": {"keda": {"redisAddress": "redis-0.redis:6379"}}}
    triggers = one(render(values, (KEDA_API,)), "ScaledObject", f"{FULL}-worker")["spec"]["triggers"]
    assert {t["metadata"]["address"] for t in triggers} == {"redis-0.redis:6379"}


def test_gateways_scale_on_cpu_only_when_asked(render: Render) -> None:
    assert not find(render(), "HorizontalPodAutoscaler", f"{FULL}-gateway")
    manifests = render({"gateway": {"autoscaling": {"enabled": True, "minReplicas": 3}}})
    hpa = one(manifests, "HorizontalPodAutoscaler", f"{FULL}-gateway")
    assert hpa["spec"]["minReplicas"] == 3
    assert "replicas" not in deployment(manifests, "gateway")["spec"]


# --- secrets -------------------------------------------------------------------------------------
def _secret_ref(workload: Manifest, name: str) -> dict[str, str]:
    ref: dict[str, str] = env_of(workload)[name]["valueFrom"]["secretKeyRef"]
    return ref


def test_flotilla_secret_comes_from_one_secret(render: Render) -> None:
    manifests = render()
    (secret,) = find(manifests, "Secret")
    assert secret["metadata"]["annotations"]["helm.sh/resource-policy"] == "keep"
    key = next(iter(secret["data"]))
    for workload in flotilla_deployments(manifests).values():
        assert _secret_ref(workload, "FLOTILLA_SECRET") == {"name": secret["metadata"]["name"], "key": key}
        assert "value" not in env_of(workload)["FLOTILLA_SECRET"]

    mine = render({"secret": {"existingSecret": "tokens", "existingSecretKey": "k"}})
    assert not find(mine, "Secret")
    for workload in flotilla_deployments(mine).values():
        assert _secret_ref(workload, "FLOTILLA_SECRET") == {"name": "tokens", "key": "k"}


def test_redis_credentials_stay_in_secrets(render: Render) -> None:
    whole = render({"redis": {"existingSecret": "r", "existingSecretUrlKey": "url", "url": "redis://ignored:1/0"}})
    for workload in flotilla_deployments(whole).values():
        assert _secret_ref(workload, "REDIS_URL") == {"name": "r", "key": "url"}

    spliced = render(
        {"redis": {"url": "redis://redis:6379/0", "existingSecret": "r", "existingSecretPasswordKey": "p"}}
    )
    for workload in flotilla_deployments(spliced).values():
        env = [e["name"] for e in container(workload)["env"]]
        assert env.index("REDIS_PASSWORD") < env.index("REDIS_URL")  # $(REDIS_PASSWORD) expands in order
        assert _secret_ref(workload, "REDIS_PASSWORD") == {"name": "r", "key": "p"}
        assert env_of(workload)["REDIS_URL"]["value"] == "redis://:$(REDIS_PASSWORD)@redis:6379/0"

    plain = render({"redis": {"url": "redis://redis.data:6379/2"}})
    for workload in flotilla_deployments(plain).values():
        assert env_of(workload)["REDIS_URL"]["value"] == "redis://redis.data:6379/2"


# --- the gateway Service and the trial Redis -----------------------------------------------------
def test_gateway_services_speak_grpc(render: Render) -> None:
    manifests = render()
    gateway = deployment(manifests, "gateway")
    service = one(manifests, "Service", f"{FULL}-gateway")
    headless = one(manifests, "Service", f"{FULL}-gateway-headless")
    assert headless["spec"]["clusterIP"] == "None"
    for svc in (service, headless):
        (port,) = svc["spec"]["ports"]
        assert (port["name"], port["port"], port["targetPort"]) == ("grpc", 50051, "grpc")
        assert port["appProtocol"] == "kubernetes.io/h2c"
        assert svc["spec"]["selector"] == gateway["spec"]["selector"]["matchLabels"]
    target = env_of(deployment(manifests, "matchmaker"))["FLOTILLA_GATEWAY"]["value"]
    assert target == f"{service['metadata']['name']}:50051"  # the matchmaker's bots connect there


def test_managed_redis_for_trials_keeps_an_append_only_file(render: Render) -> None:
    assert not find(render(), "StatefulSet")
    manifests = render({"redis": {"managed": {"enabled": True}}}, (KEDA_API,))
    (redis,) = find(manifests, "StatefulSet")
    conf = one(manifests, "ConfigMap", f"{FULL}-redis")["data"]["redis.conf"]
    directives = dict(line.split(" ", 1) for line in conf.splitlines() if line and not line.startswith("#"))
    assert directives["appendonly"] == "yes"
    assert directives["appendfsync"] == "always"
    assert directives["maxmemory-policy"] == "noeviction"
    assert redis["spec"]["volumeClaimTemplates"][0]["metadata"]["name"] == "data"
    service = one(manifests, "Service", f"{FULL}-redis")
    for workload in flotilla_deployments(manifests).values():
        url = f"redis://flotilla:$(REDIS_PASSWORD)@{service['metadata']['name']}:6379/0"  # its ACL user
        assert env_of(workload)["REDIS_URL"]["value"] == url
    for trigger in one(manifests, "ScaledObject", f"{FULL}-worker")["spec"]["triggers"]:
        assert trigger["metadata"]["address"] == f"{FULL}-redis:6379"


@pytest.mark.parametrize(
    ("auth", "secret", "keys"),
    [
        ({}, f"{FULL}-redis-users", ("password", "admin-password")),
        ({"existingSecret": "mine", "existingSecretPasswordKey": "app"}, "mine", ("app", "admin-password")),
        (
            {"existingSecret": "mine", "existingSecretPasswordKey": "app", "managed": {"adminPasswordKey": "op"}},
            "mine",
            ("app", "op"),
        ),
    ],
)
def test_managed_redis_has_acl_users_whose_passwords_stay_in_one_secret(
    render: Render, auth: dict[str, Any], secret: str, keys: tuple[str, str]
) -> None:
    """The trial Redis starts with deploy/redis's ACL users (start-redis.sh, users.acl, the same text:
    tests/deploy/test_container.py); the processes and KEDA sign in as `flotilla` with the password
    of the Secret the Redis pod reads too; the default user is off; no password is in a manifest but
    the chart's own Secret (made only without redis.existingSecret, kept on uninstall)."""
    values = {"redis": {**auth, "managed": {"enabled": True, **auth.get("managed", {})}}}
    manifests = render(values, (KEDA_API,))
    app_key, admin_key = keys
    redis = container(one(manifests, "StatefulSet", f"{FULL}-redis"))
    assert redis["command"] == ["sh", "/etc/redis/start-redis.sh"]
    redis_env = {e["name"]: e["valueFrom"]["secretKeyRef"] for e in redis["env"]}
    assert redis_env == {
        "REDIS_PASSWORD": {"name": secret, "key": app_key},
        "REDIS_ADMIN_PASSWORD": {"name": secret, "key": admin_key},
    }
    data = one(manifests, "ConfigMap", f"{FULL}-redis")["data"]
    assert "user default off" in data["users.acl"]
    assert "#APP_PASSWORD_SHA256" in data["users.acl"]  # the pod puts the hash in place
    for workload in flotilla_deployments(manifests).values():
        assert _secret_ref(workload, "REDIS_PASSWORD") == {"name": secret, "key": app_key}
        assert env_of(workload)["REDIS_USERNAME"]["value"] == "flotilla"
    auth_ref = one(manifests, "TriggerAuthentication", f"{FULL}-redis")["spec"]["secretTargetRef"]
    assert auth_ref == [{"parameter": "password", "name": secret, "key": app_key}]
    for trigger in one(manifests, "ScaledObject", f"{FULL}-worker")["spec"]["triggers"]:
        assert trigger["metadata"]["usernameFromEnv"] == "REDIS_USERNAME"
    made = find(manifests, "Secret", f"{FULL}-redis-users")
    if secret == f"{FULL}-redis-users":
        (made_secret,) = made
        assert set(made_secret["data"]) == {"password", "admin-password"}
        assert made_secret["metadata"]["annotations"]["helm.sh/resource-policy"] == "keep"
        passwords = [base64.b64decode(v).decode() for v in made_secret["data"].values()]
        assert all(len(p) >= 32 for p in passwords)
        others = yaml.safe_dump([m for m in manifests if m is not made_secret])
        assert not any(p in others for p in passwords)
    else:
        assert made == []


def test_managed_redis_with_a_secret_of_yours_needs_the_password_key(render: Render) -> None:
    with pytest.raises(helm.HelmRenderError, match="existingSecretPasswordKey"):
        render({"redis": {"existingSecret": "mine", "managed": {"enabled": True}}})


def test_managed_redis_appendfsync_is_a_choice_of_always_or_everysec(render: Render) -> None:
    manifests = render({"redis": {"managed": {"enabled": True, "appendfsync": "everysec"}}})
    conf = one(manifests, "ConfigMap", f"{FULL}-redis")["data"]["redis.conf"]
    assert "appendfsync everysec" in conf.splitlines()


def test_chart_readme_documents_every_top_level_value() -> None:
    readme = (CHART / "README.md").read_text()
    values = yaml.safe_load((CHART / "values.yaml").read_text())
    missing = [key for key in values if not re.search(rf"`{re.escape(key)}[.`]", readme)]
    assert missing == []
    for phrase in ("grpc.health.v1", "round_robin", "KEDA", "terminationGracePeriodSeconds"):
        assert phrase in readme
