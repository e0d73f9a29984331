/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: remote enqueue basics: order, 64-byte entries arriving whole, NO_QUEUE, argument checks. */
#include "../../libtg/tg_internal.h"
#include "tg_test.h"

#define STEP_MAX  200000u

/* Dequeue one entry, letting simulated time pass while the queue is empty. */
static int deq_step(struct tg_sim *sim, struct tg_queue *q, void *buf, size_t len)
{
	int rc = -EAGAIN;

	for (unsigned i = 0; i < STEP_MAX && rc == -EAGAIN; i++) {
		rc = tg_deq(q, buf, len);
		if (rc == -EAGAIN)
			tg_sim_step(sim, 8);
	}
	return rc;
}

int main(void)
{
	struct tg_sim *sim = t_sim(3);
	struct tg_dev *snd = t_open(sim, 0, 0), *rcv = t_open(sim, 1, TG_OPEN_DRIVER);
	struct tg_queue *q8, *q64;
	struct tg_mr *mr, *mr2;
	uint64_t e[8], w[8], pa, before[64], v = 0, t0, failed, w2[2];
	char want[512];
	uint8_t *mem1 = tg_sim_mem(sim, 1);
	struct tg_sim_stats st0, st1;

	/* argument checks: nothing reaches the NIC */
	CHECK(tg_queue_open(NULL, 8, 8) == NULL && errno == EINVAL, "NULL dev");
	CHECK(tg_queue_open(rcv, 7, 8) == NULL && errno == EINVAL, "buffer too small");
	CHECK(tg_queue_open(rcv, 8, 12) == NULL && errno == EINVAL, "entry not a power of two");
	CHECK(tg_queue_open(rcv, 8, 128) == NULL && errno == EINVAL, "entry too big");
	q8 = tg_queue_open(rcv, 12, 8);
	q64 = tg_queue_open(rcv, 10, 64);
	REQUIRE(q8 && q64, "tg_queue_open: %s", tg_strerror(-errno));
	pa = tg_queue_paddr(q8);
	CHECK(pa && !(pa & 4095u), "queue paddr %#" PRIx64 " not aligned", pa);
	CHECK(tg_queue_entry_bytes(q64) == 64, "entry bytes %u", tg_queue_entry_bytes(q64));
	tg_sim_step(sim, 200);
	REQUIRE(tg_sim_get_stats(sim, 0, &st0) == 0, "stats");
	CHECK_RC(tg_enq(NULL, 1, pa, 1), -EINVAL);
	CHECK_RC(tg_enq(snd, 3, pa, 1), -EINVAL);          /* node out of range */
	CHECK_RC(tg_enq(snd, 1, pa + 8, 1), -EINVAL);      /* misaligned */
	CHECK_RC(tg_enq(snd, 1, 0, 1), -EINVAL);
	CHECK_RC(tg_enq(snd, 1, 1ULL << 32, 1), -EINVAL);  /* beyond 32 bits */
	CHECK_RC(tg_enq_multi(snd, 1, pa, NULL, 1), -EINVAL);
	CHECK_RC(tg_enq_multi(snd, 1, pa, e, 0), -EINVAL);
	CHECK_RC(tg_enq_multi(snd, 1, pa, e, 9), -EINVAL);
	CHECK_RC(tg_deq(q8, e, 4), -EINVAL);               /* shorter than an entry */
	CHECK_RC(tg_deq(NULL, e, 8), -EINVAL);
	CHECK_RC(tg_deq(q8, e, 8), -EAGAIN);
	tg_sim_step(sim, 2000);
	REQUIRE(tg_sim_get_stats(sim, 0, &st1) == 0, "stats");
	CHECK(st1.host_writes == st0.host_writes && st1.host_rejects == st0.host_rejects,
	      "refused calls reached the host port: %" PRIu64 " writes, %" PRIu64 " rejects",
	      st1.host_writes - st0.host_writes, st1.host_rejects - st0.host_rejects);
	{
		uint64_t acc = 0;

		CHECK_RC(tg_csr_read(rcv, TG_CSR_REG_REQ_ACCEPTED, &acc), 0);
		CHECK(acc == 0, "%" PRIu64 " REQs reached node 1 from refused calls", acc);
	}

	/* 8-byte entries land in order */
	for (unsigned i = 0; i < 200; i++)
		CHECK_RC(tg_enq(snd, 1, pa, 0xe0000000ULL + i), 0);
	for (unsigned i = 0; i < 200; i++) {
		CHECK_RC(deq_step(sim, q8, &v, 8), 0);
		CHECK(v == 0xe0000000ULL + i, "entry %u is %#" PRIx64, i, v);
	}
	CHECK_RC(tg_deq(q8, &v, 8), -EAGAIN);

	/* waiting: times out on an empty queue, wakes on a notification */
	{
		struct tg_sim_qstats qs0, qs1;
		uint64_t c0 = tg_sim_cycles(sim);

		CHECK_RC(tg_deq_wait(q8, &v, 8, 8000 * 8), -ETIMEDOUT);  /* 8000 ns: 1000 cycles */
		CHECK(tg_sim_cycles(sim) - c0 >= 1000, "waited only %" PRIu64 " cycles",
		      tg_sim_cycles(sim) - c0);
		tg_sim_get_qstats(sim, 1, &qs0);
		c0 = tg_sim_cycles(sim);
		/* the entry goes out after the waiter armed the queue: sent
		 * from inside the wait by a second device's posted store */
		CHECK_RC(tg_enq(snd, 1, pa, 0x77), 0);
		v = 0;
		CHECK_RC(tg_deq_wait(q8, &v, 8, 1000000000ull), 0);
		CHECK(v == 0x77, "waited entry %#" PRIx64, v);
		tg_sim_get_qstats(sim, 1, &qs1);
		CHECK(qs1.notifies > qs0.notifies, "no notification interrupt");
		printf("tg_deq_wait: entry after %" PRIu64 " cycles, %" PRIu64 " notifications\n",
		       tg_sim_cycles(sim) - c0, qs1.notifies - qs0.notifies);
	}

	/* 64-byte entries of 1..8 words arrive whole, zero-filled */
	for (unsigned n = 1; n <= 8; n++) {
		for (unsigned k = 0; k < 8; k++)
			w[k] = ((uint64_t)n << 32) | (k * 0x1111u + 1);
		CHECK_RC(tg_enq_multi(snd, 1, tg_queue_paddr(q64), w, n), 0);
	}
	for (unsigned n = 1; n <= 8; n++) {
		memset(e, 0xa5, sizeof(e));
		CHECK_RC(deq_step(sim, q64, e, sizeof(e)), 0);
		for (unsigned k = 0; k < 8; k++) {
			uint64_t want = k < n ? (((uint64_t)n << 32) | (k * 0x1111u + 1)) : 0;

			CHECK(e[k] == want, "entry of %u words, word %u: %#" PRIx64 " want %#" PRIx64,
			      n, k, e[k], want);
		}
	}

	/* every REQ so far delivered: nothing to report */
	t0 = tg_enq_ticket(snd);
	CHECK(t0 > 8, "tickets: %" PRIu64 " after the REQs above", t0);
	failed = 99;
	CHECK_RC(tg_enq_wait(snd, T_ENQ_NS, &failed), 0);
	CHECK(failed == 0, "ticket %" PRIu64 " of a failure reported with none", failed);

	/* REQ to memory that is no queue: NO_QUEUE at the sender, memory
	 * unchanged; reported by tg_enq_wait with its ticket, and by nothing
	 * else (not tg_ctx_status, not tg_fence, not a later tg_enq) */
	mr = tg_mr_alloc(rcv, 4096, TG_ACCESS_ALL);
	REQUIRE(mr, "tg_mr_alloc");
	memset(tg_mr_ptr(mr), 0x3c, 4096);
	memcpy(before, mem1 + tg_mr_paddr(mr), sizeof(before));
	CHECK_RC(tg_ctx_status(snd), 0);
	CHECK_RC(tg_enq(snd, 1, tg_mr_paddr(mr), 0x1234), 0);
	CHECK(tg_enq_ticket(snd) == t0 + 1, "ticket %" PRIu64 ", want %" PRIu64, tg_enq_ticket(snd), t0 + 1);
	CHECK_RC(tg_fence(snd, 1), 0);
	tg_sim_step(sim, 2000);
	CHECK_RC(tg_ctx_status(snd), 0);
	CHECK_RC(tg_enq(snd, 1, tg_queue_paddr(q8), 5), 0);
	CHECK_RC(tg_enq_wait(snd, T_ENQ_NS, &failed), -ENOENT);
	CHECK(failed == t0 + 1, "failed ticket %" PRIu64 ", want %" PRIu64, failed, t0 + 1);
	snprintf(want, sizeof(want), "tg_enq_wait: REQ %" PRIu64 " (to node 1, queue %#" PRIx64 ") failed for "
		 "good: %s; 1 REQ failed since the last tg_enq_wait (ENOENT)", t0 + 1, tg_mr_paddr(mr),
		 tg_strerror(-ENOENT));
	CHECK(!strcmp(tg_dev_error(snd), want), "tg_dev_error: \"%s\", want \"%s\"", tg_dev_error(snd), want);
	CHECK_RC(tg_enq_wait(snd, T_ENQ_NS, &failed), 0);   /* reported once */
	CHECK(failed == 0, "ticket %" PRIu64 " reported twice", failed);
	CHECK(memcmp(before, mem1 + tg_mr_paddr(mr), sizeof(before)) == 0, "memory changed");
	CHECK_RC(deq_step(sim, q8, e, 8), 0);
	CHECK(e[0] == 5, "entry %#" PRIx64 " behind the failed REQ, want 5", e[0]);

	/* several failures among delivered REQs: the first one's ticket and
	 * reason, and their count; a wrong argument takes no ticket */
	t0 = tg_enq_ticket(snd);
	CHECK_RC(tg_enq(snd, 1, tg_queue_paddr(q8), 6), 0);
	CHECK_RC(tg_enq(snd, 1, tg_mr_paddr(mr), 7), 0);            /* t0 + 2: no queue */
	CHECK_RC(tg_enq(snd, 1, tg_mr_paddr(mr) + 8, 8), -EINVAL);    /* no queue address: no ticket */
	w2[0] = 1, w2[1] = 2;
	CHECK_RC(tg_enq_multi(snd, 1, tg_queue_paddr(q8), w2, 2), 0); /* t0 + 3: longer than an entry */
	CHECK_RC(tg_enq(snd, 1, tg_queue_paddr(q8), 9), 0);
	CHECK(tg_enq_ticket(snd) == t0 + 4, "ticket %" PRIu64 ", want %" PRIu64, tg_enq_ticket(snd), t0 + 4);
	CHECK_RC(tg_enq_wait(snd, T_ENQ_NS, NULL), -ENOENT);
	CHECK(strstr(tg_dev_error(snd), "2 REQs failed"), "tg_dev_error: \"%s\"", tg_dev_error(snd));
	snprintf(want, sizeof(want), "REQ %" PRIu64 " (to node 1", t0 + 2);
	CHECK(strstr(tg_dev_error(snd), want), "tg_dev_error: \"%s\", want \"%s...\"", tg_dev_error(snd), want);
	CHECK_RC(tg_enq_wait(snd, T_ENQ_NS, &failed), 0);
	CHECK_RC(deq_step(sim, q8, e, 8), 0);
	CHECK(e[0] == 6, "entry %#" PRIx64 ", want 6", e[0]);
	CHECK_RC(deq_step(sim, q8, e, 8), 0);
	CHECK(e[0] == 9, "entry %#" PRIx64 ", want 9", e[0]);
	CHECK_RC(tg_enq_wait(NULL, T_ENQ_NS, &failed), -EINVAL);
	CHECK(tg_enq_ticket(NULL) == 0, "ticket of NULL");
	CHECK(tg_cycles(snd) == tg_sim_cycles(sim), "tg_cycles %" PRIu64 " vs %" PRIu64,
	      tg_cycles(snd), tg_sim_cycles(sim));

	/* a context's former owner leaves a failing REQ in flight: the next
	 * owner's open waits for it, and neither its failure nor its number
	 * is the new owner's */
	{
		struct tg_dev *tmp = t_open(sim, 0, 0), *tmp2;
		int c = tg_context(tmp);

		CHECK_RC(tg_enq(tmp, 1, tg_mr_paddr(mr), 1), 0);
		tg_close(tmp);
		tmp2 = t_open(sim, 0, 0);
		CHECK(tg_context(tmp2) == c, "context %d reopened as %d", c, tg_context(tmp2));
		CHECK(tg_enq_ticket(tmp2) == 0, "a new device starts with ticket %" PRIu64, tg_enq_ticket(tmp2));
		CHECK_RC(tg_enq_wait(tmp2, T_ENQ_NS, &failed), 0);
		CHECK_RC(tg_enq(tmp2, 1, tg_queue_paddr(q8), 10), 0);
		CHECK_RC(tg_enq(tmp2, 1, tg_mr_paddr(mr), 11), 0);
		CHECK_RC(tg_enq_wait(tmp2, T_ENQ_NS, &failed), -ENOENT);
		CHECK(failed == 2, "the new owner's failed REQ: ticket %" PRIu64 ", want 2", failed);
		tg_close(tmp2);
		CHECK_RC(deq_step(sim, q8, e, 8), 0);
		CHECK(e[0] == 10, "entry %#" PRIx64 ", want 10", e[0]);
	}

	/* a REQ whose answer is slower than the timeout: -ETIMEDOUT, nothing
	 * reported; then slower than READ_TIMEOUT: given up, -EHOSTUNREACH,
	 * though the entry may arrive (here it does) */
	{
		struct tg_dev *drv0 = t_open(sim, 0, TG_OPEN_DRIVER);
		uint64_t rdto = t_csr(drv0, TG_CSR_REG_READ_TIMEOUT);

		REQUIRE(tg_sim_set_link(sim, 1, 3000, 1) == 0, "link");
		CHECK_RC(tg_enq(snd, 1, tg_queue_paddr(q8), 12), 0);
		CHECK_RC(tg_enq_wait(snd, 8000, &failed), -ETIMEDOUT);   /* 1000 cycles */
		CHECK_RC(tg_enq_wait(snd, T_ENQ_NS, &failed), 0);
		CHECK_RC(deq_step(sim, q8, e, 8), 0);
		CHECK(e[0] == 12, "entry %#" PRIx64 ", want 12", e[0]);
		CHECK_RC(tg_csr_write(drv0, TG_CSR_REG_READ_TIMEOUT, 2000), 0);
		CHECK_RC(tg_enq(snd, 1, tg_queue_paddr(q8), 13), 0);
		CHECK_RC(tg_enq_wait(snd, T_ENQ_NS, &failed), -EHOSTUNREACH);
		CHECK(failed == tg_enq_ticket(snd), "ticket %" PRIu64 ", want %" PRIu64, failed, tg_enq_ticket(snd));
		CHECK(strstr(tg_dev_error(snd), "may or may not be in the queue"), "tg_dev_error: \"%s\"",
		      tg_dev_error(snd));
		CHECK_RC(deq_step(sim, q8, e, 8), 0);
		CHECK(e[0] == 13, "entry %#" PRIx64 " given up, want 13 delivered", e[0]);
		CHECK_RC(tg_csr_write(drv0, TG_CSR_REG_READ_TIMEOUT, rdto), 0);
		REQUIRE(tg_sim_set_link(sim, 1, 10, 1) == 0, "link");
		tg_close(drv0);
	}

	/* a queue's buffers are the driver's: a client freeing one as its own
	 * memory, or as another queue's unlinked buffer, is refused, so the
	 * buffer is not handed out again while the NIC writes it */
	REQUIRE(tg__mem_free(rcv, pa) == 0, "post");
	REQUIRE(tg__drv_post(rcv, TG_SIMP_OP_QFREEBUF, tg_queue_paddr(q64), pa) == 0, "post");
	mr2 = tg_mr_alloc(rcv, 4096, TG_ACCESS_ALL);
	REQUIRE(mr2, "tg_mr_alloc: %s", tg_strerror(-errno));
	CHECK(tg_mr_paddr(mr2) != pa, "the queue's buffer was handed out again");
	tg_mr_free(mr2);

	/* after closing, the address is no queue any more */
	tg_queue_close(q8);
	CHECK_RC(tg_enq(snd, 1, pa, 7), 0);
	CHECK_RC(tg_enq_wait(snd, T_ENQ_NS, &failed), -ENOENT);
	CHECK(failed == tg_enq_ticket(snd), "failed ticket %" PRIu64 ", want %" PRIu64, failed,
	      tg_enq_ticket(snd));

	tg_queue_close(q64);
	tg_queue_close(NULL);
	tg_mr_free(mr);
	t_check_sim(sim);
	tg_close(snd);
	tg_close(rcv);
	tg_sim_destroy(sim);
	return t_done("test_enq_basic");
}
