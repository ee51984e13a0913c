"""JSON schemas for the two KEDA resources the chart renders (kubernetes-validate knows only core
Kubernetes kinds). Written for these tests from KEDA's documented ScaledObject/TriggerAuthentication
fields (KEDA 2.12+, which has scalingModifiers); closed objects, so a misspelt field fails."""

from __future__ import annotations

from typing import Any

_STR_MAP: dict[str, Any] = {"type": "object", "additionalProperties": {"type": "string"}}
_METADATA: dict[str, Any] = {
    "type": "object",
    "required": ["name"],
    "properties": {
        "name": {"type": "string", "pattern": "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", "maxLength": 253},
        "labels": _STR_MAP,
        "annotations": _STR_MAP,
    },
}
_QUANTITY: dict[str, Any] = {"type": "string", "pattern": r"^[0-9]+(\.[0-9]+)?$"}

SCALED_OBJECT: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["apiVersion", "kind", "metadata", "spec"],
    "properties": {
        "apiVersion": {"const": "keda.sh/v1alpha1"},
        "kind": {"const": "ScaledObject"},
        "metadata": _METADATA,
        "spec": {
            "type": "object",
            "additionalProperties": False,
            "required": ["scaleTargetRef", "triggers"],
            "properties": {
                "scaleTargetRef": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["name"],
                    "properties": {
                        "apiVersion": {"type": "string"},
                        "kind": {"type": "string"},
                        "name": {"type": "string"},
                        "envSourceContainerName": {"type": "string"},
                    },
                },
                "minReplicaCount": {"type": "integer", "minimum": 0},
                "maxReplicaCount": {"type": "integer", "minimum": 1},
                "idleReplicaCount": {"type": "integer", "minimum": 0},
                "pollingInterval": {"type": "integer", "minimum": 1},
                "cooldownPeriod": {"type": "integer", "minimum": 0},
                "fallback": {"type": "object"},
                "advanced": {
                    "type": "object",
                    "additionalProperties": False,
                    "properties": {
                        "restoreToOriginalReplicaCount": {"type": "boolean"},
                        "horizontalPodAutoscalerConfig": {"type": "object"},
                        "scalingModifiers": {
                            "type": "object",
                            "additionalProperties": False,
                            "required": ["formula", "target"],
                            "properties": {
                                "formula": {"type": "string", "minLength": 1},
                                "target": _QUANTITY,
                                "activationTarget": _QUANTITY,
                                "metricType": {"enum": ["AverageValue", "Value"]},
                            },
                        },
                    },
                },
                "triggers": {
                    "type": "array",
                    "minItems": 1,
                    "items": {
                        "type": "object",
                        "additionalProperties": False,
                        "required": ["type", "metadata"],
                        "properties": {
                            "type": {"type": "string"},
                            "name": {"type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$"},
                            "metadata": _STR_MAP,
                            "metricType": {"enum": ["AverageValue", "Value", "Utilization"]},
                            "useCachedMetrics": {"type": "boolean"},
                            "authenticationRef": {
                                "type": "object",
                                "additionalProperties": False,
                                "required": ["name"],
                                "properties": {
                                    "name": {"type": "string"},
                                    "kind": {"enum": ["TriggerAuthentication", "ClusterTriggerAuthentication"]},
                                },
                            },
                        },
                    },
                },
            },
        },
    },
}

TRIGGER_AUTHENTICATION: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["apiVersion", "kind", "metadata", "spec"],
    "properties": {
        "apiVersion": {"const": "keda.sh/v1alpha1"},
        "kind": {"const": "TriggerAuthentication"},
        "metadata": _METADATA,
        "spec": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "secretTargetRef": {
                    "type": "array",
                    "minItems": 1,
                    "items": {
                        "type": "object",
                        "additionalProperties": False,
                        "required": ["parameter", "name", "key"],
                        "properties": {
                            "parameter": {"type": "string"},
                            "name": {"type": "string"},
                            "key": {"type": "string"},
                        },
                    },
                },
            },
        },
    },
}

SCHEMAS: dict[str, dict[str, Any]] = {
    "ScaledObject": SCALED_OBJECT,
    "TriggerAuthentication": TRIGGER_AUTHENTICATION,
}
