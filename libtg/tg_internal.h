/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* libtg internals: the device, registered memory and the request-ring transport. */
#ifndef TG_INTERNAL_H
#define TG_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "tg/tg.h"
#include "tg/tg_sim_proto.h"
#include "tgdrv/tg_drv.h"

#define TG_READ_SLOTS     8u     /* fetches in flight in tg_read */
#define TG_READ_SLOT_SZ   128u   /* 64 bytes + alignment shift, rounded */

struct tg_mr {
	struct tg_dev *dev;
	struct tg_mr *prev, *next;   /* the device's live regions */
	uint64_t paddr;
	size_t len;
	unsigned access;
	uint64_t key;                /* exported with this key; 0: not exported */
};

struct tg_ldrv;

/* A provider: how a device reaches its NIC.  The simulator's request
 * rings (tg_prov_sim.c), a PCI BAR (tg_prov_pci.c) or a board's Ethernet bridge
 * (tg_prov_eth.c); the rest of libtg reaches the NIC through these calls
 * only.  A NULL call is one the provider does not have. */
struct tg_prov {
	const char *name;
	/* this process drives the node (tg_ldrv): memory and queue calls are
	 * served here, not by a simulator */
	int local;
	/* host-port reads and writes (write: n beats of one burst) */
	int (*mmio_read)(struct tg_dev *dev, uint64_t addr, uint64_t *val);
	int (*mmio_write)(struct tg_dev *dev, uint64_t addr, const uint64_t *data,
			  const uint8_t *strb, unsigned n);
	/* the NIC's cycle counter (0 when it cannot be read) */
	uint64_t (*cycles)(const struct tg_dev *dev);
	/* set up the node's host memory and driver on first use; 0 or a
	 * sticky -errno */
	int (*setup)(struct tg_dev *dev);
	/* the node's driver in this process, once set up */
	struct tg_ldrv *(*ldrv)(struct tg_dev *dev);
	/* wait at most max_ns for the NIC's interrupt, then handle the
	 * causes (NULL: no interrupt line, the caller polls) */
	int (*irq_wait)(struct tg_dev *dev, uint64_t max_ns);
	/* host memory this process does not map: any alignment; rmw: a
	 * compare-and-swap of an aligned word (1, or 0 with *expect
	 * updated) or, with expect NULL, a clear of v's bits (*old: the
	 * word before) */
	int (*mem_read)(struct tg_dev *dev, uint64_t paddr, void *buf, size_t len);
	int (*mem_write)(struct tg_dev *dev, uint64_t paddr, const void *buf, size_t len);
	int (*mem_rmw)(struct tg_dev *dev, uint64_t paddr, uint64_t *expect, uint64_t v,
		       uint64_t *old);
	/* release what the provider's open set up (also after a failed open) */
	void (*close)(struct tg_dev *dev);
};

extern const struct tg_prov tg__prov_sim, tg__prov_pci, tg__prov_eth;

/* REQs whose target a device remembers, for tg_enq_wait's error text */
#define TG__ENQ_RECENT 64u

struct tg_dev {
	const struct tg_prov *prov;
	struct tg_simp_ctl *ctl;
	struct tg_simp_slot *slot;
	uint8_t *mem;                /* this node's host memory */
	uint64_t mem_size;
	uint64_t ctl_bytes;          /* mapped sizes, when we mapped them (tg_open) */
	int mapped;
	/* a client of a tg-sim without TG_OPEN_DRIVER maps only the pages of
	 * its node's memory it uses (tg__mem_expose); the rest of mem is
	 * PROT_NONE, so a stray pointer faults instead of writing another
	 * client's memory.  mem_fd is the node's memory object then. */
	int mem_guard, mem_fd;
	_Atomic uint64_t *mem_pages; /* bit per TG_DRV_GRAN page: mapped */
	unsigned node, ctx, nodes, flags;
	unsigned block;              /* the NIC's block: largest frame payload, 16, 32 or 64 bytes */
	unsigned clock_khz;          /* the NIC's CLOCK_KHZ */
	int no_fetch;                /* the NIC has no fetch table: no tg_fetch, no tg_atomic_post */
	uint64_t id;
	uint32_t seq;
	int async_err;               /* first error reported for a posted request */
	/* in-process: step this simulator while waiting */
	struct tg_sim *sim;
	int (*step)(struct tg_sim *sim, uint64_t ncycles);
	uint8_t *(*sim_mem)(struct tg_sim *sim, unsigned node);  /* in-process: a node's memory */
	char sim_name[TG_SIMP_NAME_MAX];  /* tg-sim: the simulator's name (its memory objects) */
	int32_t sim_pid;
	uint64_t spins;
	struct tg_mr *mrs;           /* live regions, freed at close */
	struct tg_mr *bounce;        /* tg_read's fetch buffers and completion words */
	/* last values written to the context's FETCH_LADDR, FETCH_CPL, OPERAND,
	 * COMPARE and KEY registers (bit i of creg_known: creg[i] is valid) */
	uint64_t creg[5];
	unsigned creg_known;
	/* PCI provider (tg_prov_pci.c): the mapped BAR; NULL on the simulator */
	struct tg_pcidev *pci;
	/* Ethernet provider (tg_prov_eth.c): the board's bridge; NULL otherwise */
	struct tg_ethdev *eth;
	/* REQs this device issued (tg_enq_ticket), the NIC's number of the
	 * context's last REQ when it opened (REQ_STATE [15:0]), and the
	 * targets of the latest ones, by ticket, for naming a failed one */
	uint64_t enq_issued;
	uint64_t enq_mark;           /* enq_issued when tg_enq_wait last returned */
	uint16_t enq_base;
	struct tg__enq_target { uint32_t qpaddr; uint16_t node; } enq_recent[TG__ENQ_RECENT];
	/* the last failure of a call on this device, in words (tg_dev_error) */
	_Atomic int err_lock;
	char err_msg[320];
};

/* Error text (tg_dev_error).  Every public call that takes a device runs
 * as p = tg__enter(dev); return tg__leave(p, dev, "tg_name", body(...)):
 * a call records a failure on its device, with the reason its body gave
 * by tg__why() or else tg_strerror's, unless it runs inside a call on the
 * same device (p, the device of the call it runs in), which then records
 * its own failure with that reason.  -EAGAIN is recorded only when
 * `again` is 1 (not for the polling calls, where it means "not yet"). */
const struct tg_dev *tg__enter(const struct tg_dev *dev);
int tg__leave(const struct tg_dev *parent, const struct tg_dev *dev, const char *call, int rc,
	      int again);
/* The same for a constructor: r, or NULL with errno kept. */
void *tg__leave_ptr(const struct tg_dev *parent, const struct tg_dev *dev, const char *call,
		    void *r);
void tg__why(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Start counting the context's REQs at open: take the NIC's number of its
 * last REQ, and clear failures a former owner of the context left. */
int tg__enq_open(struct tg_dev *dev);

/* Context registers tg__ctx_reg_set caches. */
enum { TG__CREG_LADDR, TG__CREG_CPL, TG__CREG_OPERAND, TG__CREG_COMPARE, TG__CREG_KEY };

/* Attach dev (ctl, mem and, in-process, step set) to a context of `node`. */

int tg__attach(struct tg_dev *dev, unsigned node, unsigned flags);

/* Free what tg__attach and the open functions set up. */
void tg__detach(struct tg_dev *dev);

/* Called while polling for an answer: step the simulator, or spin/yield and
 * watch for the simulator's end.  Returns 0, or -ENOTCONN. */
int tg__wait(struct tg_dev *dev);

/* One host-port read; blocks for the answer.  Returns 0 or -errno. */
int tg__mmio_read(struct tg_dev *dev, uint64_t addr, uint64_t *val);

/* A write burst of n (1..8) beats to consecutive words from addr (posted).
 * Returns 0 or -errno. */
int tg__mmio_write(struct tg_dev *dev, uint64_t addr, const uint64_t *data,
		   const uint8_t *strb, unsigned n);

/* Driver call: allocate len bytes aligned to align of node memory. */
int tg__mem_alloc(struct tg_dev *dev, uint64_t len, uint64_t align, uint64_t *paddr);

/* Driver call: free (posted). */
int tg__mem_free(struct tg_dev *dev, uint64_t paddr);

/* Map [paddr, paddr + len) of the node's memory into this process, where
 * only the pages it uses are mapped (mem_guard); tg__mem_hide unmaps them
 * again.  Return 0 or -errno; nothing to do without mem_guard. */
int tg__mem_expose(struct tg_dev *dev, uint64_t paddr, uint64_t len);
void tg__mem_hide(struct tg_dev *dev, uint64_t paddr, uint64_t len);

/* Driver call answered by the simulator: *out (may be NULL) gets its data.
 * Returns its error. */
int tg__drv_call(struct tg_dev *dev, uint8_t op, uint64_t addr, uint64_t data, uint64_t *out);

/* Driver call answered only on error (reported by a later call). */
int tg__drv_post(struct tg_dev *dev, uint8_t op, uint64_t addr, uint64_t data);

/* Write context register `which` (TG__CREG_*) unless it already holds val
 * (posted).  Returns 0 or -errno. */
int tg__ctx_reg_set(struct tg_dev *dev, unsigned which, uint64_t val);

/* The outcome of the device's last blocking load (LAST_STATUS): 0 or
 * -errno.  Asked when a load answered all ones, which is both a value and
 * what a failed load answers.  Leaves the sticky STATUS alone. */
int tg__last_status(struct tg_dev *dev);

/* Driver calls of the region table (simulator only): export [paddr,
 * paddr + len) with TG_RIGHT_* rights, *key gets the key; revoke by key.
 * Return 0 or -errno. */
int tg__region_export(struct tg_dev *dev, uint64_t paddr, uint64_t len, unsigned rights,
		      uint64_t *key);
int tg__region_revoke(struct tg_dev *dev, uint64_t key);

/* Revoke the region with key *key and set *key to 0.  Returns 0, -ENOENT
 * (*key is 0), or -errno. */
int tg__region_forget(struct tg_dev *dev, uint64_t *key);

/* Take (and clear) the first error reported for a posted request. */
int tg__async_err(struct tg_dev *dev);

/* PCI provider: attach dev to a context of the NIC at PCI address addr
 * ("dddd:bb:dd.f", or "" for the first NIC libpci finds); on failure the
 * caller still calls tg__detach.  Returns 0, or -errno with the reason in
 * msg (docs/hardware.md). */
int tg__pci_open(struct tg_dev *dev, const char *addr, unsigned flags, char *msg,
		 size_t msg_sz);

/* What the NIC's CONFIG register says, into dev: its block size, 16, 32 or
 * 64 bytes (0, from a NIC that predates the field, is 64; -EPROTO for any
 * other), and whether it has a fetch table (CONFIG [15:8] not 0). */
int tg__cfg_apply(struct tg_dev *dev, uint64_t cfg);

/* A reason in words, cut to the buffer (the providers' open messages). */
void tg__say(char *msg, size_t msg_sz, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* 1 if environment variable name is exactly "1". */
int tg__env_is_1(const char *name);

/* Say why this thread's tg_open / tg_open_sim failed (tg_open_error). */
void tg__open_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));


/* ---- the node's host memory as this process reaches it (tg_hmem.c) ----
 * Mapped (dev->mem: the simulator, PCI once the memory is set up), or
 * through the board's bridge (Ethernet provider, dev->mem NULL), where
 * every access is a round trip done before the next starts.  All return
 * 0 or -errno (-EOPNOTSUPP: no memory reachable). */

/* Load a word the NIC writes (acquire: what it wrote before is visible). */
int tg__hm_load(struct tg_dev *dev, uint64_t paddr, uint64_t *v);

/* Store a word (release: everything stored before goes out ahead). */
int tg__hm_store(struct tg_dev *dev, uint64_t paddr, uint64_t v);

/* Compare-and-swap a word no NIC writes: 1 swapped, 0 not (*expect gets
 * the value found), or -errno. */
int tg__hm_cas(struct tg_dev *dev, uint64_t paddr, uint64_t *expect, uint64_t v);

/* Clear bits of a word no NIC writes; *old (may be NULL) gets it before. */
int tg__hm_clear(struct tg_dev *dev, uint64_t paddr, uint64_t bits, uint64_t *old);

/* Copy len bytes out of or into memory (after or before the word that
 * publishes them, which orders them). */
int tg__hm_read(struct tg_dev *dev, uint64_t paddr, void *buf, size_t len);
int tg__hm_write(struct tg_dev *dev, uint64_t paddr, const void *buf, size_t len);

/* ---- the in-process driver (tg_ldrv.c): a node whose memory this process
 * owns (PCI, Ethernet) has its allocator, queue table, region table and
 * interrupt handling here, as a simulated node has them in tg-sim ---- */
struct tg_ldrv;

/* Set up the driver of memory [0, span) (queue memory as env says): reset
 * the NIC's queue table and its region table (protect: the key check on),
 * mask and clear its interrupts.  NULL and errno on failure. */
struct tg_ldrv *tg__ldrv_open(const struct tg_drv_qenv *env, uint64_t span, int protect);

/* Forget the regions and queues of context ctx, mask interrupts, free. */
void tg__ldrv_close(struct tg_ldrv *l, unsigned ctx);

/* Its allocator (the provider takes tg_read's buffers from it). */
struct tg_alloc *tg__ldrv_alloc(struct tg_ldrv *l);

/* A driver call (TG_SIMP_OP_ALLOC..RREVOKE) for context ctx. */
int tg__ldrv_call(struct tg_ldrv *l, unsigned ctx, uint8_t op, uint64_t addr, uint64_t data,
		  uint64_t *out);

/* Handle what IRQ_STATUS shows now.  Returns 0 or -errno. */
int tg__ldrv_service(struct tg_ldrv *l);

/* Notifications of queue-table entry idx handled so far. */
uint32_t tg__ldrv_wake_count(struct tg_ldrv *l, unsigned idx);

/* The driver of dev's node in this process: PCI sets it up on first use
 * (tg__pci_dma), Ethernet at open.  NULL with *rc (may be NULL) when
 * there is none. */
struct tg_ldrv *tg__ldrv_of(struct tg_dev *dev, int *rc);

/* Wait at most max_ns for an interrupt of dev's node, unless the count of
 * idx has moved from w, then handle the causes.  Returns 0 or -errno. */
int tg__ldrv_wait(struct tg_dev *dev, unsigned idx, uint32_t w, uint64_t max_ns);

/* ---- Ethernet provider (tg_prov_eth.c) ---- */

/* Attach dev to the NIC of a board behind its memory-bus bridge:
 * spec "IFNAME" or "IFNAME:NODE" on a Linux interface (raw socket, needs
 * CAP_NET_RAW), or sim nonzero and spec a Unix datagram socket's path
 * (tg-board-sim).  On failure the caller still calls tg__detach.
 * Returns 0, or -errno with the reason in msg. */
int tg__eth_open(struct tg_dev *dev, const char *spec, int sim, unsigned flags, char *msg,
		 size_t msg_sz);

#endif /* TG_INTERNAL_H */
