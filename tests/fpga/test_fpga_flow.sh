#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# Checks of the FPGA flow that need no FPGA tools: the programming command
# that `make -C fpga prog` forms, the sources the builds read, the frames the host tool builds, the verdicts of the build report (fits,
# timing, EXPLORE), and the baseline comparison. Exit 0 pass, 1 fail.
set -u
cd "$(dirname "$0")/../.."
fail=0 checks=0
check() { # check NAME EXPECTED ACTUAL
	checks=$((checks + 1))
	if [ "$2" != "$3" ]; then
		echo "FAIL $1: expected '$2', got '$3'"
		fail=$((fail + 1))
	fi
}
PY=${PYTHON:-python3}
# the checks expect the defaults: ignore variables of an enclosing make
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES BUILD
M="make -s --no-print-directory -C fpga"

# ---- programming command lines
check "prog sram" "openFPGALoader --cable ft232 --write-sram ../build/fpga/colorlight_5a75b/tg_colorlight_5a75b.bit" \
	"$($M prog BOARD=colorlight_5a75b DRY_RUN=1)"
check "prog flash" "openFPGALoader --cable ft232 --write-flash ../build/fpga/colorlight_5a75b/tg_colorlight_5a75b.bit" \
	"$($M prog BOARD=colorlight_5a75b DRY_RUN=1 FLASH=1)"
check "prog cable" "openFPGALoader --cable dirtyJtag --write-sram /tmp/b/colorlight_5a75b/tg_colorlight_5a75b.bit" \
	"$($M prog BOARD=colorlight_5a75b DRY_RUN=1 CABLE=dirtyJtag BUILD=/tmp/b)"
check "boards" "colorlight_5a75b" "$($M boards)"
$M boards BOARD=nosuch > /dev/null 2>&1
check "unknown board refused" "2" "$?"

# ---- the Colorlight build reads every source once, in one read_verilog
# per synthesis (the first, and the one with ABC's other script)
b=$(mktemp -d)
check "colorlight sources" "2 0 0" "$($M -n synth BOARD=colorlight_5a75b BUILD="$b" | grep -c read_verilog) $(for n in 1 2; do $M -n synth BOARD=colorlight_5a75b BUILD="$b" | grep read_verilog | sed -n "${n}p" | tr ' ' '\n' | grep '\.v' | sort | uniq -d | wc -l; done | tr '\n' ' ' | sed 's/ $//')"
rm -rf "$b"

# ---- host tool: the request frame it builds (offsets from include/tg/tg_hw.h)
f=$(fpga/tools/tg_bridge.py none --node 0x0102 --dump mem-write 0x1238 0x1122334455667788 0x0f)
def() { printf '%d' "$(awk -v n="TG_$1" '$2 == n {print $3}' include/tg/tg_hw.h | sed 's/ULL$//')"; }
field() { echo "${f:$((2 * $1)):$((2 * $2))}"; }
check "tool length" "$(( 2 * $(def BRIDGE_FRAME_BYTES) ))" "${#f}"
check "tool dst" "025447010102" "$(field 0 6)"
check "tool type" "$(printf '%04x' "$(def BRIDGE_ETHERTYPE)")" "$(field 12 2)"
check "tool op" "$(printf '%02x' "$(def BRIDGE_OP_MEM_WRITE)")" "$(field "$(def BRIDGE_OFF_OP)" 1)"
check "tool addr" "0000000000001238" "$(field "$(def BRIDGE_OFF_ADDR)" 8)"
check "tool strb" "0f" "$(field "$(def BRIDGE_OFF_STRB)" 1)"
check "tool data" "8877665544332211" "$(field "$(def BRIDGE_OFF_DATA)" 8)"
f=$(fpga/tools/tg_bridge.py none --dump bar-burst 0x1040 1 2 3 4 5 6 7 0x0807060504030201)
check "tool burst length" "$(( 2 * ($(def BRIDGE_OFF_WORDS) + 64) ))" "${#f}"
check "tool burst op" "$(printf '%02x' "$(def BRIDGE_OP_BAR_BURST)")" "$(field "$(def BRIDGE_OFF_OP)" 1)"
check "tool burst words" "08" "$(field "$(def BRIDGE_OFF_STRB)" 1)"
check "tool burst strobes" "ffffffffffffffff" "$(field "$(def BRIDGE_OFF_DATA)" 8)"
check "tool burst last word" "0102030405060708" "$(field $(( $(def BRIDGE_OFF_WORDS) + 56 )) 8)"

# ---- report verdicts on made-up tool output
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
util='"utilization": {"TRELLIS_COMB": {"used": 1000, "available": 24288}, "TRELLIS_FF": {"used": 500, "available": 24288}, "DP16KD": {"used": 8, "available": 56}}'
echo 12 > "$d/synth.secs"; echo 34 > "$d/pnr.secs"
printf '   Number of cells: 10\n     LUT4 900\n     TRELLIS_FF 500\n' > "$d/synth.stat"
rep() { $PY fpga/scripts/report.py --board colorlight_5a75b --out "$d" --req-mhz 125 --explore "$1" \
	--params "P=1" > "$d/out.txt"; echo $?; }

echo "{$util, \"fmax\": {\"clk\": {\"achieved\": 131.5, \"constraint\": 125.0}}}" > "$d/pnr.json"
check "pass" "0" "$(rep 0)"
check "pass verdict" "verdict: PASS" "$(grep '^verdict' "$d/report.txt")"
check "summary luts" "1000 900 8" "$($PY -c "import json; s=json.load(open('$d/summary.json')); print(s['logic_used'], s['synth_luts'], s['bram_used'])")"
check "default ABC script" "synthesis: 900 LUT4, 500 flip-flops (12 s)" "$(grep '^synthesis' "$d/report.txt")"
echo scripts/abc9_retry.abc > "$d/synth.abc"; rep 0 > /dev/null
check "retried ABC script" "synthesis: 900 LUT4, 500 flip-flops (12 s), ABC script scripts/abc9_retry.abc" \
	"$(grep '^synthesis' "$d/report.txt")"
rm "$d/synth.abc"

echo "{$util, \"fmax\": {\"clk\": {\"achieved\": 101.0, \"constraint\": 125.0}}}" > "$d/pnr.json"
check "slow fails" "1" "$(rep 0)"
check "slow verdict" "verdict: FAIL: timing not met (clk)" "$(grep '^verdict' "$d/report.txt")"
check "slow explores" "0" "$(rep 1)"

rm "$d/pnr.json"; touch "$d/pnr.failed"
printf 'Info: Device utilisation:\nInfo: \t          TRELLIS_COMB: 30000/24288   123%%\n' > "$d/pnr.log"
check "misfit fails" "1" "$(rep 0)"
check "misfit verdict" "verdict: FAIL: does not fit (TRELLIS_COMB)" "$(grep '^verdict' "$d/report.txt")"
check "misfit explores" "0" "$(rep 1)"

# ---- baseline comparison
rm -f "$d/pnr.failed" "$d/pnr.log"
echo "{$util, \"fmax\": {\"clk\": {\"achieved\": 130.0, \"constraint\": 125.0}}}" > "$d/pnr.json"
rep 0 > /dev/null
$PY fpga/scripts/check_baseline.py --baseline "$d/base.json" --summary "$d/summary.json" --update > /dev/null
base() { $PY fpga/scripts/check_baseline.py --baseline "$d/base.json" --summary "$d/summary.json" > /dev/null; echo $?; }
check "baseline same" "0" "$(base)"
echo "{${util/1000/1020}, \"fmax\": {\"clk\": {\"achieved\": 125.0, \"constraint\": 125.0}}}" > "$d/pnr.json"; rep 0 > /dev/null
check "baseline within tolerance" "0" "$(base)"
echo "{${util/1000/1100}, \"fmax\": {\"clk\": {\"achieved\": 130.0, \"constraint\": 125.0}}}" > "$d/pnr.json"; rep 0 > /dev/null
check "baseline LUT growth" "1" "$(base)"
echo "{$util, \"fmax\": {\"clk\": {\"achieved\": 120.0, \"constraint\": 100.0}}}" > "$d/pnr.json"; rep 0 > /dev/null
check "baseline Fmax drop" "1" "$(base)"
# a clock far above its requirement is held to 25 % over it, not to 5 %
# under its recorded figure
echo "{$util, \"fmax\": {\"clk\": {\"achieved\": 200.0, \"constraint\": 100.0}}}" > "$d/pnr.json"
rep 0 > /dev/null
$PY fpga/scripts/check_baseline.py --baseline "$d/base.json" --summary "$d/summary.json" --update > /dev/null
echo "{$util, \"fmax\": {\"clk\": {\"achieved\": 150.0, \"constraint\": 100.0}}}" > "$d/pnr.json"; rep 0 > /dev/null
check "baseline wide margin, placement" "0" "$(base)"
echo "{$util, \"fmax\": {\"clk\": {\"achieved\": 120.0, \"constraint\": 100.0}}}" > "$d/pnr.json"; rep 0 > /dev/null
check "baseline wide margin, toward the requirement" "1" "$(base)"

# ---- area by instance, from a netlist of two LUTs and three flip-flops
cat > "$d/net.json" <<'EOF'
{"modules": {"top": {"attributes": {"top": "00000000000000000000000000000001"},
 "netnames": {"a_inst.x": {"hide_name": 0, "bits": [2]}, "a_inst.b_inst.y": {"hide_name": 0, "bits": [3]},
              "$auto$1": {"hide_name": 1, "bits": [4]}, "z": {"hide_name": 0, "bits": [5]}},
 "cells": {"l1": {"type": "LUT4", "port_directions": {"Z": "output", "A": "input"}, "connections": {"Z": [2], "A": [5]}},
           "l2": {"type": "LUT4", "port_directions": {"Z": "output", "A": "input"}, "connections": {"Z": [3], "A": [2]}},
           "f1": {"type": "TRELLIS_FF", "port_directions": {"Q": "output", "DI": "input"}, "connections": {"Q": [3], "DI": [2]}},
           "f2": {"type": "TRELLIS_FF", "port_directions": {"Q": "output", "DI": "input"}, "connections": {"Q": [4], "DI": [3]}},
           "f3": {"type": "TRELLIS_FF", "port_directions": {"Q": "output", "DI": "input"}, "connections": {"Q": [5], "DI": [4]}},
           "c1": {"type": "CCU2C", "port_directions": {"COUT": "output"}, "connections": {"COUT": [2]}}}}}}
EOF
a=$($PY fpga/scripts/area.py "$d/net.json" | tr -s ' ' | sed 's/^ //' | tr '\n' '|')
check "area by instance" "LUTs FFs instance (top)|1 1 a_inst.b_inst|1 0 a_inst|0 1 (no name)|0 1 (top)|2 3 total|" "$a"
a=$($PY fpga/scripts/area.py "$d/net.json" --depth 1 | tr -s ' ' | sed 's/^ //' | sed -n 2p)
check "area depth 1" "2 1 a_inst" "$a"
$PY fpga/scripts/area.py "$d/nosuch.json" > /dev/null 2>&1
check "area: missing netlist" "1" "$?"

echo "fpga flow: $checks checks, $fail failed"
[ "$fail" -eq 0 ]
