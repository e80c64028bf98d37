#!/usr/bin/env bash
# Mutation testing of one rule module (issue 22, docs/testing.md):  npm run mutation -- <module>
# Modules and the files each mutates: stryker.config.mjs. Reports: reports/mutation/<module>.html
# and .json; reruns are incremental (reports/mutation/<module>.incremental.json).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
if [ $# -lt 1 ]; then
  echo "usage: npm run mutation -- <module> [stryker options]" >&2
  node -e "process.env.KP_MUTATION_MODULE='money'; import('./stryker.config.mjs').then(m => { for (const [k, v] of Object.entries(m.MODULES)) console.error('  ' + k.padEnd(10) + v.note); })"
  exit 2
fi
export KP_MUTATION_MODULE="$1"
shift
exec stryker run stryker.config.mjs "$@"
