#!/usr/bin/env bash
# Calibration of the win chances (issue 40), results in ops/BENCHMARKS.md ("Evaluation").
#
#   ops/bench/calibrate.sh [GAMES] [PLAYER-COUNTS] [GAME-KINDS] [ITERATIONS] [BOTS]
#       defaults: 60 games, 2,3,4 players, every game kind, 1,000 iterations (the API's
#       default evaluation), bots mcts:200
#
# Per game and player count: `ludolog calibrate` plays fresh self-play games (seed 101, not
# the samples'), evaluates every 8th position where a seat chooses with everything known, fits
# the isotonic map on the even games and judges raw and mapped chances on the odd ones. The
# table: expected calibration error over all held-out positions (target ≤ 0.05), Brier skill
# against 1/players at mid-game (40-60 % of the entries; target ≥ 0.15) and in the last round
# (target ≥ 0.4). Each fit is kept in target/calibration/KIND-Np.json; with SHIP=1 the fits
# of each game kind become data/<game>/calibration.json (what the server applies to
# `Position.evaluation`, by player count; a count with no fit there stays raw), each fit with
# its command, its report and the commit it was made at.
set -euo pipefail
GAMES=${1:-60}
COUNTS=${2:-2,3,4}
KINDS=${3:-five-tribes,clans-of-caledonia,mombasa}
ITER=${4:-1000}
BOTS=${5:-mcts:200}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
cargo build --release -q -p ludolog
BIN=target/release/ludolog
OUT=target/calibration
mkdir -p "$OUT"
for g in ${KINDS//,/ }; do
  for p in ${COUNTS//,/ }; do
    /usr/bin/time -f "$g ${p}p: %e s wall, %U s CPU" "$BIN" calibrate --game "$g" --players "$p" \
      --bots "$BOTS" --games "$GAMES" --seed 101 --iterations "$ITER" --every 8 --threads 2 \
      --out "$OUT/$g-${p}p.json"
  done
done
python3 - "$OUT" <<'PY'
import json, sys, glob, os
print("| game | players | held-out positions | ECE raw / calibrated (≤ 0.05) | Brier skill mid-game raw / calibrated (≥ 0.15) | Brier skill last round raw / calibrated (≥ 0.4) |")
print("|---|---|---|---|---|---|")
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    r = json.load(open(f))
    h, m, l = r["held_out"], r["mid_game"], r["last_round"]
    print(f"| {r['kind']} | {r['players']} | {h['positions']} | {h['raw']['ece']:.3f} / {h['calibrated']['ece']:.3f} "
          f"| {m['raw']['skill']:.2f} / {m['calibrated']['skill']:.2f} | {l['raw']['skill']:.2f} / {l['calibrated']['skill']:.2f} |")
PY
if [ "${SHIP:-0}" = 1 ]; then
  python3 - "$OUT" "$(git rev-parse --short HEAD)" "$GAMES" "$ITER" "$BOTS" <<'PY'
import json, sys, glob, os, datetime
out, commit, games, iters, bots = sys.argv[1:]
dirs = {"five-tribes": "five-tribes", "clans-of-caledonia": "caledonia", "mombasa": "mombasa"}
by_kind = {}
for f in sorted(glob.glob(os.path.join(out, "*.json"))):
    r = json.load(open(f))
    by_kind.setdefault(r["kind"], []).append(r)
for kind, fits in by_kind.items():
    path = f"data/{dirs[kind]}/calibration.json"
    doc = {
        "provenance": f"ops/bench/calibrate.sh {games} (iterations {iters}, bots {bots}, seed 101), "
                      f"{datetime.date.today()}, at commit {commit}: fresh self-play, not the samples; "
                      "each fit made on the run's even games and judged on its odd ones (held_out, "
                      "mid_game, last_round)",
        "fits": sorted(fits, key=lambda r: r["players"]),
    }
    json.dump(doc, open(path, "w"), indent=1)
    open(path, "a").write("\n")
    print("wrote", path)
PY
fi
