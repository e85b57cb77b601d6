#!/usr/bin/env bash
# The attacks of issue 36 at full size, against a release build: 10,000 slow-header
# connections, 5,000 idle WebSockets, 5,000 subscriptions on one socket, and the 30-level
# fragment fan-out from 4 clients. For each, a fresh server; prints its idle and peak resident
# memory, its most open descriptors, and /healthz's latency (probed every 100 ms) during the
# attack, and fails unless /healthz answered every probe within 1 s and memory stayed under
# the bound (tests/attacks/heavy.rs). Results belong in ops/BENCHMARKS.md.
# Usage: ops/attack.sh [SECS]   (each attack's length, default 20)
set -euo pipefail
cd "$(dirname "$0")/.."
export ATTACK_SECS="${1:-20}"
# The attackers hold thousands of sockets in this process.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
BIN=$(cargo test --release -p ludolog --test attacks --no-run 2>&1 | sed -n 's/.*Executable .*(\(.*attacks-[0-9a-f]*\)).*/\1/p' | tail -1)
[ -x "$BIN" ] || { echo "attack.sh: the attack tests did not build" >&2; exit 1; }
"$BIN" --ignored --test-threads 1 --nocapture heavy:: 2>&1 | grep -oE 'attack: .*|test result.*|panicked.*'
