/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: the simulator keeps clients to the host-port rules and to their own context. */
#include "../../libtg/tg_internal.h"
#include "tg_test.h"

int main(void)
{
	struct tg_sim *sim = t_sim(2);
	struct tg_dev *a = t_open(sim, 0, 0), *b = t_open(sim, 0, 0);
	struct tg_dev *drv = t_open(sim, 0, TG_OPEN_DRIVER);
	struct tg_mr *mr = tg_mr_alloc(a, 4096, 0);
	uint64_t v, herr0, herr1, data[2] = { 1, 2 };
	unsigned ca = (unsigned)tg_context(a), cb = (unsigned)tg_context(b);
	struct tg_sim_stats st;

	REQUIRE(mr, "mr");
	CHECK(ca != cb, "two clients share context %u", ca);
	CHECK_RC(tg_csr_read(drv, TG_CSR_REG_HOST_ERRORS, &herr0), 0);

	/* host-port rules: refused before the NIC */
	CHECK_RC(tg__mmio_read(a, tg_bar_csr_addr(TG_CSR_REG_ID) + 4, &v), -EINVAL);
	CHECK_RC(tg__mmio_read(a, tg_bar_data_addr(TG_WIN_FAA, ca, 1, 0x1004), &v), -EINVAL);
	CHECK_RC(tg__mmio_read(a, 1ULL << TG_BAR_ADDR_BITS, &v), -EINVAL);
	/* a burst crossing a 64-byte block: posted, so the error comes later */
	REQUIRE(tg__mmio_write(a, tg_bar_data_addr(TG_WIN_REMOTE, ca, 1, 0x2038), data, NULL, 2) == 0,
		"post");
	CHECK_RC(tg_fence(a, 1), 0);
	CHECK_RC(tg__async_err(a), -EINVAL);
	CHECK_RC(tg__async_err(a), 0);

	/* rights: only the own context page, the CSR page for drivers only */
	CHECK_RC(tg__mmio_read(a, tg_bar_ctx_addr(cb, TG_CTX_REG_STATUS), &v), -EPERM);
	CHECK_RC(tg__mmio_read(a, tg_bar_ctx_addr(ca, TG_CTX_REG_STATUS), &v), 0);
	CHECK_RC(tg__mmio_read(a, tg_bar_csr_addr(TG_CSR_REG_CYCLES), &v), -EPERM);
	CHECK_RC(tg__mmio_read(a, tg_bar_csr_addr(TG_CSR_REG_ID), &v), 0);
	CHECK(tg_check_id(v) == 0, "ID through the ring");
	REQUIRE(tg__mmio_write(a, tg_bar_csr_addr(TG_CSR_REG_MEM_SIZE), data, NULL, 1) == 0, "post");
	CHECK_RC(tg_fence(a, 1), 0);
	CHECK_RC(tg__async_err(a), -EPERM);
	CHECK_RC(tg_csr_read(drv, TG_CSR_REG_MEM_SIZE, &v), 0);
	CHECK(v == tg_mem_size(a), "a client changed MEM_SIZE to %" PRIu64, v);
	CHECK_RC(tg__mmio_read(drv, tg_bar_ctx_addr(ca, TG_CTX_REG_STATUS), &v), -EPERM);

	/* data windows carry the client's own context whatever it writes
	 * there: a failing read through b's context field lands in a's STATUS */
	CHECK_RC(tg__mmio_read(a, tg_bar_data_addr(TG_WIN_REMOTE, cb, 1, tg_mem_size(a)), &v), 0);
	CHECK(v == ~0ULL, "refused read answered %#" PRIx64, v);
	CHECK_RC(tg_ctx_status(b), 0);
	CHECK_RC(tg_ctx_status(a), -EFAULT);

	/* nothing the simulator refused reached the NIC */
	CHECK_RC(tg_csr_read(drv, TG_CSR_REG_HOST_ERRORS, &herr1), 0);
	CHECK(herr1 == herr0, "HOST_ERRORS %" PRIu64 " -> %" PRIu64, herr0, herr1);
	tg_sim_get_stats(sim, 0, &st);
	CHECK(st.host_rejects == 8, "%" PRIu64 " requests refused, want 8", st.host_rejects);
	t_check_sim(sim);
	tg_close(drv);
	tg_close(b);
	tg_close(a);
	tg_sim_destroy(sim);
	return t_done("test_guard");
}
