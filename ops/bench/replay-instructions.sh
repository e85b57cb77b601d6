#!/usr/bin/env bash
# Instructions per replayed entry, for each game: its `replay/notation` work (parse, check,
# apply) and, beside it, the same replay from parsed actions (check and apply: the ceiling).
#
#   ops/bench/replay-instructions.sh [REPS] [OTHER-CHECKOUT]      (default 10 repetitions)
#
# Wall-clock figures on this shared 2-core VM move by a factor of two from one hour to the
# next (see ops/BENCHMARKS.md); the number of instructions a replay executes does not, so a
# change to a reducer can be judged by it at any hour, and the time it saves confirmed by
# `ops/bench/replay.sh`. Each game's criterion binary runs under cachegrind with
# `REPLAY_REPS=0` (its recorded games made and formatted, nothing replayed) and with
# `REPLAY_REPS=REPS`; the difference, over the entries replayed, is what one entry costs.
# Cachegrind's branch simulation adds mispredicted branches per entry (a model of a simple
# predictor, not this CPU's: an indication only). With OTHER-CHECKOUT (a `git worktree` of an
# older commit), the same is counted there, with its own target directory, and the ratio
# printed.
set -euo pipefail
REPS=${1:-10}
OTHER=${2:-}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
command -v valgrind >/dev/null || { echo "needs valgrind (apt install valgrind)" >&2; exit 1; }

# bench_exe DIR TARGET-DIR GAME: the game's bench binary, built.
# shellcheck source=ops/bench/bench-exe.sh
. "$ROOT/ops/bench/bench-exe.sh"

# supports EXE: whether the binary has the REPLAY_REPS mode (benches from 2026-12-02 on; an
# older one would run all of criterion under cachegrind instead).
supports() {
  REPLAY_REPS=0 timeout 120 "$1" 2>/dev/null | grep -q '^entries ' || {
    echo "$1 has no REPLAY_REPS mode (its bench predates rules_core::replay::bench_main)" >&2
    exit 1
  }
}

# count EXE WHAT REPS: prints "instructions mispredicts entries" for one run.
count() {
  local out
  out=$(cd /tmp && REPLAY=$2 REPLAY_REPS=$3 valgrind --tool=cachegrind --cache-sim=no \
    --branch-sim=yes --cachegrind-out-file=/dev/null "$1" 2>&1)
  echo "$out" | awk '
    /I *refs:/ { gsub(",", "", $4); i = $4 }
    /Mispredicts:/ { gsub(",", "", $3); m = $3 }
    /^entries / { e = $2 }
    END { print i, m, e }'
}

# per_entry EXE WHAT: prints "instructions-per-entry mispredicts-per-entry".
per_entry() {
  read -r i0 m0 _ < <(count "$1" "$2" 0)
  read -r i1 m1 e1 < <(count "$1" "$2" "$REPS")
  awk -v i0="$i0" -v i1="$i1" -v m0="$m0" -v m1="$m1" -v e="$e1" \
    'BEGIN { printf "%.0f %.1f\n", (i1 - i0) / e, (m1 - m0) / e }'
}

printf '%-12s %14s %10s %14s %10s %8s' game notation mispred parsed mispred ratio
[ -n "$OTHER" ] && printf ' %16s %12s' "other notation" "this/other"
printf '\n'
for game in five-tribes caledonia mombasa; do
  exe=$(bench_exe "$ROOT" "$ROOT/target" "$game")
  supports "$exe"
  read -r n nm < <(per_entry "$exe" notation)
  read -r p pm < <(per_entry "$exe" parsed)
  printf '%-12s %14s %10s %14s %10s %7.2fx' "$game" "$n" "$nm" "$p" "$pm" \
    "$(echo "$n / $p" | bc -l)"
  if [ -n "$OTHER" ]; then
    other=$(bench_exe "$OTHER" "$OTHER/target" "$game")
    supports "$other"
    read -r on _ < <(per_entry "$other" notation)
    printf ' %16s %11.3fx' "$on" "$(echo "$n / $on" | bc -l)"
  fi
  printf '\n'
done
echo "(instructions and mispredicted branches per entry; ratio: notation over parsed)"
