#!/usr/bin/env bash
# Load on the GraphQL service: `position(ply)` of random sample games and plies, by wrk, while
# a second client plays moves with `playMove` the whole time.
#
#   ops/bench/api-load.sh [SECONDS] [CONNECTIONS]     (defaults 20 and 32; installs wrk if missing)
#
# Prints wrk's summary (requests/s, latency distribution with p99), the playMove rate achieved
# during the run, and the server's resident memory. Paste the results into ops/BENCHMARKS.md.
set -euo pipefail
SECS=${1:-20}
CONNS=${2:-32}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=$(mktemp -d /tmp/ludolog-api-bench.XXXXXX)
PORT=18099
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
cargo build --release -q -p ludolog --manifest-path "$ROOT/Cargo.toml"
cd "$ROOT"
"$ROOT/target/release/ludolog" serve --listen 127.0.0.1:$PORT --rate-limit 0 --data-dir "$WORK/store" >"$WORK/serve.out" 2>"$WORK/serve.err" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; wait $SERVER 2>/dev/null || true; rm -rf "$WORK"' EXIT
for _ in $(seq 50); do grep -q listening "$WORK/serve.out" 2>/dev/null && break; sleep 0.2; done
URL=http://127.0.0.1:$PORT/graphql

# The sample games and their lengths, for the Lua script.
python3 - "$URL" "$ROOT/ops/bench" >"$WORK/position.lua" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
from games import games
games = games(sys.argv[1])
print("local games = {" + ",".join('{"%s",%d}' % g for g in games) + "}")
print('''
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local q = "query($id: ID!, $p: Int) { game(id: $id) { position(ply: $p) { ply phase toAct { kind seat } view } } }"
request = function()
  local g = games[math.random(#games)]
  local body = string.format('{"query":"%s","variables":{"id":"%s","p":%d}}', q, g[1], math.random(0, g[2]))
  return wrk.format(nil, nil, nil, body)
end
''')
PY

# playMove the whole time: one 4-player game after another, random legal moves.
python3 - "$URL" "$SECS" >"$WORK/play.out" <<'PY' &
import json, random, sys, time, urllib.request
url, secs = sys.argv[1], float(sys.argv[2])
def gql(q, v=None, token=None):
    h = {"content-type": "application/json"}
    if token: h["Authorization"] = "Bearer " + token
    return json.load(urllib.request.urlopen(urllib.request.Request(url, json.dumps({"query": q, "variables": v or {}}).encode(), h)))
moves, end = 0, time.time() + secs
rnd = random.Random(1)
while time.time() < end:
    c = gql('mutation { createGame(kind: FIVE_TRIBES, players: ["a","b","c","d"]) { game { id } seatTokens } }')["data"]["createGame"]
    gid, tokens = c["game"]["id"], c["seatTokens"]
    while time.time() < end:
        p = gql('query($id: ID!) { game(id: $id) { plies position { toAct { kind seat } } } }', {"id": gid})["data"]["game"]
        if p["position"]["toAct"]["kind"] != "SEAT": break
        t = tokens[p["position"]["toAct"]["seat"]]
        lm = gql('query($id: ID!) { game(id: $id) { position { legalMoves(first: 100) { moves } } } }', {"id": gid}, t)["data"]["game"]["position"]["legalMoves"]["moves"]
        r = gql('mutation($id: ID!, $p: Int!, $m: String!) { playMove(gameId: $id, expectedPly: $p, move: $m) { game { plies } } }', {"id": gid, "p": p["plies"], "m": rnd.choice(lm)}, t)
        assert "errors" not in r, r
        moves += 1
print(f"playMove: {moves} moves in {secs:.0f} s = {moves/secs:.0f} moves/s (each with 3 reads), alongside the load")
PY
PLAYER=$!
wrk -t2 -c"$CONNS" -d"${SECS}s" --latency -s "$WORK/position.lua" "$URL"
wait $PLAYER
cat "$WORK/play.out"
echo "server resident memory: $(awk '/VmRSS/ {print $2/1024 " MiB"}' /proc/$SERVER/status)"
