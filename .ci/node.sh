# Sourced (`. .ci/node.sh`) from the repository root by .ci/run and the MCP conformance script:
# Node 22 or later runs what follows, npm ci included (so no dependency finds its engine unmet).
# Where the machine's Node is older, the version package.json pins (the `node` package, 24) comes
# from the npm registry first and leads PATH; a machine on Node 22 or later keeps its own (the npm
# scripts run on the pinned Node anyway: npm puts its binary first on their PATH).
if ! node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 22 ? 0 : 1)' 2>/dev/null; then
  pinned=$(node -p 'require("./package.json").devDependencies.node')
  node_bin=$(npx -y -p "node@$pinned" node -p 'require("node:path").dirname(process.execPath)')
  export PATH="$node_bin:$PATH"
fi
