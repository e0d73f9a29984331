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
