#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# libtg's Ethernet test (tests/c/test_eth.c) against two simulated boards
# built on the byte-serial node, tg_fpga_node8 (tg-board-sim8): the same
# calls, answers and lossy-wire runs as on the Colorlight's node, and the
# calls the iCE40 node leaves out refused.
# Exit 0 pass, 1 fail, 77 skip.
set -u
# paths filled in by the build; run from the source tree, the script
# finds them itself
SIM=${TG_BOARD_SIM8:-@TG_BOARD_SIM8@}
TEST=${TG_TEST_ETH:-@TG_TEST_ETH@}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
case $SIM in @*) SIM=$SRC/${BUILD:-build}/bin/tg-board-sim8 ;; esac
case $TEST in @*) TEST=$SRC/${BUILD:-build}/tests/test_eth ;; esac
[ -x "$SIM" ] || { echo "no tg-board-sim8 at $SIM"; exit 77; }
[ -x "$TEST" ] || { echo "no test_eth at $TEST"; exit 77; }
# the boards are built as the iCE40 node: no fetch table, no region table
TG_BOARD_SIM_BIN=$SIM TG_TEST_ETH_LITE=1 exec "$TEST"
