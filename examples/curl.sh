#!/usr/bin/env bash
# A tour of the REST API with curl, against a running service seeded with `npm run seed`:
#   npm run seed && npm start        # in one terminal
#   bash examples/curl.sh            # in another
# Reads the demo ids from $SEED_FILE (default $DATA_DIR/seed.json) and, when $TOKEN is unset, the
# development token that `npm start` keeps in $DATA_DIR/dev-api-token. Exits non-zero on any surprise.
set -euo pipefail

BASE=${BASE:-http://localhost:3000}
DATA_DIR=${DATA_DIR:-.data}
SEED_FILE=${SEED_FILE:-$DATA_DIR/seed.json}
TOKEN=${TOKEN:-$(cat "$DATA_DIR/dev-api-token" 2>/dev/null || true)}

[ -n "$TOKEN" ] || { echo "Set TOKEN (a bearer token), or start the service once so that $DATA_DIR/dev-api-token exists." >&2; exit 2; }
[ -f "$SEED_FILE" ] || { echo "No $SEED_FILE: run npm run seed first (with the service stopped when it uses the embedded database)." >&2; exit 2; }

# json <file-or-> <expression over `it`>: evaluates a JavaScript expression on JSON (no jq needed).
json() { node -e 'const fs=require("fs");const it=JSON.parse(fs.readFileSync(process.argv[1]==="-"?0:process.argv[1],"utf8"));const v=eval(process.argv[2]);process.stdout.write(typeof v==="string"?v:JSON.stringify(v,null,2));' "$1" "$2"; }

ENVIRONMENT=$(json "$SEED_FILE" 'it.environment')
ALEX=$(json "$SEED_FILE" 'it.customers.find(c=>c.key==="alex").customerId')
JOINT=$(json "$SEED_FILE" 'it.accounts.find(a=>a.key==="riveraJointChecking").accountId')
BODY=$(mktemp)
trap 'rm -f "$BODY"' EXIT

# call <expected status> <method> <path> [json body]: prints the exchange, fails on another status.
call() {
  local expected=$1 method=$2 path=$3 data=${4:-}
  local args=(-sS -o "$BODY" -w '%{http_code}' -X "$method" "$BASE$path" -H "Authorization: Bearer $TOKEN")
  [ -n "$data" ] && args+=(-H 'Content-Type: application/json' --data-binary "$data")
  printf '\n$ %s %s\n' "$method" "$path"
  local status
  status=$(curl "${args[@]}")
  json "$BODY" 'it'; printf '\n→ %s\n' "$status"
  [ "$status" = "$expected" ] || { echo "Expected HTTP $expected, got $status" >&2; exit 1; }
}

echo "== A seeded customer and the account she shares with Jordan"
call 200 GET "/$ENVIRONMENT/customer/$ALEX"
call 200 GET "/$ENVIRONMENT/account/$JOINT"

echo; echo "== A new customer: create (SSN from the documentation range), read, update"
SSN=$(printf '123-45-%04d' $(( (RANDOM % 9999) + 1 )))
call 201 POST "/$ENVIRONMENT/customer" "{\"socialSecurityNumber\":\"$SSN\",\"dateOfBirth\":\"1990-02-28\",\"documentLocatorNumber\":424242,\"preferredName\":\"Sky\",\"firstName\":\"Skyler\",\"middleName\":\"\",\"lastName\":\"Nguyen\",\"emails\":[\"sky@example.com\"],\"phoneNumbers\":[{\"type\":\"MOBILE\",\"number\":\"+1 555 010 0199\"}],\"addresses\":[]}"
SKY=$(json "$BODY" 'it.data.customerId')
call 200 PUT "/$ENVIRONMENT/customer/$SKY" '{"preferredName":"Sky N.","emails":["sky.nguyen@example.com"]}'

echo; echo "== A second joint account for Alex and the new customer"
call 201 POST "/$ENVIRONMENT/account" "{\"associatedCustomerIds\":[\"$ALEX\",\"$SKY\"],\"name\":\"Shared Expenses\",\"currency\":\"USD\",\"type\":\"CHECKING\"}"
SHARED=$(json "$BODY" 'it.data.accountId')
call 200 PUT "/$ENVIRONMENT/account/$SHARED" '{"name":"Shared Household Expenses","currency":"USD"}'

echo; echo "== Money: a deposit, a hold posted for less, and a transfer to the seeded joint account"
call 201 POST "/$ENVIRONMENT/account/$SHARED/transaction" '{"type":"CREDIT","amount":100,"description":"Opening deposit"}'
call 201 POST "/$ENVIRONMENT/account/$SHARED/transaction" '{"type":"DEBIT","amount":30,"hold":true,"description":"Card authorisation"}'
HOLD=$(json "$BODY" 'it.data.transactionId')
call 200 POST "/$ENVIRONMENT/account/$SHARED/transaction/$HOLD/post" '{"amount":25}'
call 201 POST "/$ENVIRONMENT/transfer" "{\"fromAccountId\":\"$SHARED\",\"toAccountId\":\"$JOINT\",\"amount\":75,\"description\":\"Move the rest\"}"
call 200 GET "/$ENVIRONMENT/account/$SHARED/transaction?limit=5"
call 200 GET "/$ENVIRONMENT/event?types=transaction.posted&limit=3"

echo; echo "== Deleting a customer who still has an account is refused; delete the account first"
call 409 DELETE "/$ENVIRONMENT/customer/$SKY"
call 200 DELETE "/$ENVIRONMENT/account/$SHARED"
call 200 DELETE "/$ENVIRONMENT/customer/$SKY"
call 404 GET "/$ENVIRONMENT/customer/$SKY"

echo; echo "== The audit trail of this environment (first 3 events)"
call 200 GET "/$ENVIRONMENT/audit-events?first=3"

echo; echo "Done. The full reference: $BASE/docs"
