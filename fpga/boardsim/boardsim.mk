# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# Build fragment: tg-board-sim, two FPGA nodes (tg_fpga_node as the
# Colorlight top builds it, Verilated) with their network ports joined and
# their host ports on Unix datagram sockets (docs/fpga.md, "Simulated
# boards"), and its test.

BOARDSIM_BIN    := $(BUILD)/bin/tg-board-sim
BOARDSIM_DIR    := $(BUILD)/boardsim
# tg_fpga_node's parameters, NAME=VALUE in decimal: the Colorlight top's
BOARDSIM_PARAMS ?= NUM_CTX=4 MAX_READS=4 CNT_W=16 NUM_QUEUES=4 NUM_REGIONS=8 MAX_REQS=4 \
                   MEM_LOG2=14 RX_FIFO_DIST=1 CORE_KHZ=41667 LINK_LAYER=1 LINK_PEER_BITS=4 \
                   LINK_SLOTS_LOG2=3

# The bridge compares the destination of each frame with its parameter
# BRIDGE_MAC, so every node is its own model: node i is Vtg_board_node<i>,
# with BRIDGE_MAC 02:54:47:01:00:0i (an input tied to a constant instead
# costs the Colorlight build 388 logic cells: Yosys does not fold it as
# it folds a parameter). Values go in unsized ('d), as a
# parameter's own default would (a sized override trips WIDTH on the
# narrow wires some modules assign them to). Single-threaded, VCD tracing
# compiled in (switched on by --trace); OPT_FAST reaches the model's make.
BOARDSIM_NODES  := 0 1
boardsim_gparams = $(foreach p,$(1),-G$(word 1,$(subst =, ,$(p)))=\'d$(word 2,$(subst =, ,$(p))))
BOARDSIM_VINC   := $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null)/include
BOARDSIM_VDEFS  := -DVM_COVERAGE=0 -DVM_SC=0 -DVM_TRACE=1 -DVM_TRACE_FST=0 -DVM_TRACE_VCD=1
# Verilator's headers are not -Wextra clean: include them as system headers
BOARDSIM_CXXFLAGS = $(CPPFLAGS) -std=c++17 $(BOARDSIM_VDEFS) -faligned-new \
                    -isystem $(BOARDSIM_VINC) -isystem $(BOARDSIM_VINC)/vltstd
BOARDSIM_RT_OBJS := $(addprefix $(BOARDSIM_DIR)/rt_,verilated.o verilated_vcd_c.o verilated_threads.o)

.PHONY: boardsim boardsim-force
all: $(BOARDSIM_BIN)
boardsim: $(BOARDSIM_BIN)

$(BOARDSIM_DIR)/rt_%.o: $(BOARDSIM_VINC)/%.cpp fpga/boardsim/boardsim.mk
	@mkdir -p $(@D)
	$(CXX) $(BOARDSIM_CXXFLAGS) -O2 -w -c $< -o $@

# One simulator: 1 its binary, 2 its models' folder, 3 the node's top
# module, 4 the variable that holds its parameters.
# The folder's params file is rewritten only when the parameters change,
# so that a change rebuilds the models.
define boardsim_sim
$(2)/params: boardsim-force
	@mkdir -p $$(@D)
	@echo '$$($(4))' | cmp -s - $$@ || echo '$$($(4))' > $$@

$(2)/node%/.built: $$(RTL_SRCS) $$(RTL_INCS) $$(FPGA_RTL) $(2)/params fpga/boardsim/boardsim.mk
	rm -rf $$(@D)
	@mkdir -p $$(@D)
	@echo "verilating $(notdir $(1)) node $$*"
	@$$(JOBTIME) model $(notdir $(1))-node$$* $$(VERILATOR) --cc --build --top-module $(3) -Irtl --trace \
		--x-assign fast -O3 $$(call VL_MAKEFLAGS,-O3) $$(call boardsim_gparams,$$($(4))) \
		--prefix Vtg_board_node$$* -GBRIDGE_MAC=48\'h$$$$(printf '02544701%04x' $$*) \
		-Mdir $$(@D) $$(RTL_SRCS) $$(FPGA_RTL) > $$(@D)/build.log 2>&1 || { cat $$(@D)/build.log; exit 1; }
	@touch $$@

$(1): fpga/boardsim/tg_board_sim.cpp $(foreach i,$(BOARDSIM_NODES),$(2)/node$(i)/.built) $$(BOARDSIM_RT_OBJS)
	@mkdir -p $$(@D) $$(BUILD)/obj/$(notdir $(2))
	$$(CXX) $$(BOARDSIM_CXXFLAGS) $(foreach i,$(BOARDSIM_NODES),-isystem $(2)/node$(i)) \
		-MF $$(BUILD)/obj/$(notdir $(2))/tg_board_sim.d -MT $$@ $$(CXXFLAGS) $$(WARN) \
		-o $$@ $$< $(foreach i,$(BOARDSIM_NODES),$(2)/node$(i)/Vtg_board_node$(i)__ALL.a) $$(BOARDSIM_RT_OBJS) -pthread
endef
$(eval $(call boardsim_sim,$(BOARDSIM_BIN),$(BOARDSIM_DIR),tg_fpga_node,BOARDSIM_PARAMS))

# the test starts the simulator and talks to it with fpga/tools/tg_bridge.py
BOARDSIM_TEST := $(BUILD)/tests/fpga/test_board_sim
TEST_PROGS  += $(BOARDSIM_TEST)

$(BOARDSIM_TEST): tests/fpga/test_board_sim.sh $(BOARDSIM_BIN)
	@mkdir -p $(@D)
	sed -e 's|@TG_BOARD_SIM@|$(abspath $(BOARDSIM_BIN))|' -e 's|@TG_SRC_DIR@|$(abspath .)|' $< > $@
	chmod +x $@

# the demo on the simulated boards, run as README's "On a board" shows it
# (make boardsim, tg-board-sim, make demo DEV=ethsim:...), and on tg-sim
# both ways
BOARDDEMO_TEST := $(BUILD)/tests/fpga/test_board_demo
TEST_PROGS     += $(BOARDDEMO_TEST)

$(BOARDDEMO_TEST): tests/fpga/test_board_demo.sh $(BOARDSIM_BIN) $(BUILD)/bin/tg_demo $(BUILD)/bin/tg-sim
	@mkdir -p $(@D)
	sed -e 's|@TG_BUILD_DIR@|$(abspath $(BUILD))|' -e 's|@TG_SRC_DIR@|$(abspath .)|' $< > $@
	chmod +x $@
