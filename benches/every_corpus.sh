#!/usr/bin/env bash
# Cubicle's example models, "every n": for every .cub file of the corpus archive that
# nfold loads, `nfold check FILE --every-n` (sizes 1..4, then the proof for every n)
# under a time limit and, when a Cubicle binary is given, Cubicle on the same file
# (its `ltl` blocks removed; the options Cubicle's Makefile.in gives the file, e.g.
# `-brab 2`) under the same limit. Prints one line per file and the counts; a file
# that nfold proves for every n and Cubicle finds UNSAFE is a soundness ALARM.
#   bash benches/every_corpus.sh ../shared/corpus/cubicle-3f76135.tar.gz [CUBICLE]
# LIMIT=seconds (default 30) for each tool on each file.
set -uo pipefail
corpus=${1:?usage: every_corpus.sh CORPUS.tar.gz [CUBICLE]}
cubicle=${2:-}
limit=${LIMIT:-30}
corpus=$(realpath "$corpus")
[ -n "$cubicle" ] && cubicle=$(realpath "$cubicle")
cd "$(dirname "$0")/.."
cargo build --release -q
NFOLD=$PWD/target/release/nfold
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar xzf "$corpus" -C "$tmp"
root=$tmp/cubicle
mk=$root/Makefile.in
opts_for() { # the options `make test` gives a file
  sed -n "s|.*test_[a-z]*,examples/$1,\(.*\))\s*$|\1|p" "$mk" | head -1
}
printf "%-44s | %-52s | %7s | %-8s | %7s\n" file "nfold every-n" "nfold s" cubicle "cub s"
n_files=0; n_load=0; n_proved=0; n_viol=0; n_cub_safe=0; n_cub_unsafe=0; n_both=0; alarms=""
notproved_safe=""
while IFS= read -r f; do
  rel=${f#$root/examples/}
  n_files=$((n_files + 1))
  # loads? (nfold info answers input errors with exit code 2)
  if ! timeout 10 "$NFOLD" info "$f" > /dev/null 2>&1; then continue; fi
  n_load=$((n_load + 1))
  start=$(date +%s.%N)
  timeout "$limit" "$NFOLD" check "$f" --every-n > "$tmp/n.txt" 2>&1
  rc=$?
  nsec=$(python3 -c "import time;print('%.2f' % (time.time() - $start))")
  line=$(grep -m1 '^every n:' "$tmp/n.txt" | sed 's/^every n: //')
  if [ $rc -eq 124 ]; then res="timeout (${limit}s)"
  elif [ $rc -eq 1 ]; then res="violated at size $(grep -m1 -E '^ +[0-9]+ .* violated ' "$tmp/n.txt" | awk '{print $1}')"
  elif echo "$line" | grep -q '^holds for every n'; then res="proved"; n_proved=$((n_proved + 1))
  elif echo "$line" | grep -q 'outside the fragment'; then
    res="refused: $(echo "$line" | sed 's/.*outside the fragment of the cutoff argument: //; s/ at [^ ]*:[0-9]*.*//')"
  elif [ -n "$line" ]; then res="not reached: $(echo "$line" | sed 's/^not proved: //')"
  else res="error (exit $rc): $(tail -1 "$tmp/n.txt")"; fi
  [ $rc -eq 1 ] && n_viol=$((n_viol + 1))
  cub="-"; csec="-"
  if [ -n "$cubicle" ]; then
    grep -v '^ltl' "$f" > "$tmp/c.cub"
    base=${rel}
    o=$(opts_for "$base")
    start=$(date +%s.%N)
    ( cd "$(dirname "$f")" && timeout "$limit" "$cubicle" -nocolor $o "$tmp/c.cub" ) > "$tmp/c.txt" 2>&1
    crc=$?
    csec=$(python3 -c "import time;print('%.2f' % (time.time() - $start))")
    if grep -q "The system is UNSAFE\|^UNSAFE" "$tmp/c.txt"; then cub=UNSAFE; n_cub_unsafe=$((n_cub_unsafe + 1))
    elif grep -q "The system is SAFE" "$tmp/c.txt"; then cub=SAFE; n_cub_safe=$((n_cub_safe + 1))
    elif [ $crc -eq 124 ]; then cub=timeout
    else cub=error; fi
    [ -n "$o" ] && cub="$cub ($o)"
    case "$cub" in
      SAFE*) if [ "$res" = proved ]; then n_both=$((n_both + 1)); else notproved_safe+="  $rel: $res"$'\n'; fi ;;
      UNSAFE*) [ "$res" = proved ] && alarms+="  ALARM $rel: nfold proved for every n, Cubicle UNSAFE"$'\n' ;;
    esac
  fi
  printf "%-44s | %-52s | %7s | %-8s | %7s\n" "$rel" "$res" "$nsec" "$cub" "$csec"
  if [ -n "${VERBOSE:-}" ]; then printf "    %s\n" "$res"; fi
done < <(find "$root/examples" -name '*.cub' | sort)
echo
echo "corpus files: $n_files; loaded by nfold: $n_load; proved for every n: $n_proved; violation found at some size: $n_viol"
if [ -n "$cubicle" ]; then
  echo "Cubicle on the loaded files: SAFE $n_cub_safe, UNSAFE $n_cub_unsafe; SAFE for Cubicle and proved for every n by nfold: $n_both of $n_cub_safe"
  [ -n "$notproved_safe" ] && { echo "SAFE for Cubicle, not proved for every n by nfold:"; printf "%s" "$notproved_safe"; }
  if [ -n "$alarms" ]; then echo "SOUNDNESS ALARMS:"; printf "%s" "$alarms"; else echo "soundness alarms: none"; fi
fi
