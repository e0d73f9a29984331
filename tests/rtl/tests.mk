# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# RTL unit tests: tests/rtl/<module>/test_<module>.cpp is a Verilator C++
# bench whose top is rtl/<module>.v, or tests/rtl/<module>/tb_*.v where the
# bench needs the module beside another; it builds to
# $(BUILD)/tests/rtl/<module>/test_<module> and joins TEST_PROGS.

RTL_TEST_MODS := $(patsubst tests/rtl/%/,%,$(sort $(dir $(wildcard tests/rtl/*/test_*.cpp))))
RTL_TEST_BINS := $(foreach m,$(RTL_TEST_MODS),$(BUILD)/tests/rtl/$(m)/test_$(m))
RTL_TB_FLAGS  := -Wno-fatal -Irtl --x-assign unique --x-initial unique \
                 -CFLAGS "-std=c++17 -I$(abspath include) -I$(abspath tests/rtl/common)" \
                 $(call VL_MAKEFLAGS,-O1)

# the NIC core with 16-byte blocks and no spill ring, through tg_nic's
# bench (rule below)
RTL_NARROW_BIN := $(BUILD)/tests/rtl/tg_nic/test_tg_nic_narrow

# the region table with 5 of its 32 rows built (rows past the last are
# no entry: the guards of a table smaller than its key index)
RTL_PROT5_BIN := $(BUILD)/tests/rtl/tg_prot/test_tg_prot5

# the REQ sender with 3 slots (not a power of two) and with 16 (the most)
RTL_REQ3_BIN  := $(BUILD)/tests/rtl/tg_req_tx/test_tg_req_tx3
RTL_REQ16_BIN := $(BUILD)/tests/rtl/tg_req_tx/test_tg_req_tx16

# the CSR page with 16-bit counters (they wrap within the bench) and no
# link layer, as the Colorlight top builds it
RTL_CSR16_BIN := $(BUILD)/tests/rtl/tg_csr/test_tg_csr16

RTL_VARIANT_BINS := $(RTL_NARROW_BIN) $(RTL_PROT5_BIN) $(RTL_REQ3_BIN) $(RTL_REQ16_BIN) $(RTL_CSR16_BIN)
TEST_PROGS     += $(RTL_TEST_BINS) $(RTL_VARIANT_BINS)
TEST_RTL_PROGS += $(RTL_TEST_BINS) $(RTL_VARIANT_BINS)

.PHONY: test-rtl
test-rtl: $(RTL_TEST_BINS) $(RTL_VARIANT_BINS)
	scripts/run_tests.sh -j $(JOBS) $(RTL_TEST_BINS) $(RTL_VARIANT_BINS)

RTL_TB_TOPS := $(wildcard tests/rtl/*/tb_*.v)
# modules the bench tops share
RTL_TB_COMMON := $(wildcard tests/rtl/common/*.v)
# in a bench's recipe: its own Verilog top, if it has one, and the top module
rtl_tb_top = $(wildcard tests/rtl/$(dir $*)tb_*.v)
rtl_tb_mod = $(if $(rtl_tb_top),$(basename $(notdir $(rtl_tb_top))),$(notdir $(patsubst %/,%,$(dir $*))))

$(RTL_TEST_BINS): $(BUILD)/tests/rtl/%: tests/rtl/%.cpp $(RTL_SRCS) $(RTL_INCS) $(RTL_TB_TOPS) $(RTL_TB_COMMON) tests/rtl/common/tb.hpp include/tg/tg_frame.h include/tg/tg_hw.h tests/rtl/tests.mk
	$(call verilate_bench,$(RTL_TB_FLAGS) --top-module $(rtl_tb_mod) $(RTL_SRCS) $(rtl_tb_top) $(RTL_TB_COMMON) $(abspath tests/rtl/$*.cpp))

# tg_nic's bench built again: tg_nic with 16-byte blocks (BLOCK_BYTES=16)
# and no REQ spill ring (SPILL_RING=0)
$(RTL_NARROW_BIN): tests/rtl/tg_nic/test_tg_nic.cpp $(RTL_SRCS) $(RTL_INCS) tests/rtl/common/tb.hpp \
		include/tg/tg_frame.h include/tg/tg_hw.h tests/rtl/tests.mk
	$(call verilate_bench,$(RTL_TB_FLAGS) -CFLAGS "-DTB_BLOCK=16 -DTB_SPILL=0" -GBLOCK_BYTES=16 -GSPILL_RING=0 \
		--top-module tg_nic $(RTL_SRCS) $(abspath tests/rtl/tg_nic/test_tg_nic.cpp))

# tg_req_tx's bench with MAX_REQS 3 and 16
$(BUILD)/tests/rtl/tg_req_tx/test_tg_req_tx%: tests/rtl/tg_req_tx/test_tg_req_tx.cpp $(RTL_SRCS) \
		$(RTL_INCS) tests/rtl/common/tb.hpp include/tg/tg_hw.h tests/rtl/tests.mk
	$(call verilate_bench,$(RTL_TB_FLAGS) -GMAX_REQS=$* -CFLAGS "-DTB_MAX_REQS=$*" \
		--top-module tg_req_tx $(RTL_SRCS) $(abspath tests/rtl/tg_req_tx/test_tg_req_tx.cpp))

# tg_csr's bench with CNT_W 16
$(RTL_CSR16_BIN): tests/rtl/tg_csr/test_tg_csr.cpp $(RTL_SRCS) $(RTL_INCS) tests/rtl/common/tb.hpp \
		include/tg/tg_hw.h tests/rtl/tests.mk
	$(call verilate_bench,$(RTL_TB_FLAGS) -GCNT_W=16 -GLINK_LAYER=0 -CFLAGS "-DTB_CNT_W=16 -DTB_LINK=0" \
		--top-module tg_csr \
		$(RTL_SRCS) $(abspath tests/rtl/tg_csr/test_tg_csr.cpp))

# tg_prot's bench with NUM_REGIONS 5
$(RTL_PROT5_BIN): tests/rtl/tg_prot/test_tg_prot.cpp $(RTL_SRCS) $(RTL_INCS) tests/rtl/common/tb.hpp \
		include/tg/tg_hw.h tests/rtl/tests.mk
	$(call verilate_bench,$(RTL_TB_FLAGS) -GNUM_REGIONS=5 -CFLAGS "-DTB_NUM_REGIONS=5" --top-module tg_prot \
		$(RTL_SRCS) $(abspath tests/rtl/tg_prot/test_tg_prot.cpp))
