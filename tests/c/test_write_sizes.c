/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: remote writes of every size 1..64 at every alignment 0..7 land byte-exact, neighbours untouched. */
#include "../../libtg/tg_internal.h"
#include "tg_test.h"
#include "tg/tg_frame.h"

#define CELL   128u            /* one write per cell: guard bytes around it */
#define GUARD  0xe7u

int main(void)
{
	struct tg_sim *sim = t_sim(2);
	struct tg_dev *a = t_open(sim, 0, 0), *b = t_open(sim, 1, 0);
	struct tg_mr *mr = tg_mr_alloc(b, 64u * 8u * CELL, TG_ACCESS_ALL);
	uint8_t buf[64], *p;
	unsigned idx, runs = 0;
	static uint8_t strbs[200][8];

	REQUIRE(mr, "tg_mr_alloc: %s", tg_strerror(-errno));
	p = tg_mr_ptr(mr);
	/* two rounds: cells start 0 or 40 bytes into a 64-byte block, so
	 * writes both fit in one block and cross into the next */
	for (unsigned round = 0; round < 2; round++) {
		unsigned shift = round ? 40u : 0u;

		memset(p, GUARD, tg_mr_len(mr));
		idx = 0;
		for (unsigned size = 1; size <= 64; size++) {
			for (unsigned al = 0; al < 8; al++, idx++) {
				for (unsigned i = 0; i < size; i++)
					buf[i] = t_pat(idx * 131u + round, i);
				CHECK_RC(tg_write(a, 1, tg_mr_paddr(mr) + idx * CELL + shift + al,
						  buf, size), 0);
			}
		}
		CHECK_RC(tg_fence(a, 1), 0);
		idx = 0;
		for (unsigned size = 1; size <= 64; size++) {
			for (unsigned al = 0; al < 8; al++, idx++) {
				const uint8_t *c = p + idx * CELL;
				unsigned lo = shift + al, hi = lo + size, bad = 0;

				for (unsigned i = 0; i < CELL; i++) {
					uint8_t want = i >= lo && i < hi ?
						t_pat(idx * 131u + round, i - lo) : GUARD;

					if (c[i] != want && bad++ < 4)
						CHECK(0, "round %u size %u align %u: byte %u is %#x, want %#x",
						      round, size, al, i, c[i], want);
				}
			}
		}
	}
	/* raw bursts of 1..8 beats with any strobe pattern, holes and empty
	 * beats included: exactly the enabled bytes change when they are one
	 * run of bytes (the wire's form), none when they have holes, which
	 * the host port refuses as MISALIGNED */
	memset(p, GUARD, tg_mr_len(mr));
	for (idx = 0; idx < 200; idx++) {
		uint64_t data[8], w0 = tg_mr_paddr(mr) + idx * CELL;
		uint8_t strb[8];
		unsigned nb = 1 + idx % 8;

		for (unsigned k = 0; k < nb; k++) {
			data[k] = 0;
			for (unsigned i = 0; i < 8; i++)
				data[k] |= (uint64_t)t_pat(idx + 7777, 8 * k + i) << (8 * i);
			strb[k] = t_pat(idx + 9999, k);
		}
		if (idx % 2 == 0) {   /* half of them one run: bytes [lo, hi) */
			unsigned lo = t_pat(idx, 0) % (8 * nb), hi = lo + t_pat(idx, 1) % (8 * nb - lo + 1);

			for (unsigned k = 0; k < nb; k++) {
				strb[k] = 0;
				for (unsigned i = 0; i < 8; i++)
					strb[k] |= (uint8_t)((8 * k + i >= lo && 8 * k + i < hi) << i);
			}
		}
		memcpy(strbs[idx], strb, nb);
		REQUIRE(tg__mmio_write(a, tg_bar_data_addr(TG_WIN_REMOTE, 0, 1, w0), data, strb, nb) == 0,
			"burst");
	}
	CHECK_RC(tg_fence(a, 1), 0);
	CHECK_RC(tg__async_err(a), 0);
	for (idx = 0; idx < 200; idx++) {
		const uint8_t *c = p + idx * CELL;
		unsigned nb = 1 + idx % 8, bad = 0;
		uint64_t mask = 0;
		uint8_t off, cnt;

		for (unsigned i = 0; i < 8 * nb; i++)
			mask |= (uint64_t)(strbs[idx][i / 8] >> (i % 8) & 1) << i;
		runs += tg_frame_run(mask, &off, &cnt) == 0;
		for (unsigned i = 0; i < CELL; i++) {
			int on = i < 64 && (mask >> i & 1) && tg_frame_run(mask, &off, &cnt) == 0;
			uint8_t want = on ? t_pat(idx + 7777, i) : GUARD;

			if (c[i] != want && bad++ < 3)
				CHECK(0, "burst %u (%u beats): byte %u is %#x, want %#x", idx, nb, i, c[i],
				      want);
		}
	}
	/* the refusals left MISALIGNED in the context's STATUS */
	CHECK(runs > 10 && runs < 190, "%u of 200 bursts one run", runs);
	CHECK_RC(tg_ctx_status(a), -EINVAL);
	t_check_sim(sim);
	printf("cycles: %" PRIu64 ", %u of 200 raw bursts one run\n", tg_sim_cycles(sim), runs);
	tg_close(b);
	tg_close(a);
	tg_sim_destroy(sim);
	return t_done("test_write_sizes");
}
