# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# Build fragment: Verilate the NIC core and build the cluster simulator library and tg-sim.

SIM_VDIR    := $(BUILD)/sim/verilated
SIM_VROOT   := $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null)
SIM_VINC    := $(SIM_VROOT)/include
SIM_VMODEL  := $(SIM_VDIR)/Vtg_nic__ALL.a
# one model, single-threaded, VCD tracing compiled in (switched on per run);
# OPT_FAST reaches the model's own make, which otherwise builds at -Os
SIM_VFLAGS  = --cc --top-module tg_nic -Irtl --prefix Vtg_nic --trace \
               --x-assign fast -O3 --build $(SIM_VMAKE)
SIM_VMAKE   = $(call VL_MAKEFLAGS,-O3)

# A profile-guided model (make sim-pgo): SIM_PGO=gen builds it instrumented,
# a run of tg-bench --bench simspeed writes the profile, SIM_PGO=use builds
# it from that. make sim-pgo leaves $(SIM_PGO_MK) behind, so that later
# builds use the profile while it is newer than the RTL; a change to the RTL
# builds the model without it again. No compiler cache for either build.
SIM_PGO_DIR := $(abspath $(BUILD))/sim/pgo
SIM_PGO_MK  := $(BUILD)/sim/pgo.mk
-include $(SIM_PGO_MK)
ifeq ($(SIM_PGO),use)
SIM_PGO_STALE := $(if $(wildcard $(SIM_PGO_DIR)/trained),$(shell find $(RTL_SRCS) $(RTL_INCS) sim/sim.mk -newer $(SIM_PGO_DIR)/trained),none)
ifneq ($(SIM_PGO_STALE),)
SIM_PGO :=
endif
endif
ifeq ($(SIM_PGO),gen)
SIM_VMAKE   = -MAKEFLAGS OPT_FAST=-O3 -CFLAGS -fprofile-generate=$(SIM_PGO_DIR)
SIM_LDLIBS_PGO := -lgcov
else ifeq ($(SIM_PGO),use)
SIM_VMAKE   = -MAKEFLAGS OPT_FAST=-O3 -CFLAGS -fprofile-use=$(SIM_PGO_DIR) \
              -CFLAGS -fprofile-partial-training -CFLAGS -Wno-missing-profile
endif
SIM_VDEFS   := -DVM_COVERAGE=0 -DVM_SC=0 -DVM_TRACE=1 -DVM_TRACE_FST=0 -DVM_TRACE_VCD=1
# Verilator's headers are not -Wextra clean: include them as system headers
SIM_CXXFLAGS = $(CPPFLAGS) -std=c++17 $(SIM_VDEFS) -faligned-new -isystem $(SIM_VDIR) \
               -isystem $(SIM_VINC) -isystem $(SIM_VINC)/vltstd
SIM_RT_SRCS := verilated.cpp verilated_vcd_c.cpp verilated_threads.cpp
SIM_RT_OBJS := $(addprefix $(SIM_VDIR)/rt_,$(SIM_RT_SRCS:.cpp=.o))

# C parts (also built with sanitizers by test-asan) and the C++ glue
SIM_C_SRCS  := sim/tg_sim.c sim/tg_memmodel.c sim/tg_switch.c sim/tg_bridge.c driver/tg_alloc.c driver/tg_drv.c driver/tg_prot.c \
               driver/tg_drv_queue.c
SIM_C_OBJS  := $(patsubst %.c,$(BUILD)/obj/%.o,$(SIM_C_SRCS))
SIM_C_AOBJS := $(patsubst %.c,$(BUILD)/asan/obj/%.o,$(SIM_C_SRCS))
SIM_CXX_OBJS := $(BUILD)/obj/sim/tg_vnic.o $(SIM_RT_OBJS)
SIM_LIB     := $(BUILD)/lib/libtgsim.a
SIM_ALIB    := $(BUILD)/asan/lib/libtgsim.a
# link line of any program using the simulator (C++ runtime for the model)
SIM_LDLIBS  := -lstdc++ -pthread -lm $(SIM_LDLIBS_PGO)

# Split clusters run on Open MPI (docs/distributed.md): its transport is a
# library of its own, so that libtgsim.a and the programs that link only
# it need no MPI; tg-sim, the MPI tests and tg-dsim-bench link both
MPI_PC      ?= ompi-c
MPI_CFLAGS  := $(shell pkg-config --cflags $(MPI_PC) 2>/dev/null)
MPI_LIBS    := $(shell pkg-config --libs $(MPI_PC) 2>/dev/null)
MPIRUN      ?= mpirun
SIM_MPI_LIB := $(BUILD)/lib/libtgsim_mpi.a
SIM_MPI_ALIB := $(BUILD)/asan/lib/libtgsim_mpi.a
$(BUILD)/obj/sim/tg_dist.o $(BUILD)/asan/obj/sim/tg_dist.o $(BUILD)/obj/sim/tg_sim_main.o: \
	CPPFLAGS += $(MPI_CFLAGS)

.PHONY: sim sim-pgo sim-nopgo
all: $(BUILD)/bin/tg-sim
sim: $(BUILD)/bin/tg-sim

# the model built instrumented, trained on the simulation-speed benchmark,
# and built again from its profile; tg-sim and tg-bench relinked with it
sim-pgo:
	rm -rf $(SIM_PGO_DIR) $(SIM_PGO_MK) $(SIM_VDIR)
	$(MAKE) SIM_PGO=gen CCACHE= $(BUILD)/bin/tg-bench
	$(BUILD)/bin/tg-bench --bench simspeed > /dev/null
	touch $(SIM_PGO_DIR)/trained
	echo "SIM_PGO ?= use" > $(SIM_PGO_MK)
	rm -rf $(SIM_VDIR)
	$(MAKE) CCACHE= $(BUILD)/bin/tg-sim $(BUILD)/bin/tg-bench
# back to the model built without a profile
sim-nopgo:
	rm -rf $(SIM_PGO_DIR) $(SIM_PGO_MK) $(SIM_VDIR)
	$(MAKE) $(BUILD)/bin/tg-sim

$(SIM_VMODEL): $(RTL_SRCS) $(RTL_INCS) sim/sim.mk
	rm -rf $(SIM_VDIR)
	@mkdir -p $(SIM_VDIR)
	@echo "verilating tg-sim"
	@$(JOBTIME) model tg-sim $(VERILATOR) $(SIM_VFLAGS) -Mdir $(SIM_VDIR) rtl/tg_nic.v \
		> $(SIM_VDIR)/build.log 2>&1 || { cat $(SIM_VDIR)/build.log; exit 1; }

# the model's objects go into libtgsim.a, so the library stands alone
SIM_VOBJS_STAMP := $(SIM_VDIR)/objs/.stamp
$(SIM_VOBJS_STAMP): $(SIM_VMODEL)
	rm -rf $(@D)
	@mkdir -p $(@D)
	cd $(@D) && ar x ../Vtg_nic__ALL.a
	@touch $@

$(SIM_VDIR)/rt_%.o: $(SIM_VINC)/%.cpp $(SIM_VMODEL)
	$(CXX) $(SIM_CXXFLAGS) -O2 -w -c $< -o $@

$(BUILD)/obj/sim/%.o: sim/%.cpp $(SIM_VMODEL)
	@mkdir -p $(@D)
	$(CXX) $(SIM_CXXFLAGS) $(CXXFLAGS) $(WARN) -c $< -o $@

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CSTD) $(WARN) $(CFLAGS) -c $< -o $@

$(BUILD)/asan/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CSTD) $(WARN) $(CFLAGS) $(SAN_FLAGS) -c $< -o $@

$(SIM_LIB): $(SIM_C_OBJS) $(SIM_CXX_OBJS) $(SIM_VOBJS_STAMP)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $(SIM_C_OBJS) $(SIM_CXX_OBJS) $(SIM_VDIR)/objs/*.o

$(SIM_ALIB): $(SIM_C_AOBJS) $(SIM_CXX_OBJS) $(SIM_VOBJS_STAMP)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $(SIM_C_AOBJS) $(SIM_CXX_OBJS) $(SIM_VDIR)/objs/*.o

$(SIM_MPI_LIB): $(BUILD)/obj/sim/tg_dist.o
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

$(SIM_MPI_ALIB): $(BUILD)/asan/obj/sim/tg_dist.o
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/bin/tg-sim: $(BUILD)/obj/sim/tg_sim_main.o $(SIM_MPI_LIB) $(SIM_LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(SIM_LDLIBS) $(MPI_LIBS)
