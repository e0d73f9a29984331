# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# Build fragment: PCI discovery (libpci) and the tgctl tool.

LIBPCI_LIBS := $(shell pkg-config --libs libpci 2>/dev/null || echo -lpci)
LIBTGPCI      := $(BUILD)/lib/libtgpci.a
LIBTGPCI_ASAN := $(BUILD)/asan/lib/libtgpci.a
TGCTL         := $(BUILD)/bin/tgctl

.PHONY: tgctl
all: $(TGCTL)
tgctl: $(TGCTL)

$(LIBTGPCI): $(BUILD)/obj/driver/tg_pci.o
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

$(LIBTGPCI_ASAN): $(BUILD)/asan/obj/driver/tg_pci.o
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

# the BAR mapping lives in libtg, which the PCI provider shares
$(TGCTL): $(BUILD)/obj/driver/tgctl.o $(LIBTGPCI) $(LIBTG)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(LIBPCI_LIBS)
