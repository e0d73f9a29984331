# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# Build fragment: example programs, and `make demo` (tg-sim + tg_demo via scripts/demo.sh).

EX_DEMO := $(BUILD)/bin/tg_demo

all: $(EX_DEMO)

$(EX_DEMO): examples/tg_demo.c $(LIBTG)
	@mkdir -p $(@D) $(BUILD)/obj/examples
	$(CC) $(CPPFLAGS) -MF $(BUILD)/obj/examples/tg_demo.d -MT $@ $(CSTD) $(WARN) $(CFLAGS) \
		-o $@ $< $(LIBTG) $(LIBTG_LDLIBS)

demo: $(EX_DEMO) $(BUILD)/bin/tg-sim
	BUILD=$(BUILD) scripts/demo.sh

# software remote queue (tg_swq.h) against the NIC's remote enqueue, in-process
EX_SWQ := $(BUILD)/bin/tg-swq-demo

all: $(EX_SWQ)

$(EX_SWQ): examples/tg_swq.c examples/tg_swq.h $(LIBTG) $(SIM_LIB)
	@mkdir -p $(@D) $(BUILD)/obj/examples
	$(CC) $(CPPFLAGS) -MF $(BUILD)/obj/examples/tg_swq.d -MT $@ $(CSTD) $(WARN) $(CFLAGS) \
		-o $@ $< $(LIBTG) $(SIM_LIB) $(SIM_LDLIBS) $(LIBTG_LDLIBS)
