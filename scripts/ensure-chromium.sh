#!/usr/bin/env bash
# Installs what the browser tests need from Debian when it is missing: Chromium (Playwright drives
# /usr/bin/chromium, never a downloaded browser — architecture.md §8), CJK fonts so pages and
# screenshots show Chinese, and poppler-utils (pdftotext / pdftoppm) to read and picture the
# invoice PDFs the tests download.
set -euo pipefail

missing=()
[[ -x /usr/bin/chromium ]] || missing+=(chromium fonts-noto-cjk)
command -v pdftotext >/dev/null 2>&1 || missing+=(poppler-utils)
if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi

SUDO=''
if [[ "$(id -u)" -ne 0 ]]; then
  SUDO='sudo'
fi
echo "[kaipiao] installing with apt: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends "${missing[@]}"
/usr/bin/chromium --version
