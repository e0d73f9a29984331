/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: fast-forward over idle time gives exactly the results of running
 * every cycle: the same cycle after each call, the same answers, NIC
 * counters and timestamps, memory and simulator counters. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <unistd.h>

#include "tg_test.h"

#define NOPS   48
#define NBURST 40
#define NTMO   5
#define NCALLS (NOPS + NBURST + NTMO + 2)

static const uint64_t csrs[] = {
	TG_CSR_REG_CYCLES, TG_CSR_REG_TX_FRAMES, TG_CSR_REG_RX_FRAMES, TG_CSR_REG_RX_DROP_FCS,
	TG_CSR_REG_RX_DROP_TYPE, TG_CSR_REG_RX_DROP_MALFORMED, TG_CSR_REG_RX_REFUSED,
	TG_CSR_REG_HOST_ERRORS, TG_CSR_REG_RX_STRAY, TG_CSR_REG_TS_HOST_REQ,
	TG_CSR_REG_TS_TX_START, TG_CSR_REG_TS_RX_END, TG_CSR_REG_TS_RX_DONE,
	TG_CSR_REG_TS_HOST_RESP, TG_CSR_REG_TS_ENQ_DONE, TG_CSR_REG_REQ_ACCEPTED,
	TG_CSR_REG_REQ_REFUSED, TG_CSR_REG_REQ_RETRIES, TG_CSR_REG_ATOMICS,
	TG_CSR_REG_REQ_SPILLED, TG_CSR_REG_LINK_RETX, TG_CSR_REG_LINK_DUP_DROP,
	TG_CSR_REG_LINK_OOO_DROP, TG_CSR_REG_LINK_BUSY_DROP, TG_CSR_REG_LINK_NAKS_SENT,
	TG_CSR_REG_LINK_ACKS_SENT, TG_CSR_REG_LINK_PEER_GONE, TG_CSR_REG_PROT_REFUSED,
};
#define NCSR (sizeof(csrs) / sizeof(csrs[0]))

/* gaps of idle time between calls: around the simulator's polling
 * intervals, and long ones */
static const unsigned gaps[] = { 0, 1, 2, 15, 16, 17, 63, 64, 65, 300, 1023, 1025, 4096, 20000 };
#define NGAPS (sizeof(gaps) / sizeof(gaps[0]))

struct result {
	uint64_t at[NCALLS];             /* tg_sim_cycles after each call */
	int64_t val[NCALLS];             /* what it returned, read or took */
	uint64_t csr[2][NCSR];
	uint64_t mem[3];                 /* FNV-1a of each node's memory */
	struct tg_sim_stats st;
};

static uint64_t digest(const uint8_t *p, uint64_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (uint64_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

static void run(int ff, int link, int stress, struct result *r)
{
	struct tg_sim_config cfg;
	struct tg_sim *sim;
	struct tg_dev *a, *b;
	struct tg_mr *mr, *mr_local;
	struct tg_queue *q;
	uint64_t v, e;
	unsigned k = 0;

	memset(r, 0, sizeof(*r));
	/* node 2's link is down: what is sent to it is lost, and the
	 * requests waiting for its answers time out */
	t_config(&cfg, 3);
	cfg.fast_forward = ff;
	cfg.link_layer = link;
	if (!stress) {
		cfg.mem_stall_pct = 0;
		cfg.tx_stall_pct = 0;
		cfg.mem_lat_min = cfg.mem_lat_max = 4;
	}
	sim = tg_sim_create(&cfg);
	REQUIRE(sim, "tg_sim_create: %s", strerror(errno));
	a = t_open(sim, 0, TG_OPEN_DRIVER);
	b = t_open(sim, 1, TG_OPEN_DRIVER);
	REQUIRE(tg_sim_link_down(sim, 2, 1) == 0, "tg_sim_link_down");
	REQUIRE(tg_csr_write(a, TG_CSR_REG_READ_TIMEOUT, 2500) == 0, "READ_TIMEOUT");
	mr = tg_mr_alloc(b, 4096, TG_ACCESS_ALL);
	REQUIRE(mr, "tg_mr_alloc");
	/* the smallest buffer, 15 entries of 8 bytes: the burst below fills it */
	q = tg_queue_open(b, TG_Q_MIN_LOG2, 8);
	REQUIRE(q, "tg_queue_open: %s", strerror(errno));
	mr_local = tg_mr_alloc(a, 4096, TG_ACCESS_ALL);
	REQUIRE(mr_local, "tg_mr_alloc");

	for (unsigned i = 0; i < NOPS; i++, k++) {
		uint8_t blk[64];
		int rc = 0;

		REQUIRE(tg_sim_step(sim, gaps[i % NGAPS]) == 0, "tg_sim_step");
		v = 0;
		switch (i % 8) {
		case 0:
			v = 0x1111111111111111ULL * (i & 15);
			rc = tg_write(a, 1, tg_mr_paddr(mr) + 8 * i, &v, 8);
			break;
		case 1:
			rc = tg_read(a, 1, tg_mr_paddr(mr) + 8 * (i - 1), &v, 8);
			break;
		case 2:
			rc = tg_faa(a, 1, tg_mr_paddr(mr) + 1024, i, &v);
			break;
		case 3:
			rc = tg_enq(a, 1, tg_queue_paddr(q), 1000 + i);
			break;
		case 4:
			rc = tg_deq(q, &v, sizeof(v));
			break;
		case 5:
			for (unsigned j = 0; j < sizeof(blk); j++)
				blk[j] = t_pat(i, j);
			rc = tg_write(b, 0, 0x10000 + 64 * i, blk, sizeof(blk));
			break;
		case 6:
			rc = tg_fence(a, 1);
			break;
		case 7:
			/* no queue there: refused at the receiver */
			rc = tg_enq(a, 1, 0x200000, i);
			break;
		}
		r->at[k] = tg_sim_cycles(sim);
		r->val[k] = (int64_t)(v ^ ((uint64_t)(int64_t)rc << 48));
	}
	/* a burst into the small queue: refusals, resends after the backoff,
	 * and the driver growing the queue on its interrupt */
	for (unsigned i = 0; i < NBURST; i++, k++) {
		int rc = tg_enq(a, 1, tg_queue_paddr(q), 5000 + i);

		r->at[k] = tg_sim_cycles(sim);
		r->val[k] = rc;
	}
	REQUIRE(tg_sim_step(sim, 30000) == 0, "tg_sim_step");
	v = 0;
	e = 0;
	while (tg_deq(q, &e, sizeof(e)) == 0)
		v = v * 31 + e;
	r->at[k] = tg_sim_cycles(sim);
	r->val[k++] = (int64_t)v;
	/* timeouts: a REQ, a blocking read, a fetch and an atomic that node 2
	 * never answers */
	for (unsigned i = 0; i < NTMO; i++, k++) {
		int rc = 0;

		REQUIRE(tg_sim_step(sim, gaps[(i * 5) % NGAPS]) == 0, "tg_sim_step");
		v = 0;
		switch (i) {
		case 0:
			rc = tg_enq(a, 2, 0x200000, i);
			REQUIRE(tg_sim_step(sim, 6000) == 0, "tg_sim_step");
			rc = rc * 256 + tg_ctx_status(a);
			break;
		case 1:
			rc = tg_read(a, 2, 0x1000, &v, 8);
			break;
		case 2:
			rc = tg_fetch(a, 2, 0x1000, mr_local, 0, 8, mr_local, 64);
			if (!rc)
				rc = tg_fetch_wait(a, mr_local, 64);
			break;
		case 3:
			rc = tg_faa(a, 2, 0x1000, 1, &v);
			break;
		case 4:
			rc = tg_write(a, 2, 0x1000, &v, 8);
			if (!rc)
				rc = tg_fence(a, 2);
			break;
		}
		r->at[k] = tg_sim_cycles(sim);
		r->val[k] = (int64_t)(v ^ ((uint64_t)(int64_t)rc << 48));
	}
	REQUIRE(tg_sim_step(sim, 100000) == 0, "tg_sim_step");
	r->at[k] = tg_sim_cycles(sim);
	r->val[k++] = tg_ctx_status(a);

	for (unsigned i = 0; i < NCSR; i++) {
		r->csr[0][i] = t_csr(a, csrs[i]);
		r->csr[1][i] = t_csr(b, csrs[i]);
	}
	for (unsigned n = 0; n < 3; n++)
		r->mem[n] = digest(tg_sim_mem(sim, n), tg_sim_mem_size(sim));
	REQUIRE(tg_sim_get_stats(sim, TG_SIM_ALL_NODES, &r->st) == 0, "stats");
	t_check_sim(sim);
	tg_queue_close(q);
	tg_mr_free(mr);
	tg_mr_free(mr_local);
	tg_close(b);
	tg_close(a);
	tg_sim_destroy(sim);
}

static void compare(int link, int stress)
{
	static struct result on, off;
	uint64_t skipped;

	run(1, link, stress, &on);
	run(0, link, stress, &off);
	for (unsigned i = 0; i < NCALLS; i++) {
		CHECK(on.at[i] == off.at[i], "link %d stress %d: call %u ends at cycle %" PRIu64
		      " with fast-forward, %" PRIu64 " without", link, stress, i, on.at[i], off.at[i]);
		CHECK(on.val[i] == off.val[i], "link %d stress %d: call %u gives %" PRIx64
		      " with fast-forward, %" PRIx64 " without", link, stress, i,
		      (uint64_t)on.val[i], (uint64_t)off.val[i]);
	}
	for (unsigned n = 0; n < 2; n++) {
		for (unsigned i = 0; i < NCSR; i++)
			CHECK(on.csr[n][i] == off.csr[n][i], "link %d stress %d: node %u CSR 0x%" PRIx64
			      ": %" PRIu64 " with fast-forward, %" PRIu64 " without", link, stress, n,
			      csrs[i], on.csr[n][i], off.csr[n][i]);
	}
	for (unsigned n = 0; n < 3; n++)
		CHECK(on.mem[n] == off.mem[n], "link %d stress %d: node %u memory differs", link,
		      stress, n);
	skipped = on.st.ff_cycles;
	CHECK(off.st.ff_cycles == 0, "%" PRIu64 " cycles skipped with fast-forward off",
	      off.st.ff_cycles);
	on.st.ff_cycles = 0;
	CHECK(memcmp(&on.st, &off.st, sizeof(on.st)) == 0,
	      "link %d stress %d: simulator counters differ", link, stress);
	/* both nodes idle for most of the run: most node-cycles skipped */
	CHECK(skipped > on.at[NCALLS - 1], "link %d stress %d: only %" PRIu64
	      " node-cycles of %" PRIu64 " skipped", link, stress, skipped,
	      3 * on.at[NCALLS - 1]);
	printf("link %d, stress %d: %" PRIu64 " cycles, %" PRIu64 " of %" PRIu64
	       " node-cycles fast-forwarded, NIC 0 at cycle %" PRIu64 "\n", link, stress,
	       on.at[NCALLS - 1], skipped, 3 * on.at[NCALLS - 1], on.csr[0][0]);
}

/* A run that writes waveforms evaluates every cycle: the files show
 * every edge. */
static void vcd_run(void)
{
	const char *tmp = getenv("TMPDIR");
	char dir[512], path[600];
	struct tg_sim_config cfg;
	struct tg_sim_stats st;
	struct tg_sim *sim;

	snprintf(dir, sizeof(dir), "%s/tg-test-ff-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	REQUIRE(mkdtemp(dir), "mkdtemp");
	snprintf(path, sizeof(path), "%s/w.vcd", dir);
	t_config(&cfg, 2);
	cfg.vcd_path = path;
	sim = tg_sim_create(&cfg);
	REQUIRE(sim, "tg_sim_create: %s", strerror(errno));
	REQUIRE(tg_sim_step(sim, 2000) == 0, "tg_sim_step");
	REQUIRE(tg_sim_get_stats(sim, TG_SIM_ALL_NODES, &st) == 0, "stats");
	CHECK(st.ff_cycles == 0, "%" PRIu64 " cycles skipped while writing waveforms", st.ff_cycles);
	tg_sim_destroy(sim);
	for (unsigned n = 0; n < 2; n++) {
		snprintf(path, sizeof(path), "%s/w.%u.vcd", dir, n);
		CHECK(unlink(path) == 0, "waveform %s: %s", path, strerror(errno));
	}
	rmdir(dir);
}

int main(void)
{
	vcd_run();
	compare(0, 0);
	compare(0, 1);
	compare(1, 1);
	return t_done("test_fastforward");
}
