#!/usr/bin/env bash
# Measures opening a pull request against the round-trip floor: the fake
# GitHub (github/fakegh) adds LATENCY to every answer and serves a PR of 300
# comments in pages of 100; every figure is printed beside the floor (rounds ×
# LATENCY) and beside `vetter version` timed in the same run, the cost of
# starting the process at all on this machine now.
#
#   bench/pr.sh               # medians of 5 runs at 150 ms
#   RUNS=9 LATENCY=150ms bench/pr.sh
#
# Rows (targets at 150 ms a request):
#   cold summary      no cache: every request, packet written and summarised
#                     (2 rounds; target 2 × 150 + 60 ms over the reference)
#   warm summary      a read older than a minute (--refresh): one round of
#                     conditional requests, all 304 (target 150 + 50 ms)
#   fresh summary     a read less than a minute old: no request
#   warm first screen the workbench on a cached PR, process start to the
#                     overview (tuiprobe; target 50 ms over the reference)
#
# The in-process figures, with requests and rounds counted per run, are the
# Go benchmarks: go test -run '^$' -bench 'OpenPR|ReopenCached|RefreshPR|SummaryWarm' ./github/
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
LATENCY=${LATENCY:-150ms}
tmp=$(mktemp -d)
trap 'kill "$fake" 2>/dev/null || true; rm -rf "$tmp"' EXIT
go build -o "$tmp/vetter" .
go build -o "$tmp/fakegh" ./github/fakegh
"$tmp/fakegh" -addr 127.0.0.1:0 -page 100 -latency "$LATENCY" -comments 300 >"$tmp/url" 2>"$tmp/fake.err" &
fake=$!
for _ in $(seq 50); do [ -s "$tmp/url" ] && break; sleep 0.1; done
export GITHUB_API_URL=$(cat "$tmp/url") GITHUB_GRAPHQL_URL= GH_TOKEN=bench GH_HOST= \
	GH_CONFIG_DIR="$tmp/gh" XDG_CACHE_HOME="$tmp/cache" XDG_STATE_HOME="$tmp/state"
pr=acme/depot#42

ms() { local s; s=$(date +%s%N); "$@" >/dev/null 2>&1; echo $((($(date +%s%N) - s) / 1000000)); }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
times() { # label, setup, command...
	local label=$1 setup=$2; shift 2
	for _ in $(seq "$RUNS"); do eval "$setup"; ms "$@"; done | median
}

ref=$(times version : "$tmp/vetter" version)
cold=$(times cold 'rm -rf "$XDG_CACHE_HOME/vetter"' "$tmp/vetter" summary "$pr")
warm=$(times warm : "$tmp/vetter" summary "$pr" --refresh)
fresh=$(times fresh : "$tmp/vetter" summary "$pr")
lat=${LATENCY%ms}
printf '%-20s %8s %8s %10s %8s\n' "" "median" "floor" "- ref" "target"
printf '%-20s %6s ms %6s ms %8s ms\n' "reference (version)" "$ref" 0 0
printf '%-20s %6s ms %6s ms %8s ms %6s ms\n' "cold summary" "$cold" $((2 * lat)) $((cold - ref)) $((2 * lat + 60))
printf '%-20s %6s ms %6s ms %8s ms %6s ms\n' "warm summary" "$warm" "$lat" $((warm - ref)) $((lat + 50))
printf '%-20s %6s ms %6s ms %8s ms\n' "fresh summary" "$fresh" 0 $((fresh - ref))

probe=${VETTER_SHARED:-../shared}/tools/tuiprobe
[ -d "$probe" ] || probe=/work/shared/tools/tuiprobe
if [ -d "$probe" ]; then
	(cd "$probe" && go build -o "$tmp/tuiprobe" .)
	# Keep the refresh behind the screen from changing the cache the next
	# run reads: the PR does not change, so every run shows the same copy.
	out=$("$tmp/tuiprobe" -n "$RUNS" -expect 'Verdict' -- "$tmp/vetter" "$pr" 2>&1 || true)
	first=$(echo "$out" | grep -oE 'first[^0-9]*[0-9.]+ ?ms' | grep -oE '[0-9.]+' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
	printf '%-20s %6s ms %6s ms %8s ms %6s ms\n' "warm first screen" "${first:-?}" 0 "$(awk -v f="${first:-0}" -v r="$ref" 'BEGIN{printf "%d", f-r}')" 50
	echo "$out" | tail -3
fi
