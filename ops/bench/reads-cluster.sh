#!/usr/bin/env bash
# Reads of a position at a random ply through one API node and through three, all on a
# three-server JetStream cluster on this machine (3 replicas), beside the same reads from one
# node on the embedded sled store, and beside `{ __typename }` (the stack's ceiling), in one run.
#
#   ops/bench/reads-cluster.sh [SECONDS] [CONNECTIONS] [CACHE_MIB]   (defaults 10, 32, 0)
#
# CACHE_MIB 0 (the default) turns the answer cache off, so that every read goes to the store
# (on JetStream: the game's record from the cluster, then the replay); with a cache, repeated
# reads of finished games are answered from memory on any backend. "Three nodes" is three wrk
# processes at once, CONNECTIONS/3 connections each, one per node; requests/s are summed and
# the p99 is the worst of the three. All processes share this machine's cores: on a 2-core
# machine three nodes cannot be faster than one; the figure says what a node costs.
set -euo pipefail
SECS=${1:-10}
CONNS=${2:-32}
CACHE=${3:-0}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=$(mktemp -d /tmp/ludolog-reads-cluster.XXXXXX)
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
cargo build --release -q -p ludolog --manifest-path "$ROOT/Cargo.toml"
BIN="$ROOT/target/release/ludolog"
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; "$ROOT/ops/cluster/jetstream.sh" stop "$WORK/cluster" >/dev/null 2>&1 || true; sleep 1; rm -rf "$WORK"' EXIT
URLS=nats://127.0.0.1:4221,nats://127.0.0.1:4222,nats://127.0.0.1:4223
"$ROOT/ops/cluster/jetstream.sh" start "$WORK/cluster" >/dev/null

serve() { # serve PORT EXTRA...
  local port=$1; shift
  "$BIN" serve --listen "127.0.0.1:$port" --rate-limit 0 --cache-mib "$CACHE" --data-dir "$WORK/node-$port" "$@" \
    >"$WORK/serve-$port.out" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 600); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && return; sleep 0.2; done
  echo "node on $port not ready" >&2; exit 1
}
caught_up() { # wait until the node on PORT has read the whole stream
  for _ in $(seq 600); do
    curl -s "http://127.0.0.1:$1/graphql" -H 'content-type: application/json' \
      -d '{"query":"{ store { caughtUp } }"}' | grep -q '"caughtUp":true' && return
    sleep 0.2
  done
  echo "node on $1 did not catch up" >&2; exit 1
}

serve 18201 --store "$URLS" # loads the sample games into the empty stream
serve 18202 --store "$URLS" --no-samples
serve 18203 --store "$URLS" --no-samples
caught_up 18202; caught_up 18203
serve 18200 # the same samples on sled

lua() { # lua PORT MODE > script.lua ; MODE: typename | random
  python3 - "http://127.0.0.1:$1/graphql" "$2" "$ROOT/ops/bench" <<'PY'
import json, sys
url, mode = sys.argv[1], sys.argv[2]
sys.path.insert(0, sys.argv[3])
from games import games
games = games(url, "FINISHED")
position = "query($id: ID!, $p: Int) { game(id: $id) { position(ply: $p) { ply phase toAct { kind seat } view } } }"
print("local games = {" + ",".join('{"%s",%d}' % g for g in games) + "}")
print('local q = %s' % json.dumps(json.dumps(position)[1:-1]))
print('local mode = "%s"' % mode)
print(r'''
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
request = function()
  if mode == "typename" then
    return wrk.format(nil, nil, nil, '{"query":"{ __typename }"}')
  end
  local g = games[math.random(#games)]
  local p = math.random(0, g[2])
  return wrk.format(nil, nil, nil, string.format('{"query":"%s","variables":{"id":"%s","p":%d}}', q, g[1], p))
end
''')
PY
}
for p in 18200 18201 18202 18203; do lua $p random >"$WORK/random-$p.lua"; done
lua 18201 typename >"$WORK/typename.lua"

run() { # run CONNS SCRIPT PORT OUT
  wrk -t1 -c"$1" -d"${SECS}s" --latency -s "$2" "http://127.0.0.1:$3/graphql" >"$4"
}
summary() { # summary NAME WRK_OUTPUT... → a row: name, requests/s summed, worst p50, worst p99, non-2xx
  python3 - "$@" >>"$WORK/results" <<'PY'
import re, sys
name, files = sys.argv[1], sys.argv[2:]
def ms(text, label):
    m = re.search(r"\s%s%%\s+([\d.]+)(us|ms|s)" % label, text)
    v, u = float(m.group(1)), m.group(2)
    return v / 1000 if u == "us" else v * 1000 if u == "s" else v
texts = [open(f).read() for f in files]
rps = sum(float(re.search(r"Requests/sec:\s+([\d.]+)", t).group(1)) for t in texts)
bad = sum(int(m.group(1)) for t in texts for m in [re.search(r"Non-2xx or 3xx responses: (\d+)", t)] if m)
print(f"{name}\t{rps:.0f}\t{max(ms(t, '50') for t in texts):.2f}\t{max(ms(t, '99') for t in texts):.2f}\t{bad}")
PY
}

: >"$WORK/results"
run "$CONNS" "$WORK/typename.lua" 18201 "$WORK/w0"; summary "ceiling: { __typename }, one node" "$WORK/w0"
run "$CONNS" "$WORK/random-18200.lua" 18200 "$WORK/w0"; summary "position(ply), sled, one node" "$WORK/w0"
run "$CONNS" "$WORK/random-18201.lua" 18201 "$WORK/w0"; summary "position(ply), JetStream, one node" "$WORK/w0"
THIRD=$(( (CONNS + 2) / 3 ))
WRKS=()
for p in 18201 18202 18203; do run "$THIRD" "$WORK/random-$p.lua" $p "$WORK/w$p" & WRKS+=($!); done
wait "${WRKS[@]}" # (a bare `wait` would wait for the servers too)
summary "position(ply), JetStream, three nodes" "$WORK/w18201" "$WORK/w18202" "$WORK/w18203"

echo "$(nproc) cores; answer cache ${CACHE} MiB; $CONNS connections; ${SECS} s each"
python3 - "$WORK/results" <<'PY'
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
ceiling, sled = float(rows[0][1]), float(rows[1][1])
print("| what | requests/s | p50 ms | p99 ms | non-2xx | of the ceiling | of sled |")
print("|---|---|---|---|---|---|---|")
for name, rps, p50, p99, bad in rows:
    print(f"| {name} | {float(rps):,.0f} | {p50} | {p99} | {bad} | {float(rps)/ceiling:.0%} | {float(rps)/sled:.0%} |")
PY
