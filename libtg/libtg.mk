# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# Build fragment: the user-level library libtg (and its sanitizer variant for test-asan).

# the driver library libtgdrv (driver/driver.mk): libtg uses it through
# driver/include/tgdrv/ only, and carries its objects, so that a program
# links libtg alone
LIBTGDRV_SRCS := driver/tg_alloc.c driver/tg_drv.c driver/tg_prot.c driver/tg_drv_queue.c \
                 driver/tg_dma.c driver/tg_pci.c driver/tg_pci_bar.c
LIBTG_SRCS  := libtg/tg_dev.c libtg/tg_prov_sim.c libtg/tg_rmem.c libtg/tg_err.c libtg/tg_open_sim.c \
               libtg/tg_queue.c libtg/tg_atomic.c libtg/tg_prov_pci.c libtg/tg_ldrv.c libtg/tg_hmem.c \
               libtg/tg_prov_eth.c $(LIBTGDRV_SRCS)
LIBTG_OBJS  := $(patsubst %.c,$(BUILD)/obj/%.o,$(LIBTG_SRCS))
LIBTG_AOBJS := $(patsubst %.c,$(BUILD)/asan/obj/%.o,$(LIBTG_SRCS))
LIBTG       := $(BUILD)/lib/libtg.a
LIBTG_ASAN  := $(BUILD)/asan/lib/libtg.a
# what a program linking libtg also links: libpci finds the pci: provider's NIC
LIBPCI_LIBS := $(shell pkg-config --libs libpci 2>/dev/null || echo -lpci)
LIBTG_LDLIBS := $(LIBPCI_LIBS) -pthread

# the shared library: the same objects built position-independent, linked
# with nothing undefined, exporting exactly the functions tg.h declares
# (scripts/gen_libtg_map.py) under the version TG_1; the in-process
# simulator (sim.h) stays in libtgsim.a
LIBTG_PUB_HDRS := include/tg/tg.h include/tg/tg_bar.h include/tg/tg_barrier.h include/tg/tg_hw.h \
                  include/tg/tg_queue.h include/tg/sim.h include/tg/tg_board.h
LIBTG_SOVER := 1
LIBTG_SO    := $(BUILD)/lib/libtg.so.$(LIBTG_SOVER)
LIBTG_MAP   := $(BUILD)/lib/libtg.map
LIBTG_PIC_OBJS := $(patsubst %.c,$(BUILD)/pic/obj/%.o,$(LIBTG_SRCS))

.PHONY: libtg
all: $(LIBTG) $(LIBTG_SO)
libtg: $(LIBTG) $(LIBTG_SO)

$(LIBTG): $(LIBTG_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/pic/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CSTD) $(WARN) $(CFLAGS) -fPIC -c $< -o $@

$(LIBTG_MAP): scripts/gen_libtg_map.py $(LIBTG_PUB_HDRS)
	@mkdir -p $(@D)
	$(PYTHON) scripts/gen_libtg_map.py include/tg/tg.h > $@

$(LIBTG_SO): $(LIBTG_PIC_OBJS) $(LIBTG_MAP)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -shared -Wl,-soname,libtg.so.$(LIBTG_SOVER) -Wl,--version-script=$(LIBTG_MAP) \
		-Wl,--no-undefined -o $@ $(LIBTG_PIC_OBJS) $(LIBTG_LDLIBS)
	ln -sf libtg.so.$(LIBTG_SOVER) $(@D)/libtg.so

$(LIBTG_ASAN): $(LIBTG_AOBJS)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^
