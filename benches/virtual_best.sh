#!/usr/bin/env bash
# The default engine against the virtual best single engine (the issue: "the default
# answers every (property, size) that any single engine answers within 60 s, in at most
# 1.5x that engine's time + 1 s"). For every model (families/*.cub, benches/models/*.cub
# and the files given) and each mode
#   nfold check F --sizes SIZES --json --quiet [--engine E]          E: explicit sat ic3 kind
#   nfold live  F --sizes SIZES --json --quiet [--fair] [--engine E] E: explicit sat ic3 kind bdd rank
# it times (wall clock) one run of the default and one of each engine (an engine refusing
# with exit code 2 is not applicable; `live` only for models with `ltl` properties). A
# pair (property, size) is answered by a run when its verdict is holds, violated or
# vacuous. Prints a Markdown table per model and mode (pairs answered by some engine, by
# the default, the default's time, the best single engine, the worst ratio default time /
# (1.5 x fastest engine answering the pair + 1 s)), the misses, and loudly any two runs
# answering a pair differently. A pair over the target in the default's whole run is
# asked again alone (--sizes s..s --property p) and gets the smaller ratio (ALONE=0:
# no reruns). The logic is in benches/virtual_best.py (`--report
# RUNS.jsonl` prints the tables again from a file of runs).
#
# Usage: benches/virtual_best.sh [FILE.cub]...
# SIZES (default 1..8); LIMIT (seconds, default 60) bounds each run (--timeout, and
# `timeout` 15 s later as a guard); OUT (default /tmp/virtual_best.jsonl) receives one
# JSON line per run; NFOLD (a binary) skips the build of target/release/nfold; MODES
# (e.g. `check,live --fair`; default all three) runs only some modes.
set -euo pipefail
args=()
for f in "$@"; do args+=("$(realpath "$f")"); done
cd "$(dirname "$0")/.."

if [ -z "${NFOLD:-}" ]; then
    cargo build --release -q
    NFOLD=target/release/nfold
fi
export NFOLD SIZES=${SIZES:-1..8} LIMIT=${LIMIT:-60} OUT=${OUT:-/tmp/virtual_best.jsonl}
exec python3 benches/virtual_best.py families/*.cub benches/models/*.cub ${args[@]+"${args[@]}"}
