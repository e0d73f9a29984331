/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: opening devices: bad strings, no simulator, full context table, identity check; the reasons tg_open_error gives. */
#include <unistd.h>

#include "tg/tg_barrier.h"
#include "tg/tg_sim_proto.h"
#include "tg_test.h"

int main(void)
{
	struct tg_sim *sim = t_sim(2);
	struct tg_dev *d[TG_SIMP_CTX_SLOTS + 1];
	char name[96];
	unsigned n;

	t_bad_open("", EINVAL, "is not a device: sim:NODE");
	t_bad_open("pci:0", EINVAL, "not a PCI address");
	t_bad_open("sim:", EINVAL, "is not a device");
	t_bad_open("sim:x:", EINVAL, NULL);
	t_bad_open("sim::0", EINVAL, NULL);
	t_bad_open("sim:a/b:0", EINVAL, NULL);
	t_bad_open("sim:-1", EINVAL, NULL);
	t_bad_open("sim:1x", EINVAL, NULL);
	t_bad_open("sim:99999999999", EINVAL, NULL);
	snprintf(name, sizeof(name), "sim:no-such-sim-%d:0", (int)getpid());
	t_bad_open(name, ENXIO, "no simulator named 'no-such-sim-");
	CHECK(tg_open(NULL, 0) == NULL && errno == EINVAL &&
	      strstr(tg_open_error(), "(null)"), "NULL: %s", tg_open_error());

	/* identity: magic and major must match, minor may differ */
	CHECK_RC(tg_check_id(TG_ID_MAGIC << 32 | TG_VERSION_MAJOR << 16 | TG_VERSION_MINOR), 0);
	CHECK_RC(tg_check_id(TG_ID_MAGIC << 32 | TG_VERSION_MAJOR << 16 | 0x7777), 0);
	CHECK_RC(tg_check_id((TG_ID_MAGIC ^ 1) << 32 | TG_VERSION_MAJOR << 16), -EPROTO);
	CHECK_RC(tg_check_id(TG_ID_MAGIC << 32 | (TG_VERSION_MAJOR + 1) << 16), -EPROTO);
	CHECK_RC(tg_check_id(0), -EPROTO);

	/* no such node */
	CHECK(tg_open_sim(sim, 2, 0) == NULL && errno == ENODEV &&
	      !strcmp(tg_open_error(), "node 2: the simulator has 2 nodes, 0 to 1"), "node 2 of 2: %s",
	      tg_open_error());
	CHECK(tg_open_sim(NULL, 0, 0) == NULL && errno == EINVAL && tg_open_error()[0],
	      "no simulator");

	/* every context once, then one too many */
	for (n = 0; n < TG_SIMP_CTX_SLOTS; n++) {
		d[n] = tg_open_sim(sim, 1, 0);
		CHECK(d[n] != NULL, "context %u: %s", n, tg_strerror(-errno));
		if (d[n])
			CHECK(tg_check_id(tg_nic_id(d[n])) == 0, "ID read at open");
	}
	d[n] = tg_open_sim(sim, 1, 0);
	CHECK(!d[n] && errno == EBUSY && strstr(tg_open_error(), "node 1: "), "17th context: %s (%s)",
	      d[n] ? "opened" : tg_strerror(-errno), tg_open_error());
	tg_close(d[n]);
	CHECK(tg_sim_clients(sim) == TG_SIMP_CTX_SLOTS, "%u clients", tg_sim_clients(sim));
	/* the other node's contexts are separate */
	d[n] = tg_open_sim(sim, 0, 0);
	CHECK(d[n] != NULL && !tg_open_error()[0], "node 0 while node 1 is full");
	tg_close(d[n]);
	/* a freed context can be taken again, with its memory released */
	{
		int ctx = tg_context(d[5]);
		struct tg_mr *mr = tg_mr_alloc(d[5], 1 << 20, 0);
		struct tg_dev *again;

		CHECK(mr != NULL, "mr");
		tg_close(d[5]);
		again = tg_open_sim(sim, 1, 0);
		CHECK(again && tg_context(again) == ctx, "reopen took context %d, want %d",
		      again ? tg_context(again) : -1, ctx);
		d[5] = again;
	}
	for (n = 0; n < TG_SIMP_CTX_SLOTS; n++)
		tg_close(d[n]);
	CHECK(tg_sim_clients(sim) == 0, "%u clients after closing all", tg_sim_clients(sim));
	tg_sim_destroy(sim);
	return t_done("test_open");
}
