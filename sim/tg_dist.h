/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Distributed simulation: UDP messages between simulator processes and their conservative time synchronization. */
#ifndef TG_DIST_H
#define TG_DIST_H

#include <stddef.h>
#include <stdint.h>

#include "tg/sim.h"

/* Message header, little-endian on the wire (docs/distributed.md). */
#define TG_DIST_MAGIC      0x53444754u   /* "TGDS" */
#define TG_DIST_VERSION    1u
#define TG_DIST_HDR_BYTES  32u
#define TG_DIST_MAX_FRAME  2048u
#define TG_DIST_MAX_PROCS  64u

enum {
	TG_DIST_HELLO = 1,   /* start-up: configuration digest, ack bit */
	TG_DIST_TIME  = 2,   /* the sender has executed every cycle before `cycle` */
	TG_DIST_FRAME = 3,   /* a frame for one of the receiver's ports, due at `cycle` */
	TG_DIST_BYE   = 4,   /* the sender stops at `cycle` */
};

struct tg_dist_msg {
	uint8_t type;
	uint16_t from;
	uint32_t seq, aux, nodes;
	uint64_t cycle;
	uint16_t len;
	const uint8_t *data;
};

/* Encode m (and m->len bytes of m->data) into buf of n bytes.  Returns the
 * message size, or -EMSGSIZE. */
int tg_dist_encode(const struct tg_dist_msg *m, uint8_t *buf, size_t n);

/* Decode a received datagram; m->data points into buf.  0, or -EBADMSG
 * with a reason in why (at least 96 bytes). */
int tg_dist_decode(const uint8_t *buf, size_t n, struct tg_dist_msg *m, char *why, size_t whyn);

struct tg_dist;

/* Called for each frame a peer sends: it is due at its output port in
 * cycle `due`.  Returns 0 or -errno. */
typedef int (*tg_dist_deliver_fn)(void *arg, unsigned src, unsigned dst, uint64_t due,
				  const uint8_t *data, unsigned len);

/* Open the endpoint of process cfg->self and shake hands with every peer
 * (digest: the configuration every process must share).  NULL and errno
 * on failure, with the reason in err (errn bytes). */
struct tg_dist *tg_dist_open(const struct tg_sim_dist *cfg, unsigned nodes, uint64_t digest,
			     tg_dist_deliver_fn fn, void *arg, char *err, size_t errn);

/* Tell the peers this process stops at `cycle`, then free.  Accepts NULL. */
void tg_dist_close(struct tg_dist *d, uint64_t cycle);

/* Whether `node` lives in this process. */
int tg_dist_local(const struct tg_dist *d, unsigned node);

/* Send a frame of a local port to the process of port dst.  0 or -errno. */
int tg_dist_send_frame(struct tg_dist *d, unsigned src, unsigned dst, uint64_t due,
		       const uint8_t *data, unsigned len);

/* Before executing cycle t: announce t (with `up`, the nodes brought up
 * so far) and wait until every peer has executed every cycle before
 * t + 1 - lookahead, delivering the frames that arrive.  0 or -errno
 * (-ETIMEDOUT a silent peer, -EPIPE a peer that stopped, -EBADMSG /
 * -EPROTO bad input); the reason is in tg_dist_error(). */
int tg_dist_sync(struct tg_dist *d, uint64_t t, unsigned up, unsigned lookahead);

/* Largest bring-up count the peers announced for cycle t (each announces
 * what it knows; the owner of the node being brought up knows first).
 * With a lookahead of one cycle a peer is at most one cycle ahead, and
 * only its count as of t is used. */
unsigned tg_dist_peer_up(const struct tg_dist *d, uint64_t t);

/* Why the last call failed ("" if none). */
const char *tg_dist_error(const struct tg_dist *d);

/* Messages and datagram counts, for speed figures. */
uint64_t tg_dist_sent(const struct tg_dist *d);

#endif /* TG_DIST_H */
