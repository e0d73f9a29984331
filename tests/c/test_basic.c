/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: a two-node cluster comes up, identifies itself, and moves one word each way. */
#include "tg_test.h"

int main(void)
{
	struct tg_sim *sim = t_sim(2);
	struct tg_dev *a = t_open(sim, 0, TG_OPEN_DRIVER), *b = t_open(sim, 1, 0);
	struct tg_mr *mr = tg_mr_alloc(b, 4096, TG_ACCESS_ALL);
	uint64_t v = 0, id = 0;
	uint32_t khz;
	uint8_t *p;
	struct tg_sim_config def;

	REQUIRE(mr, "tg_mr_alloc: %s", tg_strerror(-errno));
	/* the defaults: the board's core clock, with Gigabit Ethernet links (a
	 * byte every 8 ns) */
	tg_sim_config_init(&def);
	CHECK(def.ps_per_cycle == TG_BOARD_CORE_PS && def.link_bytes_per_cycle * 8000u ==
	      def.ps_per_cycle && def.link_latency == TG_BOARD_CABLE_CYCLES,
	      "default %u ps a cycle, %u bytes a cycle, %u cycles of cable", def.ps_per_cycle,
	      def.link_bytes_per_cycle, def.link_latency);
	p = tg_mr_ptr(mr);
	CHECK(tg_check_id(tg_nic_id(a)) == 0, "id %#" PRIx64, tg_nic_id(a));
	CHECK_RC(tg_csr_read(a, TG_CSR_REG_ID, &id), 0);
	CHECK(id == tg_nic_id(a), "CSR ID %#" PRIx64 " vs %#" PRIx64, id, tg_nic_id(a));
	CHECK_RC(tg_csr_read(a, TG_CSR_REG_NODE_ID, &v), 0);
	CHECK(v == 0, "node id %" PRIu64, v);
	CHECK_RC(tg_csr_read(a, TG_CSR_REG_MEM_SIZE, &v), 0);
	CHECK(v == tg_mem_size(a), "MEM_SIZE %" PRIu64, v);
	CHECK_RC(tg_csr_read(a, TG_CSR_REG_CONFIG, &v), 0);
	CHECK(tg_block_bytes(a) == ((v >> 24) & 0xFF) && tg_block_bytes(a) == 64,
	      "block %u bytes, CONFIG %#" PRIx64, tg_block_bytes(a), v);
	CHECK(tg_block_bytes(b) == 64, "block %u bytes at node 1", tg_block_bytes(b));
	/* the clock: the simulator's default period, the board's core clock
	 * (24 ns on the Colorlight); any client reads it */
	CHECK_RC(tg_csr_read(a, TG_CSR_REG_CLOCK_KHZ, &v), 0);
	khz = (uint32_t)((1000000000ull + TG_BOARD_CORE_PS / 2) / TG_BOARD_CORE_PS);
	CHECK(v == khz && tg_clock_khz(a) == khz && tg_clock_khz(b) == khz,
	      "CLOCK_KHZ %" PRIu64 ", %u and %u kHz", v, tg_clock_khz(a), tg_clock_khz(b));
	CHECK_RC(tg_csr_read(b, TG_CSR_REG_ID, &v), -EPERM);
	CHECK(tg_node_id(b) == 1 && tg_num_nodes(b) == 2, "node %d of %d", tg_node_id(b),
	      tg_num_nodes(b));

	v = 0x0123456789abcdefULL;
	CHECK_RC(tg_write(a, 1, tg_mr_paddr(mr) + 8, &v, 8), 0);
	CHECK_RC(tg_fence(a, 1), 0);
	CHECK(memcmp(p + 8, &v, 8) == 0, "remote write not in target memory");
	v = 0;
	CHECK_RC(tg_read(a, 1, tg_mr_paddr(mr) + 8, &v, 8), 0);
	CHECK(v == 0x0123456789abcdefULL, "read back %#" PRIx64, v);
	printf("cycles: %" PRIu64 "\n", tg_sim_cycles(sim));
	t_check_sim(sim);
	tg_mr_free(mr);
	tg_close(b);
	tg_close(a);
	tg_sim_destroy(sim);

	/* a simulation at another clock: 125 MHz, 8 ns a cycle */
	{
		struct tg_sim_config cfg;

		t_config(&cfg, 2);
		cfg.ps_per_cycle = 8000;
		sim = tg_sim_create(&cfg);
		REQUIRE(sim, "tg_sim_create: %s", strerror(errno));
		b = t_open(sim, 1, 0);
		CHECK(tg_clock_khz(b) == 125000, "%u kHz at 8 ns a cycle", tg_clock_khz(b));
		tg_close(b);
		tg_sim_destroy(sim);
	}
	return t_done("test_basic");
}
