/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Remote enqueue from libtg: queue creation through the driver, the dequeue protocol, waiting, and the REQ stores. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "tg/tg_barrier.h"
#include "tg_internal.h"

#define WALK_MAX       (1u << 20)     /* buffers in a chain, at most (guards a corrupt one) */
#define NAP_NS         1000000ull     /* longest futex sleep before re-checking */
#define STEP_CHUNK     16u            /* in-process: cycles simulated per wait round */
#define RELEASE_TRIES  3u             /* tg_deq's releases of QF_DNP and the lock word */

struct tg_queue {
	struct tg_dev *dev;
	uint64_t paddr;            /* first buffer */
	unsigned idx;              /* NIC queue-table entry */
	unsigned log2, elog2;
	int owner;                 /* made by tg_queue_open: destroy at close */
	uint64_t key;              /* exported for REQs with this key; 0: not exported */
	uint64_t tag;              /* our value in the lock word */
	pthread_mutex_t mu;        /* threads sharing this handle */
	void (*hook)(struct tg_queue *q, void *arg);
	void *hook_arg;
	int late_err;              /* first error after a delivered entry (tg_queue_error) */
	int lock_kept;             /* our release of the lock word failed: it still holds our tag */
};

/* A next pointer we may follow: a buffer of this queue's size inside memory. */
static int buf_ok(const struct tg_queue *q, uint64_t b)
{
	uint64_t sz = 1ULL << q->log2;

	return b && !(b & (sz - 1)) && b < q->dev->mem_size && q->dev->mem_size - b >= sz;
}

static struct tg_queue *qalloc(struct tg_dev *dev, uint64_t paddr, unsigned log2, unsigned elog2)
{
	struct tg_queue *q = calloc(1, sizeof(*q));

	if (!q)
		return NULL;
	if (pthread_mutex_init(&q->mu, NULL)) {
		free(q);
		errno = ENOMEM;
		return NULL;
	}
	q->dev = dev;
	q->paddr = paddr;
	q->log2 = log2;
	q->elog2 = elog2;
	q->tag = ((uint64_t)(uint32_t)getpid() << 20) | ((uint64_t)dev->ctx << 16) | 1u;
	return q;
}

static struct tg_queue *tg_queue_open_body(struct tg_dev *dev, unsigned log2_bytes,
					   unsigned entry_bytes)
{
	struct tg_queue *q;
	unsigned elog2 = 0;
	uint64_t ans = 0, id;
	int rc;

	if (!dev || entry_bytes < 8 || entry_bytes > dev->block || (entry_bytes & (entry_bytes - 1)) ||
	    log2_bytes < TG_Q_MIN_LOG2 || log2_bytes > TG_Q_MAX_LOG2) {
		errno = EINVAL;
		return NULL;
	}
	while ((1u << elog2) < entry_bytes)
		elog2++;
	rc = tg__drv_call(dev, TG_SIMP_OP_QCREATE, log2_bytes | elog2 << 8, 0, &ans);
	/* the driver's table writes went to the host port ahead of this
	 * read: once it answers, the NIC knows the queue */
	if (!rc)
		rc = tg__mmio_read(dev, tg_bar_csr_addr(TG_CSR_REG_ID), &id);
	if (rc) {
		errno = -rc;
		return NULL;
	}
	q = qalloc(dev, ans & 0xffffffffu, log2_bytes, elog2);
	if (!q) {
		tg__drv_call(dev, TG_SIMP_OP_QDESTROY, ans & 0xffffffffu, 0, NULL);
		return NULL;
	}
	q->idx = (unsigned)(ans >> 32) & 15u;
	q->owner = 1;
	return q;
}

struct tg_queue *tg_queue_open(struct tg_dev *dev, unsigned log2_bytes, unsigned entry_bytes)
{
	const struct tg_dev *p = tg__enter(dev);

	return tg__leave_ptr(p, dev, "tg_queue_open", tg_queue_open_body(dev, log2_bytes, entry_bytes));
}

static struct tg_queue *tg_queue_attach_body(struct tg_dev *dev, uint64_t paddr)
{
	struct tg_queue *q;
	uint64_t sz, ans = 0;
	unsigned log2, elog2;
	int rc;

	if (!dev || !paddr || paddr >= dev->mem_size || paddr & ((1ULL << TG_Q_MIN_LOG2) - 1)) {
		errno = EINVAL;
		return NULL;
	}
	/* PCI: the node's memory is mapped by its owner, on first use */
	rc = !dev->mem && dev->prov->setup ? dev->prov->setup(dev) : 0;
	/* written by the driver before the queue's address was handed out */
	if (!rc)
		rc = tg__hm_load(dev, paddr + TG_Q_SIZE, &sz);
	if (rc) {
		errno = -rc;
		return NULL;
	}
	log2 = (unsigned)(sz & 0xffu);
	elog2 = (unsigned)(sz >> 8 & 0xffu);
	if (log2 < TG_Q_MIN_LOG2 || log2 > TG_Q_MAX_LOG2 || elog2 < 3 || elog2 > 6 ||
	    paddr & ((1ULL << log2) - 1) || dev->mem_size - paddr < (1ULL << log2)) {
		errno = EINVAL;
		return NULL;
	}
	q = qalloc(dev, paddr, log2, elog2);
	if (!q)
		return NULL;
	/* the driver answers a grow request with the queue's table index
	 * (whose wake-up counter tg_deq_wait sleeps on); for an open queue
	 * the request changes nothing */
	rc = tg__drv_call(dev, TG_SIMP_OP_QGROW, paddr, 0, &ans);
	if (rc) {
		tg_queue_close(q);
		errno = -rc;
		return NULL;
	}
	q->idx = (unsigned)ans & 15u;
	return q;
}

struct tg_queue *tg_queue_attach(struct tg_dev *dev, uint64_t paddr)
{
	const struct tg_dev *p = tg__enter(dev);

	return tg__leave_ptr(p, dev, "tg_queue_attach", tg_queue_attach_body(dev, paddr));
}

void tg_queue_close(struct tg_queue *q)
{
	if (!q)
		return;
	if (q->key)
		tg__region_revoke(q->dev, q->key);
	if (q->owner)
		tg__drv_call(q->dev, TG_SIMP_OP_QDESTROY, q->paddr, 0, NULL);
	pthread_mutex_destroy(&q->mu);
	free(q);
}

static int tg_queue_export_body(struct tg_queue *q, uint64_t *key)
{
	uint64_t k;
	int rc;

	if (!q || !key || !q->owner)
		return -EINVAL;
	if (!q->key) {
		rc = tg__region_export(q->dev, q->paddr, 1ULL << q->log2, TG_RIGHT_ENQ, &k);
		if (rc)
			return rc;
		q->key = k;
	}
	*key = q->key;
	return 0;
}

int tg_queue_export(struct tg_queue *q, uint64_t *key)
{
	const struct tg_dev *p = tg__enter(q ? q->dev : NULL);

	return tg__leave(p, q ? q->dev : NULL, "tg_queue_export", tg_queue_export_body(q, key), 1);
}

static int tg_queue_revoke_body(struct tg_queue *q)
{
	if (!q || !q->owner)
		return -EINVAL;
	return tg__region_forget(q->dev, &q->key);
}

int tg_queue_revoke(struct tg_queue *q)
{
	const struct tg_dev *p = tg__enter(q ? q->dev : NULL);

	return tg__leave(p, q ? q->dev : NULL, "tg_queue_revoke", tg_queue_revoke_body(q), 1);
}

uint64_t tg_queue_paddr(const struct tg_queue *q)
{
	return q ? q->paddr : 0;
}

unsigned tg_queue_entry_bytes(const struct tg_queue *q)
{
	return q ? 1u << q->elog2 : 0;
}

int tg_queue_set_deq_hook(struct tg_queue *q, void (*fn)(struct tg_queue *q, void *arg),
			  void *arg)
{
	if (!q)
		return -EINVAL;
	pthread_mutex_lock(&q->mu);
	q->hook = fn;
	q->hook_arg = arg;
	pthread_mutex_unlock(&q->mu);
	return 0;
}

int tg_queue_error(struct tg_queue *q)
{
	int e;

	if (!q)
		return -EINVAL;
	pthread_mutex_lock(&q->mu);
	e = q->late_err;
	q->late_err = 0;
	pthread_mutex_unlock(&q->mu);
	return e;
}

/* Keep the first error met after an entry was delivered (q->mu held). */
static void late_error(struct tg_queue *q, int err)
{
	if (err && !q->late_err)
		q->late_err = err;
}

uint64_t tg_cycles(const struct tg_dev *dev)
{
	/* a clock reading; nothing is published with it */
	return dev ? dev->prov->cycles(dev) : 0;
}

static int tg_queue_grow_body(struct tg_queue *q)
{
	if (!q)
		return -EINVAL;
	return tg__drv_call(q->dev, TG_SIMP_OP_QGROW, q->paddr, 0, NULL);
}

int tg_queue_grow(struct tg_queue *q)
{
	const struct tg_dev *p = tg__enter(q ? q->dev : NULL);

	return tg__leave(p, q ? q->dev : NULL, "tg_queue_grow", tg_queue_grow_body(q), 1);
}

/* Consumers of one queue in different handles (threads, processes) take
 * the lock word of the first buffer. */
static int lock_word(struct tg_queue *q)
{
	unsigned spins = 0;

	for (;;) {
		uint64_t expect = 0;
		/* acquire: the last holder's head updates are visible */
		int c = tg__hm_cas(q->dev, q->paddr + TG_QSW_LOCK, &expect, q->tag);

		if (c)
			return c < 0 ? c : 0;
		/* a release of ours that failed left our tag there: it is ours */
		if (q->lock_kept && expect == q->tag)
			return 0;
		if (q->dev->step) {
			/* in-process: another handle holds it only inside its own
			 * tg_deq, which cannot be running while we are */
			return -EDEADLK;
		}
		if (++spins < 64)
			TG_CPU_RELAX();
		else
			sched_yield();
	}
}

static int unlock_word(struct tg_queue *q)
{
	/* release: our head updates go out with the free lock */
	return tg__hm_store(q->dev, q->paddr + TG_QSW_LOCK, 0);
}

/* Set QF_DNP, waiting while the driver holds QF_DRIVER (it is moving the
 * buffers: a short, bounded step in the simulator). */
static int take_dnp(struct tg_queue *q)
{
	uint64_t fa = q->paddr + TG_Q_FLAGS, f;
	int rc = tg__hm_load(q->dev, fa, &f);  /* current bits */

	while (!rc) {
		if (!(f & TG_QF_DRIVER)) {
			/* acquire: whatever the driver moved is visible after */
			rc = tg__hm_cas(q->dev, fa, &f, f | TG_QF_DNP);
			if (rc)
				return rc < 0 ? rc : 0;
			continue;       /* f reloaded by the failed CAS */
		}
		if (!(rc = tg__wait(q->dev)))
			rc = tg__hm_load(q->dev, fa, &f);  /* the driver's release of QF_DRIVER */
	}
	return rc;
}

/* The last (oldest) buffer of the chain and the one before it (0 if the
 * last is the first). */
static int last_buffer(struct tg_queue *q, uint64_t *last, uint64_t *prev)
{
	uint64_t b = q->paddr, p = 0, n;

	for (unsigned i = 0; i < WALK_MAX; i++) {
		/* the driver released the link after filling the buffer */
		int rc = tg__hm_load(q->dev, b + TG_Q_NEXT, &n);

		if (rc)
			return rc;
		if (!n) {
			*last = b;
			*prev = p;
			return 0;
		}
		if (!buf_ok(q, n))
			return -EIO;
		p = b;
		b = n;
	}
	return -EIO;
}

/* The dequeue proper, with QF_DNP held. */
static int deq_locked(struct tg_queue *q, void *buf)
{
	uint64_t sz = 1ULL << q->log2, esz = 1ULL << q->elog2, b, prev, h, t;
	int rc;

	for (;;) {
		if ((rc = last_buffer(q, &b, &prev)))
			return rc;
		/* head: only dequeuers (under QF_DNP) and the driver (under
		 * QF_DRIVER, excluded now) write it; tail (acquire): the NIC
		 * wrote the entries below it before it */
		if ((rc = tg__hm_load(q->dev, b + TG_Q_HEAD, &h)) ||
		    (rc = tg__hm_load(q->dev, b + TG_Q_TAIL, &t)))
			return rc;
		if (h < TG_Q_SLOTS || h >= sz || t < TG_Q_SLOTS || t >= sz || (h | t) & (esz - 1))
			return -EIO;
		if (h != t)
			break;
		if (b == q->paddr)
			return -EAGAIN;
		/* an older buffer ran empty: unlink it (release: nothing of
		 * it is read after) and hand it back to the driver */
		if ((rc = tg__hm_store(q->dev, prev + TG_Q_NEXT, 0)))
			return rc;
		tg__drv_post(q->dev, TG_SIMP_OP_QFREEBUF, q->paddr, b);
	}
	if ((rc = tg__hm_read(q->dev, b + h, buf, esz)))
		return rc;
	h += esz;
	if (h == sz)
		h = TG_Q_SLOTS;
	/* the copy is done before the NIC may reuse the slot */
	return tg__hm_store(q->dev, b + TG_Q_HEAD, h);
}

static int tg_deq_body(struct tg_queue *q, void *buf, size_t len)
{
	uint64_t old = 0;
	int rc, g, u = 0;

	if (!q || !buf || len < (1u << q->elog2))
		return -EINVAL;
	pthread_mutex_lock(&q->mu);
	rc = lock_word(q);
	if (rc)
		goto out_mu;
	rc = take_dnp(q);
	if (rc)
		goto out_lock;
	if (q->hook)
		q->hook(q, q->hook_arg);
	rc = deq_locked(q, buf);
	/* release our head update; acquire QF_FULL the driver set meanwhile
	 * (through a board's bridge an access may fail: try again, since a
	 * flag or lock left set would stop the queue) */
	for (unsigned i = 0; i < RELEASE_TRIES; i++)
		if (!(g = tg__hm_clear(q->dev, q->paddr + TG_Q_FLAGS, TG_QF_DNP, &old)))
			break;
	for (unsigned i = 0; i < RELEASE_TRIES; i++)
		if (!(u = unlock_word(q)))
			break;
	q->lock_kept = u != 0;
	if (!g)
		g = u;
	/* an entry taken is the caller's, whatever failed after it: the
	 * next call takes the flag and the lock word again */
	if (g && rc == 0)
		late_error(q, g);
	pthread_mutex_unlock(&q->mu);
	if (g)
		return rc == 0 ? 0 : g;
	/* PCI, Ethernet: nobody else handles the NIC's interrupt causes; an
	 * empty queue may be one the NIC holds closed after an overflow */
	if (rc == -EAGAIN && q->dev->prov->local && !(old & TG_QF_FULL)) {
		struct tg_ldrv *l = tg__ldrv_of(q->dev, NULL);

		if (l && (g = tg__ldrv_service(l)))
			rc = g;
	}
	if (old & TG_QF_FULL) {
		/* the buffer overflowed while we held QF_DNP: the driver left
		 * the queue closed for us to call it.  A grow that fails
		 * leaves QF_FULL set, so the next call asks again */
		g = tg_queue_grow(q);
		if (g && rc == -EAGAIN) {
			tg__why("the queue is empty and held full at the NIC; the driver could "
				"not grow it: %s", tg_strerror(g));
			rc = g;
		}
		if (g && rc == 0) {
			pthread_mutex_lock(&q->mu);
			late_error(q, g);
			pthread_mutex_unlock(&q->mu);
		}
	}
	return rc;
out_lock:
	(void)unlock_word(q);   /* the error already returned is the one to see */
out_mu:
	pthread_mutex_unlock(&q->mu);
	return rc;
}

int tg_deq(struct tg_queue *q, void *buf, size_t len)
{
	const struct tg_dev *p = tg__enter(q ? q->dev : NULL);

	return tg__leave(p, q ? q->dev : NULL, "tg_deq", tg_deq_body(q, buf, len), 0);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The clock a wait's timeout runs on: simulated cycles in-process (the
 * waiting call advances them), else wall-clock ns. */
static uint64_t wait_now(struct tg_dev *dev)
{
	return dev->step ? tg_cycles(dev) : mono_ns();
}

/* timeout_ns on wait_now's clock */
static uint64_t wait_limit(const struct tg_dev *dev, uint64_t timeout_ns)
{
	if (!dev->step)
		return timeout_ns;
	return timeout_ns > UINT64_MAX / 1000u ? UINT64_MAX :
	       timeout_ns * 1000u / (dev->ctl->ps_per_cycle ? dev->ctl->ps_per_cycle : 1);
}

/* PCI, Ethernet: the notification comes as the NIC's interrupt (or
 * IRQ_STATUS polled), which this process handles itself. */
static int local_deq_wait(struct tg_queue *q, void *buf, size_t len, uint64_t timeout_ns)
{
	struct tg_dev *dev = q->dev;
	uint64_t id, t0 = mono_ns();
	int rc = 0;
	struct tg_ldrv *l = tg__ldrv_of(dev, &rc);

	if (!l)
		return rc;
	for (;;) {
		uint32_t w = tg__ldrv_wake_count(l, q->idx);
		uint64_t now;

		rc = tg__drv_post(dev, TG_SIMP_OP_QARM, q->paddr, 0);
		/* the QARM write reached the NIC once this read answers */
		if (!rc)
			rc = tg__mmio_read(dev, tg_bar_csr_addr(TG_CSR_REG_ID), &id);
		if (rc)
			return rc;
		rc = tg_deq(q, buf, len);
		if (rc != -EAGAIN)
			return rc;
		now = mono_ns();
		if (now - t0 >= timeout_ns)
			return -ETIMEDOUT;
		rc = tg__ldrv_wait(dev, q->idx, w, timeout_ns - (now - t0));
		if (rc)
			return rc;
	}
}

static int tg_deq_wait_body(struct tg_queue *q, void *buf, size_t len, uint64_t timeout_ns)
{
	struct tg_dev *dev;
	_Atomic uint32_t *wake;
	uint64_t id, t0, limit;
	int rc;

	rc = tg_deq(q, buf, len);
	if (rc != -EAGAIN)
		return rc;
	dev = q->dev;
	if (dev->prov->local)
		return local_deq_wait(q, buf, len, timeout_ns);
	/* in-process: simulated time; tg-sim: wall-clock time */
	t0 = wait_now(dev);
	limit = wait_limit(dev, timeout_ns);
	for (;;) {
		uint32_t w = 0;
		uint64_t now, left;

		wake = &tg_simp_qnode(dev->ctl, dev->node)->wake[q->idx];
		w = TG_ATOMIC_LOAD_ACQ(wake);  /* then arm and look again */
		rc = tg__drv_post(dev, TG_SIMP_OP_QARM, q->paddr, 0);
		/* the QARM write went to the host port ahead of this read:
		 * once it answers, the next entry raises the notification */
		if (!rc)
			rc = tg__mmio_read(dev, tg_bar_csr_addr(TG_CSR_REG_ID), &id);
		if (rc)
			return rc;
		rc = tg_deq(q, buf, len);
		if (rc != -EAGAIN)
			return rc;
		now = wait_now(dev);
		if (now - t0 >= limit)
			return -ETIMEDOUT;
		left = limit - (now - t0);
		if (dev->step) {
			/* in-process: let time pass until the count moves */
			for (unsigned i = 0; i < 1024u && TG_ATOMIC_LOAD_ACQ(wake) == w; i++) {
				if (tg_cycles(dev) - t0 >= limit)
					break;
				dev->step(dev->sim, STEP_CHUNK);
			}
			continue;
		}
		/* set by the simulator as it stops */
		if (TG_ATOMIC_LOAD_ACQ(&dev->ctl->stopping))
			return -ENOTCONN;
		if (left > NAP_NS)
			left = NAP_NS;
		struct timespec ts = { (time_t)(left / 1000000000ull), (long)(left % 1000000000ull) };

		/* sleeps only while the count is still w */
		syscall(SYS_futex, wake, FUTEX_WAIT, w, &ts, NULL, 0);
	}
}

int tg_deq_wait(struct tg_queue *q, void *buf, size_t len, uint64_t timeout_ns)
{
	const struct tg_dev *p = tg__enter(q ? q->dev : NULL);

	return tg__leave(p, q ? q->dev : NULL, "tg_deq_wait",
			 tg_deq_wait_body(q, buf, len, timeout_ns), 1);
}

static int tg_enq_store_body(struct tg_dev *dev, unsigned node, uint64_t qpaddr,
			     const uint64_t *words, unsigned n)
{
	int rc;

	if (!dev || !words)
		return -EINVAL;
	if (node >= dev->nodes) {
		tg__why("node %u: the cluster has nodes 0 to %u", node, dev->nodes - 1);
		return -EINVAL;
	}
	if (!n || n > dev->block / 8u) {
		tg__why("an entry of %u words: 1 to %u fit in the NIC's block", n, dev->block / 8u);
		return -EINVAL;
	}
	rc = tg__async_err(dev);
	if (rc)
		return rc;
	/* one burst to consecutive words from the queue's base: one REQ */
	rc = tg__mmio_write(dev, tg_bar_data_addr(TG_WIN_REQ, dev->ctx, node, qpaddr), words, NULL,
			    n);
	if (rc)
		return rc;
	/* the NIC numbers it as the context's next REQ */
	dev->enq_issued++;
	dev->enq_recent[dev->enq_issued % TG__ENQ_RECENT] =
		(struct tg__enq_target){ (uint32_t)qpaddr, (uint16_t)node };
	return 0;
}

/* ---- outcomes of REQs ---- */

#define ENQ_OPEN_WAIT_NS  1000000000ull   /* a former owner's REQs: how long open waits */
#define ENQ_OPEN_CYCLES   (1ull << 22)    /* ... in-process, in cycles */
#define ENQ_NUM_SPAN      65536ull        /* the NIC numbers REQs modulo 2^16 */

static uint64_t enq_reg(const struct tg_dev *dev)
{
	return tg_bar_ctx_addr(dev->ctx, TG_CTX_REG_REQ_STATE);
}

/* Read REQ_STATE until every REQ of the context is finished or `limit`
 * (cycles in-process, else ns) has passed: 0 and *v, or -ETIMEDOUT, or
 * the read's error.  Between reads: the simulator's pace, then naps of up
 * to a millisecond (REQs can wait that long for a stopped consumer). */
static int enq_settle(struct tg_dev *dev, uint64_t limit, uint64_t *v)
{
	uint64_t t0 = wait_now(dev);
	int rc;

	for (unsigned round = 0;; round++) {
		struct timespec ts = { 0, 0 };
		uint64_t now;

		rc = tg__mmio_read(dev, enq_reg(dev), v);
		if (rc)
			return rc;
		if ((uint16_t)(*v >> TG_REQST_ISSUED_LSB) == (uint16_t)(*v >> TG_REQST_DONE_LSB))
			return 0;
		now = wait_now(dev);
		if (now - t0 >= limit)
			return -ETIMEDOUT;
		if (dev->step || round < 64) {
			rc = tg__wait(dev);
		} else {
			ts.tv_nsec = (long)(round < 74 ? 1000ull << (round - 64) : NAP_NS);
			nanosleep(&ts, NULL);
			rc = dev->prov->local ? 0 : tg__wait(dev);
		}
		if (rc)
			return rc;
	}
}

int tg__enq_open(struct tg_dev *dev)
{
	uint64_t v, zero = 0;
	int rc;

	/* REQs a former owner of the context left in flight finish first, so
	 * that their counts and failures are not taken for ours */
	rc = enq_settle(dev, dev->step ? ENQ_OPEN_CYCLES : ENQ_OPEN_WAIT_NS, &v);
	if (rc == -ETIMEDOUT) {
		tg__why("context %u still has REQs of its former owner in flight", dev->ctx);
		return -EBUSY;
	}
	if (rc)
		return rc;
	dev->enq_base = (uint16_t)(v >> TG_REQST_ISSUED_LSB);
	dev->enq_issued = 0;
	dev->enq_mark = 0;
	/* any write clears the failure fields */
	return tg__mmio_write(dev, enq_reg(dev), &zero, NULL, 1);
}

uint64_t tg_enq_ticket(const struct tg_dev *dev)
{
	return dev ? dev->enq_issued : 0;
}

/* tg_dev_error's text for the first failure since the last wait: REQ
 * `ticket` (0: not known), failed with rc; count failures in all. */
static void enq_why(const struct tg_dev *dev, uint64_t ticket, int rc, unsigned count)
{
	char who[96] = "a REQ of this context (its number not known to this device)";
	char what[256];

	if (ticket && dev->enq_issued - ticket < TG__ENQ_RECENT) {
		const struct tg__enq_target *t = &dev->enq_recent[ticket % TG__ENQ_RECENT];

		snprintf(who, sizeof(who), "REQ %" PRIu64 " (to node %u, queue %#" PRIx32 ")", ticket,
			 t->node, t->qpaddr);
	} else if (ticket) {
		snprintf(who, sizeof(who), "REQ %" PRIu64, ticket);
	}
	if (rc == -EHOSTUNREACH)
		snprintf(what, sizeof(what), "got no answer within READ_TIMEOUT: its entry may or may "
			 "not be in the queue");
	else
		snprintf(what, sizeof(what), "failed for good: %s", tg_strerror(rc));
	tg__why("%s %s; %u%s REQ%s failed since the last tg_enq_wait", who, what, count,
		count == 255 ? " or more" : "", count == 1 ? "" : "s");
}

static int tg_enq_wait_body(struct tg_dev *dev, uint64_t timeout_ns, uint64_t *failed)
{
	uint64_t v, zero = 0, ticket = 0, back, since;
	uint16_t issued, num;
	unsigned st, count;
	int rc;

	if (failed)
		*failed = 0;
	if (!dev)
		return -EINVAL;
	/* in-process: simulated time; tg-sim and boards: wall-clock time */
	rc = enq_settle(dev, wait_limit(dev, timeout_ns), &v);
	if (rc)
		return rc;
	since = dev->enq_issued - dev->enq_mark;
	dev->enq_mark = dev->enq_issued;
	st = (unsigned)(v >> TG_REQST_FAIL_ST_LSB) & 0xffu;
	if (!st)
		return 0;
	issued = (uint16_t)(v >> TG_REQST_ISSUED_LSB);
	num = (uint16_t)(v >> TG_REQST_FAIL_NUM_LSB);
	count = (unsigned)(v >> TG_REQST_FAIL_CNT_LSB) & 0xffu;
	/* nothing is in flight: no failure can come between the read and this */
	rc = tg__mmio_write(dev, enq_reg(dev), &zero, NULL, 1);
	if (rc)
		return rc;
	rc = tg_status_errno(st);
	/* the failed REQ is one of the `since` issued after the last wait,
	 * numbered modulo 2^16 from enq_base */
	back = (uint16_t)(issued - num);
	if (issued != (uint16_t)(dev->enq_base + dev->enq_issued)) {
		/* a REQ store the library took for lost reached the NIC, or a
		 * REQ went out on the context without libtg: count on from the
		 * NIC's number */
		dev->enq_base = (uint16_t)(issued - dev->enq_issued);
	} else if (back < since && since < ENQ_NUM_SPAN) {
		ticket = dev->enq_issued - back;
	}
	if (failed)
		*failed = ticket;
	enq_why(dev, ticket, rc, count);
	return rc;
}

int tg_enq_wait(struct tg_dev *dev, uint64_t timeout_ns, uint64_t *failed)
{
	const struct tg_dev *p = tg__enter(dev);

	return tg__leave(p, dev, "tg_enq_wait", tg_enq_wait_body(dev, timeout_ns, failed), 1);
}

int __tg_enq_store(struct tg_dev *dev, unsigned node, uint64_t qpaddr, const uint64_t *words,
		   unsigned n)
{
	const struct tg_dev *p = tg__enter(dev);

	return tg__leave(p, dev, "tg_enq", tg_enq_store_body(dev, node, qpaddr, words, n), 1);
}

static int tg_enq_multi_body(struct tg_dev *dev, unsigned node, uint64_t qpaddr,
			     const uint64_t *words, unsigned n)
{
	if (!dev || !words)
		return -EINVAL;
	if (!__tg_enq_addr_ok(qpaddr)) {
		tg__why("%#" PRIx64 " is no queue address: nonzero, below 2^32, aligned to %u",
			qpaddr, 1u << TG_Q_MIN_LOG2);
		return -EINVAL;
	}
	return __tg_enq_store(dev, node, qpaddr, words, n);
}

int tg_enq_multi(struct tg_dev *dev, unsigned node, uint64_t qpaddr, const uint64_t *words,
		 unsigned n)
{
	const struct tg_dev *p = tg__enter(dev);

	return tg__leave(p, dev, "tg_enq_multi", tg_enq_multi_body(dev, node, qpaddr, words, n), 1);
}
