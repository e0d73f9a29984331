/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* The privileged side of the NIC: memory allocator for exported memory and device bring-up. */
#ifndef TG_DRV_H
#define TG_DRV_H

#include <stdint.h>

/* ---- Allocator of a node's exported host memory ------------------------
 * First fit over a sorted list of extents, TG_DRV_GRAN-byte granularity.
 * Not thread-safe: its owner serializes calls. */

#define TG_DRV_GRAN  4096u

struct tg_alloc;

/* Manage [base, base + size).  base and size are multiples of gran, gran a
 * power of two.  Returns NULL with errno = EINVAL or ENOMEM. */
struct tg_alloc *tg_alloc_create(uint64_t base, uint64_t size, uint64_t gran);

/* Free the allocator (not the memory it manages).  Accepts NULL. */
void tg_alloc_destroy(struct tg_alloc *a);

/* Allocate len bytes (rounded up to the granularity) aligned to align (a
 * power of two; values below the granularity mean the granularity) for
 * `owner`.  Returns 0 and *paddr, -EINVAL (len 0, bad align) or -ENOMEM. */
int tg_alloc_get(struct tg_alloc *a, uint64_t len, uint64_t align, uint32_t owner,
		 uint64_t *paddr);

/* Free the allocation starting at paddr if `owner` holds it.  Returns 0 or
 * -EINVAL (no such allocation, or another owner's). */
int tg_alloc_put(struct tg_alloc *a, uint64_t paddr, uint32_t owner);

/* Free every allocation of `owner`; returns how many there were. */
unsigned tg_alloc_put_owner(struct tg_alloc *a, uint32_t owner);

/* Bytes not allocated. */
uint64_t tg_alloc_free_bytes(const struct tg_alloc *a);

/* ---- Device bring-up ----------------------------------------------------
 * Host-port access as the platform provides it (the simulator's driver
 * ring now; a mapped PCI BAR later).  read returns 0 or -errno. */
struct tg_drv_mmio {
	int (*read)(void *arg, uint64_t addr, uint64_t *val);
	int (*write)(void *arg, uint64_t addr, uint64_t val);
	void *arg;
};

/* Bring a NIC up: read CSR ID and refuse a foreign magic or major version
 * (-EPROTO), check CSR NODE_ID against expect_node (-EIO), program
 * MEM_SIZE = mem_size and read it back (-EIO on a mismatch).  *id gets
 * CSR ID when not NULL.  Returns 0 or -errno. */
int tg_drv_probe(const struct tg_drv_mmio *io, unsigned expect_node, uint64_t mem_size,
		 uint64_t *id);

/* Open context ctx for a new process: clear its sticky STATUS (posted
 * write).  Returns 0 or -errno. */
int tg_drv_ctx_open(const struct tg_drv_mmio *io, unsigned ctx);

#endif /* TG_DRV_H */
