/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: a 16-node cluster where every node writes to (and reads from) every other node. */
#include "tg_test.h"

#define NODES  16u
#define SLICE  64u

int main(void)
{
	struct tg_sim_config cfg;
	struct tg_sim *sim;
	struct tg_dev *d[NODES];
	struct tg_mr *mr[NODES];
	uint8_t buf[SLICE];

	t_config(&cfg, NODES);
	cfg.mem_size = 1ULL << 20;
	sim = tg_sim_create(&cfg);
	REQUIRE(sim, "tg_sim_create(16 nodes): %s", strerror(errno));
	for (unsigned n = 0; n < NODES; n++) {
		d[n] = t_open(sim, n, 0);
		mr[n] = tg_mr_alloc(d[n], NODES * SLICE, 0);
		REQUIRE(mr[n], "mr on node %u", n);
	}
	/* node s writes slice s of every other node's region; all writes are
	 * posted before any fence, so the switch carries them concurrently */
	for (unsigned s = 0; s < NODES; s++) {
		for (unsigned t = 0; t < NODES; t++) {
			if (t == s)
				continue;
			for (unsigned i = 0; i < SLICE; i++)
				buf[i] = t_pat(s * NODES + t, i);
			CHECK_RC(tg_write(d[s], t, tg_mr_paddr(mr[t]) + s * SLICE, buf, SLICE), 0);
		}
	}
	for (unsigned s = 0; s < NODES; s++)
		for (unsigned t = 0; t < NODES; t++)
			if (t != s)
				CHECK_RC(tg_fence(d[s], t), 0);
	for (unsigned t = 0; t < NODES; t++) {
		const uint8_t *p = tg_mr_ptr(mr[t]);

		for (unsigned s = 0; s < NODES; s++) {
			unsigned bad = 0;

			for (unsigned i = 0; i < SLICE; i++)
				bad += p[s * SLICE + i] != (s == t ? 0 : t_pat(s * NODES + t, i));
			CHECK(bad == 0, "node %u, slice of node %u: %u bytes wrong", t, s, bad);
		}
	}
	/* each node reads back what its neighbour wrote into node n+2 */
	for (unsigned s = 0; s < NODES; s++) {
		unsigned w = (s + 1) % NODES, t = (s + 2) % NODES;

		CHECK_RC(tg_read(d[s], t, tg_mr_paddr(mr[t]) + w * SLICE, buf, SLICE), 0);
		for (unsigned i = 0; i < SLICE; i++)
			if (buf[i] != t_pat(w * NODES + t, i)) {
				CHECK(0, "node %u reading node %u: byte %u", s, t, i);
				break;
			}
	}
	/* incast: all other nodes write 2 KiB each into node 0 at once */
	{
		struct tg_mr *big = tg_mr_alloc(d[0], NODES * 2048, 0);
		uint8_t chunk[2048];

		REQUIRE(big, "incast region");
		for (unsigned off = 0; off < sizeof(chunk); off += 256)
			for (unsigned s = 1; s < NODES; s++) {
				for (unsigned i = 0; i < 256; i++)
					chunk[off + i] = t_pat(500 + s, off + i);
				CHECK_RC(tg_write(d[s], 0, tg_mr_paddr(big) + s * 2048 + off,
						  chunk + off, 256), 0);
			}
		for (unsigned s = 1; s < NODES; s++)
			CHECK_RC(tg_fence(d[s], 0), 0);
		for (unsigned s = 1; s < NODES; s++) {
			const uint8_t *p = (const uint8_t *)tg_mr_ptr(big) + s * 2048;
			unsigned bad = 0;

			for (unsigned i = 0; i < 2048; i++)
				bad += p[i] != t_pat(500 + s, i);
			CHECK(bad == 0, "incast from node %u: %u bytes wrong", s, bad);
		}
	}
	t_check_sim(sim);
	{
		struct tg_sim_stats st;

		tg_sim_get_stats(sim, TG_SIM_ALL_NODES, &st);
		CHECK(st.drop_unknown == 0, "%" PRIu64 " frames to unknown nodes", st.drop_unknown);
		printf("%" PRIu64 " cycles, %" PRIu64 " frames\n", tg_sim_cycles(sim), st.tx_frames);
	}
	for (unsigned n = 0; n < NODES; n++)
		tg_close(d[n]);
	tg_sim_destroy(sim);
	return t_done("test_16node");
}
