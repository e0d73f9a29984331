/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: while one queue is held full and its REQs are refused and retried, the same sender's REQs to another queue of that node and to a queue of another node keep arriving, in order; then the full queue gets everything, in order. */
#include "tg_test.h"

#define SND      0u
#define RCV      2u        /* queues A (held full) and B */
#define OTHER    1u        /* queue C */
#define QLOG2    8u        /* A: 256-byte buffer of 8-byte entries, 15 fit */
#define NB       300u      /* entries to B and to C while A is full */
#define WAIT_MAX 400000u

struct hol {
	struct tg_sim *sim;
	struct tg_dev *snd, *rcv;
	struct tg_queue *qb, *qc;
	uint64_t pa, pb, pc;
	unsigned sent_a, calls;
	uint64_t got_b, got_c, refused0, refused1, flags_during;
	uint64_t cycles;
};

static void drain(struct tg_queue *q, uint64_t tag, uint64_t *next)
{
	uint64_t v;

	while (tg_deq(q, &v, 8) == 0) {
		CHECK(v == tag + *next, "entry %" PRIu64 " of %#" PRIx64 " is %#" PRIx64, *next, tag, v);
		(*next)++;
	}
}

/* Runs inside tg_deq of A with QF_DNP set: A overflows and stays full
 * (the driver only marks it); meanwhile B and C must keep flowing. */
static void hook(struct tg_queue *q, void *arg)
{
	struct hol *h = arg;
	struct tg_sim_qstats qs = { 0 };
	uint64_t c0;
	unsigned sb = 0;

	(void)q;
	if (h->calls++)
		return;
	/* fill A one past full, then one more refused behind it: two of the
	 * sender's REQ slots stay taken by A's refused REQs */
	for (unsigned i = 0; i < WAIT_MAX && !qs.overflows; i++) {
		CHECK_RC(tg_enq(h->snd, RCV, h->pa, 0xa0000000ULL + h->sent_a), 0);
		h->sent_a++;
		tg_sim_step(h->sim, 300);
		tg_sim_get_qstats(h->sim, RCV, &qs);
	}
	CHECK_RC(tg_enq(h->snd, RCV, h->pa, 0xa0000000ULL + h->sent_a), 0);
	h->sent_a++;
	tg_sim_step(h->sim, 2000);
	CHECK_RC(tg_csr_read(h->rcv, TG_CSR_REG_REQ_REFUSED, &h->refused0), 0);
	c0 = tg_sim_cycles(h->sim);
	for (unsigned i = 0; i < WAIT_MAX && (h->got_b < NB || h->got_c < NB); i++) {
		if (sb < NB) {
			CHECK_RC(tg_enq(h->snd, RCV, h->pb, 0xb0000000ULL + sb), 0);
			CHECK_RC(tg_enq(h->snd, OTHER, h->pc, 0xc0000000ULL + sb), 0);
			sb++;
		}
		drain(h->qb, 0xb0000000ULL, &h->got_b);
		drain(h->qc, 0xc0000000ULL, &h->got_c);
		tg_sim_step(h->sim, 8);
	}
	h->cycles = tg_sim_cycles(h->sim) - c0;
	CHECK_RC(tg_csr_read(h->rcv, TG_CSR_REG_REQ_REFUSED, &h->refused1), 0);
	h->flags_during = *(volatile uint64_t *)(tg_sim_mem(h->sim, RCV) + h->pa + TG_Q_FLAGS);
}

int main(void)
{
	struct tg_sim *sim = t_sim(3);
	struct tg_dev *snd = t_open(sim, SND, TG_OPEN_DRIVER);
	struct tg_dev *rcv = t_open(sim, RCV, TG_OPEN_DRIVER), *oth = t_open(sim, OTHER, 0);
	struct tg_queue *qa = tg_queue_open(rcv, QLOG2, 8);
	struct hol h = { .sim = sim, .snd = snd, .rcv = rcv };
	uint64_t v, next = 0;
	int rc;

	REQUIRE(qa, "tg_queue_open: %s", tg_strerror(-errno));
	h.qb = tg_queue_open(rcv, 16, 8);
	h.qc = tg_queue_open(oth, 16, 8);
	REQUIRE(h.qb && h.qc, "tg_queue_open: %s", tg_strerror(-errno));
	h.pa = tg_queue_paddr(qa);
	h.pb = tg_queue_paddr(h.qb);
	h.pc = tg_queue_paddr(h.qc);
	CHECK_RC(tg_csr_write(snd, TG_CSR_REG_REQ_BACKOFF, 64), 0);
	CHECK_RC(tg_queue_set_deq_hook(qa, hook, &h), 0);

	rc = tg_deq(qa, &v, 8);
	CHECK(rc == 0 || rc == -EAGAIN, "first dequeue of A: %s", tg_strerror(rc));
	CHECK(h.got_b == NB && h.got_c == NB, "while A was full: %" PRIu64 " of %u entries to B, %"
	      PRIu64 " to C", h.got_b, NB, h.got_c);
	CHECK((h.flags_during & TG_QF_FULL) != 0, "A was not held full (flags %#" PRIx64 ")",
	      h.flags_during);
	CHECK(h.refused1 > h.refused0, "A's REQs were not refused while B and C flowed");
	printf("while A was full: %u entries to B (same node) and %u to C (other node) in %" PRIu64
	       " cycles; %" PRIu64 " refusals of A's REQs meanwhile\n", NB, NB, h.cycles,
	       h.refused1 - h.refused0);

	/* A, grown by the dequeuer, gets every entry in order */
	if (rc == 0) {
		CHECK(v == 0xa0000000ULL, "first entry of A %#" PRIx64, v);
		next = 1;
	}
	for (unsigned i = 0; i < WAIT_MAX && next < h.sent_a; i++) {
		drain(qa, 0xa0000000ULL, &next);
		tg_sim_step(sim, 8);
	}
	CHECK(next == h.sent_a, "A: %" PRIu64 " of %u entries", next, h.sent_a);
	CHECK_RC(tg_ctx_status(snd), 0);
	CHECK_RC(tg_enq_wait(snd, T_ENQ_NS, NULL), 0);
	t_check_sim(sim);
	tg_queue_close(h.qc);
	tg_queue_close(h.qb);
	tg_queue_close(qa);
	tg_close(oth);
	tg_close(rcv);
	tg_close(snd);
	tg_sim_destroy(sim);
	return t_done("test_enq_hol");
}
