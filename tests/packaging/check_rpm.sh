#!/usr/bin/env bash
# check_rpm.sh BUILD_DIR [CPACK]: builds the .rpm of a built tree and checks its files and
# fields with rpm -qlp / -qp. Exit 77 (skipped) when rpmbuild or rpm is not installed.
set -euo pipefail

build_dir=${1:?usage: check_rpm.sh BUILD_DIR [CPACK]}
cpack=${2:-cpack}
for tool in rpmbuild rpm; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "SKIP: $tool is not installed (package rpm)"
        exit 77
    fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/memorygraph-rpm.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

echo "== cpack -G RPM (build tree $build_dir)"
if ! "$cpack" -G RPM --config "$build_dir/CPackConfig.cmake" -B "$work/out" >"$work/cpack.log" 2>&1; then
    cat "$work/cpack.log"
    echo "FAIL: cpack did not build the package"
    exit 1
fi
shopt -s nullglob
rpms=("$work"/out/memorygraph-*.rpm)
if [[ ${#rpms[@]} -ne 1 ]]; then
    cat "$work/cpack.log"
    echo "FAIL: expected one memorygraph-*.rpm, found ${#rpms[@]}"
    exit 1
fi
rpm_file=${rpms[0]}
echo "package: $(basename "$rpm_file")"

echo "== contents (rpm -qlp)"
rpm -qlp "$rpm_file" >"$work/contents.txt"
for path in /usr/bin/memorygraph \
            /usr/share/applications/memorygraph.desktop \
            /usr/share/icons/hicolor/256x256/apps/memorygraph.png \
            /usr/share/icons/hicolor/scalable/apps/memorygraph.svg \
            /usr/share/metainfo/org.memorygraph.MemoryGraph.metainfo.xml \
            /usr/share/man/man1/memorygraph.1.gz \
            /usr/lib/systemd/user/memorygraph.service \
            /usr/share/doc/memorygraph/README.md \
            /usr/share/doc/memorygraph/LICENSE; do
    if grep -qx "$path" "$work/contents.txt"; then pass "$path"; else fail "$path missing"; fi
done
# Shared folders belong to the filesystem and other packages; owning them breaks installs.
for shared in /usr/share/man/man1 /usr/share/icons/hicolor /usr/share/metainfo \
              /usr/lib/systemd/user /usr/share/applications /usr/lib/.build-id; do
    if grep -qx "$shared" "$work/contents.txt"; then fail "claims the shared folder $shared"; else pass "leaves $shared alone"; fi
done

echo "== fields (rpm -qp)"
query() { rpm -qp --queryformat "%{$1}" "$rpm_file" 2>/dev/null; }
expect() {
    local value
    value=$(query "$1")
    if [[ $value == "$2" ]]; then pass "$1: $value"; else fail "$1 is '$value', expected '$2'"; fi
}
expect NAME memorygraph
expect LICENSE GPL-3.0-or-later
expect URL https://github.com/memorygraph/memorygraph
expect VENDOR "Memory Graph maintainers"
if query DESCRIPTION | grep -q 'memory graph service for AI agents'; then pass "description"; else fail "description is '$(query DESCRIPTION)'"; fi
requires=$(rpm -qp --requires "$rpm_file" 2>/dev/null)
for lib in libQt6Core.so.6 libQt6HttpServer.so.6 libQt6Widgets.so.6 libsimdjson.so libcrypto.so.3; do
    if grep -q "^$lib" <<<"$requires"; then pass "requires $lib"; else fail "Requires lacks $lib"; fi
done

if [[ $failures -ne 0 ]]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "rpm checks passed"
