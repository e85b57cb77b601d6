#!/usr/bin/env bash
# Makes data/samples/ again: the sample games every fresh service loads, played by the bots
# of the `ai` crate (issue 39), not by random seats.
#
#   ops/samples.sh [GAMES-PER-KIND] [THREADS] [KINDS]
#                  (defaults: 72 games, 2 threads, all three kinds)
#
# Every game is MCTS self-play at the current rules versions, player counts in turn (Five
# Tribes and Mombasa 2, 3, 4; Caledonia 1-4), three bot levels in turn through the seats and
# rotated a seat each game: `mcts:2000`, `mcts:1000`, `mcts:500` with random rollouts for
# Caledonia and Mombasa; Five Tribes' bots roll out greedily at half those budgets
# (`mcts:1000:greedy`, `mcts:500:greedy`, `mcts:250:greedy`): at `mcts:500`, 2 players, the
# median winning score is 211 with greedy rollouts and 172 with random ones, and a greedy
# iteration costs about four random ones there, which the hour holds only at half the
# budget. Greedy rollouts gain Caledonia nothing (119.5 against 118) and Mombasa meets its
# target without them. Each seat's player name is its bot's level and every seat entry is marked
# `entered_by: bot`, so a record says who played it. A move with one legal choice is played
# without search. Since `mombasa/4` a seat cancels at most once a turn (ruling MB18), so no
# Mombasa game can cycle (one under `mombasa/3` did, 72,731 entries); bots still stop at 5,000
# entries. Budget: all three files in under an hour on this 2-core machine; the run
# prints each file's wall and CPU time (ops/BENCHMARKS.md keeps them).
#
# The games played by random seats that were the samples before stay as test data only:
# tests/data/random-samples/.
set -euo pipefail
GAMES=${1:-72}
THREADS=${2:-2}
KINDS=${3:-five-tribes,clans-of-caledonia,mombasa}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
cargo build --release -q -p ludolog
BIN=target/release/ludolog
start=$(date +%s)
for kind in ${KINDS//,/ }; do
  case $kind in
    five-tribes) file=five-tribes counts=2,3,4 BOTS=mcts:1000:greedy,mcts:500:greedy,mcts:250:greedy ;;
    clans-of-caledonia) file=caledonia counts=1,2,3,4 BOTS=mcts:2000,mcts:1000,mcts:500 ;;
    mombasa) file=mombasa counts=2,3,4 BOTS=mcts:2000,mcts:1000,mcts:500 ;;
    *) echo "unknown game kind $kind" >&2; exit 2 ;;
  esac
  /usr/bin/time -f "$kind: $GAMES games in %e s wall, %U s user + %S s system CPU" \
    "$BIN" selfplay --game "$kind" --players "$counts" --bots "$BOTS" --games "$GAMES" \
    --seed 1 --threads "$THREADS" --out "data/samples/$file.ndjson" 2>"target/samples-$file.log"
  tail -1 "target/samples-$file.log"
done
echo "all: $(( $(date +%s) - start )) s on $(nproc) cores"
