/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Host memory model: exact byte strobes, release-ordered word stores, seeded wait states. */
#include <string.h>

#include "tg/tg_barrier.h"
#include "tg_memmodel.h"
#include "tg_rng.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the memory model stores NIC words as they are: little-endian hosts only"
#endif

void tg_mm_init(struct tg_memmodel *m, uint8_t *mem, uint64_t size, unsigned lat_min,
		unsigned lat_max, unsigned stall_pct, uint64_t seed)
{
	memset(m, 0, sizeof(*m));
	m->mem = mem;
	m->size = size;
	m->lat_min = lat_min ? lat_min : 1;
	m->lat_max = lat_max < m->lat_min ? m->lat_min : lat_max;
	m->stall_pct = stall_pct > 99 ? 99 : stall_pct;
	m->rng = seed;
}

/* Carry out request r now. */
static uint64_t perform(struct tg_memmodel *m, const struct tg_mm_req *r)
{
	uint8_t *p;
	unsigned i;

	if (r->addr >= m->size || m->size - r->addr < 8) {
		m->oob++;       /* ignored: the NIC should have refused it */
		return 0;
	}
	p = m->mem + r->addr;
	if (!r->write) {
		m->reads++;
		/* the host may be storing to this word right now */
		return TG_DEV_LOAD_ACQ64(p);
	}
	m->writes++;
	if (r->strb == 0xff) {
		/* a whole word: one 8-byte store, ordered after every earlier
		 * write, so a host polling it sees the data written before */
		TG_HOST_STORE_REL64(p, r->wdata);
		return 0;
	}
	for (i = 0; i < 8; i++)
		if (r->strb & (1u << i))
			/* enabled bytes only; release keeps program order */
			TG_HOST_STORE_REL8(p + i, r->wdata >> (8 * i));
	return 0;
}

void tg_mm_outputs(struct tg_memmodel *m, uint64_t now, uint8_t *ready, uint8_t *resp_valid,
		   uint64_t *rdata)
{
	*resp_valid = 0;
	*rdata = 0;
	if (m->count && m->q[m->head].due <= now) {
		*rdata = perform(m, &m->q[m->head]);
		*resp_valid = 1;
		m->head = (m->head + 1) % TG_MM_QDEPTH;
		m->count--;
	}
	*ready = m->count < TG_MM_QDEPTH && !tg_rng_pct(&m->rng, m->stall_pct);
}

void tg_mm_accept(struct tg_memmodel *m, uint64_t now, int write, uint64_t addr,
		  uint64_t wdata, uint8_t strb)
{
	struct tg_mm_req *r = &m->q[(m->head + m->count) % TG_MM_QDEPTH];
	uint64_t due = now + tg_rng_range(&m->rng, m->lat_min, m->lat_max);

	/* in order, at most one response per cycle */
	if (due <= m->last_due)
		due = m->last_due + 1;
	m->last_due = due;
	*r = (struct tg_mm_req){ .due = due, .addr = addr & ~7ULL, .wdata = wdata,
				 .write = (uint8_t)!!write, .strb = strb };
	m->count++;
}

void tg_mm_skip_draws(struct tg_memmodel *m, uint64_t n)
{
	if (m->stall_pct)
		tg_rng_skip(&m->rng, n);
}
