#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) in build-fuzz/ and
# fuzzes one of them. New crashes land in fuzz/crashes/<name>/; once fixed,
# copy them into fuzz/corpus/<name>/ so that the regression test keeps them.
#   fuzz/run.sh dbcop 300        # fuzz the dbcop reader for 300 seconds
set -euo pipefail
name=${1:?usage: fuzz/run.sh NAME [SECONDS]}
secs=${2:-60}
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-fuzz
if [ ! -f "$build/CMakeCache.txt" ]; then
  CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DISOSYNTH_FUZZ=ON \
    -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined" >/dev/null
fi
cmake --build "$build" --target "fuzz_$name" -j2 >/dev/null
mkdir -p "$root/fuzz/crashes/$name" "$build/corpus-$name"
seeds=("$root/fuzz/corpus/$name")
limits=(-rss_limit_mb=2048)
if [ "$name" = spec ]; then
  # The shipped, example and CLI test specs seed it too; the target's own caps
  # are far below these limits, so reaching one is a bug.
  seeds+=("$root/specs" "$root/examples/specs" "$root/tests/cli/inputs")
  limits=(-rss_limit_mb=1024 -malloc_limit_mb=256 -dict="$root/fuzz/spec.dict")
fi
if [ "$name" = json_scan ]; then
  limits+=(-dict="$root/fuzz/json.dict")
fi
"$build/fuzz/fuzz_$name" "$build/corpus-$name" "${seeds[@]}" \
  -max_total_time="$secs" "${limits[@]}" -timeout=10 -max_len=65536 \
  -artifact_prefix="$root/fuzz/crashes/$name/" -print_final_stats=1
