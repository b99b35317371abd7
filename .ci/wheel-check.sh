#!/usr/bin/env bash
# The wheel works on its own: built from this checkout, installed in a fresh venv
# in an empty folder with no ../shared in reach, it verifies the sample request on
# the embedded corpus. Also checks the wheel stays under the 30 MB budget.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python -m pip wheel -q --no-deps -w "$work/dist" "$root" 2>&1 | { grep -v 'is neither a file nor a directory' || true; }
wheel=$(ls "$work"/dist/citeverify_legal-*.whl)
size=$(stat -c %s "$wheel")
echo "wheel: $(basename "$wheel") $((size / 1024 / 1024)) MB"
if [ "$size" -ge $((30 * 1024 * 1024)) ]; then
  echo "!! wheel is over 30 MB" >&2
  exit 1
fi
python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install -q "$wheel" 2>&1 | { grep -v 'is neither a file nor a directory' || true; }
cp "$root/examples/sample_request.json" "$work/request.json"
cd "$work"
"$work/venv/bin/citeverify" verify request.json > out.json
"$work/venv/bin/python" - <<'PY'
import json
out = json.load(open("out.json"))
verdicts = {r["id"]: r["verdict"]["status"] for r in out["results"]}
assert verdicts["black"] == "verified", verdicts
assert verdicts["black-quote"] == "verified", verdicts
assert verdicts["fabricated"] == "critical", verdicts
assert verdicts["lower-court"] == "warning", verdicts
print("wheel in a fresh venv:", out["summary"])
PY
