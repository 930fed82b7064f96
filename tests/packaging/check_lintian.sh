#!/usr/bin/env bash
# check_lintian.sh DEB_DIR: lintian on the .deb that packaging_deb left in DEB_DIR. Fails on any
# error (E:); warnings and notes are printed. Exit 77 (skipped) when lintian is not installed.
set -euo pipefail

deb_dir=${1:?usage: check_lintian.sh DEB_DIR}
if ! command -v lintian >/dev/null 2>&1; then
    echo "SKIP: lintian is not installed (package lintian)"
    exit 77
fi
shopt -s nullglob
debs=("$deb_dir"/memorygraph_*.deb)
if [[ ${#debs[@]} -ne 1 ]]; then
    echo "FAIL: expected one memorygraph_*.deb in $deb_dir (made by the packaging_deb test)"
    exit 1
fi

# --pedantic and --display-info: show everything lintian has to say; only errors fail.
report=$(lintian --pedantic --display-info "${debs[0]}" 2>&1 | grep -v '^running with root privileges' || true)
echo "$report"
errors=$(grep -c '^E: ' <<<"$report" || true)
if [[ $errors -ne 0 ]]; then
    echo "FAIL: lintian reported $errors error(s)"
    exit 1
fi
echo "lintian: no errors ($(grep -c '^W: ' <<<"$report" || true) warning(s), $(grep -c '^[IP]: ' <<<"$report" || true) note(s))"
