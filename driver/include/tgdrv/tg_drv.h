/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* The privileged side of the NIC: memory allocator for exported memory and device bring-up. */
#ifndef TG_DRV_H
#define TG_DRV_H

#include <stddef.h>
#include <stdint.h>

#include "tg/tg_bar.h"
#include "tg/tg_hw.h"

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

/* The owner of the allocated block that holds all of [paddr, paddr + len),
 * in *owner.  Returns 0, -ENOENT if no one allocated block holds the
 * range, -EINVAL. */
int tg_alloc_owner(const struct tg_alloc *a, uint64_t paddr, uint64_t len, uint32_t *owner);

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

/* What the NIC was built with: CONFIG's TG_CONFIG_* bits into *features.
 * A NIC whose CONFIG predates these bits (block bytes [31:24] still 0)
 * had the spill ring, the link layer and a region table.  Returns 0 or
 * the error of reading CONFIG.  (Inline: libtg links the region code,
 * tg_prot.c, without tg_drv.c.) */
static inline int tg_drv_features(const struct tg_drv_mmio *io, uint64_t *features)
{
	uint64_t v;
	int rc = io->read(io->arg, tg_bar_csr_addr(TG_CSR_REG_CONFIG), &v);

	if (rc)
		return rc;
	*features = ((v >> 24) & 0xFF) ? v : (TG_CONFIG_SPILL | TG_CONFIG_LINK);
	return 0;
}

/* Give the NIC its REQ spill ring: 2^log2 entries of TG_SPILL_ENTRY_BYTES
 * at paddr (aligned to the ring's size, below 4 GiB, memory no exported
 * region overlaps), or none (log2 0).  Program it while the NIC holds no
 * spilled REQ (at bring-up); reads SPILL_CFG back.  Returns 0, -EINVAL
 * (log2 above TG_SPILL_MAX_LOG2, bad paddr), -EBUSY (REQs are parked in
 * the ring in force), -EOPNOTSUPP (a ring asked of a NIC built without
 * one: CONFIG_SPILL clear) or the error of a host-port access. */
int tg_drv_spill_setup(const struct tg_drv_mmio *io, uint64_t paddr, unsigned log2);

/* Turn the NIC's link layer on or off (LINK_CFG bit 0; the other fields
 * are kept) with retransmission timeout rto cycles (0: leave LINK_RTO as
 * it is), then wait, through at most 100000 reads of LINK_CFG, until the
 * NIC's frames take the chosen path (bit 32).  Every node of a cluster
 * must make the same choice before any traffic.  Returns 0, -ETIMEDOUT
 * (the NIC never went quiet), -EOPNOTSUPP (enable on a NIC built without
 * the layer: CONFIG_LINK clear) or the error of a host-port access. */
int tg_drv_link_setup(const struct tg_drv_mmio *io, int enable, uint32_t rto);

/* ---- Remote-enqueue queues (driver/tg_drv_queue.c) --------------------------
 * The driver's view of the NIC's queue table.  The NIC registers are only
 * ever written (posted); the driver keeps a shadow of what it wrote, so no
 * handler below waits for the host port (docs/enqueue.md, the spill
 * ring).  Not thread-safe: the owner (the simulator) serializes calls;
 * concurrency with dequeuers goes through the flags word of each queue. */

/* Allocator owner of the buffers of queue-table entry i.  No client holds
 * it, so a client's own free calls cannot free a buffer the NIC still
 * writes, and only the queue's own buffers can be freed through it. */
#define TG_DRV_QUEUE_OWNER(i)  (0x40000000u | (uint32_t)(i))

struct tg_drv_queue {
	uint64_t base;          /* first buffer's paddr; 0: entry free */
	uint32_t owner;         /* the client that created the queue */
	uint8_t log2, elog2;    /* buffer and entry size */
	uint8_t closed;         /* the NIC holds the queue full (QCFG_FULL) */
	uint8_t rsvd;
};

struct tg_drv_qtable {
	struct tg_drv_queue q[16];
	uint64_t irq_mask;      /* shadow of IRQ_MASK */
	/* statistics */
	uint64_t overflows;     /* overflow causes handled */
	uint64_t grows;         /* buffers added (overflow or grow request) */
	uint64_t full_marks;    /* overflows met with QF_DNP set: QF_FULL marked */
	uint64_t reopens;       /* queues reopened without a new buffer */
	uint64_t notifies;      /* notification causes handled */
};

/* What the platform gives the queue code: posted MMIO writes, the node's
 * host memory as the CPU sees it, and its allocator.  Memory the driver
 * cannot map (a board behind the Ethernet bridge) has mem NULL and is
 * reached through mem_read and mem_write instead, each access complete
 * when it returns (so in program order), and mem_rmw, an atomic
 * read-modify-write of an aligned word against every other access of the
 * process that reaches the memory: a compare-and-swap (1 swapped, 0 not
 * with *expect updated) or, with expect NULL, a clear of v's bits (*old
 * gets the word before).  All return 0 (or 1) or -errno. */
struct tg_drv_qenv {
	const struct tg_drv_mmio *io;
	uint8_t *mem;
	uint64_t mem_size;
	struct tg_alloc *alloc;
	int (*mem_read)(void *arg, uint64_t paddr, void *buf, size_t len);
	int (*mem_write)(void *arg, uint64_t paddr, const void *buf, size_t len);
	int (*mem_rmw)(void *arg, uint64_t paddr, uint64_t *expect, uint64_t v, uint64_t *old);
	void *mem_arg;
};

/* Create a queue: a buffer of 2^log2 bytes (TG_Q_MIN_LOG2..TG_Q_MAX_LOG2)
 * aligned to its size, entries of 2^elog2 bytes (3..6), header
 * initialised, a free table entry programmed and enabled, its interrupt
 * causes unmasked.  Returns 0 with *paddr and *idx, -EINVAL, -ENOSPC (table
 * full) or -ENOMEM. */
int tg_drv_queue_create(const struct tg_drv_qenv *env, struct tg_drv_qtable *t, unsigned log2,
			unsigned elog2, uint32_t owner, uint64_t *paddr, unsigned *idx);

/* Disable the queue whose first buffer is paddr and free all its buffers
 * (every allocation of TG_DRV_QUEUE_OWNER of its entry, whatever the
 * next pointers in memory say).
 * owner must be the creator's (-EPERM otherwise); -ENOENT for no queue. */
int tg_drv_queue_destroy(const struct tg_drv_qenv *env, struct tg_drv_qtable *t,
			 uint64_t paddr, uint32_t owner);

/* Destroy every queue of `owner` (its process left).  Returns how many. */
unsigned tg_drv_queue_destroy_owner(const struct tg_drv_qenv *env, struct tg_drv_qtable *t,
				    uint32_t owner);

/* Handle the causes in IRQ_STATUS value `st` (already masked): overflow of
 * queue i (grow, or mark QF_FULL if a dequeue is in progress), notification
 * of queue i (*notified gets bit i set).  Clears every cause it handled
 * (posted).  Returns 0 or -errno of a failed write. */
int tg_drv_queue_irq(const struct tg_drv_qenv *env, struct tg_drv_qtable *t, uint64_t st,
		     uint32_t *notified);

/* Grow request (a dequeuer found QF_FULL): if the NIC holds the queue
 * closed, move its entries to a new buffer (or, if the first buffer has
 * room again, simply reopen it).  Nothing to do for an open queue.
 * Returns 0, -ENOENT, or -EBUSY (never: a dequeuer holding QF_DNP gets
 * QF_FULL marked again and asks once more). */
int tg_drv_queue_grow(const struct tg_drv_qenv *env, struct tg_drv_qtable *t, uint64_t paddr);

/* Arm queue paddr's notification (QARM).  Returns 0, -ENOENT. */
int tg_drv_queue_arm(const struct tg_drv_qenv *env, struct tg_drv_qtable *t, uint64_t paddr);

/* Free buffer buf that a dequeuer unlinked from queue paddr.  Returns 0,
 * -ENOENT (no such queue), -EINVAL (buf is the first buffer or no buffer
 * of this queue). */
int tg_drv_queue_freebuf(const struct tg_drv_qenv *env, struct tg_drv_qtable *t,
			 uint64_t paddr, uint64_t buf);

/* Table index of the queue whose first buffer is paddr, or -ENOENT. */
int tg_drv_queue_find(const struct tg_drv_qtable *t, uint64_t paddr);

/* ---- Protection (docs/security.md) ------------------------------------
 * The region table holds what this node exports: base, length, rights
 * (TG_RIGHT_*) and a 64-bit key whose low TG_KEY_IDX_BITS bits are the
 * entry's index and whose other bits are random.  The driver keeps a
 * shadow of it with each entry's owner. */

struct tg_drv_region {
	uint64_t key;           /* 0: entry free */
	uint64_t base, len;
	uint32_t owner;
	uint32_t rights;
};

struct tg_drv_rtable {
	struct tg_drv_region r[TG_REGIONS];
	unsigned n;             /* entries the NIC has (at most TG_REGIONS) */
};

/* Clear the NIC's table and the shadow, and set PROT_CFG.enable.  n:
 * entries to use (1..TG_REGIONS).  A NIC built without a region table
 * (CONFIG_NO_PROT) is left alone: the shadow gets no entries, and enable
 * is -EOPNOTSUPP.  Returns 0 or -errno. */
int tg_drv_prot_setup(const struct tg_drv_mmio *io, struct tg_drv_rtable *t, unsigned n,
		      int enable);

/* Export [base, base + len) with rights for owner: a free entry gets a
 * fresh key (random bits from getrandom), written with the entry made
 * valid last.  Returns 0 and *key, -EINVAL (len 0, no rights, range past
 * 2^32), -ENOSPC (table full), -EOPNOTSUPP (the NIC has no region table),
 * or an MMIO or getrandom error. */
int tg_drv_region_export(const struct tg_drv_mmio *io, struct tg_drv_rtable *t, uint64_t base,
			 uint64_t len, unsigned rights, uint32_t owner, uint64_t *key);

/* tg_drv_region_export for memory owner holds: [base, base + len) must
 * lie in one block of env's allocator that owner allocated, or be in the
 * first buffer of a queue of qt that owner created.  Returns as
 * tg_drv_region_export, or -EFAULT (no such block), -EPERM (another
 * owner's). */
int tg_drv_region_export_owned(const struct tg_drv_qenv *env, const struct tg_drv_qtable *qt,
			       struct tg_drv_rtable *t, uint64_t base, uint64_t len, unsigned rights,
			       uint32_t owner, uint64_t *key);

/* Revoke the region with this key (owner must match): the entry is made
 * invalid, then the call waits until the receive engine has finished
 * every request it started under the old entry (PROT_CFG busy clear).
 * Returns 0, -ENOENT (no such region of owner), or an MMIO error. */
int tg_drv_region_revoke(const struct tg_drv_mmio *io, struct tg_drv_rtable *t, uint64_t key,
			 uint32_t owner);

/* Revoke every region of owner (a client that left); returns how many. */
unsigned tg_drv_region_revoke_owner(const struct tg_drv_mmio *io, struct tg_drv_rtable *t,
				    uint32_t owner);

#endif /* TG_DRV_H */
