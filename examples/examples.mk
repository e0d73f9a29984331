# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# Build fragment: example programs, and `make demo` (tg_demo against tg-sim or two boards, via scripts/demo.sh).

EX_DEMO := $(BUILD)/bin/tg_demo

all: $(EX_DEMO)

$(EX_DEMO): examples/tg_demo.c $(LIBTG)
	@mkdir -p $(@D) $(BUILD)/obj/examples
	$(CC) $(CPPFLAGS) -MF $(BUILD)/obj/examples/tg_demo.d -MT $@ $(CSTD) $(WARN) $(CFLAGS) \
		-o $@ $< $(LIBTG) $(LIBTG_LDLIBS)

# make demo: tg_demo against a two-node tg-sim. DEV="DEV0 DEV1" (or
# DEV=eth:IFNAME, both boards' bridges on one interface): against those
# devices, two FPGA boards or tg-board-sim's, with no simulator started
# (README, "On a board"). DEMO_ARGS: more arguments of tg_demo.
DEV       ?=
DEMO_ARGS ?=
demo: $(EX_DEMO) $(if $(DEV),,$(BUILD)/bin/tg-sim)
	BUILD=$(BUILD) DEV="$(DEV)" DEMO_ARGS="$(DEMO_ARGS)" scripts/demo.sh

# software remote queue (tg_swq.h) against the NIC's remote enqueue, in-process
EX_SWQ := $(BUILD)/bin/tg-swq-demo

all: $(EX_SWQ)

$(EX_SWQ): examples/tg_swq.c examples/tg_swq.h $(LIBTG) $(SIM_LIB)
	@mkdir -p $(@D) $(BUILD)/obj/examples
	$(CC) $(CPPFLAGS) -MF $(BUILD)/obj/examples/tg_swq.d -MT $@ $(CSTD) $(WARN) $(CFLAGS) \
		-o $@ $< $(LIBTG) $(SIM_LIB) $(SIM_LDLIBS) $(LIBTG_LDLIBS)
