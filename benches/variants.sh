#!/usr/bin/env bash
# The same protocol written another way at the same cost (issue 43): every family and
# its variants 1-5 (tests/common/variants.rs: an unread counter, an unread scratch
# memory, a constant row in every guard, a stored id, a duplicated cell) through the
# default command, the median of RUNS runs (default 3), in one run; the ratio of each
# variant's time to the original's, whether the answers agree, and the largest ratio.
# Extra model files may be given as arguments (benches/models/*.cub, say).
#   benches/variants.sh [MODEL.cub ...]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q
cargo bench -q --bench variants -- "$@"
