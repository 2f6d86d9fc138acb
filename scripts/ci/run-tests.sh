#!/usr/bin/env bash
# Runs one named selection of test files, scripts/ci/<name>-tests.txt (one path a line, `#` comments), with
# vitest; arguments after the name go to vitest. `--list` prints the selection's files instead.
#
#   bash scripts/ci/run-tests.sh database-facing
#   scripts/ci/with-debian-postgres.sh bash scripts/ci/run-tests.sh database-facing
set -euo pipefail
cd "$(dirname "$0")/../.."
name=${1:?usage: run-tests.sh <selection> [--list | vitest arguments…]}
shift
list="scripts/ci/$name-tests.txt"
[ -f "$list" ] || { echo "no selection $list" >&2; exit 2; }
mapfile -t paths < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$list" | grep -v '^$')
for p in "${paths[@]}"; do
  [ -e "$p" ] || { echo "$list names $p, which does not exist" >&2; exit 2; }
done
if [ "${1:-}" = "--list" ]; then
  find "${paths[@]}" -name '*.test.ts' | sort
  exit 0
fi
# vitest takes each path as a filter on file names: a directory ends in / so that test/db cannot match test/dbx.
filters=()
for p in "${paths[@]}"; do
  if [ -d "$p" ]; then filters+=("${p%/}/"); else filters+=("$p"); fi
done
npm run generate --silent
exec npx vitest run "${filters[@]}" "$@"
