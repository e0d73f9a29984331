/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* In-process attach: a device on a simulator living in the caller's process. */
#include <errno.h>
#include <stdlib.h>

#include "tg_internal.h"

struct tg_dev *tg_open_sim(struct tg_sim *sim, unsigned node, unsigned flags)
{
	const struct tg_simp_head *head = (const struct tg_simp_head *)sim;
	const struct tg_simp_ops *ops;
	struct tg_dev *dev;
	unsigned nodes;
	int rc;

	tg__open_fail("%s", "");
	if (!sim) {
		tg__open_fail("tg_open_sim: no simulator (NULL)");
		errno = EINVAL;
		return NULL;
	}
	if (head->magic != TG_SIMP_HEAD_MAGIC || head->version != TG_SIMP_HEAD_VERSION) {
		tg__open_fail("tg_open_sim: the simulator library (libtgsim) was built for another "
			      "version of libtg (head %#x version %u, this library wants %u)",
			      head->magic, head->version, TG_SIMP_HEAD_VERSION);
		errno = EPROTO;
		return NULL;
	}
	ops = head->ops;
	nodes = ops->nodes(sim);
	if (node >= nodes) {
		tg__open_fail("node %u: the simulator has %u nodes, 0 to %u", node, nodes,
			      nodes - 1);
		errno = ENODEV;
		return NULL;
	}
	if (!ops->is_local(sim, node)) {
		tg__open_fail("node %u: another rank of the split cluster hosts it "
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
	dev->prov = &tg__prov_sim;
	dev->ctl = ops->ctl(sim);
	dev->sim = sim;
	/* blocking calls advance the clock themselves: deterministic runs */
	dev->step = ops->step;
	dev->sim_mem = ops->mem;
	dev->mem = ops->mem(sim, node);
	rc = tg__attach(dev, node, flags);
	if (rc) {
		tg_close(dev);
		tg__open_fail("node %u: %s", node, tg_strerror(rc));
		errno = -rc;
		return NULL;
	}
	return dev;
}
