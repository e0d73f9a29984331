#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# make demo: runs the demo against a two-node tg-sim it starts and stops, or against the devices in DEV; fails loudly on any error.
#
# Environment: BUILD (default build); DEV, node 0's and node 1's devices
# ("eth:IF0 eth:IF1", "ethsim:DIR/node0.sock ethsim:DIR/node1.sock"), or
# eth:IFNAME for both boards' bridges on one interface, and no simulator is
# started; DEMO_ARGS, more arguments of tg_demo (--reps N, --round-trip).
# Arguments go to tg-sim.
set -euo pipefail

build=${BUILD:-build}
sim="$build/bin/tg-sim"
demo="$build/bin/tg_demo"
read -r -a devs <<< "${DEV:-}"
read -r -a args <<< "${DEMO_ARGS:-}"
name="demo-$$"
log=$(mktemp)
pid=

cleanup() {
	if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
		kill -TERM "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	fi
	rm -f "$log"
}
trap cleanup EXIT

[ -x "$demo" ] || { echo "demo: $demo is missing (run make)" >&2; exit 1; }

status=0
if [ "${#devs[@]}" -gt 0 ]; then
	timeout 600 "$demo" ${args[@]+"${args[@]}"} "${devs[@]}" || status=$?
else
	[ -x "$sim" ] || { echo "demo: $sim is missing (run make)" >&2; exit 1; }
	"$sim" --nodes 2 --name "$name" "$@" >"$log" 2>&1 &
	pid=$!

	# wait for the ready line (the simulator creates its control object last)
	for _ in $(seq 1 600); do
		grep -q '^tg-sim: ready' "$log" && break
		if ! kill -0 "$pid" 2>/dev/null; then
			echo "demo: tg-sim exited before it was ready:" >&2
			cat "$log" >&2
			exit 1
		fi
		sleep 0.1
	done
	grep -q '^tg-sim: ready' "$log" || { echo "demo: tg-sim not ready after 60 s" >&2; cat "$log" >&2; exit 1; }

	timeout 600 "$demo" --name "$name" ${args[@]+"${args[@]}"} || status=$?

	kill -TERM "$pid"
	wait "$pid" || { echo "demo: tg-sim failed:" >&2; cat "$log" >&2; exit 1; }
	pid=
	grep -v '^tg-sim: ready' "$log" || true
fi
if [ "$status" -ne 0 ]; then
	echo "demo: tg_demo failed (exit $status)" >&2
	exit 1
fi
echo "demo: ok"
