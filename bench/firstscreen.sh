#!/usr/bin/env bash
# Times the big packet's first screen (process start to the overview, or to
# the walk it opens on when the gate needs a person: both show the verdict)
# for a reference build and for this checkout in the same run, alternating
# the two so that a machine shared with other jobs slows both alike, and
# prints each median and their ratio. The reference is the previous release
# unless REF names another commit.
#
#   bench/firstscreen.sh                 # REF=f29fc23, 5 rounds of 5 runs, 160x48
#   REF=<commit> ROUNDS=9 bench/firstscreen.sh
#   VETTER_BENCH_DIR=/data/big VETTER_SHARED=/path/to/shared bench/firstscreen.sh
#
# The target is 100 ms for this build; the ratio is what holds from one
# machine (or one load of it) to another. The last table line times
# `vetter version` for both builds (reference, then this build): the process
# start and package initialisers alone, the part of a first screen that
# vetter's own code does not reach.
set -euo pipefail

cd "$(dirname "$0")/.."
REPO=$(pwd)
REF=${REF:-f29fc23}
DIR=${VETTER_BENCH_DIR:-${TMPDIR:-/tmp}/vetter-bench-big}
ROUNDS=${ROUNDS:-5}
RUNS=${RUNS:-5}
W=${W:-160}
H=${H:-48}
SHARED=${VETTER_SHARED:-$(cd "$REPO/.." && pwd)/shared}
PROBE_SRC="$SHARED/tools/tuiprobe"
LOG="$DIR/validation/logs/2026-01-01T00-00-00.000Z-bash-big0.log"
FIRST='(?s)BENCH-1.*Verdict +pass'

if [[ ! -d "$PROBE_SRC" ]]; then
	echo "firstscreen.sh: tuiprobe not found at $PROBE_SRC (set VETTER_SHARED to the shared folder)" >&2
	exit 2
fi
if [[ ! -f "$LOG" ]]; then
	echo "generating the big packet in $DIR ..." >&2
	go run ./bench/gen -out "$DIR" >/dev/null
fi

BIN=$(mktemp -d)
cleanup() {
	git -C "$REPO" worktree remove --force "$BIN/ref" >/dev/null 2>&1 || true
	rm -rf "$BIN"
}
trap cleanup EXIT
git -C "$REPO" worktree add --detach "$BIN/ref" "$REF" >/dev/null 2>&1
(cd "$BIN/ref" && go build -o "$BIN/vetter-ref" .)
go build -o "$BIN/vetter-new" .
(cd "$PROBE_SRC" && go build -o "$BIN/tuiprobe" .)

# first BINARY: the median first-screen time in ms over RUNS runs.
first() {
	"$BIN/tuiprobe" -n "$RUNS" -w "$W" -h "$H" -expect "$FIRST" -- "$1" "$DIR" 2>&1 |
		sed -n 's/^summary: first median \([0-9.]*\)ms.*/\1/p'
}
# startup BINARY: the median wall time in ms of RUNS runs of `BINARY version`,
# which ends before it reads anything: the process start and the package
# initialisers every first screen pays before vetter's own code runs.
startup() {
	local k t0 t1
	for ((k = 0; k < RUNS; k++)); do
		t0=$(date +%s%N)
		"$1" version >/dev/null
		t1=$(date +%s%N)
		awk -v d=$((t1 - t0)) 'BEGIN { printf "%.1f\n", d / 1e6 }'
	done | median
}
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# One untimed run of each (warm page cache and binaries).
"$BIN/tuiprobe" -n 1 -w "$W" -h "$H" -expect "$FIRST" -- "$BIN/vetter-ref" "$DIR" >/dev/null 2>&1 || true
"$BIN/tuiprobe" -n 1 -w "$W" -h "$H" -expect "$FIRST" -- "$BIN/vetter-new" "$DIR" >/dev/null 2>&1 || true

refs=() news=() ratios=() srefs=() snews=()
for ((i = 0; i < ROUNDS; i++)); do
	r=$(first "$BIN/vetter-ref")
	n=$(first "$BIN/vetter-new")
	if [[ -z "$r" || -z "$n" ]]; then
		echo "firstscreen.sh: a probe failed (reference '$r', new '$n')" >&2
		exit 1
	fi
	refs+=("$r") news+=("$n")
	srefs+=("$(startup "$BIN/vetter-ref")") snews+=("$(startup "$BIN/vetter-new")")
	ratios+=("$(awk -v n="$n" -v r="$r" 'BEGIN { printf "%.2f", n / r }')")
	echo "round $((i + 1)): reference $r ms, new $n ms" >&2
done
m_ref=$(printf '%s\n' "${refs[@]}" | median)
m_new=$(printf '%s\n' "${news[@]}" | median)
m_ratio=$(printf '%s\n' "${ratios[@]}" | median)
printf 'big packet first screen, %sx%s, %d rounds of %d runs, %s CPUs, load %s\n' "$W" "$H" "$ROUNDS" "$RUNS" \
	"$(nproc 2>/dev/null || echo '?')" "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
printf '%-28s %10s\n' "" "median ms"
printf '%-28s %10s\n' "reference $(git -C "$REPO" rev-parse --short "$REF")" "$m_ref"
printf '%-28s %10s\n' "this build $(git -C "$REPO" rev-parse --short HEAD)" "$m_new"
printf '%-28s %10s %10s\n' "start-up alone (version)" "$(printf '%s\n' "${srefs[@]}" | median)" "$(printf '%s\n' "${snews[@]}" | median)"
printf 'ratio new / reference (median of rounds): %s; target: new <= 100 ms: %s\n' "$m_ratio" \
	"$(awk -v m="$m_new" 'BEGIN { print (m <= 100) ? "pass" : "FAIL" }')"
