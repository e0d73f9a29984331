# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# Telegraphos NIC: top-level build.  Parts of the tree add their targets
# through the *.mk fragments included below.

VERILATOR ?= verilator
IVERILOG  ?= iverilog
VVP       ?= vvp
YOSYS     ?= yosys
PYTHON    ?= python3
CC        ?= cc
CXX       ?= c++
PREFIX    ?= /usr/local
DESTDIR   ?=

BUILD     ?= build
CSTD      := -std=c11
WARN      := -Wall -Wextra -Werror
OPT       ?= -O2 -g
CFLAGS    ?= $(OPT)
CXXFLAGS  ?= $(OPT)
CPPFLAGS  += -Iinclude -MMD -MP
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

RTL_SRCS  := $(sort $(wildcard rtl/*.v))
RTL_INCS  := rtl/tg_hw_defs.vh rtl/tg_payload_word.vh

# test programs registered by the fragments; each exits 0 pass, 1 fail, 77 skip
TEST_PROGS :=

.PHONY: all demo test lint synth-check formal clean install setup check-defs bench

all:

include rtl/rtl.mk
include tests/rtl/tests.mk
include fpga/fpga.mk
include tests/fpga/tests.mk
include fpga/boardsim/boardsim.mk
include sim/sim.mk
include libtg/libtg.mk
include driver/driver.mk
include tests/c/tests.mk
include examples/examples.mk
include bench/bench.mk
include tests/fuzz/fuzz.mk

setup:
	scripts/setup.sh

check-defs:
	$(PYTHON) scripts/gen_hw_defs.py --check

# with clang (scripts/setup.sh installs it) also a short run of every
# libFuzzer harness (tests/fuzz/fuzz.mk)
test: check-defs lint formal $(TEST_PROGS) $(if $(FUZZ_CC),$(FUZZ_BINS))
	scripts/run_tests.sh $(TEST_PROGS)
	$(if $(FUZZ_CC),$(MAKE) --no-print-directory fuzz-smoke,@echo "fuzz-smoke: skipped (no clang)")

formal:
	BUILD=$(BUILD) scripts/formal.sh

clean:
	rm -rf $(BUILD)

# libraries, public headers and the simulator under $(DESTDIR)$(PREFIX)
install: $(LIBTG) $(SIM_LIB) $(BUILD)/bin/tg-sim $(TGCTL)
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include/tg $(DESTDIR)$(PREFIX)/bin
	install -m 644 $(LIBTG) $(SIM_LIB) $(DESTDIR)$(PREFIX)/lib
	install -m 644 include/tg/*.h $(DESTDIR)$(PREFIX)/include/tg
	install -m 755 $(BUILD)/bin/tg-sim $(TGCTL) $(DESTDIR)$(PREFIX)/bin

-include $(shell find $(BUILD)/obj $(BUILD)/asan -name '*.d' 2>/dev/null)
