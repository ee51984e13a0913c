"""The Helm chart's manifests as `podman kube play` (podman 4.3, Debian 12) can run them.

Played: Deployments (a pod of each template, `<name>-pod-0`), ConfigMaps, PersistentVolumeClaims, and
what kube play lacks done here the way the kubelet would:
- a StatefulSet becomes a Pod of its template named like it (and like its Service: other pods find
  it by that name on the network), with a claim per volumeClaimTemplate;
- a Secret becomes a podman secret holding its data as JSON (a Secret in the played file is stored
  as YAML, which podman 4.3's own secretKeyRef cannot read);
- `$(VAR)` in an env value is expanded from the container's earlier variables (Kubernetes does this;
  podman 4.3 does not);
- every container port is published on 127.0.0.1 only (kube play would publish it on every address).
Not played (kube play has no such kinds; test_helm_chart.py checks them): `NOT_PLAYED`."""

from __future__ import annotations

import base64
import copy
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Manifest = dict[str, Any]

PLAYED = frozenset({"Deployment", "ConfigMap", "Secret", "StatefulSet"})
NOT_PLAYED = frozenset(
    {
        "Service",
        "HorizontalPodAutoscaler",
        "PodDisruptionBudget",
        "ServiceAccount",
        "ScaledObject",
        "TriggerAuthentication",
    }
)
"""Kinds the chart may render that kube play cannot run: they need a cluster's controllers."""


@dataclass
class Play:
    """What to hand podman: the manifests to play, the secrets to create first, the host ports."""

    manifests: list[Manifest] = field(default_factory=list)
    secrets: dict[str, dict[str, str]] = field(default_factory=dict)
    """podman secret name -> the Secret's data (base64 values, as in the manifest)."""
    published: dict[tuple[str, str], int] = field(default_factory=dict)
    """(workload name, port name) -> the port on 127.0.0.1."""
    not_played: list[str] = field(default_factory=list)


def translate(manifests: list[Manifest], free_port: Callable[[], int]) -> Play:
    """The chart's rendered manifests as a Play (see the module's docstring)."""
    play = Play()
    for manifest in manifests:
        kind = manifest["kind"]
        if kind not in PLAYED:
            assert kind in NOT_PLAYED, f"the chart renders a {kind}: play it or say why not (kube_play.py)"
            play.not_played.append(f"{kind}/{manifest['metadata']['name']}")
        elif kind == "Secret":
            play.secrets[manifest["metadata"]["name"]] = dict(manifest.get("data", {}))
        elif kind == "ConfigMap":
            play.manifests.append(manifest)
    values = {name: {k: base64.b64decode(v).decode() for k, v in data.items()} for name, data in play.secrets.items()}
    for manifest in manifests:
        if manifest["kind"] == "Deployment":
            workload = copy.deepcopy(manifest)
            prepare_pod(workload["metadata"]["name"], workload["spec"]["template"]["spec"], values, free_port, play)
            play.manifests.append(workload)
        elif manifest["kind"] == "StatefulSet":
            play.manifests.extend(stateful_set_as_pod(manifest, values, free_port, play))
    return play


def stateful_set_as_pod(
    manifest: Manifest, secrets: dict[str, dict[str, str]], free_port: Callable[[], int], play: Play
) -> list[Manifest]:
    """A StatefulSet's single pod, named like the set, with a PersistentVolumeClaim per template."""
    name = manifest["metadata"]["name"]
    spec = copy.deepcopy(manifest["spec"]["template"]["spec"])
    claims = []
    for template in manifest["spec"].get("volumeClaimTemplates", []):
        claim = f"{template['metadata']['name']}-{name}"  # the name a StatefulSet's claim gets (its -0 left out)
        claims.append(
            {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": claim}, "spec": template["spec"]}
        )
        spec.setdefault("volumes", []).append(
            {"name": template["metadata"]["name"], "persistentVolumeClaim": {"claimName": claim}}
        )
    prepare_pod(name, spec, secrets, free_port, play)
    labels = manifest["spec"]["template"]["metadata"].get("labels", {})
    return [*claims, {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "labels": labels}, "spec": spec}]


def expand(value: str, known: dict[str, str]) -> str:
    """`$(NAME)` replaced by the value of an earlier variable, as Kubernetes does (unknown ones left)."""
    return re.sub(r"\$\((\w+)\)", lambda m: known.get(m.group(1), m.group(0)), value)


def prepare_pod(
    workload: str, spec: Manifest, secrets: dict[str, dict[str, str]], free_port: Callable[[], int], play: Play
) -> None:
    """Expand `$(VAR)` in env values; publish each container port on 127.0.0.1 at a free port."""
    for container in spec["containers"]:
        known: dict[str, str] = {}
        for var in container.get("env", []):
            if "value" in var:
                var["value"] = expand(var["value"], known)
                known[var["name"]] = var["value"]
            elif "secretKeyRef" in var.get("valueFrom", {}):
                ref = var["valueFrom"]["secretKeyRef"]
                known[var["name"]] = secrets[ref["name"]][ref["key"]]
        for port in container.get("ports", []):
            port["hostIP"] = "127.0.0.1"
            port["hostPort"] = free_port()
            play.published[(workload, port.get("name", str(port["containerPort"])))] = port["hostPort"]
