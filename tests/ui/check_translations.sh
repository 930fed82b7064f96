#!/bin/bash
# Every string the window shows has a German translation: lupdate scans the sources into a copy
# of translations/memorygraph_de.ts, and the copy must hold no unfinished message.
# Usage: check_translations.sh <lupdate> <cmake> <GenerateLUpdateProject.cmake>
#                              <the app's lupdate project .cmake> <source dir>
set -eu
lupdate=$1 cmake=$2 generator=$3 project=$4 source=$5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cp "$source/translations/memorygraph_de.ts" "$work/de.ts"
"$cmake" -DIN_FILE="$project" -DOUT_FILE="$work/project.json" -P "$generator"
if ! "$lupdate" -project "$work/project.json" -no-obsolete -locations none -ts "$work/de.ts" \
    >"$work/lupdate.log" 2>&1; then
    cat "$work/lupdate.log"
    exit 1
fi
unfinished=$(grep -c 'type="unfinished"' "$work/de.ts" || true)
if [ "$unfinished" != 0 ]; then
    echo "$unfinished messages have no German translation. Run"
    echo "  cmake --build --preset dev --target memorygraph_lupdate"
    echo "and translate them in translations/memorygraph_de.ts:"
    grep -B1 'type="unfinished"' "$work/de.ts" | grep '<source>' | head -40
    exit 1
fi
echo "All $(grep -c '<source>' "$work/de.ts") messages have a German translation."
