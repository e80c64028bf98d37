#!/usr/bin/env bash
# One module's mutation run file by file, each with its own reports
# (reports/mutation/<module>.<file>.json): a run that is stopped half-way keeps the files it finished,
# and the score of the module is the sum (scripts/mutation-score.mjs <module>).
#   scripts/mutation-parts.sh <module> [file ...]     (a path or a bare name such as `runner`; default: every file the module mutates)
set -uo pipefail
cd "$(dirname "$0")/.."
module="$1"
shift
mapfile -t all < <(KP_MUTATION_MODULE="$module" node -e "import('./stryker.config.mjs').then(m => console.log(m.MODULES[process.env.KP_MUTATION_MODULE].mutate.join('\n')))")
if [ $# -gt 0 ]; then
  files=()
  for arg in "$@"; do
    # a bare name (`runner`, `runner.ts`) stands for the module's file of that name
    match=""
    for m in "${all[@]}"; do
      case "$m" in */"$arg" | */"$arg".ts | "$arg") match="$m" ;; esac
    done
    if [ -z "$match" ]; then
      echo "mutation-parts: $module mutates no file named $arg (its files: ${all[*]})" >&2
      exit 2
    fi
    files+=("$match")
  done
else
  files=("${all[@]}")
fi
for f in "${files[@]}"; do
  echo "=== $module: $f ($(date +%H:%M:%S))"
  KP_MUTATION_PART="$f" bash scripts/mutation.sh "$module"
done
echo "=== $module: done ($(date +%H:%M:%S))"
