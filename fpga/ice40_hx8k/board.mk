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
