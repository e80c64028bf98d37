#!/usr/bin/env bash
# Mutation testing of one rule module (issue 22, docs/testing.md):  npm run mutation -- <module>
# Modules and the files each mutates: stryker.config.mjs. Reports: reports/mutation/<module>.html
# and .json; reruns are incremental (reports/mutation/<module>.incremental.json).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
if [ $# -lt 1 ]; then
  echo "usage: npm run mutation -- <module> [stryker options]" >&2
  KP_MUTATION_MODULE=money node -e "import('./stryker.config.mjs').then(m => { for (const [k, v] of Object.entries(m.MODULES)) console.error('  ' + k.padEnd(10) + v.note); })"
  exit 2
fi
export KP_MUTATION_MODULE="$1"
shift
config=$(node -e "import('./stryker.config.mjs').then(m => console.log(m.MODULES[process.env.KP_MUTATION_MODULE].config))")
# the module's own tests only (read by each vitest config's include)
KP_MUTATION_TESTS=$(node -e "import('./stryker.config.mjs').then(m => console.log(m.MODULES[process.env.KP_MUTATION_MODULE].tests.join(';')))")
export KP_MUTATION_TESTS

# Server modules need PostgreSQL outside Stryker's sandbox (see scripts/mutation-db.ts).
if [[ "$config" == apps/server/* && -z "${TEST_DATABASE_URL:-}" ]]; then
  fifo=$(mktemp -u) && mkfifo "$fifo"
  tsx scripts/mutation-db.ts > "$fifo" &
  db_pid=$!
  trap 'kill $db_pid 2>/dev/null; wait $db_pid 2>/dev/null; rm -f "$fifo"' EXIT
  read -r TEST_DATABASE_URL < "$fifo"
  export TEST_DATABASE_URL
fi
stryker run stryker.config.mjs "$@"
