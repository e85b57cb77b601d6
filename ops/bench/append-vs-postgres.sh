#!/usr/bin/env bash
# Durable appends: Ludolog's store against a local PostgreSQL doing the same work, side by side.
#
#   ops/bench/append-vs-postgres.sh [SECONDS]     (default 10; run as root on a Debian machine)
#
# PostgreSQL: a throwaway cluster (fsync on, synchronous_commit on, defaults otherwise), a table
# events(game_id, seq, body) keyed (game_id, seq); each append is one transaction that reads the
# game's tip and inserts seq + 1 (pgbench, one game per client).
# Ludolog: `ludolog bench append`: each writer appends the moves of pre-played Five Tribes games
# to games of its own; every append is validated by the rules, dealt, checksummed, written in
# one transaction and flushed (group commit) before it is acknowledged.
# Ludolog on JetStream: the same `bench append` with `--store` on a three-node NATS cluster on
# this machine (`ops/cluster/jetstream.sh`), the stream with 3 replicas: each append is
# acknowledged once a majority of the three servers holds it (JetStream's own fsync policy:
# its default syncs every 2 minutes, the replicas are the durability).
# All run with 16 writers and with 1. Results go to stdout as a table; paste them, with the
# date and `nproc`, into ops/BENCHMARKS.md.
set -euo pipefail
SECONDS_PER_RUN=${1:-10}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=$(mktemp -d /tmp/ludolog-bench.XXXXXX)
trap 'su postgres -c "$PGBIN/pg_ctl -D $WORK/pg -m immediate stop" >/dev/null 2>&1 || true; "$ROOT/ops/cluster/jetstream.sh" stop "$WORK/cluster" >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT

if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
chown postgres "$WORK"
su postgres -c "$PGBIN/initdb -D $WORK/pg -A trust" >/dev/null
su postgres -c "$PGBIN/pg_ctl -D $WORK/pg -o '-c fsync=on -c synchronous_commit=on -c listen_addresses=127.0.0.1 -c port=55432 -c unix_socket_directories=$WORK' -l $WORK/pg.log start" >/dev/null
sleep 2
PSQL=(su postgres -c)
"${PSQL[@]}" "psql -h 127.0.0.1 -p 55432 -d postgres -qc 'CREATE TABLE events (game_id int, seq int, body text, PRIMARY KEY (game_id, seq));'"
cat > "$WORK/append.sql" <<'SQL'
BEGIN;
INSERT INTO events (game_id, seq, body)
  SELECT :client_id, coalesce(max(seq), 0) + 1, 'pick c3' FROM events WHERE game_id = :client_id;
COMMIT;
SQL
chown postgres "$WORK/append.sql"

pg_tps() {
  "${PSQL[@]}" "pgbench -h 127.0.0.1 -p 55432 -n -c $1 -j $1 -T $SECONDS_PER_RUN -f $WORK/append.sql postgres" \
    | awk '/^tps/ { print int($3) }'
}

cargo build --release -q -p ludolog --manifest-path "$ROOT/Cargo.toml"
LUDOLOG="$ROOT/target/release/ludolog"
ll_tps() {
  rm -rf "$WORK/ll"
  "$LUDOLOG" bench append --writers "$1" --seconds "$SECONDS_PER_RUN" --data-dir "$WORK/ll" \
    | python3 -c 'import json,sys; print(int(json.load(sys.stdin)["appends_per_second"]))'
}

"$ROOT/ops/cluster/jetstream.sh" start "$WORK/cluster" >/dev/null
js_tps() {
  rm -rf "$WORK/js"
  "$LUDOLOG" bench append --writers "$1" --seconds "$SECONDS_PER_RUN" --data-dir "$WORK/js" \
    --store nats://127.0.0.1:4221,nats://127.0.0.1:4222,nats://127.0.0.1:4223 --replicas 3 \
    | python3 -c 'import json,sys; print(int(json.load(sys.stdin)["appends_per_second"]))'
}

printf '| writers | PostgreSQL appends/s | Ludolog (sled) appends/s | ratio | Ludolog (JetStream, 3 replicas) appends/s | ratio |\n|---|---|---|---|---|---|\n'
for w in 16 1; do
  pg=$(pg_tps "$w")
  ll=$(ll_tps "$w")
  js=$(js_tps "$w")
  printf '| %s | %s | %s | %s | %s | %s |\n' "$w" "$pg" "$ll" "$(python3 -c "print(f'{$ll/$pg:.2f}x')")" \
    "$js" "$(python3 -c "print(f'{$js/$pg:.2f}x')")"
done
