#!/usr/bin/env bash
# Benchmarks (npm run bench): each prints ratios against a baseline measured in the same run.
# Not timed tests: nothing here passes or fails on wall-clock figures.
set -euo pipefail

cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"

printf '\n\033[1m==> bench/menu-list.ts: authenticated API routes vs a bare Fastify route\033[0m\n'
tsx bench/menu-list.ts

printf '\n\033[1m==> bench/login-bundle.ts: login page JS + CSS (gzip) vs a minimal antd page\033[0m\n'
tsx bench/login-bundle.ts

printf '\n\033[1m==> bench/issue-api.ts: issue API (unique serials, sandbox latency 0) vs a bare Fastify route doing one INSERT\033[0m\n'
tsx bench/issue-api.ts

printf '\n\033[1m==> bench/pdf-render.ts: invoice PDF with the embedded CJK font vs the same layout in Helvetica\033[0m\n'
tsx bench/pdf-render.ts

printf '\n\033[1m==> bench/library-search.ts: library search over 1,000,000 invoices, API p95 vs raw SQL p95, EXPLAIN\033[0m\n'
tsx bench/library-search.ts

printf '\n\033[1m==> bench/batch-issue.ts: 10,000-invoice batch (validation + issuing) vs the single-invoice API\033[0m\n'
tsx bench/batch-issue.ts

printf '\n\033[1m==> bench/export-excel.ts: Excel export of 100,000 invoices (export runner) vs a bare exceljs streaming writer, peak memory\033[0m\n'
tsx bench/export-excel.ts

printf '\n\033[1m==> bench/navigation.ts: menu click to content on the ten most used routes (Chromium) vs their API time\033[0m\n'
bash scripts/ensure-chromium.sh
tsx bench/navigation.ts

printf '\n\033[1m==> bench/lighthouse.ts: Lighthouse (Debian Chromium) on /user/login (mobile) and, signed in, /home/index and /query/invoice (desktop)\033[0m\n'
bash scripts/ensure-chromium.sh
tsx bench/lighthouse.ts
