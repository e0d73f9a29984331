#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# make test: its parts in order, each run with $JOBS jobs side by side,
# each timed; the table of their wall times comes at the end, also when a
# part fails (the run stops at the first failing part). Called by the
# Makefile with MAKE, JOBS, BUILD and FUZZ (1: run the fuzzers) set.
set -u
cd "$(dirname "$0")/.."
: "${MAKE:=make}" "${JOBS:=2}" "${FUZZ:=}"
# the build folder reaches the parts on make's command line, not in the
# environment, where the programs and other makes they start would see it
build=${BUILD:-build}
unset BUILD
timing=$build/timing
mkdir -p "$timing"
: > "$timing/test.tsv"
: > "$timing/jobs.tsv"
read -r -a m <<< "$MAKE"
m+=(--no-print-directory -j"$JOBS" BUILD="$build")
part() { scripts/timed.sh "$timing/test.tsv" part "$@"; }
table() {
	${PYTHON:-python3} scripts/timing_table.py "$timing/test.tsv" --jobs "$timing/jobs.tsv" \
		--title "make test, $JOBS jobs side by side"
}
trap table EXIT

part "checks: generated headers, lint" "${m[@]}" check-defs lint || exit 1
part "formal proofs and every build, side by side" "${m[@]}" formal test-build || exit 1
part "RTL and FPGA benches" "${m[@]}" test-run-rtl || exit 1
part "C tests and tools" "${m[@]}" test-run-c || exit 1
if [ -n "$FUZZ" ]; then
	part "fuzzers (short run)" "${m[@]}" fuzz-smoke || exit 1
else
	echo "fuzz-smoke: skipped (no clang)"
fi
