#!/bin/sh
# Start Flotilla's Redis with its ACL users (users.acl beside this file): user `flotilla` (the
# processes) has the password in REDIS_PASSWORD, user `admin` (operators) the one in
# REDIS_ADMIN_PASSWORD. The ACL file Redis reads holds only their SHA-256, mode 0600, at
# REDIS_ACL_FILE (/data/users.acl); no password is on a command line. Further arguments go to
# redis-server. Used by deploy/compose.yaml; the Helm chart's trial Redis runs the same text.
set -eu
: "${REDIS_PASSWORD:?set REDIS_PASSWORD (the flotilla user)}"
: "${REDIS_ADMIN_PASSWORD:?set REDIS_ADMIN_PASSWORD (the admin user)}"
here=$(dirname "$0")
acl=${REDIS_ACL_FILE:-/data/users.acl}
sha() { printf %s "$1" | sha256sum | cut -d ' ' -f 1; }
app=$(sha "$REDIS_PASSWORD")
admin=$(sha "$REDIS_ADMIN_PASSWORD")
unset REDIS_PASSWORD REDIS_ADMIN_PASSWORD
umask 077
# An ACL file has no comments: drop them.
sed -e '/^#/d' -e "s/APP_PASSWORD_SHA256/$app/" -e "s/ADMIN_PASSWORD_SHA256/$admin/" "$here/users.acl" >"$acl"
exec redis-server "$here/redis.conf" --aclfile "$acl" "$@"
