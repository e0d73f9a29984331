/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: with the link layer on, a link that goes down for a while and comes
 * back loses nothing (writes land once, fetch-and-adds count exactly, REQs
 * arrive once in order); a link that stays down makes the sender's calls fail
 * with -EHOSTUNREACH in bounded time, LINK_GONE names the peer, traffic to
 * the other nodes goes on, and once the link is back and LINK_GONE cleared
 * the peer is reachable again. */
#include "tg_test.h"

#define NODES    4u
#define WBYTES   4096u
#define NOPS     40u        /* fetch-and-adds and REQs per sender in phase 1 */
#define OUTAGE   60000u     /* cycles node 2's link is down in phase 1 */
#define RETRIES  5u         /* LINK_CFG max retries */
#define RDTO     2000000u   /* READ_TIMEOUT in phase 1 */
#define RDTO2    200000u    /* ... of node 0 in phase 2 */
#define QLOG2    10u
#define EBYTES   32u

static struct tg_dev *dev[NODES];

static uint64_t csr(unsigned n, uint64_t reg)
{
	uint64_t v = 0;

	CHECK_RC(tg_csr_read(dev[n], reg, &v), 0);
	return v;
}

/* Dequeue every entry there is: each must be the next of its sender
 * (node n's entries carry n in the top byte and their number below). */
static unsigned drain(struct tg_queue *q, uint64_t next[NODES], unsigned *bad)
{
	uint64_t e[4];
	unsigned k = 0;

	while (tg_deq(q, e, sizeof(e)) == 0) {
		unsigned n = (unsigned)(e[0] >> 56);

		if (n >= NODES || n == 2 || (e[0] & 0xFFFF) != next[n]) {
			if ((*bad)++ < 5)
				CHECK(0, "entry %#" PRIx64 " out of order", e[0]);
		} else {
			next[n]++;
		}
		k++;
	}
	return k;
}

/* Phase 1: nodes 0, 1 and 3 write to, add to and enqueue on node 2 while
 * node 2's link is down for OUTAGE cycles in the middle of it. */
static void outage_and_back(struct tg_sim *sim)
{
	static uint8_t want[NODES][WBYTES];
	const unsigned snd[3] = { 0, 1, 3 };
	struct tg_mr *mr = tg_mr_alloc(dev[2], NODES * WBYTES, TG_ACCESS_ALL);
	struct tg_mr *ctr = tg_mr_alloc(dev[2], 64, TG_ACCESS_ALL);
	struct tg_queue *q = tg_queue_open(dev[2], QLOG2, EBYTES);
	uint64_t next[NODES] = { 0 }, got = 0, v = 0, retx0 = 0, c0;
	uint8_t seen[3 * NOPS] = { 0 };
	struct tg_sim_stats st;
	unsigned bad = 0;

	REQUIRE(mr && ctr && q, "node 2 resources: %s", tg_strerror(-errno));
	for (unsigned s = 0; s < 3; s++)
		retx0 += csr(snd[s], TG_CSR_REG_LINK_RETX);
	c0 = tg_sim_cycles(sim);
	/* the outage starts once the first operations are on their way */
	REQUIRE(tg_sim_schedule_outage(sim, 2, c0 + 3000, c0 + 3000 + OUTAGE) == 0, "outage");
	for (unsigned k = 0; k < NOPS; k++) {
		for (unsigned s = 0; s < 3; s++) {
			unsigned n = snd[s], off = k * (WBYTES / NOPS), len = WBYTES / NOPS;
			uint64_t old = ~0ULL;

			for (unsigned i = 0; i < len; i++)
				want[n][off + i] = t_pat(n, off + i);
			CHECK_RC(tg_write(dev[n], 2, tg_mr_paddr(mr) + n * WBYTES + off, want[n] + off, len), 0);
			CHECK_RC(tg_enq(dev[n], 2, tg_queue_paddr(q), (uint64_t)n << 56 | k), 0);
			CHECK_RC(tg_faa(dev[n], 2, tg_mr_paddr(ctr), 1, &old), 0);
			if (old >= 3 * NOPS || seen[old]++) {
				if (bad++ < 5)
					CHECK(0, "fetch-and-add of node %u returned %" PRIu64, n, old);
			}
		}
		got += drain(q, next, &bad);
	}
	for (unsigned s = 0; s < 3; s++)
		CHECK_RC(tg_fence(dev[snd[s]], 2), 0);
	for (uint64_t t0 = tg_sim_cycles(sim); got < 3 * NOPS && tg_sim_cycles(sim) - t0 < 2000000;) {
		unsigned k = drain(q, next, &bad);

		if (!k)
			tg_sim_step(sim, 64);
		got += k;
	}
	CHECK(tg_sim_cycles(sim) - c0 > OUTAGE, "phase 1 ended before the outage did (%" PRIu64 " cycles)",
	      tg_sim_cycles(sim) - c0);
	for (unsigned s = 0; s < 3; s++) {
		unsigned n = snd[s];

		CHECK(memcmp(tg_mr_ptr(mr) + n * WBYTES, want[n], WBYTES) == 0, "writes of node %u differ", n);
		CHECK(next[n] == NOPS, "node %u: %" PRIu64 " of %u entries in order", n, next[n], NOPS);
		retx0 -= csr(n, TG_CSR_REG_LINK_RETX);
		CHECK_RC(tg_ctx_status(dev[n]), 0);
	}
	CHECK(got == 3 * NOPS, "%" PRIu64 " entries, want %u", got, 3 * NOPS);
	CHECK_RC(tg_read(dev[0], 2, tg_mr_paddr(ctr), &v, 8), 0);
	CHECK(v == 3 * NOPS, "counter %" PRIu64 ", want %u", v, 3 * NOPS);
	REQUIRE(tg_sim_get_stats(sim, 2, &st) == 0, "stats");
	CHECK(st.drop_link_down > 0, "the outage lost no frame");
	CHECK(retx0 != 0, "nothing was retransmitted");
	CHECK(!(csr(0, TG_CSR_REG_LINK_GONE) >> 63), "a peer was declared gone during a short outage");
	printf("outage of %u cycles: %" PRIu64 " frames lost, %" PRIu64 " retransmitted, phase %" PRIu64
	       " cycles; nothing lost\n", OUTAGE, st.drop_link_down, (uint64_t)0 - retx0, tg_sim_cycles(sim) - c0);
	tg_queue_close(q);
	tg_mr_free(ctr);
	tg_mr_free(mr);
}

/* Phase 2: node 3's link goes down for good. */
static void down_for_good(struct tg_sim *sim)
{
	struct tg_mr *m3 = tg_mr_alloc(dev[3], 64, TG_ACCESS_ALL);
	struct tg_mr *m1 = tg_mr_alloc(dev[1], 64, TG_ACCESS_ALL);
	uint64_t v = 0x1122334455667788ULL, r = 0, c0, c1, c2, gone = 0, bound;
	uint32_t rto;
	int rc;

	REQUIRE(m3 && m1, "tg_mr_alloc: %s", tg_strerror(-errno));
	rto = (uint32_t)csr(0, TG_CSR_REG_LINK_RTO);
	/* the retransmission timers: RTO << min(retry, 4) for each retry */
	bound = 0;
	for (unsigned i = 0; i <= RETRIES; i++)
		bound += (uint64_t)rto << (i < 4 ? i : 4);
	CHECK_RC(tg_csr_write(dev[0], TG_CSR_REG_READ_TIMEOUT, RDTO2), 0);
	REQUIRE(tg_sim_link_down(sim, 3, 1) == 0, "link down");
	c0 = tg_sim_cycles(sim);
	CHECK_RC(tg_write(dev[0], 3, tg_mr_paddr(m3), &v, 8), 0);
	rc = tg_fence(dev[0], 3);
	c1 = tg_sim_cycles(sim);
	CHECK_RC(rc, -EHOSTUNREACH);
	CHECK(c1 - c0 <= RDTO2 + 20000, "the fence failed after %" PRIu64 " cycles", c1 - c0);
	CHECK_RC(tg_ctx_status(dev[0]), -EHOSTUNREACH);
	/* the link layer gives up on the peer after its retries */
	while (!((gone = csr(0, TG_CSR_REG_LINK_GONE)) >> 63) && tg_sim_cycles(sim) - c0 < bound + 50000)
		tg_sim_step(sim, 1000);
	c2 = tg_sim_cycles(sim);
	CHECK(gone >> 63 && (gone & 0xFFFF) == 3, "LINK_GONE %#" PRIx64 " after %" PRIu64 " cycles, want node 3 gone",
	      gone, c2 - c0);
	CHECK(csr(0, TG_CSR_REG_LINK_PEER_GONE) > 0, "no frame counted as dropped for a gone peer");
	printf("link down for good: the fence failed with -EHOSTUNREACH after %" PRIu64 " cycles (READ_TIMEOUT %u); "
	       "node 3 declared gone after %" PRIu64 " cycles (its timeouts for %u retries at LINK_RTO %u add up to %" PRIu64 ")\n",
	       c1 - c0, RDTO2, c2 - c0, RETRIES, rto, bound);
	/* the others are unaffected */
	CHECK_RC(tg_write(dev[0], 1, tg_mr_paddr(m1), &v, 8), 0);
	CHECK_RC(tg_read(dev[0], 1, tg_mr_paddr(m1), &r, 8), 0);
	CHECK(r == v, "node 1 read %#" PRIx64, r);
	/* link back, LINK_GONE cleared: node 3 is reachable again */
	REQUIRE(tg_sim_link_down(sim, 3, 0) == 0, "link up");
	CHECK_RC(tg_csr_write(dev[0], TG_CSR_REG_LINK_GONE, 0), 0);
	CHECK(!(csr(0, TG_CSR_REG_LINK_GONE) >> 63), "LINK_GONE not cleared");
	v = 0x0102030405060708ULL;
	CHECK_RC(tg_write(dev[0], 3, tg_mr_paddr(m3), &v, 8), 0);
	CHECK_RC(tg_fence(dev[0], 3), 0);
	CHECK_RC(tg_read(dev[0], 3, tg_mr_paddr(m3), &r, 8), 0);
	CHECK(r == v && memcmp(tg_mr_ptr(m3), &v, 8) == 0, "node 3 holds %#" PRIx64 " after the link came back", r);
	CHECK_RC(tg_ctx_status(dev[0]), 0);
	tg_mr_free(m1);
	tg_mr_free(m3);
}

int main(void)
{
	struct tg_sim_config cfg;
	struct tg_sim *sim;

	t_config(&cfg, NODES);
	cfg.link_layer = 1;
	sim = tg_sim_create(&cfg);
	REQUIRE(sim, "tg_sim_create: %s", strerror(errno));
	for (unsigned n = 0; n < NODES; n++) {
		uint64_t lc = 0;

		dev[n] = t_open(sim, n, TG_OPEN_DRIVER);
		CHECK_RC(tg_csr_write(dev[n], TG_CSR_REG_READ_TIMEOUT, RDTO), 0);
		CHECK_RC(tg_csr_read(dev[n], TG_CSR_REG_LINK_CFG, &lc), 0);
		CHECK(lc & TG_LINK_CFG_ON, "node %u: link layer not on (LINK_CFG %#" PRIx64 ")", n, lc);
		lc = (lc & 0xFFFF00FFULL) | RETRIES << 8;
		CHECK_RC(tg_csr_write(dev[n], TG_CSR_REG_LINK_CFG, lc), 0);
	}
	outage_and_back(sim);
	down_for_good(sim);
	t_check_sim(sim);
	for (unsigned n = 0; n < NODES; n++)
		tg_close(dev[n]);
	tg_sim_destroy(sim);
	return t_done("test_link_outage");
}
