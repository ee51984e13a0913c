"""The Helm chart (managed Redis on) under `podman kube play`: its Deployments, ConfigMaps, Secrets and
Redis StatefulSet run as pods of the image on a network of their own (kube_play.py says how, and what
cannot run here: Services, HPA, PDB, KEDA, checked statically by test_helm_chart.py). A client on the
host plays a whole game through the gateway's port published on 127.0.0.1; then every pod stops on
SIGTERM (each process exits 0) and `kube down` plus the test's cleanup leave nothing behind."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import helm_python as helm
import pytest
import yaml
from chart_support import NAMESPACE
from kube_play import Play, translate
from podman_support import Images, built_images, free_host_ports, play_a_game, podman, wait_serving

STOP_ORDER = ("matchmaker", "worker", "gateway", "redis")
STOP_TIMEOUT_S = 30  # the chart's terminationGracePeriodSeconds for the Flotilla pods


def image_values(reference: str) -> dict[str, str]:
    """A chart `image:` block for a local image reference (podman keeps built ones under localhost/)."""
    repository, tag = reference.rsplit(":", 1)
    if "/" not in repository:
        repository = f"localhost/{repository}"
    return {"repository": repository, "tag": tag}


@dataclass(frozen=True)
class Played:
    release: str
    file: Path
    play: Play

    @property
    def pods(self) -> list[str]:
        """The pods kube play made: `<name>-pod-0` per Deployment, the Pod's own name otherwise."""
        names = []
        for manifest in self.play.manifests:
            if manifest["kind"] == "Deployment":
                names.append(f"{manifest['metadata']['name']}-pod-0")
            elif manifest["kind"] == "Pod":
                names.append(manifest["metadata"]["name"])
        return names

    def leftovers(self) -> dict[str, list[str]]:
        """What podman still holds of this release: pods, secrets, volumes and the network, by name."""
        listed = {
            "pods": podman("pod", "ls", "--format", "{{.Name}}").stdout.split(),
            "secrets": podman("secret", "ls", "--format", "{{.Name}}").stdout.split(),
            "volumes": podman("volume", "ls", "--format", "{{.Name}}").stdout.split(),
            "networks": podman("network", "ls", "--format", "{{.Name}}").stdout.split(),
        }
        return {kind: [n for n in names if self.release in n] for kind, names in listed.items()}

    def remove(self) -> None:
        podman("kube", "down", str(self.file), check=False)
        left = self.leftovers()
        for pod in left["pods"]:
            podman("pod", "rm", "--force", "--time", "5", pod, check=False)
        for kind in ("secret", "volume", "network"):
            for name in left[f"{kind}s"]:
                podman(kind, "rm", *(("--force",) if kind != "secret" else ()), name, check=False)


@pytest.fixture(scope="module")
def played(chart: helm.Chart, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    images: Images = built_images()
    release = f"k{secrets.token_hex(4)}"  # in every name kube play makes: pods, volumes; ours: secrets, network
    values = {
        "image": image_values(images.app),
        "redis": {"managed": {"enabled": True, "image": image_values(images.redis)}},
        "gateway": {"replicas": 1},
        "worker": {"replicas": 1},
        # No Services here: the matchmaker's bots reach the gateway's pod by its name on the network.
        "matchmaker": {"gatewayTarget": f"{release}-flotilla-gateway-pod-0:50051"},
    }
    files = chart.render(values, name=release, namespace=NAMESPACE)
    manifests = [
        m for n, text in sorted(files.items()) if not n.endswith("NOTES.txt") for m in yaml.safe_load_all(text) if m
    ]
    play = translate(manifests, lambda: free_host_ports(1)[0])
    file = tmp_path_factory.mktemp("kube") / "play.yaml"
    file.write_text(yaml.safe_dump_all(play.manifests))
    running = Played(release, file, play)
    network = f"{release}-net"
    try:
        podman("network", "create", network)
        for name, data in play.secrets.items():
            podman("secret", "create", name, _secret_file(file.parent, name, data))
        podman("kube", "play", "--network", network, str(file))
        yield running
    finally:
        running.remove()


def _secret_file(directory: Path, name: str, data: dict[str, str]) -> str:
    path = directory / f"{name}.json"
    path.touch(mode=0o600)
    path.write_text(json.dumps(data))
    return str(path)


def test_only_kinds_a_cluster_runs_are_left_out(played: Played) -> None:
    kinds = {entry.split("/")[0] for entry in played.play.not_played}
    assert kinds <= {"Service", "HorizontalPodAutoscaler", "PodDisruptionBudget", "ServiceAccount"}
    assert {m["kind"] for m in played.play.manifests} == {"Deployment", "ConfigMap", "Pod", "PersistentVolumeClaim"}
    assert len(played.pods) == 4  # gateway, worker, matchmaker, Redis


async def test_a_host_client_plays_through_the_charts_gateway(played: Played) -> None:
    gateway = f"127.0.0.1:{played.play.published[(f'{played.release}-flotilla-gateway', 'grpc')]}"
    await wait_serving([gateway])
    await play_a_game(gateway)


def test_the_pods_stop_on_sigterm_and_leave_nothing(played: Played) -> None:
    """Each process is stopped as the kubelet stops it: SIGTERM, the pod's network still up, and the
    grace period. (Not `podman pod stop`: podman 4.3 takes the pod's network down at the same time,
    so a process blocked on a Redis read waits for its socket timeout; docs/deploy.md.)"""
    # As compose stops them: the clients of Redis first (the matchmaker, workers, gateways), Redis last.
    for pod in sorted(played.pods, key=lambda name: STOP_ORDER.index(name.split("-flotilla-")[1].split("-")[0])):
        inspected = json.loads(podman("pod", "inspect", pod).stdout)
        inspected = inspected[0] if isinstance(inspected, list) else inspected
        for container in inspected["Containers"]:
            if container["Name"].endswith("-infra"):
                continue
            podman("stop", "--time", str(STOP_TIMEOUT_S), container["Id"])
            state = json.loads(podman("inspect", container["Id"]).stdout)[0]["State"]
            log = podman("logs", "--tail", "15", container["Id"]).stderr[-3000:]
            assert state["ExitCode"] == 0, f"{container['Name']} exited {state['ExitCode']}, not drained:\n{log}"
    played.remove()
    assert played.leftovers() == {"pods": [], "secrets": [], "volumes": [], "networks": []}
