/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Devices: attaching to a simulated NIC's context, identity, CSRs and registered memory. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "tg/tg_barrier.h"
#include "tg_internal.h"

#define ATTACH_TIMEOUT_S   5.0     /* tg-sim opens a slot within 64 cycles */
#define ATTACH_MAX_CYCLES  100000u /* in-process */

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int tg_check_id(uint64_t id)
{
	return tg_bar_check_id(id);
}

/* Wait for the simulator to move our slot out of ATTACH. */
static int wait_active(struct tg_dev *dev)
{
	double t0 = mono_s();
	uint64_t polls = 0;
	int rc;

	/* state: then read what the simulator set up with it */
	while (TG_ATOMIC_LOAD_ACQ(&dev->slot->state) != TG_SIMP_S_ACTIVE) {
		if (dev->step) {
			if (++polls > ATTACH_MAX_CYCLES)
				return -ETIMEDOUT;
		} else if ((++polls & 1023u) == 0 && mono_s() - t0 > ATTACH_TIMEOUT_S) {
			return -ETIMEDOUT;
		}
		if ((rc = tg__wait(dev)))
			return rc;
	}
	return 0;
}

int tg__attach(struct tg_dev *dev, unsigned node, unsigned flags)
{
	struct tg_simp_ctl *ctl = dev->ctl;
	struct tg_simp_slot *sl = NULL;
	const uint64_t bounce_len = TG_READ_SLOTS * TG_READ_SLOT_SZ + TG_READ_SLOTS * 8u;
	uint64_t paddr, cfg = 0, khz = 0;
	int rc;

	if (flags & ~TG_OPEN_DRIVER)
		return -EINVAL;
	if (node >= ctl->nodes)
		return -ENODEV;
	dev->node = node;
	dev->nodes = ctl->nodes;
	dev->mem_size = ctl->mem_size;
	dev->flags = flags;
	for (unsigned s = 0; s < TG_SIMP_CTX_SLOTS; s++) {
		uint32_t expect = TG_SIMP_S_FREE;

		sl = tg_simp_slot(ctl, node, s);
		/* claim: the simulator's reset of the slot is visible after */
		if (TG_ATOMIC_CAS_ACQREL(&sl->state, &expect, TG_SIMP_S_CLAIMED)) {
			dev->ctx = s;
			break;
		}
		sl = NULL;
	}
	if (!sl)
		return -EBUSY;
	dev->slot = sl;
	sl->flags = flags & TG_OPEN_DRIVER ? TG_SIMP_F_DRIVER : 0;
	atomic_store_explicit(&sl->pid, dev->step ? 0 : (int32_t)getpid(), memory_order_relaxed);
	/* flags and pid are visible with the request */
	TG_ATOMIC_STORE_REL(&sl->state, TG_SIMP_S_ATTACH);
	rc = wait_active(dev);
	if (rc) {
		uint32_t expect = TG_SIMP_S_ATTACH;

		/* not picked up: give it back ourselves, else let the simulator */
		if (!TG_ATOMIC_CAS_ACQREL(&sl->state, &expect, TG_SIMP_S_FREE))
			TG_ATOMIC_STORE_REL(&sl->state, TG_SIMP_S_CLOSING);
		dev->slot = NULL;
		return rc;
	}
	/* identity comes from the NIC's own register */
	rc = tg__mmio_read(dev, tg_bar_csr_addr(TG_CSR_REG_ID), &dev->id);
	if (!rc)
		rc = tg_check_id(dev->id);
	if (!rc)
		rc = tg__mmio_read(dev, tg_bar_csr_addr(TG_CSR_REG_CONFIG), &cfg);
	if (!rc)
		rc = tg__cfg_apply(dev, cfg);
	if (!rc)
		rc = tg__mmio_read(dev, tg_bar_csr_addr(TG_CSR_REG_CLOCK_KHZ), &khz);
	if (!rc) {
		dev->clock_khz = (unsigned)khz;
		rc = tg__enq_open(dev);
	}
	if (!rc)
		rc = tg__mem_alloc(dev, bounce_len, 0, &paddr);
	if (!rc) {
		dev->bounce = calloc(1, sizeof(*dev->bounce));
		if (!dev->bounce || tg__mem_expose(dev, paddr, bounce_len)) {
			free(dev->bounce);
			dev->bounce = NULL;
			tg__mem_free(dev, paddr);
			rc = -ENOMEM;
		} else {
			dev->bounce->dev = dev;
			dev->bounce->paddr = paddr;
			dev->bounce->len = bounce_len;
			dev->bounce->access = TG_ACCESS_LOCAL_WRITE;
		}
	}
	if (rc) {
		/* the simulator frees the slot and its memory */
		TG_ATOMIC_STORE_REL(&sl->state, TG_SIMP_S_CLOSING);
		dev->slot = NULL;
		return rc;
	}
	/* the simulator's driver cleared KEY when it gave us the context */
	dev->creg[TG__CREG_KEY] = 0;
	dev->creg_known |= 1u << TG__CREG_KEY;
	return 0;
}

void tg__detach(struct tg_dev *dev)
{
	struct tg_mr *mr = dev->mrs;

	while (mr) {
		struct tg_mr *next = mr->next;

		free(mr);
		mr = next;
	}
	dev->mrs = NULL;
	free(dev->bounce);
	dev->bounce = NULL;
	if (dev->prov && dev->prov->close)
		dev->prov->close(dev);
	if (dev->slot) {
		/* everything we posted is in the ring before we leave; the
		 * simulator sends it, then frees the slot and its memory */
		TG_ATOMIC_STORE_REL(&dev->slot->state, TG_SIMP_S_CLOSING);
		if (dev->step) {
			/* in-process: finish now, so the context is free again */
			for (unsigned i = 0; i < ATTACH_MAX_CYCLES &&
			     TG_ATOMIC_LOAD_ACQ(&dev->slot->state) != TG_SIMP_S_FREE; i++)
				dev->step(dev->sim, 1);
		}
		dev->slot = NULL;
	}
	if (dev->mapped) {
		if (dev->mem)
			munmap(dev->mem, dev->mem_size);
		if (dev->ctl)
			munmap(dev->ctl, dev->ctl_bytes);
	}
	if (dev->mem_guard) {
		close(dev->mem_fd);
		free(dev->mem_pages);
		dev->mem_guard = 0;
	}
}


static void *map_obj(const char *obj, uint64_t bytes, int *err)
{
	int fd = shm_open(obj, O_RDWR, 0);
	void *p;

	if (fd < 0) {
		*err = errno == ENOENT ? ENXIO : errno;
		return NULL;
	}
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	*err = errno;
	close(fd);
	return p == MAP_FAILED ? NULL : p;
}

/* Reserve the node's memory without access, to map the pages this client
 * uses one by one (tg__mem_expose).  Only where a page is no larger than
 * the allocation granule, so no two clients' allocations share a page;
 * else map it whole.  Returns 0 or -errno. */
static int reserve_mem(struct tg_dev *dev, const char *obj)
{
	long pg = sysconf(_SC_PAGESIZE);
	uint64_t words = (dev->mem_size / TG_DRV_GRAN + 63) / 64;
	void *p;

	if (pg <= 0 || TG_DRV_GRAN % (unsigned long)pg || dev->mem_size % TG_DRV_GRAN) {
		int err = 0;

		dev->mem = map_obj(obj, dev->mem_size, &err);
		return dev->mem ? 0 : -err;
	}
	dev->mem_fd = shm_open(obj, O_RDWR, 0);
	if (dev->mem_fd < 0)
		return errno == ENOENT ? -ENXIO : -errno;
	dev->mem_guard = 1;
	dev->mem_pages = calloc(words, sizeof(*dev->mem_pages));
	if (!dev->mem_pages)
		return -ENOMEM;
	p = mmap(NULL, dev->mem_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	dev->mem = p;
	return 0;
}

/* The context registers tg__ctx_reg_set caches, by TG__CREG_*. */
static const uint64_t creg_off[5] = {
	[TG__CREG_LADDR] = TG_CTX_REG_FETCH_LADDR,
	[TG__CREG_CPL] = TG_CTX_REG_FETCH_CPL,
	[TG__CREG_OPERAND] = TG_CTX_REG_OPERAND,
	[TG__CREG_COMPARE] = TG_CTX_REG_COMPARE,
	[TG__CREG_KEY] = TG_CTX_REG_KEY,
};

int tg__ctx_reg_set(struct tg_dev *dev, unsigned which, uint64_t val)
{
	int rc;

	if ((dev->creg_known & (1u << which)) && dev->creg[which] == val)
		return 0;
	rc = tg__mmio_write(dev, tg_bar_ctx_addr(dev->ctx, creg_off[which]), &val, NULL, 1);
	if (rc) {
		dev->creg_known &= ~(1u << which);
		return rc;
	}
	dev->creg[which] = val;
	dev->creg_known |= 1u << which;
	return 0;
}

/* Why this thread's last tg_open or tg_open_sim failed. */
static _Thread_local char open_msg[512];

void tg__open_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(open_msg, sizeof(open_msg), fmt, ap);
	va_end(ap);
}

const char *tg_open_error(void)
{
	return open_msg;
}

/* A device this process drives over PCI or the board's bridge. */
static struct tg_dev *open_local(const char *devstr, unsigned flags)
{
	char msg[sizeof(open_msg) - 64];
	struct tg_dev *dev = calloc(1, sizeof(*dev));
	int rc;

	if (!dev) {
		tg__open_fail("%s: out of memory", devstr);
		errno = ENOMEM;
		return NULL;
	}
	msg[0] = 0;
	if (!strncmp(devstr, "pci:", 4))
		rc = tg__pci_open(dev, devstr + 4, flags, msg, sizeof(msg));
	else if (!strncmp(devstr, "ethsim:", 7))
		rc = tg__eth_open(dev, devstr + 7, 1, flags, msg, sizeof(msg));
	else
		rc = tg__eth_open(dev, devstr + 4, 0, flags, msg, sizeof(msg));
	/* a key a former user of the context left must not travel with ours */
	if (!rc)
		rc = tg__ctx_reg_set(dev, TG__CREG_KEY, 0);
	if (!rc)
		rc = tg__enq_open(dev);
	if (rc) {
		tg_close(dev);
		tg__open_fail("%s: %s", devstr, msg[0] ? msg : tg_strerror(rc));
		errno = -rc;
		return NULL;
	}
	return dev;
}

struct tg_dev *tg_open(const char *devstr, unsigned flags)
{
	char name[TG_SIMP_NAME_MAX], obj[128], host[TG_SIMP_HOST_MAX] = "";
	struct tg_simp_ctl *hdr;
	struct tg_dev *dev;
	unsigned node, nodes = 0, rank = 0;
	int err, rc;

	open_msg[0] = 0;
	if (devstr && (!strncmp(devstr, "pci:", 4) || !strncmp(devstr, "eth:", 4) ||
		       !strncmp(devstr, "ethsim:", 7)))
		return open_local(devstr, flags);
	rc = tg_simp_parse_dev(devstr, name, sizeof(name), &node);
	if (rc) {
		tg__open_fail("'%s' is not a device: sim:NODE, sim:NAME:NODE, pci:[ADDRESS], "
			      "eth:IFNAME[:NODE] or ethsim:PATH", devstr ? devstr : "(null)");
		errno = -rc;
		return NULL;
	}
	dev = calloc(1, sizeof(*dev));
	if (!dev) {
		tg__open_fail("%s: out of memory", devstr);
		errno = ENOMEM;
		return NULL;
	}
	dev->prov = &tg__prov_sim;
	dev->mapped = 1;
	snprintf(dev->sim_name, sizeof(dev->sim_name), "%s", name);
	tg_simp_obj_name(obj, sizeof(obj), name, -1);
	hdr = map_obj(obj, sizeof(*hdr), &err);
	if (!hdr)
		goto fail;
	if (hdr->magic == TG_SIMP_DIR_MAGIC) {
		/* a cluster split over MPI ranks: the rank that serves the node
		 * has its own name, NAME@RANK (tg_sim_proto.h) */
		struct tg_simp_dir *dir;
		char rname[TG_SIMP_NAME_MAX + 8];

		munmap(hdr, sizeof(*hdr));
		dir = map_obj(obj, sizeof(*dir), &err);
		if (!dir)
			goto fail;
		/* the magic is written last: the rest is valid */
		atomic_thread_fence(memory_order_acquire);
		if (dir->version != TG_SIMP_VERSION || dir->nodes > TG_SIMP_DIR_MAX ||
		    node >= dir->nodes) {
			nodes = dir->version == TG_SIMP_VERSION ? dir->nodes : 0;
			err = nodes ? ENODEV : EPROTO;
			munmap(dir, sizeof(*dir));
			goto fail;
		}
		rank = dir->owner[node];
		memcpy(host, dir->host[rank], sizeof(host) - 1);
		host[sizeof(host) - 1] = 0;
		munmap(dir, sizeof(*dir));
		snprintf(rname, sizeof(rname), "%s@%u", name, rank);
		if (strlen(rname) >= sizeof(name)) {
			err = EINVAL;
			goto fail;
		}
		memcpy(name, rname, strlen(rname) + 1);
		snprintf(dev->sim_name, sizeof(dev->sim_name), "%s", name);
		tg_simp_obj_name(obj, sizeof(obj), name, -1);
		hdr = map_obj(obj, sizeof(*hdr), &err);
		if (!hdr) {
			if (err == ENXIO)
				err = ENODEV;   /* its rank runs on another machine */
			goto fail;
		}
	}
	/* ready: the header and slots were set up before it */
	if (hdr->magic != TG_SIMP_MAGIC || hdr->version != TG_SIMP_VERSION ||
	    !TG_ATOMIC_LOAD_ACQ(&hdr->ready) || TG_ATOMIC_LOAD_ACQ(&hdr->stopping) ||
	    (hdr->pid > 0 && kill(hdr->pid, 0) < 0 && errno == ESRCH)) {
		munmap(hdr, sizeof(*hdr));
		err = ENXIO;
		goto fail;
	}
	dev->ctl_bytes = tg_simp_ctl_bytes(hdr->nodes);
	dev->sim_pid = hdr->pid;
	munmap(hdr, sizeof(*hdr));
	dev->ctl = map_obj(obj, dev->ctl_bytes, &err);
	if (!dev->ctl)
		goto fail;
	if (node >= dev->ctl->nodes) {
		nodes = dev->ctl->nodes;
		err = ENODEV;
		goto fail;
	}
	tg_simp_obj_name(obj, sizeof(obj), name, (int)node);
	dev->mem_size = dev->ctl->mem_size;
	if (flags & TG_OPEN_DRIVER) {
		dev->mem = map_obj(obj, dev->mem_size, &err);
	} else {
		err = -reserve_mem(dev, obj);   /* sets mem only on success */
	}
	if (!dev->mem) {
		if (err == ENXIO)
			err = ENODEV;   /* a split cluster: another rank hosts it */
		goto fail;
	}
	rc = tg__attach(dev, node, flags);
	if (rc) {
		err = -rc;
		goto fail;
	}
	return dev;

fail:
	tg_close(dev);
	err = err ? err : EIO;
	if (err == ENXIO)
		tg__open_fail("%s: no simulator named '%s' is running (tg-sim --name %s starts "
			      "one)", devstr, name, name);
	else if (err == ENODEV && nodes)
		tg__open_fail("%s: the simulator '%s' has %u nodes, 0 to %u", devstr, name, nodes,
			      nodes - 1);
	else if (err == ENODEV && host[0])
		tg__open_fail("%s: node %u is served by rank %u on %s: open it there "
			      "(docs/distributed.md)", devstr, node, rank, host);
	else if (err == ENODEV)
		tg__open_fail("%s: another rank of the split cluster hosts node %u "
			      "(docs/distributed.md)", devstr, node);
	else
		tg__open_fail("%s: %s", devstr, tg_strerror(-err));
	errno = err;
	return NULL;
}

void tg_close(struct tg_dev *dev)
{
	if (!dev)
		return;
	tg__detach(dev);
	free(dev);
}

static int tg_sim_mem_read_body(const struct tg_dev *dev, unsigned node, uint64_t paddr, void *buf,
		    size_t len)
{
	char obj[128];
	const uint8_t *m;
	uint64_t start, span;
	long pg = sysconf(_SC_PAGESIZE);
	void *p;
	int fd;

	if (!dev || (!buf && len) || node >= dev->nodes)
		return -EINVAL;
	if (!dev->ctl) {
		tg__why("a simulated node's memory only: on a PCI or Ethernet device, tg_read");
		return -EOPNOTSUPP;
	}
	if (paddr > dev->mem_size || len > dev->mem_size - paddr)
		return -EFAULT;
	if (!len)
		return 0;
	if (dev->sim) {
		m = dev->sim_mem(dev->sim, node);
		if (!m)
			return -ENODEV;  /* another rank of a split cluster hosts it */
		/* acquire: pairs with the memory model's release of each write */
		atomic_thread_fence(memory_order_acquire);
		memcpy(buf, m + paddr, len);
		return 0;
	}
	/* tg-sim: map the pages of the node's memory object that hold the
	 * range, read-only, for this copy */
	tg_simp_obj_name(obj, sizeof(obj), dev->sim_name, (int)node);
	fd = shm_open(obj, O_RDONLY, 0);
	if (fd < 0)
		return errno == ENOENT ? -ENODEV : -errno;
	start = pg > 0 ? paddr - paddr % (uint64_t)pg : paddr;
	span = paddr + len - start;
	p = mmap(NULL, span, PROT_READ, MAP_SHARED, fd, (off_t)start);
	close(fd);
	if (p == MAP_FAILED)
		return -errno;
	atomic_thread_fence(memory_order_acquire);
	memcpy(buf, (const uint8_t *)p + (paddr - start), len);
	munmap(p, span);
	return 0;
}

int tg_sim_mem_read(const struct tg_dev *dev, unsigned node, uint64_t paddr, void *buf,
		    size_t len)
{
	const struct tg_dev *p = tg__enter(dev);

	return tg__leave(p, dev, "tg_sim_mem_read",
			 tg_sim_mem_read_body(dev, node, paddr, buf, len), 1);
}

int tg_node_id(const struct tg_dev *dev)
{
	return dev ? (int)dev->node : -EINVAL;
}

int tg_num_nodes(const struct tg_dev *dev)
{
	return dev ? (int)dev->nodes : -EINVAL;
}

int tg_context(const struct tg_dev *dev)
{
	return dev ? (int)dev->ctx : -EINVAL;
}

uint64_t tg_mem_size(const struct tg_dev *dev)
{
	return dev ? dev->mem_size : 0;
}

unsigned tg_block_bytes(const struct tg_dev *dev)
{
	return dev ? dev->block : 0;
}

unsigned tg_clock_khz(const struct tg_dev *dev)
{
	return dev ? dev->clock_khz : 0;
}

uint64_t tg_nic_id(const struct tg_dev *dev)
{
	return dev ? dev->id : 0;
}

static int csr_args(struct tg_dev *dev, uint64_t reg)
{
	if (!dev || reg % 8u || reg >= TG_PAGE_SIZE)
		return -EINVAL;
	if (!(dev->flags & TG_OPEN_DRIVER)) {
		tg__why("the CSR page needs a device opened with TG_OPEN_DRIVER");
		return -EPERM;
	}
	return 0;
}

static int tg_csr_read_body(struct tg_dev *dev, uint64_t reg, uint64_t *val)
{
	int rc = csr_args(dev, reg);

	if (rc)
		return rc;
	if (!val)
		return -EINVAL;
	return tg__mmio_read(dev, tg_bar_csr_addr(reg), val);
}

int tg_csr_read(struct tg_dev *dev, uint64_t reg, uint64_t *val)
{
	const struct tg_dev *p = tg__enter(dev);

	return tg__leave(p, dev, "tg_csr_read", tg_csr_read_body(dev, reg, val), 1);
}

static int tg_csr_write_body(struct tg_dev *dev, uint64_t reg, uint64_t val)
{
	int rc = csr_args(dev, reg);

	if (rc)
		return rc;
	return tg__mmio_write(dev, tg_bar_csr_addr(reg), &val, NULL, 1);
}

int tg_csr_write(struct tg_dev *dev, uint64_t reg, uint64_t val)
{
	const struct tg_dev *p = tg__enter(dev);

	return tg__leave(p, dev, "tg_csr_write", tg_csr_write_body(dev, reg, val), 1);
}

int tg__last_status(struct tg_dev *dev)
{
	uint64_t v;
	int rc = tg__mmio_read(dev, tg_bar_ctx_addr(dev->ctx, TG_CTX_REG_LAST_STATUS), &v);

	return rc ? rc : tg_status_errno((unsigned)(v & 0xffu));
}

static int tg_ctx_status_body(struct tg_dev *dev)
{
	uint64_t v, zero = 0;
	int rc;

	if (!dev)
		return -EINVAL;
	rc = tg__mmio_read(dev, tg_bar_ctx_addr(dev->ctx, TG_CTX_REG_STATUS), &v);
	if (rc)
		return rc;
	v &= 0xffu;
	if (!v)
		return 0;
	/* any write clears the sticky status */
	rc = tg__mmio_write(dev, tg_bar_ctx_addr(dev->ctx, TG_CTX_REG_STATUS), &zero, NULL, 1);
	if (rc)
		return rc;
	tg__why("a request of context %u failed since the last check: %s", dev->ctx,
		tg_strerror(tg_status_errno((unsigned)v)));
	return tg_status_errno((unsigned)v);
}

int tg_ctx_status(struct tg_dev *dev)
{
	const struct tg_dev *p = tg__enter(dev);

	return tg__leave(p, dev, "tg_ctx_status", tg_ctx_status_body(dev), 1);
}

/* ---- registered memory ---- */

static struct tg_mr *tg_mr_alloc_body(struct tg_dev *dev, size_t len, unsigned access)
{
	struct tg_mr *mr;
	uint64_t paddr;
	int rc;

	if (!dev || !len || (access & ~TG_ACCESS_ALL) || len > dev->mem_size) {
		errno = !dev || !len || (access & ~TG_ACCESS_ALL) ? EINVAL : ENOMEM;
		return NULL;
	}
	mr = calloc(1, sizeof(*mr));
	if (!mr)
		return NULL;
	rc = tg__mem_alloc(dev, len, 0, &paddr);
	if (!rc) {
		rc = tg__mem_expose(dev, paddr, len);
		if (rc)
			tg__mem_free(dev, paddr);
	}
	if (rc) {
		free(mr);
		errno = -rc;
		return NULL;
	}
	mr->dev = dev;
	mr->paddr = paddr;
	mr->len = len;
	mr->access = access;
	mr->next = dev->mrs;
	if (dev->mrs)
		dev->mrs->prev = mr;
	dev->mrs = mr;
	return mr;
}

struct tg_mr *tg_mr_alloc(struct tg_dev *dev, size_t len, unsigned access)
{
	const struct tg_dev *p = tg__enter(dev);

	return tg__leave_ptr(p, dev, "tg_mr_alloc", tg_mr_alloc_body(dev, len, access));
}

void *tg_mr_ptr(const struct tg_mr *mr)
{
	return mr && mr->dev->mem ? mr->dev->mem + mr->paddr : NULL;
}

static int mr_span_ok(const struct tg_mr *mr, size_t off, const void *buf, size_t len)
{
	return mr && buf && off <= mr->len && len <= mr->len - off;
}

static int tg_mr_read_body(const struct tg_mr *mr, size_t off, void *buf, size_t len)
{
	if (!mr_span_ok(mr, off, buf, len))
		return -EINVAL;
	if (!len)
		return 0;
	/* acquire: what the NIC wrote before its last word is visible */
	if (mr->dev->mem)
		atomic_thread_fence(memory_order_acquire);
	return tg__hm_read(mr->dev, mr->paddr + off, buf, len);
}

int tg_mr_read(const struct tg_mr *mr, size_t off, void *buf, size_t len)
{
	const struct tg_dev *p = tg__enter(mr ? mr->dev : NULL);

	return tg__leave(p, mr ? mr->dev : NULL, "tg_mr_read", tg_mr_read_body(mr, off, buf, len), 1);
}

static int tg_mr_write_body(struct tg_mr *mr, size_t off, const void *buf, size_t len)
{
	int rc;

	if (!mr_span_ok(mr, off, buf, len))
		return -EINVAL;
	if (!len)
		return 0;
	rc = tg__hm_write(mr->dev, mr->paddr + off, buf, len);
	/* release: the bytes are out before a later doorbell */
	if (!rc && mr->dev->mem)
		atomic_thread_fence(memory_order_release);
	return rc;
}

int tg_mr_write(struct tg_mr *mr, size_t off, const void *buf, size_t len)
{
	const struct tg_dev *p = tg__enter(mr ? mr->dev : NULL);

	return tg__leave(p, mr ? mr->dev : NULL, "tg_mr_write",
			 tg_mr_write_body(mr, off, buf, len), 1);
}

uint64_t tg_mr_paddr(const struct tg_mr *mr)
{
	return mr ? mr->paddr : 0;
}

size_t tg_mr_len(const struct tg_mr *mr)
{
	return mr ? mr->len : 0;
}

unsigned tg_mr_access(const struct tg_mr *mr)
{
	return mr ? mr->access : 0;
}

static int tg_mr_revoke_body(struct tg_mr *mr)
{
	return mr ? tg__region_forget(mr->dev, &mr->key) : -EINVAL;
}

void tg_mr_free(struct tg_mr *mr)
{
	struct tg_dev *dev;

	if (!mr)
		return;
	dev = mr->dev;
	/* no remote access may reach the memory once it can be reused (not
	 * an error of its own: a region never exported has nothing to revoke) */
	(void)tg_mr_revoke_body(mr);
	if (mr->prev)
		mr->prev->next = mr->next;
	else
		dev->mrs = mr->next;
	if (mr->next)
		mr->next->prev = mr->prev;
	tg__mem_hide(dev, mr->paddr, mr->len);
	tg__mem_free(dev, mr->paddr);
	free(mr);
}

/* ---- protection ---- */

/* TG_RIGHT_* for TG_ACCESS_* bits */
static unsigned access_rights(unsigned access)
{
	return (access & TG_ACCESS_REMOTE_READ ? TG_RIGHT_READ : 0) |
	       (access & TG_ACCESS_REMOTE_WRITE ? TG_RIGHT_WRITE : 0) |
	       (access & TG_ACCESS_REMOTE_ATOMIC ? TG_RIGHT_ATOMIC : 0);
}

int tg__region_export(struct tg_dev *dev, uint64_t paddr, uint64_t len, unsigned rights,
		      uint64_t *key)
{
	return tg__drv_call(dev, TG_SIMP_OP_REXPORT, paddr | (uint64_t)rights << 32, len, key);
}

int tg__region_revoke(struct tg_dev *dev, uint64_t key)
{
	return tg__drv_call(dev, TG_SIMP_OP_RREVOKE, key, 0, NULL);
}

static int tg_mr_export_body(struct tg_mr *mr, uint64_t *key)
{
	unsigned rights;
	uint64_t k;
	int rc;

	if (!mr || !key)
		return -EINVAL;
	if (mr->key) {
		*key = mr->key;
		return 0;
	}
	rights = access_rights(mr->access);
	if (!rights)
		return -EINVAL;
	rc = tg__region_export(mr->dev, mr->paddr, mr->len, rights, &k);
	if (rc)
		return rc;
	mr->key = k;
	*key = k;
	return 0;
}

int tg_mr_export(struct tg_mr *mr, uint64_t *key)
{
	const struct tg_dev *p = tg__enter(mr ? mr->dev : NULL);

	return tg__leave(p, mr ? mr->dev : NULL, "tg_mr_export", tg_mr_export_body(mr, key), 1);
}

uint64_t tg_mr_key(const struct tg_mr *mr)
{
	return mr ? mr->key : 0;
}

int tg__region_forget(struct tg_dev *dev, uint64_t *key)
{
	int rc;

	if (!*key)
		return -ENOENT;
	rc = tg__region_revoke(dev, *key);
	if (rc && rc != -ENOENT)   /* gone already (its client slot was released) */
		return rc;
	*key = 0;
	return 0;
}


int tg_mr_revoke(struct tg_mr *mr)
{
	const struct tg_dev *p = tg__enter(mr ? mr->dev : NULL);

	return tg__leave(p, mr ? mr->dev : NULL, "tg_mr_revoke", tg_mr_revoke_body(mr), 1);
}

static int tg_key_set_body(struct tg_dev *dev, uint64_t key)
{
	if (!dev)
		return -EINVAL;
	return tg__ctx_reg_set(dev, TG__CREG_KEY, key);
}

int tg_key_set(struct tg_dev *dev, uint64_t key)
{
	const struct tg_dev *p = tg__enter(dev);

	return tg__leave(p, dev, "tg_key_set", tg_key_set_body(dev, key), 1);
}
