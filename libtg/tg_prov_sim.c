/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* The simulator provider: host-port beats, blocking reads and driver calls as requests in the client's ring. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "tg/tg_barrier.h"
#include "tg_internal.h"

#define SPINS_BEFORE_YIELD  64u
#define YIELDS_PER_CHECK    1024u   /* polls between checks that the simulator lives */
#define POLLS_BEFORE_SLEEP  1024u   /* a full request ring: polls before sleeping on it */
#define SPACE_NAP_NS        1000000 /* longest sleep before looking again */

int tg__wait(struct tg_dev *dev)
{
	if (dev->prov->local) {
		/* loads through the BAR or the bridge block: nothing to drive
		 * while polling */
		TG_CPU_RELAX();
		return 0;
	}
	if (dev->step)
		return dev->step(dev->sim, 1);
	dev->spins++;
	if (dev->spins % SPINS_BEFORE_YIELD) {
		TG_CPU_RELAX();
		return 0;
	}
	sched_yield();
	if (dev->spins % (SPINS_BEFORE_YIELD * YIELDS_PER_CHECK) == 0) {
		/* set by the simulator as it stops */
		if (TG_ATOMIC_LOAD_ACQ(&dev->ctl->stopping))
			return -ENOTCONN;
		if (dev->sim_pid > 0 && kill(dev->sim_pid, 0) < 0 && errno == ESRCH)
			return -ENOTCONN;
	}
	return 0;
}

/* A request ring that stays full (the NIC holds the host port back: its
 * REQ slots and spill ring are taken while a target's queue is closed):
 * sleep until the simulator consumes entries, or a millisecond passes.
 * Returns 0 or -ENOTCONN. */
static int sleep_for_space(struct tg_dev *dev, uint64_t head_needed)
{
	struct tg_simp_slot *sl = dev->slot;
	uint32_t w = TG_ATOMIC_LOAD_ACQ(&sl->space_wake);
	struct timespec ts = { 0, SPACE_NAP_NS };

	atomic_store_explicit(&sl->space_sleep, 1u, memory_order_relaxed);
	/* the flag before the look at the head, as the simulator orders the
	 * head before its look at the flag: one of the two sees the other */
	atomic_thread_fence(memory_order_seq_cst);
	if (TG_ATOMIC_LOAD_ACQ(&sl->req_head) < head_needed)
		syscall(SYS_futex, &sl->space_wake, FUTEX_WAIT, w, &ts, NULL, 0);
	atomic_store_explicit(&sl->space_sleep, 0u, memory_order_relaxed);
	if (TG_ATOMIC_LOAD_ACQ(&dev->ctl->stopping))
		return -ENOTCONN;
	if (dev->sim_pid > 0 && kill(dev->sim_pid, 0) < 0 && errno == ESRCH)
		return -ENOTCONN;
	return 0;
}

/* Wait until n request entries are free; returns the tail to fill from.
 * A short wait polls; a long one (a ring held full) sleeps. */
static int reserve(struct tg_dev *dev, unsigned n, uint64_t *tail)
{
	struct tg_simp_slot *sl = dev->slot;
	uint64_t t = TG_ATOMIC_LOAD_OWN(&sl->req_tail);
	unsigned polls = 0;
	int rc;

	/* head: entries the simulator has consumed and we may refill */
	while (t + n - TG_ATOMIC_LOAD_ACQ(&sl->req_head) > TG_SIMP_REQ_ENTRIES) {
		if (!dev->step && ++polls > POLLS_BEFORE_SLEEP)
			rc = sleep_for_space(dev, t + n - TG_SIMP_REQ_ENTRIES);
		else
			rc = tg__wait(dev);
		if (rc)
			return rc;
	}
	*tail = t;
	return 0;
}

static struct tg_simp_req *entry(struct tg_dev *dev, uint64_t idx)
{
	struct tg_simp_req *r = &dev->slot->req[idx & (TG_SIMP_REQ_ENTRIES - 1)];

	memset(r, 0, sizeof(*r));
	return r;
}

static void publish(struct tg_dev *dev, uint64_t new_tail)
{
	/* the entries are written before the simulator sees them */
	TG_ATOMIC_STORE_REL(&dev->slot->req_tail, new_tail);
}

/* Wait for the answer to request seq; answers to earlier requests are
 * errors of posted requests and are kept for tg__async_err. */
static int take_answer(struct tg_dev *dev, uint32_t seq, uint64_t *data)
{
	struct tg_simp_slot *sl = dev->slot;
	uint64_t h = TG_ATOMIC_LOAD_OWN(&sl->resp_head);
	int rc;

	for (;;) {
		/* tail: the simulator wrote every entry below it */
		while (h == TG_ATOMIC_LOAD_ACQ(&sl->resp_tail))
			if ((rc = tg__wait(dev)))
				return rc;
		const struct tg_simp_resp *r = &sl->resp[h & (TG_SIMP_RESP_ENTRIES - 1)];
		uint32_t rseq = r->seq;
		int err = r->err;
		uint64_t d = r->data;

		/* entry read: hand it back */
		TG_ATOMIC_STORE_REL(&sl->resp_head, ++h);
		if (rseq == seq) {
			if (data)
				*data = d;
			return err;
		}
		if (err && !dev->async_err)
			dev->async_err = err;
	}
}

int tg__async_err(struct tg_dev *dev)
{
	struct tg_simp_slot *sl = dev->slot;
	uint64_t h;
	int err;

	/* PCI: a failed posted request shows in the context's STATUS */
	if (!sl)
		return 0;
	h = TG_ATOMIC_LOAD_OWN(&sl->resp_head);

	/* every answer waiting now is about a posted request */
	while (h != TG_ATOMIC_LOAD_ACQ(&sl->resp_tail)) {
		const struct tg_simp_resp *r = &sl->resp[h & (TG_SIMP_RESP_ENTRIES - 1)];

		if (r->err && !dev->async_err)
			dev->async_err = r->err;
		TG_ATOMIC_STORE_REL(&sl->resp_head, ++h);
	}
	err = dev->async_err;
	dev->async_err = 0;
	if (err)
		tg__why("a request this device posted earlier was refused by the simulator's host "
			"port (%s); this call sent nothing", tg_strerror(err));
	return err;
}

/* Post one single-slot request; returns its sequence number through *seq. */
static int post_one(struct tg_dev *dev, uint8_t op, uint64_t addr, uint64_t data, uint32_t *seq)
{
	struct tg_simp_req *r;
	uint64_t t;
	int rc;

	/* PCI, Ethernet: memory and queue calls are served in-process */
	if (dev->prov->local)
		return -EOPNOTSUPP;
	rc = reserve(dev, 1, &t);
	if (rc)
		return rc;
	r = entry(dev, t);
	r->op = op;
	r->addr = addr;
	r->data = data;
	r->last = 1;
	r->seq = *seq = ++dev->seq;
	publish(dev, t + 1);
	return 0;
}

int tg__mmio_read(struct tg_dev *dev, uint64_t addr, uint64_t *val)
{
	return dev->prov->mmio_read(dev, addr, val);
}

int tg__mmio_write(struct tg_dev *dev, uint64_t addr, const uint64_t *data,
		   const uint8_t *strb, unsigned n)
{
	return dev->prov->mmio_write(dev, addr, data, strb, n);
}

/* The simulator's provider: host-port reads and writes as requests in the
 * client's ring. */
static int ring_mmio_read(struct tg_dev *dev, uint64_t addr, uint64_t *val)
{
	uint32_t seq;
	int rc;

	rc = post_one(dev, TG_SIMP_OP_READ, addr, 0, &seq);
	return rc ? rc : take_answer(dev, seq, val);
}

static int ring_mmio_write(struct tg_dev *dev, uint64_t addr, const uint64_t *data,
			   const uint8_t *strb, unsigned n)
{
	uint64_t t;
	int rc;

	if (!n || n > TG_MAX_BURST_BYTES / 8u)
		return -EINVAL;
	rc = reserve(dev, n, &t);
	if (rc)
		return rc;
	dev->seq++;
	for (unsigned i = 0; i < n; i++) {
		struct tg_simp_req *r = entry(dev, t + i);

		r->op = TG_SIMP_OP_WRITE;
		r->addr = addr + 8u * i;
		r->data = data[i];
		r->strb = strb ? strb[i] : 0xff;
		r->last = i + 1 == n;
		r->seq = dev->seq;
	}
	/* the whole burst becomes visible at once */
	publish(dev, t + n);
	return 0;
}

/* A driver call served by this process's driver of the node. */
static int local_drv(struct tg_dev *dev, uint8_t op, uint64_t addr, uint64_t data, uint64_t *out)
{
	int rc = 0;
	struct tg_ldrv *l = tg__ldrv_of(dev, &rc);

	return l ? tg__ldrv_call(l, dev->ctx, op, addr, data, out) : rc;
}

/* PCI, Ethernet: this process is the driver of its node (local_drv);
 * the simulator: a request in the ring. */
int tg__drv_call(struct tg_dev *dev, uint8_t op, uint64_t addr, uint64_t data, uint64_t *out)
{
	uint32_t seq;
	int rc;

	if (dev->prov->local)
		return local_drv(dev, op, addr, data, out);
	rc = post_one(dev, op, addr, data, &seq);
	return rc ? rc : take_answer(dev, seq, out);
}

int tg__drv_post(struct tg_dev *dev, uint8_t op, uint64_t addr, uint64_t data)
{
	uint32_t seq;

	if (dev->prov->local)
		return local_drv(dev, op, addr, data, NULL);
	return post_one(dev, op, addr, data, &seq);
}

int tg__mem_alloc(struct tg_dev *dev, uint64_t len, uint64_t align, uint64_t *paddr)
{
	return tg__drv_call(dev, TG_SIMP_OP_ALLOC, len, align, paddr);
}

int tg__mem_free(struct tg_dev *dev, uint64_t paddr)
{
	return tg__drv_post(dev, TG_SIMP_OP_FREE, paddr, 0);
}

static uint64_t ring_cycles(const struct tg_dev *dev)
{
	/* a clock reading; nothing is published with it */
	return TG_ATOMIC_LOAD_CLOCK(&dev->ctl->cycles);
}

const struct tg_prov tg__prov_sim = {
	.name = "sim",
	.mmio_read = ring_mmio_read,
	.mmio_write = ring_mmio_write,
	.cycles = ring_cycles,
};
