/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Host memory model serving a NIC's memory master port: in-order responses, random wait states. */
#ifndef TG_MEMMODEL_H
#define TG_MEMMODEL_H

#include <stdint.h>

#define TG_MM_QDEPTH  64u   /* requests accepted and not yet answered */

struct tg_mm_req {
	uint64_t due;            /* cycle of the response */
	uint64_t addr, wdata;
	uint8_t write, strb;
};

struct tg_memmodel {
	uint8_t *mem;
	uint64_t size;
	unsigned lat_min, lat_max, stall_pct;
	uint64_t rng;
	struct tg_mm_req q[TG_MM_QDEPTH];
	unsigned head, count;
	uint64_t last_due;
	uint64_t reads, writes, oob;
};

void tg_mm_init(struct tg_memmodel *m, uint8_t *mem, uint64_t size, unsigned lat_min,
		unsigned lat_max, unsigned stall_pct, uint64_t seed);

/* Inputs of the NIC for cycle `now`: m_mem_req_ready, and the response
 * due this cycle, if any.  A response's write (or read) takes effect here:
 * a write is in memory when the NIC sees its response. */
void tg_mm_outputs(struct tg_memmodel *m, uint64_t now, uint8_t *ready, uint8_t *resp_valid,
		   uint64_t *rdata);

/* The NIC's request that fired in cycle `now` (valid && ready). */
void tg_mm_accept(struct tg_memmodel *m, uint64_t now, int write, uint64_t addr,
		  uint64_t wdata, uint8_t strb);

/* The random draws `n` cycles of tg_mm_outputs make for the ready
 * stalls, made without the cycles (fast-forward: nothing is queued). */
void tg_mm_skip_draws(struct tg_memmodel *m, uint64_t n);

#endif /* TG_MEMMODEL_H */
