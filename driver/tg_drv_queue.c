/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Remote-enqueue queues on the driver side: creation, overflow takeover, growth, notification, destruction. */
#include <errno.h>
#include <string.h>

#include "tg/tg_bar.h"
#include "tg/tg_barrier.h"
#include "tg/tg_queue.h"
#include "tgdrv/tg_drv.h"

#define NQ  16u

/* Queue memory, word by word: through the mapping with the ordering
 * each caller names, else through the platform's accessors (in order). */
static uint64_t *word(const struct tg_drv_qenv *env, uint64_t buf, uint64_t off)
{
	return (uint64_t *)(env->mem + buf + off);
}

/* acquire: what was written before the word was published is visible */
static int ld(const struct tg_drv_qenv *env, uint64_t buf, uint64_t off, uint64_t *v)
{
	if (env->mem) {
		*v = TG_HOST_LOAD_ACQ64(word(env, buf, off));
		return 0;
	}
	return env->mem_read(env->mem_arg, buf + off, v, 8);
}

/* release: everything written before goes out ahead of the word */
static int st(const struct tg_drv_qenv *env, uint64_t buf, uint64_t off, uint64_t v)
{
	if (env->mem) {
		TG_HOST_STORE_REL64(word(env, buf, off), v);
		return 0;
	}
	return env->mem_write(env->mem_arg, buf + off, &v, 8);
}

/* Compare-and-swap (acquire and release): 1 swapped, 0 not (*expect
 * reloaded), or -errno. */
static int cas(const struct tg_drv_qenv *env, uint64_t buf, uint64_t off, uint64_t *expect,
	       uint64_t v)
{
	if (env->mem)
		return TG_HOST_CAS64(word(env, buf, off), expect, v) ? 1 : 0;
	return env->mem_rmw(env->mem_arg, buf + off, expect, v, NULL);
}

/* Clear bits (acquire and release). */
static int clear_bits(const struct tg_drv_qenv *env, uint64_t buf, uint64_t off, uint64_t bits)
{
	uint64_t old;

	if (env->mem) {
		TG_HOST_FETCH_AND64(word(env, buf, off), ~bits);
		return 0;
	}
	return env->mem_rmw(env->mem_arg, buf + off, NULL, bits, &old);
}

/* Copy len bytes (a multiple of 8) from paddr src to paddr dst. */
static int mcopy(const struct tg_drv_qenv *env, uint64_t dst, uint64_t src, uint64_t len)
{
	uint64_t w;
	int rc;

	if (env->mem) {
		memcpy(env->mem + dst, env->mem + src, len);
		return 0;
	}
	for (uint64_t k = 0; k < len; k += 8)
		if ((rc = env->mem_read(env->mem_arg, src + k, &w, 8)) ||
		    (rc = env->mem_write(env->mem_arg, dst + k, &w, 8)))
			return rc;
	return 0;
}

static int csr_w(const struct tg_drv_qenv *env, uint64_t reg, uint64_t v)
{
	return env->io->write(env->io->arg, tg_bar_csr_addr(reg), v);
}

static uint64_t qcfg(const struct tg_drv_queue *q)
{
	return (uint64_t)q->log2 | (uint64_t)q->elog2 << 8 | TG_QCFG_ENABLE;
}

/* A buffer address a queue word may hold: inside memory, aligned. */
static int buf_ok(const struct tg_drv_qenv *env, uint64_t buf, unsigned log2)
{
	return buf && !(buf & ((1ULL << log2) - 1)) && buf < env->mem_size &&
	       env->mem_size - buf >= (1ULL << log2);
}

int tg_drv_queue_find(const struct tg_drv_qtable *t, uint64_t paddr)
{
	for (unsigned i = 0; paddr && i < NQ; i++)
		if (t->q[i].base == paddr)
			return (int)i;
	return -ENOENT;
}

_Static_assert(TG_Q_TAIL == 0, "buf_init writes the header after the tail word");

/* Fresh header of buffer b: empty, no successor, no flags. */
static int buf_init(const struct tg_drv_qenv *env, uint64_t b, unsigned log2, unsigned elog2)
{
	uint64_t hdr[TG_Q_SLOTS / 8] = { 0 };
	int rc;

	hdr[TG_Q_SIZE / 8] = (uint64_t)log2 | (uint64_t)elog2 << 8;
	hdr[TG_Q_HEAD / 8] = TG_Q_SLOTS;
	/* everything after the tail word, then the tail: the header is
	 * complete before anyone can see it */
	if (env->mem)
		memcpy(env->mem + b + 8, &hdr[1], TG_Q_SLOTS - 8);
	else if ((rc = env->mem_write(env->mem_arg, b + 8, &hdr[1], TG_Q_SLOTS - 8)))
		return rc;
	return st(env, b, TG_Q_TAIL, TG_Q_SLOTS);
}

int tg_drv_queue_create(const struct tg_drv_qenv *env, struct tg_drv_qtable *t, unsigned log2,
			unsigned elog2, uint32_t owner, uint64_t *paddr, unsigned *idx)
{
	struct tg_drv_queue *q = NULL;
	uint64_t b;
	unsigned i;
	int rc;

	if (log2 < TG_Q_MIN_LOG2 || log2 > TG_Q_MAX_LOG2 || elog2 < 3 || elog2 > 6)
		return -EINVAL;
	/* at least two slots: one entry plus the slot that stays empty */
	if (TG_Q_SLOT_BYTES(log2) < 2ULL << elog2)
		return -EINVAL;
	for (i = 0; i < NQ; i++)
		if (!t->q[i].base) {
			q = &t->q[i];
			break;
		}
	if (!q)
		return -ENOSPC;
	rc = tg_alloc_get(env->alloc, 1ULL << log2, 1ULL << log2, TG_DRV_QUEUE_OWNER(i), &b);
	if (rc)
		return rc;
	rc = buf_init(env, b, log2, elog2);
	if (rc) {
		tg_alloc_put(env->alloc, b, TG_DRV_QUEUE_OWNER(i));
		return rc;
	}
	*q = (struct tg_drv_queue){ .base = b, .owner = owner, .log2 = (uint8_t)log2,
				    .elog2 = (uint8_t)elog2 };
	t->irq_mask |= (1ULL << i) | (1ULL << (16 + i));
	/* the buffer is in memory before the NIC learns of it (posted
	 * writes reach the NIC in this order) */
	if ((rc = csr_w(env, TG_CSR_REG_QSEL, i)) ||
	    (rc = csr_w(env, TG_CSR_REG_QBASE, b)) ||
	    (rc = csr_w(env, TG_CSR_REG_QTAIL, TG_Q_SLOTS)) ||
	    (rc = csr_w(env, TG_CSR_REG_QCFG, qcfg(q))) ||
	    (rc = csr_w(env, TG_CSR_REG_IRQ_MASK, t->irq_mask))) {
		t->irq_mask &= ~((1ULL << i) | (1ULL << (16 + i)));
		memset(q, 0, sizeof(*q));
		tg_alloc_put(env->alloc, b, TG_DRV_QUEUE_OWNER(i));
		return rc;
	}
	*paddr = b;
	*idx = i;
	return 0;
}

int tg_drv_queue_destroy(const struct tg_drv_qenv *env, struct tg_drv_qtable *t,
			 uint64_t paddr, uint32_t owner)
{
	int i = tg_drv_queue_find(t, paddr);
	struct tg_drv_queue *q;

	if (i < 0)
		return i;
	q = &t->q[i];
	if (q->owner != owner)
		return -EPERM;
	t->irq_mask &= ~((1ULL << i) | (1ULL << (16 + i)));
	csr_w(env, TG_CSR_REG_QSEL, (uint64_t)i);
	csr_w(env, TG_CSR_REG_QCFG, 0);
	csr_w(env, TG_CSR_REG_IRQ_MASK, t->irq_mask);
	csr_w(env, TG_CSR_REG_IRQ_STATUS, (1ULL << i) | (1ULL << (16 + i)));
	/* every buffer of the queue, linked or not: the next pointers are in
	 * memory remote nodes can write, so they are not followed */
	tg_alloc_put_owner(env->alloc, TG_DRV_QUEUE_OWNER(i));
	memset(q, 0, sizeof(*q));
	return 0;
}

unsigned tg_drv_queue_destroy_owner(const struct tg_drv_qenv *env, struct tg_drv_qtable *t,
				    uint32_t owner)
{
	unsigned n = 0;

	for (unsigned i = 0; i < NQ; i++)
		if (t->q[i].base && t->q[i].owner == owner &&
		    tg_drv_queue_destroy(env, t, t->q[i].base, owner) == 0)
			n++;
	return n;
}

/* Bytes of entries between head h and tail tl of a buffer. */
static uint64_t used_bytes(uint64_t h, uint64_t tl, unsigned log2)
{
	return tl >= h ? tl - h : TG_Q_SLOT_BYTES(log2) - (h - tl);
}

/* With QF_DRIVER held: if the first buffer holds entries, move them (in
 * order) into a new buffer linked right after it and reset it; then
 * reopen the queue at the NIC.  An empty first buffer is just reopened,
 * and so is one with room when no memory is left; a full one without
 * memory stays closed (-ENOMEM). */
static int take_over(const struct tg_drv_qenv *env, struct tg_drv_qtable *t, unsigned i)
{
	struct tg_drv_queue *q = &t->q[i];
	uint64_t f = q->base, sz = 1ULL << q->log2, esz = 1ULL << q->elog2;
	uint64_t h, tl, used, nb, next;
	int rc;

	/* the NIC is stopped (QCFG_FULL) and its last tail write completed
	 * before it refused; the head is ours while QF_DRIVER is held; the
	 * tail (acquire): the NIC's entries below it */
	if ((rc = ld(env, f, TG_Q_HEAD, &h)) || (rc = ld(env, f, TG_Q_TAIL, &tl)))
		return rc;
	if (h < TG_Q_SLOTS || h >= sz || tl < TG_Q_SLOTS || tl >= sz || (h | tl) & (esz - 1))
		return -EIO;    /* corrupt header: leave the queue closed */
	used = used_bytes(h, tl, q->log2);
	rc = used ? tg_alloc_get(env->alloc, sz, sz, TG_DRV_QUEUE_OWNER(i), &nb) : -ENOMEM;
	if (rc && used + esz >= TG_Q_SLOT_BYTES(q->log2))
		return rc;      /* full and no memory: stays closed */
	if (!rc) {
		/* a new buffer takes every entry, the first starts over */
		rc = buf_init(env, nb, q->log2, q->elog2);
		for (uint64_t k = 0, p = h; k < used && !rc; k += esz) {
			rc = mcopy(env, nb + TG_Q_SLOTS + k, f + p, esz);
			p += esz;
			if (p == sz)
				p = TG_Q_SLOTS;
		}
		/* next pointers change only under QF_DNP or QF_DRIVER: ours now;
		 * entries and header of the new buffer before its tail, and all
		 * of it before the link that makes it reachable; the first
		 * buffer starts over empty: head and tail are published after
		 * the link (the NIC reads the head only once reopened, below) */
		if (rc || (rc = ld(env, f, TG_Q_NEXT, &next)) || (rc = st(env, nb, TG_Q_NEXT, next)) ||
		    (rc = st(env, nb, TG_Q_TAIL, TG_Q_SLOTS + used)) ||
		    (rc = st(env, f, TG_Q_NEXT, nb)) || (rc = st(env, f, TG_Q_HEAD, TG_Q_SLOTS)) ||
		    (rc = st(env, f, TG_Q_TAIL, TG_Q_SLOTS))) {
			tg_alloc_put(env->alloc, nb, TG_DRV_QUEUE_OWNER(i));
			return rc;
		}
		rc = csr_w(env, TG_CSR_REG_QSEL, i);
		if (!rc)
			rc = csr_w(env, TG_CSR_REG_QTAIL, TG_Q_SLOTS);
		t->grows++;
	} else {
		/* empty (or no memory but room): the NIC's tail is memory's
		 * (written again: a takeover whose register writes failed left
		 * the NIC with the old tail) */
		rc = csr_w(env, TG_CSR_REG_QSEL, i);
		if (!rc)
			rc = csr_w(env, TG_CSR_REG_QTAIL, tl);
		t->reopens++;
	}
	/* memory is reset before the NIC may read the head again: the
	 * reopening write is the last one */
	if (!rc)
		rc = csr_w(env, TG_CSR_REG_QCFG, qcfg(q));
	if (!rc)
		q->closed = 0;
	return rc;
}

/* The queue is closed at the NIC: take it over unless a dequeue is in
 * progress, in which case mark it QF_FULL for the dequeuer. */
static int closed_queue(const struct tg_drv_qenv *env, struct tg_drv_qtable *t, unsigned i)
{
	uint64_t b = t->q[i].base, f;
	int rc, c, m;

	t->q[i].closed = 1;
	if ((rc = ld(env, b, TG_Q_FLAGS, &f)))  /* current owner bits */
		return rc;
	for (;;) {
		if (!(f & TG_QF_DNP)) {
			/* no dequeuer inside: the takeover is ours */
			if ((c = cas(env, b, TG_Q_FLAGS, &f, f | TG_QF_DRIVER)))
				break;
		} else if ((c = cas(env, b, TG_Q_FLAGS, &f, f | TG_QF_FULL))) {  /* only while QF_DNP */
			if (c < 0)
				return c;
			/* the dequeuer still holds QF_DNP, so its clearing
			 * sees QF_FULL and it asks us to grow */
			t->full_marks++;
			return 0;
		}
		/* f changed under us (dequeuer entered or left): look again */
	}
	if (c < 0)
		return c;
	rc = take_over(env, t, i);
	/* a queue left closed (full, no memory) is marked QF_FULL while we
	 * still hold QF_DRIVER: the next dequeuer to release QF_DNP asks us
	 * to look again once it has made room */
	m = 0;
	if (rc == -ENOMEM && !(m = ld(env, b, TG_Q_FLAGS, &f)))
		while (!(m = cas(env, b, TG_Q_FLAGS, &f, f | TG_QF_FULL)))
			;
	/* release: the moved buffers and reset head are published with
	 * the flags (QF_FULL stays set if the queue is still closed); a
	 * failed access is tried again, since dequeuers wait while
	 * QF_DRIVER is set */
	for (unsigned k = 0; k < 3u; k++)
		if (!(c = clear_bits(env, b, TG_Q_FLAGS, TG_QF_DRIVER | (rc ? 0 : TG_QF_FULL))))
			break;
	if (!rc)
		rc = c;
	else if (m < 0)
		rc = m;
	return rc == -ENOMEM ? 0 : rc;
}

int tg_drv_queue_irq(const struct tg_drv_qenv *env, struct tg_drv_qtable *t, uint64_t st,
		     uint32_t *notified)
{
	int rc = 0;

	*notified = 0;
	if (st >> 16 & 0xffffu) {
		*notified = (uint32_t)(st >> 16 & 0xffffu);
		t->notifies++;
		rc = csr_w(env, TG_CSR_REG_IRQ_STATUS, st & 0xffff0000u);
	}
	for (unsigned i = 0; i < NQ; i++) {
		int r;

		if (!(st & (1ULL << i)))
			continue;
		/* clear the cause first: an overflow after the reopening
		 * raises it again */
		r = csr_w(env, TG_CSR_REG_IRQ_STATUS, 1ULL << i);
		if (!t->q[i].base)
			continue;        /* destroyed since */
		t->overflows++;
		if (!r)
			r = closed_queue(env, t, i);
		if (r && !rc)
			rc = r;
	}
	return rc;
}

int tg_drv_queue_grow(const struct tg_drv_qenv *env, struct tg_drv_qtable *t, uint64_t paddr)
{
	int i = tg_drv_queue_find(t, paddr);

	if (i < 0)
		return i;
	if (!t->q[i].closed)
		return 0;        /* open: the NIC has room, nothing to move */
	return closed_queue(env, t, (unsigned)i);
}

int tg_drv_queue_arm(const struct tg_drv_qenv *env, struct tg_drv_qtable *t, uint64_t paddr)
{
	int i = tg_drv_queue_find(t, paddr);

	if (i < 0)
		return i;
	return csr_w(env, TG_CSR_REG_QARM, 1ULL << i);
}

int tg_drv_queue_freebuf(const struct tg_drv_qenv *env, struct tg_drv_qtable *t,
			 uint64_t paddr, uint64_t buf)
{
	int i = tg_drv_queue_find(t, paddr);

	if (i < 0)
		return i;
	if (buf == paddr || !buf_ok(env, buf, t->q[i].log2))
		return -EINVAL;
	return tg_alloc_put(env->alloc, buf, TG_DRV_QUEUE_OWNER(i));
}
