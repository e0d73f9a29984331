/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* The PCI provider: a NIC context reached through the BAR's sysfs resource file, no kernel module. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "tg/tg_barrier.h"
#include "tg_internal.h"
#include "../driver/tg_pci.h"

#define PCI_NODES  (1u << TG_BAR_NODE_BITS)
#define PCI_WINS   (1u << TG_BAR_WIN_BITS)

struct tg_pcidev {
	struct tg_pci_bar *bar;
	volatile uint64_t *csr;      /* CSR page: TG_OPEN_DRIVER only */
	volatile uint64_t *ctxp;     /* this context's page */
	uint64_t span;               /* bytes of each node's slice mapped per window */
	uint8_t *slice[PCI_WINS][PCI_NODES];   /* mapped on first use */
	int lock_fd;                 /* flock held on the context's lock file */
};

static const char *env_or(const char *name, const char *dflt)
{
	const char *v = getenv(name);

	return v && *v ? v : dflt;
}

/* Read a sysfs attribute holding one hex number ("0x10ee\n"). */
static int read_hex(const char *path, unsigned long *v)
{
	char buf[32], *end;
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	errno = 0;
	*v = strtoul(buf, &end, 16);
	if (errno || end == buf)
		return -EIO;
	return 0;
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

void tg__pci_close(struct tg_dev *dev)
{
	struct tg_pcidev *p = dev->pci;

	if (!p)
		return;
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

int tg__pci_open(struct tg_dev *dev, const char *addr, unsigned flags)
{
	const char *root = env_or("TG_PCI_SYSFS", TG_PCI_SYSFS);
	unsigned dom, bus, dv, fn, nctx;
	char bdf[TG_PCI_BDF_MAX], path[PATH_MAX];
	volatile uint64_t *csr;
	unsigned long vendor, device;
	struct tg_pcidev *p;
	uint64_t cfg;
	int rc;

	if (tg_pci_parse_bdf(addr, &dom, &bus, &dv, &fn) || (flags & ~TG_OPEN_DRIVER))
		return -EINVAL;
	snprintf(bdf, sizeof(bdf), "%04x:%02x:%02x.%x", dom & 0xffffu, bus, dv, fn);
	/* the function must exist and carry the NIC's IDs */
	snprintf(path, sizeof(path), "%s/%s/vendor", root, bdf);
	rc = read_hex(path, &vendor);
	if (rc == -ENOENT)
		return -ENODEV;
	if (rc)
		return rc;
	snprintf(path, sizeof(path), "%s/%s/device", root, bdf);
	rc = read_hex(path, &device);
	if (rc)
		return rc == -ENOENT ? -ENODEV : rc;
	if (vendor != TG_PCI_VENDOR || device != TG_PCI_DEVICE)
		return -ENODEV;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->lock_fd = -1;
	dev->pci = p;
	dev->flags = flags;
	snprintf(path, sizeof(path), "%s/%s/resource%u", root, bdf, (unsigned)TG_PCI_BAR);
	p->bar = tg_pci_bar_open(path, NULL, 0);
	if (!p->bar)
		return -errno;
	rc = tg_pci_bar_identify(p->bar, &dev->id, NULL, 0);
	if (rc)
		return rc;
	csr = tg_pci_bar_map(p->bar, tg_bar_csr_addr(0), TG_PAGE_SIZE);
	if (!csr)
		return -errno;
	dev->node = (unsigned)csr[TG_CSR_REG_NODE_ID / 8u];
	dev->mem_size = csr[TG_CSR_REG_MEM_SIZE / 8u];
	cfg = csr[TG_CSR_REG_CONFIG / 8u];
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
	rc = take_ctx(dev, p, bdf, nctx);
	if (rc)
		return rc;
	p->ctxp = tg_pci_bar_map(p->bar, tg_bar_ctx_addr(dev->ctx, 0), TG_PAGE_SIZE);
	if (!p->ctxp)
		return -errno;
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

int tg__pci_mmio_read(struct tg_dev *dev, uint64_t addr, uint64_t *val)
{
	int rc = 0;
	volatile uint64_t *w = word_at(dev, addr, &rc);

	if (!w)
		return rc;
	*val = *w;
	return 0;
}

int tg__pci_mmio_write(struct tg_dev *dev, uint64_t addr, const uint64_t *data,
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

uint64_t tg__pci_cycles(const struct tg_dev *dev)
{
	return dev->pci->csr ? dev->pci->csr[TG_CSR_REG_CYCLES / 8u] : 0;
}
