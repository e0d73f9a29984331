/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: reads, fences and fetches whose answer never comes fail with -EHOSTUNREACH after READ_TIMEOUT, and the node keeps working. */
#include "tg_test.h"

int main(void)
{
	struct tg_sim_config cfg;
	struct tg_sim *sim;
	struct tg_dev *a, *b;
	struct tg_mr *mr, *loc;
	uint64_t pa, v = 0x1122334455667788ULL, got;
	uint8_t big[64], want[64];

	t_config(&cfg, 2);
	cfg.link_layer = 0;   /* the raw network (t_sim_raw) */
	sim = tg_sim_create(&cfg);
	REQUIRE(sim, "tg_sim_create: %s", strerror(errno));
	a = t_open(sim, 0, TG_OPEN_DRIVER);
	b = t_open(sim, 1, 0);
	mr = tg_mr_alloc(b, 4096, TG_ACCESS_ALL);
	loc = tg_mr_alloc(a, 4096, TG_ACCESS_ALL);
	REQUIRE(mr && loc, "tg_mr_alloc: %s", tg_strerror(-errno));
	pa = tg_mr_paddr(mr);
	for (unsigned i = 0; i < sizeof want; i++)
		want[i] = (uint8_t)(i * 7 + 1);
	memcpy(tg_mr_ptr(mr), want, sizeof want);
	CHECK_RC(tg_csr_write(a, TG_CSR_REG_READ_TIMEOUT, 3000), 0);

	/* every frame lost: nothing answers */
	CHECK_RC(tg_sim_set_faults(sim, 100, 0), 0);
	for (unsigned round = 0; round < 3; round++) {
		CHECK_RC(tg_read(a, 1, pa, &got, 8), -EHOSTUNREACH);
		CHECK_RC(tg_read(a, 1, pa, big, sizeof big), -EHOSTUNREACH);
		CHECK_RC(tg_fence(a, 1), -EHOSTUNREACH);
	}
	/* more fetches than the NIC keeps in flight, all lost */
	for (unsigned i = 0; i < 12; i++)
		CHECK_RC(tg_read(a, 1, pa + 8 * i, big, 24), -EHOSTUNREACH);

	/* the network is back: the same node works again */
	CHECK_RC(tg_sim_set_faults(sim, 0, 0), 0);
	CHECK_RC(tg_write(a, 1, pa + 512, &v, 8), 0);
	CHECK_RC(tg_fence(a, 1), 0);
	CHECK_RC(tg_read(a, 1, pa + 512, &got, 8), 0);
	CHECK(got == v, "read back %#" PRIx64, got);
	memset(big, 0, sizeof big);
	CHECK_RC(tg_read(a, 1, pa, big, sizeof big), 0);
	CHECK(memcmp(big, want, sizeof big) == 0, "64-byte read after the timeouts differs");
	tg_mr_free(loc);
	tg_mr_free(mr);
	tg_close(b);
	tg_close(a);
	tg_sim_destroy(sim);
	return t_done("test_timeout");
}
