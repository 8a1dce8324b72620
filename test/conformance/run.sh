#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance, run
# under Node 22 from npm) against this project's /mcp. The suite cannot send
# a token, so the gateway runs with MCP_AUTH=off, which it only allows on a
# loopback address. Scenarios needing the suite's own fixture tools, prompts
# or resources are not run; logging-set-level is not either: the server does
# not declare the logging capability.
#
#   test/conformance/run.sh            # builds dist/ into a temp folder, starts the gateway, runs the scenarios
#   MCP_URL=http://127.0.0.1:8787/mcp test/conformance/run.sh   # against a gateway you started with MCP_AUTH=off
set -euo pipefail
cd "$(dirname "$0")/../.."

SCENARIOS=(server-initialize ping tools-list resources-list prompts-list dns-rebinding-protection)
SUITE=./node_modules/@modelcontextprotocol/conformance/dist/index.js
work=$(mktemp -d)
gateway_pid=""
cleanup() {
  if [ -n "$gateway_pid" ]; then kill "$gateway_pid" 2>/dev/null || true; wait "$gateway_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

url=${MCP_URL:-}
if [ -z "$url" ]; then
  # A copy of the content, built into the copy's own dist/: the repository's dist/ is left alone.
  mkdir -p "$work/project"
  cp -R content "$work/project/content"
  ./node_modules/.bin/tsx build/cli.ts build --root "$work/project" --no-cache >/dev/null
  MCP_AUTH=off HOST=127.0.0.1 PORT=0 LOG_LEVEL=warn DIST_DIR="$work/project/dist" \
    ./node_modules/.bin/tsx gateway/serve.ts 2>"$work/gateway.err" >"$work/gateway.out" &
  gateway_pid=$!
  for _ in $(seq 1 300); do
    base=$(grep -o 'serving build [0-9a-f]* at http://[^ ]*' "$work/gateway.err" | sed 's/.* at //' || true)
    [ -n "$base" ] && break
    kill -0 "$gateway_pid" 2>/dev/null || { cat "$work/gateway.err" >&2; echo "✗ the gateway did not start" >&2; exit 1; }
    sleep 0.2
  done
  [ -n "${base:-}" ] || { cat "$work/gateway.err" >&2; echo "✗ the gateway did not start in time" >&2; exit 1; }
  url="$base/mcp"
fi

echo "MCP conformance against $url"
failed=()
for scenario in "${SCENARIOS[@]}"; do
  if npx -y -p node@22 node "$SUITE" server --url "$url" --scenario "$scenario" -o "$work/results" >"$work/$scenario.log" 2>&1; then
    echo "✓ $scenario"
  else
    echo "✗ $scenario"; sed 's/^/    /' "$work/$scenario.log"
    failed+=("$scenario")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "✗ ${#failed[@]} of ${#SCENARIOS[@]} conformance scenarios failed: ${failed[*]}" >&2
  exit 1
fi
echo "✓ all ${#SCENARIOS[@]} conformance scenarios passed"
