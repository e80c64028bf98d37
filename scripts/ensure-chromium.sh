#!/usr/bin/env bash
# Installs Debian's Chromium (and CJK fonts, so screenshots show Chinese) when it is missing.
# Playwright never downloads its own browser here (architecture.md §8): it drives /usr/bin/chromium.
set -euo pipefail

if [[ -x /usr/bin/chromium ]]; then
  exit 0
fi

SUDO=''
if [[ "$(id -u)" -ne 0 ]]; then
  SUDO='sudo'
fi
echo "[kaipiao] /usr/bin/chromium is missing: installing Debian's chromium and fonts-noto-cjk with apt"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends chromium fonts-noto-cjk
/usr/bin/chromium --version
