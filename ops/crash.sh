#!/usr/bin/env bash
# The kill -9 test, long: N cycles (default 1000) of a child appending from 16 concurrent
# writers, killed with SIGKILL at a random moment; after each kill the store reopens and every
# acknowledged append must be there. Prints the acknowledged and lost counts (lost must be 0).
# Usage: ops/crash.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
N="${1:-1000}"
# The test profile is optimised (Cargo.toml). The build goes to its own target folder
# (target/ops), so that building or testing while a long run goes on never replaces the
# binaries it starts; the test binary runs on its own, without holding cargo's build lock.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target/ops}"
BIN=$(cargo test --workspace --test crash --no-run 2>&1 | sed -n 's/.*Executable .*(\(.*crash-[0-9a-f]*\)).*/\1/p' | tail -1)
[ -x "$BIN" ] || { echo "crash.sh: the crash test did not build" >&2; exit 1; }
LUDOLOG_CRASH_CYCLES="$N" "$BIN" --nocapture 2>&1 | grep -E -A2 '^crash:|test result|panicked'
