#!/usr/bin/env bash
# Installs the Debian 12 packages needed to build, test and package Memory Graph.
# Idempotent: when every package is already installed it does nothing (no apt-get update).
set -euo pipefail

packages=(
    qt6-base-dev qt6-httpserver-dev qt6-websockets-dev libqt6sql6-sqlite
    qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
    libhnswlib-dev libsqlite3-dev libssl-dev libsimdjson-dev libxkbcommon-dev wordnet-base
    xvfb xauth ninja-build cmake g++ dpkg-dev file clang-format
    # packaging checks (tests/packaging): the man page, the .rpm, the Windows installer script,
    # lintian, the desktop entry, AppStream metadata and the systemd user unit
    help2man rpm nsis lintian desktop-file-utils appstream systemd
)

missing=()
for package in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null || true)
    [[ $status == installed ]] || missing+=("$package")
done

if [[ ${#missing[@]} -eq 0 ]]; then
    echo "setup-deps: all ${#packages[@]} packages are installed"
    exit 0
fi

echo "setup-deps: installing ${missing[*]}"
sudo=()
if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null 2>&1; then
        sudo=(sudo)
    else
        echo "setup-deps: run as root or install sudo" >&2
        exit 1
    fi
fi
"${sudo[@]}" apt-get update
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "${missing[@]}"
