# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# Colorlight 5A-75B v8.0: LFE5U-25F-6BG256C, two RTL8211FD RGMII PHYs,
# 25 MHz from a PHY on P6. Programmed over its JTAG header (J27-J32) with
# any cable openFPGALoader knows.
FAMILY       := ecp5
TOP          := tg_colorlight_5a75b
BOARD_SRCS   := colorlight_5a75b/tg_colorlight_5a75b.v rtl/tg_rgmii_ecp5.v
CONSTRAINTS  := colorlight_5a75b/tg_colorlight_5a75b.lpf
# ECP5_DEVICE=--45k: the pin-compatible LFE5U-45F in the same package
# (a size study; no such board revision is assumed)
ECP5_DEVICE  ?= --25k
ECP5_PACKAGE := CABGA256
ECP5_SPEED   := 6
CABLE        ?= ft232
# nextpnr placement seed: the 125 MHz side meets its clock at this seed;
# a change that makes a clock miss is mended in the logic, not
# by another seed (docs/fpga.md, "Timing and the placement seed")
SEED         ?= 8
