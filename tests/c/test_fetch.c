/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: non-blocking fetches with completion words, many in flight, and their argument rules. */
#include "tg_test.h"

#define NFETCH  48u
#define CELL    128u
#define GUARD   0x5au

int main(void)
{
	struct tg_sim *sim = t_sim(2);
	struct tg_dev *a = t_open(sim, 0, 0), *b = t_open(sim, 1, 0);
	struct tg_mr *src = tg_mr_alloc(b, 8192, TG_ACCESS_ALL);
	struct tg_mr *dst = tg_mr_alloc(a, NFETCH * CELL, TG_ACCESS_ALL);
	struct tg_mr *cpl = tg_mr_alloc(a, 4096, TG_ACCESS_ALL);
	uint64_t spa, roff[NFETCH];
	size_t len[NFETCH];
	uint8_t *s, *d;
	int rc;

	REQUIRE(src && dst && cpl, "tg_mr_alloc: %s", tg_strerror(-errno));
	s = tg_mr_ptr(src);
	d = tg_mr_ptr(dst);
	spa = tg_mr_paddr(src);
	for (unsigned i = 0; i < 8192; i++)
		s[i] = t_pat(3, i);
	memset(d, GUARD, NFETCH * CELL);

	/* many in flight: all doorbells first (the NIC holds further doorbells
	 * while MAX_READS are outstanding), then the completions */
	for (unsigned k = 0; k < NFETCH; k++) {
		uint64_t blk = (uint64_t)(k * 7u % 120u) * 64u;
		unsigned lo = (k * 13u) % 64u;

		len[k] = 1 + (k * 29u) % (64u - lo);
		roff[k] = blk + lo;
		/* local offset: same address modulo 8 as the remote one */
		CHECK_RC(tg_fetch(a, 1, spa + roff[k], dst, k * CELL + (roff[k] & 7u), len[k], cpl,
				  8u * k), 0);
	}
	CHECK_RC(tg_fetch_test(a, cpl, 0), -EAGAIN);  /* nothing has run yet */
	for (unsigned k = 0; k < NFETCH; k++) {
		const uint8_t *c = d + k * CELL;
		unsigned lo = (unsigned)(roff[k] & 7u), bad = 0;

		CHECK_RC(tg_fetch_wait(a, cpl, 8u * k), 0);
		for (unsigned i = 0; i < CELL; i++) {
			uint8_t want = i >= lo && i < lo + len[k] ? s[roff[k] + i - lo] : GUARD;

			if (c[i] != want && bad++ < 3)
				CHECK(0, "fetch %u (len %zu): byte %u is %#x, want %#x", k, len[k], i,
				      c[i], want);
		}
		CHECK_RC(tg_fetch_test(a, cpl, 8u * k), 0);
	}

	/* two contexts of one node with fetches in flight at once: each
	 * context's FETCH registers and completion words stay its own */
	{
		struct tg_dev *c = t_open(sim, 0, 0);
		struct tg_mr *cd = tg_mr_alloc(c, 16 * CELL, 0), *cc = tg_mr_alloc(c, 4096, 0);

		REQUIRE(cd && cc, "second context's regions");
		memset(d, GUARD, 16 * CELL);
		memset(tg_mr_ptr(cd), GUARD, 16 * CELL);
		for (unsigned k = 0; k < 16; k++) {
			struct tg_dev *who = k % 2 ? c : a;
			struct tg_mr *m = k % 2 ? cd : dst, *w = k % 2 ? cc : cpl;

			CHECK_RC(tg_fetch(who, 1, spa + 64u * k + 8u, m, k * CELL, 56, w, 8u * k), 0);
		}
		for (unsigned k = 0; k < 16; k++) {
			struct tg_dev *who = k % 2 ? c : a;
			const uint8_t *m = k % 2 ? tg_mr_ptr(cd) : d;

			CHECK_RC(tg_fetch_wait(who, k % 2 ? cc : cpl, 8u * k), 0);
			CHECK(memcmp(m + k * CELL, s + 64u * k + 8u, 56) == 0 &&
			      m[k * CELL + 56] == GUARD, "fetch %u of context %d", k, tg_context(who));
		}
		tg_close(c);
	}

	/* rules checked before anything is sent */
	CHECK_RC(tg_fetch(a, 1, spa + 1, dst, 0, 8, cpl, 0), -EINVAL);     /* (r ^ l) & 7 */
	CHECK_RC(tg_fetch(a, 1, spa + 60, dst, 4, 8, cpl, 0), -EINVAL);    /* crosses a block */
	CHECK_RC(tg_fetch(a, 1, spa, dst, 0, 65, cpl, 0), -EINVAL);        /* too long */
	CHECK_RC(tg_fetch(a, 1, spa, dst, 0, 0, cpl, 0), -EINVAL);         /* empty */
	CHECK_RC(tg_fetch(a, 1, spa, dst, 0, 8, cpl, 4), -EINVAL);         /* cpl alignment */
	CHECK_RC(tg_fetch(a, 1, spa, dst, NFETCH * CELL - 4, 8, cpl, 0), -EINVAL); /* past mr */
	CHECK_RC(tg_fetch(a, 1, spa, dst, 0, 8, cpl, 4096), -EINVAL);      /* cpl past mr */
	CHECK_RC(tg_fetch(a, 2, spa, dst, 0, 8, cpl, 0), -EINVAL);         /* no node 2 */
	CHECK_RC(tg_fetch(a, 1, spa, src, 0, 8, cpl, 0), -EINVAL);         /* other dev's mr */

	/* outside the target's memory: the NIC answers RANGE in the word */
	CHECK_RC(tg_fetch(a, 1, tg_mem_size(a), dst, 0, 8, cpl, 0), 0);
	rc = tg_fetch_wait(a, cpl, 0);
	CHECK(rc == -EFAULT, "fetch beyond memory: %d (%s)", rc, tg_strerror(rc));

	t_check_sim(sim);
	tg_close(b);
	tg_close(a);
	tg_sim_destroy(sim);
	return t_done("test_fetch");
}
