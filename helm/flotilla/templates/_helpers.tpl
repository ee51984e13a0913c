{{/* Names and labels. */}}
{{- define "flotilla.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "flotilla.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "flotilla.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "flotilla.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: flotilla
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* Selector labels of one component: (dict "ctx" $ "component" "gateway"). */}}
{{- define "flotilla.selectorLabels" -}}
app.kubernetes.io/name: {{ include "flotilla.name" .ctx }}
app.kubernetes.io/instance: {{ .ctx.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "flotilla.componentLabels" -}}
{{ include "flotilla.labels" .ctx }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "flotilla.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "flotilla.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "flotilla.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{/* The Secret holding FLOTILLA_SECRET, and its key. */}}
{{- define "flotilla.secretName" -}}
{{- default (printf "%s-secret" (include "flotilla.fullname" .)) .Values.secret.existingSecret }}
{{- end }}

{{- define "flotilla.secretKey" -}}
{{- if .Values.secret.existingSecret }}{{ .Values.secret.existingSecretKey }}{{ else }}flotilla-secret{{ end }}
{{- end }}

{{/* The Redis URL without a password: the managed Redis's (as its `flotilla` ACL user) when enabled, else redis.url. */}}
{{- define "flotilla.redisUrl" -}}
{{- if .Values.redis.managed.enabled }}
{{- printf "redis://flotilla@%s-redis:6379/0" (include "flotilla.fullname" .) }}
{{- else }}
{{- required "redis.url is required (or redis.existingSecretUrlKey, or redis.managed.enabled)" .Values.redis.url }}
{{- end }}
{{- end }}

{{/* host:port of Redis, for KEDA. */}}
{{- define "flotilla.redisAddress" -}}
{{- if .Values.worker.autoscaling.keda.redisAddress }}
{{- .Values.worker.autoscaling.keda.redisAddress }}
{{- else if and .Values.redis.existingSecret .Values.redis.existingSecretUrlKey (not .Values.redis.managed.enabled) }}
{{- fail "worker.autoscaling.keda.redisAddress is required when REDIS_URL comes from a Secret (redis.existingSecretUrlKey)" }}
{{- else }}
{{- $u := urlParse (include "flotilla.redisUrl" .) }}
{{- if contains ":" $u.host }}{{ $u.host }}{{ else }}{{ printf "%s:6379" $u.host }}{{ end }}
{{- end }}
{{- end }}

{{/* Is the Redis password in a Secret (spliced into the URL)? Always for the managed Redis. */}}
{{- define "flotilla.redisPasswordFromSecret" -}}
{{- if .Values.redis.managed.enabled }}true
{{- else if and .Values.redis.existingSecret .Values.redis.existingSecretPasswordKey (not .Values.redis.existingSecretUrlKey) }}true{{ end }}
{{- end }}

{{/* The Secret holding the Redis password (redis.existingSecret, else the managed Redis's own), and its key. */}}
{{- define "flotilla.redisSecretName" -}}
{{- if .Values.redis.existingSecret }}{{ .Values.redis.existingSecret }}
{{- else }}{{ printf "%s-redis-users" (include "flotilla.fullname" .) }}{{ end }}
{{- end }}

{{- define "flotilla.redisPasswordKey" -}}
{{- if .Values.redis.existingSecret }}{{ required "redis.managed.enabled with redis.existingSecret needs redis.existingSecretPasswordKey (the flotilla user's password)" .Values.redis.existingSecretPasswordKey }}
{{- else }}password{{ end }}
{{- end }}

{{- define "flotilla.redisAdminPasswordKey" -}}
{{- if .Values.redis.existingSecret }}{{ .Values.redis.managed.adminPasswordKey }}{{ else }}admin-password{{ end }}
{{- end }}

{{/* KEDA when the values say so, or (auto) when the cluster serves its API. */}}
{{- define "flotilla.workerAutoscaler" -}}
{{- $a := .Values.worker.autoscaling }}
{{- if $a.enabled }}
{{- if eq $a.mode "keda" }}keda
{{- else if eq $a.mode "hpa" }}hpa
{{- else if .Capabilities.APIVersions.Has "keda.sh/v1alpha1" }}keda
{{- else }}hpa
{{- end }}
{{- end }}
{{- end }}

{{/* Environment of every Flotilla process. */}}
{{- define "flotilla.env" -}}
{{- $r := .Values.redis }}
{{- if and $r.existingSecret $r.existingSecretUrlKey (not $r.managed.enabled) }}
- name: REDIS_URL
  valueFrom:
    secretKeyRef:
      name: {{ $r.existingSecret }}
      key: {{ $r.existingSecretUrlKey }}
{{- else if include "flotilla.redisPasswordFromSecret" . }}
{{- $u := urlParse (include "flotilla.redisUrl" .) }}
{{- if $u.userinfo }}
# For KEDA's scaler (usernameFromEnv); the processes read REDIS_URL.
- name: REDIS_USERNAME
  value: {{ $u.userinfo | quote }}
{{- end }}
- name: REDIS_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ include "flotilla.redisSecretName" . }}
      key: {{ include "flotilla.redisPasswordKey" . }}
- name: REDIS_URL
  value: {{ printf "%s://%s:$(REDIS_PASSWORD)@%s%s%s" $u.scheme $u.userinfo $u.host $u.path (ternary (printf "?%s" $u.query) "" (ne $u.query "")) | quote }}
{{- else }}
- name: REDIS_URL
  value: {{ include "flotilla.redisUrl" . | quote }}
{{- end }}
- name: FLOTILLA_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ include "flotilla.secretName" . }}
      key: {{ include "flotilla.secretKey" . }}
- name: FLOTILLA_SHARDS
  value: {{ .Values.config.shards | quote }}
- name: FLOTILLA_SUBMIT_TIMEOUT
  value: {{ .Values.config.submitTimeoutSeconds | quote }}
- name: FLOTILLA_HEARTBEAT
  value: {{ .Values.config.heartbeatSeconds | quote }}
- name: FLOTILLA_SESSION_TTL
  value: {{ .Values.config.sessionTtlSeconds | quote }}
- name: FLOTILLA_LOG_FORMAT
  value: {{ .Values.config.logFormat | quote }}
- name: FLOTILLA_WAIT_REPLICAS
  value: {{ .Values.config.waitReplicas | quote }}
- name: FLOTILLA_WAIT_TIMEOUT_MS
  value: {{ .Values.config.waitTimeoutMs | quote }}
- name: FLOTILLA_METRICS_ADDR
  value: {{ .Values.metrics.addr | quote }}
{{- with .Values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* Pod-level scheduling and security shared by the components: (dict "ctx" $ "c" .Values.worker "component" "worker"). */}}
{{- define "flotilla.podSpecCommon" -}}
serviceAccountName: {{ include "flotilla.serviceAccountName" .ctx }}
automountServiceAccountToken: false
{{- with .ctx.Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
securityContext:
  {{- toYaml .ctx.Values.podSecurityContext | nindent 2 }}
terminationGracePeriodSeconds: {{ .c.terminationGracePeriodSeconds }}
{{- with .ctx.Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .ctx.Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .ctx.Values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .c.topologySpreadConstraints }}
topologySpreadConstraints:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}

{{/* A pod's writable /tmp (the root filesystem is read-only). */}}
{{- define "flotilla.tmpVolume" -}}
- name: tmp
  emptyDir:
    sizeLimit: 64Mi
{{- end }}

{{/* TLS values that cannot work are refused at render time. */}}
{{- define "flotilla.tlsCheck" -}}
{{- $t := .Values.tls }}
{{- if and $t.enabled (not $t.secretName) }}
{{- fail "tls.enabled needs tls.secretName: a kubernetes.io/tls Secret with the gateways' certificate" }}
{{- end }}
{{- if and $t.clientCA.secretName (not $t.enabled) }}
{{- fail "tls.clientCA (mTLS) needs tls.enabled" }}
{{- end }}
{{- if and $t.enabled $t.clientCA.secretName .Values.matchmaker.enabled (not $t.matchmaker.clientSecretName) }}
{{- fail "with tls.clientCA the gateways require client certificates: set tls.matchmaker.clientSecretName for the matchmaker's bots" }}
{{- end }}
{{- end }}
