# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# Build fragment: the C cluster tests (one program per feature) and the sanitizer run.

CTEST_NAMES := test_alloc test_models test_basic test_open test_badargs test_write_sizes \
               test_pattern test_two_writers test_fetch test_fence test_window test_range \
               test_guard test_badframes test_determinism test_16node test_tgsim test_timeout \
               test_enq_basic test_enq_stress test_enq_race test_enq_tgsim \
               test_atomic test_atomic_locks test_swq test_enq_hol test_pci \
               test_enq_spill test_conformance test_switch_faults test_netfaults \
               test_tgctl_stats test_wireshark test_link_loss test_link_outage \
               test_dist test_bridge test_fuzz_rx test_protect test_protect16 test_dma test_eth \
               test_drv_setup test_deq_late test_errtext test_nullargs test_enq_sleep \
               test_fastforward
CTEST_PROGS := $(addprefix $(BUILD)/tests/,$(CTEST_NAMES))
CTEST_APROGS := $(addprefix $(BUILD)/asan/tests/,$(CTEST_NAMES))
CTEST_DEPS  := tests/c/tg_test.h tests/c/tg_test_child.h tests/c/tg_fakepci.h tests/c/tests.mk
# test_tgsim starts this simulator (or $TG_SIM_BIN); test_tgctl_stats runs tgctl
CTEST_DEFS  := -DTG_SIM_BIN='"$(abspath $(BUILD))/bin/tg-sim"' -DTGCTL_BIN='"$(abspath $(TGCTL))"' \
               -DTG_BOARD_SIM_BIN='"$(abspath $(BOARDSIM_BIN))"' \
               -DTG_SRC_DIR='"$(abspath .)"'

TEST_PROGS += $(CTEST_PROGS)

.PHONY: test-c test-asan test-link
test-c: $(CTEST_PROGS) $(BUILD)/bin/tg-sim
	scripts/run_tests.sh -j $(JOBS) $(CTEST_PROGS)

# the same tests with every NIC's link layer on (tests of the raw network
# keep it off)
test-link: $(CTEST_PROGS) $(BUILD)/bin/tg-sim
	TG_TEST_LINK=1 scripts/run_tests.sh -j $(JOBS) $(CTEST_PROGS)

$(BUILD)/tests/test_tgsim: $(BUILD)/bin/tg-sim
$(BUILD)/tests/test_enq_sleep $(BUILD)/asan/tests/test_enq_sleep: $(BUILD)/bin/tg-sim
# test_eth starts tg-board-sim
$(BUILD)/tests/test_eth $(BUILD)/asan/tests/test_eth: $(BOARDSIM_BIN)
# test_dist runs tg_dist_worker (an MPI program, one per rank) and tg-sim
# under mpirun
DIST_WORKER  := $(BUILD)/tests/tg_dist_worker
DIST_AWORKER := $(BUILD)/asan/tests/tg_dist_worker
$(BUILD)/tests/test_dist: $(BUILD)/bin/tg-sim $(DIST_WORKER) $(TGCTL)
$(BUILD)/tests/test_dist: CTEST_DEFS += -DTG_DIST_WORKER='"$(abspath $(DIST_WORKER))"' \
	-DTG_MPIRUN='"$(MPIRUN)"'
# test_bridge also bridges a tg-sim under mpirun
$(BUILD)/tests/test_bridge $(BUILD)/asan/tests/test_bridge: $(BUILD)/bin/tg-sim
$(BUILD)/tests/test_bridge $(BUILD)/asan/tests/test_bridge: CTEST_DEFS += -DTG_MPIRUN='"$(MPIRUN)"'
$(BUILD)/asan/tests/test_dist: $(BUILD)/bin/tg-sim $(DIST_AWORKER) $(TGCTL)
$(BUILD)/asan/tests/test_dist: CTEST_DEFS += -DTG_DIST_WORKER='"$(abspath $(DIST_AWORKER))"' \
	-DTG_MPIRUN='"$(MPIRUN)"'

$(DIST_WORKER): tests/c/tg_dist_worker.c $(CTEST_DEPS) $(LIBTG) $(SIM_MPI_LIB) $(SIM_LIB)
	@mkdir -p $(@D) $(BUILD)/obj/tests
	$(CC) $(CPPFLAGS) $(MPI_CFLAGS) -MF $(BUILD)/obj/tests/tg_dist_worker.d -MT $@ $(CSTD) \
		$(WARN) $(CFLAGS) -o $@ $< $(LIBTG) $(SIM_MPI_LIB) $(SIM_LIB) $(SIM_LDLIBS) \
		$(LIBTG_LDLIBS) $(MPI_LIBS)

$(DIST_AWORKER): tests/c/tg_dist_worker.c $(CTEST_DEPS) $(LIBTG_ASAN) $(SIM_MPI_ALIB) $(SIM_ALIB)
	@mkdir -p $(@D) $(BUILD)/asan/obj/tests
	$(CC) $(CPPFLAGS) $(MPI_CFLAGS) -MF $(BUILD)/asan/obj/tests/tg_dist_worker.d -MT $@ \
		$(CSTD) $(WARN) $(CFLAGS) $(SAN_FLAGS) -o $@ $< $(LIBTG_ASAN) $(SIM_MPI_ALIB) \
		$(SIM_ALIB) $(SIM_LDLIBS) $(LIBTG_LDLIBS) $(MPI_LIBS)

$(BUILD)/tests/%: tests/c/%.c $(CTEST_DEPS) $(LIBTG) $(SIM_LIB)
	@mkdir -p $(@D) $(BUILD)/obj/tests
	$(CC) $(CPPFLAGS) -MF $(BUILD)/obj/tests/$*.d -MT $@ $(CSTD) $(WARN) $(CFLAGS) \
		$(CTEST_DEFS) -o $@ $< $(LIBTG) $(SIM_LIB) $(SIM_LDLIBS) $(LIBTG_LDLIBS)

# sanitizers: libtg, the simulator's C parts and the tests (the Verilated
# model itself is not instrumented)
$(BUILD)/asan/tests/test_tgsim: $(BUILD)/bin/tg-sim

$(BUILD)/asan/tests/%: tests/c/%.c $(CTEST_DEPS) $(LIBTG_ASAN) $(SIM_ALIB)
	@mkdir -p $(@D) $(BUILD)/asan/obj/tests
	$(CC) $(CPPFLAGS) -MF $(BUILD)/asan/obj/tests/$*.d -MT $@ $(CSTD) $(WARN) $(CFLAGS) \
		$(SAN_FLAGS) $(CTEST_DEFS) -o $@ $< $(LIBTG_ASAN) $(SIM_ALIB) $(SIM_LDLIBS) $(LIBTG_LDLIBS)

# The long stress variants: make test runs each of these tests with a
# shorter workload that checks the same invariants. make test-long runs
# them all.
.PHONY: test-long test-dist-long test-enq-long test-atomic-long
test-long: test-dist-long test-enq-long test-atomic-long

# the distributed-simulation test with a workload 20 times longer
test-dist-long: $(BUILD)/tests/test_dist
	TG_DIST_SCALE=20 $(BUILD)/tests/test_dist

# the enqueue stress test with four times the REQs make test sends
test-enq-long: $(BUILD)/tests/test_enq_stress
	TG_ENQ_N=100000 $(BUILD)/tests/test_enq_stress

# four nodes counting on one word with 16 times make test's fetch-and-adds
test-atomic-long: $(BUILD)/tests/test_atomic
	TG_ATOMIC_N=200000 $(BUILD)/tests/test_atomic

test-asan: $(CTEST_APROGS)
	scripts/run_tests.sh -j $(JOBS) $(CTEST_APROGS)

$(BUILD)/tests/test_enq_tgsim: $(BUILD)/bin/tg-sim
$(BUILD)/asan/tests/test_enq_tgsim: $(BUILD)/bin/tg-sim
$(BUILD)/tests/test_atomic_locks: $(BUILD)/bin/tg-sim
$(BUILD)/asan/tests/test_atomic_locks: $(BUILD)/bin/tg-sim
$(BUILD)/tests/test_tgctl_stats: $(BUILD)/bin/tg-sim $(TGCTL)
$(BUILD)/asan/tests/test_tgctl_stats: $(BUILD)/bin/tg-sim $(TGCTL)

# test_pci also calls the driver's PCI code directly and runs tgctl
$(BUILD)/tests/test_pci: tests/c/test_pci.c $(CTEST_DEPS) $(LIBTG) $(TGCTL)
	@mkdir -p $(@D) $(BUILD)/obj/tests
	$(CC) $(CPPFLAGS) -MF $(BUILD)/obj/tests/test_pci.d -MT $@ $(CSTD) $(WARN) $(CFLAGS) \
		-DTGCTL_BIN='"$(abspath $(TGCTL))"' -o $@ $< $(LIBTG) $(LIBTG_LDLIBS)

$(BUILD)/asan/tests/test_pci: tests/c/test_pci.c $(CTEST_DEPS) $(LIBTG_ASAN) $(TGCTL)
	@mkdir -p $(@D) $(BUILD)/asan/obj/tests
	$(CC) $(CPPFLAGS) -MF $(BUILD)/asan/obj/tests/test_pci.d -MT $@ $(CSTD) $(WARN) $(CFLAGS) \
		$(SAN_FLAGS) -DTGCTL_BIN='"$(abspath $(TGCTL))"' -o $@ $< $(LIBTG_ASAN) $(LIBTG_LDLIBS)

# test_dma: the DMA-memory and interrupt code of driver/ and the pci:
# provider as the node's driver (no hardware)
$(BUILD)/tests/test_dma: tests/c/test_dma.c $(CTEST_DEPS) $(LIBTG)
	@mkdir -p $(@D) $(BUILD)/obj/tests
	$(CC) $(CPPFLAGS) -MF $(BUILD)/obj/tests/test_dma.d -MT $@ $(CSTD) $(WARN) $(CFLAGS) \
		-o $@ $< $(LIBTG) $(LIBTG_LDLIBS)

$(BUILD)/asan/tests/test_dma: tests/c/test_dma.c $(CTEST_DEPS) $(LIBTG_ASAN)
	@mkdir -p $(@D) $(BUILD)/asan/obj/tests
	$(CC) $(CPPFLAGS) -MF $(BUILD)/asan/obj/tests/test_dma.d -MT $@ $(CSTD) $(WARN) $(CFLAGS) \
		$(SAN_FLAGS) -o $@ $< $(LIBTG_ASAN) $(LIBTG_LDLIBS)

# the installed tree: a program built outside the source tree with
# pkg-config against libtg.so, run against the installed tg-sim
INSTALL_TEST := $(BUILD)/tests/test_install
TEST_PROGS += $(INSTALL_TEST)
$(INSTALL_TEST): tests/install/test_install.sh tests/install/tg_hello.c scripts/install.sh \
		 scripts/gen_libtg_map.py $(LIBTG) $(LIBTG_SO) $(SIM_LIB) $(BUILD)/bin/tg-sim $(TGCTL)
	@mkdir -p $(@D)
	sed -e 's|@SRC@|$(abspath .)|' -e 's|@BUILD@|$(abspath $(BUILD))|' \
		-e 's|@HDRS@|$(addprefix $(abspath .)/,$(LIBTG_PUB_HDRS))|' $< > $@
	chmod +x $@
