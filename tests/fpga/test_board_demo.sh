#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# Test of the demo on two simulated boards, run as README's "On a board" shows it.
#
# The commands are README's, word for word, with its /tmp/boards replaced
# by a folder of the test's own and BUILD= added for the build folder:
# the test fails when README's lines change without it. It checks the
# demo's exit status, the table's rows, each with a median above 0 in
# cycles and ns, their order where the network sets it, the method and
# clock it names, and that the boards dropped nothing. Then tg-sim runs
# the demo both ways: the round-trip figure of a remote write must be the
# one-clock figure. Exit 0 pass, 1 fail, 77 skip.
set -u
# paths filled in by the build ($(BUILD)/tests/fpga/test_board_demo); run
# from the source tree, the script finds them itself
SRC=${TG_SRC_DIR:-@TG_SRC_DIR@}
BUILD=${TG_BUILD_DIR:-@TG_BUILD_DIR@}
case $SRC in @*) SRC=$(cd "$(dirname "$0")/../.." && pwd) ;; esac
case $BUILD in @*) BUILD=$SRC/build ;; esac
MAKE=${MAKE:-make}
README=$SRC/README.md

for f in "$BUILD/bin/tg-board-sim" "$BUILD/bin/tg_demo" "$BUILD/bin/tg-sim"; do
	[ -x "$f" ] || { echo "no $f"; exit 77; }
done
command -v "$MAKE" > /dev/null || { echo "no $MAKE"; exit 77; }
# the make that runs this test is not the one the commands start
unset MAKEFLAGS MFLAGS MAKELEVEL

d=$(mktemp -d)
pid=
cleanup() {
	if [ -n "$pid" ] && kill -0 "$pid" 2> /dev/null; then
		kill -KILL "$pid" 2> /dev/null
		wait "$pid" 2> /dev/null
	fi
	rm -rf "$d"
}
trap cleanup EXIT

fail=0
bad() { echo "FAIL: $*"; fail=1; }

# README's commands for the simulated boards
cmd_build='make boardsim'
cmd_start='build/bin/tg-board-sim --dir /tmp/boards &'
cmd_demo='make demo DEV="ethsim:/tmp/boards/node0.sock ethsim:/tmp/boards/node1.sock"'
cmd_stop='kill %1'
for c in "$cmd_build" "$cmd_start" "$cmd_demo" "$cmd_stop"; do
	grep -qxF -- "$c" "$README" || bad "README has no line '$c'"
done
[ $fail -eq 0 ] || exit 1

# the median in cycles and in ns of the table's row $2 in file $1: "C N"
median() {
	sed -n "s/^  $2 *median *\([0-9]*\) cycles ( *\([0-9]*\) ns).*/\1 \2/p" "$1" | head -n 1
}

cd "$SRC" || exit 1
b=$d/boards
"$MAKE" --no-print-directory BUILD="$BUILD" boardsim > "$d/build.out" 2>&1 ||
	{ cat "$d/build.out"; bad "make boardsim failed"; exit 1; }
# the files exist before the simulator's shell opens them: the loop reads at once
: > "$d/sim.out"
"$BUILD/bin/tg-board-sim" --dir "$b" > "$d/sim.out" 2> "$d/sim.err" &
pid=$!
for _ in $(seq 1 300); do
	grep -q '^tg-board-sim: ready' "$d/sim.out" && break
	kill -0 "$pid" 2> /dev/null || break
	sleep 0.1
done
grep -q '^tg-board-sim: ready' "$d/sim.out" ||
	{ cat "$d/sim.out" "$d/sim.err"; echo "FAIL: tg-board-sim not ready after 30 s"; exit 1; }

start=$(date +%s)
timeout 300 "$MAKE" --no-print-directory BUILD="$BUILD" demo \
	DEV="ethsim:$b/node0.sock ethsim:$b/node1.sock" > "$d/demo.out" 2>&1
rc=$?
echo "make demo on the simulated boards: exit $rc, $(( $(date +%s) - start )) s"
[ "$rc" -eq 0 ] || bad "make demo DEV=ethsim:... exited with $rc"
grep -qx 'tg_demo: ok' "$d/demo.out" || bad "no 'tg_demo: ok'"
grep -qx 'demo: ok' "$d/demo.out" || bad "no 'demo: ok'"
grep -q "each NIC on its own clock (node 0:" "$d/demo.out" || bad "the method is not named"
grep -q '^41667 kHz, 24.00 ns per cycle; node 1: 41667 kHz' "$d/demo.out" ||
	bad "not the boards' clock (41667 kHz)"

declare -A cyc ns
for row in "remote 8-byte write" "remote 8-byte read" "remote fetch-and-add" \
	   "store to entry+tail in memory" "store to dequeued by program" \
	   "store to woken and dequeued"; do
	read -r c n <<< "$(median "$d/demo.out" "$row")"
	if [ -z "${c:-}" ] || [ "$c" -le 0 ] || [ "$n" -le 0 ]; then
		bad "row '$row': no median above 0"
		c=0 n=0
	fi
	cyc[$row]=$c
	ns[$row]=$n
done
w=${cyc[remote 8-byte write]} r=${cyc[remote 8-byte read]} a=${cyc[remote fetch-and-add]}
q=${cyc[store to entry+tail in memory]} dq=${cyc[store to dequeued by program]}
# a read is about a write's way there and an answer's back (a frame of 8
# bytes less out, one of the same size back); an atomic is a read that
# also writes; an entry is in memory before it is dequeued
[ $(( 2 * w )) -le $(( r * 5 / 4 )) ] ||
	bad "one-way write $w cycles, more than half a read's round trip ($r) and a quarter"
[ "$r" -le "$a" ] || bad "fetch-and-add $a cycles, below a read's $r"
[ "$q" -le "$dq" ] || bad "dequeued after $dq cycles, before the entry was in memory ($q)"
# ns at 24 ns a cycle, within rounding
for row in "remote 8-byte write" "remote 8-byte read"; do
	c=${cyc[$row]} n=${ns[$row]}
	[ $(( c * 24 - n )) -le 1 ] && [ $(( n - c * 24 )) -le 1 ] ||
		bad "row '$row': $c cycles are not $n ns at 41667 kHz"
done
grep -q 'sustained: .* fetch-and-adds, 4 in flight' "$d/demo.out" ||
	bad "no sustained fetch-and-adds, as deep as the boards' fetch tables"
grep -q 'sustained: .* back-to-back REQs' "$d/demo.out" || bad "no sustained REQ rate"

kill -TERM "$pid"
wait "$pid"
rc=$?
pid=
[ "$rc" -eq 0 ] || bad "tg-board-sim exited with $rc after SIGTERM"
grep -q 'bad FCS [1-9]\|node drops [1-9]\|no sender [1-9]\|send failed [1-9]' "$d/sim.err" &&
	bad "the simulated boards dropped frames"
grep -q 'refused 0, dropped (FCS/type/malformed) 0/0/0' "$d/demo.out" ||
	bad "node 1 refused or dropped frames"

# tg-sim both ways: the round trip less node 1's turn, halved, is the
# remote write that the one clock measures directly
for how in one rt; do
	args="--reps 20"
	[ $how = rt ] && args="$args --round-trip"
	timeout 300 "$MAKE" --no-print-directory BUILD="$BUILD" demo DEMO_ARGS="$args" \
		> "$d/sim-$how.out" 2>&1 || bad "make demo DEMO_ARGS='$args' failed"
done
one=$(median "$d/sim-one.out" "remote 8-byte write")
rt=$(median "$d/sim-rt.out" "remote 8-byte write")
[ -n "$one" ] && [ "$one" = "$rt" ] ||
	bad "tg-sim's remote write: '$one' on one clock, '$rt' from round trips"
grep -q "each NIC on its own clock" "$d/sim-rt.out" || bad "--round-trip does not say so"
grep -q "each NIC on its own clock" "$d/sim-one.out" && bad "tg-sim's one clock not used"

if [ $fail -ne 0 ]; then
	for f in demo.out sim.err sim-one.out sim-rt.out; do
		echo "--- $f"
		cat "$d/$f" 2> /dev/null
	done
fi
exit $fail
