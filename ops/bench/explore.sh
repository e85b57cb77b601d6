#!/usr/bin/env bash
# The analysis board's latency (issue 41): `Position.explore` of 10 moves from random plies of
# the sample games (the game's own next 10 entries, chance typed in, so every branch is legal),
# one request at a time, beside the same server's `{ __typename }` in the same run (HTTP,
# GraphQL parse and validation, nothing else). The branch answers its `ply` and `toAct`;
# evaluation aside, as the issue states the target (p99 < 20 ms).
#
#   ops/bench/explore.sh [REQUESTS]   (default 500)
set -euo pipefail
N=${1:-500}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=$(mktemp -d /tmp/ludolog-explore.XXXXXX)
cargo build --release -q -p ludolog --manifest-path "$ROOT/Cargo.toml"
BIN="$ROOT/target/release/ludolog"
SERVER=
trap 'kill $SERVER 2>/dev/null || true; wait $SERVER 2>/dev/null || true; rm -rf "$WORK"' EXIT
cd "$ROOT"
"$BIN" serve --listen 127.0.0.1:0 --data-dir "$WORK/store" --review-threads 0 --rate-limit 0 > "$WORK/out" 2>/dev/null &
SERVER=$!
for _ in $(seq 100); do grep -q http "$WORK/out" 2>/dev/null && break; sleep 0.1; done
URL=$(grep -o 'http://[^ ]*' "$WORK/out" | head -1 | sed 's#/graphql$##')
python3 - "$URL" "$N" <<'PY'
import json, random, sys, time, urllib.request
url, n = sys.argv[1] + "/graphql", int(sys.argv[2])
def post(q, v=None):
    body = json.dumps({"query": q, "variables": v or {}}).encode()
    req = urllib.request.Request(url, body, {"content-type": "application/json"})
    t = time.perf_counter()
    with urllib.request.urlopen(req) as r:
        out = json.load(r)
    return time.perf_counter() - t, out
random.seed(1)
games = []
for k in ["FIVE_TRIBES", "CLANS_OF_CALEDONIA", "MOMBASA"]:
    _, d = post("query($k: GameKind) { games(kind: $k, status: FINISHED, first: 100) { edges { node { id plies } } } }", {"k": k})
    games += [e["node"] for e in d["data"]["games"]["edges"]]
logs = {}
def log(gid):
    if gid not in logs:
        out, after = [], None
        while True:
            _, d = post("query($id: ID!, $a: String) { game(id: $id) { moves(first: 100, after: $a) { edges { node { actor move } } pageInfo { hasNextPage endCursor } } } }", {"id": gid, "a": after})
            m = d["data"]["game"]["moves"]
            out += [e["node"] for e in m["edges"]]
            if not m["pageInfo"]["hasNextPage"]:
                break
            after = m["pageInfo"]["endCursor"]
        logs[gid] = out
    return logs[gid]
Q = "query($id: ID!, $p: Int, $m: [String!]!) { game(id: $id) { position(ply: $p) { explore(moves: $m) { ply toAct { kind seat } } } } }"
cases = []
while len(cases) < n:
    g = random.choice(games)
    entries = log(g["id"])
    if len(entries) < 12:
        continue
    p = random.randrange(1, len(entries) - 10)
    moves = [e["move"] if e["actor"] == "dealer" else f'{e["actor"]}: {e["move"]}' for e in entries[p:p + 10]]
    cases.append((g["id"], p, moves))
def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round((len(xs) - 1) * q))] * 1e3
for _ in range(20):
    post("{ __typename }")
ex, ty = [], []
for gid, p, moves in cases:
    t, d = post(Q, {"id": gid, "p": p, "m": moves})
    assert "errors" not in d and d["data"]["game"]["position"]["explore"]["ply"] == p + 10, d
    ex.append(t)
    ty.append(post("{ __typename }")[0])
print(json.dumps({
    "requests": n,
    "explore_p50_ms": round(pct(ex, 0.5), 3), "explore_p99_ms": round(pct(ex, 0.99), 3),
    "typename_p50_ms": round(pct(ty, 0.5), 3), "typename_p99_ms": round(pct(ty, 0.99), 3),
    "explore_over_typename_p99": round(pct(ex, 0.99) / pct(ty, 0.99), 2),
    "target_p99_ms": 20, "verdict": "met" if pct(ex, 0.99) < 20 else "not met",
}))
PY
