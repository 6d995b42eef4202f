#!/usr/bin/env bash
# measure.sh measures what each patched copy buys, against a build of the
# same tree with that copy's replace directive removed from go.mod:
#
#   bubbletea  idle CPU of the workbench left alone (ticks, run time, context
#              switches over IDLE_SECS, read as bench/perf.sh reads them), and
#              the time from typing j on the findings screen to its frame;
#   chroma     package initialisation (sum of GODEBUG=inittrace=1) and the
#              wall time of `vetter version`.
#
#   third_party/measure.sh            # RUNS=5 idle runs, 21 inits, 31 walls
#   VETTER_SHARED=/path/to/shared third_party/measure.sh
#
# It needs tuiprobe (shared/tools/tuiprobe beside the clone, as perf.sh) and
# the module proxy for the released modules. Numbers from a loaded machine
# say little about latency; the switch and allocation counts hold anyway.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd)
RUNS=${RUNS:-5}
IDLE_SECS=${IDLE_SECS:-3}
SHARED=${VETTER_SHARED:-$(cd "$REPO/.." && pwd)/shared}

W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
(cd "$SHARED/tools/tuiprobe" && go build -o "$W/tuiprobe" .)
go build -o "$W/vetter-patched" .
# variant NAME MODULE: this tree without MODULE's replace directive.
variant() {
	mkdir -p "$W/src-$1"
	git ls-files -z | xargs -0 cp --parents -t "$W/src-$1/"
	sed -i "\\|^replace $2 =>|d" "$W/src-$1/go.mod"
	(cd "$W/src-$1" && GOFLAGS=-mod=mod go build -o "$W/vetter-$1" .)
}
variant released-bubbletea charm.land/bubbletea/v2
variant released-chroma github.com/alecthomas/chroma/v2
"$W/vetter-patched" sample "$W/p" >/dev/null

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
cpu() {
	local pid=$1 ticks ns sw
	ticks=$(sed 's/^.*) //' "/proc/$pid/stat" | awk '{ print $12 + $13 }')
	ns=$(cat /proc/"$pid"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { print s + 0 }')
	sw=$(cat /proc/"$pid"/task/*/status 2>/dev/null | awk '/ctxt_switches/ { s += $2 } END { print s + 0 }')
	echo "$ticks $ns $sw"
}
idle() {
	"$W/tuiprobe" -n 1 -w 160 -h 48 -timeout "$((IDLE_SECS + 20))s" -expect Verdict \
		-then 'never-matches-this-pattern-§' -- "$W/$1" "$W/p" >/dev/null 2>&1 &
	local tp=$! vp="" i a b
	for ((i = 0; i < 100; i++)); do
		vp=$(pgrep -P "$tp" 2>/dev/null | head -n 1 || true)
		[[ -n "$vp" ]] && break
		sleep 0.05
	done
	[[ -z "$vp" ]] && { echo "did not start"; return; }
	sleep 3 # the first screen's background work is over well before
	a=$(cpu "$vp")
	sleep "$IDLE_SECS"
	b=$(cpu "$vp")
	kill "$tp" 2>/dev/null || true
	wait "$tp" 2>/dev/null || true
	awk -v a="$a" -v b="$b" 'BEGIN { split(a, x, " "); split(b, y, " "); printf "%d ticks, %.1f ms, %d switches\n", y[1] - x[1], (y[2] - x[2]) / 1e6, y[3] - x[3] }'
}

echo "== Bubble Tea: idle over ${IDLE_SECS} s, ${RUNS} runs"
for bin in vetter-patched vetter-released-bubbletea; do
	for ((r = 0; r < RUNS; r++)); do echo "$bin: $(idle "$bin")"; done
done
echo "== Bubble Tea: j on the findings screen"
for bin in vetter-patched vetter-released-bubbletea; do
	echo "$bin: $("$W/tuiprobe" -n 31 -w 160 -h 48 -expect 'finding 1/5' -keys j -then 'finding 2/5' \
		-- "$W/$bin" --open 'review.md#1' "$W/p" 2>&1 | grep '^summary')"
done
echo "== Chroma: start-up of vetter version"
for bin in vetter-patched vetter-released-chroma; do
	"$W/$bin" version >/dev/null
	for ((i = 0; i < 21; i++)); do
		GODEBUG=inittrace=1 "$W/$bin" version 2>&1 >/dev/null |
			awk '/^init / { ms += $5; b += $8; if ($2 ~ /alecthomas\/chroma/) c += $5 } END { printf "%.2f %d %.2f\n", ms, b, c }'
	done >"$W/init"
	wall=$(for ((i = 0; i < 31; i++)); do
		s=$(date +%s%N)
		"$W/$bin" version >/dev/null
		echo $(($(date +%s%N) - s))
	done | median)
	printf '%s: init %s ms (chroma %s ms), %s bytes allocated; wall %.1f ms (medians)\n' "$bin" \
		"$(cut -d' ' -f1 "$W/init" | median)" "$(cut -d' ' -f3 "$W/init" | median)" \
		"$(cut -d' ' -f2 "$W/init" | median)" "$(awk -v n="$wall" 'BEGIN { print n / 1e6 }')"
done
