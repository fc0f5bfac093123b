# Sourced by the corpus benches (every_corpus.sh, corpus_limits.sh), from the repository's
# root: sets NFOLD (the binary given, e.g. a copy so that a build during the run does not
# change it; otherwise this tree's release build, built now) and tmp (a directory removed
# on exit, holding the corpus archive $corpus unpacked: $tmp/cubicle/examples/*.cub).
if [ -z "${NFOLD:-}" ]; then
  cargo build --release -q
  NFOLD=$PWD/target/release/nfold
fi
NFOLD=$(realpath "$NFOLD")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar xzf "$corpus" -C "$tmp"
