# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The Telegraphos NIC authors
# Build fragment: the tgctl tool (PCI discovery and BAR mapping live in libtg).

TGCTL         := $(BUILD)/bin/tgctl

.PHONY: tgctl
all: $(TGCTL)
tgctl: $(TGCTL)

$(TGCTL): $(BUILD)/obj/driver/tgctl.o $(LIBTG)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(LIBTG_LDLIBS)
