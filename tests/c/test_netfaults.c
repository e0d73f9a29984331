/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: the switch's fault knobs seen by real NICs: reordering in the capture, a link down and up, incast into finite buffers, repeatable captures. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <unistd.h>

#include "tg_test.h"

static char pcap_path[256];

static void tmp_pcap(void)
{
	const char *tmp = getenv("TMPDIR");
	int fd;

	snprintf(pcap_path, sizeof(pcap_path), "%s/tg-test-netfaults-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(pcap_path);
	REQUIRE(fd >= 0, "mkstemp");
	close(fd);
}

/* Read a whole file; *len its size. */
static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b;

	REQUIRE(f, "open %s", path);
	fseek(f, 0, SEEK_END);
	*len = (size_t)ftell(f);
	rewind(f);
	b = malloc(*len ? *len : 1);
	REQUIRE(b && fread(b, 1, *len, f) == *len, "read %s", path);
	fclose(f);
	return b;
}

/* Addresses of the WRITE frames from src to dst in a capture, in capture
 * order; returns how many (at most max). */
static unsigned pcap_writes(const char *path, unsigned src, unsigned dst, uint64_t *addr,
			    unsigned max)
{
	size_t len, off = 24;
	uint8_t *b = slurp(path, &len);
	unsigned n = 0;

	while (off + 16 <= len) {
		unsigned rl = b[off + 8] | b[off + 9] << 8 | b[off + 10] << 16 |
			      (unsigned)b[off + 11] << 24;
		struct tg_frame_hdr h;

		off += 16;
		if (off + rl > len)
			break;
		if (!tg_frame_decode(b + off, rl, &h) && h.op == TG_OP_WRITE && h.src == src &&
		    h.dst == dst && n < max)
			addr[n++] = h.addr;
		off += rl;
	}
	free(b);
	return n;
}

/* Reordering: frames of one path leave the switch out of order, and the
 * data all arrive. */
static void test_reorder(void)
{
	struct tg_sim_config cfg;
	struct tg_sim_faults f;
	struct tg_sim_stats st;
	struct tg_sim *sim;
	struct tg_dev *a, *b;
	struct tg_mr *mr;
	uint64_t addr[256], v;
	unsigned n, inv = 0;
	const uint64_t *mem;

	tmp_pcap();
	t_config(&cfg, 2);
	cfg.link_layer = 0;   /* the raw network (t_sim_raw) */
	cfg.pcap_path = pcap_path;
	cfg.reorder_ppm = 250000;
	cfg.reorder_depth = 2;
	sim = tg_sim_create(&cfg);
	REQUIRE(sim, "tg_sim_create: %s", strerror(errno));
	REQUIRE(tg_sim_get_fault_rates(sim, &f) == 0 && f.reorder_ppm == 250000 &&
		f.reorder_depth == 2 && f.reorder_hold_cycles == 2000 && f.drop_ppm == 0,
		"fault rates from the configuration");
	a = t_open(sim, 0, 0);
	b = t_open(sim, 1, 0);
	mr = tg_mr_alloc(b, 4096, 0);
	REQUIRE(mr, "mr");
	for (uint64_t k = 0; k < 200; k++) {
		v = 0x1000 + k;
		CHECK_RC(tg_write(a, 1, tg_mr_paddr(mr) + 8 * k, &v, 8), 0);
	}
	tg_sim_step(sim, 60000);
	mem = (const uint64_t *)tg_mr_ptr(mr);
	for (uint64_t k = 0; k < 200; k++)
		CHECK(mem[k] == 0x1000 + k, "word %" PRIu64 ": %#" PRIx64, k, mem[k]);
	tg_sim_get_stats(sim, 0, &st);
	CHECK(st.reorder_injected > 0 && st.drop_injected == 0, "held back %" PRIu64,
	      st.reorder_injected);
	tg_close(b);
	tg_close(a);
	tg_sim_destroy(sim);
	n = pcap_writes(pcap_path, 0, 1, addr, 256);
	/* (a link layer may add copies sent again; the switch model's own
	 * bound, overtaken <= held back, is checked in test_switch_faults) */
	CHECK(n >= 200, "%u writes captured", n);
	for (unsigned i = 1; i < n; i++)
		inv += addr[i] < addr[i - 1];
	CHECK(inv > 0, "no write overtaken in the capture, %" PRIu64 " held back",
	      st.reorder_injected);
	printf("reordering: %" PRIu64 " of 200 writes held back, %u out of order at node 1\n",
	       st.reorder_injected, inv);
	unlink(pcap_path);
}

/* A link down loses everything to its node; up again, traffic resumes. */
static void test_link_down(void)
{
	struct tg_sim *sim = t_sim_raw(2);
	struct tg_dev *a = t_open(sim, 0, 0), *drv = t_open(sim, 1, TG_OPEN_DRIVER);
	struct tg_mr *mr = tg_mr_alloc(drv, 4096, 0);
	struct tg_sim_stats st;
	uint64_t rx0, v, zero[64];
	uint8_t *p;

	REQUIRE(mr, "mr");
	p = tg_mr_ptr(mr);
	memset(zero, 0, sizeof(zero));
	rx0 = t_csr(drv, TG_CSR_REG_RX_FRAMES);
	CHECK(tg_sim_link_down(sim, 2, 1) == -EINVAL, "bad node accepted");
	REQUIRE(tg_sim_link_down(sim, 1, 1) == 0, "link down");
	for (uint64_t k = 0; k < 20; k++) {
		v = ~k;
		CHECK_RC(tg_write(a, 1, tg_mr_paddr(mr) + 8 * k, &v, 8), 0);
	}
	tg_sim_step(sim, 20000);
	CHECK(memcmp(p, zero, sizeof(zero)) == 0, "a write crossed a dead link");
	CHECK(t_csr(drv, TG_CSR_REG_RX_FRAMES) == rx0, "frames arrived over a dead link");
	tg_sim_get_stats(sim, 1, &st);
	CHECK(st.drop_link_down >= 20, "%" PRIu64 " frames lost at node 1, want 20 or more",
	      st.drop_link_down);
	REQUIRE(tg_sim_link_down(sim, 1, 0) == 0, "link up");
	v = 0x600d;
	CHECK_RC(tg_write(a, 1, tg_mr_paddr(mr), &v, 8), 0);
	CHECK_RC(tg_fence(a, 1), 0);
	CHECK(memcmp(p, &v, 8) == 0, "write after the outage");
	CHECK(t_csr(drv, TG_CSR_REG_RX_FRAMES) > rx0, "nothing arrived after the outage");
	tg_sim_get_stats(sim, 0, &st);
	CHECK(st.drop_link_down == 0, "%" PRIu64 " lost at node 0, whose link stayed up",
	      st.drop_link_down);

	/* a scheduled outage in the configuration must name a node */
	{
		struct tg_sim_config cfg;
		struct tg_sim_outage o = { 2, 10, 20 };

		tg_sim_config_init(&cfg);
		cfg.outages = &o;
		cfg.noutages = 1;
		CHECK(!tg_sim_create(&cfg) && errno == EINVAL, "outage of node 2 of 2 accepted");
	}
	t_check_sim(sim);
	tg_close(drv);
	tg_close(a);
	tg_sim_destroy(sim);
}

/* Eight nodes write to a ninth whose switch port has a small buffer. */
static void incast(unsigned senders, struct tg_sim_stats *to, uint64_t *sent)
{
	struct tg_sim_config cfg;
	struct tg_sim *sim;
	struct tg_dev *dev[8], *b;
	struct tg_mr *mr;
	struct tg_sim_stats st;
	uint8_t buf[64];

	t_config(&cfg, 9);
	cfg.link_layer = 0;   /* the raw network (t_sim_raw) */
	cfg.tx_stall_pct = 0;
	sim = tg_sim_create(&cfg);
	REQUIRE(sim, "tg_sim_create: %s", strerror(errno));
	CHECK(tg_sim_set_buffer(sim, 9, 100) == -EINVAL, "bad node accepted");
	REQUIRE(tg_sim_set_buffer(sim, 8, 600) == 0, "buffer");
	/* the receiver's cable as fast as a sender's: one sender never fills its buffer */
	REQUIRE(tg_sim_set_link(sim, 8, 10, cfg.link_bytes_per_cycle) == 0, "link");
	CHECK(tg_sim_set_link(sim, 8, 10, 65) == -EINVAL, "65 bytes per cycle accepted");
	b = t_open(sim, 8, 0);
	mr = tg_mr_alloc(b, 4096, 0);
	REQUIRE(mr, "mr");
	for (unsigned i = 0; i < senders; i++)
		dev[i] = t_open(sim, i, 0);
	memset(buf, 0x5a, sizeof(buf));
	for (unsigned k = 0; k < 16; k++)
		for (unsigned i = 0; i < senders; i++)
			CHECK_RC(tg_write(dev[i], 8, tg_mr_paddr(mr) + 64 * (k % 64), buf, 64), 0);
	tg_sim_step(sim, 60000);
	*sent = 0;
	for (unsigned i = 0; i < senders; i++) {
		tg_sim_get_stats(sim, i, &st);
		*sent += st.tx_frames;
		tg_close(dev[i]);
	}
	tg_sim_get_stats(sim, 8, to);
	tg_close(b);
	t_check_sim(sim);
	tg_sim_destroy(sim);
}

static void test_incast(void)
{
	struct tg_sim_stats st;
	uint64_t sent;

	incast(8, &st, &sent);
	CHECK(sent == 8 * 16, "%" PRIu64 " frames sent", sent);
	CHECK(st.drop_congestion > 0, "incast: no congestion drop");
	CHECK(st.rx_frames + st.drop_congestion == sent, "%" PRIu64 " delivered + %" PRIu64
	      " dropped != %" PRIu64, st.rx_frames, st.drop_congestion, sent);
	printf("incast of 8 nodes into 600 bytes: %" PRIu64 " delivered, %" PRIu64 " dropped\n",
	       st.rx_frames, st.drop_congestion);
	incast(1, &st, &sent);
	CHECK(st.drop_congestion == 0 && st.rx_frames == sent && sent == 16,
	      "one sender: %" PRIu64 " dropped, %" PRIu64 " of %" PRIu64 " delivered",
	      st.drop_congestion, st.rx_frames, sent);
}

/* Every fault on: the same seed gives the same capture, byte for byte. */
static uint8_t *faulty_run(uint64_t seed, size_t *len, struct tg_sim_stats *st)
{
	struct tg_sim_config cfg;
	struct tg_sim_faults f = { 50000, 50000, 50000, 50000, 1, 2000 };
	struct tg_sim *sim;
	struct tg_dev *a, *b;
	struct tg_mr *mr;
	uint8_t buf[64], *cap;

	tmp_pcap();
	t_config(&cfg, 2);
	cfg.link_layer = 0;   /* the raw network (t_sim_raw) */
	cfg.seed = seed;
	cfg.pcap_path = pcap_path;
	cfg.buffer_bytes = 4096;
	sim = tg_sim_create(&cfg);
	REQUIRE(sim, "tg_sim_create: %s", strerror(errno));
	f.reorder_hold_cycles = 0;
	CHECK(tg_sim_set_fault_rates(sim, &f) == -EINVAL, "hold of 0 cycles accepted");
	f.reorder_hold_cycles = 2000;
	f.dup_ppm = 1000001;
	CHECK(tg_sim_set_fault_rates(sim, &f) == -EINVAL, "rate above 1000000 accepted");
	f.dup_ppm = 50000;
	REQUIRE(tg_sim_set_fault_rates(sim, &f) == 0, "rates");
	a = t_open(sim, 0, 0);
	b = t_open(sim, 1, 0);
	mr = tg_mr_alloc(b, 4096, 0);
	REQUIRE(mr, "mr");
	for (unsigned k = 0; k < 60; k++) {
		memset(buf, (int)k, sizeof(buf));
		CHECK_RC(tg_write(a, 1, tg_mr_paddr(mr) + 64 * (k % 64), buf, 64), 0);
		CHECK_RC(tg_write(b, 0, 0x3000 + 64 * (k % 64), buf, 64), 0);
	}
	tg_sim_step(sim, 40000);
	tg_sim_get_stats(sim, TG_SIM_ALL_NODES, st);
	tg_close(b);
	tg_close(a);
	tg_sim_destroy(sim);
	cap = slurp(pcap_path, len);
	unlink(pcap_path);
	return cap;
}

static void test_repeatable(void)
{
	struct tg_sim_stats s1, s2, s3;
	size_t l1, l2, l3;
	uint8_t *c1 = faulty_run(5, &l1, &s1), *c2 = faulty_run(5, &l2, &s2);
	uint8_t *c3 = faulty_run(6, &l3, &s3);

	CHECK(l1 == l2 && memcmp(c1, c2, l1) == 0, "same seed: captures differ");
	CHECK(memcmp(&s1, &s2, sizeof(s1)) == 0, "same seed: counters differ");
	CHECK(l1 != l3 || memcmp(c1, c3, l1) != 0, "another seed: the same capture");
	CHECK(s1.drop_injected + s1.corrupt_injected + s1.dup_injected + s1.reorder_injected > 0,
	      "no fault injected");
	printf("all faults, seed 5: %zu capture bytes; lost %" PRIu64 ", flipped %" PRIu64
	       ", duplicated %" PRIu64 ", held back %" PRIu64 "\n", l1, s1.drop_injected,
	       s1.corrupt_injected, s1.dup_injected, s1.reorder_injected);
	free(c1);
	free(c2);
	free(c3);
}

/* Twenty nodes in a ring, one of them behind a slow, long cable: every
 * write arrives, and the slow node's frames take longer. */
static void test_ring20(void)
{
	struct tg_sim *sim = t_sim_raw(20);
	struct tg_dev *dev[20];
	struct tg_mr *mr[20];
	uint64_t v, t0, t_fast, t_slow;
	struct tg_sim_stats st;
	struct tg_sim_config def;
	unsigned extra;

	tg_sim_config_init(&def);
	extra = 400 - def.link_latency;
	REQUIRE(tg_sim_set_link(sim, 19, 400, def.link_bytes_per_cycle) == 0, "slow link");
	for (unsigned i = 0; i < 20; i++) {
		dev[i] = t_open(sim, i, 0);
		mr[i] = tg_mr_alloc(dev[i], 4096, 0);
		REQUIRE(mr[i], "mr");
	}
	for (unsigned i = 0; i < 20; i++) {
		v = 0xabc0000 + i;
		CHECK_RC(tg_write(dev[i], (i + 1) % 20, tg_mr_paddr(mr[(i + 1) % 20]), &v, 8), 0);
	}
	for (unsigned i = 0; i < 20; i++)
		CHECK_RC(tg_fence(dev[i], (i + 1) % 20), 0);
	for (unsigned i = 0; i < 20; i++) {
		const uint64_t *m = (const uint64_t *)tg_mr_ptr(mr[(i + 1) % 20]);

		CHECK(m[0] == 0xabc0000 + i, "node %u's write to node %u: %#" PRIx64, i,
		      (i + 1) % 20, m[0]);
	}
	/* a read over the slow cable takes two crossings of it more (400
	 * cycles less the default cable's each), less what the random memory
	 * latencies vary */
	t0 = tg_sim_cycles(sim);
	CHECK_RC(tg_read(dev[0], 1, tg_mr_paddr(mr[1]), &v, 8), 0);
	t_fast = tg_sim_cycles(sim) - t0;
	t0 = tg_sim_cycles(sim);
	CHECK_RC(tg_read(dev[0], 19, tg_mr_paddr(mr[19]), &v, 8), 0);
	t_slow = tg_sim_cycles(sim) - t0;
	CHECK(t_slow >= t_fast + 2 * extra - 60 && t_slow <= t_fast + 2 * extra + 60,
	      "read over the slow link: %" PRIu64 " cycles, fast: %" PRIu64, t_slow, t_fast);
	tg_sim_get_stats(sim, TG_SIM_ALL_NODES, &st);
	CHECK(st.drop_congestion + st.drop_link_down + st.drop_injected == 0, "losses");
	printf("20 nodes: read over a fast link %" PRIu64 " cycles, over the slow one %" PRIu64
	       "\n", t_fast, t_slow);
	t_check_sim(sim);
	for (unsigned i = 0; i < 20; i++)
		tg_close(dev[i]);
	tg_sim_destroy(sim);
}

int main(void)
{
	test_ring20();
	test_reorder();
	test_link_down();
	test_incast();
	test_repeatable();
	return t_done("test_netfaults");
}
