/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: the mapped-window inline calls: 8/4/1-byte stores, 8-byte loads, refused accesses. */
#include "tg_test.h"

int main(void)
{
	struct tg_sim *sim = t_sim(2);
	struct tg_dev *a = t_open(sim, 0, 0), *b = t_open(sim, 1, 0);
	struct tg_mr *mr = tg_mr_alloc(b, 4096, TG_ACCESS_ALL);
	struct tg_win *w = tg_win_open(a, 1);
	uint8_t want[256], *p;
	uint64_t pa, v;

	REQUIRE(mr && w, "setup: %s", tg_strerror(-errno));
	p = tg_mr_ptr(mr);
	pa = tg_mr_paddr(mr);
	memset(want, 0, sizeof(want));

	for (unsigned k = 0; k < 8; k++) {
		v = 0xa0a1a2a3a4a5a6a7ULL + k;
		tg_win_store64(w, pa + 8u * k, v);
		memcpy(want + 8u * k, &v, 8);
	}
	for (unsigned k = 0; k < 16; k++) {
		uint32_t x = 0xc0c1c2c3u + k;

		tg_win_store32(w, pa + 64u + 4u * k, x);
		memcpy(want + 64u + 4u * k, &x, 4);
	}
	for (unsigned k = 0; k < 64; k++) {
		tg_win_store8(w, pa + 128u + 2u * k, (uint8_t)(0x40 + k));  /* every other byte */
		want[128u + 2u * k] = (uint8_t)(0x40 + k);
	}
	CHECK(tg_win_error(w) == 0, "window stores recorded an error");
	CHECK_RC(tg_fence(a, 1), 0);
	CHECK(memcmp(p, want, sizeof(want)) == 0, "window stores differ in the target");
	for (unsigned k = 0; k < 32; k++) {
		memcpy(&v, want + 8u * k, 8);
		CHECK(tg_win_load64(w, pa + 8u * k) == v, "load %u", k);
	}
	/* what the target's host stores is what the next load returns */
	v = 0x5555aaaa5555aaaaULL;
	memcpy(p + 512, &v, 8);
	CHECK(tg_win_load64(w, pa + 512) == v, "load after a host store");

	/* misaligned: nothing is sent, the error is recorded */
	tg_win_store32(w, pa + 1024 + 2, 0xdeadbeef);
	CHECK(tg_win_error(w) == -EINVAL, "misaligned store32 not refused");
	CHECK(tg_win_load64(w, pa + 4) == ~0ULL, "misaligned load");
	CHECK(tg_win_error(w) == -EINVAL, "misaligned load not refused");
	CHECK(tg_win_error(w) == 0, "error not cleared");
	CHECK_RC(tg_fence(a, 1), 0);
	CHECK(p[1026] == 0 && p[1027] == 0, "misaligned store wrote");

	t_check_sim(sim);
	tg_win_close(w);
	tg_close(b);
	tg_close(a);
	tg_sim_destroy(sim);
	return t_done("test_window");
}
