/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Demo: remote writes, reads, atomics and enqueues between nodes 0 and 1, on tg-sim or on two FPGA boards, with NIC-measured latency. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tg/tg.h"

/* how long the senders' REQs may take to finish at the end: far past any
 * answer, short of a hang */
#define ENQ_WAIT_NS 10000000000ull

#define DEFAULT_REPS   1000u
#define SIMBOARD_REPS  50u     /* simulated boards run about 150 times slower than boards */
#define POLL_TIMEOUT_S 10.0
#define RATE_ENTRIES   4000u   /* back-to-back REQs for the sustained rate (at most) */
#define RATE_WINDOW    1000u   /* ... sent ahead of the receiver (at most) */
#define WAIT_ENTRIES   200u    /* entries taken by a sleeping tg_deq_wait (at most) */
#define RATE_ATOMICS   4000u   /* non-blocking fetch-and-adds for the sustained rate (at most) */
#define ATOMIC_SLOTS   8u      /* ... in flight at once (the library's limit) */
#define QUEUE_LOG2     16u     /* the queue's buffer: 64 KiB, or a quarter of a smaller memory */
#define REC_OFF        1024u   /* the atomics' records in node 0's region */

/* after a rate measured on a board, whose memory the program reaches only
 * through its bridge */
#define BRIDGE_PACED "    (paced by this program's requests through the bridges, one at a time)\n"

/* The two nodes and how their figures are measured.  On tg-sim both NICs
 * count one clock, and an interval from a stamp of node 0 to one of node 1
 * is a latency.  Two boards share no clock: each interval is taken on one
 * NIC's counter, one way being half a round trip less the other node's
 * turn, and each node's cycles become ns at its own clock. */
struct demo {
	struct tg_dev *n0, *n1;
	double ns0, ns1;            /* ns per cycle of each NIC (tg_clock_khz) */
	int one_clock;              /* the NICs count one clock: tg-sim */
	unsigned reps, rate_entries, wait_entries, rate_atomics;
	struct tg_mr *mr0, *mr1;    /* node 0: written-back word, atomic records; node 1: targets */
	uint64_t pa0, pa1;
	struct tg_queue *q0, *q1;   /* node 0's for the answers (round trips); node 1's */
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t median(uint64_t *v, unsigned n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return v[n / 2];
}

static void report(const char *what, uint64_t *v, unsigned n, double ns_per_cycle)
{
	uint64_t m = median(v, n);

	printf("  %-28s median %4" PRIu64 " cycles (%6.0f ns), min %4" PRIu64 ", max %4" PRIu64
	       "  [%u runs]\n", what, m, (double)m * ns_per_cycle, v[0], v[n - 1], n);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int fail(const char *what, int rc)
{
	fprintf(stderr, "tg_demo: %s: %s\n", what, tg_strerror(rc));
	return 1;
}

/* Read CSR reg of dev, exiting on failure. */
static uint64_t csr(struct tg_dev *dev, uint64_t reg)
{
	uint64_t v = 0;
	int rc = tg_csr_read(dev, reg, &v);

	if (rc) {
		fprintf(stderr, "tg_demo: CSR read: %s\n", tg_strerror(rc));
		exit(1);
	}
	return v;
}

/* The CSR reg of dev once it differs from last, into *v.  0, or -ETIMEDOUT. */
static int csr_moved(struct tg_dev *dev, uint64_t reg, uint64_t last, uint64_t *v)
{
	double t0 = now_s();

	while ((*v = csr(dev, reg)) == last)
		if (now_s() - t0 > POLL_TIMEOUT_S)
			return -ETIMEDOUT;
	return 0;
}

/* Wait until the word at off of mr holds want (tg_mr_read: a plain load
 * of the mapping on tg-sim, a request through the bridge on a board).
 * 0, -ETIMEDOUT, or the error of the read. */
static int word_is(const struct tg_mr *mr, size_t off, uint64_t want)
{
	double t0 = now_s();
	uint64_t seen = 0;
	int rc;

	while (!(rc = tg_mr_read(mr, off, &seen, 8)) && seen != want)
		if (now_s() - t0 > POLL_TIMEOUT_S)
			return -ETIMEDOUT;
	return rc;
}

/* Take one entry from q, polling or asleep in tg_deq_wait; *cyc gets the
 * NIC's CYCLES read right after the dequeue, the counter its timestamps
 * come from.  0, -ETIMEDOUT, or the error of the dequeue. */
static int deq_one(struct tg_dev *dev, struct tg_queue *q, int sleep, uint64_t *v, uint64_t *cyc)
{
	double t0 = now_s();
	int rc;

	if (sleep)
		rc = tg_deq_wait(q, v, 8, 10000000000ull);
	else
		while ((rc = tg_deq(q, v, 8)) == -EAGAIN)
			if (now_s() - t0 > POLL_TIMEOUT_S)
				return -ETIMEDOUT;
	if (!rc)
		*cyc = csr(dev, TG_CSR_REG_CYCLES);
	return rc;
}

/* One way from a round trip: rt cycles of node 0 from node 0's request to
 * the answer's arrival, of which turn cycles of node 1 were node 1's, in
 * node 0's cycles; 0 and an error if the turn is not inside the trip. */
static int one_way(const struct demo *d, uint64_t rt, uint64_t turn, uint64_t *ow)
{
	double ns = (double)rt * d->ns0 - (double)turn * d->ns1;

	if (ns <= 0) {
		fprintf(stderr, "tg_demo: a round trip of %" PRIu64 " cycles holds node 1's turn of %"
			PRIu64 ": do the NICs' CLOCK_KHZ tell their clocks?\n", rt, turn);
		*ow = 0;
		return -ERANGE;
	}
	*ow = (uint64_t)(ns / 2.0 / d->ns0 + 0.5);
	return 0;
}

/* How a round trip was split, after its row. */
static void say_turn(const struct demo *d, uint64_t *rt, uint64_t *turn, unsigned n)
{
	uint64_t r = median(rt, n), t = median(turn, n);

	printf("     round trip median %" PRIu64 " cycles of node 0 (%.0f ns), node 1's turn median %"
	       PRIu64 " of its own (%.0f ns))\n", r, (double)r * d->ns0, t, (double)t * d->ns1);
}

/* Remote 8-byte writes to node 1, each then read back through the window;
 * on two clocks node 1 writes each word back to node 0.  Fills wlat (one
 * way, node 0's cycles), rlat, and on two clocks wrt and wturn.  0 or 1. */
static int writes_reads(struct demo *d, struct tg_win *win, uint64_t *wlat, uint64_t *rlat,
			uint64_t *wrt, uint64_t *wturn)
{
	uint64_t last1 = csr(d->n1, TG_CSR_REG_TS_RX_DONE), last0 = csr(d->n0, TG_CSR_REG_TS_RX_DONE);
	int err;

	for (unsigned i = 0; i < d->reps; i++) {
		uint64_t v = 0x5447000000000000ULL | i, seen, req, done, back, ans;

		err = tg_write(d->n0, 1, d->pa1, &v, 8);
		if (!err)
			err = word_is(d->mr1, 0, v);
		/* node 1 answers: the same word into node 0's memory */
		if (!err && !d->one_clock)
			err = tg_write(d->n1, 0, d->pa0, &v, 8);
		if (!err && !d->one_clock)
			err = word_is(d->mr0, 0, v);
		if (err) {
			fprintf(stderr, "tg_demo: write %u: %s\n", i, tg_strerror(err));
			return 1;
		}
		/* The word is visible as soon as the memory answers the NIC,
		 * which stamps TS_RX_DONE when it sees that answer: wait for
		 * the stamp to move past the previous write's */
		req = csr(d->n0, TG_CSR_REG_TS_HOST_REQ);
		if (csr_moved(d->n1, TG_CSR_REG_TS_RX_DONE, last1, &done)) {
			fprintf(stderr, "tg_demo: TS_RX_DONE did not move for write %u\n", i);
			return 1;
		}
		last1 = done;
		if (d->one_clock) {
			/* both stamps come from NIC registers on one shared clock */
			if (done < req) {
				fprintf(stderr, "tg_demo: write %u done at cycle %" PRIu64
					" before its request at %" PRIu64 "\n", i, done, req);
				return 1;
			}
			wlat[i] = done - req;
		} else {
			/* node 0's stamps on node 0's clock, node 1's on its own */
			if (csr_moved(d->n0, TG_CSR_REG_TS_RX_DONE, last0, &back)) {
				fprintf(stderr, "tg_demo: TS_RX_DONE of node 0 did not move for write %u\n", i);
				return 1;
			}
			last0 = back;
			ans = csr(d->n1, TG_CSR_REG_TS_HOST_REQ);
			if (back <= req || ans < done) {
				fprintf(stderr, "tg_demo: write %u: node 0 stamps request %" PRIu64 ", back %"
					PRIu64 "; node 1 done %" PRIu64 ", answer %" PRIu64 "\n", i, req,
					back, done, ans);
				return 1;
			}
			wrt[i] = back - req;
			wturn[i] = ans - done;
			if (one_way(d, wrt[i], wturn[i], &wlat[i]))
				return 1;
		}

		/* remote 8-byte read of the same word through the window */
		seen = tg_win_load64(win, d->pa1);
		if (seen != v || tg_win_error(win)) {
			fprintf(stderr, "tg_demo: read %u returned %#" PRIx64 ", want %#" PRIx64 "\n", i,
				seen, v);
			return 1;
		}
		rlat[i] = csr(d->n0, TG_CSR_REG_TS_HOST_RESP) - csr(d->n0, TG_CSR_REG_TS_HOST_REQ);
	}
	if (d->one_clock)
		printf("  %u remote 8-byte writes and reads verified\n", d->reps);
	else
		printf("  %u remote 8-byte writes, each written back by node 1, and reads verified\n",
		       d->reps);
	return 0;
}

/* A 64-byte write: one burst, one frame; fenced, then read back.  0 or 1. */
static int block_write(struct demo *d)
{
	uint8_t blk[64], back[64];
	int err;

	for (unsigned i = 0; i < sizeof(blk); i++)
		blk[i] = (uint8_t)(0xc0 ^ i * 7);
	err = tg_write(d->n0, 1, d->pa1 + 64, blk, sizeof(blk));
	if (!err)
		err = tg_fence(d->n0, 1);
	if (!err)
		err = tg_mr_read(d->mr1, 64, back, sizeof(back));
	if (err)
		return fail("64-byte write", err);
	if (memcmp(back, blk, sizeof(blk))) {
		fprintf(stderr, "tg_demo: 64-byte write differs in node 1's memory\n");
		return 1;
	}
	memset(back, 0, sizeof(back));
	err = tg_read(d->n0, 1, d->pa1 + 64, back, sizeof(back));
	if (err)
		return fail("64-byte read", err);
	if (memcmp(back, blk, sizeof(blk))) {
		fprintf(stderr, "tg_demo: 64-byte read back differs\n");
		return 1;
	}
	printf("  64-byte write verified in node 1's memory and read back\n");
	return 0;
}

/* Remote fetch-and-add on a word of node 1 from node 0: blocking latency
 * by the NIC's stamps (node 0's alone), then the rate of non-blocking
 * ones kept as deep as the NIC's fetch table allows.  Every old value is
 * checked.  Returns 0 or -errno. */
static int atomics(struct demo *d, uint64_t pa)
{
	unsigned reps = d->reps, slots = (unsigned)(csr(d->n0, TG_CSR_REG_CONFIG) >> 8) & 0xffu;
	uint64_t *lat = calloc(reps, sizeof(*lat)), zero = 0, old, c0, c1;
	unsigned posted = 0, done = 0;
	int err = lat ? 0 : -ENOMEM;

	if (slots > ATOMIC_SLOTS)
		slots = ATOMIC_SLOTS;
	if (!err)
		err = tg_write(d->n0, 1, pa, &zero, 8);
	for (unsigned i = 0; i < reps && !err; i++) {
		err = tg_faa(d->n0, 1, pa, 1, &old);
		if (!err && old != i)
			err = -EIO;
		if (!err)
			lat[i] = csr(d->n0, TG_CSR_REG_TS_HOST_RESP) - csr(d->n0, TG_CSR_REG_TS_HOST_REQ);
	}
	if (err) {
		fprintf(stderr, "tg_demo: blocking fetch-and-add: %s\n", tg_strerror(err));
		goto out;
	}
	report("remote fetch-and-add", lat, reps, d->ns0);
	printf("    (TS_HOST_REQ to TS_HOST_RESP on node 0: the old value is back and the\n"
	       "     new one is in node 1's memory)\n");
	if (!slots)
		goto out;       /* no fetch table: no non-blocking atomics */
	c0 = tg_cycles(d->n0);
	while (done < d->rate_atomics && !err) {
		if (posted < d->rate_atomics && posted - done < slots) {
			err = tg_atomic_post(d->n0, 1, pa, TG_AOP_FAA, 1, 0, d->mr0,
					     REC_OFF + 16u * (posted % slots));
			posted++;
			continue;
		}
		err = tg_atomic_wait(d->n0, d->mr0, REC_OFF + 16u * (done % slots), &old);
		if (!err && old != reps + done)
			err = -EIO;
		done++;
	}
	c1 = tg_cycles(d->n0);
	if (err) {
		fprintf(stderr, "tg_demo: non-blocking fetch-and-add: %s\n", tg_strerror(err));
		goto out;
	}
	printf("  sustained: %u non-blocking fetch-and-adds, %u in flight, in %" PRIu64
	       " cycles = %.1f per 1000 cycles\n", d->rate_atomics, slots, c1 - c0,
	       1000.0 * d->rate_atomics / (double)(c1 - c0));
	if (!tg_mr_ptr(d->mr0))
		printf("%s", BRIDGE_PACED);
out:
	free(lat);
	return err;
}

/* tg_enq of v from dev `from` into queue q of node `node`, whose device
 * is `to`, and its dequeue there (deq_one).  0 or -errno. */
static int hop(struct tg_dev *from, unsigned node, struct tg_dev *to, struct tg_queue *q,
	       uint64_t v, int sleep, uint64_t *cyc)
{
	uint64_t got = 0;
	int err = tg_enq(from, node, tg_queue_paddr(q), v);

	if (!err)
		err = deq_one(to, q, sleep, &got, cyc);
	return !err && got != v ? -EIO : err;
}

/* v from node 0 into node 1's queue and dequeued there; on two clocks
 * node 1 then enqueues it into node 0's queue and node 0 dequeues it the
 * same way.  *d1 and *d0 get each node's CYCLES right after its dequeue.
 * 0 or -errno. */
static int enq_trip(struct demo *d, uint64_t v, int sleep, uint64_t *d1, uint64_t *d0)
{
	int err = hop(d->n0, 1, d->n1, d->q1, v, sleep, d1);

	if (err || d->one_clock)
		return err;
	return hop(d->n1, 0, d->n0, d->q0, v, sleep, d0);
}

/* Remote enqueue from node 0 into a queue of node 1: latency to the entry
 * in memory and to the program's dequeue, polling and asleep, then the
 * rate of one sender.  0 or 1. */
static int enqueues(struct demo *d)
{
	unsigned reps = d->reps, qlog2 = QUEUE_LOG2, window = RATE_WINDOW;
	uint64_t *qlat = calloc(reps, sizeof(*qlat)), *dlat = calloc(reps, sizeof(*dlat));
	uint64_t *qrt = calloc(reps, sizeof(*qrt)), *qturn = calloc(reps, sizeof(*qturn));
	uint64_t *drt = calloc(reps, sizeof(*drt)), *dturn = calloc(reps, sizeof(*dturn));
	uint64_t *slat = calloc(d->wait_entries, sizeof(*slat));
	uint64_t *srt = calloc(d->wait_entries, sizeof(*srt));
	uint64_t *sturn = calloc(d->wait_entries, sizeof(*sturn));
	uint64_t last1, last0 = 0, c0, c1, v;
	unsigned sent = 0, got = 0, cap;
	int rc = 1, err;
	double t0;

	/* a quarter of a small memory at most (a board's 16 KiB), and less
	 * sent ahead than the buffer holds: a single program that both sends
	 * and receives must never wait for itself */
	while (qlog2 > TG_Q_MIN_LOG2 && (1ull << qlog2) > tg_mem_size(d->n1) / 4)
		qlog2--;
	cap = (unsigned)((TG_Q_SLOT_BYTES(qlog2) / 8u) - 1u);
	if (window > cap / 2u)
		window = cap / 2u;
	d->q1 = tg_queue_open(d->n1, qlog2, 8);
	if (d->q1 && !d->one_clock)
		d->q0 = tg_queue_open(d->n0, qlog2, 8);
	if (!d->q1 || (!d->one_clock && !d->q0) || !qlat || !dlat || !qrt || !qturn || !drt ||
	    !dturn || !slat || !srt || !sturn) {
		rc = fail("queue", -errno);
		goto out;
	}
	if (d->one_clock)
		printf("  node 1 has a queue of 8-byte entries at %#" PRIx64 " (%u KiB buffer)\n",
		       tg_queue_paddr(d->q1), (1u << qlog2) / 1024u);
	else
		printf("  node 1 has a queue of 8-byte entries at %#" PRIx64 ", node 0 one at %#"
		       PRIx64 " for the answers (%u KiB buffers)\n", tg_queue_paddr(d->q1),
		       tg_queue_paddr(d->q0), (1u << qlog2) / 1024u);
	last1 = csr(d->n1, TG_CSR_REG_TS_ENQ_DONE);
	if (!d->one_clock)
		last0 = csr(d->n0, TG_CSR_REG_TS_ENQ_DONE);
	for (unsigned i = 0; i < reps; i++) {
		uint64_t d1 = 0, d0 = 0, req, done, back = 0, ans = 0;

		err = enq_trip(d, 0x51000000ULL | i, 0, &d1, &d0);
		if (err) {
			fprintf(stderr, "tg_demo: enqueue %u: %s\n", i, tg_strerror(err));
			goto out;
		}
		/* read after the dequeue so that the reads do not delay it */
		req = csr(d->n0, TG_CSR_REG_TS_HOST_REQ);
		done = csr(d->n1, TG_CSR_REG_TS_ENQ_DONE);
		if (!d->one_clock) {
			back = csr(d->n0, TG_CSR_REG_TS_ENQ_DONE);
			ans = csr(d->n1, TG_CSR_REG_TS_HOST_REQ);
		}
		if (done == last1 || (d->one_clock ? done < req || d1 < req :
				      back == last0 || back <= req || d0 <= req || ans < done || ans < d1)) {
			fprintf(stderr, "tg_demo: entry %u: stamps request %" PRIu64 ", done %" PRIu64
				", dequeued %" PRIu64 "; back %" PRIu64 ", dequeued %" PRIu64
				", answer %" PRIu64 "\n", i, req, done, d1, back, d0, ans);
			goto out;
		}
		last1 = done;
		last0 = back;
		if (d->one_clock) {
			qlat[i] = done - req;
			dlat[i] = d1 - req;
			continue;
		}
		qrt[i] = back - req;
		qturn[i] = ans - done;
		drt[i] = d0 - req;
		dturn[i] = ans - d1;
		if (one_way(d, qrt[i], qturn[i], &qlat[i]) || one_way(d, drt[i], dturn[i], &dlat[i]))
			goto out;
	}
	printf("  %u remote enqueues verified in order%s\n", reps,
	       d->one_clock ? "" : ", each enqueued back by node 1");

	/* sustained rate of one sender: back to back, drained as they come,
	 * timed on the receiver's clock */
	c0 = tg_cycles(d->n1);
	c1 = c0;
	t0 = now_s();
	while (got < d->rate_entries) {
		if (sent < d->rate_entries && sent - got < window) {
			err = tg_enq(d->n0, 1, tg_queue_paddr(d->q1), sent);
			if (err) {
				rc = fail("enqueue", err);
				goto out;
			}
			sent++;
		}
		while (tg_deq(d->q1, &v, 8) == 0) {
			if (v != got) {
				fprintf(stderr, "tg_demo: rate run: entry %u is %" PRIu64 "\n", got, v);
				goto out;
			}
			got++;
			c1 = tg_cycles(d->n1);
		}
		if (now_s() - t0 > 60.0) {
			fprintf(stderr, "tg_demo: rate run stalled at %u entries\n", got);
			goto out;
		}
	}
	/* every REQ of the sender finished and none failed (a failure would
	 * name the REQ by its ticket) */
	err = tg_enq_wait(d->n0, ENQ_WAIT_NS, NULL);
	if (err) {
		rc = fail("tg_enq_wait", err);
		goto out;
	}

	/* the sleeping receiver: tg_deq_wait arms the NIC's notification and
	 * sleeps until the driver wakes it (tg-sim: its interrupt handler,
	 * through a futex; a board: the library's poll of IRQ_STATUS) */
	for (unsigned i = 0; i < d->wait_entries; i++) {
		uint64_t d1 = 0, d0 = 0, req, ans;

		err = enq_trip(d, 0x52000000ULL | i, 1, &d1, &d0);
		if (err) {
			rc = fail("tg_deq_wait", err);
			goto out;
		}
		req = csr(d->n0, TG_CSR_REG_TS_HOST_REQ);
		if (d->one_clock) {
			slat[i] = d1 > req ? d1 - req : 0;
			continue;
		}
		ans = csr(d->n1, TG_CSR_REG_TS_HOST_REQ);
		if (d0 <= req || ans < d1) {
			fprintf(stderr, "tg_demo: woken entry %u: request %" PRIu64 ", dequeued back %"
				PRIu64 "; node 1 dequeued %" PRIu64 ", answered %" PRIu64 "\n", i, req,
				d0, d1, ans);
			goto out;
		}
		srt[i] = d0 - req;
		sturn[i] = ans - d1;
		if (one_way(d, srt[i], sturn[i], &slat[i]))
			goto out;
	}

	printf("remote enqueue, node 0 to node 1 (%u entries, one sender):\n", reps);
	report("store to entry+tail in memory", qlat, reps, d->ns0);
	if (d->one_clock) {
		printf("    (TS_HOST_REQ on node 0 to TS_ENQ_DONE on node 1)\n");
	} else {
		printf("    (half a round trip: TS_HOST_REQ to TS_ENQ_DONE on node 0 for an entry that\n"
		       "     node 1 dequeued and enqueued back, less node 1's TS_ENQ_DONE to TS_HOST_REQ;\n");
		say_turn(d, qrt, qturn, reps);
	}
	report("store to dequeued by program", dlat, reps, d->ns0);
	if (d->one_clock) {
		printf("    (TS_HOST_REQ on node 0 to node 1's CYCLES read right after tg_deq\n"
		       "     returned, polling: the counter the NIC's stamps come from)\n");
	} else {
		printf("    (half a round trip: TS_HOST_REQ on node 0 to node 0's CYCLES read right after\n"
		       "     the program dequeued the entry back, polling, less node 1's time from its\n"
		       "     CYCLES read after its dequeue to its TS_HOST_REQ;\n");
		say_turn(d, drt, dturn, reps);
	}
	report("store to woken and dequeued", slat, d->wait_entries, d->ns0);
	if (d->one_clock) {
		printf("    (the same, with the program asleep in tg_deq_wait: notification\n"
		       "     interrupt, driver wake-up through a futex, dequeue)\n");
	} else {
		printf("    (the same, the program asleep in tg_deq_wait on each node: notification,\n"
		       "     the driver's wake-up, dequeue;\n");
		say_turn(d, srt, sturn, d->wait_entries);
	}
	printf("  sustained: %u back-to-back REQs from one sender in %" PRIu64
	       " cycles = %.1f entries per 1000 cycles\n", d->rate_entries, c1 - c0,
	       1000.0 * d->rate_entries / (double)(c1 - c0));
	if (!tg_mr_ptr(d->mr1))
		printf("%s", BRIDGE_PACED);
	rc = 0;
out:
	free(qlat);
	free(dlat);
	free(qrt);
	free(qturn);
	free(drt);
	free(dturn);
	free(slat);
	free(srt);
	free(sturn);
	return rc;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: tg_demo [--name SIMULATOR] [--reps N] [--round-trip] [DEV | DEV0 DEV1]\n"
		"  no DEV: nodes 0 and 1 of the simulator (sim:SIMULATOR:0, sim:SIMULATOR:1)\n"
		"  DEV0 DEV1: node 0's device and node 1's, e.g. eth:IF0 eth:IF1 or\n"
		"    ethsim:DIR/node0.sock ethsim:DIR/node1.sock (tg-board-sim --dir DIR)\n"
		"  DEV: eth:IFNAME, both boards' bridges on one interface (eth:IFNAME:0, eth:IFNAME:1)\n"
		"  --round-trip: time round trips on each node's own clock, as between boards,\n"
		"    also where the NICs share one (tg-sim)\n"
		"  --reps: runs of each measurement (default %u, %u on simulated boards)\n",
		DEFAULT_REPS, SIMBOARD_REPS);
}

int main(int argc, char **argv)
{
	const char *name = getenv("TG_SIM_NAME") ? getenv("TG_SIM_NAME") : "tg";
	const char *devs[2] = { NULL, NULL };
	char spec[2][128];
	unsigned ndevs = 0, reps = 0;
	int round_trip = 0, given;
	struct demo d = { 0 };
	struct tg_win *win = NULL;
	uint64_t *wlat = NULL, *rlat = NULL, *wrt = NULL, *wturn = NULL, id;
	int rc = 1, err;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--name") && i + 1 < argc) {
			name = argv[++i];
		} else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
			reps = (unsigned)strtoul(argv[++i], NULL, 0);
			if (!reps || reps > 1000000) {
				fprintf(stderr, "tg_demo: --reps must be 1..1000000\n");
				return 2;
			}
		} else if (!strcmp(argv[i], "--round-trip")) {
			round_trip = 1;
		} else if (argv[i][0] != '-' && ndevs < 2) {
			devs[ndevs++] = argv[i];
		} else {
			usage();
			return 2;
		}
	}
	given = ndevs > 0;
	if (ndevs == 0) {
		snprintf(spec[0], sizeof(spec[0]), "sim:%s:0", name);
		snprintf(spec[1], sizeof(spec[1]), "sim:%s:1", name);
	} else if (ndevs == 1) {
		/* eth:IFNAME: the two bridges on one wire, named by node */
		if (strncmp(devs[0], "eth:", 4) || strchr(devs[0] + 4, ':')) {
			fprintf(stderr, "tg_demo: one device must be eth:IFNAME; otherwise name two\n");
			usage();
			return 2;
		}
		snprintf(spec[0], sizeof(spec[0]), "%s:0", devs[0]);
		snprintf(spec[1], sizeof(spec[1]), "%s:1", devs[0]);
	} else {
		snprintf(spec[0], sizeof(spec[0]), "%s", devs[0]);
		snprintf(spec[1], sizeof(spec[1]), "%s", devs[1]);
	}
	/* tg-sim's NICs count one clock; other devices each their own */
	d.one_clock = !round_trip && !strncmp(spec[0], "sim:", 4) && !strncmp(spec[1], "sim:", 4);
	if (!reps)
		reps = !strncmp(spec[0], "ethsim:", 7) ? SIMBOARD_REPS : DEFAULT_REPS;
	d.reps = reps;
	d.rate_entries = 4u * reps < RATE_ENTRIES ? 4u * reps : RATE_ENTRIES;
	d.rate_atomics = 4u * reps < RATE_ATOMICS ? 4u * reps : RATE_ATOMICS;
	d.wait_entries = reps / 5u < WAIT_ENTRIES ? (reps / 5u ? reps / 5u : 1u) : WAIT_ENTRIES;

	for (unsigned i = 0; i < 2; i++) {
		struct tg_dev *dev = tg_open(spec[i], TG_OPEN_DRIVER);

		if (!dev) {
			fprintf(stderr, "tg_demo: %s\n", tg_open_error());
			goto out;
		}
		*(i ? &d.n1 : &d.n0) = dev;
	}
	/* boards named in either order */
	if (tg_node_id(d.n0) == 1 && tg_node_id(d.n1) == 0) {
		struct tg_dev *t = d.n0;
		char s[128];

		d.n0 = d.n1;
		d.n1 = t;
		memcpy(s, spec[0], sizeof(s));
		memcpy(spec[0], spec[1], sizeof(s));
		memcpy(spec[1], s, sizeof(s));
	}
	if (tg_node_id(d.n0) != 0 || tg_node_id(d.n1) != 1) {
		fprintf(stderr, "tg_demo: %s is node %d and %s node %d: the demo runs between nodes 0"
			" and 1 (a board's node id is its build's NODE_ID)\n", spec[0], tg_node_id(d.n0),
			spec[1], tg_node_id(d.n1));
		goto out;
	}
	d.ns0 = 1e6 / (tg_clock_khz(d.n0) ? tg_clock_khz(d.n0) : 125000u);
	d.ns1 = 1e6 / (tg_clock_khz(d.n1) ? tg_clock_khz(d.n1) : 125000u);
	id = tg_nic_id(d.n0);
	if (given)
		printf("tg_demo: %s (node 0) and %s (node 1), NIC ID %#" PRIx64 " (version %u.%u)\n",
		       spec[0], spec[1], id, (unsigned)(id >> 16) & 0xffffu, (unsigned)id & 0xffffu);
	else
		printf("tg_demo: simulator \"%s\", %d nodes, NIC ID %#" PRIx64 " (version %u.%u)\n",
		       name, tg_num_nodes(d.n0), id, (unsigned)(id >> 16) & 0xffffu,
		       (unsigned)id & 0xffffu);
	printf("  node 0: context %d, MAC %012" PRIx64 "; node 1: context %d, MAC %012" PRIx64 "\n",
	       tg_context(d.n0), csr(d.n0, TG_CSR_REG_MAC), tg_context(d.n1), csr(d.n1, TG_CSR_REG_MAC));

	d.mr1 = tg_mr_alloc(d.n1, 4096, TG_ACCESS_ALL);
	d.mr0 = tg_mr_alloc(d.n0, 4096, TG_ACCESS_ALL);
	win = tg_win_open(d.n0, 1);
	wlat = calloc(reps, sizeof(*wlat));
	rlat = calloc(reps, sizeof(*rlat));
	wrt = calloc(reps, sizeof(*wrt));
	wturn = calloc(reps, sizeof(*wturn));
	if (!d.mr1 || !d.mr0 || !win || !wlat || !rlat || !wrt || !wturn) {
		rc = fail("setup", -errno);
		goto out;
	}
	d.pa1 = tg_mr_paddr(d.mr1);
	d.pa0 = tg_mr_paddr(d.mr0);
	printf("  node 1 exports 4096 bytes at physical address %#" PRIx64 "\n", d.pa1);

	if (writes_reads(&d, win, wlat, rlat, wrt, wturn) || block_write(&d))
		goto out;

	if (d.one_clock) {
		printf("latency measured by the NICs' timestamp CSRs (one clock, %.0f ns per cycle):\n",
		       d.ns0);
	} else {
		printf("latency measured by the NICs' timestamp CSRs, each NIC on its own clock (node 0:\n"
		       "%u kHz, %.2f ns per cycle; node 1: %u kHz): one way is half a round trip\n"
		       "less the other node's turn, in node 0's cycles\n", tg_clock_khz(d.n0), d.ns0,
		       tg_clock_khz(d.n1));
	}
	report("remote 8-byte write", wlat, reps, d.ns0);
	if (d.one_clock) {
		printf("    (TS_HOST_REQ on node 0 to TS_RX_DONE on node 1: data in node 1's memory)\n");
	} else {
		printf("    (half a round trip: TS_HOST_REQ to TS_RX_DONE on node 0 for a word that the\n"
		       "     program saw in node 1's memory and node 1 wrote back, less node 1's\n"
		       "     TS_RX_DONE to TS_HOST_REQ;\n");
		say_turn(&d, wrt, wturn, reps);
	}
	report("remote 8-byte read", rlat, reps, d.ns0);
	printf("    (TS_HOST_REQ to TS_HOST_RESP on node 0: the load's full round trip)\n");
	err = atomics(&d, d.pa1 + 512);
	if (err)
		goto out;
	if (enqueues(&d))
		goto out;

	printf("frames: node 0 sent %" PRIu64 ", node 1 sent %" PRIu64 "; refused %" PRIu64
	       ", dropped (FCS/type/malformed) %" PRIu64 "/%" PRIu64 "/%" PRIu64 "\n",
	       csr(d.n0, TG_CSR_REG_TX_FRAMES), csr(d.n1, TG_CSR_REG_TX_FRAMES),
	       csr(d.n1, TG_CSR_REG_RX_REFUSED), csr(d.n1, TG_CSR_REG_RX_DROP_FCS),
	       csr(d.n1, TG_CSR_REG_RX_DROP_TYPE), csr(d.n1, TG_CSR_REG_RX_DROP_MALFORMED));
	rc = 0;
out:
	free(wlat);
	free(rlat);
	free(wrt);
	free(wturn);
	tg_queue_close(d.q1);
	tg_queue_close(d.q0);
	tg_win_close(win);
	tg_mr_free(d.mr0);
	tg_mr_free(d.mr1);
	tg_close(d.n1);
	tg_close(d.n0);
	if (rc == 0)
		printf("tg_demo: ok\n");
	return rc;
}
