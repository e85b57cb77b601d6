#!/usr/bin/env bash
# Play that looks like play (issue 39), results in ops/BENCHMARKS.md ("Bots"): the shipped
# samples (data/samples/: MCTS self-play, ops/samples.sh) beside random self-play at the same
# rules versions, played in the same run.
#
#   ops/bench/play.sh [RANDOM-GAMES-PER-KIND]          (default: 300)
#
# Per game and player count: the median winning score of each (target: MCTS at least twice
# random's), and for Mombasa how many winners scored in each of the rules' final-scoring
# categories (target: every winner on cash, company shares, and a diamond or bookkeeping
# track).
set -euo pipefail
N=${1:-300}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
cargo build --release -q -p ludolog
BIN=$ROOT/target/release/ludolog
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
for k in five-tribes:five-tribes:2,3,4 clans-of-caledonia:caledonia:1,2,3,4 mombasa:mombasa:2,3,4; do
  IFS=: read -r kind file counts <<<"$k"
  "$BIN" selfplay --game "$kind" --players "$counts" --bots random --games "$N" --seed 1 \
    --threads 2 --out "$T/random-$file.ndjson" 2>/dev/null
  "$BIN" import "data/samples/$file.ndjson" --data-dir "$T/mcts" >/dev/null
  "$BIN" import "$T/random-$file.ndjson" --data-dir "$T/random" >/dev/null
  for who in mcts random; do
    "$BIN" table --kind "$kind" --table games --out "$T/$who-$kind.csv" --data-dir "$T/$who" 2>/dev/null
  done
done
python3 - "$T" <<'PY'
import csv, statistics, sys
from collections import defaultdict
t = sys.argv[1]
def rows(who, kind):
    return list(csv.DictReader(open(f"{t}/{who}-{kind}.csv")))
print("| game | players | MCTS games | MCTS median winning score | random games | random median | ratio | verdict (≥ 2×) |")
print("|---|---|---|---|---|---|---|---|")
for kind in ["five-tribes", "clans-of-caledonia", "mombasa"]:
    med = {}
    for who in ["mcts", "random"]:
        won, games = defaultdict(list), defaultdict(set)
        for r in rows(who, kind):
            games[r["players"]].add(r["game_id"])
            if r["won"] == "true":
                won[r["players"]].append(int(r["score"]))
        med[who] = {p: (len(games[p]), statistics.median(won[p])) for p in won}
    for p in sorted(med["mcts"]):
        (gm, m), (gr, r) = med["mcts"][p], med["random"][p]
        ratio = m / r if r else float("inf")
        print(f"| {kind} | {p} | {gm} | {m:g} | {gr} | {r:g} | {ratio:.2f} | {'met' if ratio >= 2 else 'not met'} |")
print()
print("Mombasa's winners by final-scoring category (the rules' seven: cash, the four companies' shares, the diamond track, the bookkeeping track):")
print()
print("| players | self-play | winners | cash > 0 | shares > 0 | diamonds > 0 | bookkeeping > 0 | all three of cash, shares, diamonds or bookkeeping | mean cash / shares / diamonds / bookkeeping |")
print("|---|---|---|---|---|---|---|---|---|")
for who in ["mcts", "random"]:
    by = defaultdict(list)
    for r in rows(who, "mombasa"):
        if r["won"] == "true":
            by[r["players"]].append(r)
    for p in sorted(by):
        w = by[p]
        cash = [int(r["score_pounds"]) for r in w]
        shares = [sum(int(r[c]) for c in ["score_mombasa", "score_capetown", "score_saintlouis", "score_cairo"]) for r in w]
        dia = [int(r["score_diamonds"]) for r in w]
        book = [int(r["score_bookkeeping"]) for r in w]
        n = len(w)
        three = sum(1 for c, s, d, b in zip(cash, shares, dia, book) if c > 0 and s > 0 and (d > 0 or b > 0))
        pos = lambda xs: sum(1 for x in xs if x > 0)
        mean = lambda xs: sum(xs) / len(xs)
        print(f"| {p} | {who} | {n} | {pos(cash)} | {pos(shares)} | {pos(dia)} | {pos(book)} | {three} of {n} | {mean(cash):.0f} / {mean(shares):.0f} / {mean(dia):.0f} / {mean(book):.0f} |")
PY
