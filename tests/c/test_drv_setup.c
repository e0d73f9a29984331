/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: the driver's spill-ring and link-layer set-up ask CONFIG what the NIC was built with: a ring or the layer asked of a NIC built without it is -EOPNOTSUPP and writes nothing; turning them off always works; a NIC whose CONFIG predates the bits is tried as before. */
#include <errno.h>
#include <stdio.h>

#include "../../driver/tg_drv.h"
#include "tg_test.h"

/* the CSR page of a NIC, as far as these calls look at it */
struct fake_csr {
	uint64_t config;
	int spill, link;   /* what it was built with */
	uint64_t spill_base, spill_cfg, link_cfg, link_rto;
	unsigned writes;
};

static int fake_read(void *arg, uint64_t addr, uint64_t *val)
{
	struct fake_csr *f = arg;

	if (addr == tg_bar_csr_addr(TG_CSR_REG_CONFIG))
		*val = f->config;
	else if (addr == tg_bar_csr_addr(TG_CSR_REG_SPILL_BASE))
		*val = f->spill_base;
	else if (addr == tg_bar_csr_addr(TG_CSR_REG_SPILL_CFG))
		*val = f->spill_cfg;
	else if (addr == tg_bar_csr_addr(TG_CSR_REG_LINK_CFG))
		*val = f->link_cfg;
	else
		return -EFAULT;
	return 0;
}

/* what tg_csr does: the spill registers hold a ring only where one is
 * built; LINK_CFG bit 32 follows bit 0 at once where the layer is built,
 * and stays 0 where it is not */
static int fake_write(void *arg, uint64_t addr, uint64_t val)
{
	struct fake_csr *f = arg;
	int spill = f->spill;
	int link = f->link;

	f->writes++;
	if (addr == tg_bar_csr_addr(TG_CSR_REG_SPILL_BASE))
		f->spill_base = spill ? (val & 0xFFFFFFFFu) : 0;
	else if (addr == tg_bar_csr_addr(TG_CSR_REG_SPILL_CFG))
		f->spill_cfg = spill ? (val & 0x1F) : 0;
	else if (addr == tg_bar_csr_addr(TG_CSR_REG_LINK_CFG))
		f->link_cfg = (val & 0xFFFFFF01u) | ((val & link) ? TG_LINK_CFG_ON : 0);
	else if (addr == tg_bar_csr_addr(TG_CSR_REG_LINK_RTO))
		f->link_rto = val;
	else
		return -EFAULT;
	return 0;
}

/* a NIC that reads `config` and was built with a ring and the layer or not */
static void run(uint64_t config, int spill, int link)
{
	struct fake_csr f = { .config = config, .spill = spill, .link = link,
			      .link_cfg = TG_LINK_CFG_RESET };
	struct tg_drv_mmio io = { fake_read, fake_write, &f };
	uint64_t ring = 0x10000;   /* 2^4 entries of 128 bytes, aligned */

	/* a ring */
	f.writes = 0;
	CHECK_RC(tg_drv_spill_setup(&io, ring, 4), spill ? 0 : -EOPNOTSUPP);
	if (spill)
		CHECK(f.spill_base == ring && f.spill_cfg == 4, "ring at %#" PRIx64 " log2 %" PRIu64,
		      f.spill_base, f.spill_cfg);
	else
		CHECK(f.writes == 0, "config %#" PRIx64 ": %u writes to a NIC without a ring",
		      config, f.writes);
	/* none: always possible */
	CHECK_RC(tg_drv_spill_setup(&io, 0, 0), 0);
	CHECK(f.spill_cfg == 0, "no ring: SPILL_CFG %#" PRIx64, f.spill_cfg);
	/* bad arguments come before the question */
	CHECK_RC(tg_drv_spill_setup(&io, ring + 8, 4), -EINVAL);
	CHECK_RC(tg_drv_spill_setup(&io, ring, TG_SPILL_MAX_LOG2 + 1), -EINVAL);

	/* the link layer */
	f.writes = 0;
	CHECK_RC(tg_drv_link_setup(&io, 1, 5000), link ? 0 : -EOPNOTSUPP);
	if (link)
		CHECK((f.link_cfg & TG_LINK_CFG_ON) && f.link_rto == 5000, "layer on: LINK_CFG %#" PRIx64,
		      f.link_cfg);
	else
		CHECK(f.writes == 0, "config %#" PRIx64 ": %u writes to a NIC without the layer",
		      config, f.writes);
	CHECK_RC(tg_drv_link_setup(&io, 0, 0), 0);
	CHECK(!(f.link_cfg & (TG_LINK_CFG_ON | TG_LINK_CFG_ENABLE)), "layer off: LINK_CFG %#" PRIx64,
	      f.link_cfg);
	/* the fields other than bit 0 are kept */
	CHECK((f.link_cfg & 0xFFFFFF00u) == TG_LINK_CFG_RESET, "LINK_CFG fields %#" PRIx64, f.link_cfg);
}

int main(void)
{
	struct tg_drv_mmio none = { NULL, NULL, NULL };

	const uint64_t blk = 64ull << 24;   /* CONFIG block bytes: a NIC that has the bits */

	run(blk | TG_CONFIG_SPILL | TG_CONFIG_LINK, 1, 1);
	run(blk | TG_CONFIG_SPILL, 1, 0);
	run(blk | TG_CONFIG_LINK, 0, 1);
	run(blk, 0, 0);
	run(16ull << 24, 0, 0);
	run(0, 1, 1);   /* CONFIG from before the bits: both were built then */
	CHECK_RC(tg_drv_spill_setup(&none, 0, 0), -EINVAL);
	CHECK_RC(tg_drv_link_setup(&none, 0, 0), -EINVAL);
	return t_done("test_drv_setup");
}
