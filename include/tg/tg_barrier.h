/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Every memory-ordering primitive used by libtg, the driver and the simulator. */
#ifndef TG_BARRIER_H
#define TG_BARRIER_H

#include <stdatomic.h>
#include <stdint.h>

/*
 * Two kinds of shared words exist:
 *
 *  - ring words (head/tail counters, slot states) shared between a client
 *    and the simulator: declared _Atomic and accessed with the
 *    TG_ATOMIC_* macros below;
 *  - plain 64-bit words in host memory that the NIC writes (completion
 *    words) or that the host publishes to the NIC: accessed with the
 *    TG_DEV_* / TG_HOST_* macros, which use the GCC/Clang __atomic
 *    builtins so that the word itself stays an ordinary uint64_t.
 *
 * Every use in the tree carries a comment saying what it orders.
 */

/* Load a ring word written by the other side; later reads of the data it
 * guards cannot move before it. */
#define TG_ATOMIC_LOAD_ACQ(p)       atomic_load_explicit((p), memory_order_acquire)
/* Publish a ring word; earlier writes of the data it guards are visible
 * to whoever acquire-loads the new value. */
#define TG_ATOMIC_STORE_REL(p, v)   atomic_store_explicit((p), (v), memory_order_release)
/* Read a word only this side writes (own counter): no ordering needed. */
#define TG_ATOMIC_LOAD_OWN(p)       atomic_load_explicit((p), memory_order_relaxed)
/* A counter that publishes nothing with it (the simulated-cycle clock):
 * no ordering, but one untorn 64-bit access. */
#define TG_ATOMIC_LOAD_CLOCK(p)     atomic_load_explicit((p), memory_order_relaxed)
#define TG_ATOMIC_STORE_CLOCK(p, v) atomic_store_explicit((p), (v), memory_order_relaxed)
/* Bump an event counter others sleep on; what we did before is visible to
 * whoever acquire-loads the new value. */
#define TG_ATOMIC_ADD_REL(p, v)     atomic_fetch_add_explicit((p), (v), memory_order_release)
/* Claim a slot: compare-and-swap with acquire on success (we then read the
 * slot) and release (our earlier writes are visible with the claim). */
#define TG_ATOMIC_CAS_ACQREL(p, expp, v)                                      \
	atomic_compare_exchange_strong_explicit((p), (expp), (v),             \
						memory_order_acq_rel,         \
						memory_order_acquire)

/* Load a 64-bit word the device (NIC) writes into host memory, e.g. a
 * completion word; the data the device wrote before it is visible after. */
#define TG_DEV_LOAD_ACQ64(p)        __atomic_load_n((const uint64_t *)(p), __ATOMIC_ACQUIRE)
/* Store a full 64-bit word into host memory as one 8-byte store, ordered
 * after every earlier store: how the NIC (the memory model) writes words
 * the host polls, and how the host publishes words the NIC reads. */
#define TG_HOST_STORE_REL64(p, v)   __atomic_store_n((uint64_t *)(p), (uint64_t)(v), __ATOMIC_RELEASE)
/* Load a 64-bit word that another host thread or process publishes in
 * shared host memory (a queue's head, next pointer, flags); what it wrote
 * before the matching release is visible after. */
#define TG_HOST_LOAD_ACQ64(p)       __atomic_load_n((const uint64_t *)(p), __ATOMIC_ACQUIRE)
/* Read a host-memory word only this side writes while it holds the right
 * to (e.g. a head under the queue's do-not-preempt bit): no ordering. */
#define TG_HOST_LOAD_OWN64(p)       __atomic_load_n((const uint64_t *)(p), __ATOMIC_RELAXED)
/* Compare-and-swap on a 64-bit host-memory word (queue flags, lock word):
 * acquire on success (we then read what the last owner published) and
 * release (our earlier writes go with the new value).  *expp gets the
 * current value on failure. */
#define TG_HOST_CAS64(p, expp, v)                                             \
	__atomic_compare_exchange_n((uint64_t *)(p), (expp), (uint64_t)(v), 0, \
				    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)
/* Atomically clear bits of a 64-bit host-memory word and return its old
 * value: release (our writes before it are published) and acquire (bits
 * another side set before are seen with what it wrote). */
#define TG_HOST_FETCH_AND64(p, v)   __atomic_fetch_and((uint64_t *)(p), (uint64_t)(v), __ATOMIC_ACQ_REL)

/* Single byte store with release ordering (partial-strobe device writes). */
#define TG_HOST_STORE_REL8(p, v)    __atomic_store_n((uint8_t *)(p), (uint8_t)(v), __ATOMIC_RELEASE)

/* Write barrier before a doorbell: host-memory stores before it (e.g.
 * clearing a completion word) are visible to the device before the MMIO
 * store after it.  On x86 this is sfence (needed for write-combined BAR
 * mappings); elsewhere a full fence. */
#if defined(__x86_64__) || defined(__i386__)
#define TG_WMB()                    __asm__ __volatile__("sfence" ::: "memory")
#else
#define TG_WMB()                    __atomic_thread_fence(__ATOMIC_SEQ_CST)
#endif

/* Full fence: orders everything before against everything after. */
#define TG_MB()                     __atomic_thread_fence(__ATOMIC_SEQ_CST)

/* Spin-wait hint for polling loops. */
#if defined(__x86_64__) || defined(__i386__)
#define TG_CPU_RELAX()              __asm__ __volatile__("pause" ::: "memory")
#else
#define TG_CPU_RELAX()              __asm__ __volatile__("" ::: "memory")
#endif

#endif /* TG_BARRIER_H */
