#!/usr/bin/env bash
# The NATS server's memory per subject, and what sealing saves: N games kept the way games in
# play are (two subjects each), against the same N games sealed (one record each on a single
# subject), against an empty stream — each measured as the server's resident memory after a
# restart on its folder (what it keeps for the stream it recovered, not write caches).
#
#   ops/bench/nats-subjects.sh [GAMES]      (default 100000)
#
# Prints a table; paste it, with the date, into ops/BENCHMARKS.md.
set -euo pipefail
GAMES=${1:-100000}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=$(mktemp -d /tmp/ludolog-subjects.XXXXXX)
NATS=${LUDOLOG_NATS_SERVER:-nats-server}
PORT=54222
PID=
trap '[ -n "$PID" ] && kill "$PID" 2>/dev/null; rm -rf "$WORK"' EXIT
cargo build --release -q -p store-nats --example subject_memory --manifest-path "$ROOT/Cargo.toml"
FILL="$ROOT/target/release/examples/subject_memory"
URL="nats://127.0.0.1:$PORT"

server() { # start on folder $1
  "$NATS" -js -sd "$1" -a 127.0.0.1 -p $PORT >"$WORK/server.log" 2>&1 &
  PID=$!
  for _ in $(seq 100); do (echo >/dev/tcp/127.0.0.1/$PORT) 2>/dev/null && return; sleep 0.1; done
  echo "nats-server did not start" >&2; exit 1
}
stop() { kill "$PID"; wait "$PID" 2>/dev/null || true; PID=; }
rss_kib() { awk '/^VmRSS/ { print $2 }' "/proc/$PID/status"; }

measure() { # mode → "rss_kib subjects"
  local dir="$WORK/$1"
  server "$dir"
  if [ "$1" = empty ]; then "$FILL" "$URL" info 0; else "$FILL" "$URL" "$1" "$GAMES"; fi >/dev/null
  stop
  server "$dir"
  local info
  info=$("$FILL" "$URL" info 0) # waits for the stream to be recovered and answering
  sleep 3
  echo "$(rss_kib) $(sed -E 's/.*subjects=([0-9]+).*/\1/' <<<"$info")"
  stop
}

read -r EMPTY_RSS _ < <(measure empty)
read -r LIVE_RSS LIVE_SUBJ < <(measure live)
read -r SEALED_RSS SEALED_SUBJ < <(measure sealed)
echo "games: $GAMES   nats-server: $("$NATS" --version)"
echo "| stream | subjects | server RSS after restart | above an empty stream |"
echo "|---|---|---|---|"
printf '| empty | 0 | %d MiB | — |\n' $((EMPTY_RSS / 1024))
printf '| %d games in play (2 subjects each) | %d | %d MiB | %d MiB |\n' "$GAMES" "$LIVE_SUBJ" $((LIVE_RSS / 1024)) $(((LIVE_RSS - EMPTY_RSS) / 1024))
printf '| %d games sealed (1 record each) | %d | %d MiB | %d MiB |\n' "$GAMES" "$SEALED_SUBJ" $((SEALED_RSS / 1024)) $(((SEALED_RSS - EMPTY_RSS) / 1024))
awk -v l="$LIVE_RSS" -v s="$SEALED_RSS" -v n="$LIVE_SUBJ" 'BEGIN { printf "memory per subject: %.0f bytes (live minus sealed, over the subjects)\n", (l - s) * 1024 / n }'
