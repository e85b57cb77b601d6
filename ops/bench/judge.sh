#!/usr/bin/env bash
# Judgements that mean something, and what a review costs (issue 40), results in
# ops/BENCHMARKS.md ("Judgements").
#
#   ops/bench/judge.sh [GAMES] [GAME-KINDS] [ITERATIONS] [THREADS]
#       defaults: 20 games a kind, every kind, 500 iterations (the projection's default), 1
#
# Per game kind: GAMES two-player games of MCTS at 1,000 iterations against a random seat
# (`ludolog selfplay`, seats rotated), imported into a scratch store and reviewed
# (`ludolog review`, the projection's own code, one game a thread). Prints, per kind and
# seat's bot, the share of its moves classed inaccuracy / mistake / blunder and its mean
# accuracy; the share of games where the bot's accuracy beats random's (target: at least
# 95 %); and the seconds a whole game's review took on one core (target: at most 30 s).
set -euo pipefail
GAMES=${1:-20}
KINDS=${2:-five-tribes,clans-of-caledonia,mombasa}
ITER=${3:-500}
THREADS=${4:-1}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
cargo build --release -q -p ludolog
BIN=$ROOT/target/release/ludolog
if [[ -z "${WORK:-}" ]]; then
  WORK=$(mktemp -d)
  trap 'rm -rf "$WORK"' EXIT
fi
mkdir -p "$WORK"
for g in ${KINDS//,/ }; do
  if [[ ! -s "$WORK/$g-$GAMES.ndjson" ]]; then
    "$BIN" selfplay --game "$g" --players 2 --bots mcts:1000,random --games "$GAMES" --seed 1 \
      --threads "$THREADS" --out "$WORK/$g-$GAMES.ndjson" 2>/dev/null
    rm -rf "$WORK/store-$g-$GAMES"
    "$BIN" import --data-dir "$WORK/store-$g-$GAMES" "$WORK/$g-$GAMES.ndjson" >/dev/null
  fi
  "$BIN" review --data-dir "$WORK/store-$g-$GAMES" --iterations "$ITER" --threads "$THREADS" --again \
    >"$WORK/$g.review" 2>/dev/null
  python3 - "$g" "$WORK/$g.review" <<'PY'
import json, statistics, sys
kind, path = sys.argv[1], sys.argv[2]
games = [json.loads(l) for l in open(path)]
by = {}
beats = 0
for g in games:
    acc = {}
    for s in g["seats"]:
        b = by.setdefault(s["player"], dict(moves=0, inaccuracy=0, mistake=0, blunder=0, acc=[]))
        for k in ("moves", "inaccuracy", "mistake", "blunder"):
            b[k] += s[k]
        if s["accuracy"] is not None:
            b["acc"].append(s["accuracy"])
        acc[s["player"]] = s["accuracy"] or 0
    beats += acc.get("mcts:1000", 0) > acc.get("random", 0)
print(f"## {kind}: {len(games)} games, 2 players, mcts:1000 against random")
print("| seat | moves judged | inaccuracy | mistake | blunder | mistakes and blunders | mean accuracy |")
print("|---|---|---|---|---|---|---|")
for p, b in sorted(by.items()):
    n = max(b["moves"], 1)
    print(f"| {p} | {b['moves']} | {100*b['inaccuracy']/n:.1f} % | {100*b['mistake']/n:.1f} % | "
          f"{100*b['blunder']/n:.1f} % | {100*(b['mistake']+b['blunder'])/n:.1f} % | {statistics.mean(b['acc']):.1f} |")
secs = sorted(g.get("cpu_seconds", g["seconds"]) for g in games)
print(f"bot's accuracy above random's: {beats} of {len(games)} games ({100*beats/len(games):.0f} %; target 95 %)")
print(f"a game's review, CPU of one core: median {statistics.median(secs):.1f} s, slowest {secs[-1]:.1f} s "
      f"(target 30 s); positions searched a game: median {statistics.median(g['searched'] for g in games)}")
PY
done
