#!/usr/bin/env bash
# "Every n" side by side: for each correct family, nfold's proof for every n (the
# quantified invariant and its check up to the cutoff; wall and CPU seconds of the
# whole command, and the seconds of the every-n step from its JSON) and, when a
# Cubicle binary is given (CUBICLE=path, built from ../shared/corpus, see
# docs/benchmarks.md), Cubicle's time on the same file (its `ltl` lines removed
# and its `unsafe` names dropped, which Cubicle does not read; run as `cubicle.opt -nocolor $CUBICLE_OPTS FILE`). One run, same machine, so the ratio is meaningful.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q
NFOLD=target/release/nfold
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf "%-14s %-8s %7s %8s %8s %7s | %-10s %8s %7s\n" family verdict cutoff clauses "every s" "cmd s" cubicle "cub s" ratio
for fam in ${FAMILIES:-mutex mesi token_mutex grant_mutex german}; do
  f=families/$fam.cub
  /usr/bin/time -o "$tmp/t" -f "%e %U %S" "$NFOLD" check "$f" --sizes 1..1 --every-n --json > "$tmp/out.json" || true
  read -r wall user sys < "$tmp/t"
  cpu=$(echo "$user + $sys" | bc)
  read -r verdict cutoff lemmas secs < <(python3 -c '
import json,sys
e=json.load(open(sys.argv[1])).get("every_n",{})
print(e.get("verdict"), e.get("cutoff","-"), e.get("lemmas","-"), "%.3f" % e.get("seconds",0))' "$tmp/out.json")
  cub="-"; cubs="-"; ratio="-"
  if [ -n "${CUBICLE:-}" ] && [ -x "$CUBICLE" ]; then
    # Cubicle's syntax: no `ltl` lines, unnamed `unsafe (z1 z2)`
    sed -e '/^ltl/d' -e 's/^unsafe [A-Za-z_][A-Za-z0-9_]* *(/unsafe (/' -e 's/^unsafe [A-Za-z_][A-Za-z0-9_]* *{/unsafe {/' "$f" > "$tmp/$fam.cub"
    /usr/bin/time -o "$tmp/c" -f "%U %S" timeout 60 "$CUBICLE" -nocolor ${CUBICLE_OPTS:-} "$tmp/$fam.cub" > "$tmp/cub.txt" 2>&1 && crc=0 || crc=$?
    read -r cu cs < <(tail -1 "$tmp/c")
    cubs=$(echo "$cu + $cs" | bc)
    if grep -q "The system is UNSAFE" "$tmp/cub.txt"; then cub=UNSAFE; elif grep -q "The system is SAFE" "$tmp/cub.txt"; then cub=SAFE; elif [ "$crc" = 124 ]; then cub=timeout; else cub="error:$(grep -m1 -i error "$tmp/cub.txt" | cut -c1-40 | tr ' ' _)"; fi
    ratio=$(python3 -c "print('%.2f' % ($cpu / max($cubs, 0.001)))")
  fi
  printf "%-14s %-8s %7s %8s %8s %7s | %-10s %8s %7s\n" "$fam" "$verdict" "$cutoff" "$lemmas" "$secs" "$cpu" "$cub" "$cubs" "$ratio"
done
echo "(every s: the every-n step; cmd s: CPU seconds of the whole nfold command, size 1 included; ratio: nfold CPU / Cubicle CPU)"
