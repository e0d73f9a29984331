# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# Build fragment: the driver library libtgdrv and the tgctl tool.
#
# libtgdrv (LIBTGDRV_SRCS, libtg/libtg.mk): the memory allocator, queue
# and region tables, NIC bring-up, PCI discovery and BAR mapping, DMA
# memory and interrupts. Its interface is driver/include/tgdrv/; libtg,
# the simulator and tgctl use it through that alone.

LIBTGDRV      := $(BUILD)/lib/libtgdrv.a
LIBTGDRV_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(LIBTGDRV_SRCS))
TGCTL         := $(BUILD)/bin/tgctl

.PHONY: tgctl libtgdrv
all: $(LIBTGDRV) $(TGCTL)
tgctl: $(TGCTL)
libtgdrv: $(LIBTGDRV)

$(LIBTGDRV): $(LIBTGDRV_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

$(TGCTL): $(BUILD)/obj/driver/tgctl.o $(LIBTGDRV) $(LIBTG)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(LIBTG_LDLIBS)
