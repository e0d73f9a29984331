/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Bridge between the simulated switch and a Linux network interface through a raw packet socket. */
#ifndef TG_BRIDGE_H
#define TG_BRIDGE_H

#include <stdint.h>

struct tg_bridge;

/* Open interface `ifname` (it must exist and be up; needs CAP_NET_RAW).
 * NULL and errno on failure. */
struct tg_bridge *tg_bridge_open(const char *ifname);

/* Close.  Accepts NULL. */
void tg_bridge_close(struct tg_bridge *b);

/* Send one frame (FCS included: the interface adds its own after it) on
 * the interface.  Frames it cannot take now are counted and lost, as on a
 * congested port. */
void tg_bridge_send(struct tg_bridge *b, const uint8_t *data, unsigned len);

/* Take the next Telegraphos frame received on the interface into buf (n
 * bytes).  Returns its length, 0 if none waits, or -errno. */
int tg_bridge_recv(struct tg_bridge *b, uint8_t *buf, unsigned n);

/* Frames sent, received, and lost on sending. */
void tg_bridge_counts(const struct tg_bridge *b, uint64_t *sent, uint64_t *received,
		      uint64_t *lost);

#endif /* TG_BRIDGE_H */
