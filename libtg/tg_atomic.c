/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Remote atomics: blocking ones through the shadow windows, non-blocking ones through ATOMIC_GO. */
#include <errno.h>

#include "tg/tg_barrier.h"
#include "tg_internal.h"

/* Checks shared by every atomic: the word's address. */
static int word_args(const struct tg_dev *dev, unsigned node, uint64_t raddr)
{
	if (!dev || node >= dev->nodes || (raddr & 7u))
		return -EINVAL;
	if (raddr >= (1ULL << TG_PADDR_BITS))
		return -ERANGE;
	return 0;
}

/* One load of atomic window `win`: the old value, or the refusal. */
static int window_load(struct tg_dev *dev, unsigned win, unsigned node, uint64_t raddr,
		       uint64_t *old)
{
	uint64_t v;
	int rc = tg__mmio_read(dev, tg_bar_data_addr(win, dev->ctx, node, raddr), &v);

	if (rc)
		return rc;
	/* a refused atomic answers all ones; all ones is also a value a word
	 * can hold, so ask how this load went */
	if (v == ~0ULL && (rc = tg__last_status(dev)))
		return rc;
	if (old)
		*old = v;
	return 0;
}

static int tg_faa_body(struct tg_dev *dev, unsigned node, uint64_t raddr, uint64_t add,
		       uint64_t *old)
{
	int rc = word_args(dev, node, raddr);

	if (!rc)
		rc = tg__ctx_reg_set(dev, TG__CREG_OPERAND, add);
	return rc ? rc : window_load(dev, TG_WIN_FAA, node, raddr, old);
}

int tg_faa(struct tg_dev *dev, unsigned node, uint64_t raddr, uint64_t add, uint64_t *old)
{
	const struct tg_dev *p = tg__enter(dev);

	return tg__leave(p, dev, "tg_faa", tg_faa_body(dev, node, raddr, add, old), 1);
}

static int tg_fetch_inc_body(struct tg_dev *dev, unsigned node, uint64_t raddr, uint64_t *old)
{
	int rc = word_args(dev, node, raddr);

	return rc ? rc : window_load(dev, TG_WIN_FINC, node, raddr, old);
}

int tg_fetch_inc(struct tg_dev *dev, unsigned node, uint64_t raddr, uint64_t *old)
{
	const struct tg_dev *p = tg__enter(dev);

	return tg__leave(p, dev, "tg_fetch_inc", tg_fetch_inc_body(dev, node, raddr, old), 1);
}

static int tg_swap_body(struct tg_dev *dev, unsigned node, uint64_t raddr, uint64_t val,
			uint64_t *old)
{
	int rc = word_args(dev, node, raddr);

	if (!rc)
		rc = tg__ctx_reg_set(dev, TG__CREG_OPERAND, val);
	return rc ? rc : window_load(dev, TG_WIN_SWAP, node, raddr, old);
}

int tg_swap(struct tg_dev *dev, unsigned node, uint64_t raddr, uint64_t val, uint64_t *old)
{
	const struct tg_dev *p = tg__enter(dev);

	return tg__leave(p, dev, "tg_swap", tg_swap_body(dev, node, raddr, val, old), 1);
}

static int tg_cas_body(struct tg_dev *dev, unsigned node, uint64_t raddr, uint64_t expected,
	   uint64_t desired, uint64_t *old)
{
	int rc = word_args(dev, node, raddr);

	if (!rc)
		rc = tg__ctx_reg_set(dev, TG__CREG_COMPARE, expected);
	if (!rc)
		rc = tg__ctx_reg_set(dev, TG__CREG_OPERAND, desired);
	return rc ? rc : window_load(dev, TG_WIN_CAS, node, raddr, old);
}

int tg_cas(struct tg_dev *dev, unsigned node, uint64_t raddr, uint64_t expected,
	   uint64_t desired, uint64_t *old)
{
	const struct tg_dev *p = tg__enter(dev);

	return tg__leave(p, dev, "tg_cas", tg_cas_body(dev, node, raddr, expected, desired, old), 1);
}

/* The paddr of the 16-byte result record at off of mr, or 0. */
static uint64_t record(const struct tg_dev *dev, const struct tg_mr *mr, size_t off)
{
	if (!dev || !mr || mr->dev != dev || off % 8u || off > mr->len || mr->len - off < 16)
		return 0;
	return mr->paddr + off;
}

static int tg_atomic_post_body(struct tg_dev *dev, unsigned node, uint64_t raddr, unsigned aop,
		   uint64_t operand, uint64_t compare, struct tg_mr *mr, size_t off)
{
	uint64_t rec = record(dev, mr, off), laddr, go;
	int rc = word_args(dev, node, raddr);

	if (rc)
		return rc;
	if (!rec || (aop != TG_AOP_FAA && aop != TG_AOP_SWAP && aop != TG_AOP_CAS))
		return -EINVAL;
	if (dev->no_fetch)
		return -EOPNOTSUPP;
	laddr = mr->paddr + off;
	/* the completion word is clear before the doorbell can set it */
	if ((rc = tg__hm_store(dev, rec + 8, 0)))
		return rc;
	TG_WMB();
	if ((rc = tg__ctx_reg_set(dev, TG__CREG_LADDR, laddr)) ||
	    (rc = tg__ctx_reg_set(dev, TG__CREG_CPL, laddr + 8)) ||
	    (rc = tg__ctx_reg_set(dev, TG__CREG_OPERAND, operand)))
		return rc;
	if (aop == TG_AOP_CAS && (rc = tg__ctx_reg_set(dev, TG__CREG_COMPARE, compare)))
		return rc;
	go = raddr | (uint64_t)node << 32 | (uint64_t)aop << 56;
	return tg__mmio_write(dev, tg_bar_ctx_addr(dev->ctx, TG_CTX_REG_ATOMIC_GO), &go, NULL, 1);
}

int tg_atomic_post(struct tg_dev *dev, unsigned node, uint64_t raddr, unsigned aop,
		   uint64_t operand, uint64_t compare, struct tg_mr *mr, size_t off)
{
	const struct tg_dev *p = tg__enter(dev);

	return tg__leave(p, dev, "tg_atomic_post",
			 tg_atomic_post_body(dev, node, raddr, aop, operand, compare, mr, off), 1);
}

static int record_test(struct tg_dev *dev, uint64_t rec, uint64_t *old)
{
	uint64_t w;
	/* acquire: the old value, written before the completion word, is visible */
	int rc = tg__hm_load(dev, rec + 8, &w);

	if (rc)
		return rc;
	if (!(w & TG_FETCH_CPL_DONE))
		return -EAGAIN;
	rc = tg_status_errno((unsigned)(w >> 8) & 0xffu);
	if (!rc && old)
		rc = tg__hm_load(dev, rec, old);
	return rc;
}

static int tg_atomic_test_body(struct tg_dev *dev, const struct tg_mr *mr, size_t off,
			       uint64_t *old)
{
	uint64_t rec = record(dev, mr, off);

	return rec ? record_test(dev, rec, old) : -EINVAL;
}

int tg_atomic_test(struct tg_dev *dev, const struct tg_mr *mr, size_t off, uint64_t *old)
{
	const struct tg_dev *p = tg__enter(dev);

	return tg__leave(p, dev, "tg_atomic_test", tg_atomic_test_body(dev, mr, off, old), 0);
}

static int tg_atomic_wait_body(struct tg_dev *dev, const struct tg_mr *mr, size_t off,
			       uint64_t *old)
{
	uint64_t rec = record(dev, mr, off);
	int rc;

	if (!rec)
		return -EINVAL;
	while ((rc = record_test(dev, rec, old)) == -EAGAIN)
		if ((rc = tg__wait(dev)))
			return rc;
	return rc;
}

int tg_atomic_wait(struct tg_dev *dev, const struct tg_mr *mr, size_t off, uint64_t *old)
{
	const struct tg_dev *p = tg__enter(dev);

	return tg__leave(p, dev, "tg_atomic_wait", tg_atomic_wait_body(dev, mr, off, old), 1);
}
