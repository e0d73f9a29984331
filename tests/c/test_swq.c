/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: the software remote queue of examples/tg_swq.h delivers every entry once, whole and in each sender's order, through many ring wrap-arounds. */
#include "tg_test.h"

#include "../../examples/tg_swq.h"

/*
 * Three senders (nodes 0..2) enqueue into one queue on node 3 of the
 * stressed in-process cluster.  The consumer checks each entry's sender
 * and index against the next one expected from that sender (a lost,
 * repeated or reordered entry shows at once, not just in a count) and
 * every payload word against a pattern.  Rings of 1, 2 and 4 slots with
 * a consumer that drains in bursts make the producers wait for earlier
 * laps and wrap the ring hundreds of times.
 *
 * $TG_SWQ_BROKEN=order publishes the sequence word before the payload,
 * =nowait skips the wait for the slot: the test must then fail.
 */

#define SENDERS   3u
#define RCV       3u
#define NODES     4u
#define DEF_M     150u        /* entries per sender and run */
#define STALL     400000u     /* cycles without progress before a run gives up */
#if defined(__SANITIZE_ADDRESS__)
#undef DEF_M
#define DEF_M     100u
#endif

static struct tg_sim *sim;
static struct tg_dev *rcv, *snd[SENDERS];
static unsigned test_flags;

static uint64_t pat(unsigned s, unsigned i, unsigned k)
{
	uint64_t v = 0;

	for (unsigned b = 0; b < 8; b++)
		v |= (uint64_t)t_pat((uint64_t)s << 40 | (uint64_t)k << 32 | i, b) << (8 * b);
	return v;
}

static void fill(uint64_t *w, unsigned words, unsigned s, unsigned i)
{
	w[0] = (uint64_t)s << 32 | i;
	for (unsigned k = 1; k < words; k++)
		w[k] = pat(s, i, k);
}

struct run_cfg {
	const char *name;
	unsigned nslots, words, m;
	int blocking;             /* swq_enq in rounds the ring can hold, else swq_enq_start/poll */
	unsigned duty;            /* consumer takes entries one cycle-window in `duty` (1: always) */
};

/* Check one entry; returns 0, or -1 after recording why. */
static int check_entry(const struct run_cfg *c, const uint64_t *w, unsigned *next)
{
	unsigned s = (unsigned)(w[0] >> 32), i = (unsigned)w[0];

	if (s >= SENDERS || i >= c->m) {
		CHECK(0, "%s: entry %#" PRIx64 " from no sender", c->name, w[0]);
		return -1;
	}
	if (i != next[s]) {
		CHECK(0, "%s: sender %u: entry %u arrived, expected %u", c->name, s, i, next[s]);
		return -1;
	}
	for (unsigned k = 1; k < c->words; k++)
		if (w[k] != pat(s, i, k)) {
			CHECK(0, "%s: sender %u entry %u word %u is %#" PRIx64 ", want %#" PRIx64,
			      c->name, s, i, k, w[k], pat(s, i, k));
			return -1;
		}
	next[s]++;
	return 0;
}

/* Take what the queue holds (if the consumer's window is open). */
static int drain(const struct run_cfg *c, struct swq *q, unsigned *next, uint64_t *got)
{
	uint64_t w[SWQ_MAX_WORDS];
	int rc, n = 0;

	if (c->duty > 1 && (tg_sim_cycles(sim) / 600) % c->duty)
		return 0;
	while ((rc = swq_deq(q, w)) == 0) {
		n++;
		(*got)++;
		if (check_entry(c, w, next))
			return -EIO;
	}
	if (rc != -EAGAIN) {
		CHECK(0, "%s: swq_deq: %s", c->name, strerror(-rc));
		return rc;
	}
	return n;
}

/* The queue at rest after `total` entries: tail, and every slot free for
 * the lap that comes next. */
static void check_rest(const struct run_cfg *c, struct swq *q, uint64_t total)
{
	uint8_t *m = tg_mr_ptr(q->mr);
	uint64_t tail = TG_DEV_LOAD_ACQ64(m + SWQ_TAIL), w[SWQ_MAX_WORDS];

	CHECK(tail == total, "%s: tail %" PRIu64 ", want %" PRIu64, c->name, tail, total);
	CHECK(q->head == total, "%s: head %" PRIu64 ", want %" PRIu64, c->name, q->head, total);
	CHECK_RC(swq_deq(q, w), -EAGAIN);
	for (uint64_t t = total; t < total + c->nslots; t++) {
		uint64_t seq = TG_DEV_LOAD_ACQ64(m + SWQ_SLOT_OFF(c->nslots, q->stride, t));

		CHECK(seq == t, "%s: slot %" PRIu64 " sequence %" PRIu64 ", want %" PRIu64, c->name,
		      t % c->nslots, seq, t);
	}
}

static uint64_t sent_total(const unsigned *sent)
{
	uint64_t n = 0;

	for (unsigned s = 0; s < SENDERS; s++)
		n += sent[s];
	return n;
}

static void run(const struct run_cfg *c)
{
	struct swq *q = swq_create(rcv, c->nslots, c->words);
	struct swq_prod *p[SENDERS];
	unsigned sent[SENDERS] = { 0 }, next[SENDERS] = { 0 };
	uint64_t total = (uint64_t)c->m * SENDERS, got = 0, polls = 0, last, c0;
	uint64_t w[SWQ_MAX_WORDS];
	int rc = 0;

	REQUIRE(q, "swq_create: %s", strerror(errno));
	for (unsigned s = 0; s < SENDERS; s++) {
		p[s] = swq_attach(snd[s], RCV, swq_paddr(q));
		REQUIRE(p[s], "swq_attach: %s", strerror(errno));
		CHECK(p[s]->nslots == c->nslots && p[s]->words == c->words,
		      "%s: attach read %u slots of %u words", c->name, p[s]->nslots, p[s]->words);
		p[s]->flags = test_flags;
	}
	c0 = last = tg_sim_cycles(sim);
	while (got < total && rc >= 0) {
		int progress = 0;

		if (c->blocking) {
			/* as many as the ring holds, senders in turn, then drain:
			 * the blocking path never waits for this thread */
			for (unsigned k = 0; k < c->nslots && rc >= 0; k++) {
				unsigned s = (unsigned)((got + k) % SENDERS);

				if (sent[s] == c->m)
					continue;
				fill(w, c->words, s, sent[s]);
				rc = swq_enq(p[s], w);
				CHECK(rc == 0, "%s: swq_enq: %s", c->name, tg_strerror(rc));
				sent[s]++;
				progress = 1;
			}
			/* all of them taken before the next round */
			for (unsigned n = 0; n < STALL / 4 && rc >= 0 && got < sent_total(sent); n++) {
				tg_sim_step(sim, 4);
				rc = drain(c, q, next, &got);
			}
		} else {
			for (unsigned s = 0; s < SENDERS && rc >= 0; s++) {
				rc = swq_enq_poll(p[s]);
				if (rc == -EAGAIN) {
					rc = 0;
					continue;
				}
				CHECK(rc == 0, "%s: swq_enq_poll: %s", c->name, tg_strerror(rc));
				if (rc || sent[s] == c->m)
					continue;
				fill(w, c->words, s, sent[s]);
				rc = swq_enq_start(p[s], w);
				if (rc == -EAGAIN)
					rc = 0;
				CHECK(rc == 0, "%s: swq_enq_start: %s", c->name, tg_strerror(rc));
				sent[s]++;
				progress = 1;
			}
			if (rc >= 0 && (rc = drain(c, q, next, &got)) > 0)
				progress = 1;
			if (!progress)
				tg_sim_step(sim, 1);
		}
		if (progress)
			last = tg_sim_cycles(sim);
		else if (tg_sim_cycles(sim) - last > STALL) {
			CHECK(0, "%s: no progress for %u cycles: %" PRIu64 " of %" PRIu64 " taken",
			      c->name, STALL, got, total);
			break;
		}
	}
	for (unsigned s = 0; s < SENDERS; s++) {
		CHECK(next[s] == c->m, "%s: sender %u: %u of %u entries arrived in order", c->name,
		      s, next[s], c->m);
		polls += p[s]->polls;
	}
	if (got == total && rc >= 0) {
		tg_sim_step(sim, 2000);   /* anything stray would land now */
		check_rest(c, q, total);
	}
	printf("%-34s %5" PRIu64 " entries, %4" PRIu64 " laps, %5" PRIu64 " waits for a lap, "
	       "%8" PRIu64 " cycles\n", c->name, got, got / c->nslots, polls,
	       tg_sim_cycles(sim) - c0);
	if (!c->blocking && c->nslots < SENDERS && !test_flags)
		CHECK(polls > 0, "%s: no producer ever waited for a slot", c->name);
	for (unsigned s = 0; s < SENDERS; s++)
		swq_detach(p[s]);
	swq_destroy(q);
}

static void bad_args(void)
{
	struct tg_mr *mr = tg_mr_alloc(rcv, 4096, TG_ACCESS_ALL);
	uint64_t w[SWQ_MAX_WORDS] = { 0 };

	REQUIRE(mr, "tg_mr_alloc");
	memset(tg_mr_ptr(mr), 0, 4096);
	CHECK(!swq_create(rcv, 3, 1) && errno == EINVAL, "3 slots accepted");
	CHECK(!swq_create(rcv, 0, 1) && errno == EINVAL, "0 slots accepted");
	CHECK(!swq_create(rcv, 4, 0) && errno == EINVAL, "0 words accepted");
	CHECK(!swq_create(rcv, 4, SWQ_MAX_WORDS + 1) && errno == EINVAL, "8 words accepted");
	CHECK(!swq_create(NULL, 4, 1) && errno == EINVAL, "NULL dev accepted");
	CHECK(!swq_attach(snd[0], RCV, tg_mr_paddr(mr)) && errno == EPROTO,
	      "attached to memory that holds no queue");
	CHECK(!swq_attach(snd[0], RCV, tg_mr_paddr(mr) + 8) && errno == EINVAL,
	      "attached to a misaligned address");
	CHECK_RC(swq_deq(NULL, w), -EINVAL);
	CHECK_RC(swq_enq(NULL, w), -EINVAL);
	CHECK_RC(swq_enq_poll(NULL), -EINVAL);
	tg_mr_free(mr);
}

int main(void)
{
	const char *b = getenv("TG_SWQ_BROKEN");
	const struct run_cfg runs[] = {
		{ "1 slot, 3 words",                1, 3, DEF_M, 0, 1 },
		{ "2 slots, 1 word, bursty consumer", 2, 1, DEF_M, 0, 3 },
		{ "4 slots, 7 words, bursty consumer", 4, 7, DEF_M, 0, 4 },
		{ "4 slots, 7 words, blocking",     4, 7, DEF_M / 2, 1, 1 },
		{ "16 slots, 2 words",              16, 2, DEF_M, 0, 1 },
	};
	struct tg_sim_config cfg;

	if (b && !strcmp(b, "order"))
		test_flags = SWQ_TEST_PUBLISH_FIRST;
	else if (b && !strcmp(b, "nowait"))
		test_flags = SWQ_TEST_NO_WAIT;
	if (test_flags)
		printf("TG_SWQ_BROKEN=%s: the queue protocol is broken on purpose\n", b);
	t_config(&cfg, NODES);
	sim = tg_sim_create(&cfg);
	REQUIRE(sim, "tg_sim_create: %s", strerror(errno));
	rcv = t_open(sim, RCV, 0);
	for (unsigned s = 0; s < SENDERS; s++)
		snd[s] = t_open(sim, s, 0);

	bad_args();
	/* a failed run may leave requests in flight and a queue that never
	 * drains: stop there */
	for (unsigned k = 0; k < sizeof(runs) / sizeof(runs[0]) && !t_failed; k++)
		run(&runs[k]);

	for (unsigned s = 0; s < SENDERS; s++) {
		CHECK_RC(tg_ctx_status(snd[s]), 0);
		CHECK_RC(tg_enq_wait(snd[s], T_ENQ_NS, NULL), 0);
		tg_close(snd[s]);
	}
	tg_close(rcv);
	t_check_sim(sim);
	tg_sim_destroy(sim);
	return t_done("test_swq");
}
