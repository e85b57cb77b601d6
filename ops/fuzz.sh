#!/usr/bin/env bash
# ops/fuzz.sh COUNT [SEED]: fuzzes every target of services/fuzz for COUNT inputs each and
# prints a summary table (target, inputs, seconds, execs/s, coverage, crashes).
#
# Builds the `fuzz` binary in release, instrumented with SanitizerCoverage (trace-pc-guard:
# coverage-guided on stable Rust, no libFuzzer), with debug assertions and overflow checks,
# into its own target folder (target/fuzz) so the flags never touch the normal build; then
# runs the targets two at a time (FUZZ_JOBS). Crashes go to ops/fuzz-crashes/<target>/,
# logs to target/fuzz/logs/<time>/. Exits 1 if any target crashed.
#
# Environment: FUZZ_JOBS (parallel targets, default 2), FUZZ_TARGETS (space-separated subset),
# FUZZ_CORPUS (a folder to keep each target's corpus in across runs; default none, so a run
# depends only on its seed), FUZZ_ARGS (more arguments for each `fuzz` run, e.g. --time 3600).
set -euo pipefail
cd "$(dirname "$0")/.."

COUNT=${1:?usage: ops/fuzz.sh COUNT [SEED]}
SEED=${2:-0}
JOBS=${FUZZ_JOBS:-2}
export CARGO_TARGET_DIR=${FUZZ_TARGET_DIR:-target/fuzz}
TRIPLE=$(rustc -vV | sed -n 's/^host: //p')
# An explicit --target keeps these flags off build scripts and proc macros, which would
# otherwise be instrumented without the callbacks the `fuzz` binary defines.
RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=3"
RUSTFLAGS+=" -Cllvm-args=-sanitizer-coverage-trace-pc-guard"
RUSTFLAGS+=" -Cllvm-args=-sanitizer-coverage-prune-blocks=0"
RUSTFLAGS+=" -Cdebug-assertions -Coverflow-checks"
export RUSTFLAGS
cargo build --release -p fuzz --bin fuzz --target "$TRIPLE"
BIN="$CARGO_TARGET_DIR/$TRIPLE/release/fuzz"

LOGS="$CARGO_TARGET_DIR/logs/$(date +%Y%m%d-%H%M%S)"
mkdir -p "$LOGS"
TARGETS=${FUZZ_TARGETS:-$("$BIN" --list)}
export BIN COUNT SEED LOGS
export FUZZ_CORPUS=${FUZZ_CORPUS:-}
export FUZZ_ARGS=${FUZZ_ARGS:-}

run_one() {
    local t=$1 corpus=()
    if [ -n "$FUZZ_CORPUS" ]; then corpus=(--corpus "$FUZZ_CORPUS/$t"); fi
    local start rc
    start=$(date +%s.%N)
    # shellcheck disable=SC2086
    "$BIN" "$t" --inputs "$COUNT" --seed "$SEED" "${corpus[@]}" $FUZZ_ARGS \
        >"$LOGS/$t.log" 2>&1 && rc=0 || rc=$?
    echo "$rc $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')" >"$LOGS/$t.rc"
    echo "fuzz.sh: $t finished (exit $rc)"
}
export -f run_one

echo "fuzz.sh: $COUNT inputs per target, seed $SEED, $JOBS at a time; logs in $LOGS"
printf '%s\n' $TARGETS | xargs -P "$JOBS" -I{} bash -c 'run_one {}'

field() { # field NAME LINE
    sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"
}

crashed=0
total_inputs=0
total_rate_inv=0
printf '\n%-22s %12s %9s %9s %24s %8s\n' target inputs seconds execs/s coverage crashes
for t in $TARGETS; do
    read -r rc wall <"$LOGS/$t.rc"
    line=$(grep '^SUMMARY' "$LOGS/$t.log" | tail -1 || true)
    if [ -n "$line" ]; then
        inputs=$(field inputs "$line")
        secs=$(field seconds "$line")
        rate=$(field execs_per_sec "$line")
        hit=$(field guards_hit "$line")
        all=$(field guards_total "$line")
        crashes=$(field crashes "$line")
        if [ "$all" -gt 0 ]; then
            cov=$(awk -v h="$hit" -v a="$all" 'BEGIN { printf "%d/%d (%.1f%%)", h, a, 100 * h / a }')
        else
            cov="n/a"
        fi
        total_inputs=$((total_inputs + inputs))
        total_rate_inv=$(awk -v s="$total_rate_inv" -v r="$rate" 'BEGIN { print (r > 0) ? s + 1 / r : s }')
    else
        # No summary: the process died (134: abort such as a stack overflow; 70: timeout).
        last=$(grep '^#' "$LOGS/$t.log" | tail -1 || true)
        inputs=$(awk '{print $2}' <<<"$last")
        inputs=${inputs:-?}
        secs=$(printf '%.1f' "$wall")
        rate=$(awk '{print $4}' <<<"$last")
        rate=${rate:-?}
        cov="-"
        crashes="died($rc)"
    fi
    [ "$rc" = 0 ] || crashed=1
    printf '%-22s %12s %9s %9s %24s %8s\n' "$t" "$inputs" "$secs" "$rate" "$cov" "$crashes"
done
n=$(wc -w <<<"$TARGETS")
if [ "$total_rate_inv" != 0 ]; then
    # 100 million inputs spread evenly over the targets, JOBS of them at a time.
    hours=$(awk -v n="$n" -v s="$total_rate_inv" -v j="$JOBS" 'BEGIN { print 1e8 / n * s / j / 3600 }')
    printf '\n%s inputs in all. 100,000,000 inputs spread evenly over these %s targets would take about %.1f h with %s jobs.\n' \
        "$total_inputs" "$n" "$hours" "$JOBS"
fi
if [ "$crashed" = 1 ]; then
    echo "fuzz.sh: crashes found: see ops/fuzz-crashes/ and $LOGS" >&2
    exit 1
fi
