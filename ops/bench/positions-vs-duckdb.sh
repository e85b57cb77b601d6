#!/usr/bin/env bash
# Position queries: Ludolog's feature index against DuckDB over the positions.ndjson export,
# the same filter, side by side in one run.
#
#   ops/bench/positions-vs-duckdb.sh [GAMES]        (default 10000)
#
# 1. `ludolog bench import` stores GAMES random Five Tribes games (2-4 players); each finished
#    game is indexed as it is stored (one row of features per ply).
# 2. `ludolog positions` exports every position, unfiltered, as NDJSON.
# 3. `ludolog bench positions` scans the whole index with the CEL filter (one core, median of 5).
# 4. DuckDB (pip, in a throwaway venv) answers the same filter in SQL, median of 5:
#    a) over the NDJSON file, as the issue asks (parse included), with all cores;
#    b) over a table already loaded in memory (parse excluded), with all cores and with one.
# Results go to stdout; paste them with the date and `nproc` into ops/BENCHMARKS.md.
set -euo pipefail
GAMES=${1:-10000}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=$(mktemp -d /tmp/ludolog-positions.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
FILTER='round == 3 && seats.exists(s, s.viziers >= 5)'
SQL_WHERE='round = 3 AND len(list_filter(seats, lambda s: s.viziers >= 5)) > 0'

cargo build --release -q -p ludolog --manifest-path "$ROOT/Cargo.toml"
BIN="$ROOT/target/release/ludolog"
"$BIN" bench import --games "$GAMES" --data-dir "$WORK/data" >/dev/null
"$BIN" positions --kind five-tribes --out "$WORK/positions.ndjson" --data-dir "$WORK/data"
echo "positions.ndjson: $(du -h "$WORK/positions.ndjson" | cut -f1), $(wc -l < "$WORK/positions.ndjson") lines"
"$BIN" bench positions --kind five-tribes --where "$FILTER" --runs 5 --data-dir "$WORK/data" \
  | tee "$WORK/ludolog.json"

python3 -m venv "$WORK/venv" >/dev/null
"$WORK/venv/bin/pip" install -q duckdb
"$WORK/venv/bin/python" - "$WORK/positions.ndjson" "$SQL_WHERE" "$WORK/ludolog.json" <<'PY'
import json, statistics, sys, time
import duckdb
path, where, ours = sys.argv[1], sys.argv[2], json.load(open(sys.argv[3]))
con = duckdb.connect()
def median(sql, runs=5):
    times, result = [], None
    for _ in range(runs):
        t = time.perf_counter()
        result = con.execute(sql).fetchone()[0]
        times.append(time.perf_counter() - t)
    return statistics.median(times), result
file_sql = f"SELECT count(*) FROM read_json('{path}', format='newline_delimited') WHERE {where}"
t_file, n_file = median(file_sql)
con.execute(f"CREATE TABLE p AS SELECT * FROM read_json('{path}', format='newline_delimited')")
t_mem, n_mem = median(f"SELECT count(*) FROM p WHERE {where}")
con.execute("SET threads TO 1")
t_mem1, _ = median(f"SELECT count(*) FROM p WHERE {where}")
assert n_file == n_mem == ours["matched"], (n_file, n_mem, ours["matched"])
n = ours["positions"]
print(f"duckdb {duckdb.__version__}: {n} positions, {n_file} match (same as Ludolog)")
print(f"| engine | median s | positions/s | Ludolog faster by |")
print(f"|---|---|---|---|")
print(f"| Ludolog index, CEL, 1 core | {ours['median_s']:.3f} | {n/ours['median_s']:,.0f} | — |")
for name, t in [("DuckDB over positions.ndjson, all cores", t_file),
                ("DuckDB in-memory table, all cores", t_mem),
                ("DuckDB in-memory table, 1 thread", t_mem1)]:
    print(f"| {name} | {t:.3f} | {n/t:,.0f} | {t/ours['median_s']:.1f}× |")
PY
