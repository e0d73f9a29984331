/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: an in-process run is repeatable: same seed, same cycle count and counters. */
#include "tg_test.h"

struct result {
	uint64_t cycles;
	struct tg_sim_stats st;
	uint8_t digest[32];
};

static void run(uint64_t seed, struct result *r)
{
	struct tg_sim_config cfg;
	struct tg_sim *sim;
	struct tg_dev *a, *b;
	struct tg_mr *mr;
	uint8_t buf[3000];

	t_config(&cfg, 2);
	cfg.seed = seed;
	sim = tg_sim_create(&cfg);
	REQUIRE(sim, "tg_sim_create");
	a = t_open(sim, 0, 0);
	b = t_open(sim, 1, 0);
	mr = tg_mr_alloc(b, 8192, 0);
	REQUIRE(mr, "mr");
	for (unsigned i = 0; i < sizeof(buf); i++)
		buf[i] = t_pat(9, i);
	CHECK_RC(tg_write(a, 1, tg_mr_paddr(mr) + 5, buf, sizeof(buf)), 0);
	CHECK_RC(tg_read(a, 1, tg_mr_paddr(mr) + 100, buf, 1000), 0);
	CHECK_RC(tg_read(b, 0, 0x2000, buf, 8), 0);
	CHECK_RC(tg_fence(a, 1), 0);
	r->cycles = tg_sim_cycles(sim);
	tg_sim_get_stats(sim, TG_SIM_ALL_NODES, &r->st);
	memcpy(r->digest, buf, sizeof(r->digest));
	tg_close(b);
	tg_close(a);
	tg_sim_destroy(sim);
}

int main(void)
{
	struct result r1, r2, r3;

	memset(&r1, 0, sizeof(r1));
	memset(&r2, 0, sizeof(r2));
	memset(&r3, 0, sizeof(r3));
	run(42, &r1);
	run(42, &r2);
	run(43, &r3);
	CHECK(r1.cycles == r2.cycles, "same seed: %" PRIu64 " vs %" PRIu64 " cycles", r1.cycles,
	      r2.cycles);
	CHECK(memcmp(&r1.st, &r2.st, sizeof(r1.st)) == 0, "same seed: counters differ");
	CHECK(memcmp(r1.digest, r2.digest, sizeof(r1.digest)) == 0, "same seed: data differ");
	printf("seed 42: %" PRIu64 " cycles, seed 43: %" PRIu64 " cycles\n", r1.cycles, r3.cycles);
	return t_done("test_determinism");
}
