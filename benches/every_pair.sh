#!/usr/bin/env bash
# "Every n", paired and repeated: for each corpus file named, `nfold check FILE
# --every-n` with two nfold binaries (BEFORE and AFTER) and Cubicle with the options
# given after the file name (`FILE:OPTS`, e.g. `german_baukus.cub:-brab 2`), each
# REPS times (default 3) interleaved, so that the load of a shared machine falls on
# all three alike; prints the median CPU (user + sys) and wall seconds of each and
# the ratio AFTER / Cubicle.
#   BEFORE=old/nfold AFTER=new/nfold CUBICLE=.../cubicle.opt \
#     bash benches/every_pair.sh CORPUS.tar.gz 'german_baukus.cub:-brab 2' ...
set -uo pipefail
corpus=$(realpath "${1:?usage: every_pair.sh CORPUS.tar.gz FILE[:OPTS]...}")
shift
reps=${REPS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar xzf "$corpus" -C "$tmp"
ex=$tmp/cubicle/examples
# one TOOL FILE OPTS: "cpu wall" of one run
one() {
  local tool=$1 f=$2 o=$3
  case $tool in
    before) /usr/bin/time -f "%U %S %e" -o "$tmp/t" timeout 60 "$BEFORE" check "$ex/$f" --every-n > "$tmp/o" 2>&1 ;;
    after) /usr/bin/time -f "%U %S %e" -o "$tmp/t" timeout 60 "$AFTER" check "$ex/$f" --every-n > "$tmp/o" 2>&1 ;;
    # shellcheck disable=SC2086
    cubicle) grep -v '^ltl' "$ex/$f" > "$tmp/c.cub"
      ( cd "$(dirname "$ex/$f")" && /usr/bin/time -f "%U %S %e" -o "$tmp/t" timeout 60 "$CUBICLE" -nocolor $o "$tmp/c.cub" > "$tmp/o" 2>&1 ) ;;
  esac
  if [ "$tool" = cubicle ]; then grep -q "The system is SAFE" "$tmp/o" || echo "WARN $f: Cubicle did not answer SAFE" >&2
  else grep -q "^every n: holds for every n" "$tmp/o" || echo "WARN $f: $tool did not prove it for every n" >&2; fi
  read -r u s e < <(tail -1 "$tmp/t")
  python3 -c "print('%.3f %.2f' % ($u + $s, $e))"
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf "%-28s %-10s | %-13s | %-13s | %-13s | %s\n" file "cub opts" "before cpu/wall" "after cpu/wall" "cubicle cpu/wall" "after/cub cpu"
tb=0; ta=0; tc=0
for arg in "$@"; do
  f=${arg%%:*}; o=""; [ "$arg" != "$f" ] && o=${arg#*:}
  : > "$tmp/r_before"; : > "$tmp/r_after"; : > "$tmp/r_cubicle"
  for _ in $(seq "$reps"); do
    for tool in before after cubicle; do one $tool "$f" "$o" >> "$tmp/r_$tool"; done
  done
  for tool in before after cubicle; do
    c=$(cut -d" " -f1 "$tmp/r_$tool" | median); w=$(cut -d" " -f2 "$tmp/r_$tool" | median)
    eval "${tool}_c=$c; ${tool}_w=$w"
  done
  # shellcheck disable=SC2154
  printf "%-28s %-10s | %6s %6s | %6s %6s | %6s %6s | %s\n" "$f" "${o:--}" "$before_c" "$before_w" "$after_c" "$after_w" "$cubicle_c" "$cubicle_w" \
    "$(python3 -c "print('%.1f' % ($after_c / max($cubicle_c, 0.005)))")"
  tb=$(python3 -c "print($tb + $before_c)"); ta=$(python3 -c "print($ta + $after_c)"); tc=$(python3 -c "print($tc + $cubicle_c)")
done
printf "total CPU (medians): before %.2f s, after %.2f s, Cubicle %.2f s\n" "$tb" "$ta" "$tc"
