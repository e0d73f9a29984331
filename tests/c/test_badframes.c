/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: frames corrupted, lost or sent to no node change nothing, and the NIC and switch count them. */
#include "../../libtg/tg_internal.h"
#include "tg_test.h"

#define N 20u

int main(void)
{
	struct tg_sim *sim = t_sim_raw(2);
	struct tg_dev *a = t_open(sim, 0, 0), *drv = t_open(sim, 1, TG_OPEN_DRIVER);
	struct tg_mr *mr = tg_mr_alloc(drv, 4096, 0);
	uint8_t *p, zero[4096];
	uint64_t fcs0, rx0, v;
	struct tg_sim_stats st;

	REQUIRE(mr, "mr");
	p = tg_mr_ptr(mr);
	memset(zero, 0, sizeof(zero));
	fcs0 = t_csr(drv, TG_CSR_REG_RX_DROP_FCS);
	rx0 = t_csr(drv, TG_CSR_REG_RX_FRAMES);

	/* every frame corrupted: the target's FCS check drops them all */
	REQUIRE(tg_sim_set_faults(sim, 0, 100) == 0, "faults");
	for (uint64_t k = 0; k < N; k++) {
		v = ~k;
		CHECK_RC(tg_write(a, 1, tg_mr_paddr(mr) + 8 * k, &v, 8), 0);
	}
	tg_sim_step(sim, 20000);   /* no fence: its request would be lost too */
	CHECK(memcmp(p, zero, sizeof(zero)) == 0, "a corrupted frame changed memory");
	CHECK(t_csr(drv, TG_CSR_REG_RX_DROP_FCS) == fcs0 + N, "RX_DROP_FCS %" PRIu64 ", want %" PRIu64,
	      t_csr(drv, TG_CSR_REG_RX_DROP_FCS), fcs0 + N);
	CHECK(t_csr(drv, TG_CSR_REG_RX_FRAMES) == rx0, "corrupted frames accepted");

	/* every frame lost */
	REQUIRE(tg_sim_set_faults(sim, 100, 0) == 0, "faults");
	for (uint64_t k = 0; k < N; k++)
		CHECK_RC(tg_write(a, 1, tg_mr_paddr(mr) + 8 * k, &k, 8), 0);
	tg_sim_step(sim, 20000);
	CHECK(memcmp(p, zero, sizeof(zero)) == 0, "a lost frame changed memory");
	CHECK(t_csr(drv, TG_CSR_REG_RX_FRAMES) == rx0, "lost frames arrived");

	/* to a node that does not exist: the switch drops and counts it */
	v = 1;
	REQUIRE(tg_sim_set_faults(sim, 0, 0) == 0, "faults");
	REQUIRE(tg__mmio_write(a, tg_bar_data_addr(TG_WIN_REMOTE, 0, 5, tg_mr_paddr(mr)), &v, NULL,
			       1) == 0, "post");
	tg_sim_step(sim, 2000);

	/* the network heals: the next write and fence go through */
	v = 0x600d600d600d600dULL;
	CHECK_RC(tg_write(a, 1, tg_mr_paddr(mr), &v, 8), 0);
	CHECK_RC(tg_fence(a, 1), 0);
	CHECK(memcmp(p, &v, 8) == 0 && memcmp(p + 8, zero, 64) == 0, "write after the faults");
	REQUIRE(tg_sim_get_stats(sim, TG_SIM_ALL_NODES, &st) == 0, "stats");
	CHECK(st.corrupt_injected == N && st.drop_injected == N && st.drop_unknown == 1,
	      "switch counted %" PRIu64 " corrupted, %" PRIu64 " lost, %" PRIu64 " unknown",
	      st.corrupt_injected, st.drop_injected, st.drop_unknown);
	t_check_sim(sim);
	tg_close(drv);
	tg_close(a);
	tg_sim_destroy(sim);
	return t_done("test_badframes");
}
