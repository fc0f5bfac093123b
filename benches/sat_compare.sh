#!/usr/bin/env bash
# Side-by-side measurements of the SAT engine, in one run:
#   0. the rows of the SAT speed issue: the README's headline run, deep UNSAT depths,
#      the ticket lock's counting argument, each with and without the partial-order
#      reduction (--por off: every interleaving), and symmetry breaking vs none;
#  0b. a new user's models (benches/models/): a bakery lock with a planted bug and a
#      wrapping counter whose bug needs 7 processes, explicit vs SAT (three --por
#      modes) vs auto, side by side;
#   1. symmetry breaking on the final frame: off vs lex-leader vs witnesses fixed +
#      lex-leader (the default), on fully symmetric families at n = 8 and 12, at depths
#      whose queries are all UNSAT and at the first SAT depth of the buggy families;
#   2. the three backends (CaDiCaL, varisat, splr) on the same queries;
#   3. in-process CaDiCaL vs Debian's `cadical` binary on the DIMACS of the same query;
#   4. variables and clauses per frame as n doubles;
#   5. binary vs one-hot cell encoding.
# Prints times and ratios. Needs `cadical` (Debian package) for part 3.
# Usage: benches/sat_compare.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q
NF=./target/release/nfold

# seconds of a whole `nfold check` run (exit code 1 = violation is fine)
t_check() {
  /usr/bin/time -f "%e" -o /tmp/nfold-bench-t "$NF" check "$@" --quiet > /dev/null 2>&1 || true
  tail -1 /tmp/nfold-bench-t
}
# the same with a time limit in seconds: "LIMIT+" when it is reached
t_limit() {
  local lim=$1; shift
  if /usr/bin/time -f "%e" -o /tmp/nfold-bench-t timeout "$lim" "$NF" check "$@" --quiet > /dev/null 2>&1 || [ $? -ne 124 ]; then
    tail -1 /tmp/nfold-bench-t
  else
    echo "$lim+"
  fi
}
ratio() { python3 -c "a,b=float('$1'),float('$2'); print(f'{a/max(b,0.005):.2f}x')"; }

echo "== 0. the rows of the SAT speed issue (seconds; targets in the last column)"
printf "%-58s %9s %9s %s\n" run now "--por off" target
row() {
  local label=$1 target=$2; shift 2
  local now off
  now=$(t_check "$@")
  off=$(t_limit 300 "$@" --por off)
  printf "%-58s %9s %9s %s\n" "$label" "$now" "$off" "$target"
}
row "oddeven_sort_bug --sizes 1..10 --depth 30 (README)" "< 15 s" families/oddeven_sort_bug.cub --sizes 1..10 --depth 30
row "oddeven_sort n=8 depth 30 (UNSAT)" "< 3 s" families/oddeven_sort.cub --size 8 --depth 30
row "ticket_lock n=8 depth 20" "< 10 s" families/ticket_lock.cub --size 8 --depth 20
printf "%-44s %8s %8s %8s %8s %9s\n" "symmetry breaking vs none" none witness lex "none/wit" "none/lex"
for spec in "mutex 8 20" "mutex 12 20" "peterson 8 20" "peterson 12 20" "german 8 14" "german 12 14" "ticket_lock 6 14" "grant_mutex 10 16"; do
  set -- $spec
  off=$(t_check families/$1.cub --size $2 --depth $3 --symmetry-breaking off)
  wit=$(t_check families/$1.cub --size $2 --depth $3 --symmetry-breaking witness-lex)
  lex=$(t_check families/$1.cub --size $2 --depth $3 --symmetry-breaking lex)
  printf "%-44s %8s %8s %8s %8s %9s\n" "$1 n=$2 depth $3" "$off" "$wit" "$lex" "$(ratio $off $wit)" "$(ratio $off $lex)"
done
echo "(target: none/witness and none/lex never below 0.8x; the aggregate rows are in"
echo " benches/aggregate_compare.sh)"

echo
echo "== 0b. a new user's models (benches/models/*.cub; seconds, 300+ = timed out)"
echo "   bakery_bug: bakery lock without the choosing wait, shortest depths 18, 22, 26, 30 at n = 3..6"
echo "   counter_wrap: counter 0..6 that wraps, violated from n = 7 at depth 14 (holds at n <= 6)"
printf "%-36s %9s %9s %9s %9s %9s\n" run explicit sat "sat full" "sat off" auto
nu_row() {
  local label=$1 depth=$2 file=$3; shift 3
  local exp sat full off auto
  exp=$(t_limit 300 "$file" "$@" --engine explicit)
  sat=$(t_limit 300 "$file" "$@" --engine sat --depth "$depth")
  full=$(t_limit 300 "$file" "$@" --engine sat --depth "$depth" --por full)
  off=$(t_limit 300 "$file" "$@" --engine sat --depth "$depth" --por off)
  auto=$(t_limit 300 "$file" "$@")
  printf "%-36s %9s %9s %9s %9s %9s\n" "$label" "$exp" "$sat" "$full" "$off" "$auto"
}
nu_row "bakery_bug sizes 3..6 (sat depth 40)" 40 benches/models/bakery_bug.cub --sizes 3..6
nu_row "bakery_bug size 6 (sat depth 40)" 40 benches/models/bakery_bug.cub --size 6
nu_row "counter_wrap size 7 (sat depth 20)" 20 benches/models/counter_wrap.cub --size 7
nu_row "counter_wrap sizes 1..8 (sat depth 20)" 20 benches/models/counter_wrap.cub --sizes 1..8
echo "(sat = the default --por idle; auto = no --engine, the default)"

echo
echo "== 1. symmetry breaking on the final frame (time of the whole depth loop, CaDiCaL)"
printf "%-12s %3s %5s %-6s %8s %8s %8s %10s %10s\n" family n depth answer off lex witness off/lex off/witness
for spec in "mutex 20 unsat" "german 12 unsat" "peterson 14 unsat" "mesi 15 unsat" "grant_mutex 10 unsat" \
            "german_bug 8 sat" "mutex_bug 6 sat"; do
  set -- $spec
  for n in 8 12; do
    off=$(t_check families/$1.cub --size $n --depth $2 --symmetry-breaking off)
    lex=$(t_check families/$1.cub --size $n --depth $2 --symmetry-breaking lex)
    wit=$(t_check families/$1.cub --size $n --depth $2 --symmetry-breaking witness-lex)
    printf "%-12s %3s %5s %-6s %8s %8s %8s %10s %10s\n" "$1" "$n" "$2" "$3" "$off" "$lex" "$wit" "$(ratio $off $lex)" "$(ratio $off $wit)"
  done
done

echo
echo "== 2. backends on the same queries (seconds, 120 = timed out; ratio to CaDiCaL)"
printf "%-40s %9s %9s %9s %9s %9s\n" query cadical varisat splr varisat/c splr/c
for spec in "mutex 16 30" "mutex 12 40" "german 8 12"; do
  set -- $spec
  "$NF" cnf families/$1.cub --size $2 --depth $3 --symmetry-breaking off -o /tmp/nfold-bench.cnf
  line=()
  for s in cadical varisat splr; do
    t=$( { timeout 120 "$NF" cnf families/$1.cub --size $2 --depth $3 --symmetry-breaking off -o /dev/null --solve $s; } 2>&1 | grep -oE "[0-9.]+s solving" | grep -oE "[0-9.]+" || echo 120)
    line+=("$t")
  done
  printf "%-40s %9s %9s %9s %9s %9s\n" "one-shot $1 n=$2 depth $3 (UNSAT)" "${line[0]}" "${line[1]}" "${line[2]}" "$(ratio ${line[1]} ${line[0]})" "$(ratio ${line[2]} ${line[0]})"
done
for spec in "german 6 12" "mutex 12 20"; do
  set -- $spec
  c=$(t_check families/$1.cub --size $2 --depth $3 --symmetry-breaking off --solver cadical)
  v=$(t_check families/$1.cub --size $2 --depth $3 --symmetry-breaking off --solver varisat)
  s=$(t_check families/$1.cub --size $2 --depth $3 --symmetry-breaking off --solver splr)
  printf "%-40s %9s %9s %9s %9s %9s\n" "depth loop $1 n=$2 0..$3 (splr one-shot)" "$c" "$v" "$s" "$(ratio $v $c)" "$(ratio $s $c)"
done

echo
echo "== 3. in-process CaDiCaL vs Debian's cadical binary on the same DIMACS (median of 3)"
if command -v cadical > /dev/null; then
  printf "%-36s %12s %12s %9s\n" query in-process binary ratio
  for spec in "mutex 12 40 off" "mutex 16 30 off" "german 8 14 off" "peterson 8 16 witness-lex" "german_bug 10 8 witness-lex"; do
    set -- $spec
    "$NF" cnf families/$1.cub --size $2 --depth $3 --symmetry-breaking $4 -o /tmp/nfold-bench.cnf
    ips=(); bins=()
    for _ in 1 2 3; do
      ips+=("$("$NF" cnf families/$1.cub --size $2 --depth $3 --symmetry-breaking $4 -o /dev/null --solve cadical 2>&1 | grep -oE "[0-9.]+s solving" | grep -oE "[0-9.]+")")
      /usr/bin/time -f "%e" -o /tmp/nfold-bench-t cadical -q /tmp/nfold-bench.cnf > /dev/null 2>&1 || true
      bins+=("$(tail -1 /tmp/nfold-bench-t)")
    done
    ip=$(printf "%s\n" "${ips[@]}" | sort -g | sed -n 2p)
    bin=$(printf "%s\n" "${bins[@]}" | sort -g | sed -n 2p)
    printf "%-36s %12s %12s %9s\n" "$1 n=$2 depth $3 ($4)" "$ip" "$bin" "$(ratio $ip $bin)"
  done
  echo "(ratio = in-process over binary; binary: CaDiCaL $(cadical --version 2>/dev/null | head -1) from Debian, in-process: the cadical crate's CaDiCaL)"
else
  echo "cadical binary not installed (apt-get install cadical); skipped"
fi

echo
echo "== 4. SAT encoding size per step (transition relation of one frame) as n doubles"
printf "%-12s %4s %10s %10s %12s %16s\n" family n vars/step clauses/step "growth(x2 n)" "bad (all tuples)"
for fam in mutex token_mutex mesi german peterson grant_mutex; do
  prev=""
  for n in 4 8 16 32; do
    info=$("$NF" info families/$fam.cub --size $n)
    dv=$(echo "$info" | awk '/per step/ {print $3}')
    dc=$(echo "$info" | awk '/per step/ {print $5}')
    bad=$(echo "$info" | awk '/  bad / {print $5; exit}')
    g="-"; [ -n "$prev" ] && g=$(ratio $dc $prev)
    printf "%-12s %4s %10s %10s %12s %16s\n" "$fam" "$n" "$dv" "$dc" "$g" "$bad clauses"
    prev=$dc
  done
done
echo "(growth 2x per doubling of n = O(n) per step; 4x = O(n^2): the text's quantifiers"
echo " over processes or whole-array updates; the bad condition of an m-parameter property"
echo " has n^m tuples, 1 with the default symmetry breaking)"

echo
echo "== 5. binary vs one-hot cells (whole depth loop, default symmetry breaking)"
printf "%-12s %3s %5s %8s %8s %8s\n" family n depth binary onehot bin/1hot
for spec in "mutex 12 30" "german 8 14" "peterson 8 16" "mesi 12 15" "grant_mutex 8 12" "german_bug 12 8" "token_mutex 12 20"; do
  set -- $spec
  b=$(t_check families/$1.cub --size $2 --depth $3 --encoding binary)
  o=$(t_check families/$1.cub --size $2 --depth $3 --encoding onehot)
  printf "%-12s %3s %5s %8s %8s %8s\n" "$1" "$2" "$3" "$b" "$o" "$(ratio $b $o)"
done
