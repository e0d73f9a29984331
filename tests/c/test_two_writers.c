/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: two writer nodes to one target, disjoint and overlapping ranges, ordering after fences. */
#include "tg_test.h"

#define LEN 4096u

static void fill(uint8_t *buf, unsigned salt)
{
	for (unsigned i = 0; i < LEN; i++)
		buf[i] = t_pat(salt, i);
}

int main(void)
{
	struct tg_sim *sim = t_sim(3);
	struct tg_dev *w0 = t_open(sim, 0, 0), *w1 = t_open(sim, 1, 0), *t = t_open(sim, 2, 0);
	struct tg_mr *mr = tg_mr_alloc(t, 4 * LEN, TG_ACCESS_ALL);
	uint8_t b0[LEN], b1[LEN], *p;
	uint64_t pa, v;

	REQUIRE(mr, "tg_mr_alloc: %s", tg_strerror(-errno));
	p = tg_mr_ptr(mr);
	pa = tg_mr_paddr(mr);

	/* disjoint ranges, calls interleaved in 100-byte pieces */
	fill(b0, 1);
	fill(b1, 2);
	for (unsigned off = 0; off < LEN; off += 100) {
		unsigned n = LEN - off < 100 ? LEN - off : 100;

		CHECK_RC(tg_write(w0, 2, pa + off, b0 + off, n), 0);
		CHECK_RC(tg_write(w1, 2, pa + LEN + off, b1 + off, n), 0);
	}
	CHECK_RC(tg_fence(w0, 2), 0);
	CHECK_RC(tg_fence(w1, 2), 0);
	CHECK(memcmp(p, b0, LEN) == 0, "writer 0's range differs");
	CHECK(memcmp(p + LEN, b1, LEN) == 0, "writer 1's range differs");

	/* overlapping: the fence orders writer 0 before writer 1, then the
	 * other way round */
	fill(b0, 3);
	fill(b1, 4);
	CHECK_RC(tg_write(w0, 2, pa + 2 * LEN, b0, LEN), 0);
	CHECK_RC(tg_fence(w0, 2), 0);
	CHECK_RC(tg_write(w1, 2, pa + 2 * LEN + 1000, b1, 2000), 0);
	CHECK_RC(tg_fence(w1, 2), 0);
	CHECK(memcmp(p + 2 * LEN, b0, 1000) == 0, "overlap: head differs");
	CHECK(memcmp(p + 2 * LEN + 1000, b1, 2000) == 0, "overlap: writer 1 did not win");
	CHECK(memcmp(p + 2 * LEN + 3000, b0 + 3000, LEN - 3000) == 0, "overlap: tail differs");
	CHECK_RC(tg_write(w0, 2, pa + 2 * LEN + 1500, b0 + 1500, 100), 0);
	CHECK_RC(tg_fence(w0, 2), 0);
	CHECK(memcmp(p + 2 * LEN + 1500, b0 + 1500, 100) == 0, "writer 0 after the fence lost");

	/* one writer, the same word many times: the last value stays
	 * (operations from one node to another happen in issue order) */
	for (uint64_t k = 1; k <= 200; k++) {
		v = k * 0x0101010101010101ULL;
		CHECK_RC(tg_write(w0, 2, pa + 3 * LEN, &v, 8), 0);
		v = ~v;
		CHECK_RC(tg_write(w1, 2, pa + 3 * LEN + 64, &v, 8), 0);
	}
	CHECK_RC(tg_fence(w0, 2), 0);
	CHECK_RC(tg_fence(w1, 2), 0);
	memcpy(&v, p + 3 * LEN, 8);
	CHECK(v == 200 * 0x0101010101010101ULL, "last write of writer 0 not last: %#" PRIx64, v);
	memcpy(&v, p + 3 * LEN + 64, 8);
	CHECK(v == ~(200 * 0x0101010101010101ULL), "last write of writer 1 not last: %#" PRIx64, v);

	/* a read after a write from the same node sees it without a fence */
	v = 0x1122334455667788ULL;
	CHECK_RC(tg_write(w1, 2, pa + 3 * LEN + 128, &v, 8), 0);
	v = 0;
	CHECK_RC(tg_read(w1, 2, pa + 3 * LEN + 128, &v, 8), 0);
	CHECK(v == 0x1122334455667788ULL, "read after write: %#" PRIx64, v);

	t_check_sim(sim);
	tg_close(t);
	tg_close(w1);
	tg_close(w0);
	tg_sim_destroy(sim);
	return t_done("test_two_writers");
}
