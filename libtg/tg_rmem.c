/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Remote memory: posted writes, blocking reads, fences, non-blocking fetches and windows. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tg/tg_barrier.h"
#include "tg_internal.h"

#define PADDR_SPAN   (1ULL << TG_PADDR_BITS)

/* Common argument checks of the calls that name a node and a range. */
static int range_args(const struct tg_dev *dev, unsigned node, uint64_t raddr,
		      const void *buf, size_t len)
{
	if (!dev || !buf || !len)
		return -EINVAL;
	if (node >= dev->nodes) {
		tg__why("node %u: the cluster has nodes 0 to %u", node, dev->nodes - 1);
		return -EINVAL;
	}
	if (raddr >= PADDR_SPAN || len > PADDR_SPAN - raddr) {
		tg__why("%zu bytes at %#" PRIx64 " go past the 32-bit physical address space",
			len, raddr);
		return -ERANGE;
	}
	return 0;
}

static uint64_t remote_addr(const struct tg_dev *dev, unsigned win, unsigned node, uint64_t pa)
{
	return tg_bar_data_addr(win, dev->ctx, node, pa);
}

/* Bytes of [raddr, raddr + len) before the end of raddr's block: one
 * burst of a write, one fetch of a read. */
static size_t in_block(const struct tg_dev *dev, uint64_t raddr, size_t len)
{
	uint64_t rest = dev->block - (raddr & (dev->block - 1u));

	return rest < len ? (size_t)rest : len;
}

/* The data word of FETCH_GO and WCHECK: a remote range of one block. */
static uint64_t go_word(uint64_t raddr, unsigned node, uint64_t len)
{
	return (raddr & 0xffffffffULL) | (uint64_t)node << 32 | len << 48;
}

/* A write of more than one frame under a key is all or nothing at the
 * target: the range of its last frame is checked first (WCHECK sends a
 * write of no bytes), and the first frame checks the start.  A region is
 * one range, so if both pass every frame does; if either is refused, the
 * target refuses this context's later writes until the fence, so nothing
 * of the write lands.  Without a key nothing is checked but MEM_SIZE, which
 * the caller checked already. */
static int write_check(struct tg_dev *dev, unsigned node, uint64_t raddr, size_t len)
{
	uint64_t blk = dev->block, last = raddr + len - 1, lo = last & ~(blk - 1), v;

	if ((raddr & ~(blk - 1)) == lo)
		return 0;      /* one frame: the target checks it whole */
	if ((dev->creg_known & (1u << TG__CREG_KEY)) && !dev->creg[TG__CREG_KEY])
		return 0;      /* no key */
	v = go_word(lo, node, last + 1 - lo);
	return tg__mmio_write(dev, tg_bar_ctx_addr(dev->ctx, TG_CTX_REG_WCHECK), &v, NULL, 1);
}

static int tg_write_body(struct tg_dev *dev, unsigned node, uint64_t raddr, const void *buf,
			 size_t len)
{
	const uint8_t *src = buf;
	int rc = range_args(dev, node, raddr, buf, len);

	if (rc)
		return rc;
	/* the target refuses these without telling us: refuse them here */
	if (raddr + len > dev->mem_size) {
		tg__why("%zu bytes at %#" PRIx64 " end past the target's memory (%#" PRIx64 " bytes)",
			len, raddr, dev->mem_size);
		return -EFAULT;
	}
	rc = tg__async_err(dev);
	if (!rc)
		rc = write_check(dev, node, raddr, len);
	if (rc)
		return rc;
	while (len) {
		size_t n = in_block(dev, raddr, len);
		uint64_t w0 = raddr & ~7ULL, data[TG_MAX_BURST_BYTES / 8];
		uint8_t strb[TG_MAX_BURST_BYTES / 8];
		unsigned nb = (unsigned)(((raddr + n - 1) & ~7ULL) - w0) / 8u + 1u;

		memset(data, 0, sizeof(data));
		memset(strb, 0, sizeof(strb));
		for (size_t i = 0; i < n; i++) {
			uint64_t off = raddr + i - w0;   /* byte offset from the first word */

			data[off / 8] |= (uint64_t)src[i] << (8 * (off % 8));
			strb[off / 8] |= (uint8_t)(1u << (off % 8));
		}
		rc = tg__mmio_write(dev, remote_addr(dev, TG_WIN_REMOTE, node, w0), data, strb, nb);
		if (rc)
			return rc;
		src += n;
		raddr += n;
		len -= n;
	}
	return 0;
}

int tg_write(struct tg_dev *dev, unsigned node, uint64_t raddr, const void *buf, size_t len)
{
	const struct tg_dev *p = tg__enter(dev);

	return tg__leave(p, dev, "tg_write", tg_write_body(dev, node, raddr, buf, len), 1);
}

static int tg_fence_body(struct tg_dev *dev, unsigned node)
{
	uint64_t st;
	int rc;

	if (!dev || node >= dev->nodes)
		return -EINVAL;
	rc = tg__mmio_read(dev, remote_addr(dev, TG_WIN_SYNC, node, 0), &st);
	if (rc)
		return rc;
	rc = tg_status_errno((unsigned)(st & 0xffu));
	if (rc)
		tg__why("node %u refused a write this context posted to it since the last fence: "
			"%s", node, tg_strerror(rc));
	if (!rc && st >> 8)
		rc = -EIO;
	return rc;
}

int tg_fence(struct tg_dev *dev, unsigned node)
{
	const struct tg_dev *p = tg__enter(dev);

	return tg__leave(p, dev, "tg_fence", tg_fence_body(dev, node), 1);
}

/* Program and ring one fetch (arguments already checked). */
static int fetch_go(struct tg_dev *dev, unsigned node, uint64_t raddr, uint64_t laddr,
		    size_t len, uint64_t cpl_paddr)
{
	uint64_t v;
	int rc;

	/* the completion word is clear before the doorbell can set it */
	rc = tg__hm_store(dev, cpl_paddr, 0);
	if (rc)
		return rc;
	TG_WMB();  /* the clearing store is visible before the doorbell below */
	rc = tg__ctx_reg_set(dev, TG__CREG_LADDR, laddr);
	if (rc)
		return rc;
	rc = tg__ctx_reg_set(dev, TG__CREG_CPL, cpl_paddr);
	if (rc)
		return rc;
	v = go_word(raddr, node, len);
	return tg__mmio_write(dev, tg_bar_ctx_addr(dev->ctx, TG_CTX_REG_FETCH_GO), &v, NULL, 1);
}

static int cpl_test(struct tg_dev *dev, uint64_t cpl_paddr)
{
	uint64_t w;
	/* acquire: the fetched data the NIC wrote before the word is visible */
	int rc = tg__hm_load(dev, cpl_paddr, &w);

	if (rc)
		return rc;
	if (!(w & TG_FETCH_CPL_DONE))
		return -EAGAIN;
	return tg_status_errno((unsigned)(w >> 8) & 0xffu);
}

static int cpl_wait(struct tg_dev *dev, uint64_t cpl_paddr)
{
	int rc;

	while ((rc = cpl_test(dev, cpl_paddr)) == -EAGAIN)
		if ((rc = tg__wait(dev)))
			return rc;
	return rc;
}

static int tg_fetch_body(struct tg_dev *dev, unsigned node, uint64_t raddr, struct tg_mr *mr,
			 size_t loff,
	     size_t len, struct tg_mr *cpl_mr, size_t cpl_off)
{
	uint64_t laddr;
	int rc;

	if (!mr || !cpl_mr)
		return -EINVAL;
	rc = range_args(dev, node, raddr, mr, len);
	if (rc)
		return rc;
	if (mr->dev != dev || cpl_mr->dev != dev || len > dev->block)
		return -EINVAL;
	if (loff > mr->len || len > mr->len - loff)
		return -EINVAL;
	if (cpl_off % 8u || cpl_off > cpl_mr->len || cpl_mr->len - cpl_off < 8)
		return -EINVAL;
	laddr = mr->paddr + loff;
	if (((raddr ^ laddr) & 7u) || in_block(dev, raddr, len) != len)
		return -EINVAL;
	if (dev->no_fetch)
		return -EOPNOTSUPP;
	return fetch_go(dev, node, raddr, laddr, len, cpl_mr->paddr + cpl_off);
}

int tg_fetch(struct tg_dev *dev, unsigned node, uint64_t raddr, struct tg_mr *mr, size_t loff,
	     size_t len, struct tg_mr *cpl_mr, size_t cpl_off)
{
	const struct tg_dev *p = tg__enter(dev);

	return tg__leave(p, dev, "tg_fetch",
			 tg_fetch_body(dev, node, raddr, mr, loff, len, cpl_mr, cpl_off), 1);
}

/* The completion word's paddr, or 0 if the arguments do not name one. */
static uint64_t cpl_word(const struct tg_dev *dev, const struct tg_mr *cpl_mr, size_t cpl_off)
{
	if (!dev || !cpl_mr || cpl_mr->dev != dev || cpl_off % 8u || cpl_off > cpl_mr->len ||
	    cpl_mr->len - cpl_off < 8)
		return 0;
	return cpl_mr->paddr + cpl_off;
}

static int tg_fetch_test_body(struct tg_dev *dev, const struct tg_mr *cpl_mr, size_t cpl_off)
{
	uint64_t w = cpl_word(dev, cpl_mr, cpl_off);

	return w ? cpl_test(dev, w) : -EINVAL;
}

int tg_fetch_test(struct tg_dev *dev, const struct tg_mr *cpl_mr, size_t cpl_off)
{
	const struct tg_dev *p = tg__enter(dev);

	return tg__leave(p, dev, "tg_fetch_test", tg_fetch_test_body(dev, cpl_mr, cpl_off), 0);
}

static int tg_fetch_wait_body(struct tg_dev *dev, const struct tg_mr *cpl_mr, size_t cpl_off)
{
	uint64_t w = cpl_word(dev, cpl_mr, cpl_off);

	return w ? cpl_wait(dev, w) : -EINVAL;
}

int tg_fetch_wait(struct tg_dev *dev, const struct tg_mr *cpl_mr, size_t cpl_off)
{
	const struct tg_dev *p = tg__enter(dev);

	return tg__leave(p, dev, "tg_fetch_wait", tg_fetch_wait_body(dev, cpl_mr, cpl_off), 1);
}

/* One remote-window load of the word holding [raddr, raddr + len). */
static int read_word(struct tg_dev *dev, unsigned node, uint64_t raddr, uint8_t *dst, size_t len)
{
	uint64_t v;
	int rc = tg__mmio_read(dev, remote_addr(dev, TG_WIN_REMOTE, node, raddr & ~7ULL), &v);

	if (rc)
		return rc;
	/* a refused read answers all ones, which is also a value: ask how
	 * this load went */
	if (v == ~0ULL && (rc = tg__last_status(dev)))
		return rc;
	for (size_t i = 0; i < len; i++)
		dst[i] = (uint8_t)(v >> (8 * ((raddr + i) & 7u)));
	return 0;
}

static int tg_read_body(struct tg_dev *dev, unsigned node, uint64_t raddr, void *buf, size_t len)
{
	struct {
		uint8_t *dst;
		uint64_t src;
		size_t n;
	} fl[TG_READ_SLOTS];
	uint8_t *dst = buf;
	uint64_t bpa;
	unsigned head = 0, count = 0;
	int rc = range_args(dev, node, raddr, buf, len), first_err = 0;

	if (rc)
		return rc;
	if ((raddr & ~7ULL) == ((raddr + len - 1) & ~7ULL))
		return read_word(dev, node, raddr, dst, len);
	/* a NIC without a fetch table: one blocking load per word */
	while (dev->no_fetch && len) {
		size_t n = 8u - (size_t)(raddr & 7u);

		n = n < len ? n : len;
		if ((rc = read_word(dev, node, raddr, dst, n)))
			return rc;
		dst += n;
		raddr += n;
		len -= n;
	}
	if (!len)
		return 0;

	/* PCI: the bounce buffers come with the DMA memory, on first use */
	if (!dev->bounce && (rc = dev->prov->setup ? dev->prov->setup(dev) : -EOPNOTSUPP))
		return rc;
	/* pipelined fetches through the bounce buffers, oldest waited first */
	bpa = dev->bounce->paddr;
	while (len || count) {
		if (len && count < TG_READ_SLOTS) {
			unsigned s = (head + count) % TG_READ_SLOTS;
			size_t n = in_block(dev, raddr, len);
			uint64_t loff = (uint64_t)s * TG_READ_SLOT_SZ + (raddr & 7u);
			uint64_t cpl = bpa + TG_READ_SLOTS * TG_READ_SLOT_SZ + 8u * s;

			rc = fetch_go(dev, node, raddr, bpa + loff, n, cpl);
			if (rc) {
				first_err = first_err ? first_err : rc;
				len = 0;   /* stop issuing; drain what is in flight */
				if (!count)
					break;
				continue;
			}
			fl[s].dst = dst;
			fl[s].src = bpa + loff;
			fl[s].n = n;
			count++;
			dst += n;
			raddr += n;
			len -= n;
			continue;
		}
		rc = cpl_wait(dev, bpa + TG_READ_SLOTS * TG_READ_SLOT_SZ + 8u * head);
		if (rc == -ENOTCONN)
			return rc;
		if (!rc)
			rc = tg__hm_read(dev, fl[head].src, fl[head].dst, fl[head].n);
		if (rc)
			first_err = first_err ? first_err : rc;
		head = (head + 1) % TG_READ_SLOTS;
		count--;
	}
	return first_err;
}

int tg_read(struct tg_dev *dev, unsigned node, uint64_t raddr, void *buf, size_t len)
{
	const struct tg_dev *p = tg__enter(dev);

	return tg__leave(p, dev, "tg_read", tg_read_body(dev, node, raddr, buf, len), 1);
}

/* ---- windows ---- */

static struct tg_win *tg_win_open_body(struct tg_dev *dev, unsigned node)
{
	struct tg_win *win;

	if (!dev || node >= dev->nodes) {
		errno = EINVAL;
		return NULL;
	}
	win = calloc(1, sizeof(*win));
	if (!win)
		return NULL;
	win->__dev = dev;
	win->__node = node;
	win->__limit = PADDR_SPAN;
	return win;
}

struct tg_win *tg_win_open(struct tg_dev *dev, unsigned node)
{
	const struct tg_dev *p = tg__enter(dev);

	return tg__leave_ptr(p, dev, "tg_win_open", tg_win_open_body(dev, node));
}

void tg_win_close(struct tg_win *win)
{
	free(win);
}

int tg_win_error(struct tg_win *win)
{
	int err;

	if (!win)
		return -EINVAL;
	err = win->__err;
	win->__err = 0;
	return err;
}

void __tg_win_store(struct tg_win *win, uint64_t off, uint64_t val, unsigned size)
{
	unsigned sh = (unsigned)(off & 7u);
	uint64_t data = val << (8 * sh);
	uint8_t strb = (uint8_t)(((1u << size) - 1u) << sh);
	int rc;

	if (!win)
		return;
	rc = tg__mmio_write(win->__dev,
			    remote_addr(win->__dev, TG_WIN_REMOTE, win->__node, off & ~7ULL),
			    &data, &strb, 1);
	if (rc && !win->__err)
		win->__err = rc;
}

uint64_t __tg_win_load64(struct tg_win *win, uint64_t off)
{
	uint64_t v;
	int rc;

	if (!win)
		return ~0ULL;
	rc = tg__mmio_read(win->__dev, remote_addr(win->__dev, TG_WIN_REMOTE, win->__node, off),
			   &v);

	if (rc) {
		if (!win->__err)
			win->__err = rc;
		return ~0ULL;
	}
	return v;
}
