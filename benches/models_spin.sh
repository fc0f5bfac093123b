#!/usr/bin/env bash
# SPIN's verdicts on the liveness models of benches/models_pml.py (issue 25), for
# comparison with the expected verdicts in the models' headers. Needs spin and gcc.
# Usage: benches/models_spin.sh [MODEL:MAXN ...]   (default: the list below)
# Prints, per model, size and process, the verdict of `pan -a` (no fairness) and
# `pan -a -f` (weak fairness) -- "violated" when pan finds an acceptance cycle -- and
# the number of states SPIN stores with -DSAFETY -DNOCLAIM (nfold's reachable-state
# count without symmetry and dead-cell reduction, plus 1 for init's first state).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
specs=("$@")
if [ ${#specs[@]} -eq 0 ]; then
  specs=(handoff_lock:10 readers_writers:7 mcs_lock:5 ticket_user:5 anderson:5
         dijkstra_mutex:4 lamport_fast:4 burns:5 szymanski:5)
fi
verdict() { # pan output -> violated/holds/error
  if grep -q "acceptance cycle" "$1"; then echo violated
  elif grep -q "errors: 0" "$1"; then echo holds
  else echo "error($(grep -m1 -E 'error|pan:' "$1" || true))"; fi
}
for spec in "${specs[@]}"; do
  model=${spec%%:*}; max=${spec##*:}
  for n in $(seq 1 "$max"); do
    procs=1
    case $model in burns|szymanski) procs=$(seq 1 "$n");; esac
    cd "$work"
    python3 "$here/models_pml.py" "$model" "$n" > s.pml
    spin -a s.pml > /dev/null
    gcc -O2 -DNOREDUCE -DSAFETY -DNOCLAIM -o pan_s pan.c
    ./pan_s -m10000000 -w26 > safety.out
    states=$(grep -m1 "states, stored" safety.out | awk '{print $1}')
    for k in $procs; do
      python3 "$here/models_pml.py" "$model" "$n" --proc "$k" > x.pml
      spin -a x.pml > /dev/null
      # pan -f needs 4 * NFAIR > N + 3 (it counts init and the claim as processes).
      gcc -O2 -DNOREDUCE -DNFAIR=$(( (n + 3) / 4 + 1 )) -o pan pan.c
      ./pan -a -m10000000 -w26 > unfair.out 2>&1 || true
      ./pan -a -f -m10000000 -w26 > fair.out 2>&1 || true
      printf '%-16s n=%-2s process %-2s  unfair %-8s  fair %-8s  spin states %s\n' \
        "$model" "$n" "$k" "$(verdict unfair.out)" "$(verdict fair.out)" "$states"
    done
  done
done
