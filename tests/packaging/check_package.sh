#!/usr/bin/env bash
# check_package.sh BUILD_DIR OUT_DIR [CPACK]: builds the .deb of a built tree into OUT_DIR (kept
# for the lintian test) and checks its files, its control fields and that the packaged binary
# runs (headless). Exit 77 (skipped) when the Debian tools are missing.
set -euo pipefail

build_dir=${1:?usage: check_package.sh BUILD_DIR OUT_DIR [CPACK]}
out_dir=${2:?usage: check_package.sh BUILD_DIR OUT_DIR [CPACK]}
cpack=${3:-cpack}

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
rm -rf "$out_dir"
if ! "$cpack" -G DEB --config "$build_dir/CPackConfig.cmake" -B "$out_dir" >"$work/cpack.log" 2>&1; then
    cat "$work/cpack.log"
    echo "FAIL: cpack did not build the package"
    exit 1
fi
shopt -s nullglob
debs=("$out_dir"/memorygraph_*.deb)
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
            /usr/share/metainfo/org.memorygraph.MemoryGraph.metainfo.xml \
            /usr/share/man/man1/memorygraph.1.gz \
            /usr/lib/systemd/user/memorygraph.service \
            /usr/share/doc/memorygraph/copyright \
            /usr/share/doc/memorygraph/changelog.gz \
            /usr/share/doc/memorygraph/README.md \
            /usr/share/doc/memorygraph/LICENSE; do
    if grep -qx "$path" "$work/contents.txt"; then pass "$path"; else fail "$path missing"; fi
done

echo "== control fields"
field() { dpkg-deb -f "$deb" "$1"; }
expect_field() {
    local value
    value=$(field "$1")
    if [[ $value == "$2" ]]; then pass "$1: $value"; else fail "$1 is '$value', expected '$2'"; fi
}
expect_field Package memorygraph
expect_field Section utils
expect_field Maintainer "Memory Graph maintainers <maintainers@memorygraph.org>"
expect_field Homepage "https://github.com/memorygraph/memorygraph"
depends=$(field Depends)
echo "Depends: $depends"
for dep in libqt6sql6-sqlite libqt6core6 libqt6widgets6 libqt6httpserver6 libsimdjson14 libssl3; do
    if grep -Eq "(^|[ ,])$dep([ ,(]|$)" <<<"$depends"; then pass "depends on $dep"; else fail "Depends lacks $dep"; fi
done

echo "== packaged files"
dpkg-deb -x "$deb" "$work/root"
version=$(field Version)
changelog_version=$(zcat "$work/root/usr/share/doc/memorygraph/changelog.gz" | sed -n '1s/^memorygraph (\([^)]*\)).*/\1/p')
if [[ $changelog_version == "$version" ]]; then pass "changelog names $version"; else fail "changelog names '$changelog_version', the package is $version"; fi
man_page=$(zcat "$work/root/usr/share/man/man1/memorygraph.1.gz")
if grep -q '^\.TH MEMORYGRAPH "1"' <<<"$man_page" && grep -q 'headless' <<<"$man_page"; then
    pass "man page from --help"
else
    fail "the man page is not memorygraph(1) generated from --help"
fi
unit=$work/root/usr/lib/systemd/user/memorygraph.service
if grep -qx 'ExecStart=memorygraph --headless' "$unit" && grep -qx 'Restart=on-failure' "$unit" \
   && grep -qx 'WantedBy=default.target' "$unit"; then
    pass "systemd user unit runs memorygraph --headless"
else
    fail "the systemd user unit does not run memorygraph --headless with Restart=on-failure"
fi

echo "== packaged binary"
binary=$work/root/usr/bin/memorygraph
version_line=$(env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$binary" --version 2>&1 || true)
if [[ $version_line == "memorygraph $version" ]]; then pass "--version: $version_line"; else fail "--version printed '$version_line'"; fi

# Headless on an ephemeral port: wait for the listening line, ask /health over bash's /dev/tcp,
# then SIGTERM must end it cleanly (as systemctl --user stop does).
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
