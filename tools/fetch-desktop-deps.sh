#!/usr/bin/env bash
# fetch-desktop-deps.sh DEPS_DIR TRIPLET [OVERLAY_TRIPLETS_DIR]: the third-party parts of a
# Windows or macOS build, as .github/workflows/desktop-installers.yml uses them (Linux builds
# take them from Debian packages: tools/setup-deps.sh).
#   - vcpkg at a pinned release, with SQLite, OpenSSL and simdjson as static libraries for
#     TRIPLET (x64-windows-static-md, or arm64-osx-memorygraph from installer/macos)
#   - hnswlib 0.6.2, header-only: the release whose index file layout the service checks
#   - the WordNet 3.0 database, from which the build generates the offline embedder's
#     word-concept table (Debian's wordnet-base on Linux; nothing of it is needed at run time)
# Writes DEPS_DIR/desktop-deps.cmake, an initial cache for `cmake -C` that points the build at
# all of them. Set VCPKG_DEFAULT_BINARY_CACHE to reuse built libraries between runs.
set -euo pipefail

deps_dir=${1:?usage: fetch-desktop-deps.sh DEPS_DIR TRIPLET [OVERLAY_TRIPLETS_DIR]}
triplet=${2:?usage: fetch-desktop-deps.sh DEPS_DIR TRIPLET [OVERLAY_TRIPLETS_DIR]}
overlay=${3:-}

vcpkg_tag=2025.02.14
hnswlib_version=0.6.2
wordnet_url=https://wordnetcode.princeton.edu/3.0/WordNet-3.0.tar.gz

# CMake on Windows wants D:/a/... rather than Git Bash's /d/a/...
native() { if command -v cygpath >/dev/null 2>&1; then cygpath -m "$1"; else printf '%s\n' "$1"; fi; }
fetch() { curl -fsSL --retry 5 --retry-delay 5 -o "$2" "$1"; }

mkdir -p "$deps_dir"
deps_dir=$(cd "$deps_dir" && pwd)
[[ -z $overlay ]] || overlay=$(cd "$overlay" && pwd)

echo "== vcpkg $vcpkg_tag: sqlite3 openssl simdjson ($triplet)"
vcpkg_dir=$deps_dir/vcpkg
if [[ ! -d $vcpkg_dir/.git ]]; then
    git clone --quiet --depth 1 --branch "$vcpkg_tag" https://github.com/microsoft/vcpkg.git "$vcpkg_dir"
fi
if [[ $OSTYPE == msys* || $OSTYPE == cygwin* ]]; then
    [[ -f $vcpkg_dir/vcpkg.exe ]] || (cd "$vcpkg_dir" && cmd.exe //c bootstrap-vcpkg.bat -disableMetrics)
else
    [[ -x $vcpkg_dir/vcpkg ]] || "$vcpkg_dir/bootstrap-vcpkg.sh" -disableMetrics
fi
if [[ -n ${VCPKG_DEFAULT_BINARY_CACHE:-} ]]; then
    mkdir -p "$VCPKG_DEFAULT_BINARY_CACHE"
    VCPKG_DEFAULT_BINARY_CACHE=$(native "$VCPKG_DEFAULT_BINARY_CACHE")
    export VCPKG_DEFAULT_BINARY_CACHE
fi
overlay_args=()
[[ -z $overlay ]] || overlay_args=("--overlay-triplets=$(native "$overlay")")
# ${a[@]+...}: an empty array under set -u in the bash 3.2 of macOS.
"$vcpkg_dir/vcpkg" install --triplet "$triplet" ${overlay_args[@]+"${overlay_args[@]}"} \
    sqlite3 openssl simdjson

echo "== hnswlib $hnswlib_version"
hnswlib_dir=$deps_dir/hnswlib-$hnswlib_version
if [[ ! -f $hnswlib_dir/hnswlib/hnswlib.h ]]; then
    fetch "https://github.com/nmslib/hnswlib/archive/refs/tags/v$hnswlib_version.tar.gz" \
        "$deps_dir/hnswlib.tar.gz"
    (cd "$deps_dir" && tar -xzf hnswlib.tar.gz)
fi

echo "== WordNet 3.0"
wordnet_dir=$deps_dir/WordNet-3.0/dict
if [[ ! -f $wordnet_dir/data.noun ]]; then
    fetch "$wordnet_url" "$deps_dir/wordnet.tar.gz"
    (cd "$deps_dir" && tar -xzf wordnet.tar.gz)
fi
for file in data.noun data.verb index.noun index.verb noun.exc verb.exc; do
    [[ -f $wordnet_dir/$file ]] || { echo "WordNet: $wordnet_dir/$file is missing" >&2; exit 1; }
done

cache=$deps_dir/desktop-deps.cmake
{
    echo "# Written by tools/fetch-desktop-deps.sh: cmake -C $(native "$cache") ..."
    echo "set(CMAKE_TOOLCHAIN_FILE \"$(native "$vcpkg_dir")/scripts/buildsystems/vcpkg.cmake\" CACHE FILEPATH \"\")"
    echo "set(VCPKG_TARGET_TRIPLET \"$triplet\" CACHE STRING \"\")"
    [[ -z $overlay ]] || echo "set(VCPKG_OVERLAY_TRIPLETS \"$(native "$overlay")\" CACHE STRING \"\")"
    echo "set(VCPKG_MANIFEST_MODE OFF CACHE BOOL \"\")"
    echo "set(HNSWLIB_INCLUDE_DIR \"$(native "$hnswlib_dir")\" CACHE PATH \"\")"
    echo "set(WORDNET_DIR \"$(native "$wordnet_dir")\" CACHE PATH \"\")"
} >"$cache"
echo "== wrote $cache"
cat "$cache"
