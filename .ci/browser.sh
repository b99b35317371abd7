#!/usr/bin/env bash
# Debian's headless Chromium and chromedriver for the browser tests; does nothing when both
# are already there (idempotent). Selenium is told their paths, so it never downloads one.
set -euo pipefail
if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
  echo "== browser: $(chromium --version 2>/dev/null | head -1)"
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null
echo "== browser: $(chromium --version 2>/dev/null | head -1)"
