#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# Test: the two-node RTL testbench (bench/tb_tg_pair.v: two tg_nic
# cross-connected, node 0 writing 64-byte bursts to node 1) under Icarus
# and under Verilator. Each run must end its cycles in bounded time (an
# event-driven simulator can loop on a combinational cycle that Verilator
# settles), and both must count the same memory writes at node 1: the same
# design, cycle for cycle. Exit 0 pass, 1 fail.
set -u -o pipefail
IVL=${TG_PAIR_VVP:-@TG_PAIR_VVP@}
VL=${TG_PAIR_VL:-@TG_PAIR_VL@}
VVP=${VVP:-vvp}
cycles=5000
for f in "$IVL" "$VL"; do
	[ -e "$f" ] || { echo "FAIL: $f is not built"; exit 1; }
done
# "tb_tg_pair: cycles N, node 1 memory writes W" -> W
writes() { sed -n 's/^tb_tg_pair: cycles [0-9]*, node 1 memory writes \([0-9]*\)$/\1/p'; }
a=$(timeout 120 "$VVP" -n "$IVL" +cycles=$cycles | writes)
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: Icarus ended with status $rc (124: still running after 120 s)"; exit 1; }
b=$(timeout 120 "$VL" +cycles=$cycles | writes)
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: Verilator ended with status $rc (124: still running after 120 s)"; exit 1; }
echo "node 1 memory writes in $cycles cycles: Icarus ${a:-none}, Verilator ${b:-none}"
[ -n "$a" ] && [ "$a" != 0 ] || { echo "FAIL: no writes under Icarus"; exit 1; }
[ "$a" = "$b" ] || { echo "FAIL: the simulators disagree"; exit 1; }
