#!/usr/bin/env bash
# Survivors (and no-coverage mutants) of a module's reports, one line each: file:line mutator => replacement
#   scripts/mutation-survivors.sh <module>
cd "$(dirname "$0")/.."
for f in reports/mutation/"$1".json reports/mutation/"$1".*.json; do
  [[ -f "$f" && "$f" != *.incremental.json ]] || continue
  jq -r '.files | to_entries[] | .key as $f | .value.mutants[] | select(.status=="Survived" or .status=="NoCoverage")
    | "\($f|split("/")|last):\(.location.start.line):\(.location.start.column) \(.status[0:2]) \(.mutatorName) => \(.replacement // "" | gsub("\n";" ") | .[0:110])"' "$f"
done | sort -t: -k1,1 -k2,2n -u
