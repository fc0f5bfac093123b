#!/usr/bin/env bash
# The default command under load (issue 44: "the same command must give the same
# answers with one competing CPU-bound job running, in at most 2.5x its idle time").
# For every family (families/*.cub and the files given), `nfold check F --sizes SIZES
# --json --quiet` (and `nfold live`, with and without `--fair`, for models with `ltl`
# properties; MODES, e.g. `live --fair`, runs only some of `check`, `live`,
# `live --fair`) is run RUNS times
# idle and RUNS times beside one CPU-bound job (a busy loop, started before and stopped
# after each run), alternating; prints per command the median wall time of each, the
# ratio loaded / idle, and whether every (property, size) got the same verdict, then the
# worst ratio. The logic is in benches/under_load.py.
#
# Usage: benches/under_load.sh [FILE.cub]...
# SIZES (default 1..8), RUNS (default 3), LIMIT (seconds per run, default 120); NFOLD (a
# binary) skips the build of target/release/nfold.
set -euo pipefail
args=()
for f in "$@"; do args+=("$(realpath "$f")"); done
cd "$(dirname "$0")/.."
if [ -z "${NFOLD:-}" ]; then
    cargo build --release -q
    NFOLD=target/release/nfold
fi
export NFOLD SIZES=${SIZES:-1..8} RUNS=${RUNS:-3} LIMIT=${LIMIT:-120}
exec python3 benches/under_load.py families/*.cub ${args[@]+"${args[@]}"}
