/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* In-process attach: a device on a simulator living in the caller's process. */
#include <errno.h>
#include <stdlib.h>

#include "tg/sim.h"
#include "tg_internal.h"

struct tg_dev *tg_open_sim(struct tg_sim *sim, unsigned node, unsigned flags)
{
	struct tg_dev *dev;
	int rc;

	tg__open_fail("%s", "");
	if (!sim) {
		tg__open_fail("tg_open_sim: no simulator (NULL)");
		errno = EINVAL;
		return NULL;
	}
	if (node >= tg_sim_nodes(sim)) {
		tg__open_fail("node %u: the simulator has %u nodes, 0 to %u", node,
			      tg_sim_nodes(sim), tg_sim_nodes(sim) - 1);
		errno = ENODEV;
		return NULL;
	}
	if (!tg_sim_is_local(sim, node)) {
		tg__open_fail("node %u: another process of the split cluster hosts it "
			      "(docs/distributed.md)", node);
		errno = ENODEV;
		return NULL;
	}
	dev = calloc(1, sizeof(*dev));
	if (!dev) {
		tg__open_fail("node %u: out of memory", node);
		errno = ENOMEM;
		return NULL;
	}
	dev->ctl = __tg_sim_ctl(sim);
	dev->sim = sim;
	/* blocking calls advance the clock themselves: deterministic runs */
	dev->step = tg_sim_step;
	dev->sim_mem = tg_sim_mem;
	dev->mem = tg_sim_mem(sim, node);
	rc = tg__attach(dev, node, flags);
	if (rc) {
		tg_close(dev);
		tg__open_fail("node %u: %s", node, tg_strerror(rc));
		errno = -rc;
		return NULL;
	}
	return dev;
}
