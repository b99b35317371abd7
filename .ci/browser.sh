#!/usr/bin/env bash
# A headless browser for the browser tests (the page, the report and the notebook HTML
# HTML in Chromium through selenium). Idempotent: installs Debian's chromium and
# chromium-driver only when either is missing. The tests skip with a reason when no
# browser can be found; .ci/run stops when this fails.
set -euo pipefail
if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
  echo "== browser: chromium and chromedriver present"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "!! browser: not root and no sudo" >&2; exit 1; }
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -q chromium chromium-driver >/dev/null
echo "== browser: installed $(chromium --version 2>/dev/null || echo chromium)"
