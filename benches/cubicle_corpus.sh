#!/usr/bin/env bash
# Which of Cubicle's example models nfold loads (not part of the test suite; the models
# are data, never copied into the project). For every .cub file of the corpus tarball:
# one line with the file and `loads`, or the first error line of `nfold info` (without
# the file name and position, shortened); then the number of files per cause.
# Usage: benches/cubicle_corpus.sh ../shared/corpus/cubicle-3f76135.tar.gz
set -euo pipefail
if [ $# -ne 1 ] || [ ! -f "$1" ]; then
  echo "usage: $0 CORPUS.tar.gz" >&2
  exit 2
fi
TARBALL=$(realpath "$1")
cd "$(dirname "$0")/.."
cargo build --release -q
NF=$(pwd)/target/release/nfold
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
tar xzf "$TARBALL" -C "$WORK"
cd "$WORK"

# The cause of a failure: the message with the model's own names (quoted) taken out,
# so that files failing for the same reason count together; keywords, types and
# operators stay.
cause() {
  sed -E -e 's/`([^`]*)`/<\1>/g' \
    -e 's/<(int|real|bool|proc|requires|candidate|case|_|!|not|=)>/`\1`/g' \
    -e 's/<[^>]*>/`…`/g' <<<"$1"
}

total=0
loads=0
: > "$WORK/causes"
while IFS= read -r f; do
  total=$((total + 1))
  if err=$("$NF" info "$f" 2>&1 >/dev/null); then
    loads=$((loads + 1))
    printf '%-70s loads\n' "$f"
  else
    first=$(grep -m1 ': error: ' <<<"$err" || true)
    [ -n "$first" ] || first=$(head -n1 <<<"$err")
    msg=${first#*: error: }
    short=$msg
    [ ${#short} -le 100 ] || short="${short:0:97}..."
    printf '%-70s %s\n' "$f" "$short"
    cause "$msg" >> "$WORK/causes"
  fi
done < <(find . -name '*.cub' | sed 's|^\./||' | LC_ALL=C sort)

echo
echo "$loads of $total files load"
if [ -s "$WORK/causes" ]; then
  echo "failures by cause:"
  LC_ALL=C sort "$WORK/causes" | uniq -c | sort -rn
fi
