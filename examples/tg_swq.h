/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* swq: a multi-producer single-consumer queue in the receiver's memory, built from remote atomics and remote writes only. */
#ifndef TG_SWQ_H
#define TG_SWQ_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tg/tg.h"
#include "tg/tg_barrier.h"

/*
 * A software counterpart of the NIC's remote enqueue (tg_enq): the same
 * service, made of tg_fetch_inc, tg_read and tg_write.  Header only: the
 * functions are static inline, so a program includes this file and links
 * libtg.
 *
 * Layout, in one region of the receiving node's memory:
 *
 *   0x00  magic       SWQ_MAGIC
 *   0x08  nslots      slots in the ring (a power of two)
 *   0x10  words       payload words per entry (1..SWQ_MAX_WORDS)
 *   0x18  stride      bytes per slot
 *   0x40  tail        next ticket; changed only by remote fetch-and-add
 *   0x80  slot i at SWQ_SLOTS + i * stride:
 *           word 0      sequence
 *           words 1..   payload
 *
 * The ring is Vyukov's bounded queue with the tail taken by fetch-and-add.
 * Ticket t uses slot t % nslots.  The slot's sequence word says whose
 * turn it is:
 *
 *   sequence == t        free for the producer holding ticket t
 *   sequence == t + 1    holds ticket t's entry, for the consumer
 *
 * and the consumer frees it for the next lap by storing t + nslots.
 * Sequence numbers are 64-bit tickets, never reduced modulo the ring, so
 * every lap of every slot has its own values: a producer that drew a
 * ticket several laps ahead (more producers than slots, or a full ring)
 * waits for exactly its own value and cannot take a slot from an earlier
 * lap.
 *
 * Producer (any node, through its NIC):
 *   1. t = fetch-and-increment(tail)        claims ticket t
 *   2. read the slot's sequence until == t  (the consumer freed the lap)
 *   3. tg_write the payload
 *   4. tg_write sequence = t + 1            publishes
 * Consumer (the receiving node's CPU, local loads and stores):
 *   1. acquire-load the sequence of slot head % nslots until == head + 1
 *   2. copy the payload
 *   3. release-store sequence = head + nslots; head++
 *
 * Ordering assumptions:
 *  - 3 before 4: writes of one device to one node land in call order
 *    (libtg, "Ordering"), and the memory model stores a NIC's words with
 *    release ordering, so a consumer that acquire-loads sequence == t + 1
 *    sees the whole payload.
 *  - 2 before 3: the producer writes only after its read returned, and
 *    the NIC performs the device's requests to the node in order, so the
 *    payload cannot land before the consumer's release of the slot was
 *    read.
 *  - consumer 2 before 3: the release store keeps the copy before the slot
 *    is handed back, so no producer overwrites a payload being read.
 *  - The tail is touched only by NIC atomics after creation (a CPU store
 *    racing a NIC read-modify-write could be lost).  The sequence words
 *    are written by both sides, but never at once: each side writes only
 *    after reading the other side's last value.
 *
 * A claimed ticket must be published: if a producer fails (or stops)
 * between steps 1 and 4, the consumer waits on that slot for ever.  Errors
 * after the claim therefore leave the queue unusable.
 */

#define SWQ_MAGIC      0x7377712d72696e67ULL   /* "swq-ring" */
#define SWQ_MAX_WORDS  7u                      /* payload + sequence fill one 64-byte block */
#define SWQ_TAIL       0x40u
#define SWQ_SLOTS      0x80u

/* Offset of slot `ticket`'s sequence word in the region. */
#define SWQ_SLOT_OFF(nslots, stride, ticket) \
	(SWQ_SLOTS + ((ticket) & ((uint64_t)(nslots) - 1)) * (uint64_t)(stride))

/* The consumer's handle (one thread at a time). */
struct swq {
	struct tg_dev *dev;
	struct tg_mr *mr;
	uint8_t *mem;                /* local mapping of the region */
	uint64_t paddr;
	unsigned nslots, words, stride;
	uint64_t head;               /* next ticket to take */
};

/* Test hooks of struct swq_prod (flags), not for applications: break
 * the protocol on purpose so that a test can show it notices. */
#define SWQ_TEST_PUBLISH_FIRST  0x1u   /* write the sequence before the payload */
#define SWQ_TEST_NO_WAIT        0x2u   /* do not wait for the slot to be freed */

/* A producer's handle (one thread at a time; one per device). */
struct swq_prod {
	struct tg_dev *dev;
	unsigned node;               /* the receiver */
	uint64_t paddr;
	unsigned nslots, words, stride;
	struct tg_mr *rec;           /* non-blocking path: atomic record at 0,
				      * fetched sequence at 16, its completion at 24 */
	int state;                   /* SWQ__IDLE, SWQ__CLAIM, SWQ__WAIT */
	uint64_t ticket;
	uint64_t payload[SWQ_MAX_WORDS];
	uint64_t polls;              /* sequence reads that found the slot still taken */
	unsigned flags;              /* SWQ_TEST_* */
};

enum { SWQ__IDLE, SWQ__CLAIM, SWQ__WAIT };

static inline unsigned swq__stride(unsigned words)
{
	unsigned s = 16;

	while (s < 8u * (words + 1))
		s *= 2;
	return s;
}

/* Region bytes for a queue of nslots slots of `words` payload words. */
static inline size_t swq_bytes(unsigned nslots, unsigned words)
{
	return SWQ_SLOTS + (size_t)nslots * swq__stride(words);
}

/*
 * Create a queue on dev's node: nslots (a power of two, 1..2^20) slots
 * of `words` (1..SWQ_MAX_WORDS) 64-bit payload words each.  dev then
 * belongs to the consumer.  Returns the handle (swq_destroy), or NULL
 * with errno EINVAL or ENOMEM.
 */
static inline struct swq *swq_create(struct tg_dev *dev, unsigned nslots, unsigned words)
{
	struct swq *q;
	uint8_t *m;

	if (!dev || !nslots || nslots > (1u << 20) || (nslots & (nslots - 1)) || !words ||
	    words > SWQ_MAX_WORDS) {
		errno = EINVAL;
		return NULL;
	}
	q = calloc(1, sizeof(*q));
	if (!q) {
		errno = ENOMEM;
		return NULL;
	}
	q->dev = dev;
	q->nslots = nslots;
	q->words = words;
	q->stride = swq__stride(words);
	q->mr = tg_mr_alloc(dev, swq_bytes(nslots, words), TG_ACCESS_ALL);
	if (!q->mr) {
		free(q);
		return NULL;
	}
	q->mem = m = tg_mr_ptr(q->mr);
	q->paddr = tg_mr_paddr(q->mr);
	memset(m, 0, swq_bytes(nslots, words));
	for (unsigned i = 0; i < nslots; i++)
		*(uint64_t *)(m + SWQ_SLOT_OFF(nslots, q->stride, i)) = i;   /* free for lap 0 */
	*(uint64_t *)(m + 0x08) = nslots;
	*(uint64_t *)(m + 0x10) = words;
	*(uint64_t *)(m + 0x18) = q->stride;
	/* the magic last: a producer that reads it finds the rest set up */
	TG_HOST_STORE_REL64(m, SWQ_MAGIC);
	return q;
}

/* Free the queue's memory; producers must be done.  Accepts NULL. */
static inline void swq_destroy(struct swq *q)
{
	if (!q)
		return;
	tg_mr_free(q->mr);
	free(q);
}

/* Address producers pass to swq_attach. */
static inline uint64_t swq_paddr(const struct swq *q)
{
	return q ? q->paddr : 0;
}

/*
 * Take the oldest entry into payload[0 .. words-1].  Non-blocking.
 * Returns 0, -EAGAIN if the next entry is not published yet (entries are
 * taken strictly in ticket order, so a later one that is already there
 * waits behind it), -EINVAL, or -EIO if the slot holds a sequence number
 * the protocol cannot produce.
 */
static inline int swq_deq(struct swq *q, uint64_t *payload)
{
	uint8_t *slot;
	uint64_t seq;

	if (!q || !payload)
		return -EINVAL;
	slot = q->mem + SWQ_SLOT_OFF(q->nslots, q->stride, q->head);
	/* acquire: the payload, written by the NIC before the sequence, is
	 * visible once we see the sequence */
	seq = TG_DEV_LOAD_ACQ64(slot);
	if (seq == q->head)
		return -EAGAIN;
	if (seq != q->head + 1)
		return -EIO;
	memcpy(payload, slot + 8, 8u * q->words);
	/* release: the copy is done before the slot is offered again */
	TG_HOST_STORE_REL64(slot, q->head + q->nslots);
	q->head++;
	return 0;
}

/*
 * A producer on dev for the queue at paddr on node `node`: reads the
 * queue's header (blocking).  Returns the handle (swq_detach), or NULL
 * with errno: EINVAL bad arguments, EPROTO no queue at paddr, ENOMEM, or
 * the error of the read.
 */
static inline struct swq_prod *swq_attach(struct tg_dev *dev, unsigned node, uint64_t paddr)
{
	struct swq_prod *p;
	uint64_t h[4];
	int rc;

	if (!dev || (paddr & 63u)) {
		errno = EINVAL;
		return NULL;
	}
	rc = tg_read(dev, node, paddr, h, sizeof(h));
	if (rc) {
		errno = -rc;
		return NULL;
	}
	if (h[0] != SWQ_MAGIC || !h[1] || (h[1] & (h[1] - 1)) || !h[2] || h[2] > SWQ_MAX_WORDS ||
	    h[3] != swq__stride((unsigned)h[2])) {
		errno = EPROTO;
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		errno = ENOMEM;
		return NULL;
	}
	p->dev = dev;
	p->node = node;
	p->paddr = paddr;
	p->nslots = (unsigned)h[1];
	p->words = (unsigned)h[2];
	p->stride = (unsigned)h[3];
	p->rec = tg_mr_alloc(dev, 4096, TG_ACCESS_ALL);
	if (!p->rec) {
		free(p);
		return NULL;
	}
	return p;
}

/* Free a producer (no enqueue may be in progress).  Accepts NULL. */
static inline void swq_detach(struct swq_prod *p)
{
	if (!p)
		return;
	tg_mr_free(p->rec);
	free(p);
}

/* Steps 3 and 4: payload, then the sequence word that publishes it. */
static inline int swq__publish(struct swq_prod *p, uint64_t slot, const uint64_t *payload)
{
	uint64_t seq = p->ticket + 1;
	int rc;

	if (p->flags & SWQ_TEST_PUBLISH_FIRST) {
		rc = tg_write(p->dev, p->node, slot, &seq, 8);
		return rc ? rc : tg_write(p->dev, p->node, slot + 8, payload, 8u * p->words);
	}
	/* same device, same node: the payload lands before the sequence */
	rc = tg_write(p->dev, p->node, slot + 8, payload, 8u * p->words);
	return rc ? rc : tg_write(p->dev, p->node, slot, &seq, 8);
}

/* Where a fetched sequence number stands against our ticket: 0 our
 * turn, -EAGAIN an earlier lap still holds the slot, -EIO impossible. */
static inline int swq__turn(const struct swq_prod *p, uint64_t seq)
{
	if (seq == p->ticket || (p->flags & SWQ_TEST_NO_WAIT))
		return 0;
	return (int64_t)(seq - p->ticket) < 0 ? -EAGAIN : -EIO;
}

/*
 * Enqueue payload[0 .. words-1], blocking: one fetch-and-increment of the
 * tail, reads of the slot's sequence until the slot is ours (each one a
 * round trip: this polls while the ring is full), then two posted
 * writes.  Returns 0 once the entry is handed to the NIC (it lands in
 * order before anything this device sends to the node later), -EINVAL,
 * -EBUSY if a non-blocking enqueue of this handle is in progress, -EIO
 * (a sequence number the protocol cannot produce), or a libtg error.
 * Within one thread it must not wait for a consumer that only that thread
 * runs: with an in-process simulator, use swq_enq_start/swq_enq_poll.
 */
static inline int swq_enq(struct swq_prod *p, const uint64_t *payload)
{
	uint64_t slot, seq;
	int rc;

	if (!p || !payload)
		return -EINVAL;
	if (p->state != SWQ__IDLE)
		return -EBUSY;
	rc = tg_fetch_inc(p->dev, p->node, p->paddr + SWQ_TAIL, &p->ticket);
	if (rc)
		return rc;
	slot = p->paddr + SWQ_SLOT_OFF(p->nslots, p->stride, p->ticket);
	for (;;) {
		rc = tg_read(p->dev, p->node, slot, &seq, 8);
		if (rc)
			return rc;
		rc = swq__turn(p, seq);
		if (rc != -EAGAIN)
			break;
		p->polls++;
	}
	return rc ? rc : swq__publish(p, slot, payload);
}

/* Non-blocking path: post the fetch of our slot's sequence word. */
static inline int swq__fetch_seq(struct swq_prod *p)
{
	uint64_t slot = p->paddr + SWQ_SLOT_OFF(p->nslots, p->stride, p->ticket);

	p->state = SWQ__WAIT;
	return tg_fetch(p->dev, p->node, slot, p->rec, 16, 8, p->rec, 24);
}

/*
 * Advance a non-blocking enqueue (swq_enq_start).  Never waits: it looks
 * at the completion records in local memory and posts the next request.
 * Returns 0 when the entry has been handed to the NIC (or nothing was in
 * progress), -EAGAIN while it is still going, or an error as swq_enq
 * (the queue is then unusable, see above).
 */
static inline int swq_enq_poll(struct swq_prod *p)
{
	uint64_t v;
	int rc;

	if (!p)
		return -EINVAL;
	switch (p->state) {
	case SWQ__IDLE:
		return 0;
	case SWQ__CLAIM:
		rc = tg_atomic_test(p->dev, p->rec, 0, &p->ticket);
		if (rc)
			break;
		rc = swq__fetch_seq(p);
		return rc ? rc : -EAGAIN;
	case SWQ__WAIT:
		rc = tg_fetch_test(p->dev, p->rec, 24);
		if (rc)
			break;
		/* tg_fetch_test acquire-loaded the completion: the data is there */
		v = TG_DEV_LOAD_ACQ64((uint8_t *)tg_mr_ptr(p->rec) + 16);
		rc = swq__turn(p, v);
		if (rc == -EAGAIN) {
			/* an earlier lap still holds the slot: read it again */
			p->polls++;
			rc = swq__fetch_seq(p);
			return rc ? rc : -EAGAIN;
		}
		if (!rc)
			rc = swq__publish(p, p->paddr + SWQ_SLOT_OFF(p->nslots, p->stride, p->ticket),
					  p->payload);
		p->state = SWQ__IDLE;
		return rc;
	default:
		return -EINVAL;
	}
	if (rc != -EAGAIN)
		p->state = SWQ__IDLE;
	return rc;
}

/*
 * Start a non-blocking enqueue of payload[0 .. words-1] (copied): posts
 * the fetch-and-add that claims a ticket.  Then call swq_enq_poll until it
 * stops returning -EAGAIN.  One enqueue per handle at a time.  Returns as
 * swq_enq_poll, or -EBUSY if one is in progress.
 */
static inline int swq_enq_start(struct swq_prod *p, const uint64_t *payload)
{
	int rc;

	if (!p || !payload)
		return -EINVAL;
	if (p->state != SWQ__IDLE)
		return -EBUSY;
	memcpy(p->payload, payload, 8u * p->words);
	rc = tg_atomic_post(p->dev, p->node, p->paddr + SWQ_TAIL, TG_AOP_FAA, 1, 0, p->rec, 0);
	if (rc)
		return rc;
	p->state = SWQ__CLAIM;
	return swq_enq_poll(p);
}

#endif /* TG_SWQ_H */
