/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Reference encoder/decoder of Telegraphos frames (Ethernet II, header,
 * payload, FCS), used by tests, tools and the simulator; header-only. */
#ifndef TG_FRAME_H
#define TG_FRAME_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tg/tg_hw.h"

/** Decoded Telegraphos header (host byte order).  src and dst are the
 *  node ids the MAC addresses carry; the byte enables are the cnt bytes
 *  from off (tg_frame_mask). */
struct tg_frame_hdr {
	uint8_t  ver, op, flags, status, ctx;
	uint8_t  len, off, cnt;
	uint16_t src, dst, seq, ack, tag;
	uint32_t addr;
	uint64_t key;
};

/** The byte mask of @p cnt bytes from byte @p off (bit i: byte i). */
static inline uint64_t tg_frame_mask(unsigned off, unsigned cnt)
{
	if (cnt == 0 || off >= 64)
		return 0;
	uint64_t run = cnt >= 64 ? ~0ull : (1ull << cnt) - 1;
	return run << off;
}

/** The run of bytes a byte mask covers: 0 with *off and *cnt set (both 0
 *  for an empty mask), or -1 when the mask is not one run of bytes. */
static inline int tg_frame_run(uint64_t mask, uint8_t *off, uint8_t *cnt)
{
	unsigned lo = 0, n = 0;

	if (mask) {
		while (!(mask >> lo & 1))
			lo++;
		while (lo + n < 64 && (mask >> (lo + n) & 1))
			n++;
		if (tg_frame_mask(lo, n) != mask)
			return -1;
	}
	*off = (uint8_t)(mask ? lo : 0);
	*cnt = (uint8_t)n;
	return 0;
}

/** The CRC-32 register after a frame's bytes and its correct FCS. */
#define TG_FCS_RESIDUE 0xDEBB20E3u

/** Ethernet CRC-32 (reflected 0xEDB88320) continued over @p n bytes;
 *  start with crc = 0xFFFFFFFF and invert the result to get the FCS. */
static inline uint32_t tg_crc32_update(uint32_t crc, const uint8_t *p, size_t n)
{
	/* four bits at a time: entry i is i's register after four steps */
	static const uint32_t nib[16] = {
		0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu,
		0x76DC4190u, 0x6B6B51F4u, 0x4DB26158u, 0x5005713Cu,
		0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu,
		0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu
	};

	for (size_t i = 0; i < n; i++) {
		crc ^= p[i];
		crc = (crc >> 4) ^ nib[crc & 15u];
		crc = (crc >> 4) ^ nib[crc & 15u];
	}
	return crc;
}

static inline void __tg_put_be(uint8_t *p, uint64_t v, int nbytes)
{
	for (int i = nbytes - 1; i >= 0; i--) {
		p[i] = (uint8_t)v;
		v >>= 8;
	}
}

static inline uint64_t __tg_get_be(const uint8_t *p, int nbytes)
{
	uint64_t v = 0;
	for (int i = 0; i < nbytes; i++)
		v = (v << 8) | p[i];
	return v;
}

/** MAC address of @p node: 02:54:47:00:hi:lo. */
static inline void tg_node_mac(uint8_t mac[6], uint16_t node)
{
	__tg_put_be(mac, TG_MAC_OUI, 3);
	mac[3] = 0;
	__tg_put_be(mac + 4, node, 2);
}

/** MAC address of the memory-bus bridge of FPGA node @p node:
 *  02:54:47:01:hi:lo (docs/fpga.md). */
static inline void tg_bridge_mac(uint8_t mac[6], uint16_t node)
{
	__tg_put_be(mac, TG_BRIDGE_MAC_OUI, 3);
	mac[3] = 0x01;
	__tg_put_be(mac + 4, node, 2);
}

/** Payload bytes a frame carries: h->len, except for a read request,
 *  whose len is the length asked for, and the link's ACK and NAK. */
static inline unsigned tg_frame_payload_bytes(uint8_t op, uint8_t len)
{
	return op == TG_OP_READ_REQ || op == TG_OP_ACK || op == TG_OP_NAK ? 0u : len;
}

/** Bytes of a frame before its FCS: header and payload, zero-padded to
 *  TG_MIN_FRAME_BYTES. */
static inline unsigned tg_frame_bytes(uint8_t op, uint8_t len)
{
	unsigned n = (unsigned)TG_PAYLOAD_OFF + tg_frame_payload_bytes(op, len);
	return n < TG_MIN_FRAME_BYTES ? (unsigned)TG_MIN_FRAME_BYTES : n;
}

/* the values a header field of part of a byte can hold */
#define TG__NIB(f) ((1u << TG_H_##f##_BITS) - 1u)

/** Encode a frame into @p buf; @p payload holds
 *  tg_frame_payload_bytes(h->op, h->len) bytes, and buf room for
 *  tg_frame_bytes(h->op, h->len) + TG_FCS_BYTES: TG_MAX_FRAME_BYTES for a
 *  valid length, up to 297 bytes for the lengths over TG_MAX_PAYLOAD that
 *  tests encode on purpose (the length field is not checked).  Fields wider
 *  than the wire's (op, flags, status and ctx: 4 bits) are cut.  Returns
 *  the frame length including the FCS. */
static inline size_t tg_frame_encode(uint8_t *buf, const struct tg_frame_hdr *h,
				     const uint8_t *payload)
{
	uint8_t *x = buf + TG_HDR_OFF;
	size_t n, pl;

	tg_node_mac(buf, h->dst);
	tg_node_mac(buf + 6, h->src);
	__tg_put_be(buf + 12, TG_ETHERTYPE, 2);
	x[TG_H_VER] = h->ver;
	x[TG_H_OP] = (uint8_t)((h->op & TG__NIB(OP)) << TG_H_OP_LSB |
			       (h->flags & TG__NIB(FLAGS)) << TG_H_FLAGS_LSB);
	x[TG_H_STATUS] = (uint8_t)((h->status & TG__NIB(STATUS)) << TG_H_STATUS_LSB |
				   (h->ctx & TG__NIB(CTX)) << TG_H_CTX_LSB);
	x[TG_H_LEN] = h->len;
	x[TG_H_OFF] = h->off;
	x[TG_H_CNT] = h->cnt;
	__tg_put_be(x + TG_H_SEQ, h->seq, 2);
	__tg_put_be(x + TG_H_ACK, h->ack, 2);
	__tg_put_be(x + TG_H_TAG, h->tag, 2);
	__tg_put_be(x + TG_H_ADDR, h->addr, 4);
	__tg_put_be(x + TG_H_KEY, h->key, 8);
	pl = tg_frame_payload_bytes(h->op, h->len);
	if (pl)
		memcpy(buf + TG_PAYLOAD_OFF, payload, pl);
	n = tg_frame_bytes(h->op, h->len);
	memset(buf + TG_PAYLOAD_OFF + pl, 0, n - TG_PAYLOAD_OFF - pl);
	uint32_t fcs = ~tg_crc32_update(0xFFFFFFFFu, buf, n);
	for (int i = 0; i < 4; i++)
		buf[n + i] = (uint8_t)(fcs >> (8 * i));
	return n + TG_FCS_BYTES;
}

/** Decode the header of a frame of @p n bytes (FCS included).  Returns 0,
 *  or -1 when the frame is too short, has a bad FCS or another EtherType. */
static inline int tg_frame_decode(const uint8_t *buf, size_t n, struct tg_frame_hdr *h)
{
	const uint8_t *x = buf + TG_HDR_OFF;

	if (n < TG_PAYLOAD_OFF + TG_FCS_BYTES)
		return -1;
	if (tg_crc32_update(0xFFFFFFFFu, buf, n) != TG_FCS_RESIDUE)
		return -1;
	if (__tg_get_be(buf + 12, 2) != TG_ETHERTYPE)
		return -1;
	h->dst = (uint16_t)__tg_get_be(buf + 4, 2);
	h->src = (uint16_t)__tg_get_be(buf + 10, 2);
	h->ver = x[TG_H_VER];
	h->op = (uint8_t)(x[TG_H_OP] >> TG_H_OP_LSB & TG__NIB(OP));
	h->flags = (uint8_t)(x[TG_H_FLAGS] >> TG_H_FLAGS_LSB & TG__NIB(FLAGS));
	h->status = (uint8_t)(x[TG_H_STATUS] >> TG_H_STATUS_LSB & TG__NIB(STATUS));
	h->ctx = (uint8_t)(x[TG_H_CTX] >> TG_H_CTX_LSB & TG__NIB(CTX));
	h->len = x[TG_H_LEN];
	h->off = x[TG_H_OFF];
	h->cnt = x[TG_H_CNT];
	h->seq = (uint16_t)__tg_get_be(x + TG_H_SEQ, 2);
	h->ack = (uint16_t)__tg_get_be(x + TG_H_ACK, 2);
	h->tag = (uint16_t)__tg_get_be(x + TG_H_TAG, 2);
	h->addr = (uint32_t)__tg_get_be(x + TG_H_ADDR, 4);
	h->key = __tg_get_be(x + TG_H_KEY, 8);
	return 0;
}

#endif /* TG_FRAME_H */
