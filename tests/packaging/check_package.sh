#!/usr/bin/env bash
# check_package.sh BUILD_DIR [CPACK]: builds the .deb of a built tree into a temporary folder and
# checks its files, its control fields and that the packaged binary runs (headless).
# Exit 77 (skipped) when the Debian tools are missing.
set -euo pipefail

build_dir=${1:?usage: check_package.sh BUILD_DIR [CPACK]}
cpack=${2:-cpack}

for tool in dpkg-deb dpkg-shlibdeps; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "SKIP: $tool is not installed (package dpkg-dev)"
        exit 77
    fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/memorygraph-package.XXXXXX")
server_pid=
cleanup() {
    if [[ -n $server_pid ]]; then kill "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

echo "== cpack -G DEB (build tree $build_dir)"
if ! "$cpack" -G DEB --config "$build_dir/CPackConfig.cmake" -B "$work/out" >"$work/cpack.log" 2>&1; then
    cat "$work/cpack.log"
    echo "FAIL: cpack did not build the package"
    exit 1
fi
shopt -s nullglob
debs=("$work"/out/memorygraph_*.deb)
if [[ ${#debs[@]} -ne 1 ]]; then
    cat "$work/cpack.log"
    echo "FAIL: expected one memorygraph_*.deb, found ${#debs[@]}"
    exit 1
fi
deb=${debs[0]}
echo "package: $(basename "$deb")"

echo "== contents"
dpkg-deb -c "$deb" | awk '{print $NF}' | sed 's|^\./|/|' >"$work/contents.txt"
for path in /usr/bin/memorygraph \
            /usr/share/applications/memorygraph.desktop \
            /usr/share/icons/hicolor/256x256/apps/memorygraph.png \
            /usr/share/icons/hicolor/scalable/apps/memorygraph.svg \
            /usr/share/doc/memorygraph/copyright; do
    if grep -qx "$path" "$work/contents.txt"; then pass "$path"; else fail "$path missing"; fi
done

echo "== control fields"
field() { dpkg-deb -f "$deb" "$1"; }
[[ $(field Package) == memorygraph ]] && pass "Package: memorygraph" || fail "Package is '$(field Package)'"
[[ $(field Section) == utils ]] && pass "Section: utils" || fail "Section is '$(field Section)'"
depends=$(field Depends)
echo "Depends: $depends"
for dep in libqt6sql6-sqlite libqt6core6 libqt6widgets6 libqt6httpserver6 libsimdjson14 libssl3; do
    if grep -Eq "(^|[ ,])$dep([ ,(]|$)" <<<"$depends"; then pass "depends on $dep"; else fail "Depends lacks $dep"; fi
done

echo "== packaged binary"
dpkg-deb -x "$deb" "$work/root"
binary=$work/root/usr/bin/memorygraph
version=$(env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$binary" --version 2>&1 || true)
if [[ $version =~ ^memorygraph\ [0-9]+\.[0-9]+\.[0-9]+ ]]; then pass "--version: $version"; else fail "--version printed '$version'"; fi

# Headless on an ephemeral port: wait for the listening line, ask /health over bash's /dev/tcp,
# then SIGTERM must end it cleanly.
env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM MEMORY_AUTH_MODE=off \
    "$binary" --headless --port 0 --data-dir "$work/data" >"$work/stdout.txt" 2>"$work/stderr.txt" &
server_pid=$!
port=
for _ in $(seq 1 100); do
    port=$(sed -n 's|^memorygraph listening on http://127\.0\.0\.1:\([0-9]*\) .*|\1|p' "$work/stdout.txt")
    [[ -n $port ]] && break
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
done
if [[ -z $port ]]; then
    fail "headless run printed no listening line"
    cat "$work/stdout.txt" "$work/stderr.txt"
else
    pass "$(head -n1 "$work/stdout.txt")"
    status=
    if exec 3<>"/dev/tcp/127.0.0.1/$port"; then
        printf 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' >&3
        IFS= read -r -t 10 status <&3 || true
        exec 3<&-
    fi
    status=${status%$'\r'}
    if [[ $status == "HTTP/1.1 200"* ]]; then pass "GET /health: $status"; else fail "GET /health answered '$status'"; fi
fi
if kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid"
    code=0
    for _ in $(seq 1 100); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$server_pid" 2>/dev/null; then
        fail "headless run ignored SIGTERM for 10 s"
        kill -KILL "$server_pid" 2>/dev/null || true
    fi
    wait "$server_pid" || code=$?
    server_pid=
    if [[ $code -eq 0 ]]; then pass "SIGTERM: clean exit"; else fail "SIGTERM: exit code $code"; cat "$work/stderr.txt"; fi
fi

if [[ $failures -ne 0 ]]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "package checks passed"
