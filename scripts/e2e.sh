#!/usr/bin/env bash
# End-to-end tests alone (npm run test:e2e): Chromium, a fresh web build, then Playwright.
# Extra arguments go to `playwright test` (e.g. a spec path or --grep).
set -euo pipefail

cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"

bash scripts/ensure-chromium.sh
if [[ "${KAIPIAO_E2E_SKIP_BUILD:-}" != 1 ]]; then
  npm run --silent build -w @kaipiao/web
fi
playwright test -c apps/web/e2e/playwright.config.ts "$@"
