#!/usr/bin/env bash
# The package as a user gets it: pack the tarball, install it into an empty directory, and run it from there:
# --version, serve (to /readyz) and MCP calls (initialize, tools/list, get_canvas) with the token serve printed. Run by .ci/run after the build.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
serve_pid=""
cleanup() {
  if [ -n "$serve_pid" ]; then kill -TERM -- "-$serve_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

cd "$root"
# The tarball holds dist as `npm run build` made it: .ci/run's `npm ci` ran that build a few minutes before, so packing
# skips `prepare` rather than build the same sources a second time (40 s of CI). Run alone after an edit, or with no
# build at all, the smoke builds first, so it never packs a stale dist.
if [ ! -x dist/cli/main.js ] || [ ! -f dist/web/index.html ] ||
  [ -n "$(find src web/src web/index.html web/app.html tsconfig.json tsconfig.build.json package.json -newer dist/cli/main.js -print -quit)" ]; then
  echo "sources changed since the last build: npm run build"
  npm run -s build
fi
tarball=$(npm pack --ignore-scripts --silent --pack-destination "$work" | tail -1)
tar -tzf "$work/$tarball" > "$work/contents.txt"
echo "packed $tarball: $(du -k "$work/$tarball" | cut -f1) KiB, $(wc -l < "$work/contents.txt") files"
required=(package/LICENSE package/README.md package/docs/operations.md package/migrations/001_initial.sql package/dist/cli/main.js)
# The web canvas is built into dist/web by `npm run build`: shipped whenever it was built.
[ -f dist/web/index.html ] && required+=(package/dist/web/index.html)
for path in "${required[@]}"; do
  grep -qx "$path" "$work/contents.txt" || { echo "the tarball lacks $path"; exit 1; }
done

# better-sqlite3's prebuilt binaries are on GitHub, out of this machine's reach, so `npm ci` compiled SQLite into
# node_modules (70 s). That binary is handed to the install below as a local prebuild (prebuild-install's
# `local-prebuilds`), named for its version and this Node's ABI: the same version is not compiled twice, and any other
# version finds no file of its name and compiles as a user's install would.
sqlite_module=node_modules/better-sqlite3
if [ -f "$sqlite_module/build/Release/better_sqlite3.node" ]; then
  mkdir "$work/prebuilds"
  prebuild="better-sqlite3-v$(node -p "require('./$sqlite_module/package.json').version")"
  prebuild+="-node-v$(node -p 'process.versions.modules')-$(node -p 'process.platform + "-" + process.arch').tar.gz"
  tar -czf "$work/prebuilds/$prebuild" -C "$sqlite_module" build/Release/better_sqlite3.node
  export npm_config_better_sqlite3_local_prebuilds="$work/prebuilds"
fi

mkdir "$work/app"
cd "$work/app"
echo '{ "name": "canvas-mcp-smoke", "private": true }' > package.json
# A tarball dependency is installed from its built files: npm runs no `prepare` for it (which would need the
# devDependencies); better-sqlite3 takes the local prebuild above, or compiles when there is none.
# --prefer-offline: the packages `npm ci` fetched moments ago come from npm's cache, not the registry again.
started=$(date +%s)
npm install --no-audit --no-fund --prefer-offline --loglevel=error "$work/$tarball"
echo "installed in $(( $(date +%s) - started )) s"

expected=$(node -p "require('$root/package.json').version")
actual=$(./node_modules/.bin/canvas-mcp --version)
[ "$actual" = "$expected" ] || { echo "canvas-mcp --version printed '$actual', expected '$expected'"; exit 1; }
echo "canvas-mcp --version: $actual"

log="$work/serve.log"
setsid ./node_modules/.bin/canvas-mcp serve --data "$work/data" --port 0 > "$log" 2>&1 &
serve_pid=$!
url=""
for _ in $(seq 1 150); do
  url=$(grep -oE 'listening on http://[0-9.:]+' "$log" | sed 's/listening on //' || true)
  [ -n "$url" ] && break
  kill -0 "$serve_pid" 2>/dev/null || break
  sleep 0.2
done
[ -n "$url" ] || { echo "serve did not start from the installed package:"; cat "$log"; exit 1; }
curl -fsS "$url/readyz" > /dev/null || { echo "serve is not ready:"; cat "$log"; exit 1; }
token=$(grep -oE 'token \(shown once, keep it\): +cmcp_[^ ]+' "$log" | awk '{print $NF}')
[ -n "$token" ] || { echo "serve printed no token:"; cat "$log"; exit 1; }

mcp() {
  curl -fsS "$url/mcp/" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    -H 'Accept: application/json, text/event-stream' -H 'MCP-Protocol-Version: 2025-06-18' -d "$1"
}
initialized=$(mcp '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"smoke","version":"1"}}}')
[[ "$initialized" == *'"protocolVersion":"2025-06-18"'* ]] || { echo "initialize failed: $initialized"; cat "$log"; exit 1; }
tools=$(mcp '{"jsonrpc":"2.0","id":2,"method":"tools/list"}')
for tool in list_zone_skills get_canvas create_canvas_node delete_canvas_node get_canvas_node_run cancel_canvas_node_run; do
  [[ "$tools" == *"\"name\":\"$tool\""* ]] || { echo "tools/list lacks $tool"; exit 1; }
done
canvas=$(mcp '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_canvas","arguments":{"project_id":"demo","canvas_id":"main"}}}')
[[ "$canvas" == *'"structuredContent"'* && "$canvas" == *'"id":"frame-1"'* ]] || { echo "tools/call get_canvas failed: ${canvas:0:500}"; cat "$log"; exit 1; }
openapi=$(curl -fsS "$url/api/openapi.json")
[[ "$openapi" == *'"openapi":"3.1.0"'* ]] || { echo "no OpenAPI document"; exit 1; }
echo "serve from the installed package: /readyz, initialize, tools/list (six tools), tools/call get_canvas (the demo) and /api/openapi.json answered"

kill -TERM -- "-$serve_pid"
wait "$serve_pid" || true
serve_pid=""
grep -q 'SIGTERM: shutting down' "$log" || { echo "serve did not shut down on SIGTERM:"; cat "$log"; exit 1; }
echo "package smoke test passed"
