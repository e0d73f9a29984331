/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: the queue overflows while a dequeuer is inside its critical section; the driver marks it full, the dequeuer has it grown, nothing is lost. */
#include "tg_test.h"

#define RCV      2u
#define QLOG2    8u        /* 256-byte buffers of 8-byte entries: 16 slots, 15 entries */
#define N        200u      /* entries sent in all */
#define WAIT_MAX 400000u

struct race {
	struct tg_sim *sim;
	struct tg_dev *snd;
	uint64_t pa;
	unsigned sent, calls;
	struct tg_sim_qstats during;
	uint64_t flags_during;
};

/* Runs inside tg_deq with QF_DNP set: flood the queue until the driver has
 * handled the overflow interrupt. */
static void hook(struct tg_queue *q, void *arg)
{
	struct race *r = arg;
	struct tg_sim_qstats qs = { 0 };

	if (r->calls++)
		return;          /* only the first dequeue races */
	for (unsigned i = 0; i < WAIT_MAX && !qs.overflows; i++) {
		if (r->sent < N) {
			CHECK_RC(tg_enq(r->snd, RCV, r->pa, 0xabc00000ULL + r->sent), 0);
			r->sent++;
		}
		tg_sim_step(r->sim, 4);
		tg_sim_get_qstats(r->sim, RCV, &qs);
	}
	/* let more REQs be refused and retried meanwhile */
	tg_sim_step(r->sim, 3000);
	tg_sim_get_qstats(r->sim, RCV, &r->during);
	r->flags_during = *(volatile uint64_t *)(tg_sim_mem(r->sim, RCV) + tg_queue_paddr(q) +
						TG_Q_FLAGS);
}

int main(void)
{
	struct tg_sim *sim = t_sim(3);
	struct tg_dev *snd = t_open(sim, 0, TG_OPEN_DRIVER), *rcv = t_open(sim, RCV, TG_OPEN_DRIVER);
	struct tg_queue *q = tg_queue_open(rcv, QLOG2, 8);
	struct race r = { .sim = sim, .snd = snd };
	struct tg_sim_qstats qs;
	uint64_t v, next = 0, refused = 0, qcfg = 0;
	int rc;

	REQUIRE(q, "tg_queue_open: %s", tg_strerror(-errno));
	CHECK_RC(tg_csr_write(snd, TG_CSR_REG_REQ_BACKOFF, 64), 0);
	r.pa = tg_queue_paddr(q);
	CHECK_RC(tg_queue_set_deq_hook(q, hook, &r), 0);

	/* first dequeue: empty when it starts, the hook fills it past full */
	rc = tg_deq(q, &v, 8);
	CHECK(rc == 0 || rc == -EAGAIN, "first dequeue: %s", tg_strerror(rc));
	CHECK(r.during.overflows >= 1, "no overflow while the dequeuer was inside");
	CHECK(r.during.full_marks >= 1 && r.during.grows == 0,
	      "driver took the wrong path: full marks %" PRIu64 ", grows %" PRIu64,
	      r.during.full_marks, r.during.grows);
	CHECK((r.flags_during & (TG_QF_DNP | TG_QF_FULL)) == (TG_QF_DNP | TG_QF_FULL),
	      "flags during the dequeue %#" PRIx64, r.flags_during);
	CHECK_RC(tg_csr_read(rcv, TG_CSR_REG_REQ_REFUSED, &refused), 0);
	CHECK(refused > 0, "no REQ was refused while the queue was full");
	tg_sim_get_qstats(sim, RCV, &qs);
	CHECK(qs.grows >= 1, "the dequeuer's grow request added no buffer");
	if (rc == 0) {
		CHECK(v == 0xabc00000ULL, "first entry %#" PRIx64, v);
		next = 1;
	}
	/* the rest arrive: whatever was refused was retried */
	for (unsigned i = 0; i < WAIT_MAX && next < N; i++) {
		if (r.sent < N) {
			CHECK_RC(tg_enq(snd, RCV, r.pa, 0xabc00000ULL + r.sent), 0);
			r.sent++;
		}
		while (tg_deq(q, &v, 8) == 0) {
			CHECK(v == 0xabc00000ULL + next, "entry %" PRIu64 " is %#" PRIx64, next, v);
			next++;
		}
		tg_sim_step(sim, 4);
	}
	CHECK(next == N, "%" PRIu64 " of %u entries", next, N);
	CHECK_RC(tg_deq(q, &v, 8), -EAGAIN);
	CHECK((*(volatile uint64_t *)(tg_sim_mem(sim, RCV) + r.pa + TG_Q_FLAGS) &
	       (TG_QF_DNP | TG_QF_FULL | TG_QF_DRIVER)) == 0, "flags left set");
	CHECK_RC(tg_csr_write(rcv, TG_CSR_REG_QSEL, 0), 0);
	CHECK_RC(tg_csr_read(rcv, TG_CSR_REG_QCFG, &qcfg), 0);
	CHECK((qcfg & (TG_QCFG_ENABLE | TG_QCFG_FULL)) == TG_QCFG_ENABLE, "QCFG %#" PRIx64, qcfg);
	tg_sim_get_qstats(sim, RCV, &qs);
	printf("overflows %" PRIu64 ", full marks %" PRIu64 ", buffers added %" PRIu64
	       ", refused %" PRIu64 "\n", qs.overflows, qs.full_marks, qs.grows, refused);
	t_check_sim(sim);
	tg_queue_close(q);
	tg_close(snd);
	tg_close(rcv);
	tg_sim_destroy(sim);
	return t_done("test_enq_race");
}
