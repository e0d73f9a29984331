/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* libtg: user-level access to remote memory through the Telegraphos NIC. */
#ifndef TG_H
#define TG_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "tg/tg_bar.h"
#include "tg/tg_hw.h"
#include "tg/tg_queue.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Conventions
 *  - int functions return 0 (or a documented non-negative value) on success
 *    and a negative errno value on failure; constructors return NULL and set
 *    errno.  Close and free functions accept NULL.  The library never prints.
 *  - tg_dev_error(dev) says in words which call last failed on the device
 *    and why; tg_open_error() does the same for opening.
 *  - NULL handles and bad arguments, one rule by return type: a call that
 *    returns int gives -EINVAL (the int getters tg_node_id, tg_num_nodes
 *    and tg_context too); a constructor gives NULL with errno EINVAL; a
 *    getter of a size, address, key, identity or cycle count gives 0 and
 *    one of a pointer NULL; close and free do nothing; through a NULL
 *    window a store is dropped and a load gives all ones.
 *  - A struct tg_dev and everything made from it is used by one thread at a
 *    time; separate threads open separate devices.
 *  - Ordering: requests of one device reach its NIC in the order the calls
 *    are made, and the NIC performs operations from one node to another in
 *    that order.  Writes are posted: a returned tg_write has been handed to
 *    the NIC, not performed; tg_fence() waits for them.
 *  - Remote addresses ("raddr") are physical addresses in the target node's
 *    host memory, as tg_mr_paddr() gives them, below 2^32.
 */

struct tg_dev;
struct tg_sim;
struct tg_mr;
struct tg_win;
struct tg_queue;

/* tg_open flags */
#define TG_OPEN_DRIVER   0x1u   /* may use the CSR page (tools, statistics) */

/* tg_mr_alloc access rights: what remote nodes may do once the region is
 * exported with tg_mr_export (docs/security.md) */
#define TG_ACCESS_LOCAL_WRITE   0x1u
#define TG_ACCESS_REMOTE_READ   0x2u    /* reads and fetches */
#define TG_ACCESS_REMOTE_WRITE  0x4u    /* writes */
#define TG_ACCESS_REMOTE_ATOMIC 0x8u    /* fetch-and-add, swap, compare-and-swap */
#define TG_ACCESS_ALL           0xFu

/* ---- Devices ------------------------------------------------------------ */

/* Attach to a NIC.  dev: "sim:NODE" (the simulator named "tg", or the name
 * in $TG_SIM_NAME) or "sim:NAME:NODE"; or "pci:DOMAIN:BUS:DEV.FN" (or
 * "pci:BUS:DEV.FN"), a NIC on the PCI bus found with libpci and reached
 * through its sysfs resource file, or "pci:" for the first NIC libpci finds
 * (lowest address) (docs/hardware.md).  There the first process that needs
 * host memory (tg_mr_alloc, a multi-word tg_read on a NIC with fetches,
 * queues) maps the node's
 * DMA memory and acts as its driver; those calls fail in other processes
 * with EBUSY, and with ENOMEM, EPERM or EXDEV where hugepages are missing
 * (tgctl dma-check says why).  Or "eth:IFNAME" (or "eth:IFNAME:NODE"),
 * the NIC of an FPGA board whose memory-bus bridge is on the Linux
 * interface IFNAME (raw Ethernet frames: needs CAP_NET_RAW), or
 * "ethsim:PATH", a simulated board's bridge on the Unix datagram socket
 * PATH (tg-board-sim) (docs/fpga.md): this process becomes the driver of
 * the board's memory, which is not mapped (tg_mr_ptr answers NULL: use
 * tg_mr_read and tg_mr_write).  Takes one NIC context of that node
 * and reads CSR ID through the NIC.
 * Returns the device, owned by the caller (tg_close), or NULL with errno:
 * EINVAL bad string or flags, ENXIO no such simulator running, ENODEV node
 * out of range, hosted by another process of a split cluster
 * (docs/distributed.md), or no NIC at that PCI address (or none at all),
 * EACCES no access to the resource file, EBUSY every context of the node
 * taken, EPROTO the NIC has a foreign ID or major version or its BAR is
 * smaller than the host port, ETIMEDOUT the simulator or the board did not
 * answer, EPERM no right to open a raw socket, ENOMEM.  tg_open_error() says why in words. */
struct tg_dev *tg_open(const char *dev, unsigned flags);

/* Why this thread's last tg_open or tg_open_sim failed, in words, naming
 * the device and what to change (e.g. both ID versions when the NIC's
 * major version is foreign); "" after a success.  Thread-local, valid
 * until the thread's next open. */
const char *tg_open_error(void);

/* Attach to node `node` of a simulator running in this process (tests).
 * Blocking calls on the device step the simulator until their answer
 * arrives, so the run is deterministic.  Errors as tg_open.  The device
 * must be closed before the simulator is destroyed. */
struct tg_dev *tg_open_sim(struct tg_sim *sim, unsigned node, unsigned flags);

/* Release the context and free the memory regions still allocated through
 * it (their handles become invalid: do not use or free them afterwards).
 * Writes already posted still go out.  Accepts NULL. */
void tg_close(struct tg_dev *dev);

/* This device's node id, or -EINVAL. */
int tg_node_id(const struct tg_dev *dev);

/* Nodes in the cluster, or -EINVAL. */
int tg_num_nodes(const struct tg_dev *dev);

/* The NIC context this device owns (0..15), or -EINVAL. */
int tg_context(const struct tg_dev *dev);

/* Bytes of host memory each node exports (its MEM_SIZE), or 0 for NULL. */
uint64_t tg_mem_size(const struct tg_dev *dev);

/* The NIC's block: the largest payload of one frame, 64 bytes, or 16 or
 * 32 on a NIC built narrower (CONFIG [31:24]).  Writes go out in bursts
 * inside one block, a fetch and a queue entry fit in one; 0 for NULL. */
unsigned tg_block_bytes(const struct tg_dev *dev);

/* The clock the NIC runs at, in kHz (its CLOCK_KHZ): what a cycle of
 * tg_cycles() and of the NIC's timestamps lasts: the board's core clock,
 * on a board and by default on the simulator (41 667 on the Colorlight);
 * 0 if the NIC does not say, or for NULL. */
unsigned tg_clock_khz(const struct tg_dev *dev);

/* Copy len bytes of node `node`'s host memory, from physical address
 * paddr, into buf: straight out of the simulator's memory model, not
 * through a NIC, so it changes nothing and needs no rights.  For checking
 * what remote operations did (that a refused write left the target's
 * memory as it was, say) from a program attached to tg-sim or on an
 * in-process cluster; any node of the cluster this process can see.
 * It sees what the memory model holds at the call: a remote write is
 * there once a tg_fence to the node has returned.
 * `tgctl mem` prints the same.  Returns 0, -EINVAL (NULL dev or buf, node
 * out of range), -EFAULT (past MEM_SIZE), -EOPNOTSUPP (a PCI or Ethernet
 * device: tg_read reaches remote memory there), -ENODEV (another process
 * of a split cluster hosts the node). */
int tg_sim_mem_read(const struct tg_dev *dev, unsigned node, uint64_t paddr, void *buf,
		    size_t len);

/* CSR ID read from the NIC at open. */
uint64_t tg_nic_id(const struct tg_dev *dev);

/* Check a CSR ID value: 0 if magic and major version are the ones this
 * library speaks, else -EPROTO. */
int tg_check_id(uint64_t id);

/* Read CSR register `reg` (a TG_CSR_REG_* offset) of the local NIC into
 * *val.  Blocking; ordered after every earlier request of this device.
 * Returns 0, -EPERM without TG_OPEN_DRIVER, -EINVAL bad arguments. */
int tg_csr_read(struct tg_dev *dev, uint64_t reg, uint64_t *val);

/* Write CSR register `reg` (driver only; posted).  Returns 0, -EPERM,
 * -EINVAL. */
int tg_csr_write(struct tg_dev *dev, uint64_t reg, uint64_t val);

/* Read and clear this context's sticky STATUS.  Returns 0 when no request
 * failed since the last call, else the first failure as -errno (see
 * tg_status_errno): requests the NIC refused at its host port, reads and
 * fetches that failed, and blocking calls that have already returned
 * their own error.  Not REQs: tg_enq_wait reports each of theirs, with
 * the REQ's ticket.  Blocking, ordered after every earlier request. */
int tg_ctx_status(struct tg_dev *dev);

/* ---- Registered memory -------------------------------------------------- */

/* Allocate len bytes of this node's host memory that remote nodes may
 * reach at tg_mr_paddr(), page aligned.  The contents are whatever the
 * memory held before (a fresh simulator's memory is zero).
 * access: TG_ACCESS_* (stored only, see above).  Returns the region, owned
 * by the caller (tg_mr_free), or NULL with errno EINVAL, ENOMEM. */
struct tg_mr *tg_mr_alloc(struct tg_dev *dev, size_t len, unsigned access);

/* Local mapping of the region (valid until tg_mr_free).  NIC writes into it
 * become visible with release ordering: poll words with TG_DEV_LOAD_ACQ64.
 * NULL when the node's memory is not mapped into this process (a board
 * reached through its bridge: eth:, ethsim:). */
void *tg_mr_ptr(const struct tg_mr *mr);

/* Copy len bytes from offset off of the region into buf, or from buf into
 * it: through the mapping, or through the board's bridge where there is
 * none, so programs that use these run on every device.  A read sees what
 * the NIC wrote before the region's last word it read (acquire); a write
 * is in memory when the call returns, before any later doorbell.
 * Returns 0, -EINVAL (no region or buffer, or past its end), or -errno of
 * the bridge (-ETIMEDOUT). */
int tg_mr_read(const struct tg_mr *mr, size_t off, void *buf, size_t len);
int tg_mr_write(struct tg_mr *mr, size_t off, const void *buf, size_t len);

/* Physical address remote nodes use for the region's first byte. */
uint64_t tg_mr_paddr(const struct tg_mr *mr);

/* Length asked for at allocation. */
size_t tg_mr_len(const struct tg_mr *mr);

/* Access rights given at allocation. */
unsigned tg_mr_access(const struct tg_mr *mr);

/* Free the region (revoking it first if it is exported).  Without
 * protection on the target, remote accesses still in flight may land in
 * memory that is reused later: fence first.  Accepts NULL. */
void tg_mr_free(struct tg_mr *mr);

/* ---- Protection ----------------------------------------------------------
 * With protection on (tg-sim --protect; docs/security.md) a NIC executes a
 * remote read, write, atomic or REQ only if the request's key names a
 * region this node exported, the region grants that kind of access, and
 * every byte touched lies inside the region.  Anything else is refused
 * before memory is touched, counted (CSR PROT_REFUSED), and reported to
 * the sender: blocking calls and completion words return the reason;
 * posted writes return it at the sender context's next tg_fence to that
 * node (and then in tg_ctx_status), REQs at tg_enq_wait.  Reasons: -EACCES no region with this
 * key (wrong, guessed or revoked), -EPERM the region does not grant the
 * access, -EFAULT outside the region.  Without protection keys are
 * carried but not checked. */

/* Export the region to remote nodes with the rights of its TG_ACCESS_*
 * REMOTE bits, under a fresh random 64-bit key, which *key gets; give it
 * to the nodes that may use the region.  Exporting again returns the same
 * key.  Returns 0, -EINVAL (NULL, no remote right), -ENOSPC (the node's
 * TG_REGIONS regions are all exported), -EOPNOTSUPP (a NIC built without
 * a region table: CONFIG_NO_PROT), or on the PCI provider an error
 * of its driver role (-EBUSY: another process owns the node's memory;
 * docs/hardware.md). */
int tg_mr_export(struct tg_mr *mr, uint64_t *key);

/* The key the region is exported with, or 0. */
uint64_t tg_mr_key(const struct tg_mr *mr);

/* Revoke the export: from the return on, every access with the key is
 * refused (-EACCES), including requests already in flight, and none that
 * the target NIC had started is still running.  The key is never valid
 * again.  Returns 0, -EINVAL, -ENOENT (not exported). */
int tg_mr_revoke(struct tg_mr *mr);

/* The key every later request of this device carries (writes, reads,
 * fences, atomics, fetches, REQs), until set again: one store to the
 * context page, skipped when it already holds key.  A new context starts
 * with key 0, which names no region.  Returns 0 or -EINVAL. */
int tg_key_set(struct tg_dev *dev, uint64_t key);

/* ---- Remote memory by call ---------------------------------------------- */

/* Write len bytes from buf to raddr on node `node` (posted).  Any size and
 * alignment: split into bursts that stay in one block (tg_block_bytes), bytes
 * enabled by strobes.  buf may be reused on return.  Writes to one node
 * land in call order.  Returns 0, -EINVAL (NULL, len 0, bad node),
 * -ERANGE (raddr + len beyond 2^32), -EFAULT (beyond the target's
 * MEM_SIZE, which the NIC would refuse: the library refuses it first), or
 * an error of an earlier request reported since.  A write the target
 * refuses (protection) changes nothing there, and the target refuses this
 * device's later writes to it too until tg_fence reports the refusal.
 * With a key set, a write of more than one burst sends a check of its last
 * burst's range first, so a write crossing a region's bound lands none of
 * its bursts. */
int tg_write(struct tg_dev *dev, unsigned node, uint64_t raddr, const void *buf, size_t len);

/* Read len bytes at raddr on node `node` into buf; blocks until all have
 * arrived.  Uses one remote-window load for up to 8 bytes inside one word,
 * else pipelined fetches (up to 8 in flight), or on a NIC built without a
 * fetch table one load per word (a burst landing meanwhile may then be
 * seen in part).  Ordered after every earlier request of this device.  Returns 0, -EINVAL, -ERANGE, or the NIC's
 * status as -errno (-EFAULT outside the target's memory). */
int tg_read(struct tg_dev *dev, unsigned node, uint64_t raddr, void *buf, size_t len);

/* Wait until every earlier write to `node` is complete in its memory (one
 * load from the sync window).  Returns 0, -EINVAL, or the status the NIC
 * answers as -errno: the reason the target refused the last posted write
 * of this device's context that it refused since the context's last fence
 * to `node` (-EACCES, -EPERM, -EFAULT; reported once, and writes that
 * follow land again), or -EHOSTUNREACH. */
int tg_fence(struct tg_dev *dev, unsigned node);

/* Start a non-blocking fetch: len (1..tg_block_bytes) bytes at raddr on `node` into
 * local region mr at offset loff.  When the data is in local memory the NIC
 * writes the 8-byte completion word at offset cpl_off of cpl_mr (8-byte
 * aligned): bit 0 done, [15:8] status.  The library clears the word before
 * starting.  Rules, checked before anything is sent (-EINVAL): the remote
 * range stays inside one block, ((raddr ^ laddr) & 7) == 0, both
 * local ranges inside their regions.  At most 8 fetches are in flight per
 * NIC; a further one waits.  Returns 0 or -errno (-EOPNOTSUPP: a NIC
 * built without a fetch table, CONFIG [15:8] 0). */
int tg_fetch(struct tg_dev *dev, unsigned node, uint64_t raddr, struct tg_mr *mr, size_t loff,
	     size_t len, struct tg_mr *cpl_mr, size_t cpl_off);

/* Test a fetch's completion word (acquire load: the data is visible once it
 * reports done).  Returns 0 done, -EAGAIN not yet, or the status as -errno. */
int tg_fetch_test(struct tg_dev *dev, const struct tg_mr *cpl_mr, size_t cpl_off);

/* Wait for a fetch's completion word.  Returns as tg_fetch_test, never
 * -EAGAIN (or -ENOTCONN if the simulator stopped). */
int tg_fetch_wait(struct tg_dev *dev, const struct tg_mr *cpl_mr, size_t cpl_off);

/* ---- Remote atomics -----------------------------------------------------
 * Atomic operations on the 64-bit word at raddr (8-byte aligned) in node
 * `node`'s memory, executed by that node's NIC as one read-modify-write:
 * no other network operation on that node's memory (remote write, read,
 * atomic or enqueue, from any node) runs between its read and its write,
 * and each one executes once.  Every call returns the word's old value.
 *
 * Ordering: the NIC performs a device's requests to one node in call
 * order, so an atomic sees every earlier tg_write of this device to that
 * node, and a blocking atomic returns only after its write is in the
 * target's memory (as a fence would).  Non-blocking atomics of one device
 * to one node execute in the order they were started.
 *
 * The local CPU: the NIC's read-modify-write is atomic only with respect
 * to other NIC operations.  A plain store by the target node's own CPU to
 * a word that remote atomics update can fall between the NIC's read and
 * write and be lost (the InfiniBand rule).  A node that takes part in the
 * same protocol updates the word through its own NIC: call these functions
 * with node = tg_node_id(dev) (the request goes through the switch and
 * back, so it is ordered with the remote ones).  Plain loads of the word
 * are fine: the NIC writes it whole.
 *
 * A blocking call whose answer does not arrive within READ_TIMEOUT cycles
 * fails with -EHOSTUNREACH; the operation may or may not have executed at
 * the target. */

/* Fetch-and-add: *word += add (modulo 2^64); *old (may be NULL) gets the
 * value before.  Blocking: one operand store and one load of the
 * fetch-and-add window (the store is skipped when the context's operand
 * already holds `add`).  Returns 0, -EINVAL (NULL dev, node out of range,
 * raddr not 8-byte aligned), -ERANGE (raddr beyond 2^32), -EFAULT (raddr
 * beyond the target's MEM_SIZE, refused by the target NIC with nothing
 * changed), -EHOSTUNREACH, or another refusal as -errno. */
int tg_faa(struct tg_dev *dev, unsigned node, uint64_t raddr, uint64_t add, uint64_t *old);

/* Fetch-and-increment: tg_faa with add = 1 in a single load (the
 * fetch-and-increment window). */
int tg_fetch_inc(struct tg_dev *dev, unsigned node, uint64_t raddr, uint64_t *old);

/* Swap: *word = val; *old (may be NULL) gets the value before.  Errors as
 * tg_faa. */
int tg_swap(struct tg_dev *dev, unsigned node, uint64_t raddr, uint64_t val, uint64_t *old);

/* Compare-and-swap: if *word == expected then *word = desired.  *old (may
 * be NULL) gets the value the word held, so the swap happened exactly when
 * *old == expected; on failure it is the current value.  Errors as
 * tg_faa.  Returns 0 whether or not the swap happened. */
int tg_cas(struct tg_dev *dev, unsigned node, uint64_t raddr, uint64_t expected,
	   uint64_t desired, uint64_t *old);

/* Start a non-blocking atomic: aop is TG_AOP_FAA (operand = add),
 * TG_AOP_SWAP (operand = new value) or TG_AOP_CAS (operand = desired,
 * compare = expected; ignored by the others).  Its result is a 16-byte
 * record at offset off (8-byte aligned) of local region mr: word 0 gets
 * the old value, then word 1 the completion word (bit 0 done, [15:8]
 * status), which the library clears before starting.  At most 8 fetches
 * and atomics are in flight per NIC; a further one waits for a free
 * entry.  Returns 0 once handed to the NIC, or -EINVAL (bad arguments,
 * record outside mr), -ERANGE, -EOPNOTSUPP (a NIC built without a fetch
 * table, as tg_fetch); refusals by the target arrive in the completion
 * word. */
int tg_atomic_post(struct tg_dev *dev, unsigned node, uint64_t raddr, unsigned aop,
		   uint64_t operand, uint64_t compare, struct tg_mr *mr, size_t off);

/* Test the record of a non-blocking atomic (acquire load of its
 * completion word).  Returns 0 done (*old, may be NULL, gets the old
 * value), -EAGAIN not yet, -EINVAL bad arguments, or the target's
 * refusal as -errno (-EFAULT beyond its memory). */
int tg_atomic_test(struct tg_dev *dev, const struct tg_mr *mr, size_t off, uint64_t *old);

/* Wait for the record: as tg_atomic_test, never -EAGAIN (-ENOTCONN if the
 * simulator stopped). */
int tg_atomic_wait(struct tg_dev *dev, const struct tg_mr *mr, size_t off, uint64_t *old);

/* ---- Errors ------------------------------------------------------------- */

/* errno value (negative) for a NIC status code (TG_ST_*); 0 for TG_ST_OK. */
int tg_status_errno(unsigned status);

/* Readable reason for a negative errno value returned by libtg (NIC and
 * simulator cases included): the same words whichever call returned it.
 * Returns a static string. */
const char *tg_strerror(int err);

/* The last failure of a call on dev (or on a region or queue of dev, or
 * tg_win_open; window loads and stores record theirs for tg_win_error),
 * in words: the call, what went wrong, the errno name, e.g.
 * "tg_csr_write: the CSR page needs a device opened with TG_OPEN_DRIVER
 * (EPERM)".  An error that belongs to an earlier posted request says so
 * ("node 1 refused a write this context posted to it since the last
 * fence: ...").  Kept until the next failure; "" if no call has failed;
 * -EAGAIN from the polling calls (tg_deq, tg_fetch_test, tg_atomic_test)
 * is "not yet", not a failure, and is not kept.  The text is the calling
 * thread's copy, valid until its next call of this function. */
const char *tg_dev_error(const struct tg_dev *dev);

/* ---- Remote enqueue ----------------------------------------------------
 * A queue lives in the receiving node's memory as a chain of buffers
 * (docs/enqueue.md).  Any node appends an entry with one store burst to
 * the REQ window (tg_enq, tg_enq_multi); the receiver takes entries in
 * order with tg_deq / tg_deq_wait.  When the NIC's buffer fills, the
 * driver links a new buffer (or, during a dequeue, marks the queue full
 * and the dequeuer asks it to grow); meanwhile the NIC refuses REQs and
 * the senders' NICs retry them in order, so nothing is lost. */

/* Create a queue on dev's node: a first buffer of 2^log2_bytes bytes
 * (TG_Q_MIN_LOG2..TG_Q_MAX_LOG2) holding entries of entry_bytes (8, 16,
 * 32 or 64, at most tg_block_bytes) bytes; (2^log2_bytes - TG_Q_SLOTS) / entry_bytes - 1 entries
 * fit before it overflows.  The queue is registered with the NIC when the
 * call returns.  Returns the handle, owned by the caller (tg_queue_close),
 * or NULL with errno: EINVAL bad sizes, ENOSPC the NIC's 16 queues are
 * taken, ENOMEM. */
struct tg_queue *tg_queue_open(struct tg_dev *dev, unsigned log2_bytes, unsigned entry_bytes);

/* A further consumer of the existing queue at paddr on dev's node (another
 * thread or process; dev must be on the queue's node).  Closing it leaves
 * the queue.  NULL with errno EINVAL if paddr holds no queue header. */
struct tg_queue *tg_queue_attach(struct tg_dev *dev, uint64_t paddr);

/* Close: a queue made by tg_queue_open is unregistered and its buffers
 * freed (entries still in it are lost); an attached handle only goes
 * away.  Accepts NULL. */
void tg_queue_close(struct tg_queue *q);

/* Export the queue for remote enqueue: senders set *key with tg_key_set
 * before tg_enq to it.  The same key if already exported; revoked when
 * the queue is closed.  Returns 0, -EINVAL (NULL, or an attached handle),
 * -ENOSPC, -EOPNOTSUPP, or a PCI error as tg_mr_export. */
int tg_queue_export(struct tg_queue *q, uint64_t *key);

/* Revoke the queue's export as tg_mr_revoke. */
int tg_queue_revoke(struct tg_queue *q);

/* Physical address senders pass to tg_enq (the first buffer), 0 for NULL. */
uint64_t tg_queue_paddr(const struct tg_queue *q);

/* Entry size in bytes, 0 for NULL. */
unsigned tg_queue_entry_bytes(const struct tg_queue *q);

/* Take the oldest entry into buf (len >= the entry size; the entry's
 * bytes are copied).  Non-blocking.  Returns 0 when an entry was copied
 * into buf, and only then.  Without an entry: -EAGAIN the queue is empty,
 * -EINVAL (NULL, short len), -EIO a corrupt queue header, or the error of
 * the grow request it sent for a queue the NIC holds full.
 * After an entry is taken, the call still asks the driver to grow a queue
 * that overflowed meanwhile, and releases the queue's flag and lock word.
 * If one of those fails, the entry is delivered all the same (0), the
 * error is kept for tg_queue_error(), and the next call does the step
 * again (the queue stays marked full, the flag and word taken again).
 * Ordering: the tail the NIC wrote is acquire-loaded, so the entry's data
 * is complete; the new head is release-stored after the copy, so the NIC
 * never overwrites a slot being read.  Threads sharing the handle
 * serialize on its mutex; handles of one queue (other threads or
 * processes) on the lock word in the first buffer. */
int tg_deq(struct tg_queue *q, void *buf, size_t len);

/* As tg_deq, but sleep until an entry arrives or timeout_ns passes
 * (-ETIMEDOUT).  It arms the queue's notification at the NIC and sleeps
 * on the simulator's wake-up counter (futex), re-checking the queue at
 * least every millisecond.  With tg-sim the timeout is wall-clock time;
 * in-process it is simulated time (the call advances the clock). */
int tg_deq_wait(struct tg_queue *q, void *buf, size_t len, uint64_t timeout_ns);

/* First error a tg_deq or tg_deq_wait on this handle met after it had
 * delivered an entry (see tg_deq), since the last call; then cleared.
 * 0 if none, -EINVAL for NULL. */
int tg_queue_error(struct tg_queue *q);

/* Run fn(q, arg) inside every tg_deq on this handle, right after the
 * dequeue has set QF_DNP and before it reads the queue (fn NULL: no
 * longer).  For testing a consumer's overload path: REQs that overflow
 * the buffer while fn runs find a dequeue in progress, so the driver
 * marks the queue QF_FULL instead of moving its entries, and the
 * dequeue asks it to grow on the way out (docs/enqueue.md).  fn runs
 * with the handle's mutex held: it must not call tg_deq or this
 * function on the same handle.  Returns 0, or -EINVAL for NULL q. */
int tg_queue_set_deq_hook(struct tg_queue *q, void (*fn)(struct tg_queue *q, void *arg),
			  void *arg);

/* Ask the driver to grow the queue (the paper's ioctl): if the NIC holds
 * it full, its entries move to a new buffer and it reopens; nothing to do
 * for an open queue.  Returns 0 or -errno.  tg_deq calls it when it finds
 * QF_FULL. */
int tg_queue_grow(struct tg_queue *q);

/* Simulated cycle count as the simulator last published it (every
 * simulated cycle, so it lags the simulator by at most the cycles
 * simulated while the caller reads it).  It counts from the simulator's
 * start, 16 cycles (the reset) ahead of a NIC's CYCLES, which its
 * timestamps count: compare stamps with CSR CYCLES.  On a PCI device
 * (opened with TG_OPEN_DRIVER, else 0) and an FPGA board it is CSR
 * CYCLES.  0 for NULL. */
uint64_t tg_cycles(const struct tg_dev *dev);

/* Internals of tg_enq.  Not for applications. */
int __tg_enq_store(struct tg_dev *dev, unsigned node, uint64_t qpaddr, const uint64_t *words,
		   unsigned n);

/* Queue address a sender may use: a queue's first buffer is aligned to
 * its size, at least 2^TG_Q_MIN_LOG2, nonzero and below 2^32. */
static inline int __tg_enq_addr_ok(uint64_t qpaddr)
{
	return qpaddr && !(qpaddr & ((1ULL << TG_Q_MIN_LOG2) - 1)) &&
	       !(qpaddr >> TG_PADDR_BITS);
}

/* Append the 8-byte entry `data` to the queue at qpaddr on node `node`:
 * one store to the REQ window (on hardware a single volatile store at
 * the window's base + the address; in the simulator one host-port beat
 * through the request ring).  Posted: returns once handed to the NIC,
 * which resends a REQ the target refuses while its queue is full.  The
 * REQ's ticket is then tg_enq_ticket(dev); whether it was delivered,
 * tg_enq_wait says (a REQ to an address where no queue is fails there
 * with -ENOENT).  Returns 0, -EINVAL (NULL dev, node out of range, qpaddr
 * no queue address) before anything is sent, or the error of an earlier
 * request the simulator's host port refused.  REQs of one device to one
 * queue land in call order. */
static inline int tg_enq(struct tg_dev *dev, unsigned node, uint64_t qpaddr, uint64_t data)
{
	if (!dev || !__tg_enq_addr_ok(qpaddr))
		return -EINVAL;
	return __tg_enq_store(dev, node, qpaddr, &data, 1);
}

/* Append one entry of n (1..tg_block_bytes / 8) words: one burst of n beats, one frame;
 * the receiver zero-fills an entry shorter than the queue's entry size
 * (longer ones are refused: MALFORMED).  Checks as tg_enq, plus words
 * NULL or n out of range: -EINVAL. */
int tg_enq_multi(struct tg_dev *dev, unsigned node, uint64_t qpaddr, const uint64_t *words,
		 unsigned n);

/* ---- Outcome of REQs ----------------------------------------------------
 * Every REQ a device issues (tg_enq, tg_enq_multi returning 0) gets a
 * ticket: 1 for the device's first, then counting up.  The sender's NIC
 * keeps the REQ until it is finished: delivered (the entry is in the
 * queue), refused for good by the target, which then wrote nothing
 * (-ENOENT no queue at the address; -EINVAL an entry longer than the
 * queue's; with protection -EACCES, -EPERM, -EFAULT as for writes), or
 * given up for want of an answer within the NIC's READ_TIMEOUT
 * (-EHOSTUNREACH: the entry may or may not be in the queue, as for a
 * blocking call that times out).  A queue that is full is no failure: the
 * NIC resends until it takes the entry.
 * A REQ's failure is reported by tg_enq_wait only, with its ticket, and
 * by no other call: not tg_enq, tg_fence or tg_ctx_status.  Opening a
 * device waits (up to a second) for REQs its context's former owner left
 * in flight, so that their outcomes are not taken for the new owner's. */

/* The ticket of the last REQ this device issued; 0 before the first, or
 * for NULL. */
uint64_t tg_enq_ticket(const struct tg_dev *dev);

/* Wait until every REQ this device has issued, to any node, is finished,
 * or timeout_ns passes (-ETIMEDOUT; nothing is reported then, and a later
 * call reports it all).  With tg-sim and on boards the timeout is
 * wall-clock time; in-process it is simulated time (the call advances
 * the clock).  Returns 0 if every REQ that finished since the last
 * tg_enq_wait was delivered.  Else the first of them that failed, in the
 * order they finished: its reason as -errno (above) and its ticket in
 * *failed (when failed is not NULL).  The NIC keeps the first failure's
 * number and a count of the others, not their tickets: tg_dev_error
 * gives the ticket (with its node and queue if it is one of the device's
 * last 64 REQs) and how many failed.  Those failures are then reported.
 * *failed is 0 when the ticket cannot be known: 65 536 or more REQs
 * issued since the last call (the NIC numbers REQs modulo 2^16), or a REQ
 * that reached the NIC though its call failed.  Also -EINVAL (NULL dev),
 * -ENOTCONN (the simulator stopped), or the bridge's error.  A REQ can
 * wait as long as a consumer leaves its queue full, or for ever for a
 * node that never answers when READ_TIMEOUT is 0: choose the timeout. */
int tg_enq_wait(struct tg_dev *dev, uint64_t timeout_ns, uint64_t *failed);

/* ---- Remote memory by mapped pointer ------------------------------------
 * A window is node `node`'s memory seen through the remote window: a store
 * of 8, 4 or 1 bytes at offset off is a posted remote write, a 64-bit load
 * a blocking remote read.  On hardware each call is one volatile access at
 * base + off; in the simulator it goes through the request ring.  Offsets
 * are remote physical addresses; misaligned accesses are refused (the
 * store is dropped; the load returns all ones) and recorded as -EINVAL for
 * tg_win_error().  A store beyond the target's MEM_SIZE is refused by the
 * target NIC and changes nothing (the next tg_fence to the node reports
 * it); a load beyond it returns all ones and sets the context STATUS
 * (tg_ctx_status()).  Through a NULL window a store is dropped and a load
 * returns all ones. */

/* Open a window on node `node`.  NULL + errno (EINVAL) on failure.  Owned by
 * the caller (tg_win_close), which must not outlive dev. */
struct tg_win *tg_win_open(struct tg_dev *dev, unsigned node);

/* Close.  Accepts NULL. */
void tg_win_close(struct tg_win *win);

/* First error a window call recorded since the last call (then cleared),
 * or 0. */
int tg_win_error(struct tg_win *win);

/* Internals of the inline calls below.  Not for applications. */
struct tg_win {
	volatile uint8_t *__base;   /* mapped window on hardware, NULL in the simulator */
	struct tg_dev *__dev;
	uint64_t __limit;           /* bytes reachable through the window */
	unsigned __node;
	int __err;
	uint64_t __rsvd[4];
};
void __tg_win_store(struct tg_win *win, uint64_t off, uint64_t val, unsigned size);
uint64_t __tg_win_load64(struct tg_win *win, uint64_t off);

static inline int __tg_win_ok(struct tg_win *win, uint64_t off, unsigned size)
{
	if (!win)
		return 0;        /* no window: the store is dropped, the load gives all ones */
	if ((off & (size - 1u)) || off >= win->__limit || win->__limit - off < size) {
		if (!win->__err)
			win->__err = -EINVAL;
		return 0;
	}
	return 1;
}

/* Store 8 bytes at off (8-byte aligned): posted remote write. */
static inline void tg_win_store64(struct tg_win *win, uint64_t off, uint64_t val)
{
	if (!__tg_win_ok(win, off, 8))
		return;
	if (win->__base)
		*(volatile uint64_t *)(win->__base + off) = val;
	else
		__tg_win_store(win, off, val, 8);
}

/* Store 4 bytes at off (4-byte aligned). */
static inline void tg_win_store32(struct tg_win *win, uint64_t off, uint32_t val)
{
	if (!__tg_win_ok(win, off, 4))
		return;
	if (win->__base)
		*(volatile uint32_t *)(win->__base + off) = val;
	else
		__tg_win_store(win, off, val, 4);
}

/* Store 1 byte at off. */
static inline void tg_win_store8(struct tg_win *win, uint64_t off, uint8_t val)
{
	if (!__tg_win_ok(win, off, 1))
		return;
	if (win->__base)
		*(volatile uint8_t *)(win->__base + off) = val;
	else
		__tg_win_store(win, off, val, 1);
}

/* Load 8 bytes at off (8-byte aligned): blocking remote read.  All ones if
 * refused (see above). */
static inline uint64_t tg_win_load64(struct tg_win *win, uint64_t off)
{
	if (!__tg_win_ok(win, off, 8))
		return ~0ULL;
	if (win->__base)
		return *(volatile uint64_t *)(win->__base + off);
	return __tg_win_load64(win, off);
}

#ifdef __cplusplus
}
#endif

#endif /* TG_H */
