#!/usr/bin/env bash
# Side-by-side speed and memory of nfold's explicit engine, measured in one run:
#   1. nfold vs SPIN 6.5.2 (Debian package `spin`) on the same transition system:
#      Peterson's filter lock (families/peterson.cub, translated to Promela by
#      benches/peterson_pml.py), exhaustive search without symmetry; SPIN's state count
#      must be nfold's plus one (the state of `init` before it starts the system).
#   1b. at the largest n, SPIN's multi-core search (-DNCORE=2, the same -DMEMLIM)
#      beside nfold on 1 and 2 threads (SPIN's seconds: its slowest core's elapsed time).
#   2. Peterson with symmetry reduction for growing n, and the reduction factor.
#   3. German's protocol with and without symmetry.
# Prints states, states/s, peak memory (max RSS) and the ratios. Needs spin and gcc.
# Usage: benches/compare.sh [max n for SPIN, default 6]
set -euo pipefail
cd "$(dirname "$0")/.."
MAXN=${1:-6}
cargo build --release -q
NF=./target/release/nfold
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# nfold: prints "states seconds maxrss_kb"
nfold_run() {
  /usr/bin/time -f "%M" -o "$WORK/rss" "$NF" check "$@" --engine explicit --json > "$WORK/out.json" || true
  python3 - "$WORK/out.json" "$WORK/rss" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["results"][0]
print(r["states"], r["seconds"], open(sys.argv[2]).read().split()[-1])
PY
}

echo "== 1. nfold vs SPIN, Peterson filter lock, no symmetry (same transition system)"
printf "%3s %11s %11s %9s %9s %12s %12s %9s %9s %7s %7s\n" n nfold-states spin-states nfold-s spin-s nfold-st/s spin-st/s nfold-MB spin-MB speed mem
for n in $(seq 3 "$MAXN"); do
  read -r ns nt nrss < <(nfold_run families/peterson.cub --size "$n" --no-symmetry)
  python3 benches/peterson_pml.py "$n" > "$WORK/p.pml"
  (cd "$WORK" && spin -a p.pml > /dev/null && gcc -O2 -DSAFETY -DNOCLAIM -DMEMLIM=20000 -o pan pan.c 2> /dev/null)
  # SPIN sized as a user would: hash table 2^w slots (w >= 18) and search depth bound
  # -m by the state count (the depth cannot exceed it).
  w=$(python3 -c "print(max(18, int($ns).bit_length() + 1))")
  /usr/bin/time -f "%M" -o "$WORK/srss" "$WORK/pan" -m$((ns + 1000)) -w"$w" > "$WORK/spin.txt" 2>&1 || true
  ss=$(grep -oE "^ *[0-9]+ states, stored" "$WORK/spin.txt" | grep -oE "[0-9]+" | head -1)
  st=$(grep -oE "elapsed time [0-9.e+-]+" "$WORK/spin.txt" | grep -oE "[0-9.e+-]+$")
  srss=$(tail -1 "$WORK/srss")
  python3 - "$n" "$ns" "$nt" "$nrss" "$ss" "$st" "$srss" <<'PY'
import sys
n, ns, nt, nrss, ss, st, srss = sys.argv[1:]
ns, ss = int(ns), int(ss)
nt, st = max(float(nt), 1e-3), max(float(st), 1e-3)
nr, sr = ns / nt, ss / st
flag = "" if ss == ns + 1 else "  (state counts differ!)"
print(f"{n:>3} {ns:>11} {ss:>11} {nt:>9.2f} {st:>9.2f} {nr:>12.0f} {sr:>12.0f} {int(nrss)/1024:>9.1f} {int(srss)/1024:>9.1f} {nr/sr:>6.2f}x {int(srss)/int(nrss):>6.2f}x{flag}")
PY
done
echo "(speed = nfold states/s over SPIN states/s; mem = SPIN max RSS over nfold max RSS)"

echo
echo "== 1b. Two cores: SPIN -DNCORE=2 (same -DMEMLIM) against nfold on 1 and 2 threads, n = $MAXN"
printf "%-22s %11s %9s %12s %9s\n" run states seconds states/s MB
n=$MAXN
python3 benches/peterson_pml.py "$n" > "$WORK/p.pml"
(cd "$WORK" && spin -a p.pml > /dev/null && gcc -O2 -DSAFETY -DNOCLAIM -DNCORE=2 -DMEMLIM=20000 -o pan2 pan.c 2> /dev/null)
for t in 1 2; do
  read -r ns nt nrss < <(nfold_run families/peterson.cub --size "$n" --no-symmetry --threads "$t")
  python3 -c "s,t,r=int('$ns'),float('$nt'),int('$nrss'); print(f'{\"nfold --threads $t\":<22} {s:>11} {t:>9.2f} {s/max(t,1e-3):>12.0f} {r/1024:>9.1f}')"
done
w=$(python3 -c "print(max(18, int($ns).bit_length() + 1))")
(cd "$WORK" && /usr/bin/time -f "%M" -o "$WORK/srss" ./pan2 -m$((ns + 1000)) -w"$w" > "$WORK/spin2.txt" 2>&1) || true
ss=$(grep -oE "^ *[0-9]+ states, stored" "$WORK/spin2.txt" | grep -oE "[0-9]+" | head -1)
st=$(grep -oE "elapsed time [0-9.e+-]+" "$WORK/spin2.txt" | grep -oE "[0-9.e+-]+$" | sort -g | tail -1)
srss=$(tail -1 "$WORK/srss")
python3 -c "s,t,r=int('${ss:-0}'),float('${st:-0}'),int('$srss'); print(f'{\"SPIN -DNCORE=2\":<22} {s:>11} {t:>9.2f} {s/max(t,1e-3):>12.0f} {r/1024:>9.1f}')"

echo
echo "== 2. Peterson filter lock with symmetry reduction"
printf "%3s %11s %9s %12s %9s %11s\n" n states seconds states/s MB reduction
for n in 2 3 4 5 6 7; do
  read -r ss st srss < <(nfold_run families/peterson.cub --size "$n")
  if [ "$n" -le 6 ]; then read -r ps _ _ < <(nfold_run families/peterson.cub --size "$n" --no-symmetry); else ps=""; fi
  python3 - "$n" "$ss" "$st" "$srss" "$ps" <<'PY'
import sys, math
n, ss, st, rss, ps = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
red = f"{int(ps)/ss:.1f} (n!={math.factorial(int(n))})" if ps else "-"
print(f"{n:>3} {ss:>11} {st:>9.2f} {ss/max(st,1e-3):>12.0f} {rss/1024:>9.1f} {red:>11}")
PY
done

echo
echo "== 3. German's protocol"
printf "%3s %-8s %11s %9s %12s %9s\n" n mode states seconds states/s MB
for n in 3 4 5; do
  for mode in sym plain; do
    flag=""; [ "$mode" = plain ] && flag="--no-symmetry"
    read -r s t r < <(nfold_run families/german.cub --size "$n" $flag)
    python3 -c "import sys; s,t,r=int('$s'),float('$t'),int('$r'); print(f'{$n:>3} {\"$mode\":<8} {s:>11} {t:>9.2f} {s/max(t,1e-3):>12.0f} {r/1024:>9.1f}')"
  done
done
