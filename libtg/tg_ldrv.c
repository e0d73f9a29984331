/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* The in-process driver of a node whose memory this process owns (PCI, Ethernet): allocator, queues, regions, interrupts. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tg_internal.h"

struct tg_ldrv {
	pthread_mutex_t mu;          /* threads sharing the device */
	struct tg_alloc *alloc;
	struct tg_drv_qtable qt;
	struct tg_drv_rtable rt;     /* exported regions (the NIC's table is empty after reset) */
	struct tg_drv_mmio io;       /* the provider's CSR access (env.io points here) */
	struct tg_drv_qenv env;
	uint32_t wake[16];           /* notifications seen per queue-table entry */
};

static int csr_w(struct tg_ldrv *l, uint64_t reg, uint64_t v)
{
	return l->io.write(l->io.arg, tg_bar_csr_addr(reg), v);
}

struct tg_ldrv *tg__ldrv_open(const struct tg_drv_qenv *env, uint64_t span, int protect)
{
	struct tg_ldrv *l = calloc(1, sizeof(*l));
	int rc = 0;

	if (!l)
		return NULL;
	if (pthread_mutex_init(&l->mu, NULL)) {
		free(l);
		errno = ENOMEM;
		return NULL;
	}
	/* the first granule stays unallocated: paddr 0 names no buffer */
	l->alloc = tg_alloc_create(TG_DRV_GRAN, span - TG_DRV_GRAN, TG_DRV_GRAN);
	if (!l->alloc) {
		rc = -errno;
		goto fail;
	}
	l->io = *env->io;
	l->env = *env;
	l->env.io = &l->io;
	l->env.alloc = l->alloc;
	/* a former owner's queues point into memory that is gone, and its
	 * regions' keys must not open the memory handed out again: clear
	 * both tables */
	for (unsigned i = 0; i < 16u && !rc; i++)
		if (!(rc = csr_w(l, TG_CSR_REG_QSEL, i)))
			rc = csr_w(l, TG_CSR_REG_QCFG, 0);
	if (!rc)
		rc = tg_drv_prot_setup(&l->io, &l->rt, TG_REGIONS, protect);
	if (!rc)
		rc = csr_w(l, TG_CSR_REG_IRQ_MASK, 0);
	if (!rc)
		rc = csr_w(l, TG_CSR_REG_IRQ_STATUS, 0xffffffffu);
	if (!rc)
		return l;
fail:
	tg_alloc_destroy(l->alloc);
	pthread_mutex_destroy(&l->mu);
	free(l);
	errno = -rc;
	return NULL;
}

void tg__ldrv_close(struct tg_ldrv *l, unsigned ctx)
{
	if (!l)
		return;
	/* the NIC forgets our regions and queues before their memory goes:
	 * a key must not outlive the memory it opened */
	tg_drv_region_revoke_owner(&l->io, &l->rt, ctx);
	for (unsigned i = 0; i < 16u; i++)
		if (l->qt.q[i].base)
			tg_drv_queue_destroy(&l->env, &l->qt, l->qt.q[i].base, l->qt.q[i].owner);
	csr_w(l, TG_CSR_REG_IRQ_MASK, 0);
	tg_alloc_destroy(l->alloc);
	pthread_mutex_destroy(&l->mu);
	free(l);
}

struct tg_alloc *tg__ldrv_alloc(struct tg_ldrv *l)
{
	return l->alloc;
}

/* Handle what IRQ_STATUS shows (l->mu held): overflows through the queue
 * code, notifications counted per queue. */
static int service(struct tg_ldrv *l)
{
	uint64_t st;
	uint32_t woke = 0;
	int rc;

	if (!l->qt.irq_mask)
		return 0;        /* no queue: nothing to handle */
	if ((rc = l->io.read(l->io.arg, tg_bar_csr_addr(TG_CSR_REG_IRQ_STATUS), &st)))
		return rc;
	st &= l->qt.irq_mask;
	if (st)
		rc = tg_drv_queue_irq(&l->env, &l->qt, st, &woke);
	for (unsigned i = 0; i < 16u; i++)
		if (woke & (1u << i))
			l->wake[i]++;
	/* a queue still closed (no memory then, or an access that failed
	 * after its cause was cleared) is looked at again: its cause does
	 * not come back by itself */
	for (unsigned i = 0; i < 16u; i++) {
		int r;

		if (!l->qt.q[i].base || !l->qt.q[i].closed)
			continue;
		r = tg_drv_queue_grow(&l->env, &l->qt, l->qt.q[i].base);
		if (r && !rc)
			rc = r;
	}
	return rc;
}

int tg__ldrv_service(struct tg_ldrv *l)
{
	int rc;

	pthread_mutex_lock(&l->mu);
	rc = service(l);
	pthread_mutex_unlock(&l->mu);
	return rc;
}

uint32_t tg__ldrv_wake_count(struct tg_ldrv *l, unsigned idx)
{
	uint32_t w;

	pthread_mutex_lock(&l->mu);
	w = l->wake[idx & 15u];
	pthread_mutex_unlock(&l->mu);
	return w;
}

int tg__ldrv_call(struct tg_ldrv *l, unsigned ctx, uint8_t op, uint64_t addr, uint64_t data,
		  uint64_t *out)
{
	uint64_t pa = 0;
	unsigned idx = 0;
	int rc;

	pthread_mutex_lock(&l->mu);
	switch (op) {
	case TG_SIMP_OP_ALLOC:
		rc = tg_alloc_get(l->alloc, addr, data, ctx, &pa);
		if (!rc && out)
			*out = pa;
		break;
	case TG_SIMP_OP_FREE:
		rc = tg_alloc_put(l->alloc, addr, ctx);
		break;
	case TG_SIMP_OP_QCREATE:
		rc = tg_drv_queue_create(&l->env, &l->qt, (unsigned)(addr & 0xffu),
					 (unsigned)(addr >> 8 & 0xffu), ctx, &pa, &idx);
		if (!rc && out)
			*out = pa | (uint64_t)idx << 32;
		break;
	case TG_SIMP_OP_QDESTROY:
		rc = tg_drv_queue_destroy(&l->env, &l->qt, addr, ctx);
		break;
	case TG_SIMP_OP_QGROW:
		/* an overflow not handled yet is what the dequeuer met */
		rc = service(l);
		if (!rc)
			rc = tg_drv_queue_grow(&l->env, &l->qt, addr);
		if (out)
			*out = (uint64_t)tg_drv_queue_find(&l->qt, addr) & 15u;
		break;
	case TG_SIMP_OP_QARM:
		rc = tg_drv_queue_arm(&l->env, &l->qt, addr);
		break;
	case TG_SIMP_OP_QFREEBUF:
		rc = tg_drv_queue_freebuf(&l->env, &l->qt, addr, data);
		break;
	case TG_SIMP_OP_REXPORT:
		rc = tg_drv_region_export_owned(&l->env, &l->qt, &l->rt, addr & 0xffffffffu, data,
						(unsigned)(addr >> 32 & 0xffu), ctx, out ? out : &pa);
		break;
	case TG_SIMP_OP_RREVOKE:
		rc = tg_drv_region_revoke(&l->io, &l->rt, addr, ctx);
		break;
	default:
		rc = -EOPNOTSUPP;
	}
	pthread_mutex_unlock(&l->mu);
	return rc;
}

struct tg_ldrv *tg__ldrv_of(struct tg_dev *dev, int *rc)
{
	int r = -EOPNOTSUPP;

	if (dev->prov->ldrv && !(r = dev->prov->setup ? dev->prov->setup(dev) : 0))
		return dev->prov->ldrv(dev);
	if (rc)
		*rc = r;
	return NULL;
}

#define POLL_NS  50000ull     /* no interrupt line: IRQ_STATUS read this often */

int tg__ldrv_wait(struct tg_dev *dev, unsigned idx, uint32_t w, uint64_t max_ns)
{
	int rc = -ENXIO;
	struct tg_ldrv *l = tg__ldrv_of(dev, &rc);

	if (!l)
		return rc;
	if (tg__ldrv_wake_count(l, idx) != w)
		return 0;
	if (dev->prov->irq_wait)
		return dev->prov->irq_wait(dev, max_ns);
	/* no interrupt line (the bridge carries none): poll IRQ_STATUS */
	struct timespec ts = { 0, (long)(max_ns < POLL_NS ? max_ns : POLL_NS) };

	nanosleep(&ts, NULL);
	return tg__ldrv_service(l);
}
