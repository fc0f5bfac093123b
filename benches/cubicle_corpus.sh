#!/usr/bin/env bash
# Cubicle's example models against nfold (not part of the test suite; the models are
# data, never copied into the project). For every .cub file of the corpus tarball: loads
# or the first error, the explicit engine's verdicts at sizes 1..3 (time limit $TIMEOUT
# seconds per file, default 20), Cubicle's expected verdict (Makefile.in's test lists,
# examples/bench, header comments, and Cubicle's own answer when $CUBICLE names a built
# cubicle.opt) and whether they agree; then the counts. Markdown table on stdout; the
# details are in benches/cubicle_corpus.py.
# Usage: [TIMEOUT=20] [CUBICLE=/path/to/cubicle.opt] \
#          benches/cubicle_corpus.sh ../shared/corpus/cubicle-3f76135.tar.gz
set -euo pipefail
if [ $# -ne 1 ] || [ ! -f "$1" ]; then
  echo "usage: $0 CORPUS.tar.gz" >&2
  exit 2
fi
TARBALL=$(realpath "$1")
cd "$(dirname "$0")/.."
cargo build --release -q
NF=$(pwd)/target/release/nfold
SCRIPT=$(pwd)/benches/cubicle_corpus.py
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
tar xzf "$TARBALL" -C "$WORK"
python3 "$SCRIPT" "$NF" "$WORK"
