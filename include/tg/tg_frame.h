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

/** Decoded Telegraphos header (host byte order). */
struct tg_frame_hdr {
	uint8_t  ver, op, flags, status;
	uint16_t src, dst;
	uint32_t seq, ack;
	uint64_t key, addr, mask;
	uint8_t  len, ctx;
	uint16_t tag;
	uint32_t rsvd;
};

/** The CRC-32 register after a frame's bytes and its correct FCS. */
#define TG_FCS_RESIDUE 0xDEBB20E3u

/** Ethernet CRC-32 (reflected 0xEDB88320) continued over @p n bytes;
 *  start with crc = 0xFFFFFFFF and invert the result to get the FCS. */
static inline uint32_t tg_crc32_update(uint32_t crc, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		crc ^= p[i];
		for (int b = 0; b < 8; b++)
			crc = (crc & 1u) ? (crc >> 1) ^ 0xEDB88320u : crc >> 1;
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
 *  whose len is the length asked for. */
static inline unsigned tg_frame_payload_bytes(uint8_t op, uint8_t len)
{
	return op == TG_OP_READ_REQ || op == TG_OP_ACK || op == TG_OP_NAK ? 0u : len;
}

/** Encode a frame into @p buf; @p payload holds
 *  tg_frame_payload_bytes(h->op, h->len) bytes, and buf room for
 *  TG_PAYLOAD_OFF + that + TG_FCS_BYTES: TG_MAX_FRAME_BYTES for a valid
 *  length, up to 321 bytes for the lengths over TG_MAX_PAYLOAD that tests
 *  encode on purpose (the length field is not checked).  Returns the
 *  frame length including the FCS. */
static inline size_t tg_frame_encode(uint8_t *buf, const struct tg_frame_hdr *h,
				     const uint8_t *payload)
{
	uint8_t *x = buf + TG_HDR_OFF;
	size_t n;

	tg_node_mac(buf, h->dst);
	tg_node_mac(buf + 6, h->src);
	__tg_put_be(buf + 12, TG_ETHERTYPE, 2);
	x[TG_H_VER] = h->ver;
	x[TG_H_OP] = h->op;
	x[TG_H_FLAGS] = h->flags;
	x[TG_H_STATUS] = h->status;
	__tg_put_be(x + TG_H_SRC, h->src, 2);
	__tg_put_be(x + TG_H_DST, h->dst, 2);
	__tg_put_be(x + TG_H_SEQ, h->seq, 4);
	__tg_put_be(x + TG_H_ACK, h->ack, 4);
	__tg_put_be(x + TG_H_KEY, h->key, 8);
	__tg_put_be(x + TG_H_ADDR, h->addr, 8);
	__tg_put_be(x + TG_H_MASK, h->mask, 8);
	x[TG_H_LEN] = h->len;
	x[TG_H_CTX] = h->ctx;
	__tg_put_be(x + TG_H_TAG, h->tag, 2);
	__tg_put_be(x + TG_H_RSVD, h->rsvd, 4);
	n = tg_frame_payload_bytes(h->op, h->len);
	if (n)
		memcpy(buf + TG_PAYLOAD_OFF, payload, n);
	n += TG_PAYLOAD_OFF;
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
	h->ver = x[TG_H_VER];
	h->op = x[TG_H_OP];
	h->flags = x[TG_H_FLAGS];
	h->status = x[TG_H_STATUS];
	h->src = (uint16_t)__tg_get_be(x + TG_H_SRC, 2);
	h->dst = (uint16_t)__tg_get_be(x + TG_H_DST, 2);
	h->seq = (uint32_t)__tg_get_be(x + TG_H_SEQ, 4);
	h->ack = (uint32_t)__tg_get_be(x + TG_H_ACK, 4);
	h->key = __tg_get_be(x + TG_H_KEY, 8);
	h->addr = __tg_get_be(x + TG_H_ADDR, 8);
	h->mask = __tg_get_be(x + TG_H_MASK, 8);
	h->len = x[TG_H_LEN];
	h->ctx = x[TG_H_CTX];
	h->tag = (uint16_t)__tg_get_be(x + TG_H_TAG, 2);
	h->rsvd = (uint32_t)__tg_get_be(x + TG_H_RSVD, 4);
	return 0;
}

#endif /* TG_FRAME_H */
