#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# Test: tg-bench in a short run writes sane results: CSV files, positive
# medians, REQ latency at least the wire time, throughput within the wire
# limit, the switch-latency knob moving the wire stage, bad options refused;
# the simulation-speed rows, tg-sim with attached programs among them.
set -u
BIN=${TG_BENCH_BIN:-@TG_BENCH@}
SIM=${TG_SIM_BIN:-@TG_SIM@}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

[ -x "$BIN" ] || { echo "no tg-bench at $BIN"; exit 77; }

"$BIN" --link-bytes 0 > /dev/null 2>&1; [ $? -eq 2 ] || bad "--link-bytes 0 accepted"
"$BIN" --bench nosuch > /dev/null 2>&1; [ $? -eq 2 ] || bad "unknown benchmark accepted"
"$BIN" --help | grep -q -- "--switch-latency" || bad "--help lacks --switch-latency"

"$BIN" -b latency,throughput,size -n 300 -o "$out/a" > "$out/a.txt" 2>&1 || { cat "$out/a.txt"; bad "tg-bench failed"; }
"$BIN" -b latency -n 200 -s 50 -o "$out/b" > "$out/b.txt" 2>&1 || { cat "$out/b.txt"; bad "tg-bench -s 50 failed"; }

for f in assumptions.csv latency.csv latency_samples.csv throughput.csv size.csv size_fit.csv; do
	[ -s "$out/a/$f" ] || bad "$f missing or empty"
done

# field of a CSV row whose first column is key
field() { awk -F, -v k="$2" -v c="$3" '$1 == k { print $c; exit }' "$1"; }

# wire time of a REQ frame (38 header + 8 payload bytes, padded to 60, + 4
# FCS = 64 bytes, + 8 preamble) over two cables, at the run's link rate
# and cable latency (assumptions.csv)
bpc=$(awk -F, 'NR == 2 { print $2 }' "$out/a/assumptions.csv")
cable=$(awk -F, 'NR == 2 { print $4 }' "$out/a/assumptions.csv")
wire=$(( 2 * ((64 + 8 + bpc - 1) / bpc + cable) ))
total=$(field "$out/a/latency.csv" total 2)
wmed=$(field "$out/a/latency.csv" wire 2)
[ -n "$total" ] && [ "$total" -gt 0 ] || bad "REQ median latency '$total' not positive"
[ -n "$total" ] && [ "$total" -ge "$wire" ] || bad "REQ median latency $total below the wire time $wire"
[ -n "$wmed" ] && [ "$wmed" -ge "$wire" ] && [ "$wmed" -le $((wire + 8)) ] || bad "wire stage $wmed, model $wire"
p99=$(field "$out/a/latency.csv" total 3)
[ -n "$p99" ] && [ "$p99" -ge "$total" ] || bad "p99 $p99 below median $total"

wmed50=$(field "$out/b/latency.csv" wire 2)
[ -n "$wmed50" ] && [ -n "$wmed" ] && [ "$wmed50" -eq $((wmed + 50)) ] ||
	bad "50 cycles of switch latency moved the wire stage from $wmed to $wmed50"

# throughput: positive, and never above the wire limit
awk -F, 'NR > 1 { if ($3 <= 0 || $5 <= 0 || $5 > 100.5) { print "bad row: " $0; bad = 1 } }
	 END { exit bad }' "$out/a/throughput.csv" || bad "throughput out of range"
[ "$(wc -l < "$out/a/throughput.csv")" -eq 31 ] || bad "throughput.csv should have 30 rows"

# size: latency grows with size; positive fixed and per-byte costs
awk -F, 'NR > 2 && $3 < prev { bad = 1 } NR > 1 { prev = $3 } END { exit bad }' "$out/a/size.csv" ||
	bad "latency falls with size"
awk -F, 'NR == 2 { exit !($1 > 0 && $2 > 0) }' "$out/a/size_fit.csv" || bad "fit not positive"

# simulation speed: every row, with positive wall and CPU times
"$BIN" -b simspeed --sim-cycles 20000 --tg-sim "$SIM" -o "$out/c" > "$out/c.txt" 2>&1 ||
	{ cat "$out/c.txt"; bad "tg-bench -b simspeed failed"; }
for k in verilator-cluster verilator-sparse verilator-sparse-noff tgsim-attached; do
	grep -q "^$k," "$out/c/simspeed.csv" || bad "simspeed.csv has no $k row"
done
awk -F, 'NR > 1 && $1 !~ /pair/ { if ($3 <= 0 || $4 <= 0 || $7 <= 0 || $8 <= 0) { print "bad row: " $0; bad = 1 } }
	 END { exit bad }' "$out/c/simspeed.csv" || bad "simspeed rows out of range"

[ $fail -eq 0 ] && echo "test_bench: ok (REQ median $total cycles, wire $wire)"
exit $fail
