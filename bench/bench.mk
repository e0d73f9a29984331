# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# Build fragment: tg-bench (benchmarks on the in-process cluster), the RTL-pair
# simulation-speed bench under Icarus and Verilator, and `make bench`.

BENCH_BIN   := $(BUILD)/bin/tg-bench
BENCH_SRCS  := bench/tg_bench.c bench/bench_paths.c
BENCH_OUT   ?= $(BUILD)/bench
# extra tg-bench options, e.g. BENCH_ARGS="--link-bytes 2 --switch-latency 30"
BENCH_ARGS  ?=
# cycles of the RTL-pair runs: Icarus is slow, Verilator gets more to time
BENCH_IVL_CYCLES ?= 5000
BENCH_VL_CYCLES  ?= 2000000
BENCH_TB_VVP := $(BUILD)/bench/tb_tg_pair.vvp
BENCH_TB_VL  := $(BUILD)/bench/vl/Vtb_tg_pair

all: $(BENCH_BIN)

$(BENCH_BIN): $(BENCH_SRCS) bench/tg_bench.h examples/tg_swq.h $(LIBTG) $(SIM_LIB)
	@mkdir -p $(@D) $(BUILD)/obj/bench
	$(CC) $(CPPFLAGS) -Iexamples -MF $(BUILD)/obj/bench/tg_bench.d -MT $@ $(CSTD) $(WARN) $(CFLAGS) \
		-o $@ $(BENCH_SRCS) $(LIBTG) $(SIM_LIB) $(SIM_LDLIBS) $(LIBTG_LDLIBS)

$(BENCH_TB_VVP): bench/tb_tg_pair.v $(RTL_SRCS) $(RTL_INCS)
	@mkdir -p $(@D)
	$(IVERILOG) -g2012 -Irtl -s tb_tg_pair_top -o $@ bench/tb_tg_pair.v $(RTL_SRCS)

$(BENCH_TB_VL): bench/tb_tg_pair.v bench/tb_tg_pair_main.cpp $(RTL_SRCS) $(RTL_INCS)
	@mkdir -p $(@D)
	$(VERILATOR) --cc --exe --build -Wno-fatal -Irtl --top-module tb_tg_pair -O3 \
		--x-assign fast $(call VL_MAKEFLAGS,-O3) -Mdir $(@D) \
		bench/tb_tg_pair.v $(RTL_SRCS) $(abspath bench/tb_tg_pair_main.cpp) -o $(abspath $@) \
		> $(@D)/build.log 2>&1 || { cat $(@D)/build.log; exit 1; }

.PHONY: bench
# the tables go to the terminal and to $(BENCH_OUT).txt; tg-bench's exit
# status, not tee's, is the target's
bench: $(BENCH_BIN) $(BENCH_TB_VVP) $(BENCH_TB_VL) $(BUILD)/bin/tg-sim
	@mkdir -p $(BENCH_OUT)
	{ $(BENCH_BIN) --out $(BENCH_OUT) --tg-sim $(BUILD)/bin/tg-sim \
		--icarus "$(VVP) -n $(BENCH_TB_VVP) +cycles=$(BENCH_IVL_CYCLES)" \
		--verilator "$(BENCH_TB_VL) +cycles=$(BENCH_VL_CYCLES)" $(BENCH_ARGS); \
	  echo $$? > $(BENCH_OUT)/exit-status; } | tee $(BENCH_OUT).txt
	@exit $$(cat $(BENCH_OUT)/exit-status)

# the quick check `make test` runs: tg-bench in a short mode
BENCH_TEST := $(BUILD)/tests/test_bench
TEST_PROGS += $(BENCH_TEST)

$(BENCH_TEST): bench/test_bench.sh $(BENCH_BIN) $(BUILD)/bin/tg-sim
	@mkdir -p $(@D)
	sed -e 's|@TG_BENCH@|$(abspath $(BENCH_BIN))|' -e 's|@TG_SIM@|$(abspath $(BUILD)/bin/tg-sim)|' $< > $@
	chmod +x $@

# distributed simulation speed: 16 and 64 nodes over 1, 2 and 4 MPI
# ranks in one mpirun (own target: it takes a minute or more)
DSIM_BENCH_BIN  := $(BUILD)/bin/tg-dsim-bench
DSIM_BENCH_NP   ?= 4
DSIM_BENCH_ARGS ?= --nodes 16,64 --ranks 1,2,4 --cycles 100000 --reps 3

all: $(DSIM_BENCH_BIN)

$(DSIM_BENCH_BIN): bench/tg_dsim_bench.c $(LIBTG) $(SIM_MPI_LIB) $(SIM_LIB)
	@mkdir -p $(@D) $(BUILD)/obj/bench
	$(CC) $(CPPFLAGS) $(MPI_CFLAGS) -Isim -MF $(BUILD)/obj/bench/tg_dsim_bench.d -MT $@ $(CSTD) \
		$(WARN) $(CFLAGS) -o $@ $< $(LIBTG) $(SIM_MPI_LIB) $(SIM_LIB) $(SIM_LDLIBS) \
		$(LIBTG_LDLIBS) $(MPI_LIBS)

# Open MPI refuses to run as root unless told (a developer target, like
# the tests, which CI runs as root)
.PHONY: bench-dist
bench-dist: $(DSIM_BENCH_BIN)
	OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
	$(MPIRUN) --oversubscribe -np $(DSIM_BENCH_NP) $(DSIM_BENCH_BIN) $(DSIM_BENCH_ARGS)

# make test runs the RTL-pair testbench under both simulators
PAIR_TEST := $(BUILD)/tests/test_pair_sims
TEST_PROGS     += $(PAIR_TEST)
TEST_RTL_PROGS += $(PAIR_TEST)

$(PAIR_TEST): bench/test_pair_sims.sh $(BENCH_TB_VVP) $(BENCH_TB_VL)
	@mkdir -p $(@D)
	sed -e 's|@TG_PAIR_VVP@|$(abspath $(BENCH_TB_VVP))|' -e 's|@TG_PAIR_VL@|$(abspath $(BENCH_TB_VL))|' $< > $@
	chmod +x $@
