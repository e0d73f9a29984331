/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: every public call refuses bad arguments before anything reaches the NIC. */
#include "tg_test.h"

int main(void)
{
	struct tg_sim *sim = t_sim(2);
	struct tg_dev *a = t_open(sim, 0, 0);
	struct tg_mr *mr = tg_mr_alloc(a, 4096, TG_ACCESS_ALL);
	struct tg_sim_stats st0, st1;
	uint8_t buf[64];
	uint64_t v;

	REQUIRE(mr, "tg_mr_alloc");
	REQUIRE(tg_sim_get_stats(sim, TG_SIM_ALL_NODES, &st0) == 0, "stats");

	CHECK(tg_open(NULL, 0) == NULL && errno == EINVAL, "tg_open(NULL)");
	CHECK(tg_open_sim(NULL, 0, 0) == NULL && errno == EINVAL, "tg_open_sim(NULL)");
	CHECK(tg_open_sim(sim, 0, 0x80) == NULL && errno == EINVAL, "bad flags");
	tg_close(NULL);
	CHECK(tg_node_id(NULL) == -EINVAL && tg_num_nodes(NULL) == -EINVAL &&
	      tg_context(NULL) == -EINVAL && tg_mem_size(NULL) == 0 && tg_block_bytes(NULL) == 0,
	      "getters on NULL");
	CHECK_RC(tg_csr_read(NULL, TG_CSR_REG_ID, &v), -EINVAL);
	CHECK_RC(tg_csr_read(a, TG_CSR_REG_ID, NULL), -EPERM);
	CHECK_RC(tg_csr_read(a, 3, &v), -EINVAL);
	CHECK_RC(tg_csr_read(a, TG_PAGE_SIZE, &v), -EINVAL);
	CHECK_RC(tg_csr_write(a, TG_CSR_REG_SCRATCH, 1), -EPERM);
	CHECK_RC(tg_csr_write(NULL, TG_CSR_REG_SCRATCH, 1), -EINVAL);
	CHECK_RC(tg_ctx_status(NULL), -EINVAL);

	CHECK(tg_mr_alloc(NULL, 4096, 0) == NULL && errno == EINVAL, "mr_alloc(NULL)");
	CHECK(tg_mr_alloc(a, 0, 0) == NULL && errno == EINVAL, "mr_alloc(len 0)");
	CHECK(tg_mr_alloc(a, 4096, 0x100) == NULL && errno == EINVAL, "mr_alloc(bad access)");
	CHECK(tg_mr_alloc(a, tg_mem_size(a), 0) == NULL && errno == ENOMEM, "mr_alloc(too big)");
	CHECK(tg_mr_ptr(NULL) == NULL && tg_mr_paddr(NULL) == 0 && tg_mr_len(NULL) == 0 &&
	      tg_mr_access(NULL) == 0, "mr getters on NULL");
	tg_mr_free(NULL);

	CHECK_RC(tg_write(NULL, 1, 0x1000, buf, 8), -EINVAL);
	CHECK_RC(tg_write(a, 1, 0x1000, NULL, 8), -EINVAL);
	CHECK_RC(tg_write(a, 1, 0x1000, buf, 0), -EINVAL);
	CHECK_RC(tg_write(a, 2, 0x1000, buf, 8), -EINVAL);
	CHECK_RC(tg_write(a, 1, UINT64_MAX - 2, buf, 8), -ERANGE);  /* wraps */
	CHECK_RC(tg_read(NULL, 1, 0x1000, buf, 8), -EINVAL);
	CHECK_RC(tg_read(a, 1, 0x1000, NULL, 8), -EINVAL);
	CHECK_RC(tg_read(a, 1, 0x1000, buf, 0), -EINVAL);
	CHECK_RC(tg_read(a, 7, 0x1000, buf, 8), -EINVAL);
	CHECK_RC(tg_read(a, 1, UINT64_MAX, buf, 2), -ERANGE);
	CHECK_RC(tg_fence(NULL, 1), -EINVAL);
	CHECK_RC(tg_fence(a, 2), -EINVAL);
	CHECK_RC(tg_fetch(NULL, 1, 0, mr, 0, 8, mr, 64), -EINVAL);
	CHECK_RC(tg_fetch(a, 1, 0, NULL, 0, 8, mr, 64), -EINVAL);
	CHECK_RC(tg_fetch(a, 1, 0, mr, 0, 8, NULL, 64), -EINVAL);
	CHECK_RC(tg_fetch(a, 1, UINT64_MAX - 7, mr, 0, 8, mr, 64), -ERANGE);
	CHECK_RC(tg_fetch_test(NULL, mr, 0), -EINVAL);
	CHECK_RC(tg_fetch_test(a, NULL, 0), -EINVAL);
	CHECK_RC(tg_fetch_test(a, mr, 3), -EINVAL);
	CHECK_RC(tg_fetch_wait(a, mr, 4096), -EINVAL);
	CHECK(tg_win_open(NULL, 0) == NULL && errno == EINVAL, "win_open(NULL)");
	CHECK(tg_win_open(a, 2) == NULL && errno == EINVAL, "win_open(bad node)");
	tg_win_close(NULL);
	CHECK_RC(tg_win_error(NULL), -EINVAL);
	CHECK_RC(tg_sim_mem_read(NULL, 1, 0, buf, 8), -EINVAL);
	CHECK_RC(tg_sim_mem_read(a, 1, 0, NULL, 8), -EINVAL);
	CHECK_RC(tg_sim_mem_read(a, 2, 0, buf, 8), -EINVAL);
	CHECK_RC(tg_sim_mem_read(a, 1, tg_mem_size(a) - 4, buf, 8), -EFAULT);
	CHECK_RC(tg_sim_mem_read(a, 1, UINT64_MAX, buf, 2), -EFAULT);
	CHECK_RC(tg_sim_mem_read(a, 1, tg_mem_size(a), buf, 0), 0);
	CHECK_RC(tg_queue_error(NULL), -EINVAL);
	CHECK_RC(tg_queue_set_deq_hook(NULL, NULL, NULL), -EINVAL);

	/* none of it reached a host port */
	REQUIRE(tg_sim_get_stats(sim, TG_SIM_ALL_NODES, &st1) == 0, "stats");
	CHECK(st1.host_reads == st0.host_reads && st1.host_writes == st0.host_writes,
	      "bad arguments reached the NIC: reads %" PRIu64 "->%" PRIu64 ", writes %" PRIu64
	      "->%" PRIu64, st0.host_reads, st1.host_reads, st0.host_writes, st1.host_writes);

	/* a node's memory read past the NIC: what a remote write put there */
	{
		uint64_t w = 0x0123456789abcdefULL, got[2] = { 1, 1 };

		CHECK_RC(tg_write(a, 1, 0x2000, &w, 8), 0);
		CHECK_RC(tg_fence(a, 1), 0);
		CHECK_RC(tg_sim_mem_read(a, 1, 0x2000, got, 16), 0);
		CHECK(got[0] == w && got[1] == 0, "node 1 holds %#" PRIx64 " %#" PRIx64, got[0],
		      got[1]);
		CHECK(!memcmp(tg_sim_mem(sim, 1) + 0x2000, got, 16), "differs from tg_sim_mem");
	}

	/* the simulator's own checks: a context page of another context */
	{
		struct tg_win *w = tg_win_open(a, 1);

		REQUIRE(w, "win");
		tg_win_store64(w, 0, 1);  /* paddr 0 is fine for the window */
		tg_win_close(w);
	}
	CHECK(strcmp(tg_strerror(-EFAULT), tg_strerror(-EPROTO)) != 0, "strerror");
	CHECK(tg_strerror(-12345) != NULL, "strerror of an unknown value");
	tg_mr_free(mr);
	tg_close(a);
	tg_sim_destroy(sim);
	return t_done("test_badargs");
}
