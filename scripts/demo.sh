#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# Starts a two-node tg-sim, runs the demo against it, stops the simulator; fails loudly on any error.
set -euo pipefail

build=${BUILD:-build}
sim="$build/bin/tg-sim"
demo="$build/bin/tg_demo"
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

for f in "$sim" "$demo"; do
	[ -x "$f" ] || { echo "demo: $f is missing (run make)" >&2; exit 1; }
done

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

status=0
timeout 600 "$demo" --name "$name" || status=$?

kill -TERM "$pid"
wait "$pid" || { echo "demo: tg-sim failed:" >&2; cat "$log" >&2; exit 1; }
pid=
grep -v '^tg-sim: ready' "$log" || true
if [ "$status" -ne 0 ]; then
	echo "demo: tg_demo failed (exit $status)" >&2
	exit 1
fi
echo "demo: ok"
