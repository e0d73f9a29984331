# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# FPGA-side benches: tests/fpga/<module>/test_<module>.cpp is a Verilator
# C++ bench whose top is the module of that name in fpga/ (board-independent
# RTL in fpga/rtl, board tops in fpga/<board>/, with the simulation models
# of fpga/sim standing in for the vendor primitives); it builds to
# $(BUILD)/tests/fpga/<module>/test_<module> and joins TEST_PROGS.

FPGA_TEST_MODS := $(patsubst tests/fpga/%/,%,$(sort $(dir $(wildcard tests/fpga/*/test_*.cpp))))
FPGA_TEST_BINS := $(foreach m,$(FPGA_TEST_MODS),$(BUILD)/tests/fpga/$(m)/test_$(m))
FPGA_TB_FLAGS  := $(RTL_TB_FLAGS) \
                  -CFLAGS "-I$(abspath tests/fpga/common)"

# benches of a module built with other than its default parameters
FPGA_TB_PARAMS :=
$(BUILD)/tests/fpga/tg_axis_async_fifo/test_tg_axis_async_fifo: FPGA_TB_PARAMS := -GFRAME=1

# the node with one clock (ONE_CLOCK=1), through tg_fpga_node's bench
# (rule below)
FPGA_ONECLK_BIN := $(BUILD)/tests/fpga/tg_fpga_node/test_tg_fpga_node_one_clock

# and a script that checks the FPGA flow's commands, reports and baselines
TEST_PROGS     += $(FPGA_TEST_BINS) $(FPGA_ONECLK_BIN) tests/fpga/test_fpga_flow.sh
TEST_RTL_PROGS += $(FPGA_TEST_BINS) $(FPGA_ONECLK_BIN)

.PHONY: test-fpga
test-fpga: $(FPGA_TEST_BINS) $(FPGA_ONECLK_BIN)
	scripts/run_tests.sh -j $(JOBS) $(FPGA_TEST_BINS) $(FPGA_ONECLK_BIN) tests/fpga/test_fpga_flow.sh

$(FPGA_TEST_BINS): $(BUILD)/tests/fpga/%: tests/fpga/%.cpp $(RTL_SRCS) $(RTL_INCS) $(FPGA_LINT_SRCS) \
		tests/rtl/common/tb.hpp tests/fpga/common/gmii.hpp include/tg/tg_frame.h include/tg/tg_hw.h tests/fpga/tests.mk
	$(call verilate_bench,$(FPGA_TB_FLAGS) $(FPGA_TB_PARAMS) --top-module $(notdir $(patsubst %/,%,$(dir $*))) \
		$(FPGA_LINT_SRCS) $(abspath tests/fpga/$*.cpp))

# the node bench with ONE_CLOCK=1
$(FPGA_ONECLK_BIN): tests/fpga/tg_fpga_node/test_tg_fpga_node.cpp $(RTL_SRCS) \
		$(RTL_INCS) $(FPGA_LINT_SRCS) tests/rtl/common/tb.hpp tests/fpga/common/gmii.hpp include/tg/tg_frame.h \
		include/tg/tg_hw.h tests/fpga/tests.mk
	$(call verilate_bench,$(FPGA_TB_FLAGS) -GONE_CLOCK=1 -CFLAGS -DTB_ONE_CLOCK=1 --top-module tg_fpga_node \
		$(FPGA_LINT_SRCS) $(abspath tests/fpga/tg_fpga_node/test_tg_fpga_node.cpp))

# how long each kind of bridge request takes on the node (clk cycles, the
# wire's byte times included), the core clock 3 times slower as on the
# Colorlight board: the node bench's --bench mode
.PHONY: bench-fpga
bench-fpga: $(BUILD)/tests/fpga/tg_fpga_node/test_tg_fpga_node
	$< --bench
