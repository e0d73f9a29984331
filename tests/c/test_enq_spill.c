/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: two nodes flood each other's full queues with REQs while each queue's dequeuer is inside its critical section; the REQs that find no sender slot wait in the spill rings, the host ports keep serving CSR accesses, remote reads and writes and the drivers' overflow handling, and every entry arrives once, in order. */
#include "tg_test.h"

#define QLOG2    8u        /* 256-byte buffers of 8-byte entries: 15 entries */
#define N        300u      /* entries each node sends the other */
#define WAIT_MAX 2000000u

static volatile uint64_t *flags_word(struct tg_sim *sim, unsigned node, const struct tg_queue *q)
{
	return (volatile uint64_t *)(tg_sim_mem(sim, node) + tg_queue_paddr(q) + TG_Q_FLAGS);
}

static uint64_t entry(unsigned from, unsigned i)
{
	return ((uint64_t)(0x5100u + from) << 32) | i;
}

int main(void)
{
	struct tg_sim *sim = t_sim(2);
	struct tg_dev *dev[2] = { t_open(sim, 0, TG_OPEN_DRIVER), t_open(sim, 1, TG_OPEN_DRIVER) };
	struct tg_queue *q[2];
	struct tg_mr *mr;
	struct tg_sim_qstats qs;
	unsigned sent = 0, got[2] = { 0, 0 };
	uint64_t v, held[2], spilled[2];

	for (unsigned n = 0; n < 2; n++) {
		q[n] = tg_queue_open(dev[n], QLOG2, 8);
		REQUIRE(q[n], "tg_queue_open on node %u: %s", n, tg_strerror(-errno));
		CHECK_RC(tg_csr_write(dev[n], TG_CSR_REG_REQ_BACKOFF, 64), 0);
		CHECK((t_csr(dev[n], TG_CSR_REG_SPILL_CFG) & 0x1F) == 10, "node %u has no spill ring", n);
		/* a dequeuer stopped inside its critical section: overflows
		 * only mark the queue full, nothing grows it */
		__atomic_fetch_or(flags_word(sim, n, q[n]), TG_QF_DNP, __ATOMIC_SEQ_CST);
	}
	mr = tg_mr_alloc(dev[1], 4096, TG_ACCESS_ALL);
	REQUIRE(mr, "tg_mr_alloc: %s", tg_strerror(-errno));

	/* each node sends the other N entries: after 15 the queue is full
	 * and refuses; 4 refused REQs take every sender slot; the rest are
	 * parked in the spill ring instead of stalling the host port */
	for (sent = 0; sent < N; sent++) {
		CHECK_RC(tg_enq(dev[0], 1, tg_queue_paddr(q[1]), entry(0, sent)), 0);
		CHECK_RC(tg_enq(dev[1], 0, tg_queue_paddr(q[0]), entry(1, sent)), 0);
		tg_sim_step(sim, 8);
	}
	tg_sim_step(sim, 5000);
	for (unsigned n = 0; n < 2; n++) {
		held[n] = t_csr(dev[n], TG_CSR_REG_SPILL_CFG) >> 32;
		spilled[n] = t_csr(dev[n], TG_CSR_REG_REQ_SPILLED);
		/* (one more REQ may wait in the link layer's request register) */
		CHECK(held[n] >= N - 15 - 4 - 1 && held[n] <= N, "node %u holds %" PRIu64 " spilled REQs",
		      n, held[n]);
		CHECK(spilled[n] >= held[n], "node %u: REQ_SPILLED %" PRIu64 " < held %" PRIu64, n,
		      spilled[n], held[n]);
		/* the driver handled the overflow through this busy host port */
		tg_sim_get_qstats(sim, n, &qs);
		CHECK(qs.full_marks >= 1 && qs.grows == 0, "node %u: full marks %" PRIu64
		      ", grows %" PRIu64, n, qs.full_marks, qs.grows);
		CHECK(*flags_word(sim, n, q[n]) & TG_QF_FULL, "node %u: queue not marked full", n);
	}
	/* the host port still serves: CSRs, and a remote write and read */
	CHECK_RC(tg_csr_write(dev[0], TG_CSR_REG_SCRATCH, 0x5ca1ab1eULL), 0);
	CHECK(t_csr(dev[0], TG_CSR_REG_SCRATCH) == 0x5ca1ab1eULL, "scratch register");
	v = 0x0123456789abcdefULL;
	CHECK_RC(tg_write(dev[0], 1, tg_mr_paddr(mr), &v, 8), 0);
	v = 0;
	CHECK_RC(tg_read(dev[0], 1, tg_mr_paddr(mr), &v, 8), 0);
	CHECK(v == 0x0123456789abcdefULL, "remote read during the flood: %#" PRIx64, v);

	/* the dequeuers finish: they see full-queue, have the queues grown,
	 * and every entry arrives once, in order */
	for (unsigned n = 0; n < 2; n++)
		__atomic_fetch_and(flags_word(sim, n, q[n]), ~(uint64_t)TG_QF_DNP, __ATOMIC_SEQ_CST);
	for (unsigned i = 0; i < WAIT_MAX && (got[0] < N || got[1] < N); i++) {
		for (unsigned n = 0; n < 2; n++) {
			while (tg_deq(q[n], &v, 8) == 0) {
				CHECK(v == entry(1 - n, got[n]), "node %u: entry %u is %#" PRIx64, n,
				      got[n], v);
				got[n]++;
			}
		}
		tg_sim_step(sim, 16);
	}
	for (unsigned n = 0; n < 2; n++) {
		CHECK(got[n] == N, "node %u received %u of %u entries", n, got[n], N);
		CHECK_RC(tg_deq(q[n], &v, 8), -EAGAIN);
		CHECK(t_csr(dev[n], TG_CSR_REG_SPILL_CFG) >> 32 == 0, "node %u: spill ring not empty", n);
		CHECK(t_csr(dev[n], TG_CSR_REG_REQ_ACCEPTED) == N, "node %u accepted %" PRIu64, n,
		      t_csr(dev[n], TG_CSR_REG_REQ_ACCEPTED));
		CHECK((*flags_word(sim, n, q[n]) & (TG_QF_DNP | TG_QF_FULL | TG_QF_DRIVER)) == 0,
		      "node %u: flags left set", n);
	}
	printf("spilled %" PRIu64 " and %" PRIu64 " REQs (at most %" PRIu64 " and %" PRIu64
	       " at once); every entry arrived once, in order\n", spilled[0], spilled[1], held[0],
	       held[1]);
	t_check_sim(sim);
	tg_mr_free(mr);
	for (unsigned n = 0; n < 2; n++) {
		tg_queue_close(q[n]);
		tg_close(dev[n]);
	}
	tg_sim_destroy(sim);
	return t_done("test_enq_spill");
}
