/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: three senders flood one queue of 4-slot buffers on a fourth node while it is drained: every entry once, in order per sender. */
#include <time.h>

#include "tg_test.h"

#define SENDERS   3u       /* at most; $TG_ENQ_SENDERS = 1..3 picks fewer (rate runs) */
#define RCV       3u       /* the receiving node sends no REQs (host-port hazard) */
#define QLOG2     8u       /* smallest buffer: 256 bytes, 128 bytes of slots;
			    * $TG_ENQ_QLOG2 overrides (rate without overflows) */
#define EBYTES    32u      /* 4 slots of 32 bytes: 3 entries fit */
#define DEF_N     25000u   /* REQs per sender (about 25 s); $TG_ENQ_N overrides (make test-enq-long: 100000) */
#define BACKOFF   16u      /* REQ_BACKOFF on the senders, cycles */
#if defined(__SANITIZE_ADDRESS__)
#undef DEF_N
#define DEF_N     10000u   /* the sanitizer build runs several times slower */
#endif

int main(void)
{
	struct tg_sim_config cfg;
	struct tg_sim *sim;
	struct tg_dev *snd[SENDERS], *rcv;
	struct tg_queue *q;
	struct tg_sim_qstats qs;
	uint64_t sent[SENDERS] = { 0 }, next[SENDERS] = { 0 }, got = 0, total, pa, e[4];
	uint64_t refused = 0, retries = 0, spilled = 0, accepted = 0, c0;
	unsigned n = DEF_N, bad = 0, qlog2 = QLOG2, senders = SENDERS;
	const char *env = getenv("TG_ENQ_N");
	struct timespec t0, t1;

	if (env)
		n = (unsigned)strtoul(env, NULL, 0);
	if ((env = getenv("TG_ENQ_QLOG2")))
		qlog2 = (unsigned)strtoul(env, NULL, 0);
	if ((env = getenv("TG_ENQ_SENDERS")))
		senders = (unsigned)strtoul(env, NULL, 0);
	REQUIRE(senders >= 1 && senders <= SENDERS, "TG_ENQ_SENDERS must be 1..%u", SENDERS);
	t_config(&cfg, 4);
	/* fast and plain: this test is about volume */
	cfg.mem_lat_min = cfg.mem_lat_max = 4;
	cfg.mem_stall_pct = 0;
	cfg.tx_stall_pct = 0;
	cfg.link_bytes_per_cycle = 8;
	cfg.link_latency = 2;
	sim = tg_sim_create(&cfg);
	REQUIRE(sim, "tg_sim_create: %s", strerror(errno));
	for (unsigned s = 0; s < senders; s++) {
		snd[s] = t_open(sim, s, TG_OPEN_DRIVER);
		CHECK_RC(tg_csr_write(snd[s], TG_CSR_REG_REQ_BACKOFF, BACKOFF), 0);
	}
	rcv = t_open(sim, RCV, TG_OPEN_DRIVER);
	q = tg_queue_open(rcv, qlog2, EBYTES);
	REQUIRE(q, "tg_queue_open: %s", tg_strerror(-errno));
	pa = tg_queue_paddr(q);
	total = (uint64_t)n * senders;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	c0 = tg_sim_cycles(sim);

	while (got < total) {
		for (unsigned s = 0; s < senders; s++)
			if (sent[s] < n) {
				CHECK_RC(tg_enq(snd[s], RCV, pa, (uint64_t)s << 56 | sent[s]), 0);
				sent[s]++;
			}
		while (tg_deq(q, e, sizeof(e)) == 0) {
			unsigned s = (unsigned)(e[0] >> 56);
			uint64_t seq = e[0] & ((1ULL << 56) - 1);

			if (s >= senders || seq != next[s] || e[1] || e[2] || e[3]) {
				if (bad++ < 5)
					CHECK(0, "entry %" PRIu64 ": %#" PRIx64 " (sender %u expects %"
					      PRIu64 ")", got, e[0], s, s < senders ? next[s] : 0);
			} else {
				next[s]++;
			}
			got++;
		}
		tg_sim_step(sim, 4);
		if (tg_sim_cycles(sim) - c0 > 400ULL * total + 1000000) {
			CHECK(0, "stuck: %" PRIu64 " of %" PRIu64 " entries after %" PRIu64 " cycles",
			      got, total, tg_sim_cycles(sim) - c0);
			break;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	for (unsigned s = 0; s < senders; s++)
		CHECK(next[s] == n, "sender %u: %" PRIu64 " of %u entries in order", s, next[s], n);
	CHECK(bad == 0, "%u entries out of order, duplicated or damaged", bad);
	tg_sim_step(sim, 2000);
	CHECK_RC(tg_deq(q, e, sizeof(e)), -EAGAIN);
	for (unsigned s = 0; s < senders; s++) {
		uint64_t v = 0;

		CHECK_RC(tg_csr_read(snd[s], TG_CSR_REG_REQ_RETRIES, &v), 0);
		retries += v;
		CHECK_RC(tg_csr_read(snd[s], TG_CSR_REG_REQ_SPILLED, &v), 0);
		spilled += v;
		CHECK_RC(tg_csr_read(snd[s], TG_CSR_REG_SPILL_CFG, &v), 0);
		CHECK(v >> 32 == 0, "sender %u: %" PRIu64 " REQs left in its spill ring", s, v >> 32);
		CHECK_RC(tg_ctx_status(snd[s]), 0);
		CHECK_RC(tg_enq_wait(snd[s], T_ENQ_NS, NULL), 0);
	}
	CHECK_RC(tg_csr_read(rcv, TG_CSR_REG_REQ_REFUSED, &refused), 0);
	CHECK_RC(tg_csr_read(rcv, TG_CSR_REG_REQ_ACCEPTED, &accepted), 0);
	CHECK(accepted == total, "REQ_ACCEPTED %" PRIu64 ", want %" PRIu64, accepted, total);
	tg_sim_get_qstats(sim, RCV, &qs);
	printf("%" PRIu64 " entries from %u senders into %u-slot buffers: %" PRIu64 " cycles, %.1f s; "
	       "%.1f entries per 1000 cycles\n", got, senders, (unsigned)(TG_Q_SLOT_BYTES(qlog2) /
	       EBYTES), tg_sim_cycles(sim) - c0,
	       (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9,
	       1000.0 * (double)got / (double)(tg_sim_cycles(sim) - c0));
	printf("overflows %" PRIu64 ", buffers added %" PRIu64 ", reopened %" PRIu64
	       ", full marks %" PRIu64 "; REQs refused %" PRIu64 ", retried %" PRIu64
	       ", through a spill ring %" PRIu64 "\n",
	       qs.overflows, qs.grows, qs.reopens, qs.full_marks, refused, retries, spilled);
	if (qlog2 == QLOG2)
		CHECK(qs.overflows > 0 && qs.grows > 0, "the buffers never overflowed");
	t_check_sim(sim);
	tg_queue_close(q);
	for (unsigned s = 0; s < senders; s++)
		tg_close(snd[s]);
	tg_close(rcv);
	tg_sim_destroy(sim);
	return t_done("test_enq_stress");
}
