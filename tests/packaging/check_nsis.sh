#!/usr/bin/env bash
# check_nsis.sh BUILD_DIR SOURCE_DIR [CPACK]: the Windows installer script that CPack generates
# from this project's settings (cmake/PackagingNsis.cmake, installer/windows/memorygraph.nsh)
# compiles with makensis. The Windows binaries cannot be built here, so CPack packs a staged
# tree of stand-in files named as the Windows install lays them out (bin\memorygraph.exe beside
# the Qt DLLs that windeployqt copies, plugins\, the MSVC runtime, LICENSE.txt, README.md).
# Exit 77 (skipped) when makensis is not installed.
set -euo pipefail

build_dir=${1:?usage: check_nsis.sh BUILD_DIR SOURCE_DIR [CPACK]}
source_dir=${2:?usage: check_nsis.sh BUILD_DIR SOURCE_DIR [CPACK]}
cpack=${3:-cpack}
if ! command -v makensis >/dev/null 2>&1; then
    echo "SKIP: makensis is not installed (package nsis)"
    exit 77
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/memorygraph-nsis.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

stage=$work/stage
for file in bin/memorygraph.exe bin/qt.conf \
            bin/Qt6Core.dll bin/Qt6Gui.dll bin/Qt6Widgets.dll bin/Qt6Network.dll bin/Qt6Sql.dll \
            bin/Qt6Concurrent.dll bin/Qt6HttpServer.dll bin/Qt6WebSockets.dll \
            bin/msvcp140.dll bin/vcruntime140.dll bin/vcruntime140_1.dll \
            plugins/platforms/qwindows.dll plugins/sqldrivers/qsqlite.dll \
            plugins/styles/qwindowsvistastyle.dll plugins/imageformats/qico.dll \
            translations/qt_de.qm; do
    mkdir -p "$stage/$(dirname "$file")"
    printf 'stand-in for %s\n' "$file" >"$stage/$file"
done
cp "$source_dir/LICENSE" "$stage/LICENSE.txt"
cp "$source_dir/README.md" "$stage/README.md"

echo "== cpack -G NSIS (settings of $build_dir, staged tree)"
if ! "$cpack" -G NSIS --config "$build_dir/CPackConfig.cmake" -B "$work/out" \
        -D CPACK_INSTALL_CMAKE_PROJECTS= -D "CPACK_INSTALLED_DIRECTORIES=$stage;." \
        -D CPACK_PACKAGE_FILE_NAME=MemoryGraph-check-windows-x64 >"$work/cpack.log" 2>&1; then
    cat "$work/cpack.log"
    cat "$work"/out/_CPack_Packages/*/NSIS/NSISOutput.log 2>/dev/null || true
    echo "FAIL: makensis did not compile the installer"
    exit 1
fi
installer=$work/out/MemoryGraph-check-windows-x64.exe
if [[ -f $installer ]] && file "$installer" | grep -q 'Nullsoft Installer'; then
    pass "installer: $(file -b "$installer")"
else
    fail "no Nullsoft installer was written"
fi

echo "== generated script"
nsi=$(echo "$work"/out/_CPack_Packages/*/NSIS/project.nsi)
expect_line() {
    if grep -qF -- "$1" "$nsi"; then pass "$2"; else fail "$2: '$1' not in project.nsi"; fi
}
expect_line 'CreateShortCut "$SMPROGRAMS\$STARTMENU_FOLDER\Memory Graph.lnk" "$INSTDIR\bin\memorygraph.exe"' \
    "Start-menu shortcut"
expect_line 'WriteUninstaller "$INSTDIR\Uninstall.exe"' "uninstaller"
expect_line 'InstallDir "$PROGRAMFILES64\Memory Graph"' "installs to Program Files"
expect_line '!define MUI_ICON' "installer icon"
expect_line 'memorygraph.nsh"' "finish-page and uninstall additions included"
expect_line 'Call MemoryGraphRegister' "App Paths registration"
expect_line 'Call un.MemoryGraphUnregister' "uninstall clean-up"
expect_line '"DisplayIcon"' "Add/Remove Programs icon"

# Compile again to read makensis' summary: the uninstaller has the data page before its
# confirmation and progress pages; the finish page has its two check boxes.
summary=$(cd "$(dirname "$nsi")" && makensis -V2 project.nsi 2>&1) || {
    echo "$summary"
    fail "makensis failed on the second run"
}
if grep -q '^Uninstall: 3 pages' <<<"$summary"; then pass "uninstaller: data page, confirm, progress"; else fail "uninstaller pages: $(grep '^Uninstall:' <<<"$summary")"; fi
nsh=$source_dir/installer/windows/memorygraph.nsh
for define in MUI_FINISHPAGE_RUN_FUNCTION MUI_FINISHPAGE_SHOWREADME_FUNCTION MUI_FINISHPAGE_SHOWREADME_NOTCHECKED; do
    if grep -q "^!define $define" "$nsh"; then pass "$define"; else fail "$define missing from memorygraph.nsh"; fi
done
if grep -q 'CurrentVersion\\Run' "$nsh"; then pass "start with Windows: HKCU Run value"; else fail "no Run key in memorygraph.nsh"; fi

if [[ $failures -ne 0 ]]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "nsis checks passed"
