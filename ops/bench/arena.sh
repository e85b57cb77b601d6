#!/usr/bin/env bash
# The bots' strength and speed (issue 39), results in ops/BENCHMARKS.md ("Bots").
#
#   ops/bench/arena.sh [GAMES] [SPEED-POSITIONS]      (defaults: 400 games, 20 positions)
#
# Strength, per game and player count, seats rotated, every game seeded (the same run gives
# the same table):
#   - MCTS at 1,000 iterations a move against random seats, 2-4 players (target: at least
#     90 % of 4-player games; random's share is 1/players);
#   - MCTS at 4,000 against MCTS at 1,000, 2 players (target: 60 %, the Wilson interval above
#     50 %);
#   - greedy rollouts against random rollouts at equal iterations, 2 players.
# Speed: `ludolog bench search` at 1,000 iterations, beside plain random playouts from the same
# positions in the same run (targets: the search's own overhead at most half of each
# iteration's time; a move under 0.5 s of one core). A search runs on one core: the arenas
# run one at a time.
set -euo pipefail
GAMES=${1:-400}
POSITIONS=${2:-20}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
cargo build --release -q -p ludolog
BIN=target/release/ludolog

echo "## Speed (1,000 iterations, $POSITIONS positions each)"
for g in five-tribes clans-of-caledonia mombasa; do
  "$BIN" bench search --game "$g" --players 3 --positions "$POSITIONS" --iterations 1000
done

arena() { # game players bots
  echo "### $1, $2 players: $3 ($GAMES games)"
  "$BIN" arena --game "$1" --players "$2" --bots "$3" --games "$GAMES" --seed 1
}
echo "## Strength"
for g in five-tribes clans-of-caledonia mombasa; do
  for p in 2 3 4; do
    lineup="mcts:1000"; for _ in $(seq 2 "$p"); do lineup="$lineup,random"; done
    arena "$g" "$p" "$lineup"
  done
  arena "$g" 2 "mcts:4000,mcts:1000"
  arena "$g" 2 "mcts:1000:greedy,mcts:1000"
done
