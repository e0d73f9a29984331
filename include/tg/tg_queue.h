/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Software conventions of a remote-enqueue queue buffer shared by the driver and libtg (words the NIC never reads). */
#ifndef TG_QUEUE_H
#define TG_QUEUE_H

#include "tg/tg_hw.h"

/*
 * The NIC reads Q_HEAD and writes the slots and Q_TAIL of a queue's first
 * buffer (tg_hw.h).  The rest of the second (host-written) cache line
 * belongs to software:
 *
 *   Q_FLAGS  QF_DNP and QF_FULL (tg_hw.h) plus QF_DRIVER below;
 *   QSW_LOCK consumers' lock word (first buffer only): 0 free, else the
 *            holder's tag; taken with compare-and-swap.
 *
 * The handshake on Q_FLAGS of the first buffer (docs/enqueue.md):
 *   dequeuer: CAS  f -> f | QF_DNP      only if !(f & QF_DRIVER)
 *             ... take an entry ...
 *             fetch-and-clear QF_DNP; if the old value had QF_FULL, ask
 *             the driver to grow the queue;
 *   driver:   CAS  f -> f | QF_DRIVER   only if !(f & QF_DNP), then take
 *             the buffers over and store f & ~(QF_DRIVER | QF_FULL);
 *             or, if QF_DNP is set, CAS f -> f | QF_FULL (only while
 *             QF_DNP is still set) and leave the queue closed.
 */
#define TG_QF_DRIVER     0x4ULL    /* the driver is moving this queue's buffers */
#define TG_QSW_LOCK      0x60ULL   /* u64 consumers' lock word (first buffer) */

/* Bytes of the slot area of a buffer of 2^log2 bytes. */
#define TG_Q_SLOT_BYTES(log2)   ((1ULL << (log2)) - TG_Q_SLOTS)

#endif /* TG_QUEUE_H */
