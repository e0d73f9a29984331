/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: the driver's spill-ring, link-layer and region-table set-up ask CONFIG what the NIC was built with: a ring, the layer or protection asked of a NIC built without it is -EOPNOTSUPP and writes nothing; turning them off always works; without a region table nothing exports; a NIC whose CONFIG predates the bits is tried as before. */
#include <errno.h>
#include <stdio.h>

#include "tgdrv/tg_drv.h"
#include "tg_test.h"

/* the CSR page of a NIC, as far as these calls look at it */
struct fake_csr {
	uint64_t config;
	int spill, link, prot;   /* what it was built with */
	uint64_t spill_base, spill_cfg, link_cfg, link_rto, prot_cfg;
	unsigned rcfg_valid;     /* region entries written valid */
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
	else if (addr == tg_bar_csr_addr(TG_CSR_REG_PROT_CFG))
		*val = f->prot_cfg;
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
	else if (addr == tg_bar_csr_addr(TG_CSR_REG_PROT_CFG))
		f->prot_cfg = f->prot ? (val & TG_PROT_CFG_ENABLE) : 0;
	else if (addr == tg_bar_csr_addr(TG_CSR_REG_RCFG))
		f->rcfg_valid += f->prot && (val & TG_RCFG_VALID);
	else if (addr != tg_bar_csr_addr(TG_CSR_REG_RSEL) && addr != tg_bar_csr_addr(TG_CSR_REG_RBASE) &&
		 addr != tg_bar_csr_addr(TG_CSR_REG_RLEN) && addr != tg_bar_csr_addr(TG_CSR_REG_RKEY))
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

/* the region table of a NIC that reads `config` and has one or not */
static void run_prot(uint64_t config, int prot)
{
	struct fake_csr f = { .config = config, .prot = prot };
	struct tg_drv_mmio io = { fake_read, fake_write, &f };
	struct tg_drv_rtable t;
	uint64_t key = 0;

	CHECK_RC(tg_drv_prot_setup(&io, &t, 4, 1), prot ? 0 : -EOPNOTSUPP);
	if (prot)
		CHECK(f.prot_cfg == TG_PROT_CFG_ENABLE && f.writes == 9, "protection on: PROT_CFG %#" PRIx64
		      " after %u writes", f.prot_cfg, f.writes);
	else
		CHECK(f.writes == 0, "config %#" PRIx64 ": %u writes to a NIC without a region table",
		      config, f.writes);
	/* off: always possible; the shadow then has the NIC's entries */
	CHECK_RC(tg_drv_prot_setup(&io, &t, 4, 0), 0);
	CHECK(f.prot_cfg == 0 && t.n == (prot ? 4u : 0u), "protection off: PROT_CFG %#" PRIx64 ", %u entries",
	      f.prot_cfg, t.n);
	CHECK_RC(tg_drv_region_export(&io, &t, 0x1000, 0x100, TG_RIGHT_READ, 1, &key), prot ? 0 : -EOPNOTSUPP);
	CHECK(f.rcfg_valid == (prot ? 1u : 0u) && (key != 0) == !!prot, "export: %u entries made valid, key %#"
	      PRIx64, f.rcfg_valid, key);
	/* bad arguments come before the question */
	CHECK_RC(tg_drv_region_export(&io, &t, 0x1000, 0, TG_RIGHT_READ, 1, &key), -EINVAL);
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
	run_prot(blk, 1);
	run_prot(16ull << 24 | TG_CONFIG_NO_PROT, 0);
	run_prot(TG_CONFIG_NO_PROT, 1);   /* the bit means nothing in a CONFIG without block bytes */
	CHECK_RC(tg_drv_spill_setup(&none, 0, 0), -EINVAL);
	CHECK_RC(tg_drv_link_setup(&none, 0, 0), -EINVAL);
	return t_done("test_drv_setup");
}
