/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* The node's host memory as this process reaches it: mapped, or through a board's bridge. */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "tg/tg_barrier.h"
#include "tg_internal.h"

int tg__mem_expose(struct tg_dev *dev, uint64_t paddr, uint64_t len)
{
	if (!dev->mem_guard || !len)
		return 0;
	if (paddr >= dev->mem_size || len > dev->mem_size - paddr)
		return -EFAULT;
	for (uint64_t p = paddr / TG_DRV_GRAN; p <= (paddr + len - 1) / TG_DRV_GRAN; p++) {
		uint64_t bit = 1ULL << (p % 64);

		/* acquire: a page another thread mapped is usable once seen */
		if (atomic_load_explicit(&dev->mem_pages[p / 64], memory_order_acquire) & bit)
			continue;
		if (mmap(dev->mem + p * TG_DRV_GRAN, TG_DRV_GRAN, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_FIXED, dev->mem_fd, (off_t)(p * TG_DRV_GRAN)) == MAP_FAILED)
			return -errno;
		atomic_fetch_or_explicit(&dev->mem_pages[p / 64], bit, memory_order_release);
	}
	return 0;
}

void tg__mem_hide(struct tg_dev *dev, uint64_t paddr, uint64_t len)
{
	if (!dev->mem_guard || !len || paddr >= dev->mem_size || len > dev->mem_size - paddr)
		return;
	for (uint64_t p = paddr / TG_DRV_GRAN; p <= (paddr + len - 1) / TG_DRV_GRAN; p++) {
		atomic_fetch_and_explicit(&dev->mem_pages[p / 64], ~(1ULL << (p % 64)),
					  memory_order_relaxed);
		mmap(dev->mem + p * TG_DRV_GRAN, TG_DRV_GRAN, PROT_NONE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
	}
}

/* 0 if dev's memory is mapped (the pages mapped now, where a client maps
 * only what it uses), 1 if the provider reaches it (a board's bridge), or
 * -errno. */
static int how(struct tg_dev *dev, uint64_t paddr, size_t len)
{
	if (paddr > dev->mem_size || len > dev->mem_size - paddr)
		return -EFAULT;
	if (dev->mem)
		return tg__mem_expose(dev, paddr, len);
	return dev->prov->mem_read ? 1 : -EOPNOTSUPP;
}

int tg__hm_load(struct tg_dev *dev, uint64_t paddr, uint64_t *v)
{
	int h = how(dev, paddr, 8);

	if (h == 0)
		*v = TG_DEV_LOAD_ACQ64(dev->mem + paddr);
	else if (h == 1)
		return dev->prov->mem_read(dev, paddr, v, 8);
	return h < 0 ? h : 0;
}

int tg__hm_store(struct tg_dev *dev, uint64_t paddr, uint64_t v)
{
	int h = how(dev, paddr, 8);

	if (h == 0)
		TG_HOST_STORE_REL64(dev->mem + paddr, v);
	else if (h == 1)
		return dev->prov->mem_write(dev, paddr, &v, 8);
	return h < 0 ? h : 0;
}

int tg__hm_cas(struct tg_dev *dev, uint64_t paddr, uint64_t *expect, uint64_t v)
{
	int h = how(dev, paddr, 8);

	if (h == 0)
		return TG_HOST_CAS64(dev->mem + paddr, expect, v) ? 1 : 0;
	if (h == 1)
		return dev->prov->mem_rmw(dev, paddr, expect, v, NULL);
	return h;
}

int tg__hm_clear(struct tg_dev *dev, uint64_t paddr, uint64_t bits, uint64_t *old)
{
	uint64_t o = 0;
	int h = how(dev, paddr, 8);

	if (h == 0)
		o = TG_HOST_FETCH_AND64(dev->mem + paddr, ~bits);
	else if (h == 1)
		h = dev->prov->mem_rmw(dev, paddr, NULL, bits, &o);
	if (!h && old)
		*old = o;
	return h;
}

int tg__hm_read(struct tg_dev *dev, uint64_t paddr, void *buf, size_t len)
{
	int h = how(dev, paddr, len);

	if (h == 0)
		memcpy(buf, dev->mem + paddr, len);
	else if (h == 1)
		return dev->prov->mem_read(dev, paddr, buf, len);
	return h < 0 ? h : 0;
}

int tg__hm_write(struct tg_dev *dev, uint64_t paddr, const void *buf, size_t len)
{
	int h = how(dev, paddr, len);

	if (h == 0)
		memcpy(dev->mem + paddr, buf, len);
	else if (h == 1)
		return dev->prov->mem_write(dev, paddr, buf, len);
	return h < 0 ? h : 0;
}
