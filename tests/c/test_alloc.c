/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: the driver's allocator: first fit, granularity, power-of-two alignment, owners, merging. */
#include <errno.h>
#include <stdio.h>

#include "tgdrv/tg_drv.h"
#include "tg_test.h"

#define BASE  0x1000ULL
#define SIZE  (1ULL << 24)
#define G     TG_DRV_GRAN

int main(void)
{
	struct tg_alloc *a = tg_alloc_create(BASE, SIZE, G);
	uint64_t p[64], q;

	REQUIRE(a, "create");
	CHECK(tg_alloc_create(1, SIZE, G) == NULL && errno == EINVAL, "unaligned base");
	CHECK(tg_alloc_create(0, SIZE, 3000) == NULL && errno == EINVAL, "gran not a power of two");
	CHECK(tg_alloc_free_bytes(a) == SIZE, "free bytes");

	/* first fit, rounded to the granularity */
	CHECK_RC(tg_alloc_get(a, 1, 0, 1, &p[0]), 0);
	CHECK(p[0] == BASE, "first at %#" PRIx64, p[0]);
	CHECK_RC(tg_alloc_get(a, G + 1, 0, 1, &p[1]), 0);
	CHECK(p[1] == BASE + G, "second at %#" PRIx64, p[1]);
	CHECK_RC(tg_alloc_get(a, G, 0, 2, &p[2]), 0);
	CHECK(p[2] == BASE + 3 * G, "third at %#" PRIx64, p[2]);
	CHECK(tg_alloc_free_bytes(a) == SIZE - 4 * G, "free after three");

	/* alignment up to the size (queue buffers) */
	for (uint64_t al = G; al <= (1ULL << 22); al <<= 1) {
		CHECK_RC(tg_alloc_get(a, al, al, 3, &q), 0);
		CHECK(q % al == 0, "align %#" PRIx64 ": got %#" PRIx64, al, q);
	}
	CHECK_RC(tg_alloc_get(a, G, 3 * G, 3, &q), -EINVAL);   /* not a power of two */
	CHECK_RC(tg_alloc_get(a, 0, 0, 3, &q), -EINVAL);
	CHECK_RC(tg_alloc_get(a, SIZE, 0, 3, &q), -ENOMEM);

	/* frees: wrong owner, unknown address, then the hole is reused */
	CHECK_RC(tg_alloc_put(a, p[1], 2), -EINVAL);
	CHECK_RC(tg_alloc_put(a, p[1] + G, 1), -EINVAL);
	CHECK_RC(tg_alloc_put(a, p[1], 1), 0);
	CHECK_RC(tg_alloc_put(a, p[1], 1), -EINVAL);           /* twice */
	CHECK_RC(tg_alloc_get(a, 2 * G, 0, 4, &q), 0);
	CHECK(q == p[1], "hole not reused first-fit: %#" PRIx64, q);

	/* owner release frees all of it and merges the extents again */
	CHECK(tg_alloc_put_owner(a, 3) > 5, "owner 3 had the aligned blocks");
	CHECK(tg_alloc_put_owner(a, 3) == 0, "owner 3 twice");
	tg_alloc_put_owner(a, 1);
	tg_alloc_put_owner(a, 2);
	tg_alloc_put_owner(a, 4);
	CHECK(tg_alloc_free_bytes(a) == SIZE, "all free again: %" PRIu64, tg_alloc_free_bytes(a));
	CHECK_RC(tg_alloc_get(a, SIZE, 0, 5, &q), 0);           /* one extent again */
	CHECK(q == BASE, "whole arena");
	CHECK_RC(tg_alloc_put(a, q, 5), 0);

	/* many small ones, freed in a scattered order */
	for (unsigned i = 0; i < 64; i++)
		CHECK_RC(tg_alloc_get(a, G, 0, 6, &p[i]), 0);
	for (unsigned i = 0; i < 64; i++)
		CHECK_RC(tg_alloc_put(a, p[(i * 37) % 64], 6), 0);
	CHECK(tg_alloc_free_bytes(a) == SIZE, "scattered frees");
	CHECK_RC(tg_alloc_get(a, SIZE, 0, 7, &q), 0);
	tg_alloc_destroy(a);
	tg_alloc_destroy(NULL);
	return t_done("test_alloc");
}
