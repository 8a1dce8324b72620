#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance, run
# on Node 22 or later: the version package.json pins where the machine's is older than 22)
# against this project's /mcp, in both protocol eras it serves: each scenario
# runs at the revision named after its @. The suite
# cannot send a token, so the gateway runs with MCP_AUTH=off, which it only
# allows on a loopback address. Scenarios needing the suite's own fixture
# tools, prompts or resources are not run (tools-call-*, prompts-get-*,
# resources-read-*, completion-complete, input-required-result-*,
# json-schema-2020-12, http-custom-header-server-validation: the server has
# no x-mcp-header tool); logging-set-level is not either: the server does not
# declare the logging capability. server-stateless runs with the checks that
# need fixture tools baselined in expected-failures.yml.
#
#   test/gateway/mcp/conformance/run.sh            # builds the tests' content into a temp folder, starts the gateway, runs the scenarios
#   test/gateway/mcp/conformance/run.sh ping@2025-11-25   # only the scenarios named (as listed below)
#   MCP_URL=http://127.0.0.1:8787/mcp test/gateway/mcp/conformance/run.sh   # against a gateway you started with MCP_AUTH=off
set -euo pipefail
cd "$(dirname "$0")/../../../.."
. .ci/node.sh

ALL_SCENARIOS=(
  server-initialize@2025-11-25 ping@2025-11-25 tools-list@2025-11-25 resources-list@2025-11-25
  prompts-list@2025-11-25 dns-rebinding-protection@2025-11-25
  server-stateless@2026-07-28 tools-list@2026-07-28 resources-list@2026-07-28 prompts-list@2026-07-28
  dns-rebinding-protection@2026-07-28 caching@2026-07-28 http-header-validation@2026-07-28
  sep-2164-resource-not-found@2026-07-28 server-sse-multiple-streams@2026-07-28
)
SCENARIOS=("${@:-${ALL_SCENARIOS[@]}}")
for entry in "${SCENARIOS[@]}"; do
  [[ " ${ALL_SCENARIOS[*]} " == *" $entry "* ]] || { echo "✗ unknown scenario $entry (one of: ${ALL_SCENARIOS[*]})" >&2; exit 2; }
done
BASELINE=test/gateway/mcp/conformance/expected-failures.yml
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
  # A copy of the tests' own content (not content/, where authors work), built into the copy's own
  # dist/: the repository's dist/ is left alone. The copy has no git history: its build does without
  # it whatever REQUIRE_HISTORY the caller has (CI's is on, for the repository's own content).
  mkdir -p "$work/project"
  cp -R test/fixtures/content "$work/project/content"
  # The prebuilt commands (build/run.mjs), as `npm run build` and `npm start` run them: no TypeScript
  # compiled here (the test suite has most likely bundled them already).
  REQUIRE_HISTORY=off node build/run.mjs cli build --root "$work/project" --no-cache >/dev/null
  MCP_AUTH=off HOST=127.0.0.1 PORT=0 LOG_LEVEL=warn DIST_DIR="$work/project/dist" \
    node build/run.mjs serve 2>"$work/gateway.err" >"$work/gateway.out" &
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

echo "MCP conformance against $url (Node $(node --version))"
failed=()
for entry in "${SCENARIOS[@]}"; do
  scenario=${entry%@*}
  version=${entry#*@}
  if node "$SUITE" server --url "$url" --scenario "$scenario" --spec-version "$version" \
      --expected-failures "$BASELINE" -o "$work/results" >"$work/$entry.log" 2>&1; then
    echo "✓ $scenario ($version)"
  else
    echo "✗ $scenario ($version)"; sed 's/^/    /' "$work/$entry.log"
    failed+=("$entry")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "✗ ${#failed[@]} of ${#SCENARIOS[@]} conformance scenarios failed: ${failed[*]}" >&2
  exit 1
fi
echo "✓ all ${#SCENARIOS[@]} conformance scenarios passed"
