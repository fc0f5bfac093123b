#!/usr/bin/env bash
# Cubicle's example models, "every n", side by side: for every .cub file of the corpus
# archive, Cubicle (when a binary is given) with its best option, and
# `nfold check FILE --every-n` (sizes 1..4, then the proof for every n) when nfold
# loads the file. Cubicle runs with the options Cubicle's Makefile.in gives the file
# for `make test` (e.g. `-brab 2`; none for most) and, when those are not `-brab 2`,
# again with `-brab 2`; its answer is the best of the two (the fastest SAFE or UNSAFE
# run), each under CUB_LIMIT seconds (default 10). nfold gets LIMIT seconds (default
# 20). The two tools run one after the other on each file, so the ratios are paired.
# Prints one line per file (wall and CPU seconds of each tool), the counts, the totals
# on the files both prove, the Cubicle-SAFE files nfold does not prove (with nfold's
# reason). A file counts as proved by nfold in Cubicle's reading: every `unsafe`
# property holds for every n (as written, or assuming the file's `invariant`s, which
# Cubicle assumes); an `invariant` that nfold finds violated as a claim is said beside
# it, and soundness ALARMs (a file nfold proves for every n that Cubicle finds
# UNSAFE).
#   bash benches/every_corpus.sh ../shared/corpus/cubicle-3f76135.tar.gz [CUBICLE]
# FILTER=regex: only the files whose path matches.
set -uo pipefail
corpus=${1:?usage: every_corpus.sh CORPUS.tar.gz [CUBICLE]}
cubicle=${2:-}
limit=${LIMIT:-20}
cub_limit=${CUB_LIMIT:-10}
corpus=$(realpath "$corpus")
[ -n "$cubicle" ] && cubicle=$(realpath "$cubicle")
cd "$(dirname "$0")/.."
# NFOLD=path: that binary; otherwise this tree's release build (benches/corpus_setup.sh).
source benches/corpus_setup.sh
# Reads nfold's JSON: "proved" when every `unsafe` property holds for every n, without
# assumptions or assuming the `invariant`s (Cubicle's reading: it assumes them), with
# "(invariants as claims: ...)" when an `invariant` itself is not proved or violated.
reader=$tmp/reader.py
cat > "$reader" <<'PY'
import json, sys
path, rc = sys.argv[1], int(sys.argv[2])
text = open(path, errors="replace").read()
try:
    d = json.loads(text)
except Exception:
    lines = open(path, errors="replace").read().strip().splitlines()
    print("error (exit %d): %s" % (rc, (lines[-1] if lines else "")[:90]))
    sys.exit()
def props(doc):
    return {p["property"]: p for p in ((doc or {}).get("properties") or [])}
plain = props(d.get("every_n"))
assumed = props(((d.get("assuming") or {}).get("every_n")))
unsafes = [p for p in plain.values() if p["kind"] != "invariant"]
def holds(name):
    return plain[name]["verdict"] == "holds" or assumed.get(name, {}).get("verdict") == "holds"
viol = [r for r in d.get("results", []) if r.get("verdict") == "violated"]
if unsafes and all(holds(p["property"]) for p in unsafes):
    notes = []
    if any(plain[p["property"]]["verdict"] != "holds" for p in unsafes):
        notes.append("assuming the invariants")
    bad = [p["property"] for p in plain.values() if p["kind"] == "invariant" and p["verdict"] != "holds"]
    if bad:
        notes.append("invariants as claims: " + ", ".join(bad) + " not")
    print("proved" + (" (" + "; ".join(notes) + ")" if notes else ""))
elif any(p["verdict"] == "violated" for p in unsafes):
    sizes = sorted({s for p in unsafes for s in p.get("violated_sizes", [])})
    print("violated at size %s" % (sizes[0] if sizes else "?"))
elif not plain:
    print("error (exit %d): no answer for every n" % rc)
else:
    reasons = [(assumed.get(p["property"]) or p).get("reason") or "" for p in unsafes if not holds(p["property"])]
    r = reasons[0] if reasons else ""
    if "outside the fragment" in r:
        r = r.split("outside the fragment of the cutoff argument: ", 1)[1]
        print("refused: " + r.split(" at ")[0])
    else:
        print("not reached: " + r.replace("not proved: ", ""))
PY
root=$tmp/cubicle
mk=$root/Makefile.in
opts_for() { # the options `make test` gives a file
  sed -n "s|.*test_[a-z]*,examples/$1,\(.*\))\s*$|\1|p" "$mk" | head -1
}
add() { python3 -c "print('%.2f' % ($1 + $2))"; }
# run LIMIT OUT CMD...: sets $wall, $cpu and $rc
run() {
  local lim=$1 out=$2
  shift 2
  /usr/bin/time -f "%e %U %S" -o "$tmp/time" timeout "$lim" "$@" > "$out" 2>&1
  rc=$?
  read -r wall u s < <(tail -1 "$tmp/time")
  cpu=$(add "$u" "$s")
}
printf "%-40s | %-44s | %6s %6s | %-22s | %6s %6s\n" file "nfold every-n" "wall" "cpu" "cubicle (best option)" "wall" "cpu"
n_files=0; n_load=0; n_proved=0; n_viol=0; n_cub_safe=0; n_cub_unsafe=0; n_both=0
both_nw=0; both_nc=0; both_cw=0; both_cc=0
alarms=""; notproved_safe=""
while IFS= read -r f; do
  rel=${f#$root/examples/}
  n_files=$((n_files + 1))
  # Cubicle: the make-test options, and -brab 2; the best answer.
  cub="-"; cw="-"; cc="-"
  if [ -n "$cubicle" ]; then
    grep -v '^ltl' "$f" > "$tmp/c.cub"
    o=$(opts_for "$rel")
    best=""
    options=("$o")
    [ "$o" = "-brab 2" ] || options+=("-brab 2")
    for opt in "${options[@]}"; do
      # shellcheck disable=SC2086
      ( cd "$(dirname "$f")" && run "$cub_limit" "$tmp/c.txt" "$cubicle" -nocolor $opt "$tmp/c.cub"; echo "$rc $wall $cpu" > "$tmp/crun" )
      read -r crc cwall ccpu < "$tmp/crun"
      if grep -q "The system is UNSAFE\|^UNSAFE" "$tmp/c.txt"; then v=UNSAFE
      elif grep -q "The system is SAFE" "$tmp/c.txt"; then v=SAFE
      elif [ "$crc" -eq 124 ]; then v=timeout
      else v=error; fi
      label="$v${opt:+ ($opt)}"
      if [ "$v" = SAFE ] || [ "$v" = UNSAFE ]; then
        if [ -z "$best" ] || python3 -c "import sys; sys.exit(0 if $ccpu < $cc else 1)"; then
          best=$v; cub=$label; cw=$cwall; cc=$ccpu
        fi
      elif [ -z "$best" ] && [ "$cub" = "-" ]; then
        cub=$label
      fi
    done
    case "$best" in
      SAFE) n_cub_safe=$((n_cub_safe + 1)) ;;
      UNSAFE) n_cub_unsafe=$((n_cub_unsafe + 1)) ;;
    esac
  fi
  # nfold, when it loads the file (`nfold info` answers input errors with exit code 2).
  nw="-"; nc="-"
  if timeout 10 "$NFOLD" info "$f" > "$tmp/info.txt" 2>&1; then
    n_load=$((n_load + 1))
    # stderr (progress lines) apart, so that it cannot cut into the JSON document.
    run "$limit" "$tmp/n.json" sh -c 'exec "$0" check "$1" --every-n --json 2> "$2"' "$NFOLD" "$f" "$tmp/n.err"
    nw=$wall; nc=$cpu
    if [ $rc -eq 124 ]; then res="timeout (${limit}s)"
    else res=$(python3 "$reader" "$tmp/n.json" "$rc"); fi
    case "$res" in proved*) n_proved=$((n_proved + 1)) ;; esac
    [ $rc -eq 1 ] && n_viol=$((n_viol + 1))
  else
    res="not loaded: $(grep -m1 -i 'error' "$tmp/info.txt" | sed 's/^.*error: //' | cut -c1-100)"
  fi
  case "$cub" in
    SAFE*)
      if [[ "$res" == proved* ]]; then
        n_both=$((n_both + 1))
        both_nw=$(add "$both_nw" "$nw"); both_nc=$(add "$both_nc" "$nc")
        both_cw=$(add "$both_cw" "$cw"); both_cc=$(add "$both_cc" "$cc")
      else notproved_safe+="  $rel: $res"$'\n'; fi ;;
    UNSAFE*) case "$res" in proved*) alarms+="  ALARM $rel: nfold proved for every n, Cubicle UNSAFE"$'\n' ;; esac ;;
  esac
  printf "%-40s | %-44s | %6s %6s | %-22s | %6s %6s\n" "$rel" "${res:0:44}" "$nw" "$nc" "$cub" "$cw" "$cc"
  if [ -n "${VERBOSE:-}" ]; then printf "    %s\n" "$res"; fi
done < <(find "$root/examples" -name '*.cub' | sort | grep -E "${FILTER:-.}")
echo
echo "corpus files: $n_files; loaded by nfold: $n_load; proved for every n by nfold: $n_proved; violation found at some size: $n_viol"
if [ -n "$cubicle" ]; then
  echo "Cubicle (best of its make-test options and -brab 2, ${cub_limit}s each): SAFE $n_cub_safe, UNSAFE $n_cub_unsafe"
  echo "SAFE for Cubicle and proved for every n by nfold: $n_both of $n_cub_safe"
  echo "on those $n_both files: nfold ${both_nw}s wall, ${both_nc}s CPU; Cubicle ${both_cw}s wall, ${both_cc}s CPU"
  [ -n "$notproved_safe" ] && { echo "SAFE for Cubicle, not proved for every n by nfold:"; printf "%s" "$notproved_safe"; }
  if [ -n "$alarms" ]; then echo "SOUNDNESS ALARMS:"; printf "%s" "$alarms"; else echo "soundness alarms: none"; fi
fi
