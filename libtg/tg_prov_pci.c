/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* The PCI provider: a NIC context reached through the BAR's sysfs resource file, no kernel module. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "tg/tg_barrier.h"
#include "tg_internal.h"
#include "tgdrv/tg_dma.h"
#include "tgdrv/tg_drv.h"
#include "tgdrv/tg_pci.h"

#define PCI_NODES  (1u << TG_BAR_NODE_BITS)
#define PCI_WINS   (1u << TG_BAR_WIN_BITS)

struct tg_pcidev {
	struct tg_pci_bar *bar;
	volatile uint64_t *csr;      /* CSR page: TG_OPEN_DRIVER only */
	volatile uint64_t *ctxp;     /* this context's page */
	uint64_t span;               /* bytes of each node's slice mapped per window */
	uint8_t *slice[PCI_WINS][PCI_NODES];   /* mapped on first use */
	int lock_fd;                 /* flock held on the context's lock file */
	char bdf[TG_PCI_BDF_MAX];
	struct tg_pcidma *dma;       /* host memory and queue table, set up on first use */
	int dma_err;                 /* why that failed (sticky) */
	char dma_msg[320];           /* and in words */
};

/* The process that owns the node's DMA memory is also its driver: the
 * allocator, the queue table and the interrupt handler live here, as they
 * live in tg-sim for a simulated node (docs/hardware.md). */
struct tg_pcidma {
	struct tg_dma_mem mem;
	struct tg_ldrv *drv;         /* allocator, queue and region tables (tg_ldrv.c) */
	struct tg_drv_mmio io;
	volatile uint64_t *csr;      /* the driver's CSR page */
	int own_csr;                 /* csr is our own mapping (not p->csr) */
	struct tg_irq *irq;          /* NULL: IRQ_STATUS is polled */
	struct tg_vfio *vfio;        /* the IOMMU maps the memory at IOVA 0 */
	int lock_fd;                 /* flock on the memory's lock file */
};

static const char *env_or(const char *name, const char *dflt)
{
	const char *v = getenv(name);

	return v && *v ? v : dflt;
}

/* Take the first free context: one lock file per context, held with
 * flock, so a context comes free when its process exits for any reason. */
static int take_ctx(struct tg_dev *dev, struct tg_pcidev *p, const char *bdf, unsigned nctx)
{
	const char *dir = env_or("TG_PCI_LOCK_DIR", "/dev/shm");
	char path[PATH_MAX];

	for (unsigned c = 0; c < nctx; c++) {
		int fd;

		snprintf(path, sizeof(path), "%s/tg-pci-%s-ctx%u.lock", dir, bdf, c);
		fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
		if (fd < 0)
			return -errno;
		if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
			p->lock_fd = fd;
			dev->ctx = c;
			return 0;
		}
		close(fd);
	}
	return -EBUSY;
}

static void dma_close(struct tg_dev *dev, struct tg_pcidev *p)
{
	struct tg_pcidma *d = p->dma;

	if (!d)
		return;
	/* the NIC forgets our regions and queues before their memory goes */
	tg__ldrv_close(d->drv, dev->ctx);
	tg_irq_close(d->irq);
	tg_vfio_close(d->vfio);      /* the IOMMU mapping goes before the memory */
	tg_dma_free(&d->mem);
	if (d->own_csr)
		tg_pci_bar_unmap((void *)d->csr, TG_PAGE_SIZE);
	if (d->lock_fd >= 0)
		close(d->lock_fd);
	free(d);
	p->dma = NULL;
	dev->mem = NULL;
}

static void pci_close(struct tg_dev *dev)
{
	struct tg_pcidev *p = dev->pci;

	if (!p)
		return;
	dma_close(dev, p);
	for (unsigned w = 0; w < PCI_WINS; w++)
		for (unsigned n = 0; n < PCI_NODES; n++)
			tg_pci_bar_unmap(p->slice[w][n], p->span);
	tg_pci_bar_unmap((void *)p->csr, TG_PAGE_SIZE);
	tg_pci_bar_unmap((void *)p->ctxp, TG_PAGE_SIZE);
	tg_pci_bar_close(p->bar);
	if (p->lock_fd >= 0)
		close(p->lock_fd);
	free(p);
	dev->pci = NULL;
}

/* The NIC at addr ("" for the lowest-addressed one), found with libpci
 * through the sysfs devices directory root. */
static int find_nic(const char *root, const char *addr, struct tg_pci_info *out, char *msg,
		    size_t msg_sz)
{
	struct tg_pci_scan_opts o = { .sysfs = root, .bdf = *addr ? addr : NULL };
	struct tg_pci_info found[16];
	int n = tg_pci_scan(&o, found, 16, msg, msg_sz);

	if (n < 0)
		return n;
	if (n == 0) {
		tg__say(msg, msg_sz, "no Telegraphos NIC (PCI ID %04x:%04x) in %s", (unsigned)TG_PCI_VENDOR,
		    (unsigned)TG_PCI_DEVICE, root);
		return -ENODEV;
	}
	*out = found[0];
	for (int i = 1; i < n && i < 16; i++)
		if (strcmp(found[i].bdf, out->bdf) < 0)
			*out = found[i];
	return 0;
}

int tg__pci_open(struct tg_dev *dev, const char *addr, unsigned flags, char *msg, size_t msg_sz)
{
	const char *root = env_or("TG_PCI_SYSFS", TG_PCI_SYSFS);
	struct tg_pci_info info;
	char path[PATH_MAX];
	volatile uint64_t *csr;
	struct tg_pcidev *p;
	unsigned nctx;
	uint64_t cfg;
	int rc;

	dev->prov = &tg__prov_pci;
	if (flags & ~TG_OPEN_DRIVER) {
		tg__say(msg, msg_sz, "flags 0x%x: only TG_OPEN_DRIVER is defined", flags);
		return -EINVAL;
	}
	rc = find_nic(root, addr, &info, msg, msg_sz);
	if (rc)
		return rc;
	/* the host port is the whole BAR: a smaller one cannot reach every
	 * context and window (docs/hardware.md, BAR size) */
	if (info.bar_size && info.bar_size < (1ULL << TG_BAR_ADDR_BITS)) {
		tg__say(msg, msg_sz, "%s: BAR %u is %llu bytes, the host port needs 2^%u "
		    "(docs/hardware.md)", info.bdf, (unsigned)TG_PCI_BAR,
		    (unsigned long long)info.bar_size, (unsigned)TG_BAR_ADDR_BITS);
		return -EPROTO;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->lock_fd = -1;
	memcpy(p->bdf, info.bdf, sizeof(p->bdf));
	dev->pci = p;
	dev->flags = flags;
	snprintf(path, sizeof(path), "%s/%s/resource%u", root, p->bdf, (unsigned)TG_PCI_BAR);
	p->bar = tg_pci_bar_open(path, msg, msg_sz);
	if (!p->bar)
		return -errno;
	rc = tg_pci_bar_identify(p->bar, &dev->id, msg, msg_sz);
	if (rc)
		return rc;
	csr = tg_pci_bar_map(p->bar, tg_bar_csr_addr(0), TG_PAGE_SIZE);
	if (!csr) {
		rc = -errno;
		tg__say(msg, msg_sz, "%s: mapping the CSR page: %s", path, strerror(-rc));
		return rc;
	}
	dev->node = (unsigned)csr[TG_CSR_REG_NODE_ID / 8u];
	dev->mem_size = csr[TG_CSR_REG_MEM_SIZE / 8u];
	cfg = csr[TG_CSR_REG_CONFIG / 8u];
	dev->clock_khz = (unsigned)csr[TG_CSR_REG_CLOCK_KHZ / 8u];
	rc = tg__cfg_apply(dev, cfg);
	if (rc) {
		tg__say(msg, msg_sz, "%s: CONFIG 0x%llx names no block size", path,
			(unsigned long long)cfg);
		tg_pci_bar_unmap((void *)csr, TG_PAGE_SIZE);
		return rc;
	}
	/* the driver keeps the CSR page; a process only its own pages */
	if (flags & TG_OPEN_DRIVER)
		p->csr = csr;
	else
		tg_pci_bar_unmap((void *)csr, TG_PAGE_SIZE);
	/* every node number the BAR can name: the NIC does not know the
	 * cluster's size, an absent node's requests fail in the NIC */
	dev->nodes = PCI_NODES;
	nctx = (unsigned)(cfg & 0xffu);
	if (nctx > (1u << TG_BAR_CTX_BITS))
		nctx = 1u << TG_BAR_CTX_BITS;
	rc = take_ctx(dev, p, p->bdf, nctx);
	if (rc) {
		if (rc == -EBUSY)
			tg__say(msg, msg_sz, "%s: all %u contexts are taken by other processes",
			    p->bdf, nctx);
		else
			tg__say(msg, msg_sz, "%s: a context's lock file: %s", p->bdf, strerror(-rc));
		return rc;
	}
	p->ctxp = tg_pci_bar_map(p->bar, tg_bar_ctx_addr(dev->ctx, 0), TG_PAGE_SIZE);
	if (!p->ctxp) {
		rc = -errno;
		tg__say(msg, msg_sz, "%s: mapping context page %u: %s", p->bdf, dev->ctx, strerror(-rc));
		return rc;
	}
	/* a former owner's sticky status: any write clears it */
	p->ctxp[TG_CTX_REG_STATUS / 8u] = 0;
	if (dev->mem_size > (1ULL << TG_PADDR_BITS))
		dev->mem_size = 1ULL << TG_PADDR_BITS;
	p->span = (dev->mem_size + TG_PAGE_SIZE - 1) & ~(TG_PAGE_SIZE - 1);
	return 0;
}

/* The mapped word at host-port address addr, or NULL with *rc. */
static volatile uint64_t *word_at(struct tg_dev *dev, uint64_t addr, int *rc)
{
	struct tg_pcidev *p = dev->pci;
	unsigned win = tg_bar_win(addr), node = tg_bar_node(addr);
	uint64_t pa = addr & TG_BAR_FIELD_MASK(TG_PADDR_BITS);

	if (addr & 7u || addr >> TG_BAR_ADDR_BITS) {
		*rc = -EINVAL;
		return NULL;
	}
	if (win == TG_WIN_CTRL) {
		uint64_t base = tg_bar_ctx_addr(dev->ctx, 0);

		if (addr >= base && addr - base < TG_PAGE_SIZE)
			return p->ctxp + (addr - base) / 8u;
		if (p->csr && addr < TG_PAGE_SIZE)
			return p->csr + addr / 8u;
		/* the node's driver (this process, once it owns the memory)
		 * reads CSRs to flush its posted writes */
		if (p->dma && addr < TG_PAGE_SIZE)
			return p->dma->csr + addr / 8u;
		*rc = -EPERM;
		return NULL;
	}
	if (tg_bar_ctx(addr) != dev->ctx) {
		*rc = -EPERM;
		return NULL;
	}
	if (pa >= p->span) {
		*rc = -EFAULT;
		return NULL;
	}
	if (!p->slice[win][node]) {
		p->slice[win][node] = tg_pci_bar_map(p->bar, tg_bar_data_addr(win, dev->ctx, node, 0),
						     p->span);
		if (!p->slice[win][node]) {
			*rc = -errno;
			return NULL;
		}
	}
	return (volatile uint64_t *)(p->slice[win][node] + pa);
}

static int pci_mmio_read(struct tg_dev *dev, uint64_t addr, uint64_t *val)
{
	int rc = 0;
	volatile uint64_t *w = word_at(dev, addr, &rc);

	if (!w)
		return rc;
	*val = *w;
	return 0;
}

static int pci_mmio_write(struct tg_dev *dev, uint64_t addr, const uint64_t *data,
			  const uint8_t *strb, unsigned n)
{
	volatile uint64_t *w[TG_MAX_BURST_BYTES / 8u];
	int rc = 0;

	if (!n || n > TG_MAX_BURST_BYTES / 8u)
		return -EINVAL;
	/* resolve every beat first: a burst goes out whole or not at all */
	for (unsigned i = 0; i < n; i++)
		if (!(w[i] = word_at(dev, addr + 8u * i, &rc)))
			return rc;
	/* host-memory stores before the burst are visible to the NIC's DMA */
	atomic_thread_fence(memory_order_release);
	for (unsigned i = 0; i < n; i++) {
		uint8_t s = strb ? strb[i] : 0xffu;

		if (s == 0xffu) {
			*w[i] = data[i];
			continue;
		}
		/* partial beat: byte stores carry exactly the enabled bytes */
		for (unsigned b = 0; b < 8u; b++)
			if (s & (1u << b))
				((volatile uint8_t *)w[i])[b] = (uint8_t)(data[i] >> (8u * b));
	}
	return 0;
}

static uint64_t pci_cycles(const struct tg_dev *dev)
{
	return dev->pci->csr ? dev->pci->csr[TG_CSR_REG_CYCLES / 8u] : 0;
}

/* ---- DMA memory, queues and interrupts (the in-process driver) ---- */


static int csr_io_read(void *arg, uint64_t addr, uint64_t *val)
{
	struct tg_pcidma *d = arg;

	if (addr & 7u || addr >= TG_PAGE_SIZE)
		return -EINVAL;
	*val = d->csr[addr / 8u];
	return 0;
}

static int csr_io_write(void *arg, uint64_t addr, uint64_t val)
{
	struct tg_pcidma *d = arg;

	if (addr & 7u || addr >= TG_PAGE_SIZE)
		return -EINVAL;
	/* host-memory stores (queue headers) are visible before the NIC acts */
	atomic_thread_fence(memory_order_release);
	d->csr[addr / 8u] = val;
	return 0;
}

/* The interrupt source: $TG_PCI_IRQ ("uio:PATH", "none"), else the UIO
 * device bound to the function (sysfs <bdf>/uio/uioN -> /dev/uioN), else
 * none (IRQ_STATUS is polled). */
static int open_irq(struct tg_pcidma *d, const char *root, const char *bdf, char *msg,
		    size_t msg_sz)
{
	const char *v = getenv("TG_PCI_IRQ");
	char path[PATH_MAX];
	struct dirent *e;
	DIR *dir;

	if (v && *v) {
		if (!strcmp(v, "none"))
			return 0;
		if (strncmp(v, "uio:", 4)) {
			tg__say(msg, msg_sz, "TG_PCI_IRQ=%s: want uio:PATH or none", v);
			return -EINVAL;
		}
		d->irq = tg_irq_open_uio(v + 4);
		if (!d->irq) {
			int rc = -errno;

			tg__say(msg, msg_sz, "%s: %s", v + 4, strerror(errno));
			return rc;
		}
		return 0;
	}
	snprintf(path, sizeof(path), "%s/%s/uio", root, bdf);
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((e = readdir(dir)))
		if (!strncmp(e->d_name, "uio", 3))
			break;
	if (e)
		snprintf(path, sizeof(path), "/dev/%.200s", e->d_name);
	closedir(dir);
	if (!e)
		return 0;
	d->irq = tg_irq_open_uio(path);
	if (!d->irq) {
		int rc = -errno;

		tg__say(msg, msg_sz, "%s (the function's UIO device): %s", path, strerror(errno));
		return rc;
	}
	return 0;
}

/* Bus Master Enable through sysfs <bdf>/config (VFIO sets it through the
 * device).  A function without the file (a stand-in) is left alone. */
static int bus_master(const char *root, const char *bdf, char *msg, size_t msg_sz)
{
	char path[PATH_MAX];
	int fd, rc;

	snprintf(path, sizeof(path), "%s/%s/config", root, bdf);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		rc = -errno;
		tg__say(msg, msg_sz, "%s (to enable bus mastering): %s", path, strerror(errno));
		return rc;
	}
	rc = tg_pci_cfg_bus_master(fd, 0);
	close(fd);
	if (rc)
		tg__say(msg, msg_sz, "%s: bus mastering: %s", path, strerror(-rc));
	return rc;
}

/* Map the node's memory and become its driver.  $TG_PCI_DMA selects the
 * memory: "auto" (default: vfio when the function is bound to vfio-pci,
 * else hugepage), "vfio" (hugepages mapped by the IOMMU at IOVA 0),
 * "hugepage" (one physically contiguous block, its address from the
 * pagemap), "file:PATH" (a file standing in, no physical address), "none"
 * (calls that need it fail with EOPNOTSUPP). */
static int dma_setup(struct tg_dev *dev, struct tg_pcidev *p, struct tg_pcidma *d)
{
	char *msg = p->dma_msg;
	size_t msg_sz = sizeof(p->dma_msg);
	const char *root = env_or("TG_PCI_SYSFS", TG_PCI_SYSFS);
	const char *dir = env_or("TG_PCI_LOCK_DIR", "/dev/shm");
	const char *how = env_or("TG_PCI_DMA", "auto");
	const char *hp = getenv("TG_PCI_HUGEPAGE");
	char path[PATH_MAX], drv[64];
	struct tg_drv_qenv env;
	uint64_t page;
	int rc;

	if (p->span < 2u * TG_DRV_GRAN) {
		tg__say(msg, msg_sz, "MEM_SIZE is %llu: the NIC exports no host memory "
		    "(program MEM_SIZE first)", (unsigned long long)dev->mem_size);
		return -ENOMEM;
	}
	/* one owner of the node's memory: the NIC has one MEM_SIZE window */
	snprintf(path, sizeof(path), "%s/tg-pci-%s-mem.lock", dir, p->bdf);
	d->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (d->lock_fd < 0) {
		rc = -errno;
		tg__say(msg, msg_sz, "%s: %s", path, strerror(errno));
		return rc;
	}
	if (flock(d->lock_fd, LOCK_EX | LOCK_NB)) {
		tg__say(msg, msg_sz, "another process owns the NIC's host memory (%s)", path);
		return -EBUSY;
	}
	if (!strcmp(how, "auto"))
		how = tg_pci_driver_of(root, p->bdf, drv, sizeof(drv)) == 0 &&
		      !strcmp(drv, "vfio-pci") ? "vfio" : "hugepage";
	page = p->span > TG_HUGE_2M ? TG_HUGE_1G : TG_HUGE_2M;
	if (hp && !strcmp(hp, "2M"))
		page = TG_HUGE_2M;
	else if (hp && !strcmp(hp, "1G"))
		page = TG_HUGE_1G;
	if (!strcmp(how, "none")) {
		tg__say(msg, msg_sz, "TG_PCI_DMA=none: no DMA memory on this device");
		rc = -EOPNOTSUPP;
	} else if (!strcmp(how, "vfio")) {
		/* the IOMMU maps page by page: 2 MiB pages unless asked */
		if (!hp)
			page = TG_HUGE_2M;
		d->vfio = tg_vfio_open(root, p->bdf, getenv("TG_VFIO_DIR"), msg, msg_sz);
		rc = d->vfio ? tg_dma_hugepage_map(p->span, page, &d->mem, msg, msg_sz) : -errno;
		/* IOVA 0: the NIC's paddr is the offset into the memory */
		if (!rc && (rc = tg_vfio_map(d->vfio, d->mem.va, d->mem.len, 0)))
			tg__say(msg, msg_sz, "VFIO_IOMMU_MAP_DMA of %llu bytes at IOVA 0: %s",
			    (unsigned long long)d->mem.len, strerror(-rc));
	} else if (!strncmp(how, "file:", 5)) {
		rc = tg_dma_file_map(how + 5, p->span, &d->mem, msg, msg_sz);
	} else if (!strcmp(how, "hugepage")) {
		rc = tg_dma_hugepage_alloc(p->span, page, getenv("TG_PCI_PAGEMAP"), &d->mem,
					   msg, msg_sz);
	} else {
		tg__say(msg, msg_sz, "TG_PCI_DMA=%s: want auto, hugepage, vfio, file:PATH or none",
		    how);
		rc = -EINVAL;
	}
	if (rc)
		return rc;
	if (!d->vfio && (rc = bus_master(root, p->bdf, msg, msg_sz)))
		return rc;
	if (p->csr) {
		d->csr = p->csr;
	} else {
		d->csr = tg_pci_bar_map(p->bar, tg_bar_csr_addr(0), TG_PAGE_SIZE);
		if (!d->csr)
			return -errno;
		d->own_csr = 1;
	}
	d->io = (struct tg_drv_mmio){ csr_io_read, csr_io_write, d };
	if (d->vfio && !getenv("TG_PCI_IRQ")) {
		/* MSI 0 of the function, signalled on an eventfd */
		d->irq = tg_irq_open_vfio(tg_vfio_device_fd(d->vfio));
		if (!d->irq) {
			rc = -errno;
			tg__say(msg, msg_sz, "VFIO_DEVICE_SET_IRQS (MSI 0): %s", strerror(errno));
			return rc;
		}
	} else if ((rc = open_irq(d, root, p->bdf, msg, msg_sz))) {
		return rc;
	}
	/* the driver clears the NIC's queue and region tables
	 * ($TG_PCI_PROTECT=1 also turns the key check on) */
	env = (struct tg_drv_qenv){ .io = &d->io, .mem = d->mem.va, .mem_size = p->span };
	d->drv = tg__ldrv_open(&env, p->span, tg__env_is_1("TG_PCI_PROTECT"));
	if (!d->drv) {
		rc = -errno;
		tg__say(msg, msg_sz, "clearing the NIC's queue and region tables: %s", strerror(-rc));
		return rc;
	}
	return 0;
}

/* Say in the memory's lock file where the NIC's paddr 0 lies: the bus
 * address the PCIe bridge must add to the NIC's addresses without an
 * IOMMU (docs/hardware.md), for bring-up scripts and tgctl. */
static void publish_mem(struct tg_pcidma *d)
{
	char line[160];
	int n;

	if (d->vfio)
		n = snprintf(line, sizeof(line), "pid %d bytes %llu iova 0x0\n", (int)getpid(),
			     (unsigned long long)d->mem.len);
	else if (d->mem.has_phys)
		n = snprintf(line, sizeof(line), "pid %d bytes %llu phys 0x%llx\n", (int)getpid(),
			     (unsigned long long)d->mem.len, (unsigned long long)d->mem.phys);
	else
		n = snprintf(line, sizeof(line), "pid %d bytes %llu file\n", (int)getpid(),
			     (unsigned long long)d->mem.len);
	if (ftruncate(d->lock_fd, 0) < 0 || pwrite(d->lock_fd, line, (size_t)n, 0) != n) {
		/* informative only: the memory works without it */
	}
}

/* Become the driver of the node's host memory (first use): map the DMA
 * memory (dev->mem), take tg_read's buffers (dev->bounce), reset the
 * NIC's queue table, open the interrupt.  Returns 0 or a sticky -errno
 * (-EBUSY another process owns the memory, -ENOMEM no hugepages or no
 * MEM_SIZE, -EPERM no physical addresses, -EXDEV not contiguous), with
 * the reason in words for tg_dev_error. */
static int pci_setup(struct tg_dev *dev)
{
	struct tg_pcidev *p = dev->pci;
	struct tg_pcidma *d;
	uint64_t paddr, blen = TG_READ_SLOTS * TG_READ_SLOT_SZ + TG_READ_SLOTS * 8u;
	int rc;

	if (p->dma)
		return 0;
	if (p->dma_err) {
		tg__why("the node's host memory: %s", p->dma_msg);
		return p->dma_err;
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->lock_fd = -1;
	p->dma = d;
	rc = dma_setup(dev, p, d);
	/* tg_read's fetch buffers, as tg__attach takes them on the simulator */
	if (!rc && !(dev->bounce = calloc(1, sizeof(*dev->bounce))))
		rc = -ENOMEM;
	if (!rc)
		rc = tg_alloc_get(tg__ldrv_alloc(d->drv), blen, 0, dev->ctx, &paddr);
	if (rc) {
		free(dev->bounce);
		dev->bounce = NULL;
		dma_close(dev, p);
		p->dma_err = rc;     /* sticky: the next call gets the same answer */
		if (!p->dma_msg[0])
			snprintf(p->dma_msg, sizeof(p->dma_msg), "%s", strerror(-rc));
		tg__why("the node's host memory: %s", p->dma_msg);
		return rc;
	}
	dev->bounce->dev = dev;
	dev->bounce->paddr = paddr;
	dev->bounce->len = blen;
	dev->bounce->access = TG_ACCESS_LOCAL_WRITE;
	dev->mem = d->mem.va;
	publish_mem(d);
	return 0;
}

static struct tg_ldrv *pci_ldrv(struct tg_dev *dev)
{
	return dev->pci && dev->pci->dma ? dev->pci->dma->drv : NULL;
}

#define IRQ_POLL_NS  50000ull     /* no interrupt line: IRQ_STATUS read this often */

static int pci_irq_wait(struct tg_dev *dev, uint64_t max_ns)
{
	struct tg_pcidma *d = dev->pci->dma;
	int rc = 0;

	if (!d)
		return -ENXIO;
	if (d->irq) {
		/* round up: a wait of 0 ms would only poll */
		uint64_t ms = (max_ns + 999999u) / 1000000u;

		rc = tg_irq_wait(d->irq, ms > 1000u ? 1000 : (int)ms, NULL);
		if (rc == -ETIMEDOUT)
			rc = 0;       /* look at IRQ_STATUS anyway: cheap, and a lost edge costs nothing */
		if (rc)
			return rc;
	} else {
		uint64_t ns = max_ns < IRQ_POLL_NS ? max_ns : IRQ_POLL_NS;
		struct timespec ts = { 0, (long)ns };

		nanosleep(&ts, NULL);
	}
	rc = tg__ldrv_service(d->drv);
	/* the causes are cleared: the next interrupt may come */
	if (!rc && d->irq)
		rc = tg_irq_unmask(d->irq);
	return rc;
}

const struct tg_prov tg__prov_pci = {
	.name = "pci",
	.local = 1,
	.mmio_read = pci_mmio_read,
	.mmio_write = pci_mmio_write,
	.cycles = pci_cycles,
	.setup = pci_setup,
	.ldrv = pci_ldrv,
	.irq_wait = pci_irq_wait,
	.close = pci_close,
};
