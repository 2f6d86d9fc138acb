#!/usr/bin/env bash
# Webhooks end to end against a running service: registers a local receiver with the CLI, makes a change,
# and waits until the receiver has verified the signed delivery with the Standard Webhooks library.
#   WEBHOOKS_ALLOW_PRIVATE_NETWORKS=true npm start   # in one terminal (development only: lets webhooks reach 127.0.0.1)
#   bash examples/webhooks.sh                        # in another
# With the embedded database the CLI shares the server `npm start` runs. Exits non-zero on any surprise.
set -euo pipefail

BASE=${BASE:-http://localhost:3000}
DATA_DIR=${DATA_DIR:-.data}
TOKEN=${TOKEN:-$(cat "$DATA_DIR/dev-api-token" 2>/dev/null || true)}
ENVIRONMENT=${ENVIRONMENT:-sandbox}
RECEIVER_PORT=${RECEIVER_PORT:-4000}
# How to run the CLI: by default built once here, then `node dist/cli/webhook.js` (what `npm run webhook --`
# runs after its build); the suite runs the source with tsx instead.
if [ -z "${WEBHOOK_CLI:-}" ]; then
  npm run --silent build >&2
  WEBHOOK_CLI="node dist/cli/webhook.js"
fi
read -r -a WEBHOOK_CLI <<< "$WEBHOOK_CLI"
# The CLI checks the URL as the service does at registration: it must accept 127.0.0.1 as well.
export WEBHOOKS_ALLOW_PRIVATE_NETWORKS=true

[ -n "$TOKEN" ] || { echo "Set TOKEN (a bearer token), or start the service once so that $DATA_DIR/dev-api-token exists." >&2; exit 2; }

json() { node -e 'const fs=require("fs");const it=JSON.parse(fs.readFileSync(process.argv[1]==="-"?0:process.argv[1],"utf8"));const v=eval(process.argv[2]);process.stdout.write(typeof v==="string"?v:JSON.stringify(v,null,2));' "$1" "$2"; }

WORK=$(mktemp -d)
RECEIVER=
ENDPOINT=
cleanup() {
  [ -n "$RECEIVER" ] && kill "$RECEIVER" 2>/dev/null || true
  [ -n "$ENDPOINT" ] && "${WEBHOOK_CLI[@]}" delete "$ENDPOINT" --env "$ENVIRONMENT" > /dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

echo "== Register a local receiver (the secret is printed this once)"
echo "\$ npm run webhook -- create --env $ENVIRONMENT --url http://127.0.0.1:$RECEIVER_PORT/cas --types customer.created"
"${WEBHOOK_CLI[@]}" create --env "$ENVIRONMENT" --url "http://127.0.0.1:$RECEIVER_PORT/cas" --types customer.created > "$WORK/endpoint.json"
cat "$WORK/endpoint.json"
ENDPOINT=$(json "$WORK/endpoint.json" 'it.endpointId')
SECRET=$(json "$WORK/endpoint.json" 'it.secret')

echo; echo "== Start the receiver: it verifies each delivery with the standardwebhooks package"
echo "\$ npx tsx --conditions=source examples/webhook-receiver.ts --port $RECEIVER_PORT --secret whsec_… --count 1"
npx tsx --conditions=source examples/webhook-receiver.ts --port "$RECEIVER_PORT" --secret "$SECRET" --count 1 > "$WORK/received.ndjson" &
RECEIVER=$!
for _ in $(seq 100); do (exec 3<> "/dev/tcp/127.0.0.1/$RECEIVER_PORT") 2>/dev/null && break; sleep 0.1; done

echo; echo "== Make a change: a new customer (customer.created)"
# A random SSN from the documentation range; another try if it is taken (409 CUSTOMER_ALREADY_EXISTS).
for _ in 1 2 3; do
  SSN=$(printf '123-45-%04d' $(( (RANDOM % 9999) + 1 )))
  STATUS=$(curl -sS -o "$WORK/customer.json" -w '%{http_code}' -X POST "$BASE/$ENVIRONMENT/customer" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
    --data-binary "{\"socialSecurityNumber\":\"$SSN\",\"dateOfBirth\":\"1991-07-04\",\"documentLocatorNumber\":515151,\"preferredName\":\"Robin\",\"firstName\":\"Robin\",\"middleName\":\"\",\"lastName\":\"Hooks\",\"emails\":[\"robin@example.com\"],\"phoneNumbers\":[],\"addresses\":[]}")
  [ "$STATUS" = 409 ] || break
done
[ "$STATUS" = 201 ] || { echo "Expected HTTP 201 creating the customer, got $STATUS" >&2; cat "$WORK/customer.json" >&2; exit 1; }
CUSTOMER=$(json "$WORK/customer.json" 'it.data.customerId')
echo "→ 201, customer $CUSTOMER"

echo; echo "== The delivery, as the receiver verified it"
for _ in $(seq 300); do kill -0 "$RECEIVER" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$RECEIVER" 2>/dev/null; then
  echo "No verified delivery within 30 s. Was the service started with WEBHOOKS_ALLOW_PRIVATE_NETWORKS=true? Its attempts:" >&2
  "${WEBHOOK_CLI[@]}" attempts "$ENDPOINT" --env "$ENVIRONMENT" >&2 || true
  exit 1
fi
wait "$RECEIVER" || { echo "The receiver failed" >&2; cat "$WORK/received.ndjson" >&2; exit 1; }
RECEIVER=
cat "$WORK/received.ndjson"
grep -q '"verified":true' "$WORK/received.ndjson" && grep -q "\"resourceId\":\"$CUSTOMER\"" "$WORK/received.ndjson" \
  || { echo "The receiver did not verify the delivery of customer $CUSTOMER" >&2; exit 1; }

sleep 1 # the service records the attempt once the answer is in
echo; echo "== The endpoint's attempts: one, answered 204"
echo "\$ npm run webhook -- attempts $ENDPOINT --env $ENVIRONMENT"
"${WEBHOOK_CLI[@]}" attempts "$ENDPOINT" --env "$ENVIRONMENT"

curl -sS -o /dev/null -X DELETE "$BASE/$ENVIRONMENT/customer/$CUSTOMER" -H "Authorization: Bearer $TOKEN"
echo; echo "Done (the endpoint is deleted on exit)."
