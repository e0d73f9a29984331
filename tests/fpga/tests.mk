# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# FPGA-side benches: tests/fpga/<module>/test_<module>.cpp is a Verilator
# C++ bench whose top is the module of that name in fpga/ (board-independent
# RTL in fpga/rtl, board tops in fpga/<board>/, with the simulation models
# of fpga/sim standing in for the vendor primitives); it builds to
# $(BUILD)/tests/fpga/<module>/test_<module> and joins TEST_PROGS.

# the byte-serial node's modules and its iCE40 top serve only the iCE40
# study: their benches join ICE40_PROGS (make test-ice40)
FPGA_ALL_MODS  := $(patsubst tests/fpga/%/,%,$(sort $(dir $(wildcard tests/fpga/*/test_*.cpp))))
FPGA_ICE40_MODS := $(filter %8 tg_ice40_%,$(FPGA_ALL_MODS))
FPGA_TEST_MODS := $(filter-out $(FPGA_ICE40_MODS),$(FPGA_ALL_MODS))
FPGA_TEST_BINS := $(foreach m,$(FPGA_TEST_MODS),$(BUILD)/tests/fpga/$(m)/test_$(m))
FPGA_ICE40_BINS := $(foreach m,$(filter $(FPGA_ICE40_MODS),$(FPGA_ALL_MODS)),$(BUILD)/tests/fpga/$(m)/test_$(m))
FPGA_TB_FLAGS  := $(RTL_TB_FLAGS) \
                  -CFLAGS "-I$(abspath tests/fpga/common)"

# benches of a module built with other than its default parameters
FPGA_TB_PARAMS :=
$(BUILD)/tests/fpga/tg_axis_async_fifo/test_tg_axis_async_fifo: FPGA_TB_PARAMS := -GFRAME=1

# the node with one clock (ONE_CLOCK=1), through tg_fpga_node's bench
# (rule below)
FPGA_ONECLK_BIN := $(BUILD)/tests/fpga/tg_fpga_node/test_tg_fpga_node_one_clock

# the byte-serial node (tg_fpga_node8) through the same bench, with
# 64-byte blocks and 16 KiB of memory, as the bench's bursts and
# line-rate writes need
FPGA_NODE8_BIN := $(BUILD)/tests/fpga/tg_fpga_node/test_tg_fpga_node8

# and a script that checks the FPGA flow's commands, reports and baselines
TEST_PROGS     += $(FPGA_TEST_BINS) $(FPGA_ONECLK_BIN) tests/fpga/test_fpga_flow.sh
TEST_RTL_PROGS += $(FPGA_TEST_BINS) $(FPGA_ONECLK_BIN)
ICE40_PROGS    += $(FPGA_ICE40_BINS) $(FPGA_NODE8_BIN)

.PHONY: test-fpga
test-fpga: $(FPGA_TEST_BINS) $(FPGA_ONECLK_BIN)
	scripts/run_tests.sh -j $(JOBS) $(FPGA_TEST_BINS) $(FPGA_ONECLK_BIN) tests/fpga/test_fpga_flow.sh

$(FPGA_TEST_BINS) $(FPGA_ICE40_BINS): $(BUILD)/tests/fpga/%: tests/fpga/%.cpp $(RTL_SRCS) $(RTL_INCS) $(FPGA_LINT_SRCS) \
		tests/rtl/common/tb.hpp tests/fpga/common/gmii.hpp include/tg/tg_frame.h include/tg/tg_hw.h tests/fpga/tests.mk
	$(call verilate_bench,$(FPGA_TB_FLAGS) $(FPGA_TB_PARAMS) --top-module $(notdir $(patsubst %/,%,$(dir $*))) \
		$(FPGA_LINT_SRCS) $(abspath tests/fpga/$*.cpp))

# the node bench's variants: one rule, the top and its flags per binary
FPGA_NODE_VARIANTS := $(FPGA_ONECLK_BIN) $(FPGA_NODE8_BIN)
$(FPGA_ONECLK_BIN): NODE_TOP   := tg_fpga_node
$(FPGA_ONECLK_BIN): NODE_FLAGS := -GONE_CLOCK=1 -CFLAGS -DTB_ONE_CLOCK=1
$(FPGA_NODE8_BIN):  NODE_TOP   := tg_fpga_node8
$(FPGA_NODE8_BIN):  NODE_FLAGS := -GBLOCK_BYTES=64 -GMEM_LOG2=14 -CFLAGS -DTB_NODE8=1
$(FPGA_NODE_VARIANTS): $(BUILD)/tests/fpga/tg_fpga_node/%: tests/fpga/tg_fpga_node/test_tg_fpga_node.cpp $(RTL_SRCS) \
		$(RTL_INCS) $(FPGA_LINT_SRCS) tests/rtl/common/tb.hpp tests/fpga/common/gmii.hpp include/tg/tg_frame.h \
		include/tg/tg_hw.h tests/fpga/tests.mk
	$(call verilate_bench,$(FPGA_TB_FLAGS) $(NODE_FLAGS) --top-module $(NODE_TOP) $(FPGA_LINT_SRCS) \
		$(abspath tests/fpga/tg_fpga_node/test_tg_fpga_node.cpp))

# how long each kind of bridge request takes on the node (clk cycles, the
# wire's byte times included), the core clock 4 times slower as on the
# Colorlight board: the node bench's --bench mode
.PHONY: bench-fpga
bench-fpga: $(BUILD)/tests/fpga/tg_fpga_node/test_tg_fpga_node
	$< --bench

# The iCE40 top's bench on the synthesized netlist, not the RTL: Yosys
# builds the node as `make -C fpga BOARD=ice40_hx8k` does (its
# ICE40_SYNTH_FLAGS, which let ABC merge and retime flip-flops), writes
# the mapped cells out as Verilog, and Verilator simulates them with
# Yosys's models of the iCE40 cells. About three minutes; part of
# `make test-ice40`.
NETLIST_DIR   := $(BUILD)/tests/fpga/tg_ice40_hx8k/netlist
NETLIST_BIN   := $(BUILD)/tests/fpga/tg_ice40_hx8k/test_tg_ice40_hx8k_netlist
YOSYS_SHARE   ?= $(dir $(shell command -v $(YOSYS)))../share/yosys
NETLIST_FLAGS := -Wno-fatal -Wno-lint -Wno-style +define+NO_ICE40_DEFAULT_ASSIGNMENTS \
                 -CFLAGS "-std=c++17 -I$(abspath include) -I$(abspath tests/rtl/common) -I$(abspath tests/fpga/common)" \
                 $(call VL_MAKEFLAGS,-O1)

$(NETLIST_DIR)/ice40_hx8k/tg_ice40_hx8k.json: $(RTL_SRCS) $(RTL_INCS) $(FPGA_LINT_SRCS) fpga/Makefile fpga/ice40_hx8k/board.mk
	$(MAKE) --no-print-directory -C fpga synth BOARD=ice40_hx8k BUILD=$(abspath $(NETLIST_DIR)) YOSYS=$(YOSYS)

$(NETLIST_BIN): $(NETLIST_DIR)/ice40_hx8k/tg_ice40_hx8k.json tests/fpga/tg_ice40_hx8k/test_tg_ice40_hx8k.cpp \
		tests/rtl/common/tb.hpp tests/fpga/common/gmii.hpp include/tg/tg_frame.h include/tg/tg_hw.h tests/fpga/tests.mk
	$(YOSYS) -q -p "read_json $<; write_verilog -noattr $(NETLIST_DIR)/tg_ice40_hx8k_net.v"
	$(VERILATOR) --cc --exe --build $(NETLIST_FLAGS) --top-module tg_ice40_hx8k -Mdir $(NETLIST_DIR)/obj \
		$(NETLIST_DIR)/tg_ice40_hx8k_net.v $(YOSYS_SHARE)/ice40/cells_sim.v \
		$(abspath tests/fpga/tg_ice40_hx8k/test_tg_ice40_hx8k.cpp) -o $(abspath $@) > $(NETLIST_DIR)/build.log 2>&1 \
		|| { tail -n 30 $(NETLIST_DIR)/build.log; exit 1; }

.PHONY: test-netlist
test-netlist: $(NETLIST_BIN)
	scripts/run_tests.sh $(NETLIST_BIN)
