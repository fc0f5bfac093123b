#!/bin/sh
# Regenerate the command outputs shown in README.md and docs/*.md from real runs.
#
# Every block after a marker `<!-- example: ... -->` is rerun through the release
# binary and rewritten where its output changed beyond what tests/docs_examples.rs
# normalises (times, memory, the version line); slow examples (marked `slow`, skipped by
# `cargo test`) are rerun too. Blocks after `<!-- file: PATH -->` are rewritten from
# PATH. Review the result with `git diff` and fix the prose around a changed block.
#
# Usage: scripts/docs_examples.sh [PAGE-TEST]   (PAGE-TEST: readme, tutorial, cli,
#        engines, every_n; default all)
set -eu
cd "$(dirname "$0")/.."
NFOLD_DOCS_REGENERATE=1 NFOLD_DOCS_SLOW=1 \
    cargo test --release --test all -- "docs_examples::${1:-}" --test-threads=1 --nocapture
