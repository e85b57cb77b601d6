#!/usr/bin/env bash
# The hostile-load resource test, long: SECS seconds (default 300) of every request the
# hardening review reported, from four clients, while two players play. Prints the hostile
# request count, games played and the server's idle and peak resident memory.
# Usage: ops/resource.sh [SECS]
set -euo pipefail
cd "$(dirname "$0")/.."
SECS="${1:-300}"
# The test profile is optimised (Cargo.toml). The build goes to its own target folder
# (target/ops), so that building or testing while a long run goes on never replaces the
# binaries it starts; the test binary runs on its own, without holding cargo's build lock.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target/ops}"
BIN=$(cargo test --workspace --test resource --no-run 2>&1 | sed -n 's/.*Executable .*(\(.*resource-[0-9a-f]*\)).*/\1/p' | tail -1)
[ -x "$BIN" ] || { echo "resource.sh: the resource test did not build" >&2; exit 1; }
LUDOLOG_RESOURCE_SECS="$SECS" "$BIN" --nocapture 2>&1 | grep -E '^resource:|test result|panicked'
