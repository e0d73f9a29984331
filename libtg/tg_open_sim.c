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

	if (!sim) {
		errno = EINVAL;
		return NULL;
	}
	if (node < tg_sim_nodes(sim) && !tg_sim_is_local(sim, node)) {
		errno = ENODEV;  /* another process of a distributed cluster hosts it */
		return NULL;
	}
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return NULL;
	dev->ctl = __tg_sim_ctl(sim);
	dev->sim = sim;
	/* blocking calls advance the clock themselves: deterministic runs */
	dev->step = tg_sim_step;
	dev->mem = tg_sim_mem(sim, node);
	rc = tg__attach(dev, node, flags);
	if (rc) {
		tg_close(dev);
		errno = -rc;
		return NULL;
	}
	return dev;
}
