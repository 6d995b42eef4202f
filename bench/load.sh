#!/usr/bin/env bash
# Measures loading the big synthetic packet (bench.Big: a 1,000-file
# 200,000-line diff, 2,000 findings, a 1 GiB log) against `wc -l` on its log,
# the floor for anything that must count the log's lines.
#
#   bench/load.sh            # the packet in $VETTER_BENCH_DIR or $TMPDIR/vetter-bench-big
#   RUNS=9 bench/load.sh
#
# Both are measured with a warm page cache: one untimed run of each first.
# Dropping the cache needs root and slows every other process on the machine,
# and the numbers would then measure the disk, not vetter.
set -euo pipefail

cd "$(dirname "$0")/.."
DIR=${VETTER_BENCH_DIR:-${TMPDIR:-/tmp}/vetter-bench-big}
RUNS=${RUNS:-5}
LOG="$DIR/validation/logs/2026-01-01T00-00-00.000Z-bash-big0.log"
MIN_LOG=$((1 << 30))

size_of() { stat -c %s "$1" 2>/dev/null || stat -f %z "$1"; }

if [[ ! -f "$LOG" ]] || (( $(size_of "$LOG") < MIN_LOG )); then
	echo "generating the big packet in $DIR ..." >&2
	go run ./bench/gen -out "$DIR" >/dev/null
fi
LOG_BYTES=$(size_of "$LOG")

BIN=$(mktemp -d)
trap 'rm -rf "$BIN"' EXIT
go build -o "$BIN/loadtime" ./bench/loadtime

now_ns() { date +%s%N; }

# wall_ms CMD...: runs CMD once, output discarded, and prints its wall time in ms.
wall_ms() {
	local t0 t1
	t0=$(now_ns)
	"$@" >/dev/null
	t1=$(now_ns)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f\n", (b - a) / 1e6 }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p"; }

# Warm the page cache and check the packet loads cleanly.
wc -l "$LOG" >/dev/null
"$BIN/loadtime" "$DIR" >/dev/null

wc_ms=() load_ms=() defer_ms=() load_rss=() defer_rss=() load_inner=()
for ((i = 0; i < RUNS; i++)); do
	wc_ms+=("$(wall_ms wc -l "$LOG")")

	t0=$(now_ns)
	out=$("$BIN/loadtime" "$DIR")
	t1=$(now_ns)
	load_ms+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f\n", (b - a) / 1e6 }')")
	load_inner+=("$(field elapsed_ms <<<"$out")")
	load_rss+=("$(field maxrss_kib <<<"$out")")

	t0=$(now_ns)
	out=$("$BIN/loadtime" -defer "$DIR")
	t1=$(now_ns)
	defer_ms+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f\n", (b - a) / 1e6 }')")
	defer_rss+=("$(field maxrss_kib <<<"$out")")
done

m_wc=$(printf '%s\n' "${wc_ms[@]}" | median)
m_load=$(printf '%s\n' "${load_ms[@]}" | median)
m_inner=$(printf '%s\n' "${load_inner[@]}" | median)
m_defer=$(printf '%s\n' "${defer_ms[@]}" | median)
m_rss=$(printf '%s\n' "${load_rss[@]}" | median)
m_drss=$(printf '%s\n' "${defer_rss[@]}" | median)

wc_rss=""
if [[ -x /usr/bin/time ]]; then
	wc_rss=$( { /usr/bin/time -f '%M' wc -l "$LOG" >/dev/null; } 2>&1 | tail -1)
fi

awk -v dir="$DIR" -v runs="$RUNS" -v logb="$LOG_BYTES" -v wc="$m_wc" -v load="$m_load" -v inner="$m_inner" \
	-v dfr="$m_defer" -v rss="$m_rss" -v drss="$m_drss" -v wcrss="$wc_rss" -v cpu="$(nproc 2>/dev/null || echo '?')" '
BEGIN {
	mib = logb / 1048576
	printf "big packet %s: 1,000-file 200,000-line diff, 2,000 findings, log %.0f MiB\n", dir, mib
	printf "median of %d runs, warm page cache, %s CPUs, wall time including process start\n\n", runs, cpu
	printf "%-34s %10s %12s %14s\n", "", "time (ms)", "x wc -l", "peak RSS (MiB)"
	printf "%-34s %10.1f %12s %14s\n", "wc -l <log>", wc, "1.00", (wcrss == "" ? "-" : sprintf("%.1f", wcrss / 1024))
	printf "%-34s %10.1f %12.2f %14.1f\n", "load, logs indexed (vetter check)", load, load / wc, rss / 1024
	printf "%-34s %10.1f %12.2f %14.1f\n", "load, index deferred (screens)", dfr, dfr / wc, drss / 1024
	printf "%-34s %10.1f %12.2f %14s\n", "log index alone (difference)", load - dfr, (load - dfr) / wc, "-"
	printf "\nindexed load inside the process (no start-up): %.1f ms\n", inner
	printf "peak RSS of the indexed load is %.2f%% of the log size\n", 100 * rss * 1024 / logb
}'
