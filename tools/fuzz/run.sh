#!/usr/bin/env bash
# Runs the fuzz targets (after tools/fuzz/build.sh brings OUT/ocm-fuzz up to date; --no-build skips it):
# for each, its kept crashes (Tests/Fuzz/Regressions/TARGET/) as regression tests, then
# libFuzzer for SECONDS on a working corpus in OUT/corpus/TARGET seeded from the tests' own
# files (Tests/Fuzz/Corpus/TARGET, the recordings, board files and policy example, the
# encoders' output). Prints executions and coverage per target; a crash, leak, hang (10 s an
# input) or failed property fails the run and leaves the input in OUT/artifacts/TARGET/.
# Usage: tools/fuzz/run.sh [--seconds N] [--runs N] [--out DIR] [--no-build] [TARGET...]   (default: 20 s each, every target)
# A longer run of one target: tools/fuzz/run.sh --seconds 3600 wire-daemon
# The long run (issue 22: 10 million executions a target; --seconds then bounds each, 0: none):
#   tools/fuzz/run.sh --runs 10000000 --seconds 0
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
seconds=20
runs=-1
out="$root/.build-fuzz"
targets=()
build=yes
while (($#)); do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --no-build) build=no; shift ;;
        -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
        *) targets+=("$1"); shift ;;
    esac
done
((${#targets[@]})) || targets=(wire-daemon wire-client mqtt-binary-payload mqtt-message recording board-file calibration policy
                              mqtt-configuration iio chips chip-ms5837 uart-rvc)
cd "$root"
if [ "$build" = yes ] || [ ! -x "$out/ocm-fuzz" ]; then "$here/build.sh" "$out"; fi
fuzzer="$out/ocm-fuzz"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"

# Seeds: the encoders' frames and payloads, then files from the repository per target.
seeds="$out/seeds"
rm -rf "$seeds"; mkdir -p "$seeds"
OCM_FUZZ_WRITE_SEEDS="$seeds" "$fuzzer" -runs=1 >/dev/null 2>&1 || true
seed_files() {
    local target="$1" dir="$seeds/$1" file name
    mkdir -p "$dir"
    [ -d "Tests/Fuzz/Corpus/$target" ] && cp Tests/Fuzz/Corpus/"$target"/* "$dir/"
    case "$target" in
        board-file) cp boards/*.board "$dir/" ;;
        policy) cp tools/motiond/policy.example "$dir/" ;;
        recording)
            # The first 4 KB of each bundled recording, as plain (mode byte 0) and to be gzipped (1).
            for file in Tests/Recordings/*.csv.gz; do
                name="$(basename "$file" .csv.gz)"
                # (zcat stops with SIGPIPE when head has enough: not a failure here.)
                { printf '\x00'; (zcat "$file" || true) | head -c 4096; } > "$dir/$name.plain"
                { printf '\x01'; (zcat "$file" || true) | head -c 4096; } > "$dir/$name.gzip"
                { printf '\x00'; head -c 4096 "$file"; } > "$dir/$name.gz-bytes"
            done ;;
    esac
}

status=0
summary=()
for target in "${targets[@]}"; do
    seed_files "$target"
    corpus="$out/corpus/$target" artifacts="$out/artifacts/$target/"
    mkdir -p "$corpus" "$artifacts"
    regressions="Tests/Fuzz/Regressions/$target"
    if [ -d "$regressions" ] && [ -n "$(ls -A "$regressions")" ]; then
        echo "==> $target: kept crashes (regression tests)"
        if ! OCM_FUZZ_TARGET="$target" "$fuzzer" "$regressions"/* >"$out/$target.regressions.log" 2>&1; then
            tail -30 "$out/$target.regressions.log"
            summary+=("$target: a kept crash fails again ($out/$target.regressions.log)"); status=1
            continue
        fi
    fi
    if [ "$runs" -ge 0 ]; then echo "==> $target: fuzzing for $runs executions (at most $seconds s; 0: no limit)"
    else echo "==> $target: fuzzing for $seconds s"; fi
    log="$out/$target.log"
    if OCM_FUZZ_TARGET="$target" "$fuzzer" -max_total_time="$seconds" -runs="$runs" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
         -print_final_stats=1 -artifact_prefix="$artifacts" "$corpus" "$seeds/$target" >"$log" 2>&1; then
        result=ok
    else
        result="FAILED: input kept in $artifacts, log $log"; status=1
        grep -E "ERROR|property failed|Fatal error|SUMMARY" "$log" | head -5 || true
    fi
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1 || true)
    coverage=$(grep -oE "cov: [0-9]+ ft: [0-9]+" "$log" | tail -1 || true)
    corpus_size=$(find "$corpus" -type f | wc -l)
    summary+=("$(printf '%-20s %12s executions  %-20s corpus %5s  %s' "$target" "${executions:-?}" "${coverage:-cov: ?}" "$corpus_size" "$result")")
done
printf '%s\n' "${summary[@]}"
exit $status
