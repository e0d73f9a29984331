#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# Proves the `ifdef FORMAL properties of the RTL with yosys-smtbmc and z3:
# bounded model checking to a fixed depth, then k-induction; checks with
# ABC that a combinational module equals its reference; then checks that
# each deliberate bug (TG_TESTBUG_NNN) makes its proof fail.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${BUILD:-build}/formal
mkdir -p "$out"

# Depths are in clock steps from reset; docs/formal.md says what each
# proof covers and what it assumes.
# module | parameters (yosys chparam) | BMC depth | induction (yes/no);
# a module may come more than once, with other parameters
JOBS=(
	"tg_tx_arb|-set DATA_W 4|24|yes"
	"tg_host_if|-set NUM_CTX 4 -set MAX_READS 2|8|yes"
	"tg_host_if8|-set NUM_CTX 4 -set MAX_READS 2|10|yes"
	"tg_host_if8|-set NUM_CTX 2 -set MAX_READS 0|10|yes"
	"tg_rx_engine|-set BLK_SRC_BITS 1|9|no"
	"tg_link_rx|-set PEER_BITS 3 -set SEQ_W 16|14|yes"
	"tg_eth_rx||12|yes"
	"tg_eth_rx8||12|yes"
	"tg_eth_tx8||12|yes"
	"tg_csr8|-set CYC_LO_W 2 -set CYC_MID_W 2|20|yes"
	"tg_crc32_d64||1|no"
)
# deliberate bug | module | parameters | depth
MUTANTS=(
	"TG_TESTBUG_001|tg_tx_arb|-set DATA_W 4|8"
	"TG_TESTBUG_002|tg_rx_engine|-set BLK_SRC_BITS 1|9"
	"TG_TESTBUG_003|tg_rx_engine|-set BLK_SRC_BITS 1|9"
	"TG_TESTBUG_004|tg_rx_engine|-set BLK_SRC_BITS 1|9"
	"TG_TESTBUG_005|tg_rx_engine|-set BLK_SRC_BITS 1|9"
	"TG_TESTBUG_006|tg_rx_engine|-set BLK_SRC_BITS 1|9"
	"TG_TESTBUG_007|tg_host_if|-set NUM_CTX 4 -set MAX_READS 2|8"
	"TG_TESTBUG_008|tg_link_rx|-set PEER_BITS 3 -set SEQ_W 16|14"
	"TG_TESTBUG_009|tg_eth_rx||12"
	"TG_TESTBUG_010|tg_host_if|-set NUM_CTX 4 -set MAX_READS 2|8"
	"TG_TESTBUG_011|tg_rx_engine|-set BLK_SRC_BITS 1|9"
	"TG_TESTBUG_012|tg_eth_rx8||12"
	"TG_TESTBUG_013|tg_eth_tx8||12"
	"TG_TESTBUG_014|tg_eth_tx8||12"
	"TG_TESTBUG_015|tg_csr8|-set CYC_LO_W 2 -set CYC_MID_W 2|20"
	"TG_TESTBUG_016|tg_host_if8|-set NUM_CTX 4 -set MAX_READS 2|10"
	"TG_TESTBUG_017|tg_host_if8|-set NUM_CTX 4 -set MAX_READS 2|10"
	"TG_TESTBUG_018|tg_host_if8|-set NUM_CTX 2 -set MAX_READS 0|10"
)
# module | reference module in its `ifdef FORMAL part: the two must compute
# the same combinational function (checked by ABC on their miter)
EQUIVS=(
	"tg_crc32_d64|tg_crc32_d64_ref"
)

# The outputs lose their port flag so that logic no property looks at is
# removed; memories become registers.  The solver gets the unrolled
# formulas (--unroll): z3 does not finish reading the per-state function
# form of tg_rx_engine.
smt() { # module params defines -> smt2 file
	local m=$1 p=$2 d=$3 f="$out/$1$4.smt2"
	yosys -q -p "read_verilog -formal -sv $d -Irtl rtl/$m.v; ${p:+chparam $p $m;} prep -top $m; delete -output o:*; opt_clean; memory_map; opt -fast; async2sync; dffunmap; write_smt2 -wires $f" \
		> "$out/$m$4.yosys.log" 2>&1 || { cat "$out/$m$4.yosys.log"; exit 1; }
	echo "$f"
}

fail=0
for j in "${JOBS[@]}"; do
	IFS='|' read -r m p depth ind <<< "$j"
	# files named by the parameters too: tg_host_if8-NUM_CTX_2_MAX_READS_0.*
	sfx=$(echo "$p" | sed -e 's/-set //g' -e 's/ \([0-9]*\)/_\1/g' -e 's/ /-/g')
	n=$m${sfx:+-$sfx}
	f=$(smt "$m" "$p" "" "${sfx:+-$sfx}")
	t0=$(date +%s%N)
	if yosys-smtbmc -s z3 --unroll -t "$depth" "$f" > "$out/$n.bmc.log" 2>&1; then r="BMC depth $depth passed"; else r="BMC FAILED"; fail=1; tail -n 20 "$out/$n.bmc.log"; fi
	if [ "$ind" = yes ]; then
		if yosys-smtbmc -s z3 --unroll -i -t "$depth" "$f" > "$out/$n.ind.log" 2>&1; then r="$r, induction proved"; else r="$r, induction FAILED"; fail=1; tail -n 20 "$out/$n.ind.log"; fi
	fi
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	printf 'formal %-14s %s%s (%d ms)\n' "$m" "${p:+($p) }" "$r" "$ms"
done
for e in "${EQUIVS[@]}"; do
	IFS='|' read -r m ref <<< "$e"
	t0=$(date +%s%N)
	yosys -q -p "read_verilog -formal -sv -Irtl rtl/$m.v; prep; chformal -remove; miter -equiv -flatten $m $ref f_miter; hierarchy -top f_miter; setundef -zero; techmap; opt -fast; aigmap; write_aiger -zinit $out/$m-equiv.aig" \
		> "$out/$m-equiv.yosys.log" 2>&1 || { cat "$out/$m-equiv.yosys.log"; exit 1; }
	yosys-abc -q "read_aiger $out/$m-equiv.aig; strash; iprove" > "$out/$m-equiv.log" 2>&1 || true
	if grep -q '^UNSATISFIABLE' "$out/$m-equiv.log"; then r="equal to $ref"; else r="NOT proved equal to $ref"; fail=1; cat "$out/$m-equiv.log"; fi
	printf 'formal %-14s %s (%d ms)\n' "$m" "$r" $(( ($(date +%s%N) - t0) / 1000000 ))
done
for mu in "${MUTANTS[@]}"; do
	IFS='|' read -r bug m p depth <<< "$mu"
	f=$(smt "$m" "$p" "-D$bug" "-$bug")
	t0=$(date +%s%N)
	if yosys-smtbmc -s z3 --unroll -t "$depth" "$f" > "$out/$m-$bug.log" 2>&1; then
		r="NOT caught by the properties of $m"; fail=1
	else
		r="caught by the properties of $m"
	fi
	printf 'formal %s: %s (%d ms)\n' "$bug" "$r" $(( ($(date +%s%N) - t0) / 1000000 ))
done
exit $fail
