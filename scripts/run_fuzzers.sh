#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# Runs libFuzzer harnesses, each for at most SECS seconds and RUNS inputs
# (-1: no limit on inputs), starting from its seed corpus in
# tests/fuzz/corpus/NAME; new inputs go to $BUILD/fuzz/corpus/NAME and a
# crash to $BUILD/fuzz/crash-NAME-*.  Fails if any harness fails.
set -u
secs=$1 runs=$2
shift 2
build=${BUILD:-build}
fail=0
for name in "$@"; do
	work="$build/fuzz/corpus/$name"
	mkdir -p "$work"
	start=$(date +%s)
	if "$build/fuzz/$name" -max_total_time="$secs" -runs="$runs" -timeout=20 \
		-artifact_prefix="$build/fuzz/crash-$name-" "$work" "tests/fuzz/corpus/$name" \
		>"$build/fuzz/$name.log" 2>&1; then
		printf 'PASS %-40s %4ss  %s\n' "$name" "$(( $(date +%s) - start ))" \
			"$(grep -o 'Done [0-9]* runs in [0-9]* second(s)' "$build/fuzz/$name.log" | tail -n 1)"
	else
		fail=1
		printf 'FAIL %-40s (log: %s)\n' "$name" "$build/fuzz/$name.log"
		tail -n 40 "$build/fuzz/$name.log" | sed 's/^/    /'
	fi
done
exit $fail
