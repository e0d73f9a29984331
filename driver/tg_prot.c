/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Region table: exporting and revoking regions with keys. */
#include <errno.h>
#include <string.h>
#include <sys/random.h>

#include "tg/tg_bar.h"
#include "tgdrv/tg_drv.h"

/* polls of PROT_CFG before a revocation is declared stuck */
#define REVOKE_POLLS 100000u

static int csr_w(const struct tg_drv_mmio *io, uint64_t reg, uint64_t val)
{
	return io->write(io->arg, tg_bar_csr_addr(reg), val);
}

static int entry_clear(const struct tg_drv_mmio *io, unsigned i)
{
	int rc = csr_w(io, TG_CSR_REG_RSEL, i);

	return rc ? rc : csr_w(io, TG_CSR_REG_RCFG, 0);
}

/* Wait until every request the receive engine started saw the table as
 * it is now. */
static int wait_in_force(const struct tg_drv_mmio *io)
{
	uint64_t v;

	for (unsigned i = 0; i < REVOKE_POLLS; i++) {
		int rc = io->read(io->arg, tg_bar_csr_addr(TG_CSR_REG_PROT_CFG), &v);

		if (rc)
			return rc;
		if (!(v & TG_PROT_CFG_BUSY))
			return 0;
	}
	return -ETIMEDOUT;
}

int tg_drv_prot_setup(const struct tg_drv_mmio *io, struct tg_drv_rtable *t, unsigned n,
		      int enable)
{
	uint64_t features;
	int rc;

	if (!io || !io->read || !io->write || !t || !n || n > TG_REGIONS)
		return -EINVAL;
	memset(t, 0, sizeof(*t));
	if ((rc = tg_drv_features(io, &features)))
		return rc;
	if (features & TG_CONFIG_NO_PROT)
		return enable ? -EOPNOTSUPP : 0;   /* t->n stays 0: nothing to export into */
	t->n = n;
	for (unsigned i = 0; i < n; i++)
		if ((rc = entry_clear(io, i)))
			return rc;
	rc = csr_w(io, TG_CSR_REG_PROT_CFG, enable ? TG_PROT_CFG_ENABLE : 0);
	return rc ? rc : wait_in_force(io);
}

int tg_drv_region_export(const struct tg_drv_mmio *io, struct tg_drv_rtable *t, uint64_t base,
			 uint64_t len, unsigned rights, uint32_t owner, uint64_t *key)
{
	const uint64_t idx_mask = (1ull << TG_KEY_IDX_BITS) - 1;
	const unsigned all = TG_RIGHT_READ | TG_RIGHT_WRITE | TG_RIGHT_ATOMIC | TG_RIGHT_ENQ;
	uint64_t rnd;
	unsigned i;
	int rc;

	if (!io || !t || !key || !len || !rights || (rights & ~all) ||
	    base >> TG_PADDR_BITS || len > (1ull << TG_PADDR_BITS) - base)
		return -EINVAL;
	if (!t->n)
		return -EOPNOTSUPP;   /* the NIC has no region table */
	for (i = 0; i < t->n && t->r[i].key; i++)
		;
	if (i == t->n)
		return -ENOSPC;
	do {
		ssize_t got = getrandom(&rnd, sizeof(rnd), 0);

		if (got != (ssize_t)sizeof(rnd))
			return got < 0 ? -errno : -EIO;
		rnd = (rnd & ~idx_mask) | i;
	} while (rnd == i);          /* never a key without random bits */
	/* the entry is invalid: fields first, then valid with the rights */
	if ((rc = csr_w(io, TG_CSR_REG_RSEL, i)) || (rc = csr_w(io, TG_CSR_REG_RCFG, 0)) ||
	    (rc = csr_w(io, TG_CSR_REG_RBASE, base)) || (rc = csr_w(io, TG_CSR_REG_RLEN, len)) ||
	    (rc = csr_w(io, TG_CSR_REG_RKEY, rnd)) ||
	    (rc = csr_w(io, TG_CSR_REG_RCFG, TG_RCFG_VALID | rights)))
		return rc;
	t->r[i] = (struct tg_drv_region){ .key = rnd, .base = base, .len = len, .owner = owner,
					  .rights = rights };
	*key = rnd;
	return 0;
}

int tg_drv_region_revoke(const struct tg_drv_mmio *io, struct tg_drv_rtable *t, uint64_t key,
			 uint32_t owner)
{
	unsigned i;
	int rc;

	if (!io || !t)
		return -EINVAL;
	i = (unsigned)(key & ((1ull << TG_KEY_IDX_BITS) - 1));
	if (!key || i >= t->n || t->r[i].key != key || t->r[i].owner != owner)
		return -ENOENT;
	if ((rc = entry_clear(io, i)))
		return rc;
	memset(&t->r[i], 0, sizeof(t->r[i]));
	return wait_in_force(io);
}

unsigned tg_drv_region_revoke_owner(const struct tg_drv_mmio *io, struct tg_drv_rtable *t,
				    uint32_t owner)
{
	unsigned n = 0;

	if (!io || !t)
		return 0;
	for (unsigned i = 0; i < t->n; i++)
		if (t->r[i].key && t->r[i].owner == owner &&
		    tg_drv_region_revoke(io, t, t->r[i].key, owner) == 0)
			n++;
	return n;
}

int tg_drv_region_export_owned(const struct tg_drv_qenv *env, const struct tg_drv_qtable *qt,
			       struct tg_drv_rtable *t, uint64_t base, uint64_t len, unsigned rights,
			       uint32_t owner, uint64_t *key)
{
	uint32_t holder;
	int q;

	if (!env || !qt)
		return -EINVAL;
	if (tg_alloc_owner(env->alloc, base, len, &holder))
		return -EFAULT;
	if (holder != owner) {
		/* a queue's first buffer: its creator may export it */
		q = tg_drv_queue_find(qt, base);
		if (q < 0 || holder != TG_DRV_QUEUE_OWNER((unsigned)q) || qt->q[q].owner != owner)
			return -EPERM;
	}
	return tg_drv_region_export(env->io, t, base, len, rights, owner, key);
}
