#!/usr/bin/env bash
# Position queries: Ludolog's feature index against DuckDB over the positions.ndjson export,
# the same filter, side by side in one run.
#
#   ops/bench/positions-vs-duckdb.sh [GAMES]        (default 10000)
#
# 1. `ludolog bench import` stores GAMES random Five Tribes games (2-4 players); each finished
#    game is indexed as it is stored (one row of features per ply).
# 2. `ludolog positions` exports every position, unfiltered, as NDJSON.
# 3. `ludolog bench positions` scans the whole index with the CEL filter inside one process,
#    on one worker and on one per core (median of 5 each).
# 4. `ludolog positions --where …` as a user runs it: a whole process (opening the store
#    included) writing the matching rows, on one worker and on one per core (median of 5);
#    and the same with `--count`, which answers what the SQL below answers (how many match).
# 5. DuckDB (pip, in a throwaway venv) answers the same filter in SQL, median of 5:
#    a) over the NDJSON file (parse included), with all cores;
#    b) over a table already loaded in memory (parse excluded), with all cores and with one.
# The table printed at the end gives each Ludolog figure beside DuckDB's in-memory query with
# the same number of threads, as a ratio (above 1: Ludolog is faster).
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

# The whole process, as a user runs it: median of 5 wall times, one worker and all. The rows
# go to a new file each time: the previous run's file is removed before the clock starts
# (overwriting it would time the kernel freeing 13 MB of the last answer, not this query).
wall() {
  python3 - "$WORK/hits.ndjson" "$@" <<'PY'
import os, statistics, subprocess, sys, time
out, cmd = sys.argv[1], sys.argv[2:]
times = []
for _ in range(5):
    if os.path.exists(out):
        os.remove(out)
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    times.append(time.perf_counter() - t)
print(f"{statistics.median(times):.4f}")
PY
}
E2E1=$(wall "$BIN" positions --threads 1 --kind five-tribes --where "$FILTER" --out "$WORK/hits.ndjson" --data-dir "$WORK/data")
E2EN=$(wall "$BIN" positions --kind five-tribes --where "$FILTER" --out "$WORK/hits.ndjson" --data-dir "$WORK/data")
# `--count`: the same scan answering what DuckDB's query answers (how many match).
C1=$(wall "$BIN" positions --count --threads 1 --kind five-tribes --where "$FILTER" --out "$WORK/hits.ndjson" --data-dir "$WORK/data")
CN=$(wall "$BIN" positions --count --kind five-tribes --where "$FILTER" --out "$WORK/hits.ndjson" --data-dir "$WORK/data")
COUNTED=$("$BIN" positions --count --kind five-tribes --where "$FILTER" --data-dir "$WORK/data")
echo "{\"e2e_1\": $E2E1, \"e2e_n\": $E2EN, \"count_1\": $C1, \"count_n\": $CN, \"counted\": $COUNTED}" > "$WORK/e2e.json"

python3 -m venv "$WORK/venv" >/dev/null
"$WORK/venv/bin/pip" install -q duckdb
"$WORK/venv/bin/python" - "$WORK/positions.ndjson" "$SQL_WHERE" "$WORK/ludolog.json" "$WORK/e2e.json" <<'PY'
import json, statistics, sys, time
import duckdb
path, where, ours, e2e = sys.argv[1], sys.argv[2], json.load(open(sys.argv[3])), json.load(open(sys.argv[4]))
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
# Writing the matching rows, as `ludolog positions` does: DuckDB's COPY to newline-delimited
# JSON, a new file each run (removed before the clock starts).
import os
hits = os.path.join(os.path.dirname(sys.argv[3]), "duckdb-hits.json")
def copy_median(threads, runs=5):
    con.execute(f"SET threads TO {threads}")
    times = []
    for _ in range(runs):
        if os.path.exists(hits):
            os.remove(hits)
        t = time.perf_counter()
        con.execute(f"COPY (SELECT * FROM p WHERE {where}) TO '{hits}' (FORMAT JSON)")
        times.append(time.perf_counter() - t)
    return statistics.median(times)
t_copy1 = copy_median(1)
t_copy = copy_median(os.cpu_count())
copied = sum(1 for _ in open(hits))
assert n_file == n_mem == copied == ours["matched"] == e2e["counted"]["matched"], (n_file, n_mem, copied, ours["matched"], e2e["counted"])
n = ours["positions"]
threads = ours["threads"]
print(f"duckdb {duckdb.__version__}: {n} positions, {n_file} match (same as Ludolog); filter compiled: {ours['compiled']}")
print(f"| what | median s | positions/s | beside | ratio (>1: Ludolog faster) |")
print(f"|---|---|---|---|---|")
rows = [
    ("Ludolog index scan in process, 1 worker", ours["median_s"], "DuckDB in memory, 1 thread", t_mem1),
    (f"Ludolog index scan in process, {threads} workers", ours["parallel_median_s"], "DuckDB in memory, all threads", t_mem),
    ("`ludolog positions` whole process, 1 worker", e2e["e2e_1"], "DuckDB in memory, 1 thread", t_mem1),
    (f"`ludolog positions` whole process, {threads} workers", e2e["e2e_n"], "DuckDB in memory, all threads", t_mem),
    ("`ludolog positions` whole process, 1 worker", e2e["e2e_1"], "DuckDB in memory writing the rows (COPY … FORMAT JSON), 1 thread", t_copy1),
    (f"`ludolog positions` whole process, {threads} workers", e2e["e2e_n"], "DuckDB in memory writing the rows, all threads", t_copy),
    ("`ludolog positions --count` whole process, 1 worker", e2e["count_1"], "DuckDB in memory, 1 thread", t_mem1),
    (f"`ludolog positions --count` whole process, {threads} workers", e2e["count_n"], "DuckDB in memory, all threads", t_mem),
    (f"`ludolog positions` whole process, {threads} workers", e2e["e2e_n"], "DuckDB over positions.ndjson, all threads", t_file),
]
for name, t, ref, rt in rows:
    print(f"| {name} | {t:.3f} | {n/t:,.0f} | {ref}: {rt:.3f} s, {n/rt:,.0f}/s | {rt/t:.2f}× |")
PY
