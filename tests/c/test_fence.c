/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: a fence returns only once every earlier write to that node is in the target's memory. */
#include "tg_test.h"

int main(void)
{
	struct tg_sim_config cfg;
	struct tg_sim *sim;
	struct tg_dev *a, *b;
	struct tg_mr *mr;
	uint8_t *p;
	uint64_t pa;

	/* slow target memory makes a fence that returns early visible */
	t_config(&cfg, 2);
	cfg.mem_lat_min = 20;
	cfg.mem_lat_max = 60;
	sim = tg_sim_create(&cfg);
	REQUIRE(sim, "tg_sim_create: %s", strerror(errno));
	a = t_open(sim, 0, 0);
	b = t_open(sim, 1, 0);
	mr = tg_mr_alloc(b, 65536, TG_ACCESS_ALL);
	REQUIRE(mr, "tg_mr_alloc: %s", tg_strerror(-errno));
	p = tg_mr_ptr(mr);
	pa = tg_mr_paddr(mr);

	CHECK_RC(tg_fence(a, 1), 0);   /* nothing outstanding */
	CHECK_RC(tg_fence(a, 0), 0);   /* to itself */
	for (unsigned round = 0; round < 20; round++) {
		unsigned n = 1 + round * 3;

		for (unsigned k = 0; k < n; k++) {
			uint64_t v = (uint64_t)round << 32 | k | 0x8000000000000000ULL;

			CHECK_RC(tg_write(a, 1, pa + (round * 64u + k) * 8u, &v, 8), 0);
		}
		CHECK_RC(tg_fence(a, 1), 0);
		/* checked right after the fence, before any further cycle */
		for (unsigned k = 0; k < n; k++) {
			uint64_t v, want = (uint64_t)round << 32 | k | 0x8000000000000000ULL;

			memcpy(&v, p + (round * 64u + k) * 8u, 8);
			CHECK(v == want, "round %u word %u: %#" PRIx64 " not yet written", round, k, v);
		}
	}
	t_check_sim(sim);
	tg_close(b);
	tg_close(a);
	tg_sim_destroy(sim);
	return t_done("test_fence");
}
