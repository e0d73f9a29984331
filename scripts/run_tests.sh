#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# Runs test programs (exit 0 pass, 77 skip, anything else fail) and prints
# one line per program and the totals; fails if any program failed.
set -u
pass=0 fail=0 skip=0 failed=()
for t in "$@"; do
	start=$(date +%s)
	out=$("$t" 2>&1)
	rc=$?
	secs=$(( $(date +%s) - start ))
	case $rc in
	0)  pass=$((pass + 1)); printf 'PASS %-40s %4ss\n' "$(basename "$t")" "$secs" ;;
	77) skip=$((skip + 1)); printf 'SKIP %-40s %4ss\n' "$(basename "$t")" "$secs" ;;
	*)  fail=$((fail + 1)); failed+=("$t")
	    printf 'FAIL %-40s %4ss (exit %d)\n' "$(basename "$t")" "$secs" "$rc"
	    printf '%s\n' "$out" | tail -n 40 | sed 's/^/    /' ;;
	esac
done
echo "${pass} passed, ${fail} failed, ${skip} skipped"
[ "$fail" -eq 0 ]
