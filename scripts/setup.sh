#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# Installs everything the build, the simulator and the tests need on a
# Debian 12 machine.  Idempotent: installs only what is missing.
set -euo pipefail

# Debian packages: simulators, synthesis, the formal back end, the PCI
# library, the C/C++ toolchain, gnuplot for the plots of `make bench`,
# and the capture readers (tshark runs the project's Wireshark
# dissector), and clang 14 with its libFuzzer runtime for the fuzzing
# harnesses (tests/fuzz), and iproute2, whose `ip netns` and veth pairs
# the bridge tests make, and ccache, which the build uses
# when it is there (compiled objects kept between builds), and pkgconf,
# which finds libpci and Open MPI and which the install test builds a
# program with, and Open MPI, on which a cluster split over several
# processes or machines runs (mpirun, docs/distributed.md).
PKGS=(
	verilator iverilog yosys z3
	libpci-dev build-essential make python3 tcpdump gnuplot-nox tshark
	clang-14 libclang-rt-14-dev iproute2 ccache pkgconf
	openmpi-bin libopenmpi-dev
)

missing=()
for p in "${PKGS[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing+=("$p")
	fi
done

if [ "${#missing[@]}" -gt 0 ]; then
	echo "setup: installing ${missing[*]}"
	SUDO=""
	if [ "$(id -u)" -ne 0 ]; then
		SUDO="sudo"
	fi
	# tshark's package asks whether to make dumpcap setuid: answer no
	# beforehand so that the install never waits for a prompt
	echo "wireshark-common wireshark-common/install-setuid boolean false" |
		$SUDO debconf-set-selections
	$SUDO apt-get update -q
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# the pinned Python packages of scripts/requirements.txt (the formal
# proofs' solver)
"$(dirname "$0")/pip_pinned.sh" "$(dirname "$0")/requirements.txt"

# The RTL must build with the Verilator this machine has: 5.x is required.
ver=$(verilator --version | awk '{print $2}')
case "$ver" in
	5.*) ;;
	*) echo "setup: Verilator 5.x required, found $ver" >&2; exit 1 ;;
esac
echo "setup: ready (verilator $ver, $(iverilog -V 2>/dev/null | head -n1 | cut -d' ' -f1-4), $(yosys -V | cut -d' ' -f1-2))"
