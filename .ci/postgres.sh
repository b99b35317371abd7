#!/usr/bin/env bash
# Make PostgreSQL server binaries (initdb, pg_ctl) available for the account and quota
# tests. The tests start their own throwaway server in a temp dir on a free port (see
# tests/conftest_http.py) and skip with a reason when they cannot; this script only
# installs the Debian package when no binaries are found. It exports nothing.
set -euo pipefail

have_binaries() {
  command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1 && return 0
  compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null 2>&1 && return 0
  return 1
}

if have_binaries; then
  echo "== postgres: server binaries present"
  exit 0
fi

if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null 2>&1; then
  echo "!! postgres: not root and no sudo; cannot install the server" >&2
  exit 1
fi
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"

echo "== postgres: installing the Debian package"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# Install the server without starting the distribution's own cluster service.
$SUDO apt-get install -y -qq --no-install-recommends postgresql >/dev/null

if have_binaries; then
  echo "== postgres: installed ($(ls -d /usr/lib/postgresql/*/bin | head -1))"
else
  echo "!! postgres: installed, but initdb/pg_ctl were not found" >&2
  exit 1
fi
