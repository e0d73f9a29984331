/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: accesses beyond the target's memory size fail with a clear error and change nothing. */
#include "../../libtg/tg_internal.h"
#include "tg_test.h"

int main(void)
{
	struct tg_sim *sim = t_sim(2);
	struct tg_dev *a = t_open(sim, 0, 0), *b = t_open(sim, 1, 0);
	struct tg_dev *drv = t_open(sim, 1, TG_OPEN_DRIVER);
	struct tg_win *w = tg_win_open(a, 1);
	struct tg_mr *loc = tg_mr_alloc(a, 4096, TG_ACCESS_ALL);
	uint64_t size = tg_mem_size(a), v = 0x1234, refused0 = 0, refused1 = 0;
	uint8_t *mem = tg_sim_mem(sim, 1), tail[64], buf[16];
	uint64_t data[2] = { ~0ULL, ~0ULL };

	REQUIRE(w && loc, "setup: %s", tg_strerror(-errno));
	memcpy(tail, mem + size - sizeof(tail), sizeof(tail));
	CHECK_RC(tg_csr_read(drv, TG_CSR_REG_RX_REFUSED, &refused0), 0);

	/* the library refuses what the target would refuse silently */
	CHECK_RC(tg_write(a, 1, size, &v, 8), -EFAULT);
	CHECK_RC(tg_write(a, 1, size - 4, &v, 8), -EFAULT);
	CHECK_RC(tg_write(a, 1, (1ULL << 32) - 4, &v, 8), -ERANGE);
	CHECK_RC(tg_write(a, 1, 1ULL << 32, &v, 1), -ERANGE);
	CHECK_RC(tg_read(a, 1, 1ULL << 32, buf, 1), -ERANGE);

	/* the NIC refuses: reads answer RANGE */
	CHECK_RC(tg_read(a, 1, size, buf, 8), -EFAULT);
	CHECK_RC(tg_read(a, 1, size - 8, buf, 16), -EFAULT);   /* straddles the end */
	CHECK_RC(tg_read(a, 1, size - 8, buf, 8), 0);          /* the last word is fine */
	CHECK(tg_win_load64(w, size + 64) == ~0ULL, "window load beyond memory");
	CHECK_RC(tg_ctx_status(a), -EFAULT);
	CHECK_RC(tg_ctx_status(a), 0);                        /* cleared */

	/* the NIC refuses: writes that reach past the end change nothing */
	tg_win_store64(w, size, 0x0badc0de0badc0deULL);
	REQUIRE(tg__mmio_write(a, tg_bar_data_addr(TG_WIN_REMOTE, 0, 1, size - 8), data, NULL,
			       2) == 0, "raw burst");
	CHECK_RC(tg_fence(a, 1), -EFAULT);                    /* the reason, reported once */
	CHECK_RC(tg_fence(a, 1), 0);
	CHECK(memcmp(tail, mem + size - sizeof(tail), sizeof(tail)) == 0,
	      "memory end changed by a refused write");
	CHECK_RC(tg_csr_read(drv, TG_CSR_REG_RX_REFUSED, &refused1), 0);
	CHECK(refused1 >= refused0 + 2, "RX_REFUSED %" PRIu64 " -> %" PRIu64, refused0, refused1);

	t_check_sim(sim);
	tg_win_close(w);
	tg_close(drv);
	tg_close(b);
	tg_close(a);
	tg_sim_destroy(sim);
	return t_done("test_range");
}
