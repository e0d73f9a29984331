#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# Runs test programs (exit 0 pass, 77 skip, anything else fail) and prints
# one line per program as it ends, then the totals; fails if any program
# failed. With -j N, up to N programs run at a time (default 1).
set -u
jobs=1
if [ "${1:-}" = -j ]; then
	jobs=$2
	shift 2
fi
case $jobs in '' | *[!0-9]* | 0) echo "run_tests.sh: -j needs a positive number" >&2; exit 2 ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# one program: its output to tmp/N.out, its exit status and seconds to tmp/N.rc
run_one() {
	local n=$1 t=$2 start rc
	start=$(date +%s)
	"$t" > "$tmp/$n.out" 2>&1
	rc=$?
	echo "$rc $(( $(date +%s) - start ))" > "$tmp/$n.rc"
}

pass=0 fail=0 skip=0
report() { # index program
	local rc secs
	read -r rc secs < "$tmp/$1.rc"
	case $rc in
	0)  pass=$((pass + 1)); printf 'PASS %-40s %4ss\n' "$(basename "$2")" "$secs" ;;
	77) skip=$((skip + 1)); printf 'SKIP %-40s %4ss\n' "$(basename "$2")" "$secs" ;;
	*)  fail=$((fail + 1))
	    printf 'FAIL %-40s %4ss (exit %d)\n' "$(basename "$2")" "$secs" "$rc"
	    tail -n 40 "$tmp/$1.out" | sed 's/^/    /' ;;
	esac
}

progs=("$@")
declare -A running=()   # pid -> index
i=0
while [ "$i" -lt "${#progs[@]}" ] || [ "${#running[@]}" -gt 0 ]; do
	if [ "$i" -lt "${#progs[@]}" ] && [ "${#running[@]}" -lt "$jobs" ]; then
		run_one "$i" "${progs[$i]}" &
		running[$!]=$i
		i=$((i + 1))
		continue
	fi
	wait -n
	for pid in "${!running[@]}"; do
		if [ -f "$tmp/${running[$pid]}.rc" ]; then
			wait "$pid"
			report "${running[$pid]}" "${progs[${running[$pid]}]}"
			unset "running[$pid]"
		fi
	done
done
echo "${pass} passed, ${fail} failed, ${skip} skipped"
[ "$fail" -eq 0 ]
