#!/usr/bin/env bash
# How the store's figures change with its size: for each game count, a fresh store is filled by
# `ludolog bench import` (random Five Tribes games, 2–4 players, summaries and the position
# index written as each game is stored), then measured the same way at every size:
#
#   import entries/s and disk bytes per entry      (bench import)
#   state at a random ply, p50/p99                  (bench read)
#   statistics p99, cold and warm                   (bench stats)
#   position search, in process, 1 and 2 workers   (bench positions)
#   explorer node p99, and the largest nodes' p99  (bench explorer; run bytes per entry)
#   `ludolog positions` as a whole process          (opening the store included, 1 worker)
#   resident memory of `serve` on the store         (after start and 200 statistics queries)
#   durable appends/s, 16 writers, into the store   (bench append, last: it adds games)
#
#   ops/bench/growth.sh [GAMES ...]      (default: 10000 100000; ~25 MB of disk per 1,000 games)
#
# The reference of each figure is the same figure at the smallest size: the table prints the
# ratio of every figure to it, beside the ratio of the data (games). The side-by-side
# references against other tools are in the other scripts of ops/bench/.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SIZES=("$@")
[ ${#SIZES[@]} -gt 0 ] || SIZES=(10000 100000)
WORK=$(mktemp -d /tmp/ludolog-growth.XXXXXX)
SERVER=
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$WORK"' EXIT
cargo build --release -q -p ludolog --manifest-path "$ROOT/Cargo.toml"
BIN="$ROOT/target/release/ludolog"
FILTER='round == 3 && seats.exists(s, s.viziers >= 5)'
: >"$WORK/rows"

for N in "${SIZES[@]}"; do
  DIR="$WORK/store-$N"
  echo "== $N games" >&2
  "$BIN" bench import --games "$N" --data-dir "$DIR" >"$WORK/import.json"
  "$BIN" bench read --reads 20000 --data-dir "$DIR" >"$WORK/read.json"
  "$BIN" bench stats --queries 300 --data-dir "$DIR" >"$WORK/stats.json"
  "$BIN" bench positions --runs 5 --threads 2 --where "$FILTER" --data-dir "$DIR" >"$WORK/positions.json"
  "$BIN" bench explorer --queries 3000 --data-dir "$DIR" >"$WORK/explorer.json"
  # The whole process, as a user runs it (best of 3: the first also warms the page cache).
  E2E=$(for _ in 1 2 3; do
    /usr/bin/time -f %e "$BIN" positions --kind five-tribes --threads 1 --where "$FILTER" \
      --data-dir "$DIR" 2>&1 >/dev/null | tail -1
  done | sort -n | head -1)
  # serve's resident memory on this store.
  PORT=$((18200 + RANDOM % 500))
  "$BIN" serve --listen "127.0.0.1:$PORT" --rate-limit 0 --data-dir "$DIR" >"$WORK/serve.out" 2>&1 &
  SERVER=$!
  for _ in $(seq 600); do grep -q listening "$WORK/serve.out" 2>/dev/null && break; sleep 0.2; done
  RSS_START=$(awk '/VmRSS/ {print $2/1024}' /proc/$SERVER/status)
  for _ in $(seq 200); do
    curl -s -H 'content-type: application/json' \
      -d '{"query":"{ statistics(kind: FIVE_TRIBES) { games byPlayerCount { players } } }"}' \
      "http://127.0.0.1:$PORT/graphql" >/dev/null
  done
  RSS_AFTER=$(awk '/VmRSS/ {print $2/1024}' /proc/$SERVER/status)
  kill $SERVER; wait $SERVER 2>/dev/null || true; SERVER=
  "$BIN" bench append --writers 16 --seconds 5 --data-dir "$DIR" >"$WORK/append.out" 2>&1
  python3 - "$N" "$WORK" "$E2E" "$RSS_START" "$RSS_AFTER" >>"$WORK/rows" <<'PY'
import json, re, sys
n, work, e2e, rss0, rss1 = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
imp = json.load(open(f"{work}/import.json"))
rd = json.load(open(f"{work}/read.json"))
st = json.load(open(f"{work}/stats.json"))
ps = json.load(open(f"{work}/positions.json"))
ex = json.load(open(f"{work}/explorer.json"))
text = open(f"{work}/append.out").read()
m = re.findall(r'"appends_per_second":\s*([\d.]+)', text) or re.findall(r"([\d.]+) appends/s", text)
row = {
    "games": int(n),
    "entries": imp["entries"],
    "import entries/s": imp["entries_per_second"],
    "disk bytes/entry": imp["bytes_per_entry"],
    "read p50 µs": rd["p50_us"],
    "read p99 µs": rd["p99_us"],
    "statistics p99 µs (cold)": st["cold_p99_us"],
    "statistics p99 µs (warm)": st["warm_p99_us"],
    "positions/s, 1 worker": ps["positions_per_s"],
    "positions/s, 2 workers": ps["parallel_positions_per_s"],
    "ludolog positions, whole process s": e2e,
    "explorer node p99 ms": ex["p99_ms"],
    "explorer largest node p99 ms": ex["largest_nodes_p99_ms"],
    "explorer run bytes/entry": ex["run_bytes_per_entry"],
    "serve RSS MiB at start": rss0,
    "serve RSS MiB after statistics": rss1,
    "appends/s, 16 writers": float(m[-1]) if m else float("nan"),
}
print(json.dumps(row))
PY
  rm -rf "$DIR"
done

python3 - "$WORK/rows" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
base = rows[0]
keys = list(base)
print("| figure | " + " | ".join(f"{r['games']:,} games" for r in rows) + " | ratio last/first |")
print("|---" * (len(rows) + 2) + "|")
for k in keys:
    cells = []
    for r in rows:
        v = r[k]
        cells.append(f"{v:,.0f}" if isinstance(v, (int, float)) and abs(v) >= 100 else f"{v:.3g}")
    ratio = rows[-1][k] / base[k] if base[k] else float("nan")
    print(f"| {k} | " + " | ".join(cells) + f" | {ratio:.2f}× |")
PY
