#!/usr/bin/env bash
# Reads beside the stack's ceiling, in one run: the same server answering `{ __typename }`
# (HTTP, routing, GraphQL parse and validation, nothing else) and `position(ply)` with its
# view, for random plies of random sample games, by wrk with the same connections.
#
#   ops/bench/reads-vs-typename.sh [SECONDS] [CONNECTIONS] [CACHE_MIB]   (defaults 15, 32, 1024)
#
# Runs, each printed with requests/s, p50/p99 and the ratio to the ceiling:
#   1. ceiling:   `{ __typename }`;
#   2. computed:  `position(ply)` on a server with the answer cache off (every answer
#                 replayed from the nearest snapshot and serialised);
#   3. kept:      the same on a server with the cache on, after one pass over every
#                 (game, ply) has filled it (finished games: their answers never change);
#   4. kept, GET: the same as a persisted query over GET (what a browser or CDN sends),
#                 after its own filling pass (it is kept under the query's hash).
# CACHE_MIB must hold both passes (about 2 × 110,000 answers of ~5 KiB) for 3 and 4 to be
# all hits; with less, the figures mix kept and computed answers.
# `replay` of a whole game and a `moves` page are measured the same way, computed on the first
# server and kept on the second (after a pass over every game).
set -euo pipefail
SECS=${1:-15}
CONNS=${2:-32}
CACHE=${3:-1024}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=$(mktemp -d /tmp/ludolog-reads.XXXXXX)
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
cargo build --release -q -p ludolog --manifest-path "$ROOT/Cargo.toml"
BIN="$ROOT/target/release/ludolog"
SERVER=
trap 'kill $SERVER 2>/dev/null || true; wait $SERVER 2>/dev/null || true; rm -rf "$WORK"' EXIT

start() { # start PORT CACHE_MIB
  "$BIN" serve --listen "127.0.0.1:$1" --rate-limit 0 --cache-mib "$2" --data-dir "$WORK/store-$1" \
    >"$WORK/serve-$1.out" 2>/dev/null &
  SERVER=$!
  for _ in $(seq 100); do grep -q listening "$WORK/serve-$1.out" 2>/dev/null && break; sleep 0.2; done
}
stop() { kill $SERVER; wait $SERVER 2>/dev/null || true; }

# The games and their lengths, and the Lua scripts (one request body per call).
lua() { # lua URL MODE > script.lua ; MODE: typename | random | sweep | get | replay | moves
  python3 - "$1" "$2" "$ROOT/ops/bench" <<'PY'
import hashlib, json, sys
url, mode = sys.argv[1], sys.argv[2]
sys.path.insert(0, sys.argv[3])
from games import games
games = games(url, "FINISHED")
position = "query($id: ID!, $p: Int) { game(id: $id) { position(ply: $p) { ply phase toAct { kind seat } view } } }"
sha = hashlib.sha256(position.encode()).hexdigest()
print("local games = {" + ",".join('{"%s",%d}' % g for g in games) + "}")
print('local q = %s' % json.dumps(json.dumps(position)[1:-1]))
print('local sha = "%s"' % sha)
print('local mode = "%s"' % mode)
print(r'''
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local gi, pi = 1, 0
local function urlencode(s)
  return (s:gsub("[^%w%-_%.~]", function(c) return string.format("%%%02X", string.byte(c)) end))
end
request = function()
  if mode == "typename" then
    return wrk.format(nil, nil, nil, '{"query":"{ __typename }"}')
  end
  local g, p
  if mode == "sweep" or mode == "sweepget" then
    g = games[gi]; p = pi
    pi = pi + 1
    if pi > g[2] then pi = 0; gi = gi % #games + 1 end
  else
    g = games[math.random(#games)]; p = math.random(0, g[2])
  end
  if mode == "get" or mode == "sweepget" then
    local vars = string.format('{"id":"%s","p":%d}', g[1], p)
    local ext = string.format('{"persistedQuery":{"version":1,"sha256Hash":"%s"}}', sha)
    return wrk.format("GET", "/graphql?extensions=" .. urlencode(ext) .. "&variables=" .. urlencode(vars), {}, nil)
  end
  if mode == "replaysweep" then
    g = games[gi]; gi = gi % #games + 1
  end
  if mode == "replay" or mode == "replaysweep" then
    return wrk.format(nil, nil, nil, string.format('{"query":"query($id: ID!) { game(id: $id) { replay { ply move patch } } }","variables":{"id":"%s"}}', g[1]))
  end
  if mode == "moves" then
    return wrk.format(nil, nil, nil, string.format('{"query":"query($id: ID!) { game(id: $id) { moves(first: 50) { edges { node { ply seat move } } } } }","variables":{"id":"%s"}}', g[1]))
  end
  return wrk.format(nil, nil, nil, string.format('{"query":"%s","variables":{"id":"%s","p":%d}}', q, g[1], p))
end
''')
PY
}

# wrk's figures: requests/s, p50 and p99 in ms.
bench() { # bench NAME LUA [SECS]
  wrk -t2 -c"$CONNS" -d"${3:-$SECS}s" --latency -s "$2" "http://127.0.0.1:$PORT/graphql" >"$WORK/wrk.out"
  python3 - "$1" "$WORK/wrk.out" >>"$WORK/results" <<'PY'
import re, sys
name, text = sys.argv[1], open(sys.argv[2]).read()
def ms(label):
    m = re.search(r"\s%s%%\s+([\d.]+)(us|ms|s)" % label, text)
    v, u = float(m.group(1)), m.group(2)
    return v / 1000 if u == "us" else v * 1000 if u == "s" else v
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
print(f"{name}\t{rps:.0f}\t{ms('50'):.2f}\t{ms('99'):.2f}\t{non2xx.group(1) if non2xx else 0}")
PY
}

: >"$WORK/results"
PORT=18111
start $PORT 0
URL=http://127.0.0.1:$PORT/graphql
for m in typename random replay moves; do lua "$URL" $m >"$WORK/$m.lua"; done
bench "ceiling: { __typename }" "$WORK/typename.lua"
bench "position(ply) with view, computed (cache off)" "$WORK/random.lua"
bench "replay of a whole game, computed" "$WORK/replay.lua"
bench "moves(first: 50), computed" "$WORK/moves.lua"
stop

PORT=18112
start $PORT "$CACHE"
URL=http://127.0.0.1:$PORT/graphql
for m in sweep sweepget random get replay replaysweep moves; do lua "$URL" $m >"$WORK/$m.lua"; done
POSITIONS=$(python3 -c "
import re; t=open('$WORK/random.lua').read().split('\n')[0]
print(sum(int(n) + 1 for n in re.findall(r',(\d+)}', t)))")
# Register the persisted query once (a client sends the text the first time).
python3 - "$URL" <<'PY'
import hashlib, json, sys, urllib.request
q = "query($id: ID!, $p: Int) { game(id: $id) { position(ply: $p) { ply phase toAct { kind seat } view } } }"
body = {"query": q, "variables": {"id": "0", "p": 0}, "extensions": {"persistedQuery": {"version": 1, "sha256Hash": hashlib.sha256(q.encode()).hexdigest()}}}
urllib.request.urlopen(urllib.request.Request(sys.argv[1], json.dumps(body).encode(), {"content-type": "application/json"})).read()
PY
# Fill: one pass over every (game, ply), at the rate the computed path allows.
FILL_SECS=$(python3 -c "import math; print(max(5, math.ceil($POSITIONS / 2500)))")
# (POST keys the text, a persisted GET its hash: each is filled by its own pass.)
wrk -t1 -c8 -d"${FILL_SECS}s" -s "$WORK/sweep.lua" "$URL" >/dev/null
wrk -t1 -c8 -d"${FILL_SECS}s" -s "$WORK/sweepget.lua" "$URL" >/dev/null
REPLAY_FILL=$(python3 -c "
import math, re; t=open('$WORK/random.lua').read().split('\n')[0]
print(max(5, math.ceil(len(re.findall(r',(\d+)}', t)) / 40)))")
wrk -t1 -c8 -d"${REPLAY_FILL}s" -s "$WORK/replaysweep.lua" "$URL" >/dev/null
wrk -t1 -c8 -d3s -s "$WORK/moves.lua" "$URL" >/dev/null
bench "ceiling again, on this server" "$WORK/typename.lua"
bench "position(ply) with view, kept (cache on)" "$WORK/random.lua"
bench "position(ply) with view, kept, GET persisted query" "$WORK/get.lua"
bench "replay of a whole game, kept" "$WORK/replay.lua"
bench "moves(first: 50), kept" "$WORK/moves.lua"
CACHED=$(curl -s "http://127.0.0.1:$PORT/metrics" | awk '/^ludolog_answer_cache_inserts_total/ {print $2}')
KEPT_MIB=$(curl -s "http://127.0.0.1:$PORT/metrics" | awk '/^ludolog_answer_cache_bytes/ {printf "%.0f", $2/1048576}')
RSS=$(awk '/VmRSS/ {print $2/1024}' /proc/$SERVER/status)
stop

echo "$POSITIONS positions in the finished sample games; $CACHED answers kept (${KEPT_MIB} MiB by the cache's weight); server resident memory with the cache filled: ${RSS} MiB"
python3 - "$WORK/results" <<'PY'
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
ceiling = float(rows[0][1])
print("| what | requests/s | p50 ms | p99 ms | non-2xx | of the ceiling |")
print("|---|---|---|---|---|---|")
for name, rps, p50, p99, bad in rows:
    print(f"| {name} | {float(rps):,.0f} | {p50} | {p99} | {bad} | {float(rps)/ceiling:.0%} |")
PY
