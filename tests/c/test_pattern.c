/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: 1 MiB random pattern written remotely and read back; reads see what the remote host stored. */
#include "tg_test.h"

#define SIZE  (1u << 20)

int main(void)
{
	struct tg_sim *sim = t_sim(2);
	struct tg_dev *a = t_open(sim, 0, 0), *b = t_open(sim, 1, 0);
	struct tg_mr *mr = tg_mr_alloc(b, SIZE + 64, TG_ACCESS_ALL);
	uint8_t *src = malloc(SIZE), *back = malloc(SIZE), *p;
	uint64_t pa, c0;
	size_t bad = 0, first = 0;

	REQUIRE(mr && src && back, "allocation failed");
	p = tg_mr_ptr(mr);
	pa = tg_mr_paddr(mr);
	for (size_t i = 0; i < SIZE; i++)
		src[i] = t_pat(7, i);

	/* written at an odd offset so that every burst is cut at block edges */
	c0 = tg_sim_cycles(sim);
	CHECK_RC(tg_write(a, 1, pa + 3, src, SIZE), 0);
	CHECK_RC(tg_fence(a, 1), 0);
	printf("write 1 MiB + fence: %" PRIu64 " cycles\n", tg_sim_cycles(sim) - c0);
	for (size_t i = 0; i < SIZE; i++)
		if (p[3 + i] != src[i] && !bad++)
			first = i;
	CHECK(bad == 0, "%zu bytes differ in the target, first at %zu", bad, first);
	CHECK(p[0] == 0 && p[1] == 0 && p[2] == 0 && p[3 + SIZE] == 0, "bytes around changed");

	c0 = tg_sim_cycles(sim);
	memset(back, 0, SIZE);
	CHECK_RC(tg_read(a, 1, pa + 3, back, SIZE), 0);
	printf("read 1 MiB: %" PRIu64 " cycles\n", tg_sim_cycles(sim) - c0);
	bad = 0;
	for (size_t i = 0; i < SIZE; i++)
		if (back[i] != src[i] && !bad++)
			first = i;
	CHECK(bad == 0, "%zu bytes read back differ, first at %zu", bad, first);

	/* the target's host changes its memory directly; reads see it */
	for (unsigned k = 0; k < 64; k++) {
		uint64_t off = (uint64_t)k * 16381u % (SIZE - 64);
		uint8_t got[40], want[40];

		for (unsigned i = 0; i < sizeof(want); i++)
			want[i] = t_pat(1000 + k, i);
		memcpy(p + off, want, sizeof(want));
		memset(got, 0, sizeof(got));
		CHECK_RC(tg_read(a, 1, pa + off, got, 1 + k % 40), 0);
		CHECK(memcmp(got, want, 1 + k % 40) == 0, "read %u after a host store differs", k);
		/* and a single word through the blocking load */
		CHECK_RC(tg_read(a, 1, pa + off, got, 1), 0);
		CHECK(got[0] == want[0], "one-byte read %u", k);
	}
	t_check_sim(sim);
	free(src);
	free(back);
	tg_close(b);
	tg_close(a);
	tg_sim_destroy(sim);
	return t_done("test_pattern");
}
