# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# Build fragment: the user-level library libtg (and its sanitizer variant for test-asan).

LIBTG_SRCS  := libtg/tg_dev.c libtg/tg_ring.c libtg/tg_rmem.c libtg/tg_err.c libtg/tg_open_sim.c \
               libtg/tg_queue.c libtg/tg_atomic.c libtg/tg_pci.c libtg/tg_ldrv.c libtg/tg_hmem.c \
               libtg/tg_eth.c driver/tg_pci_bar.c \
               driver/tg_dma.c driver/tg_alloc.c driver/tg_queue.c driver/tg_prot.c driver/tg_pci.c
LIBTG_OBJS  := $(patsubst %.c,$(BUILD)/obj/%.o,$(LIBTG_SRCS))
LIBTG_AOBJS := $(patsubst %.c,$(BUILD)/asan/obj/%.o,$(LIBTG_SRCS))
LIBTG       := $(BUILD)/lib/libtg.a
LIBTG_ASAN  := $(BUILD)/asan/lib/libtg.a
# what a program linking libtg also links: libpci finds the pci: provider's NIC
LIBPCI_LIBS := $(shell pkg-config --libs libpci 2>/dev/null || echo -lpci)
LIBTG_LDLIBS := $(LIBPCI_LIBS) -pthread

.PHONY: libtg
all: $(LIBTG)
libtg: $(LIBTG)

$(LIBTG): $(LIBTG_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

$(LIBTG_ASAN): $(LIBTG_AOBJS)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^
