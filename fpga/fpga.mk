# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# Checks of the FPGA RTL from the top-level build: every module of
# fpga/rtl, the board tops and the simulation models of fpga/sim through
# Verilator lint (-Wall), Icarus (-g2012) and Yosys (read_verilog -sv,
# hierarchy, proc; the core's modules as black boxes, since make
# synth-check covers them), each module as its own top. Builds themselves live in
# fpga/Makefile.

FPGA_RTL       := $(sort $(wildcard fpga/rtl/*.v))
FPGA_SIM       := $(sort $(wildcard fpga/sim/*.v))
FPGA_TOPS      := $(filter-out $(FPGA_RTL),$(sort $(wildcard fpga/*/tg_*.v)))
FPGA_LINT_SRCS := $(RTL_SRCS) $(FPGA_RTL) $(FPGA_TOPS) $(FPGA_SIM)
FPGA_MODS      := $(basename $(notdir $(FPGA_RTL) $(FPGA_TOPS) $(FPGA_SIM)))

.PHONY: lint-fpga
lint: lint-fpga

lint-fpga:
	@for m in $(FPGA_MODS); do \
		$(VERILATOR) --lint-only -Wall -Irtl --top-module $$m $(FPGA_LINT_SRCS) || exit 1; \
	done; echo "verilator -Wall: $(words $(FPGA_MODS)) FPGA modules clean"
	@mkdir -p $(BUILD)
	@for m in $(FPGA_MODS); do \
		$(IVERILOG) -g2012 -Wall -Wno-sensitivity-entire-array -Irtl -s $$m \
			-o $(BUILD)/iverilog-$$m.vvp $(FPGA_LINT_SRCS) > $(BUILD)/iverilog-$$m.log 2>&1; rc=$$?; \
		cat $(BUILD)/iverilog-$$m.log; \
		[ $$rc -eq 0 ] && ! grep -qi warning $(BUILD)/iverilog-$$m.log || exit 1; \
	done; echo "iverilog -g2012: $(words $(FPGA_MODS)) FPGA modules compile"
	@$(YOSYS) -q -p "read_verilog -sv -lib -Irtl $(RTL_SRCS); \
		read_verilog -sv -Irtl $(FPGA_RTL) $(FPGA_TOPS) $(FPGA_SIM); design -save all; \
		$(foreach m,$(FPGA_MODS),design -load all; hierarchy -check -top $(m); proc;)" \
		> $(BUILD)/yosys-fpga.log 2>&1 || { cat $(BUILD)/yosys-fpga.log; exit 1; }
	@echo "yosys read_verilog: $(words $(FPGA_MODS)) FPGA modules elaborate"
