#!/usr/bin/env bash
# A sandbox's time travel with curl (docs/clock.md), against a running service:
#   npm start                        # in one terminal
#   bash examples/time-travel.sh     # in another
# Opens an account with a hold that expires in 10 days and a freeze that ends in 15, moves the sandbox's clock
# a month forward in one call, and shows that every end of day in between ran: the hold voided, the freeze lifted,
# each day's steps with their counts. When $TOKEN is unset it reads the development token that `npm start` keeps
# in $DATA_DIR/dev-api-token. Exits non-zero on any surprise.
set -euo pipefail

BASE=${BASE:-http://localhost:3000}
DATA_DIR=${DATA_DIR:-.data}
ENVIRONMENT=${ENVIRONMENT:-sandbox}
TOKEN=${TOKEN:-$(cat "$DATA_DIR/dev-api-token" 2>/dev/null || true)}

[ -n "$TOKEN" ] || { echo "Set TOKEN (a bearer token), or start the service once so that $DATA_DIR/dev-api-token exists." >&2; exit 2; }

# json <file-or-> <expression over `it`>: evaluates a JavaScript expression on JSON (no jq needed).
json() { node -e 'const fs=require("fs");const it=JSON.parse(fs.readFileSync(process.argv[1]==="-"?0:process.argv[1],"utf8"));const v=eval(process.argv[2]);process.stdout.write(typeof v==="string"?v:JSON.stringify(v,null,2));' "$1" "$2"; }
BODY=$(mktemp)
trap 'rm -f "$BODY"' EXIT

# call <expected status> <method> <path> [json body]: prints the exchange, fails on another status.
call() {
  local expected=$1 method=$2 path=$3 data=${4:-}
  local args=(-sS -o "$BODY" -w '%{http_code}' -X "$method" "$BASE$path" -H "Authorization: Bearer $TOKEN")
  [ -n "$data" ] && args+=(-H 'Content-Type: application/json' --data-binary "$data")
  [ "$method" = POST ] && [[ "$path" != */clock/advance ]] && args+=(-H "Idempotency-Key: time-travel-$RANDOM$RANDOM")
  printf '\n$ %s %s\n' "$method" "$path"
  local status
  status=$(curl "${args[@]}")
  json "$BODY" 'it'; printf '\n→ %s\n' "$status"
  [ "$status" = "$expected" ] || { echo "Expected HTTP $expected, got $status" >&2; exit 1; }
}
# at <days>: the environment's time plus that many days, ISO 8601.
at() { node -e 'process.stdout.write(new Date(Date.parse(process.argv[1]) + Number(process.argv[2]) * 86400000).toISOString())' "$NOW" "$1"; }

echo "== The sandbox's clock"
call 200 GET "/$ENVIRONMENT/clock"
NOW=$(json "$BODY" 'it.data.now')
START=$(json "$BODY" 'it.data.businessDate')

echo "== An account with 100 in it, a hold of 40 that expires in 10 days, a freeze that ends in 15"
call 201 POST "/$ENVIRONMENT/customer" "{\"socialSecurityNumber\":\"123-45-$(printf %04d $((RANDOM % 10000)))\",\"dateOfBirth\":\"1990-01-01\",\"documentLocatorNumber\":12345678942,
  \"preferredName\":\"Tess\",\"firstName\":\"Tess\",\"middleName\":\"\",\"lastName\":\"Traveler\",\"emails\":[\"tess@example.com\"],\"phoneNumbers\":[],\"addresses\":[]}"
CUSTOMER=$(json "$BODY" 'it.data.customerId')
call 201 POST "/$ENVIRONMENT/account" "{\"associatedCustomerIds\":[\"$CUSTOMER\"],\"name\":\"Time Travel Checking\",\"currency\":\"USD\",\"type\":\"CHECKING\"}"
ACCOUNT=$(json "$BODY" 'it.data.accountId')
call 201 POST "/$ENVIRONMENT/account/$ACCOUNT/transaction" '{"type":"CREDIT","amount":100,"description":"Opening deposit"}'
call 201 POST "/$ENVIRONMENT/account/$ACCOUNT/transaction" "{\"type\":\"DEBIT\",\"amount\":40,\"hold\":true,\"expiresAt\":\"$(at 10)\",\"description\":\"Hotel deposit\"}"
HOLD=$(json "$BODY" 'it.data.transactionId')
call 200 PUT "/$ENVIRONMENT/account/$ACCOUNT/flags/FROZEN" "{\"reason\":\"Travel notice\",\"until\":\"$(at 15)\"}"

echo "== A month later, in one call: every end of day in between runs, in order, before it answers"
call 200 POST "/$ENVIRONMENT/clock/advance" '{"days":30}'
[ "$(json "$BODY" 'String(it.data.businessDaysRun)')" = 30 ] || { echo "Expected 30 business days run" >&2; exit 1; }
call 200 GET "/$ENVIRONMENT/account/$ACCOUNT/transaction/$HOLD"
[ "$(json "$BODY" 'it.data.status')" = VOIDED ] || { echo "Expected the hold to have expired" >&2; exit 1; }
call 200 GET "/$ENVIRONMENT/account/$ACCOUNT"
[ "$(json "$BODY" 'String(it.data.flags.length)')" = 0 ] || { echo "Expected the freeze to have ended" >&2; exit 1; }
call 200 GET "/$ENVIRONMENT/end-of-day?from=$START&to=$(at 30 | cut -c1-10)"
echo
echo "Days closed: $(json "$BODY" 'String(it.data.days.filter(d=>d.status==="COMPLETED").length)'); holds voided: $(json "$BODY" 'String(it.data.days.flatMap(d=>d.steps).filter(s=>s.step==="hold-expiry").reduce((n,s)=>n+s.records,0))'); flags lifted: $(json "$BODY" 'String(it.data.days.flatMap(d=>d.steps).filter(s=>s.step==="flag-expiry").reduce((n,s)=>n+s.records,0))')"

echo "Done."
