# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# iCE40-HX8K (CT256), an area and timing study: the byte-serial node with
# GMII pins left for the placer (no board with two gigabit PHYs is assumed).
FAMILY        := ice40
TOP           := tg_ice40_hx8k
BOARD_SRCS    := ice40_hx8k/tg_ice40_hx8k.v
BYTE_NODE     := 1
CONSTRAINTS   :=
ICE40_DEVICE  := --hx8k
ICE40_PACKAGE := ct256
CABLE         ?= ft2232
# Logic cells before speed: -nocarry maps sums and comparisons into LUTs
# (a carry chain takes a cell per bit, and one with no sum to compute
# leaves that cell's LUT empty); -dff has ABC optimize across flip-flops
# too (merging equivalent ones, retiming), and `make test-netlist` runs
# the top's bench on the netlist that comes out. The default mapping
# does not fit the part (docs/fpga.md)
ICE40_SYNTH_FLAGS := -dff -nocarry
