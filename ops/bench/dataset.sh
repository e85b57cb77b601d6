#!/usr/bin/env bash
# The open datasets (issue 42): writing speed and size beside the CSV export of the same rows,
# and what DuckDB reads of a served file over HTTP. Results: ops/BENCHMARKS.md, "Datasets".
#
#   ops/bench/dataset.sh [GAMES]     (default 10000)
#
# 1. `ludolog bench import` stores GAMES random Five Tribes games (2-4 players), all ending in
#    this month: one month, one file per table.
# 2. `ludolog dataset` writes the five tables (one thread), timed whole: its move rows a
#    second charge all five tables' work to the move rows; `ludolog bench dataset` times each
#    table alone (target: the moves table at 1 M rows/s on one core). Beside it, in the same run:
#    `ludolog table --table moves --format csv` (the CSV export of the same rows), its
#    gzip -6 size, and DuckDB (pip) converting that CSV to a ZSTD Parquet file (time, size).
# 3. `ludolog serve` on the same store and dataset (kept: nothing to write) and DuckDB's
#    httpfs over HTTP: `count(*)` of moves, two columns of moves with a filter, and a filter
#    on one game; the bytes the server sent for each (`ludolog_dataset_bytes_sent_total`)
#    beside the file's size (targets: count(*) only the footer; two columns at most 20 %).
set -euo pipefail
GAMES=${1:-10000}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=$(mktemp -d /tmp/ludolog-dataset.XXXXXX)
SERVER=
trap 'kill $SERVER 2>/dev/null || true; wait $SERVER 2>/dev/null || true; rm -rf "$WORK"' EXIT
cargo build --release -q -p ludolog --manifest-path "$ROOT/Cargo.toml"
BIN="$ROOT/target/release/ludolog"
"$BIN" bench import --games "$GAMES" --data-dir "$WORK/data" >/dev/null
"$BIN" dataset --out "$WORK/ds" --data-dir "$WORK/data" > "$WORK/write.json"
# Each table alone, then all five (the same month again, into a temporary folder).
"$BIN" bench dataset --data-dir "$WORK/data" > "$WORK/tables.json"
T0=$(date +%s.%N)
"$BIN" table --kind five-tribes --table moves --format csv --out "$WORK/moves.csv" --data-dir "$WORK/data" 2>/dev/null
T1=$(date +%s.%N)
gzip -6 -k "$WORK/moves.csv"
# The floor for any file of these rows: the move texts alone (the CSV's 4th column; Five
# Tribes' moves hold no comma), compressed as one stream by zstd -19.
FLOOR=$(cut -d, -f4 "$WORK/moves.csv" | tail -n +2 | zstd -19 -q -c | wc -c)
echo "{\"csv_seconds\": $(echo "$T1 - $T0" | bc), \"csv_bytes\": $(stat -c %s "$WORK/moves.csv"), \"csv_gz_bytes\": $(stat -c %s "$WORK/moves.csv.gz"), \"move_text_zstd19_bytes\": $FLOOR}" > "$WORK/csv.json"

"$BIN" serve --listen 127.0.0.1:0 --data-dir "$WORK/data" --dataset-dir "$WORK/ds" --dataset-interval 3600 \
  --no-samples --review-threads 0 --rate-limit 0 > "$WORK/out" 2>/dev/null &
SERVER=$!
for _ in $(seq 300); do grep -q http "$WORK/out" 2>/dev/null && break; sleep 0.1; done
URL=$(grep -o 'http://[^ ]*' "$WORK/out" | head -1 | sed 's#/graphql$##')
for _ in $(seq 600); do curl -sf "$URL/datasets/manifest.json" >/dev/null && break; sleep 0.1; done

python3 -m venv "$WORK/venv" >/dev/null
"$WORK/venv/bin/pip" install -q duckdb==1.5.5 duckdb-extension-httpfs==1.5.5
"$WORK/venv/bin/python" - "$URL" "$WORK" <<'PY'
import json, os, re, sys, time, urllib.request
import duckdb, duckdb_extension_httpfs
url, work = sys.argv[1], sys.argv[2]
write, csv = json.load(open(f"{work}/write.json")), json.load(open(f"{work}/csv.json"))
tables = json.load(open(f"{work}/tables.json"))["tables"]
manifest = json.load(urllib.request.urlopen(url + "/datasets/manifest.json"))
import struct
files = {f["table"]: f for m in manifest["months"] for f in m["files"]}
moves = files["moves"]
murl = url + "/datasets/" + moves["path"]
ext = os.path.join(os.path.dirname(duckdb_extension_httpfs.__file__), "extensions", "v" + duckdb.__version__, "httpfs.duckdb_extension")
def sent():
    t = urllib.request.urlopen(url + "/metrics").read().decode()
    return int(re.search(r"ludolog_dataset_bytes_sent_total (\d+)", t).group(1))
def over_http(sql):
    con = duckdb.connect(config={"autoinstall_known_extensions": False})
    con.execute(f"LOAD '{ext}'")
    before = sent()
    t = time.perf_counter()
    rows = con.execute(sql).fetchall()
    return {"seconds": time.perf_counter() - t, "bytes": sent() - before, "share": (sent() - before) / moves["bytes"], "rows": len(rows)}
game = duckdb.connect().execute(f"SELECT game_id FROM read_parquet('{work}/ds/{moves['path']}') LIMIT 1 OFFSET 1000000").fetchone()[0]
http = {
    "count(*)": over_http(f"SELECT count(*) FROM read_parquet('{murl}')"),
    "game_id, ply WHERE seat = 0": over_http(f"SELECT game_id, ply FROM read_parquet('{murl}') WHERE seat = 0"),
    "ply, move WHERE game_id = one game": over_http(f"SELECT ply, move FROM read_parquet('{murl}') WHERE game_id = '{game}'"),
}
# DuckDB converting the CSV export to Parquet (ZSTD), the same rows.
con = duckdb.connect()
t = time.perf_counter()
con.execute(f"COPY (SELECT * FROM read_csv('{work}/moves.csv')) TO '{work}/duck.parquet' (FORMAT parquet, COMPRESSION zstd)")
duck_s = time.perf_counter() - t
duck_bytes = os.path.getsize(f"{work}/duck.parquet")
print(json.dumps({"write": write, "csv": csv, "duckdb_csv_to_parquet": {"seconds": duck_s, "bytes": duck_bytes}, "http": http,
                  "tables": {k: {"rows": f["rows"], "bytes": f["bytes"]} for k, f in files.items()}}, indent=1))
rows = moves["rows"]
with open(f"{work}/ds/{moves['path']}", "rb") as fh:
    fh.seek(-8, 2)
    footer = struct.unpack("<I", fh.read(4))[0] + 8
print(f"\n{write['files']} files, {rows} move rows; moves.parquet {moves['bytes']} bytes, its footer {footer} bytes")
print(f"| measure | ours | reference | ratio |\n|---|---|---|---|")
print(f"| write, every table, move rows/s (one thread) | {rows / write['seconds']:,.0f} | CSV export of moves alone: {rows / csv['csv_seconds']:,.0f} | {csv['csv_seconds'] / write['seconds']:.2f}x |")
for t in ["moves", "positions", "games", "seats", "evaluations"]:
    r = tables[t]
    print(f"| write {t} alone (bench dataset), rows/s | {r['rows_per_second']:,.0f} | CSV export of moves: {rows / csv['csv_seconds']:,.0f} rows/s | {r['rows_per_second'] * csv['csv_seconds'] / rows:.2f}x |")
r = tables["all"]
print(f"| write all five (bench dataset), move rows/s | {r['move_rows_per_second']:,.0f} | the same | {r['move_rows_per_second'] * csv['csv_seconds'] / rows:.2f}x |")
print(f"| moves file bytes | {moves['bytes']:,} | gzip -6 CSV: {csv['csv_gz_bytes']:,}; DuckDB's Parquet of the CSV: {duck_bytes:,} | {csv['csv_gz_bytes'] / moves['bytes']:.2f}x smaller (target 5x) |")
print(f"| the move texts alone, zstd -19 as one stream (a floor) | — | {csv['move_text_zstd19_bytes']:,} | {100 * csv['move_text_zstd19_bytes'] / csv['csv_gz_bytes']:.1f} % of the gzip CSV |")
for q, r in http.items():
    print(f"| DuckDB over HTTP: {q} | {r['bytes']:,} bytes sent, {r['seconds']:.2f} s | the file: {moves['bytes']:,} | {100 * r['share']:.1f} % |")
PY
