#!/usr/bin/env bash
# Runs the operations of examples/queries.graphql against a running, seeded service (see curl.sh for the
# set-up). Same variables: BASE, DATA_DIR, SEED_FILE, TOKEN. Exits non-zero when an answer has errors.
set -euo pipefail

BASE=${BASE:-http://localhost:3000}
DATA_DIR=${DATA_DIR:-.data}
SEED_FILE=${SEED_FILE:-$DATA_DIR/seed.json}
TOKEN=${TOKEN:-$(cat "$DATA_DIR/dev-api-token" 2>/dev/null || true)}
QUERIES="$(dirname "$0")/queries.graphql"

[ -n "$TOKEN" ] || { echo "Set TOKEN, or start the service once so that $DATA_DIR/dev-api-token exists." >&2; exit 2; }
[ -f "$SEED_FILE" ] || { echo "No $SEED_FILE: run npm run seed first." >&2; exit 2; }

# run <operation> <variables as a JavaScript expression over the seed file `seed`>
run() {
  local operation=$1 variables=$2 environment body
  environment=$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")).environment' "$SEED_FILE")
  body=$(node -e '
    const fs = require("fs");
    const seed = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
    const customer = (key) => seed.customers.find((c) => c.key === key).customerId;
    const account = (key) => seed.accounts.find((a) => a.key === key).accountId;
    process.stdout.write(JSON.stringify({ query: fs.readFileSync(process.argv[2], "utf8"), operationName: process.argv[3], variables: eval(`(${process.argv[4]})`) }));
  ' "$SEED_FILE" "$QUERIES" "$operation" "$variables")
  printf '\n# %s\n' "$operation"
  curl -sS -X POST "$BASE/$environment/graphql" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' --data-binary "$body" \
    | node -e 'let s="";process.stdin.on("data",(d)=>(s+=d)).on("end",()=>{const r=JSON.parse(s);console.log(JSON.stringify(r,null,2));if(r.errors)process.exit(1);})'
}

run CustomerWithAccounts '{ customerId: customer("alex") }'
run AccountWithOwners '{ accountId: account("riveraJointChecking") }'
run CustomerPage '{ first: 3 }'
run RenameAccount '{ accountId: account("riveraJointChecking"), input: { name: "Rivera Family Checking", currency: "USD" } }'
