/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Composition and decomposition of host-port (BAR) addresses from the fields in tg_hw.h. */
#ifndef TG_BAR_H
#define TG_BAR_H

#include <errno.h>
#include <stdint.h>

#include "tg/tg_hw.h"

#define TG_BAR_FIELD_MASK(bits)   ((1ULL << (bits)) - 1ULL)

/* Address of paddr on node `node` in data window `win`, for context ctx. */
static inline uint64_t tg_bar_data_addr(unsigned win, unsigned ctx, unsigned node, uint64_t paddr)
{
	return ((uint64_t)win << TG_BAR_WIN_SHIFT) |
	       (((uint64_t)ctx & TG_BAR_FIELD_MASK(TG_BAR_CTX_BITS)) << TG_BAR_CTX_SHIFT) |
	       (((uint64_t)node & TG_BAR_FIELD_MASK(TG_BAR_NODE_BITS)) << TG_BAR_NODE_SHIFT) |
	       (paddr & TG_BAR_FIELD_MASK(TG_PADDR_BITS));
}

/* Address of CSR register `reg` (a TG_CSR_REG_* offset). */
static inline uint64_t tg_bar_csr_addr(uint64_t reg)
{
	return ((uint64_t)TG_WIN_CTRL << TG_BAR_WIN_SHIFT) | (TG_CTRL_CSR_BASE + reg);
}

/* Address of register `reg` (a TG_CTX_REG_* offset) in context page ctx. */
static inline uint64_t tg_bar_ctx_addr(unsigned ctx, uint64_t reg)
{
	return ((uint64_t)TG_WIN_CTRL << TG_BAR_WIN_SHIFT) |
	       (TG_CTRL_CTX_BASE + (uint64_t)ctx * TG_PAGE_SIZE + reg);
}

static inline unsigned tg_bar_win(uint64_t addr)
{
	return (unsigned)((addr >> TG_BAR_WIN_SHIFT) & TG_BAR_FIELD_MASK(TG_BAR_WIN_BITS));
}

static inline unsigned tg_bar_node(uint64_t addr)
{
	return (unsigned)((addr >> TG_BAR_NODE_SHIFT) & TG_BAR_FIELD_MASK(TG_BAR_NODE_BITS));
}

static inline unsigned tg_bar_ctx(uint64_t addr)
{
	return (unsigned)((addr >> TG_BAR_CTX_SHIFT) & TG_BAR_FIELD_MASK(TG_BAR_CTX_BITS));
}

/* Check CSR ID: 0 if the magic and major version are the ones this code
 * was built for, else -EPROTO. */
static inline int tg_bar_check_id(uint64_t id)
{
	if ((id >> 32) != TG_ID_MAGIC)
		return -EPROTO;
	if (((id >> 16) & 0xffffu) != TG_VERSION_MAJOR)
		return -EPROTO;
	return 0;
}

#endif /* TG_BAR_H */
