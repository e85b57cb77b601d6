#!/usr/bin/env bash
# The hostile-load resource test, long: SECS seconds (default 300) of every request the
# hardening review reported, from four clients, while two players play. Prints the hostile
# request count, games played and the server's idle and peak resident memory.
# Usage: ops/resource.sh [SECS]
set -euo pipefail
cd "$(dirname "$0")/.."
SECS="${1:-300}"
LUDOLOG_RESOURCE_SECS="$SECS" cargo test --release -p ludolog --test resource -- --nocapture 2>&1 \
  | grep -E '^resource:|test result|panicked'
