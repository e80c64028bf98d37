#!/usr/bin/env bash
# One module's mutation run file by file, each with its own reports
# (reports/mutation/<module>.<file>.json): a run that is stopped half-way keeps the files it finished,
# and the score of the module is the sum (scripts/mutation-score.mjs <module>).
#   scripts/mutation-parts.sh <module> [file ...]     (default: every file the module mutates)
set -uo pipefail
cd "$(dirname "$0")/.."
module="$1"
shift
if [ $# -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(KP_MUTATION_MODULE="$module" node -e "import('./stryker.config.mjs').then(m => console.log(m.MODULES[process.env.KP_MUTATION_MODULE].mutate.join('\n')))")
fi
for f in "${files[@]}"; do
  echo "=== $module: $f ($(date +%H:%M:%S))"
  KP_MUTATION_PART="$f" bash scripts/mutation.sh "$module"
done
echo "=== $module: done ($(date +%H:%M:%S))"
