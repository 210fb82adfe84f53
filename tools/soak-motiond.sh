#!/bin/sh
# Soak test of motiond (issue 9): the daemon on a simulated board for --minutes (default 10),
# with --clients clients (default 3) each reading the accelerometer, gyroscope and device
# motion at their highest rate; reports motiond's resident memory (VmRSS) at start and end, the
# history's bytes written and on disk, and per client and stream the samples received, lost
# and dropped. Fails if any sample was lost or dropped, or if RSS grew by more than 20 %.
#
# usage: tools/soak-motiond.sh [--minutes N] [--clients N] [--board FILE] [--release]
set -eu
minutes=10 clients=3 board=sim-walker.board configuration=debug
while [ $# -gt 0 ]; do
    case "$1" in
        --minutes) minutes=$2; shift 2 ;;
        --clients) clients=$2; shift 2 ;;
        --board) board=$2; shift 2 ;;
        --release) configuration=release; shift ;;
        *) echo "usage: $0 [--minutes N] [--clients N] [--board FILE] [--release]" >&2; exit 2 ;;
    esac
done
cd "$(dirname "$0")/.."
export PATH=/opt/swift/usr/bin:$PATH
swift build -c "$configuration" --product motiond >/dev/null
swift build -c "$configuration" --product motiond-soak >/dev/null
swift build -c "$configuration" --product motionctl >/dev/null
bin=$(swift build -c "$configuration" --show-bin-path)
work=$(mktemp -d /tmp/motiond-soak.XXXXXX)
trap 'kill "$daemon" 2>/dev/null || true; rm -rf "$work"' EXIT
"$bin/motiond" --board "$board" --history "$work/history" --socket "$work/motiond.sock" --policy "$work/policy" 2>"$work/motiond.log" &
daemon=$!
for _ in $(seq 100); do [ -S "$work/motiond.sock" ] && break; sleep 0.1; done
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$daemon/status"; }
cpu() { awk '{ print $14 + $15 }' "/proc/$daemon/stat"; }
seconds=$((minutes * 60))
# Memory at start: once the clients are connected and streaming.
"$bin/motiond-soak" "$work/motiond.sock" "$seconds" "$clients" >"$work/clients.txt" &
soak=$!
sleep 10
rss_start=$(rss) cpu_start=$(cpu)
wait "$soak" && result=0 || result=$?
rss_end=$(rss) cpu_end=$(cpu)
ticks=$(getconf CLK_TCK)
cat "$work/clients.txt"
"$bin/motionctl" status --socket "$work/motiond.sock" | sed -n '/^history/,/^clients/p'
echo "motiond RSS: $rss_start kB after 10 s, $rss_end kB after $minutes min"
echo "motiond CPU: $(( (cpu_end - cpu_start) * 100 / ticks / (seconds - 10) ))% of one core on average after the first 10 s"
kill -TERM "$daemon"; wait "$daemon" || true
if grep -qv "serving\|signal" "$work/motiond.log"; then echo "motiond's log:"; cat "$work/motiond.log"; fi
grown=$(( rss_end * 100 / rss_start ))
[ "$result" -eq 0 ] || { echo "FAILED: samples lost or dropped"; exit 1; }
[ "$grown" -le 120 ] || { echo "FAILED: RSS grew to $grown % of its start"; exit 1; }
echo "soak passed"
