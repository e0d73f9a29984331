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
CPPFLAGS  += -Iinclude -Idriver/include -MMD -MP
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# programs and builds make test runs side by side (make test starts its
# own parallel make: plain `make test` uses every core)
JOBS      ?= $(shell nproc 2>/dev/null || echo 2)
# ccache, when installed, in front of every C and C++ compiler call,
# Verilator's model builds included (CCACHE= turns it off); never required
CCACHE    ?= $(shell command -v ccache 2>/dev/null)
ifneq ($(CCACHE),)
ifeq ($(findstring ccache,$(CC) $(CXX)),)
override CC  := $(CCACHE) $(CC)
override CXX := $(CCACHE) $(CXX)
endif
endif
# Verilator's own make of a model: optimisation, and ccache when present
VL_MAKEFLAGS = -MAKEFLAGS OPT_FAST=$(1) $(if $(CCACHE),-MAKEFLAGS OBJCACHE=$(CCACHE))
# wall time of one build or proof, for make test's table (scripts/timed.sh)
TIMING    := $(BUILD)/timing
JOBTIME   := scripts/timed.sh $(TIMING)/jobs.tsv
# In a bench's recipe, $(call verilate_bench,ARGS): Verilator builds $@
# from ARGS (flags, sources, the C++ bench), timed for make test's table,
# its objects in obj_NAME beside it and its output in NAME.log, shown when
# the build fails
define verilate_bench
@mkdir -p $(dir $@)
@echo "verilating $(notdir $@)"
@$(JOBTIME) model $(notdir $@) $(VERILATOR) --cc --exe --build $(1) -Mdir $(dir $@)obj_$(notdir $@) \
	-o $(abspath $@) > $@.log 2>&1 || { cat $@.log; exit 1; }
endef

RTL_SRCS  := $(sort $(wildcard rtl/*.v))
RTL_INCS  := rtl/tg_hw_defs.vh rtl/tg_onehot.vh

# test programs registered by the fragments; each exits 0 pass, 1 fail, 77
# skip: TEST_RTL_PROGS are the RTL and FPGA benches, the rest C programs
# and scripts.
TEST_PROGS :=
TEST_RTL_PROGS :=

.PHONY: all demo test test-build test-run-rtl test-run-c lint synth-check formal clean \
        install setup check-defs bench

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

# make test runs its parts in order, each with $(JOBS) jobs side by side,
# and prints the wall time of each (scripts/test.sh): checks, then the
# formal proofs with every model and program build, the RTL benches, the
# C tests, and with clang (scripts/setup.sh installs it) a short run of
# every libFuzzer harness (tests/fuzz/fuzz.mk)
test:
	@MAKE="$(MAKE)" JOBS=$(JOBS) BUILD=$(BUILD) FUZZ="$(if $(FUZZ_CC),1)" scripts/test.sh

# everything make test runs, built
test-build: $(TEST_PROGS) $(if $(FUZZ_CC),$(FUZZ_BINS))
TEST_C_PROGS = $(filter-out $(TEST_RTL_PROGS),$(TEST_PROGS))
test-run-rtl: $(TEST_RTL_PROGS)
	scripts/run_tests.sh -j $(JOBS) $(TEST_RTL_PROGS)
test-run-c: $(TEST_C_PROGS)
	scripts/run_tests.sh -j $(JOBS) $(TEST_C_PROGS)

# Every proof and deliberate bug of scripts/formal.sh is a target of its
# own (its stamp in $(BUILD)/formal), so that they run side by side.
FORMAL_JOBS       := $(shell scripts/formal.sh --list)
FORMAL_STAMPS     := $(FORMAL_JOBS:%=$(BUILD)/formal/%.pass)
formal: $(FORMAL_STAMPS)
	@echo "formal: $(words $(FORMAL_JOBS)) jobs passed ($(BUILD)/formal/*.pass; scripts/formal.sh names them)"
$(BUILD)/formal/%.pass: $(RTL_SRCS) $(RTL_INCS) scripts/formal.sh scripts/requirements.txt
	@mkdir -p $(@D)
	@BUILD=$(BUILD) $(JOBTIME) formal $* scripts/formal.sh $*
	@touch $@

clean:
	rm -rf $(BUILD)

# libraries (libtg.a, libtg.so, libtgsim.a), pkg-config's tg.pc, the
# public headers, tg-sim and tgctl under $(DESTDIR)$(PREFIX)
install: $(LIBTG) $(LIBTG_SO) $(SIM_LIB) $(BUILD)/bin/tg-sim $(TGCTL)
	TG_SOVER=$(LIBTG_SOVER) scripts/install.sh $(BUILD) "$(DESTDIR)" $(PREFIX) \
		"$(LIBPCI_LIBS) -pthread" $(LIBTG_PUB_HDRS)

-include $(shell find $(BUILD)/obj $(BUILD)/asan $(BUILD)/pic -name '*.d' 2>/dev/null)
