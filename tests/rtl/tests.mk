# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# RTL unit tests: tests/rtl/<module>/test_<module>.cpp is a Verilator C++
# bench whose top is rtl/<module>.v, or tests/rtl/<module>/tb_*.v where the
# bench needs the module beside another; it builds to
# $(BUILD)/tests/rtl/<module>/test_<module> and joins TEST_PROGS, or
# ICE40_PROGS for the byte-serial twin's modules (make test-ice40).

RTL_ALL_MODS  := $(patsubst tests/rtl/%/,%,$(sort $(dir $(wildcard tests/rtl/*/test_*.cpp))))
RTL_TEST_MODS := $(filter-out $(RTL_ICE40_MODS),$(RTL_ALL_MODS))
RTL_TEST_BINS := $(foreach m,$(RTL_TEST_MODS),$(BUILD)/tests/rtl/$(m)/test_$(m))
RTL_ICE40_BINS := $(foreach m,$(filter $(RTL_ICE40_MODS),$(RTL_ALL_MODS)),$(BUILD)/tests/rtl/$(m)/test_$(m))
RTL_TB_FLAGS  := -Wno-fatal -Irtl --x-assign unique --x-initial unique \
                 -CFLAGS "-std=c++17 -I$(abspath include) -I$(abspath tests/rtl/common)" \
                 $(call VL_MAKEFLAGS,-O1)

# the NIC core with 16-byte blocks and no spill ring, and the byte-serial
# core (tg_nic8), through tg_nic's bench (rule below)
RTL_NARROW_BIN := $(BUILD)/tests/rtl/tg_nic/test_tg_nic_narrow
RTL_NIC8_BINS  := $(BUILD)/tests/rtl/tg_nic/test_tg_nic8 $(BUILD)/tests/rtl/tg_nic/test_tg_nic8_narrow \
                  $(BUILD)/tests/rtl/tg_nic/test_tg_nic8_lite
# the byte-serial core's host target, through tg_host_if's bench, with and
# without a fetch table, and the byte-serial receive engine reading
# one-entry tables straight (rules below)
RTL_VARIANT_BINS := $(BUILD)/tests/rtl/tg_host_if/test_tg_host_if8 $(BUILD)/tests/rtl/tg_host_if/test_tg_host_if8_nofetch \
                    $(BUILD)/tests/rtl/tg_rx_engine8/test_tg_rx_engine8_one

# the region table with 5 of its 32 rows built (rows past the last are
# no entry: the guards of a table smaller than its key index)
RTL_PROT5_BIN := $(BUILD)/tests/rtl/tg_prot/test_tg_prot5

TEST_PROGS     += $(RTL_TEST_BINS) $(RTL_NARROW_BIN) $(RTL_PROT5_BIN)
TEST_RTL_PROGS += $(RTL_TEST_BINS) $(RTL_NARROW_BIN) $(RTL_PROT5_BIN)
ICE40_PROGS    += $(RTL_ICE40_BINS) $(RTL_NIC8_BINS) $(RTL_VARIANT_BINS)

.PHONY: test-rtl
test-rtl: $(RTL_TEST_BINS) $(RTL_NARROW_BIN) $(RTL_PROT5_BIN)
	scripts/run_tests.sh -j $(JOBS) $(RTL_TEST_BINS) $(RTL_NARROW_BIN) $(RTL_PROT5_BIN)

RTL_TB_TOPS := $(wildcard tests/rtl/*/tb_*.v)
# modules the bench tops share
RTL_TB_COMMON := $(wildcard tests/rtl/common/*.v)
# in a bench's recipe: its own Verilog top, if it has one, and the top module
rtl_tb_top = $(wildcard tests/rtl/$(dir $*)tb_*.v)
rtl_tb_mod = $(if $(rtl_tb_top),$(basename $(notdir $(rtl_tb_top))),$(notdir $(patsubst %/,%,$(dir $*))))

$(RTL_TEST_BINS) $(RTL_ICE40_BINS): $(BUILD)/tests/rtl/%: tests/rtl/%.cpp $(RTL_SRCS) $(RTL_INCS) $(RTL_TB_TOPS) $(RTL_TB_COMMON) tests/rtl/common/tb.hpp include/tg/tg_frame.h include/tg/tg_hw.h tests/rtl/tests.mk
	$(call verilate_bench,$(RTL_TB_FLAGS) --top-module $(rtl_tb_mod) $(RTL_SRCS) $(rtl_tb_top) $(RTL_TB_COMMON) $(abspath tests/rtl/$*.cpp))

# tg_nic's bench built again, one rule, the top and its flags per binary:
# tg_nic with 16-byte blocks (BLOCK_BYTES=16) and no REQ spill ring
# (SPILL_RING=0); and tg_nic8 at tg_nic's table sizes and counter width
# (the bench uses several contexts, queues and regions), with 64-byte
# blocks (every phase) and one REQ slot as the iCE40 top builds it
# (tg_txd8 then resends its own copy of a REQ's frame), with 16-byte
# blocks, as the iCE40 top builds them, and four REQ slots, and with
# neither a fetch table nor a region table, as the iCE40 top builds it
RTL_NIC_VARIANTS := $(RTL_NARROW_BIN) $(RTL_NIC8_BINS)
NIC8_G := -GNUM_CTX=16 -GMAX_READS=8 -GNUM_QUEUES=16 -GNUM_REGIONS=32 -GCNT_W=64
$(RTL_NARROW_BIN): NIC_TOP   := tg_nic
$(RTL_NARROW_BIN): NIC_FLAGS := -CFLAGS "-DTB_BLOCK=16 -DTB_SPILL=0" -GBLOCK_BYTES=16 -GSPILL_RING=0
$(BUILD)/tests/rtl/tg_nic/test_tg_nic8: NIC_TOP   := tg_nic8
$(BUILD)/tests/rtl/tg_nic/test_tg_nic8: NIC_FLAGS := -CFLAGS "-DTB_NIC8=1 -DTB_BLOCK=64 -DTB_SPILL=0 -DTB_REQ_SLOTS=1" $(NIC8_G) -GMAX_REQS=1 -GBLOCK_BYTES=64
$(BUILD)/tests/rtl/tg_nic/test_tg_nic8_narrow: NIC_TOP   := tg_nic8
$(BUILD)/tests/rtl/tg_nic/test_tg_nic8_narrow: NIC_FLAGS := -CFLAGS "-DTB_NIC8=1 -DTB_BLOCK=16 -DTB_SPILL=0" $(NIC8_G) -GMAX_REQS=4 -GBLOCK_BYTES=16
$(BUILD)/tests/rtl/tg_nic/test_tg_nic8_lite: NIC_TOP   := tg_nic8
$(BUILD)/tests/rtl/tg_nic/test_tg_nic8_lite: NIC_FLAGS := -CFLAGS "-DTB_NIC8=1 -DTB_BLOCK=64 -DTB_SPILL=0 -DTB_REQ_SLOTS=1 -DTB_NO_FETCH=1 -DTB_NO_PROT=1" \
	-GNUM_CTX=16 -GMAX_READS=0 -GNUM_QUEUES=16 -GNUM_REGIONS=0 -GCNT_W=64 -GMAX_REQS=1 -GBLOCK_BYTES=64
$(RTL_NIC_VARIANTS): $(BUILD)/tests/rtl/tg_nic/%: tests/rtl/tg_nic/test_tg_nic.cpp $(RTL_SRCS) $(RTL_INCS) \
		tests/rtl/common/tb.hpp include/tg/tg_frame.h include/tg/tg_hw.h tests/rtl/tests.mk
	$(call verilate_bench,$(RTL_TB_FLAGS) $(NIC_FLAGS) --top-module $(NIC_TOP) $(RTL_SRCS) \
		$(abspath tests/rtl/tg_nic/test_tg_nic.cpp))

# tg_host_if's bench on tg_host_if8, at tg_host_if's defaults (the bench's
# sizes), its class named as tg_host_if's
$(BUILD)/tests/rtl/tg_host_if/test_tg_host_if8: tests/rtl/tg_host_if/test_tg_host_if.cpp $(RTL_SRCS) $(RTL_INCS) \
		tests/rtl/common/tb.hpp include/tg/tg_frame.h include/tg/tg_hw.h tests/rtl/tests.mk
	$(call verilate_bench,$(RTL_TB_FLAGS) -CFLAGS "-DTB_HOST_IF8=1" --prefix Vtg_host_if --top-module tg_host_if8 \
		$(RTL_SRCS) $(abspath tests/rtl/tg_host_if/test_tg_host_if.cpp))

# the same with MAX_READS = 0: no fetch table, FETCH_GO and ATOMIC_GO refused
$(BUILD)/tests/rtl/tg_host_if/test_tg_host_if8_nofetch: tests/rtl/tg_host_if/test_tg_host_if.cpp $(RTL_SRCS) \
		$(RTL_INCS) tests/rtl/common/tb.hpp include/tg/tg_frame.h include/tg/tg_hw.h tests/rtl/tests.mk
	$(call verilate_bench,$(RTL_TB_FLAGS) -CFLAGS "-DTB_HOST_IF8=1 -DTB_MAX_READS=0" -GMAX_READS=0 \
		--prefix Vtg_host_if --top-module tg_host_if8 $(RTL_SRCS) $(abspath tests/rtl/tg_host_if/test_tg_host_if.cpp))

# tg_rx_engine8's bench with the engine's ONE_ENTRY set
$(BUILD)/tests/rtl/tg_rx_engine8/test_tg_rx_engine8_one: tests/rtl/tg_rx_engine8/test_tg_rx_engine8.cpp \
		tests/rtl/tg_rx_engine8/tb_rx_engine8_pair.v $(RTL_SRCS) $(RTL_INCS) tests/rtl/common/tb.hpp \
		include/tg/tg_frame.h include/tg/tg_hw.h tests/rtl/tests.mk
	$(call verilate_bench,$(RTL_TB_FLAGS) -GONE_ENTRY=1 --top-module tb_rx_engine8_pair $(RTL_SRCS) \
		tests/rtl/tg_rx_engine8/tb_rx_engine8_pair.v $(abspath tests/rtl/tg_rx_engine8/test_tg_rx_engine8.cpp))

# tg_prot's bench with NUM_REGIONS 5
$(RTL_PROT5_BIN): tests/rtl/tg_prot/test_tg_prot.cpp $(RTL_SRCS) $(RTL_INCS) tests/rtl/common/tb.hpp \
		include/tg/tg_hw.h tests/rtl/tests.mk
	$(call verilate_bench,$(RTL_TB_FLAGS) -GNUM_REGIONS=5 -CFLAGS "-DTB_NUM_REGIONS=5" --top-module tg_prot \
		$(RTL_SRCS) $(abspath tests/rtl/tg_prot/test_tg_prot.cpp))
