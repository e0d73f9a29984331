/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: eight nodes over a switch that loses and corrupts frames: remote writes land once, fetch-and-adds count exactly, REQs arrive once in order per sender; goodput and retransmissions per lost frame with no loss, 1 % lost + 0.1 % bit flips, and 3 % lost + 2 % bit flips. */
#include "tg_test.h"

#define NODES    8u
#define WBYTES   3000u     /* bytes each node writes to the next one per phase */
#define NFAA     60u       /* fetch-and-adds per node per phase */
#define NREQ     150u      /* REQs per sender per phase */
#define EBYTES   32u
#define QLOG2    12u
#define RDTO     400000u   /* READ_TIMEOUT: a lost answer fails the call in bounded time */
#if defined(__SANITIZE_ADDRESS__)
#undef NREQ
#define NREQ     50u
#endif

struct phase {
	uint32_t drop_ppm, flip_ppm;   /* frames per million */
};

static struct tg_dev *dev[NODES];
static struct tg_mr *mr[NODES];

static uint64_t csr_sum(uint64_t reg)
{
	uint64_t sum = 0, v;

	for (unsigned n = 0; n < NODES; n++) {
		v = 0;
		CHECK_RC(tg_csr_read(dev[n], reg, &v), 0);
		sum += v;
	}
	return sum;
}

static uint64_t lost_frames(struct tg_sim *sim)
{
	struct tg_sim_stats st;

	REQUIRE(tg_sim_get_stats(sim, TG_SIM_ALL_NODES, &st) == 0, "stats");
	return st.drop_injected + st.corrupt_injected;
}

/* Node n writes WBYTES to node n+1 in pieces of 1..200 bytes, fences, and
 * the target's memory must hold them; returns the cycles it took. */
static uint64_t writes(struct tg_sim *sim, unsigned salt)
{
	static uint8_t buf[NODES][WBYTES];
	uint64_t c0 = tg_sim_cycles(sim), c1;
	unsigned off[NODES] = { 0 }, left = NODES;

	for (unsigned n = 0; n < NODES; n++)
		for (unsigned i = 0; i < WBYTES; i++)
			buf[n][i] = t_pat(salt * 16 + n, i);
	while (left) {
		left = 0;
		for (unsigned n = 0; n < NODES; n++) {
			unsigned t = (n + 1) % NODES, len = 1 + t_pat(salt + n, off[n]) % 200;

			if (off[n] >= WBYTES)
				continue;
			if (len > WBYTES - off[n])
				len = WBYTES - off[n];
			CHECK_RC(tg_write(dev[n], t, tg_mr_paddr(mr[t]) + off[n], buf[n] + off[n], len), 0);
			off[n] += len;
			left += off[n] < WBYTES;
		}
	}
	for (unsigned n = 0; n < NODES; n++)
		CHECK_RC(tg_fence(dev[n], (n + 1) % NODES), 0);
	c1 = tg_sim_cycles(sim);
	for (unsigned n = 0; n < NODES; n++) {
		unsigned t = (n + 1) % NODES;

		CHECK(memcmp(tg_mr_ptr(mr[t]), buf[n], WBYTES) == 0, "writes of node %u to node %u differ", n, t);
	}
	return c1 - c0;
}

/* Every node adds 1 to a counter on node 0 NFAA times: each old value
 * once, the counter exact. */
static void counter(uint64_t pa, uint64_t base)
{
	static uint8_t seen[NODES * NFAA];
	uint64_t old = 0, v = 0;
	unsigned bad = 0;

	memset(seen, 0, sizeof(seen));
	for (unsigned k = 0; k < NFAA; k++)
		for (unsigned n = 0; n < NODES; n++) {
			old = ~0ULL;
			CHECK_RC(tg_faa(dev[n], 0, pa, 1, &old), 0);
			if (old < base || old - base >= NODES * NFAA || seen[old - base]++) {
				if (bad++ < 5)
					CHECK(0, "fetch-and-add of node %u returned %" PRIu64, n, old);
			}
		}
	CHECK_RC(tg_read(dev[1], 0, pa, &v, 8), 0);
	CHECK(v == base + NODES * NFAA, "counter %" PRIu64 ", want %" PRIu64, v, base + NODES * NFAA);
}

/* Nodes 1..NODES-1 send NREQ REQs each to a queue on node 0: each once,
 * in order per sender. */
static void reqs(struct tg_sim *sim, struct tg_queue *q, uint64_t pa, unsigned salt)
{
	uint64_t sent[NODES] = { 0 }, next[NODES] = { 0 }, got = 0, total = (uint64_t)NREQ * (NODES - 1), e[4];
	uint64_t c0 = tg_sim_cycles(sim);
	unsigned bad = 0;

	while (got < total) {
		for (unsigned s = 1; s < NODES; s++)
			if (sent[s] < NREQ) {
				CHECK_RC(tg_enq(dev[s], 0, pa, (uint64_t)s << 56 | (uint64_t)salt << 40 | sent[s]), 0);
				sent[s]++;
			}
		while (tg_deq(q, e, sizeof(e)) == 0) {
			unsigned s = (unsigned)(e[0] >> 56);
			uint64_t seq = e[0] & ((1ULL << 40) - 1);

			if (s < 1 || s >= NODES || (e[0] >> 40 & 0xFFFF) != salt || seq != next[s] ||
			    e[1] || e[2] || e[3]) {
				if (bad++ < 5)
					CHECK(0, "entry %" PRIu64 ": %#" PRIx64 " (sender %u expects %" PRIu64 ")",
					      got, e[0], s, s < NODES ? next[s] : 0);
			} else {
				next[s]++;
			}
			got++;
		}
		tg_sim_step(sim, 16);
		if (tg_sim_cycles(sim) - c0 > 20000000ULL) {
			CHECK(0, "stuck: %" PRIu64 " of %" PRIu64 " entries", got, total);
			break;
		}
	}
	for (unsigned s = 1; s < NODES; s++)
		CHECK(next[s] == NREQ, "sender %u: %" PRIu64 " of %u entries in order", s, next[s], NREQ);
	for (unsigned s = 1; s < NODES; s++) {
		CHECK_RC(tg_ctx_status(dev[s]), 0);
		CHECK_RC(tg_enq_wait(dev[s], T_ENQ_NS, NULL), 0);
	}
}

int main(void)
{
	static const struct phase ph[] = { { 0, 0 }, { 10000, 1000 }, { 30000, 20000 } };
	struct tg_sim_config cfg;
	struct tg_sim *sim;
	struct tg_mr *ctr;
	struct tg_queue *q;
	uint64_t base = 0, goodput0 = 0;
	int link_off = getenv("TG_LINK_OFF") != NULL;

	t_config(&cfg, NODES);
	sim = tg_sim_create(&cfg);
	REQUIRE(sim, "tg_sim_create: %s", strerror(errno));
	for (unsigned n = 0; n < NODES; n++) {
		dev[n] = t_open(sim, n, TG_OPEN_DRIVER);
		mr[n] = tg_mr_alloc(dev[n], WBYTES, TG_ACCESS_ALL);
		REQUIRE(mr[n], "tg_mr_alloc: %s", tg_strerror(-errno));
		CHECK_RC(tg_csr_write(dev[n], TG_CSR_REG_READ_TIMEOUT, RDTO), 0);
		if (getenv("TG_LINK_RTO"))
			CHECK_RC(tg_csr_write(dev[n], TG_CSR_REG_LINK_RTO, strtoull(getenv("TG_LINK_RTO"), NULL, 0)), 0);
		/* on while the network is idle; TG_LINK_OFF=1 leaves it off,
		 * to show that this test needs the link layer */
		if (!link_off)
			CHECK_RC(tg_csr_write(dev[n], TG_CSR_REG_LINK_CFG, TG_LINK_CFG_RESET | TG_LINK_CFG_ENABLE), 0);
	}
	ctr = tg_mr_alloc(dev[0], 64, TG_ACCESS_ALL);
	REQUIRE(ctr, "tg_mr_alloc: %s", tg_strerror(-errno));
	q = tg_queue_open(dev[0], QLOG2, EBYTES);
	REQUIRE(q, "tg_queue_open: %s", tg_strerror(-errno));

	for (unsigned p = 0; p < sizeof(ph) / sizeof(ph[0]); p++) {
		uint64_t retx0 = csr_sum(TG_CSR_REG_LINK_RETX), lost0 = lost_frames(sim), c0 = tg_sim_cycles(sim);
		uint64_t wcyc, retx, lost, goodput;

		struct tg_sim_faults f = { .drop_ppm = ph[p].drop_ppm, .flip_ppm = ph[p].flip_ppm,
					   .reorder_depth = 1, .reorder_hold_cycles = 1 };

		REQUIRE(tg_sim_set_fault_rates(sim, &f) == 0, "faults");
		wcyc = writes(sim, p + 1);
		if (getenv("TG_LINK_DEBUG"))
			printf("  after writes: retx %" PRIu64 "\n", csr_sum(TG_CSR_REG_LINK_RETX) - retx0);
		counter(tg_mr_paddr(ctr), base);
		if (getenv("TG_LINK_DEBUG"))
			printf("  after counter: retx %" PRIu64 "\n", csr_sum(TG_CSR_REG_LINK_RETX) - retx0);
		base += NODES * NFAA;
		reqs(sim, q, tg_queue_paddr(q), p + 1);
		REQUIRE(tg_sim_set_faults(sim, 0, 0) == 0, "faults");
		retx = csr_sum(TG_CSR_REG_LINK_RETX) - retx0;
		lost = lost_frames(sim) - lost0;
		goodput = 1000ULL * NODES * WBYTES / (wcyc ? wcyc : 1);
		if (p == 0)
			goodput0 = goodput;
		if (getenv("TG_LINK_DEBUG"))
			for (unsigned n = 0; n < NODES; n++) {
				uint64_t b = 0, r = 0, d = 0, o = 0;
				tg_csr_read(dev[n], TG_CSR_REG_LINK_BUSY_DROP, &b);
				tg_csr_read(dev[n], TG_CSR_REG_LINK_RETX, &r);
				tg_csr_read(dev[n], TG_CSR_REG_LINK_DUP_DROP, &d);
				tg_csr_read(dev[n], TG_CSR_REG_LINK_OOO_DROP, &o);
				printf("  node %u: busy %" PRIu64 " retx %" PRIu64 " dup %" PRIu64 " ooo %" PRIu64 "\n", n, b, r, d, o);
			}
		printf("loss %.1f%% (drop %.1f%%, bit flips %.1f%%): write goodput %" PRIu64 " bytes per 1000 cycles "
		       "(%" PRIu64 "%% of lossless); %" PRIu64 " frames lost, %" PRIu64 " retransmitted (%.2f per lost "
		       "frame); phase %" PRIu64 " cycles\n", (ph[p].drop_ppm + ph[p].flip_ppm) / 1e4, ph[p].drop_ppm / 1e4,
		       ph[p].flip_ppm / 1e4,
		       goodput, goodput0 ? 100 * goodput / goodput0 : 0, lost, retx,
		       lost ? (double)retx / (double)lost : 0.0, tg_sim_cycles(sim) - c0);
		if (ph[p].drop_ppm + ph[p].flip_ppm)
			CHECK(link_off || lost == 0 || retx > 0, "frames lost but none retransmitted");
	}
	printf("link counters over all nodes: dup drops %" PRIu64 ", out-of-order drops %" PRIu64
	       ", busy drops %" PRIu64 ", NAKs %" PRIu64 ", ACKs %" PRIu64 ", peer-gone drops %" PRIu64 "\n",
	       csr_sum(TG_CSR_REG_LINK_DUP_DROP), csr_sum(TG_CSR_REG_LINK_OOO_DROP),
	       csr_sum(TG_CSR_REG_LINK_BUSY_DROP), csr_sum(TG_CSR_REG_LINK_NAKS_SENT),
	       csr_sum(TG_CSR_REG_LINK_ACKS_SENT), csr_sum(TG_CSR_REG_LINK_PEER_GONE));
	CHECK(csr_sum(TG_CSR_REG_LINK_PEER_GONE) == 0, "a peer was declared gone");
	t_check_sim(sim);
	tg_queue_close(q);
	tg_mr_free(ctr);
	for (unsigned n = 0; n < NODES; n++) {
		tg_mr_free(mr[n]);
		tg_close(dev[n]);
	}
	tg_sim_destroy(sim);
	return t_done("test_link_loss");
}
