/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Device bring-up: identity check, MEM_SIZE programming and context opening over host-port MMIO. */
#include <errno.h>

#include "tg/tg_bar.h"
#include "tgdrv/tg_drv.h"

int tg_drv_probe(const struct tg_drv_mmio *io, unsigned expect_node, uint64_t mem_size,
		 uint64_t *id)
{
	uint64_t v;
	int rc;

	if (!io || !io->read || !io->write)
		return -EINVAL;
	rc = io->read(io->arg, tg_bar_csr_addr(TG_CSR_REG_ID), &v);
	if (rc)
		return rc;
	if (id)
		*id = v;
	rc = tg_bar_check_id(v);
	if (rc)
		return rc;
	rc = io->read(io->arg, tg_bar_csr_addr(TG_CSR_REG_NODE_ID), &v);
	if (rc)
		return rc;
	if (v != expect_node)
		return -EIO;
	rc = io->write(io->arg, tg_bar_csr_addr(TG_CSR_REG_MEM_SIZE), mem_size);
	if (rc)
		return rc;
	/* the read-back also orders: MEM_SIZE is in force once it answers */
	rc = io->read(io->arg, tg_bar_csr_addr(TG_CSR_REG_MEM_SIZE), &v);
	if (rc)
		return rc;
	return v == mem_size ? 0 : -EIO;
}

int tg_drv_ctx_open(const struct tg_drv_mmio *io, unsigned ctx)
{
	int rc;

	if (!io || !io->write || ctx >= (1u << TG_BAR_CTX_BITS))
		return -EINVAL;
	/* a former owner's key must not travel with the new owner's requests */
	rc = io->write(io->arg, tg_bar_ctx_addr(ctx, TG_CTX_REG_KEY), 0);
	if (rc)
		return rc;
	/* STATUS is write-one-to-clear: clear whatever a former owner left */
	return io->write(io->arg, tg_bar_ctx_addr(ctx, TG_CTX_REG_STATUS), ~0ULL);
}

/* 0 if the NIC was built with `feature` (a TG_CONFIG_* bit), -EOPNOTSUPP
 * if not, or the error of reading CONFIG. */
static int built_with(const struct tg_drv_mmio *io, uint64_t feature)
{
	uint64_t f;
	int rc = tg_drv_features(io, &f);

	return rc ? rc : (f & feature) ? 0 : -EOPNOTSUPP;
}

int tg_drv_spill_setup(const struct tg_drv_mmio *io, uint64_t paddr, unsigned log2)
{
	uint64_t bytes, v;
	int rc;

	if (!io || !io->read || !io->write || log2 > TG_SPILL_MAX_LOG2)
		return -EINVAL;
	bytes = (uint64_t)TG_SPILL_ENTRY_BYTES << log2;
	if (log2 && ((paddr & (bytes - 1)) || paddr + bytes > (1ULL << 32)))
		return -EINVAL;
	if (log2) {
		rc = built_with(io, TG_CONFIG_SPILL);
		if (rc)
			return rc;
	}
	rc = io->read(io->arg, tg_bar_csr_addr(TG_CSR_REG_SPILL_CFG), &v);
	if (rc)
		return rc;
	if (v >> 32)
		return -EBUSY;
	rc = io->write(io->arg, tg_bar_csr_addr(TG_CSR_REG_SPILL_BASE), log2 ? paddr : 0);
	if (!rc)
		rc = io->write(io->arg, tg_bar_csr_addr(TG_CSR_REG_SPILL_CFG), log2);
	if (!rc)
		rc = io->read(io->arg, tg_bar_csr_addr(TG_CSR_REG_SPILL_CFG), &v);
	if (rc)
		return rc;
	return (v & 0x1F) == log2 ? 0 : -EIO;
}

int tg_drv_link_setup(const struct tg_drv_mmio *io, int enable, uint32_t rto)
{
	uint64_t v, want;
	int rc;

	if (!io || !io->read || !io->write)
		return -EINVAL;
	if (enable) {
		rc = built_with(io, TG_CONFIG_LINK);
		if (rc)
			return rc;
	}
	if (rto) {
		rc = io->write(io->arg, tg_bar_csr_addr(TG_CSR_REG_LINK_RTO), rto);
		if (rc)
			return rc;
	}
	rc = io->read(io->arg, tg_bar_csr_addr(TG_CSR_REG_LINK_CFG), &v);
	if (rc)
		return rc;
	v = (v & 0xFFFFFFFEULL) | (enable ? TG_LINK_CFG_ENABLE : 0);
	rc = io->write(io->arg, tg_bar_csr_addr(TG_CSR_REG_LINK_CFG), v);
	if (rc)
		return rc;
	want = enable ? TG_LINK_CFG_ON : 0;
	for (unsigned i = 0; i < 100000u; i++) {
		rc = io->read(io->arg, tg_bar_csr_addr(TG_CSR_REG_LINK_CFG), &v);
		if (rc)
			return rc;
		if ((v & TG_LINK_CFG_ON) == want)
			return 0;
	}
	return -ETIMEDOUT;
}
