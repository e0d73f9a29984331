/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* libFuzzer harness: the device-name parsers of libtg and tgctl (simulated node, PCI address) on arbitrary strings. */
#include <stdio.h>
#include <string.h>

#include "tgdrv/tg_pci.h"
#include "../../libtg/tg_internal.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char s[256], name[TG_SIMP_NAME_MAX], again[64];
	unsigned node = 0, v[4] = { 0, 0, 0, 0 }, w[4];
	/* the first byte picks the size of the name buffer */
	size_t name_sz = size ? 1 + data[0] % sizeof(name) : sizeof(name);

	if (size > sizeof(s) - 1)
		size = sizeof(s) - 1;
	memcpy(s, data, size);
	s[size] = 0;

	memset(name, 0x5a, sizeof(name));
	if (tg_simp_parse_dev(s, name, name_sz, &node) == 0) {
		FZ_ASSERT(memchr(name, 0, sizeof(name)), "name not terminated");
		size_t n = (size_t)((char *)memchr(name, 0, sizeof(name)) - name);

		FZ_ASSERT(n > 0 && n < name_sz, "name of %zu bytes in a %zu-byte buffer", n, name_sz);
		FZ_ASSERT(!strchr(name, '/') && node <= 0xffff, "'%s' node %u", name, node);
		FZ_ASSERT(strncmp(s, "sim:", 4) == 0, "accepted '%s'", s);
	}
	for (size_t i = name_sz; i < sizeof(name); i++)
		FZ_ASSERT((unsigned char)name[i] == 0x5a, "wrote past the name buffer");

	if (tg_pci_parse_bdf(s, &v[0], &v[1], &v[2], &v[3]) == 0) {
		FZ_ASSERT(v[0] <= 0xffff && v[1] <= 0xff && v[2] < 32 && v[3] < 8,
			  "%x:%x:%x.%x", v[0], v[1], v[2], v[3]);
		/* the canonical form reads back the same */
		snprintf(again, sizeof(again), "%04x:%02x:%02x.%x", v[0], v[1], v[2], v[3]);
		FZ_ASSERT(tg_pci_parse_bdf(again, &w[0], &w[1], &w[2], &w[3]) == 0 &&
			  memcmp(v, w, sizeof(v)) == 0, "'%s' from '%s'", again, s);
	}
	return 0;
}
