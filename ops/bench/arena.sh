#!/usr/bin/env bash
# The bots' strength and speed (issue 39), results in ops/BENCHMARKS.md ("Bots").
#
#   ops/bench/arena.sh [GAMES] [PARTS] [GAME-KINDS] [SEED]
#       defaults: 400 games, every part (speed,random,versus,rollouts), every game kind, seed 1
#
# Strength, per game and player count, seats rotated, every game seeded (the same run gives
# the same table, however many threads play it):
#   - random: MCTS at 1,000 iterations a move against random seats, 2-4 players (target: at
#     least 90 % of 4-player games; random's share is 1/players);
#   - versus: MCTS at 4,000 against MCTS at 1,000, 2 players (target: 60 %, the Wilson
#     interval above 50 %);
#   - rollouts: greedy rollouts against random rollouts at equal iterations, 2 players.
# Speed: `ludolog bench search` at 1,000 iterations, beside plain random playouts from the same
# positions in the same run (targets: the search's own overhead at most half of each
# iteration's time; a move under 0.5 s of one core); it runs alone, before the arenas.
# A search runs on one core; the arenas play THREADS games at a time. The full
# table is hours of both cores: PARTS, GAME-KINDS and SEED let it be played in pieces (two
# runs of 200 games with seeds 1 and 2 are 400 different games; their wins add up).
# THREADS (default 2) and COUNTS (the random part's player counts, default "4 3 2") narrow a
# piece further, e.g. to leave a core free.
set -euo pipefail
THREADS=${THREADS:-2}
COUNTS=${COUNTS:-4 3 2}
GAMES=${1:-400}
PARTS=${2:-speed,random,versus,rollouts}
KINDS=${3:-five-tribes,clans-of-caledonia,mombasa}
SEED=${4:-1}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
cargo build --release -q -p ludolog
BIN=target/release/ludolog
has() { [[ ",$PARTS," == *",$1,"* ]]; }

if has speed; then
  echo "## Speed (1,000 iterations, 20 positions each)"
  for g in ${KINDS//,/ }; do
    "$BIN" bench search --game "$g" --players 3 --positions 20 --iterations 1000
  done
fi

arena() { # game players bots
  echo "### $1, $2 players: $3 ($GAMES games, seed $SEED)"
  "$BIN" arena --game "$1" --players "$2" --bots "$3" --games "$GAMES" --seed "$SEED" --threads "$THREADS"
}
echo "## Strength"
for g in ${KINDS//,/ }; do
  if has random; then
    for p in $COUNTS; do
      lineup="mcts:1000"; for _ in $(seq 2 "$p"); do lineup="$lineup,random"; done
      arena "$g" "$p" "$lineup"
    done
  fi
  if has versus; then arena "$g" 2 "mcts:4000,mcts:1000"; fi
  if has rollouts; then arena "$g" 2 "mcts:1000:greedy,mcts:1000"; fi
done
