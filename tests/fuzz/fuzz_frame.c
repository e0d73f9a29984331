/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* libFuzzer harness: the frame decoder and encoder of tg_frame.h on arbitrary bytes. */
#include <string.h>

#include "fuzz_input.h"
#include "tg/tg_frame.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Properties of a frame that decodes: the encoder makes it again. */
static void check(const uint8_t *data, size_t size)
{
	struct tg_frame_hdr h, h2;
	/* room for the largest length field, as tg_frame_encode asks */
	uint8_t buf[TG_PAYLOAD_OFF + 255 + TG_FCS_BYTES], mac[6];   /* (more than the minimum frame) */
	unsigned pl;
	size_t n, i;

	memset(&h, 0, sizeof(h));   /* (the padding between fields, for memcmp) */
	memset(&h2, 0, sizeof(h2));
	if (tg_frame_decode(data, size, &h))
		return;
	FZ_ASSERT(size >= TG_PAYLOAD_OFF + TG_FCS_BYTES, "decoded %zu bytes", size);
	pl = tg_frame_payload_bytes(h.op, h.len);
	if (size < TG_PAYLOAD_OFF + pl)
		return;   /* the payload the header names is not all there */
	n = tg_frame_encode(buf, &h, data + TG_PAYLOAD_OFF);
	FZ_ASSERT(n == tg_frame_bytes(h.op, h.len) + TG_FCS_BYTES && n >= TG_MIN_FRAME_BYTES + TG_FCS_BYTES,
		  "encoded %zu bytes", n);
	/* what was encoded decodes to the same header */
	FZ_ASSERT(tg_frame_decode(buf, n, &h2) == 0 && memcmp(&h, &h2, sizeof(h)) == 0,
		  "round trip");
	/* a frame the encoder could have made (zero padding) is made again
	 * byte for byte */
	for (i = TG_PAYLOAD_OFF + pl; i + TG_FCS_BYTES < n && i < size; i++)
		if (data[i])
			return;
	tg_node_mac(mac, h.dst);
	if (n == size && memcmp(data, mac, 6) == 0) {
		tg_node_mac(mac, h.src);
		if (memcmp(data + 6, mac, 6) == 0)
			FZ_ASSERT(memcmp(buf, data, n) == 0, "re-encoding changed the frame");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t fixed[4096];
	uint32_t fcs;

	check(data, size);
	/* the same bytes with a good FCS, so that mutations reach the fields */
	if (size < 4 || size > sizeof(fixed))
		return 0;
	memcpy(fixed, data, size);
	fcs = ~tg_crc32_update(0xFFFFFFFFu, fixed, size - 4);
	for (int i = 0; i < 4; i++)
		fixed[size - 4 + i] = (uint8_t)(fcs >> (8 * i));
	FZ_ASSERT(tg_crc32_update(0xFFFFFFFFu, fixed, size) == TG_FCS_RESIDUE, "FCS residue");
	check(fixed, size);
	return 0;
}
