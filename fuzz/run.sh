#!/usr/bin/env bash
# Fuzzes the crate for a bounded time, on the machine's stable toolchain: RUSTC_BOOTSTRAP=1
# lets cargo-fuzz pass the flags it needs. Two targets: `replay` (parse_record, replay, the
# renderers, the bodies and their estimates) and `stream` (every provider's stream reader, in
# arbitrary chunks, and its error reader).
#
#   bash fuzz/run.sh [SECONDS] [TARGET...]    (default 300 seconds each, both targets)
#
# It installs cargo-fuzz if it is missing, seeds each corpus from fuzz/seeds (replay) or
# fuzz/seeds-stream (stream), and prints libFuzzer's figures; a crash leaves its input under
# fuzz/artifacts/TARGET/.
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-300}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(replay stream)
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
for target in "${targets[@]}"; do
  mkdir -p "corpus/$target"
  case "$target" in
    replay) cp seeds/* corpus/replay/; dict=(-dict=replay.dict) ;;
    stream) cp seeds-stream/* corpus/stream/; dict=() ;;
    *) echo "run.sh: no target $target" >&2; exit 2 ;;
  esac
  # The crate forbids unsafe code, so AddressSanitizer has nothing to find and only slows the run.
  RUSTC_BOOTSTRAP=1 cargo fuzz run --sanitizer none "$target" "corpus/$target" -- \
    -max_total_time="$seconds" "${dict[@]}" -print_final_stats=1
done
