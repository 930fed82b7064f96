#!/usr/bin/env bash
# Interoperability with the official TypeScript MCP SDK client (sdk_interop.mjs): a headless
# Memory Graph on an ephemeral port, then the SDK over Streamable HTTP and over stdio.
# Usage: run_interop.sh <memorygraph binary> <work folder>. Installs the SDK from npm into the
# work folder once (or uses MEMORYGRAPH_MCP_SDK_DIR); exits 77 (skipped) without node or npm, or
# when the SDK cannot be installed.
set -euo pipefail
binary=$1
work=$2
sdk_version=1.32.2
here=$(cd "$(dirname "$0")" && pwd)

command -v node >/dev/null || { echo "node not found: skipped"; exit 77; }
sdk_dir=${MEMORYGRAPH_MCP_SDK_DIR:-$work/sdk-$sdk_version}
if [ ! -f "$sdk_dir/node_modules/@modelcontextprotocol/sdk/package.json" ]; then
    command -v npm >/dev/null || { echo "npm not found: skipped"; exit 77; }
    mkdir -p "$sdk_dir"
    [ -f "$sdk_dir/package.json" ] || echo '{"private": true}' > "$sdk_dir/package.json"
    if ! timeout 300 npm install --prefix "$sdk_dir" --no-audit --no-fund \
        "@modelcontextprotocol/sdk@$sdk_version" > "$sdk_dir/install.log" 2>&1; then
        tail -n 5 "$sdk_dir/install.log"
        echo "@modelcontextprotocol/sdk could not be installed: skipped"
        exit 77
    fi
fi
# Next to its node_modules, so the script's imports resolve.
cp "$here/sdk_interop.mjs" "$sdk_dir/sdk_interop.mjs"

run=$(mktemp -d "${TMPDIR:-/tmp}/memorygraph-interop.XXXXXX")
mkdir -p "$run/owned" "$run/fresh"
env -u DISPLAY -u WAYLAND_DISPLAY "$binary" --headless --port 0 --data-dir "$run/owned" \
    > "$run/server.out" 2> "$run/server.err" &
server=$!
cleanup() {
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    rm -rf "$run"
}
trap cleanup EXIT

url=
for _ in $(seq 1 300); do
    url=$(sed -n 's/.*listening on \(http:[^ ]*\).*/\1/p' "$run/server.out")
    [ -n "$url" ] && break
    kill -0 "$server" 2>/dev/null || break
    sleep 0.1
done
if [ -z "$url" ]; then
    echo "memorygraph did not start:"; cat "$run/server.err"; exit 1
fi
env -u DISPLAY -u WAYLAND_DISPLAY node "$sdk_dir/sdk_interop.mjs" "$url/mcp" "$binary" \
    "$run/owned" "$run/fresh"
