/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* First-fit allocator of a node's exported host memory, with power-of-two alignment. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tgdrv/tg_drv.h"

#define OWNER_NONE  0xffffffffu

struct extent {
	uint64_t start;
	uint64_t len;
	uint32_t owner;     /* OWNER_NONE when free */
};

struct tg_alloc {
	uint64_t gran;
	uint64_t free_bytes;
	struct extent *ext; /* sorted by start, covering the arena without gaps */
	unsigned n, cap;
};

struct tg_alloc *tg_alloc_create(uint64_t base, uint64_t size, uint64_t gran)
{
	struct tg_alloc *a;

	if (!gran || (gran & (gran - 1)) || !size || (base | size) & (gran - 1)) {
		errno = EINVAL;
		return NULL;
	}
	a = calloc(1, sizeof(*a));
	if (!a)
		goto err;
	a->cap = 16;
	a->ext = malloc(a->cap * sizeof(*a->ext));
	if (!a->ext)
		goto err_a;
	a->gran = gran;
	a->free_bytes = size;
	a->ext[0] = (struct extent){ .start = base, .len = size, .owner = OWNER_NONE };
	a->n = 1;
	return a;

err_a:
	free(a);
err:
	errno = ENOMEM;
	return NULL;
}

void tg_alloc_destroy(struct tg_alloc *a)
{
	if (!a)
		return;
	free(a->ext);
	free(a);
}

/* Guarantee room for two more extents (an allocation splits one in three). */
static int reserve2(struct tg_alloc *a)
{
	if (a->n + 2 > a->cap) {
		unsigned cap = a->cap * 2;
		struct extent *e = realloc(a->ext, cap * sizeof(*e));

		if (!e)
			return -ENOMEM;
		a->ext = e;
		a->cap = cap;
	}
	return 0;
}

/* Open a hole at index i (capacity reserved by reserve2). */
static void insert_at(struct tg_alloc *a, unsigned i)
{
	memmove(&a->ext[i + 1], &a->ext[i], (a->n - i) * sizeof(*a->ext));
	a->n++;
}

int tg_alloc_get(struct tg_alloc *a, uint64_t len, uint64_t align, uint32_t owner,
		 uint64_t *paddr)
{
	uint64_t start, pre, post;
	unsigned i;

	if (!a || !paddr || !len || owner == OWNER_NONE || (align & (align - 1)))
		return -EINVAL;
	if (len > UINT64_MAX - a->gran)
		return -ENOMEM;
	len = (len + a->gran - 1) & ~(a->gran - 1);
	if (reserve2(a))
		return -ENOMEM;
	if (align < a->gran)
		align = a->gran;
	for (i = 0; i < a->n; i++) {
		struct extent *e = &a->ext[i];

		if (e->owner != OWNER_NONE || e->len < len)
			continue;
		start = (e->start + align - 1) & ~(align - 1);
		if (start < e->start || start - e->start > e->len - len)
			continue;
		pre = start - e->start;
		post = e->len - pre - len;
		/* split into [free pre][used][free post], dropping empty parts */
		if (pre) {
			insert_at(a, i);
			a->ext[i].len = pre;
			i++;
		}
		if (post)
			insert_at(a, i + 1);
		a->ext[i] = (struct extent){ .start = start, .len = len, .owner = owner };
		if (post)
			a->ext[i + 1] = (struct extent){ .start = start + len, .len = post,
							 .owner = OWNER_NONE };
		a->free_bytes -= len;
		*paddr = start;
		return 0;
	}
	return -ENOMEM;
}

/* Free extent i and merge it with free neighbours. */
static void release(struct tg_alloc *a, unsigned i)
{
	a->free_bytes += a->ext[i].len;
	a->ext[i].owner = OWNER_NONE;
	if (i + 1 < a->n && a->ext[i + 1].owner == OWNER_NONE) {
		a->ext[i].len += a->ext[i + 1].len;
		memmove(&a->ext[i + 1], &a->ext[i + 2], (a->n - i - 2) * sizeof(*a->ext));
		a->n--;
	}
	if (i > 0 && a->ext[i - 1].owner == OWNER_NONE) {
		a->ext[i - 1].len += a->ext[i].len;
		memmove(&a->ext[i], &a->ext[i + 1], (a->n - i - 1) * sizeof(*a->ext));
		a->n--;
	}
}

int tg_alloc_put(struct tg_alloc *a, uint64_t paddr, uint32_t owner)
{
	unsigned lo = 0, hi;

	if (!a || owner == OWNER_NONE)
		return -EINVAL;
	hi = a->n;
	while (lo < hi) {  /* binary search on start */
		unsigned mid = (lo + hi) / 2;

		if (a->ext[mid].start < paddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == a->n || a->ext[lo].start != paddr || a->ext[lo].owner != owner)
		return -EINVAL;
	release(a, lo);
	return 0;
}

unsigned tg_alloc_put_owner(struct tg_alloc *a, uint32_t owner)
{
	unsigned i = 0, count = 0;

	if (!a || owner == OWNER_NONE)
		return 0;
	while (i < a->n) {
		if (a->ext[i].owner == owner) {
			release(a, i);
			count++;
			i = i ? i - 1 : 0;  /* the merge may have moved it left */
		} else {
			i++;
		}
	}
	return count;
}

uint64_t tg_alloc_free_bytes(const struct tg_alloc *a)
{
	return a ? a->free_bytes : 0;
}

int tg_alloc_owner(const struct tg_alloc *a, uint64_t paddr, uint64_t len, uint32_t *owner)
{
	if (!a || !len || paddr + len < paddr)
		return -EINVAL;
	for (unsigned i = 0; i < a->n; i++) {
		const struct extent *e = &a->ext[i];

		if (paddr >= e->start && paddr - e->start < e->len) {
			if (e->owner == OWNER_NONE || len > e->len - (paddr - e->start))
				return -ENOENT;
			*owner = e->owner;
			return 0;
		}
	}
	return -ENOENT;
}
