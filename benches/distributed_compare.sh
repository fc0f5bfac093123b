#!/usr/bin/env bash
# The distributed explicit safety search (timely dataflow, `check --distributed`) side by
# side with the shared-memory search (`--threads T`) on one machine, measured in one
# run: each instance on
#   threads 1, threads 2                the shared-memory search (the baseline: threads 1)
#   dist 1x1, dist 1x2                  one process with 1 and 2 timely workers
#   dist 2x1                            two processes of 1 worker over localhost TCP
# with wall time (the size's seconds, which for --distributed include connecting and
# starting the workers), states/s, process 0's peak memory, and every ratio against
# threads 1. State counts must all be equal (flagged when not). The instances (issue 28):
# Peterson's filter lock n = 6 without symmetry and German's protocol n = 7 with
# symmetry; NFOLD_CASES=quick runs smaller ones.
# Usage: benches/distributed_compare.sh   (the ratios mean something only with 2 idle
# cores: say in a report when the machine was shared)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q
NF=./target/release/nfold

if [ "${NFOLD_CASES:-}" = quick ]; then
  CASES=("peterson.cub --size 5 --no-symmetry" "german.cub --size 5")
else
  CASES=("peterson.cub --size 6 --no-symmetry" "german.cub --size 7")
fi

# prints "states seconds peak_bytes" of one run (process 0's document)
doc() {
  python3 -c '
import json, sys
d = json.load(sys.stdin)
r = d["results"][0]
print(r["states"], r["seconds"], d["peak_memory_bytes"])'
}
run() { "$NF" check "$@" --engine explicit --json --quiet | doc; }

# Two processes on localhost: free ports, process 1 in the background.
run2() {
  local hosts
  hosts=$(mktemp)
  python3 -c '
import socket
ss = [socket.socket() for _ in range(2)]
for s in ss: s.bind(("127.0.0.1", 0))
for s in ss: print("127.0.0.1:%d" % s.getsockname()[1])' > "$hosts"
  "$NF" check "$@" --engine explicit --quiet --distributed --processes 2 --process 1 \
    --hostfile "$hosts" > /dev/null &
  local follower=$!
  "$NF" check "$@" --engine explicit --json --quiet --distributed --processes 2 --process 0 \
    --hostfile "$hosts" | doc
  wait "$follower" || true
  rm -f "$hosts"
}

echo "cores: $(nproc); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-36s %-10s %11s %9s %12s %9s %8s\n" instance mode states seconds states/s MiB speed
for c in "${CASES[@]}"; do
  # shellcheck disable=SC2086
  {
    read -r a1 b1 c1 < <(run families/$c --threads 1)
    read -r a2 b2 c2 < <(run families/$c --threads 2)
    read -r a3 b3 c3 < <(run families/$c --distributed)
    read -r a4 b4 c4 < <(run families/$c --distributed --workers 2)
    read -r a5 b5 c5 < <(run2 families/$c)
  }
  python3 - "$c" "$a1" "$b1" "$c1" "$a2" "$b2" "$c2" "$a3" "$b3" "$c3" "$a4" "$b4" "$c4" \
    "$a5" "$b5" "$c5" <<'PY'
import sys
c = sys.argv[1]
labels = ["threads 1", "threads 2", "dist 1x1", "dist 1x2", "dist 2x1"]
rows = [sys.argv[2 + 3 * i: 5 + 3 * i] for i in range(5)]
base = int(rows[0][0]) / max(float(rows[0][1]), 1e-3)
for label, (s, t, m) in zip(labels, rows):
    s, t, m = int(s), max(float(t), 1e-3), int(m)
    print(f"{c:<36} {label:<10} {s:>11} {t:>9.2f} {s / t:>12.0f} {m / 2**20:>9.1f} {s / t / base:>7.2f}x")
counts = {int(r[0]) for r in rows}
if len(counts) != 1:
    print(f"{'':<36} state counts differ: {sorted(counts)}")
PY
done
