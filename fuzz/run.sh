#!/usr/bin/env bash
# Fuzzes parse_record, replay, the renderers, the bodies and their estimates for a bounded
# time, on the machine's stable toolchain: RUSTC_BOOTSTRAP=1 lets cargo-fuzz pass the flags it
# needs.
#
#   bash fuzz/run.sh [SECONDS]        (default 300)
#
# It installs cargo-fuzz if it is missing, seeds the corpus from fuzz/seeds, and prints
# libFuzzer's figures; a crash leaves its input under fuzz/artifacts/replay/.
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-300}"
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
mkdir -p corpus/replay
cp seeds/* corpus/replay/
# The crate forbids unsafe code, so AddressSanitizer has nothing to find and only slows the run.
RUSTC_BOOTSTRAP=1 cargo fuzz run --sanitizer none replay corpus/replay -- \
  -max_total_time="$seconds" -dict=replay.dict -print_final_stats=1
