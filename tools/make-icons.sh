#!/usr/bin/env bash
# Regenerates the committed platform icons from resources/icons/memorygraph.png (256x256):
#   installer/windows/memorygraph.ico   16-256 px, for the executable, shortcuts and the installer
#   installer/macos/memorygraph.icns    16-256 px, for the app bundle
# Needs ImageMagick (convert) and icnsutils (png2icns). Run after changing the icon.
set -euo pipefail
cd "$(dirname "$0")/.."

source_png=resources/icons/memorygraph.png
work=$(mktemp -d "${TMPDIR:-/tmp}/memorygraph-icons.XXXXXX")
trap 'rm -rf "$work"' EXIT

sizes=(16 32 48 128 256)
for size in "${sizes[@]}"; do
    # -strip keeps the files byte-identical between runs (no dates in PNG chunks).
    convert "$source_png" -filter Lanczos -resize "${size}x${size}" -strip \
        "PNG32:$work/icon-$size.png"
done

convert "$work"/icon-16.png "$work"/icon-32.png "$work"/icon-48.png "$work"/icon-128.png \
    "$work"/icon-256.png installer/windows/memorygraph.ico
png2icns installer/macos/memorygraph.icns "$work"/icon-16.png "$work"/icon-32.png \
    "$work"/icon-48.png "$work"/icon-128.png "$work"/icon-256.png >/dev/null
echo "wrote installer/windows/memorygraph.ico and installer/macos/memorygraph.icns"
