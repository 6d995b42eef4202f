#!/usr/bin/env bash
# Measures vetter against its scale targets (first screen, keys, search, log) on the big synthetic
# packet (bench.Big: a 1,000-file 200,000-line diff, 2,000 findings, a 1 GiB
# log), running vetter and the reference tools (less, wc -l, grep -c) on the
# same files in the same run, and prints one table.
#
#   bench/perf.sh                  # medians of 5 runs, 160x48 terminal
#   RUNS=9 bench/perf.sh
#   VETTER_BENCH_DIR=/data/big VETTER_SHARED=/path/to/shared bench/perf.sh
#
# Screens are timed with tuiprobe (shared/tools/tuiprobe beside the clone, or
# $VETTER_SHARED/tools/tuiprobe): it runs the program in a pseudo-terminal and
# reports the time from process start to the first screen matching a pattern
# ("first"), from typing keys to the screen matching another ("then"), and the
# peak RSS. Every probe runs once untimed first (warm page cache, warm binary),
# then RUNS times; the table shows medians. Nothing drops the page cache: that
# needs root and would measure the disk, not vetter.
#
# Keys are typed once the workbench has settled: the first screen is up and
# the background work that follows it (indexing the 1 GiB log, which the
# status line reports with "logs indexed", and the terminal's colour reply)
# is over, as it is by the time a person has read the screen. One row types
# a key right after the first screen, during that work, for comparison.
#
# Idle CPU: vetter is started under tuiprobe with a pattern that never matches
# after the first screen, so it sits untouched; once its background work is
# over (the log index), the script reads its CPU time twice, IDLE_SECS apart:
# utime+stime from /proc/PID/stat (clock ticks), the run time of all its
# threads from /proc/PID/task/*/schedstat (ns), and their context switches
# from /proc/PID/task/*/status (a ticking timer shows there even when it costs
# less than a clock tick). Idle means no tick, under 1 ms, under 10 switches.
set -euo pipefail

cd "$(dirname "$0")/.."
REPO=$(pwd)
DIR=${VETTER_BENCH_DIR:-${TMPDIR:-/tmp}/vetter-bench-big}
RUNS=${RUNS:-5}
W=${W:-160}
H=${H:-48}
IDLE_SECS=${IDLE_SECS:-3}
SHARED=${VETTER_SHARED:-$(cd "$REPO/.." && pwd)/shared}
PROBE_SRC="$SHARED/tools/tuiprobe"
LOGREL=validation/logs/2026-01-01T00-00-00.000Z-bash-big0.log
LOG="$DIR/$LOGREL"
MIN_LOG=$((1 << 30))
NEEDLE=NEEDLE-NEAR-THE-END

size_of() { stat -c %s "$1" 2>/dev/null || stat -f %z "$1"; }

if [[ ! -d "$PROBE_SRC" ]]; then
	echo "perf.sh: tuiprobe not found at $PROBE_SRC (set VETTER_SHARED to the shared folder)" >&2
	exit 2
fi
for tool in less wc grep awk; do
	command -v "$tool" >/dev/null || { echo "perf.sh: $tool is needed" >&2; exit 2; }
done
if [[ ! -f "$LOG" ]] || (($(size_of "$LOG") < MIN_LOG)); then
	echo "generating the big packet in $DIR ..." >&2
	go run ./bench/gen -out "$DIR" >/dev/null
fi

BIN=$(mktemp -d)
trap 'rm -rf "$BIN"' EXIT
go build -o "$BIN/vetter" .
(cd "$PROBE_SRC" && go build -o "$BIN/tuiprobe" .)
VETTER=("$BIN/vetter")
LINES=$(wc -l <"$LOG" | tr -d ' ')
LAST=$LINES # the exit line "[exit 0 after 12.3 s]"
MID=$((LINES / 2))

# ---- measuring ---------------------------------------------------------------

P_FIRST="" P_THEN="" P_RSS="" P_ERR=""

# probe TUIPROBE-ARGS... -- COMMAND...: one untimed run, then RUNS; sets
# P_FIRST and P_THEN (median ms) and P_RSS (median KiB), or P_ERR.
probe() {
	local out rc=0
	"$BIN/tuiprobe" -n 1 -w "$W" -h "$H" "$@" >/dev/null 2>&1 || true
	out=$("$BIN/tuiprobe" -n "$RUNS" -w "$W" -h "$H" "$@" 2>&1) || rc=$?
	P_FIRST="" P_THEN="" P_RSS="" P_ERR=""
	if ((rc != 0)); then
		P_ERR=$(grep -m1 '^run [0-9]*: ' <<<"$out" | sed 's/^run [0-9]*: //' || echo "tuiprobe failed")
		echo "probe failed: $*" >&2
		echo "$out" | tail -n 45 >&2
		return 0
	fi
	local s
	s=$(grep '^summary:' <<<"$out")
	P_FIRST=$(sed -n 's/.*first median \([0-9.]*\)ms.*/\1/p' <<<"$s")
	P_THEN=$(sed -n 's/.*then median \([0-9.]*\)ms.*/\1/p' <<<"$s")
	P_RSS=$(sed -n 's/.*peak-rss median \([0-9]*\) KiB.*/\1/p' <<<"$s")
}

now_ns() { date +%s%N; }
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# wall CMD...: median wall time in ms over RUNS runs, after one untimed run.
wall() {
	local t0 t1 i
	"$@" >/dev/null || true
	for ((i = 0; i < RUNS; i++)); do
		t0=$(now_ns)
		"$@" >/dev/null || true
		t1=$(now_ns)
		awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f\n", (b - a) / 1e6 }'
	done | median
}

# cpu PID: "ticks ns switches" — utime+stime, thread run time, context switches.
cpu() {
	local pid=$1 ticks ns sw
	ticks=$(sed 's/^.*) //' "/proc/$pid/stat" | awk '{ print $12 + $13 }')
	ns=$(cat /proc/"$pid"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { print s + 0 }')
	sw=$(cat /proc/"$pid"/task/*/status 2>/dev/null | awk '/ctxt_switches/ { s += $2 } END { print s + 0 }')
	echo "$ticks $ns $sw"
}

# idle SETTLE EXPECT VETTER-ARGS...: starts vetter, waits for EXPECT and SETTLE
# seconds more, then prints its CPU use over IDLE_SECS: "ticks ms switches".
idle() {
	local settle=$1 expect=$2 tp vp a b i
	shift 2
	"$BIN/tuiprobe" -n 1 -w "$W" -h "$H" -timeout "$((settle + IDLE_SECS + 10))s" \
		-expect "$expect" -then 'never-matches-this-pattern-§' -- "${VETTER[@]}" "$@" >/dev/null 2>&1 &
	tp=$!
	vp=""
	for ((i = 0; i < 100; i++)); do
		vp=$(pgrep -P "$tp" 2>/dev/null | head -n 1 || true)
		[[ -n "$vp" ]] && break
		sleep 0.05
	done
	if [[ -z "$vp" ]]; then
		wait "$tp" || true
		echo "- - -"
		return
	fi
	sleep "$settle"
	a=$(cpu "$vp")
	sleep "$IDLE_SECS"
	b=$(cpu "$vp")
	wait "$tp" || true
	awk -v a="$a" -v b="$b" 'BEGIN { split(a, x, " "); split(b, y, " "); printf "%d %.1f %d\n", y[1] - x[1], (y[2] - x[2]) / 1e6, y[3] - x[3] }'
}

# ---- the table ---------------------------------------------------------------

ROWS=()
# row WHAT TARGET MEASURED REFERENCE RATIO RESULT
row() { ROWS+=("$1"$'\t'"$2"$'\t'"$3"$'\t'"$4"$'\t'"$5"$'\t'"$6"); }

# abs WHAT LIMIT_MS MEASURED_MS: a row against an absolute limit.
abs() {
	local what=$1 limit=$2 m=$3
	if [[ -z "$m" ]]; then
		row "$what" "≤ $limit ms" "failed: $P_ERR" "-" "-" "FAIL"
		return
	fi
	row "$what" "≤ $limit ms" "$m ms" "-" "$(awk -v m="$m" -v l="$limit" 'BEGIN { printf "%.2f", m / l }')" \
		"$(awk -v m="$m" -v l="$limit" 'BEGIN { print (m <= l) ? "pass" : "FAIL" }')"
}

# rel WHAT FACTOR MEASURED_MS REFNAME REF_MS: a row against a reference tool.
rel() {
	local what=$1 f=$2 m=$3 name=$4 ref=$5
	if [[ -z "$m" ]]; then
		row "$what" "≤ $f × $name" "failed: $P_ERR" "$name $ref ms" "-" "FAIL"
		return
	fi
	row "$what" "≤ $f × $name" "$m ms" "$name $ref ms" "$(awk -v m="$m" -v r="$ref" 'BEGIN { printf "%.2f", m / r }')" \
		"$(awk -v m="$m" -v r="$ref" -v f="$f" 'BEGIN { print (m <= f * r) ? "pass" : "FAIL" }')"
}

# alt FROM TO: a regexp alternation of the numbers FROM..TO, "(5|6|7)".
alt() { echo "($(seq "$1" "$2" | paste -sd '|' -))"; }

esc_re() { sed 's/[][\.*^$(){}+?|/]/\\&/g' <<<"$1"; }

echo "measuring: $RUNS runs per probe, ${W}x${H}, packet $DIR" >&2

# Overview.
probe -expect '(?s)BENCH-1.*Verdict +pass' -- "${VETTER[@]}" "$DIR"
abs "overview: first screen" 100 "$P_FIRST"

# Diff: first screen at a cited line, then keys from there.
DIFF_AT=pkg/mod000/file0000.go:3
DIFF_FIRST='file 1/1000 pkg/mod000/file0000\.go · line 3 '
probe -expect "$DIFF_FIRST" -- "${VETTER[@]}" --open "$DIFF_AT" "$DIR"
abs "diff: first screen (--open $DIFF_AT)" 100 "$P_FIRST"
SETTLED='(?s)%s.*logs indexed'
diff_key() { # WHAT KEYS THEN [OPEN FIRST]
	# shellcheck disable=SC2059
	probe -expect "$(printf "$SETTLED" "${5:-$DIFF_FIRST}")" -keys "$2" -then "$3" -- "${VETTER[@]}" --open "${4:-$DIFF_AT}" "$DIR"
	abs "$1" 16 "$P_THEN"
}
probe -expect "$DIFF_FIRST" -keys 'j' -then 'finding 1/2000' -- "${VETTER[@]}" --open "$DIFF_AT" "$DIR"
abs "diff: j right after the first screen, log indexing" 16 "$P_THEN"
diff_key "diff: next hunk ]" ']' 'hunk 2/1000 '
diff_key "diff: next file }" '}' 'file 2/1000 '
diff_key "diff: last file G" 'G' 'file 1000/1000 '
diff_key "diff: line down j (top)" 'j' 'finding 1/2000'
diff_key "diff: page down (top)" '\x1b[6~' 'line [0-9]{2,} '
DIFF_MID=pkg/mod015/file0500.go:100
DIFF_MID_FIRST='file 501/1000 pkg/mod015/file0500\.go · line 100 '
diff_key "diff: line down j (middle)" 'j' 'file0500\.go · (old )?line 101 ' "$DIFF_MID" "$DIFF_MID_FIRST"
diff_key "diff: page down (middle)" '\x1b[6~' "file0500\\.go · (old )?line $(alt 105 150) |file 502/1000" "$DIFF_MID" "$DIFF_MID_FIRST"

# Findings.
FIND_FIRST='finding 1/2000 '
probe -expect "$FIND_FIRST" -- "${VETTER[@]}" --open 'review.md#1' "$DIR"
abs "findings: first screen (--open review.md#1)" 50 "$P_FIRST"
probe -expect "(?s)$FIND_FIRST.*logs indexed" -keys 'j' -then 'finding 2/2000 ' -- "${VETTER[@]}" --open 'review.md#1' "$DIR"
abs "findings: move the selection j" 16 "$P_THEN"

# Log: first screen against less.
FIRST_LINE='INFO  test case 1 step ok'
probe -expect "$FIRST_LINE" -- less "$LOG"
less_first=$P_FIRST
probe -expect "$FIRST_LINE" -- "${VETTER[@]}" --open "$LOGREL:1" "$DIR"
rel "log: first screen of the 1 GiB log" 3 "$P_FIRST" "less" "$less_first"

# Log: G to the exit line with its number, against wc -l; less -N for scale.
wc_ms=$(wall wc -l "$LOG")
EXIT_RE="$LAST $(esc_re '[exit 0 after 12.3 s]')"
probe -expect "$FIRST_LINE" -keys 'G' -then "$EXIT_RE" -- "${VETTER[@]}" --open "$LOGREL:1" "$DIR"
g_first=$P_FIRST g_then=$P_THEN g_rss=$P_RSS g_err=$P_ERR
rel "log: G to the last line, numbered" 2.5 "$g_then" "wc -l" "$wc_ms"
probe -timeout 300s -expect "$FIRST_LINE" -keys 'G' -then "$EXIT_RE" -- less -N "$LOG"
if [[ -n "$P_THEN" ]]; then
	row "less -N: G to the last line (scale)" "-" "$P_THEN ms" "wc -l $wc_ms ms" \
		"$(awk -v m="$P_THEN" -v r="$wc_ms" 'BEGIN { printf "%.2f", m / r }')" "-"
else
	row "less -N: G to the last line (scale)" "-" "failed: $P_ERR" "wc -l $wc_ms ms" "-" "-"
fi

# Log: search near the end against grep -c, once the index is complete (so
# the search alone is timed, as grep is); progress shown; esc stops it.
grep_ms=$(wall grep -c "$NEEDLE" "$LOG")
INDEXED="line 1/$LINES "
probe -expect "$INDEXED" -keys "/$NEEDLE\\r" -then "$((LAST - 1)) $NEEDLE" -- "${VETTER[@]}" --open "$LOGREL:1" "$DIR"
s_rss=$P_RSS
rel "log: search for $NEEDLE" 2 "$P_THEN" "grep -c" "$grep_ms"
probe -expect "$INDEXED" -keys "/$NEEDLE\\r" -then 'searching [0-9]+% \(esc stops\)' -- "${VETTER[@]}" --open "$LOGREL:1" "$DIR"
if [[ -n "$P_THEN" ]]; then
	row "log: search progress shown" "shown" "after $P_THEN ms" "-" "-" "pass"
else
	row "log: search progress shown" "shown" "never: $P_ERR" "-" "-" "FAIL"
fi
"$BIN/tuiprobe" -n 1 -w "$W" -h "$H" -expect "$INDEXED" -keys "/$NEEDLE\\r\\x1b" -then '· stopped|stopped ·|stopped$' \
	-screen "$BIN/esc.txt" -- "${VETTER[@]}" --open "$LOGREL:1" "$DIR" >"$BIN/esc.out" 2>&1 || true
if grep -q '^summary: first' "$BIN/esc.out" && ! grep -q "$((LAST - 1)) $NEEDLE" "$BIN/esc.txt"; then
	row "log: esc stops the search" "stops" "stopped after $(sed -n 's/.*then median \([0-9.]*\)ms.*/\1/p' "$BIN/esc.out") ms" "-" "-" "pass"
else
	row "log: esc stops the search" "stops" "not stopped" "-" "-" "FAIL"
fi

# Log: scrolling a line and a page at the top, the middle and the end.
log_key() { # WHAT LINE KEYS THEN
	local first="line $2/$LINES "
	probe -expect "$first" -keys "$3" -then "$4" -- "${VETTER[@]}" --open "$LOGREL:$2" "$DIR"
	abs "$1" 16 "$P_THEN"
}
log_key "log: line down j (top)" 1 'j' 'line 2/'
log_key "log: page down (top)" 1 '\x1b[6~' 'line [0-9]{2,}/'
log_key "log: line down j (middle)" "$MID" 'j' "line $((MID + 1))/"
log_key "log: page down (middle)" "$MID" '\x1b[6~' "line $(alt $((MID + 5)) $((MID + 120)))/"
log_key "log: line up k (end)" "$LAST" 'k' "line $((LAST - 1))/"
log_key "log: page up (end)" "$LAST" '\x1b[5~' "line $(alt $((LAST - 120)) $((LAST - 5)))/"

# Memory: peak RSS over the G run (the whole log indexed) and the search.
for pair in "after G (log indexed):$g_rss" "after the search:$s_rss"; do
	kib=${pair##*:}
	if [[ -n "$kib" ]]; then
		mib=$(awk -v k="$kib" 'BEGIN { printf "%.1f", k / 1024 }')
		row "peak RSS ${pair%%:*}" "≤ 150 MiB" "$mib MiB" "-" "$(awk -v m="$mib" 'BEGIN { printf "%.2f", m / 150 }')" \
			"$(awk -v m="$mib" 'BEGIN { print (m <= 150) ? "pass" : "FAIL" }')"
	else
		row "peak RSS ${pair%%:*}" "≤ 150 MiB" "failed" "-" "-" "FAIL"
	fi
done

# Idle: once the log is indexed (twice the time G took, at least 3 s, after
# start), nothing may run.
settle=$(awk -v f="${g_first:-1000}" -v t="${g_then:-1000}" 'BEGIN { s = int(2 * (f + t) / 1000) + 1; print (s < 3) ? 3 : s }')
for where in "overview" "log"; do
	if [[ $where == overview ]]; then
		read -r ticks ms sw < <(idle "$settle" '(?s)Verdict +pass.*logs indexed' "$DIR")
	else
		read -r ticks ms sw < <(idle "$settle" "$INDEXED" --open "$LOGREL:1" "$DIR")
	fi
	if [[ $ticks == - ]]; then
		row "idle CPU, $where, ${IDLE_SECS} s" "none" "failed to start" "-" "-" "FAIL"
		continue
	fi
	row "idle CPU, $where, ${IDLE_SECS} s" "none" "$ticks ticks, $ms ms, $sw switches" "-" "-" \
		"$(awk -v t="$ticks" -v m="$ms" -v s="$sw" 'BEGIN { print (t == 0 && m < 1 && s < 10) ? "pass" : "FAIL" }')"
done

# ---- print ------------------------------------------------------------------

mem=$(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null || echo "?")
model=$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || echo "?")
printf 'vetter %s on the big packet (%s lines of diff, 2,000 findings, log %s lines, %.2f GiB)\n' \
	"$(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo '?')" "200,000" "$LINES" "$(awk -v b="$(size_of "$LOG")" 'BEGIN { print b / 1073741824 }')"
printf 'machine: %s CPUs, %s, %s; %s; median of %d runs, %dx%d, warm cache\n\n' \
	"$(nproc 2>/dev/null || echo '?')" "$model" "$mem" "$(date -u +%Y-%m-%d)" "$RUNS" "$W" "$H"
# The table in markdown, padded by characters (≤ and × are one each; mawk
# would count bytes).
export LC_ALL=C.UTF-8
table=("what"$'\t'"target"$'\t'"measured"$'\t'"reference"$'\t'"ratio"$'\t'"result" "${ROWS[@]}")
widths=(0 0 0 0 0 0)
for r in "${table[@]}"; do
	IFS=$'\t' read -r -a cells <<<"$r"
	for i in "${!cells[@]}"; do
		((${#cells[i]} > widths[i])) && widths[i]=${#cells[i]}
	done
done
pad() { local s=$1 n=$2; printf '%s%*s' "$s" $((n - ${#s})) ''; }
for j in "${!table[@]}"; do
	IFS=$'\t' read -r -a cells <<<"${table[j]}"
	line="|"
	for i in "${!widths[@]}"; do line+=" $(pad "${cells[i]:-}" "${widths[i]}") |"; done
	echo "$line"
	if ((j == 0)); then
		line="|"
		for i in "${!widths[@]}"; do line+="$(printf '%*s' $((widths[i] + 2)) '' | tr ' ' '-')|"; done
		echo "$line"
	fi
done
