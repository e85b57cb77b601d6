#!/usr/bin/env bash
# The explorer's node queries beside DuckDB answering the same queries over the same rows, in
# one run (issue 41's reference). Results: ops/BENCHMARKS.md, "Explorer".
#
#   ops/bench/explorer-vs-duckdb.sh [GAMES] [QUERIES]     (defaults 10000, 2000)
#
# 1. `ludolog bench import` stores GAMES random Five Tribes games (2-4 players); the explorer
#    files each as it finishes.
# 2. `ludolog bench explorer --dump` times QUERIES nodes at random decisions (by line and by
#    position in turn) and each kind's first decision by line (the largest nodes, 20 times
#    each), one at a time on one thread; then writes every row the explorer holds (20 bytes,
#    as its run files), every seat's figures, and the queries with the games each node counted.
# 3. DuckDB (pip, in a throwaway venv) loads the rows into a table sorted by key (as the run
#    files are) and the figures into another, and answers each query with one SQL statement:
#    per move, the games, the movers' wins, mean score and rank — what a node answers, bar the
#    recent games — median-free: every query timed once, as ours, on one thread and on all.
#    Each answer's game count is checked against the explorer's first (a brute-force count).
# The table printed gives ours beside DuckDB's on one thread as a ratio (above 1: ours faster).
set -euo pipefail
GAMES=${1:-10000}
QUERIES=${2:-2000}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=$(mktemp -d /tmp/ludolog-explorer.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
cargo build --release -q -p ludolog --manifest-path "$ROOT/Cargo.toml"
BIN="$ROOT/target/release/ludolog"
"$BIN" bench import --games "$GAMES" --data-dir "$WORK/data" >/dev/null
"$BIN" bench explorer --queries "$QUERIES" --data-dir "$WORK/data" --dump "$WORK/dump" > "$WORK/ours.json"
python3 -m venv "$WORK/venv" >/dev/null
"$WORK/venv/bin/pip" install -q duckdb numpy
"$WORK/venv/bin/python" - "$WORK/dump" "$WORK/ours.json" <<'PY'
import csv, json, os, sys, time
import duckdb, numpy as np
dump, ours = sys.argv[1], json.load(open(sys.argv[2]))
ROW = np.dtype([("key", "<u8"), ("game", "<u4"), ("mv", "<u4"), ("ply", "<u2"), ("seat", "u1"), ("flags", "u1")])
con = duckdb.connect()
queries = list(csv.DictReader(open(f"{dump}/queries.csv")))
kinds = sorted({q["kind"] for q in queries})
rows_total = 0
for k in kinds:
    t = k.replace("-", "_")
    arr = np.fromfile(f"{dump}/{k}.rows", dtype=ROW)
    rows_total += len(arr)
    con.register("arr", {n: arr[n] for n in ROW.names})
    con.execute(f"CREATE TABLE rows_{t} AS SELECT * FROM arr ORDER BY key, game, ply")
    con.unregister("arr")
    con.execute(f"CREATE TABLE seats_{t} AS SELECT * FROM read_csv('{dump}/{k}.seats.csv', header=true)")
SQL = """SELECT r.mv, count(DISTINCT r.game) AS games, sum(s.share) AS wins, avg(s.score) AS score, avg(s.rank) AS rank
  FROM rows_{t} r JOIN seats_{t} s ON s.game = r.game AND s.seat = r.seat
  WHERE r.key = $key AND (r.flags & 1) = $pos AND s.players = $players AND NOT s.dead
  GROUP BY r.mv"""
CHECK = """SELECT count(DISTINCT r.game) FROM rows_{t} r JOIN seats_{t} s ON s.game = r.game AND s.seat = r.seat
  WHERE r.key = $key AND (r.flags & 1) = $pos AND s.players = $players AND NOT s.dead"""
def args(q):
    return {"key": int(q["key"]), "pos": int(q["position"]), "players": int(q["players"])}
wrong = 0
for q in queries:
    got = con.execute(CHECK.format(t=q["kind"].replace("-", "_")), args(q)).fetchone()[0]
    wrong += got != int(q["games"])
def run(threads):
    con.execute(f"SET threads TO {threads}")
    picks, largest = [], []
    for q in queries:
        sql, a = SQL.format(t=q["kind"].replace("-", "_")), args(q)
        for _ in range(20 if q["largest"] == "1" else 1):
            t = time.perf_counter()
            con.execute(sql, a).fetchall()
            (largest if q["largest"] == "1" else picks).append((time.perf_counter() - t) * 1e3)
    pct = lambda v, p: sorted(v)[round((len(v) - 1) * p)]
    return {"p50": pct(picks, 0.5), "p99": pct(picks, 0.99), "l50": pct(largest, 0.5), "l99": pct(largest, 0.99)}
one, alln = run(1), run(os.cpu_count())
print(json.dumps({"ours": ours, "duckdb_1_thread": one, "duckdb_all_threads": alln,
                  "rows": rows_total, "answers_differing": wrong}))
print(f"\n{ours['games']} games, {rows_total} rows, {len(queries)} queries; answers differing from DuckDB's count: {wrong}")
print("| query | ours | DuckDB, 1 thread | ratio | DuckDB, all threads |")
print("|---|---|---|---|---|")
for name, o, d in [("random node p50", ours["p50_ms"], "p50"), ("random node p99", ours["p99_ms"], "p99"),
                   (f"largest node ({ours['largest_nodes_games']} games) p50", ours["largest_nodes_p50_ms"], "l50"),
                   ("largest node p99", ours["largest_nodes_p99_ms"], "l99")]:
    print(f"| {name} | {o:.3f} ms | {one[d]:.3f} ms | {one[d] / o:.1f}x | {alln[d]:.3f} ms |")
PY
