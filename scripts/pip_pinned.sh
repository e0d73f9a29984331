#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# pip_pinned.sh FILE: installs the pinned packages (NAME==VERSION lines)
# of a requirements file unless every one is installed at its version
# already. PYTHON chooses the interpreter (default python3).
set -euo pipefail
file=$1
PYTHON=${PYTHON:-python3}
need=0
while read -r req; do
	case "$req" in '' | \#*) continue ;; esac
	name=${req%%==*} want=${req##*==}
	# pip show fails for a package that is not installed: that is "missing"
	have=$({ $PYTHON -m pip show "$name" 2> /dev/null || true; } | awk '/^Version:/ {print $2}')
	[ "$have" = "$want" ] || need=1
done < "$file"
if [ "$need" -eq 1 ]; then
	echo "setup: installing $file"
	$PYTHON -m pip install -q --no-deps -r "$file"
fi
