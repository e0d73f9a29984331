/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: a dequeue that delivered an entry and then failed to have the queue grown returns 0, keeps the error for tg_queue_error, and the next dequeue grows it; nothing is lost. */
#include "tg_test.h"

#define RCV      2u
#define QLOG2    8u        /* 256-byte buffers of 8-byte entries: 15 entries fit */
#define FIRST    20u       /* sent before the race: the queue grows once */
#define N        120u      /* entries sent in all */
#define WAIT_MAX 400000u
#define BASE     0x7a000000ULL

struct late {
	struct tg_sim *sim;
	struct tg_dev *snd;
	uint64_t pa;
	unsigned sent, calls;
	uint64_t head;                 /* the first buffer's head, kept while broken */
	struct tg_sim_qstats during;
};

static volatile uint64_t *qword(struct tg_sim *sim, uint64_t pa, uint64_t off)
{
	return (volatile uint64_t *)(tg_sim_mem(sim, RCV) + pa + off);
}

/* Send the next entry, if any are left. */
static void send_one(struct late *l)
{
	if (l->sent < N) {
		CHECK_RC(tg_enq(l->snd, RCV, l->pa, BASE + l->sent), 0);
		l->sent++;
	}
}

/* Inside the first dequeue, QF_DNP set: overflow the first buffer, so the
 * driver marks the queue QF_FULL, then break the first buffer's head so
 * that the grow the dequeue asks for on its way out fails (-EIO).  The
 * entry it takes comes from the older buffer, whose header is sound. */
static void hook(struct tg_queue *q, void *arg)
{
	struct late *l = arg;
	struct tg_sim_qstats qs = { 0 }, before = { 0 };

	(void)q;
	if (l->calls++)
		return;
	tg_sim_get_qstats(l->sim, RCV, &before);
	for (unsigned i = 0; i < WAIT_MAX && qs.full_marks == before.full_marks; i++) {
		send_one(l);
		tg_sim_step(l->sim, 4);
		tg_sim_get_qstats(l->sim, RCV, &qs);
	}
	tg_sim_step(l->sim, 2000);
	tg_sim_get_qstats(l->sim, RCV, &l->during);
	l->head = *qword(l->sim, l->pa, TG_Q_HEAD);
	*qword(l->sim, l->pa, TG_Q_HEAD) = 1;      /* below TG_Q_SLOTS: corrupt */
}

int main(void)
{
	struct tg_sim *sim = t_sim(3);
	struct tg_dev *snd = t_open(sim, 0, TG_OPEN_DRIVER), *rcv = t_open(sim, RCV, TG_OPEN_DRIVER);
	struct tg_queue *q = tg_queue_open(rcv, QLOG2, 8);
	struct late l = { .sim = sim, .snd = snd };
	struct tg_sim_qstats qs = { 0 };
	uint64_t v = 0, next = 0;
	int rc;

	REQUIRE(q, "tg_queue_open: %s", tg_strerror(-errno));
	CHECK_RC(tg_csr_write(snd, TG_CSR_REG_REQ_BACKOFF, 64), 0);
	l.pa = tg_queue_paddr(q);
	CHECK_RC(tg_queue_error(q), 0);
	CHECK_RC(tg_queue_error(NULL), -EINVAL);
	CHECK_RC(tg_queue_set_deq_hook(NULL, hook, &l), -EINVAL);

	/* no dequeuer: the driver moves the full buffer's entries into a
	 * second buffer itself, and the rest land in the first */
	while (l.sent < FIRST)
		send_one(&l);
	for (unsigned i = 0; i < WAIT_MAX && qs.grows == 0; i++) {
		tg_sim_step(sim, 4);
		tg_sim_get_qstats(sim, RCV, &qs);
	}
	REQUIRE(qs.grows == 1, "the queue grew %" PRIu64 " times before the race", qs.grows);
	tg_sim_step(sim, 3000);
	REQUIRE(*qword(sim, l.pa, TG_Q_NEXT) != 0, "no second buffer");

	CHECK_RC(tg_queue_set_deq_hook(q, hook, &l), 0);
	rc = tg_deq(q, &v, 8);
	CHECK(l.during.full_marks > qs.full_marks, "the driver did not mark the queue full");
	CHECK_RC(rc, 0);
	CHECK(v == BASE, "first entry %#" PRIx64, v);
	next = rc == 0 ? 1 : 0;
	/* the grow failed after the entry was delivered: kept, then cleared */
	CHECK_RC(tg_queue_error(q), -EIO);
	CHECK_RC(tg_queue_error(q), 0);
	CHECK(*qword(sim, l.pa, TG_Q_FLAGS) & TG_QF_FULL, "QF_FULL cleared by a failed grow");
	tg_sim_get_qstats(sim, RCV, &qs);
	CHECK(qs.grows == 1, "a buffer was added by the failed grow");

	/* repaired: the next dequeue asks again, and the queue reopens */
	*qword(sim, l.pa, TG_Q_HEAD) = l.head;
	CHECK_RC(tg_queue_set_deq_hook(q, NULL, NULL), 0);
	for (unsigned i = 0; i < WAIT_MAX && next < N; i++) {
		send_one(&l);
		while ((rc = tg_deq(q, &v, 8)) == 0) {
			CHECK(v == BASE + next, "entry %" PRIu64 " is %#" PRIx64, next, v);
			next++;
		}
		CHECK(rc == -EAGAIN, "tg_deq: %s", tg_strerror(rc));
		tg_sim_step(sim, 4);
	}
	CHECK(next == N, "%" PRIu64 " of %u entries", next, N);
	CHECK_RC(tg_queue_error(q), 0);
	tg_sim_get_qstats(sim, RCV, &qs);
	CHECK(qs.grows >= 2, "the repeated grow added no buffer (%" PRIu64 ")", qs.grows);
	CHECK((*qword(sim, l.pa, TG_Q_FLAGS) & (TG_QF_DNP | TG_QF_FULL | TG_QF_DRIVER)) == 0,
	      "flags left set: %#" PRIx64, *qword(sim, l.pa, TG_Q_FLAGS));
	printf("overflows %" PRIu64 ", full marks %" PRIu64 ", buffers added %" PRIu64 "\n",
	       qs.overflows, qs.full_marks, qs.grows);
	t_check_sim(sim);
	tg_queue_close(q);
	tg_close(snd);
	tg_close(rcv);
	tg_sim_destroy(sim);
	return t_done("test_deq_late");
}
