#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# timed.sh FILE KIND NAME CMD...: runs CMD and appends one line to FILE:
# KIND, NAME, wall milliseconds and CMD's exit status, tab-separated.
# Exits with CMD's status. scripts/timing_table.py prints such files.
set -u
f=$1 kind=$2 name=$3
shift 3
mkdir -p "$(dirname "$f")"
start=$(date +%s%N)
"$@"
rc=$?
printf '%s\t%s\t%d\t%d\n' "$kind" "$name" $(( ($(date +%s%N) - start) / 1000000 )) "$rc" >> "$f"
exit $rc
