/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: a 16-node cluster with protection on keeps serving its 15 honest
 * nodes while the 16th misbehaves.  Every honest node exports a data
 * region, a counter and a queue; in each round every honest node writes a
 * slice of its neighbour's region, adds to node 0's counter and enqueues
 * to a queue two nodes on, while node 15 sprays every node with writes,
 * reads, atomics and REQs under guessed keys, with a key for one region at
 * another region's address, at memory no region covers, and with forged
 * frames in the name of honest nodes.  Afterwards: every honest write
 * landed and no byte of the bad ones did, the counter is exact and the
 * other counters untouched, every entry arrived once and in order, the
 * unexported page each honest node was attacked at is unchanged, each bad
 * request was refused, and the refusals each NIC counted are exactly the
 * bad requests sent to it. */
#include "tg/tg_barrier.h"
#include "tg_test.h"

#define NODES   16u
#define BAD     15u
#define HONEST  15u
#define ROUNDS  12u
#define SLICE   64u

static uint64_t guess(uint64_t salt, uint64_t real)
{
	uint64_t g = (salt + 1) * 0x9e3779b97f4a7c15ULL;

	g = (g & ~31ULL) | (real & 31);     /* the right table index */
	return g == real ? g ^ (1ULL << 33) : g;
}

int main(void)
{
	struct tg_sim_config cfg;
	struct tg_sim *sim;
	struct tg_dev *d[NODES], *drv[NODES];
	struct tg_mr *data[HONEST], *ctr[HONEST];
	struct tg_queue *q[HONEST];
	uint64_t kdata[HONEST], kctr[HONEST], kq[HONEST], ref0[NODES], want_ref[NODES] = { 0 };
	uint8_t buf[SLICE], evil[SLICE];
	static uint8_t last_page[HONEST][4096];
	uint64_t v, old, top;
	unsigned forged = 0;

	t_config(&cfg, NODES);
	cfg.mem_size = 1ULL << 20;
	cfg.protect = 1;
	sim = tg_sim_create(&cfg);
	REQUIRE(sim, "tg_sim_create: %s", strerror(errno));
	for (unsigned n = 0; n < NODES; n++) {
		d[n] = t_open(sim, n, 0);
		drv[n] = t_open(sim, n, TG_OPEN_DRIVER);
	}
	for (unsigned n = 0; n < HONEST; n++) {
		data[n] = tg_mr_alloc(d[n], ROUNDS * SLICE, TG_ACCESS_REMOTE_READ | TG_ACCESS_REMOTE_WRITE);
		ctr[n] = tg_mr_alloc(d[n], 4096, TG_ACCESS_REMOTE_ATOMIC);
		q[n] = tg_queue_open(d[n], 12, 8);
		REQUIRE(data[n] && ctr[n] && q[n], "regions of node %u", n);
		REQUIRE(tg_mr_export(data[n], &kdata[n]) == 0 && tg_mr_export(ctr[n], &kctr[n]) == 0 &&
			tg_queue_export(q[n], &kq[n]) == 0, "exports of node %u", n);
	}
	for (unsigned n = 0; n < NODES; n++)
		ref0[n] = t_csr(drv[n], TG_CSR_REG_PROT_REFUSED);
	/* the bad node's data is its own pattern, so a byte of it landing
	 * anywhere is seen; the last page of each node is no region's */
	memset(evil, 0xEE, sizeof(evil));
	top = cfg.mem_size - 4096;
	for (unsigned n = 0; n < HONEST; n++) {
		REQUIRE(tg_mr_paddr(data[n]) + ROUNDS * SLICE <= top && tg_mr_paddr(ctr[n]) + 4096 <= top,
			"node %u's regions reach its last page", n);
		memcpy(last_page[n], tg_sim_mem(sim, n) + top, 4096);
	}

	for (unsigned r = 0; r < ROUNDS; r++) {
		for (unsigned s = 0; s < HONEST; s++) {
			unsigned w = (s + 1) % HONEST, e = (s + 2) % HONEST;

			for (unsigned i = 0; i < SLICE; i++)
				buf[i] = t_pat(s * 1000 + r, i);
			CHECK_RC(tg_key_set(d[s], kdata[w]), 0);
			CHECK_RC(tg_write(d[s], w, tg_mr_paddr(data[w]) + r * SLICE, buf, SLICE), 0);
			CHECK_RC(tg_key_set(d[s], kq[e]), 0);
			CHECK_RC(tg_enq(d[s], e, tg_queue_paddr(q[e]), (uint64_t)s << 32 | r), 0);
			CHECK_RC(tg_key_set(d[s], kctr[0]), 0);
			CHECK_RC(tg_faa(d[s], 0, tg_mr_paddr(ctr[0]), s + 1, NULL), 0);
		}
		/* the misbehaving node: every honest node, every kind of request */
		for (unsigned t = 0; t < HONEST; t++) {
			uint64_t salt = r * NODES + t;

			/* memory no region covers, under a guessed key */
			CHECK_RC(tg_key_set(d[BAD], guess(salt + 3, kdata[t])), 0);
			CHECK_RC(tg_write(d[BAD], t, top + (r % 8) * SLICE, evil, SLICE), 0);
			CHECK_RC(tg_key_set(d[BAD], guess(salt, kdata[t])), 0);
			CHECK_RC(tg_write(d[BAD], t, tg_mr_paddr(data[t]), evil, SLICE), 0);
			CHECK_RC(tg_read(d[BAD], t, tg_mr_paddr(data[t]), &v, 8), -EACCES);
			CHECK_RC(tg_key_set(d[BAD], guess(salt, kctr[t])), 0);
			CHECK_RC(tg_faa(d[BAD], t, tg_mr_paddr(ctr[t]), 1000, &old), -EACCES);
			CHECK_RC(tg_key_set(d[BAD], guess(salt, kq[t])), 0);
			CHECK_RC(tg_enq(d[BAD], t, tg_queue_paddr(q[t]), ~0ULL), 0);
			/* a real key at the wrong address: the queue's key on the data */
			CHECK_RC(tg_key_set(d[BAD], kq[t]), 0);
			CHECK_RC(tg_write(d[BAD], t, tg_mr_paddr(data[t]), evil, 8), 0);
			CHECK_RC(tg_fence(d[BAD], t), -EPERM);      /* the last refused write */
			want_ref[t] += 6;
			/* a frame in the name of an honest node, with a guessed key */
			if (r % 4 == 0) {
				uint8_t f[TG_MAX_FRAME_BYTES], pl[8] = { 0 };
				struct tg_frame_hdr h = { .ver = TG_PROTO_VERSION, .op = TG_OP_WRITE,
							  .src = (uint16_t)((t + 1) % HONEST), .dst = (uint16_t)t,
							  .ctx = 15, .key = guess(salt + 7, kdata[t]),
							  .addr = (uint32_t)tg_mr_paddr(data[t]), .cnt = 8, .len = 8 };
				size_t n = tg_frame_encode(f, &h, pl);

				REQUIRE(tg_sim_inject(sim, t, f, n) == 0, "inject");
				want_ref[t]++;
				forged++;
			}
		}
	}
	for (unsigned s = 0; s < HONEST; s++)
		for (unsigned t = 0; t < HONEST; t++)
			if (t != s)
				CHECK_RC(tg_fence(d[s], t), 0);

	/* every honest write landed */
	for (unsigned w = 0; w < HONEST; w++) {
		const uint8_t *p = tg_mr_ptr(data[w]);
		unsigned s = (w + HONEST - 1) % HONEST, bad = 0;

		for (unsigned r = 0; r < ROUNDS; r++)
			for (unsigned i = 0; i < SLICE; i++)
				bad += p[r * SLICE + i] != t_pat(s * 1000 + r, i);
		CHECK(bad == 0, "node %u: %u bytes of node %u's writes wrong", w, bad, s);
	}
	/* the counter is exact: 12 rounds of 1 + 2 + ... + 15 */
	v = TG_DEV_LOAD_ACQ64((uint64_t *)tg_mr_ptr(ctr[0]));
	CHECK(v == ROUNDS * HONEST * (HONEST + 1) / 2, "counter %" PRIu64 ", want %u", v,
	      ROUNDS * HONEST * (HONEST + 1) / 2);
	/* the bad node's FAAs of 1000 reached no counter */
	for (unsigned t = 0; t < HONEST; t++) {
		const uint64_t *c = tg_mr_ptr(ctr[t]);

		for (unsigned i = t == 0 ? 1 : 0; i < 4096 / 8; i++)
			if (c[i]) {
				CHECK(0, "node %u's counter region word %u is %" PRIu64, t, i, c[i]);
				break;
			}
	}
	/* the page no region covers is as it was */
	for (unsigned t = 0; t < HONEST; t++)
		CHECK(!memcmp(last_page[t], tg_sim_mem(sim, t) + top, 4096),
		      "node %u's unexported last page changed", t);
	/* every entry once, in order, only from the honest sender */
	for (unsigned e = 0; e < HONEST; e++) {
		unsigned s = (e + HONEST - 2) % HONEST, n = 0;

		while (tg_deq(q[e], &v, 8) == 0) {
			CHECK(v == ((uint64_t)s << 32 | n), "queue of node %u: entry %u is %" PRIx64, e, n, v);
			n++;
		}
		CHECK(n == ROUNDS, "queue of node %u: %u entries, want %u", e, n, ROUNDS);
	}
	/* each NIC counted exactly the bad requests sent to it; the bad node
	 * itself refused nothing */
	for (unsigned n = 0; n < NODES; n++) {
		uint64_t got = t_csr(drv[n], TG_CSR_REG_PROT_REFUSED) - ref0[n];

		CHECK(got == want_ref[n], "node %u refused %" PRIu64 ", want %" PRIu64, n, got, want_ref[n]);
	}
	/* the forged frames were charged to the honest nodes they named:
	 * context 15 is none of theirs, so no honest fence saw them */
	for (unsigned s = 0; s < HONEST; s++)
		CHECK_RC(tg_ctx_status(d[s]), 0);

	t_check_sim(sim);
	for (unsigned n = 0; n < HONEST; n++)
		tg_queue_close(q[n]);
	for (unsigned n = 0; n < NODES; n++) {
		tg_close(drv[n]);
		tg_close(d[n]);
	}
	tg_sim_destroy(sim);
	if (t_failed) {
		fprintf(stderr, "test_protect16: %d checks failed\n", t_failed);
		return T_FAIL;
	}
	printf("test_protect16: 15 honest nodes served (%u writes, %u FAAs, %u REQs) while node 15 "
	       "sent %u refused requests and %u forged frames\n", ROUNDS * HONEST, ROUNDS * HONEST,
	       ROUNDS * HONEST, ROUNDS * HONEST * 6, forged);
	return T_PASS;
}
