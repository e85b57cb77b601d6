#!/usr/bin/env bash
# The kill -9 test, long: N cycles (default 1000) of a child appending from 16 concurrent
# writers, killed with SIGKILL at a random moment; after each kill the store reopens and every
# acknowledged append must be there. Prints the acknowledged and lost counts (lost must be 0).
# Usage: ops/crash.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
N="${1:-1000}"
LUDOLOG_CRASH_CYCLES="$N" cargo test --release -p ludolog --test crash -- --nocapture 2>&1 \
  | grep -E '^crash:|test result|panicked' 
