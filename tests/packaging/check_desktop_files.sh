#!/usr/bin/env bash
# check_desktop_files.sh CHECK SOURCE_DIR BUILD_DIR VERSION: the Linux desktop integration files,
# one check per CTest test. Exit 77 (skipped) when the check's tool is not installed.
#   desktop   desktop-file-validate on resources/memorygraph.desktop
#   metainfo  appstreamcli validate on the AppStream file, and that it agrees with the desktop
#             entry, the project version and the package changelog
#   unit      systemd-analyze verify on the configured systemd user unit
set -euo pipefail

check=${1:?usage: check_desktop_files.sh desktop|metainfo|unit SOURCE_DIR BUILD_DIR VERSION}
source_dir=${2:?}
build_dir=${3:?}
version=${4:?}
desktop=$source_dir/resources/memorygraph.desktop
metainfo=$source_dir/installer/linux/org.memorygraph.MemoryGraph.metainfo.xml

need() {
    if ! command -v "$1" >/dev/null 2>&1; then
        echo "SKIP: $1 is not installed (package $2)"
        exit 77
    fi
}
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

case $check in
desktop)
    need desktop-file-validate desktop-file-utils
    # It prints errors, warnings and hints; any of them fails the check.
    output=$(desktop-file-validate "$desktop" 2>&1) && [[ -z $output ]] \
        && pass "desktop-file-validate $(basename "$desktop")" \
        || fail "desktop-file-validate: $output"
    ;;
metainfo)
    need appstreamcli appstream
    if output=$(appstreamcli validate --no-net "$metainfo" 2>&1); then
        pass "appstreamcli validate: $(tail -n1 <<<"$output")"
    else
        fail "appstreamcli validate: $output"
    fi
    launchable=$(sed -n 's|.*<launchable type="desktop-id">\(.*\)</launchable>.*|\1|p' "$metainfo")
    [[ $launchable == "$(basename "$desktop")" ]] && pass "launchable is $launchable" \
        || fail "launchable '$launchable' is not $(basename "$desktop")"
    release=$(sed -n 's|.*<release version="\([^"]*\)".*|\1|p' "$metainfo" | head -n1)
    [[ $release == "$version" ]] && pass "newest release is $version" \
        || fail "newest release is '$release', the project is $version"
    changelog=$(sed -n '1s/^memorygraph (\([^)]*\)).*/\1/p' "$source_dir/installer/linux/changelog")
    [[ $changelog == "$version" ]] && pass "changelog names $version" \
        || fail "installer/linux/changelog names '$changelog', the project is $version"
    for shot in $(sed -n 's|.*<image>.*/docs/screenshots/\([^<]*\)</image>.*|\1|p' "$metainfo"); do
        [[ -f $source_dir/docs/screenshots/$shot ]] && pass "screenshot $shot is in docs/screenshots" \
            || fail "screenshot $shot is not in docs/screenshots"
    done
    ;;
unit)
    need systemd-analyze systemd
    unit=$build_dir/memorygraph.service
    [[ -f $unit ]] || { echo "FAIL: $unit was not configured"; exit 1; }
    # ExecStart names the program by its plain name (systemd's search path); point it at the
    # build for the check, which also wants the command to exist. It prints every problem
    # but still exits 0 for most, so any output fails.
    work=$(mktemp -d "${TMPDIR:-/tmp}/memorygraph-unit.XXXXXX")
    trap 'rm -rf "$work"' EXIT
    binary=$build_dir/app/memorygraph
    sed "s|^ExecStart=memorygraph |ExecStart=$binary |" "$unit" >"$work/memorygraph.service"
    if output=$(systemd-analyze verify --man=no "$work/memorygraph.service" 2>&1) && [[ -z $output ]]; then
        pass "systemd-analyze verify memorygraph.service"
    else
        fail "systemd-analyze verify: $output"
    fi
    ;;
*)
    echo "unknown check $check"
    exit 2
    ;;
esac

if [[ $failures -ne 0 ]]; then
    echo "$failures check(s) failed"
    exit 1
fi
