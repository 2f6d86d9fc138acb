#!/bin/sh
# compose.yaml's PostgreSQL members (deploy/patroni/Dockerfile): deploy/patroni/patroni.yml, mounted as
# /etc/patroni/patroni.yml.in, with its ${…} placeholders filled from the member's environment, as
# `npm run fleet` fills them for its members (scripts/fleet/lib/patroni.ts). Then Patroni, as PID 1's exec.
# An unset placeholder stops the member here rather than starting it on an empty value.
set -eu
template=/etc/patroni/patroni.yml.in
placeholders=$(grep -o '\${[A-Z_]*}' "$template" | sort -u | tr -d '${}')
for name in $placeholders; do
  if [ -z "$(printenv "$name" || true)" ]; then
    echo "start-member.sh: no value for \${$name} (deploy/patroni/patroni.yml)" >&2
    exit 1
  fi
done
# Holds the superuser's and the replication role's passwords: readable by postgres only.
umask 077
envsubst "$(printf '${%s} ' $placeholders)" <"$template" >/tmp/patroni.yml
exec "$@"
