#!/usr/bin/env bash
# Replay from notation, each game's reducer, beside the same replay from parsed actions.
#
#   ops/bench/replay.sh [ROUNDS] [OTHER-CHECKOUT]      (default 3 rounds)
#
# Each round runs `cargo bench -p <game> -- replay`: the same recorded games replayed from
# notation text (parse, validate, apply: what the store does to rebuild a position) and from
# parsed actions (validate and apply only: the ceiling for the notation figure). The shared VM
# moves figures by a fifth between runs, so every round is printed and the best is compared
# with the target of 10 M entries/s per core (issue 14). With OTHER-CHECKOUT (say, a
# `git worktree` of an older commit), each round runs there too, right after, with its own
# target directory: a before/after comparison measured under the same load.
set -euo pipefail
ROUNDS=${1:-3}
OTHER=${2:-}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

# run DIR TARGET-DIR GAME: prints "notation parsed" (criterion's middle estimate, M entries/s).
run() {
  local out
  out=$(mktemp)
  (cd "$1" && CARGO_TARGET_DIR=$2 cargo bench -q -p "$3" --bench "${3/-/_}" -- \
    --warm-up-time 2 --measurement-time 5 replay >"$out" 2>&1)
  # criterion's line after a name: `thrpt: [low Melem/s mid Melem/s high Melem/s]`.
  awk '/^replay\/notation/ { n = 1 } n && /thrpt:/ && !a { a = $4 }
       /^replay\/parsed/ { p = 1 } p && /thrpt:/ && !b { b = $4 }
       END { print a, b }' "$out"
  rm -f "$out"
}

printf '%-12s %5s %10s %10s %7s' game round notation parsed ratio
[ -n "$OTHER" ] && printf ' %16s %16s' "other notation" "other parsed"
printf '\n'
for game in five-tribes caledonia mombasa; do
  best=0
  other_best=0
  for r in $(seq 1 "$ROUNDS"); do
    read -r n p < <(run "$ROOT" "$ROOT/target" "$game")
    printf '%-12s %5s %10s %10s %6.0f%%' "$game" "$r" "$n" "$p" "$(echo "100 * $n / $p" | bc -l)"
    best=$(echo "if ($n > $best) $n else $best" | bc -l)
    if [ -n "$OTHER" ]; then
      read -r on op < <(run "$OTHER" "$OTHER/target" "$game")
      printf ' %16s %16s' "$on" "$op"
      other_best=$(echo "if ($on > $other_best) $on else $other_best" | bc -l)
    fi
    printf '\n'
  done
  printf '%-12s %5s %10.2f M entries/s = %.0f%% of the 10 M/s target' "$game" best "$best" \
    "$(echo "10 * $best" | bc -l)"
  [ -n "$OTHER" ] && printf '; other checkout %.2f (%.2fx)' "$other_best" \
    "$(echo "$best / $other_best" | bc -l)"
  printf '\n'
done
