#!/usr/bin/env bash
# The one test command (README, .ci/run): lint, typecheck, unit, server integration, web build,
# browser end-to-end. Each step prints a header; the first failure stops the run.
set -euo pipefail

cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"

step() {
  printf '\n\033[1m==> [%s] %s\033[0m\n' "$(date +%H:%M:%S)" "$*"
}

step 'Chromium (Debian package, for the e2e step)'
bash scripts/ensure-chromium.sh
/usr/bin/chromium --version

step 'Lint and format: biome check .'
biome check .

step 'Typecheck: npm run typecheck'
npm run --silent typecheck

step 'Unit tests: vitest run --project shared --project web'
vitest run --project shared --project web

step 'Server integration tests (real PostgreSQL): vitest run --project server'
vitest run --project server

step 'Build the web app: npm run build -w @kaipiao/web'
npm run --silent build -w @kaipiao/web

step 'End-to-end tests (Playwright, headless Chromium, real server)'
playwright test -c apps/web/e2e/playwright.config.ts

step 'All green'
