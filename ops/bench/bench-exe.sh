# Sourced by the replay scripts: `bench_exe DIR TARGET-DIR GAME` builds the game's criterion
# bench binary in checkout DIR (with its own target folder) and prints the binary's path.
bench_exe() {
  (cd "$1" && CARGO_TARGET_DIR=$2 cargo bench -q -p "$3" --bench "${3/-/_}" --no-run \
    --message-format=json 2>/dev/null) |
    python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and "bench" in m["target"]["kind"]:
        print(m["executable"])'
}
