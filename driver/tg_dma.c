/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* DMA-able host memory (hugepages, pagemap) and interrupt descriptors (UIO, VFIO eventfd). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/vfio.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tgdrv/tg_dma.h"

#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif

static void say(char *msg, size_t msg_sz, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say(char *msg, size_t msg_sz, const char *fmt, ...)
{
	va_list ap;

	if (!msg || !msg_sz)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, msg_sz, fmt, ap);
	va_end(ap);
}

int tg_pagemap_decode(uint64_t entry, uint64_t va, uint64_t pgsz, uint64_t *pa)
{
	uint64_t pfn = entry & TG_PAGEMAP_PFN_MASK;

	if (!(entry & TG_PAGEMAP_PRESENT) || (entry & TG_PAGEMAP_SWAPPED))
		return -EFAULT;
	if (!pfn)
		return -EPERM;
	*pa = pfn * pgsz + va % pgsz;
	return 0;
}

int tg_pagemap_phys(int fd, uint64_t va, uint64_t pgsz, uint64_t *pa)
{
	uint64_t e;
	ssize_t n;

	if (!pgsz || (pgsz & (pgsz - 1)))
		return -EINVAL;
	n = pread(fd, &e, sizeof(e), (off_t)(va / pgsz * sizeof(e)));
	if (n < 0)
		return -errno;
	if (n != (ssize_t)sizeof(e))
		return -EIO;
	return tg_pagemap_decode(e, va, pgsz, pa);
}

int tg_pagemap_contig(int fd, uint64_t va, uint64_t len, uint64_t chunk, uint64_t pgsz,
		      uint64_t *pa, uint64_t *contig)
{
	uint64_t base, p, off;
	int rc;

	if (!len || !chunk || va % chunk || len % chunk)
		return -EINVAL;
	rc = tg_pagemap_phys(fd, va, pgsz, &base);
	if (rc)
		return rc;
	for (off = chunk; off < len; off += chunk) {
		rc = tg_pagemap_phys(fd, va + off, pgsz, &p);
		if (rc)
			return rc;
		if (p != base + off)
			break;
	}
	*pa = base;
	*contig = off;
	return 0;
}

long tg_dma_free_hugepages(const char *root, uint64_t page)
{
	char path[256], buf[32];
	long v;
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/hugepages-%llukB/free_hugepages",
		 root ? root : "/sys/kernel/mm/hugepages", (unsigned long long)(page >> 10));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = 0;
	v = strtol(buf, NULL, 10);
	return v < 0 ? -EIO : v;
}

static const char *page_name(uint64_t page)
{
	return page == TG_HUGE_1G ? "1 GiB" : "2 MiB";
}

int tg_dma_hugepage_map(uint64_t len, uint64_t page, struct tg_dma_mem *m, char *msg,
			size_t msg_sz)
{
	int shift = page == TG_HUGE_1G ? 30 : 21;
	unsigned long long need;
	void *va;
	int rc;

	memset(m, 0, sizeof(*m));
	if ((page != TG_HUGE_2M && page != TG_HUGE_1G) || !len || len > (1ULL << 40)) {
		say(msg, msg_sz, "bad DMA memory size %llu or page size %llu",
		    (unsigned long long)len, (unsigned long long)page);
		return -EINVAL;
	}
	len = (len + page - 1) & ~(page - 1);
	need = (unsigned long long)(len / page);
	/* shared: a fork's copy-on-write never moves these pages */
	va = mmap(NULL, len, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS | MAP_HUGETLB | MAP_POPULATE |
		  (shift << MAP_HUGE_SHIFT), -1, 0);
	if (va == MAP_FAILED) {
		rc = errno;
		long nfree = tg_dma_free_hugepages(NULL, page);

		if (rc == ENOMEM || rc == EINVAL) {
			if (nfree >= 0)
				say(msg, msg_sz, "%llu hugepage(s) of %s needed for DMA memory, %ld free: "
				    "reserve them, e.g. echo %llu > /sys/kernel/mm/hugepages/"
				    "hugepages-%llukB/nr_hugepages (docs/hardware.md)",
				    need, page_name(page), nfree, need,
				    (unsigned long long)(page >> 10));
			else
				say(msg, msg_sz, "no %s hugepages on this kernel (%s)",
				    page_name(page), strerror(-(int)nfree));
			return -ENOMEM;
		}
		say(msg, msg_sz, "mmap of %llu hugepage(s) of %s: %s", need, page_name(page),
		    strerror(rc));
		return -rc;
	}
	m->va = va;
	m->len = len;
	m->page = page;
	return 0;
}

int tg_dma_hugepage_alloc(uint64_t len, uint64_t page, const char *pagemap,
			  struct tg_dma_mem *m, char *msg, size_t msg_sz)
{
	uint64_t pgsz = (uint64_t)sysconf(_SC_PAGESIZE), pa = 0, contig = 0;
	int fd, rc;

	rc = tg_dma_hugepage_map(len, page, m, msg, msg_sz);
	if (rc)
		return rc;
	fd = open(pagemap ? pagemap : "/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		say(msg, msg_sz, "%s: %s", pagemap ? pagemap : "/proc/self/pagemap",
		    strerror(errno));
		goto fail;
	}
	rc = tg_pagemap_contig(fd, (uint64_t)(uintptr_t)m->va, m->len, page, pgsz, &pa, &contig);
	close(fd);
	if (rc == -EPERM) {
		say(msg, msg_sz, "/proc/self/pagemap shows no page frame numbers: physical "
		    "addresses need CAP_SYS_ADMIN (run as root, or use VFIO: docs/hardware.md)");
		goto fail;
	}
	if (rc) {
		say(msg, msg_sz, "pagemap lookup of the hugepages: %s", strerror(-rc));
		goto fail;
	}
	if (contig < m->len) {
		say(msg, msg_sz, "the %llu hugepages of %s are not physically contiguous (only the "
		    "first %llu bytes are): the NIC needs one block; use 1 GiB pages "
		    "(hugepagesz=1G at boot), a smaller MEM_SIZE, or VFIO",
		    (unsigned long long)(m->len / page), page_name(page),
		    (unsigned long long)contig);
		rc = -EXDEV;
		goto fail;
	}
	m->phys = pa;
	m->has_phys = 1;
	return 0;
fail:
	tg_dma_free(m);
	return rc;
}

int tg_dma_file_map(const char *path, uint64_t len, struct tg_dma_mem *m, char *msg,
		    size_t msg_sz)
{
	void *va;
	int fd, rc;

	memset(m, 0, sizeof(*m));
	if (!len) {
		say(msg, msg_sz, "DMA memory of 0 bytes");
		return -EINVAL;
	}
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0) {
		rc = -errno;
		say(msg, msg_sz, "%s: %s", path, strerror(errno));
		return rc;
	}
	/* zeroed: drop what a former user left, then grow */
	if (ftruncate(fd, 0) < 0 || ftruncate(fd, (off_t)len) < 0) {
		rc = -errno;
		say(msg, msg_sz, "%s: %s", path, strerror(errno));
		close(fd);
		return rc;
	}
	va = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	rc = errno;
	close(fd);
	if (va == MAP_FAILED) {
		say(msg, msg_sz, "mmap %s: %s", path, strerror(rc));
		return -rc;
	}
	m->va = va;
	m->len = len;
	m->page = (uint64_t)sysconf(_SC_PAGESIZE);
	return 0;
}

void tg_dma_free(struct tg_dma_mem *m)
{
	if (m->va)
		munmap(m->va, m->len);
	memset(m, 0, sizeof(*m));
}

/* ---- PCI config space and VFIO ---- */

#define PCI_COMMAND_OFF   4u
#define PCI_COMMAND_MASTER 0x4u

int tg_pci_cfg_bus_master(int fd, uint64_t off)
{
	uint8_t cmd[2];
	ssize_t n = pread(fd, cmd, 2, (off_t)(off + PCI_COMMAND_OFF));

	if (n < 0)
		return -errno;
	if (n != 2)
		return -EIO;
	if (cmd[0] & PCI_COMMAND_MASTER)
		return 0;
	cmd[0] |= PCI_COMMAND_MASTER;
	n = pwrite(fd, cmd, 2, (off_t)(off + PCI_COMMAND_OFF));
	if (n < 0)
		return -errno;
	return n == 2 ? 0 : -EIO;
}

static const char *dflt_root(const char *root)
{
	return root && *root ? root : "/sys/bus/pci/devices";
}

/* Last path component of the link at path into name. */
static int link_base(const char *path, char *name, size_t name_sz)
{
	char target[512];
	ssize_t n = readlink(path, target, sizeof(target) - 1);
	const char *b;

	if (n < 0)
		return -errno;
	target[n] = 0;
	b = strrchr(target, '/');
	b = b ? b + 1 : target;
	if (strlen(b) >= name_sz)
		return -ENAMETOOLONG;
	strcpy(name, b);
	return 0;
}

int tg_pci_driver_of(const char *root, const char *bdf, char *name, size_t name_sz)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s/driver", dflt_root(root), bdf);
	return link_base(path, name, name_sz);
}

int tg_vfio_group_of(const char *root, const char *bdf, char *msg, size_t msg_sz)
{
	char path[512], name[64], *end;
	long g;
	int rc;

	snprintf(path, sizeof(path), "%s/%s/iommu_group", dflt_root(root), bdf);
	rc = link_base(path, name, sizeof(name));
	if (rc == -ENOENT) {
		say(msg, msg_sz, "%s has no IOMMU group: the IOMMU is off (intel_iommu=on or "
		    "amd_iommu=on, and VT-d/AMD-Vi in the firmware: docs/hardware.md)", bdf);
		return -ENODEV;
	}
	if (rc) {
		say(msg, msg_sz, "%s: %s", path, strerror(-rc));
		return rc;
	}
	g = strtol(name, &end, 10);
	if (*end || end == name || g < 0 || g > 0x7fffffff) {
		say(msg, msg_sz, "%s: odd group name %s", path, name);
		return -EIO;
	}
	return (int)g;
}

struct tg_vfio {
	int container, group, device;
	uint64_t iova, len;      /* the mapping, len 0: none */
};

void tg_vfio_close(struct tg_vfio *v)
{
	if (!v)
		return;
	if (v->len) {
		struct vfio_iommu_type1_dma_unmap um = { .argsz = sizeof(um), .iova = v->iova,
							  .size = v->len };

		ioctl(v->container, VFIO_IOMMU_UNMAP_DMA, &um);
	}
	if (v->device >= 0)
		close(v->device);
	if (v->group >= 0)
		close(v->group);
	if (v->container >= 0)
		close(v->container);
	free(v);
}

struct tg_vfio *tg_vfio_open(const char *root, const char *bdf, const char *dev_dir,
			     char *msg, size_t msg_sz)
{
	struct vfio_group_status gs = { .argsz = sizeof(gs) };
	struct vfio_region_info cfg = { .argsz = sizeof(cfg),
					.index = VFIO_PCI_CONFIG_REGION_INDEX };
	const char *dir = dev_dir && *dev_dir ? dev_dir : "/dev/vfio";
	char path[512];
	struct tg_vfio *v;
	int g, err, rc;

	g = tg_vfio_group_of(root, bdf, msg, msg_sz);
	if (g < 0) {
		errno = -g;
		return NULL;
	}
	v = calloc(1, sizeof(*v));
	if (!v)
		return NULL;
	v->group = v->device = -1;
	snprintf(path, sizeof(path), "%s/vfio", dir);
	v->container = open(path, O_RDWR | O_CLOEXEC);
	if (v->container < 0) {
		err = errno;
		say(msg, msg_sz, "%s: %s (modprobe vfio-pci, and bind %s to it: "
		    "docs/hardware.md)", path, strerror(err), bdf);
		goto fail;
	}
	if (ioctl(v->container, VFIO_GET_API_VERSION) != VFIO_API_VERSION ||
	    ioctl(v->container, VFIO_CHECK_EXTENSION, VFIO_TYPE1_IOMMU) <= 0) {
		err = ENOTSUP;
		say(msg, msg_sz, "%s: no type-1 IOMMU support", path);
		goto fail;
	}
	snprintf(path, sizeof(path), "%s/%d", dir, g);
	v->group = open(path, O_RDWR | O_CLOEXEC);
	if (v->group < 0) {
		err = errno;
		say(msg, msg_sz, "%s: %s (%s)", path, strerror(err),
		    err == ENOENT ? "bind the function to vfio-pci" : "give the NIC's users the file");
		goto fail;
	}
	if (ioctl(v->group, VFIO_GROUP_GET_STATUS, &gs) < 0 ||
	    !(gs.flags & VFIO_GROUP_FLAGS_VIABLE)) {
		err = EBUSY;
		say(msg, msg_sz, "IOMMU group %d is not viable: bind every function in it to "
		    "vfio-pci", g);
		goto fail;
	}
	if (ioctl(v->group, VFIO_GROUP_SET_CONTAINER, &v->container) < 0 ||
	    ioctl(v->container, VFIO_SET_IOMMU, VFIO_TYPE1_IOMMU) < 0) {
		err = errno;
		say(msg, msg_sz, "VFIO container of group %d: %s", g, strerror(err));
		goto fail;
	}
	v->device = ioctl(v->group, VFIO_GROUP_GET_DEVICE_FD, bdf);
	if (v->device < 0) {
		err = errno;
		say(msg, msg_sz, "VFIO device %s: %s", bdf, strerror(err));
		goto fail;
	}
	/* the NIC masters host memory: Bus Master Enable */
	if (ioctl(v->device, VFIO_DEVICE_GET_REGION_INFO, &cfg) < 0)
		rc = -errno;
	else
		rc = tg_pci_cfg_bus_master(v->device, cfg.offset);
	if (rc) {
		err = -rc;
		say(msg, msg_sz, "VFIO device %s: bus mastering: %s", bdf, strerror(err));
		goto fail;
	}
	return v;
fail:
	tg_vfio_close(v);
	errno = err;
	return NULL;
}

int tg_vfio_map(struct tg_vfio *v, void *va, uint64_t len, uint64_t iova)
{
	struct vfio_iommu_type1_dma_map dm = {
		.argsz = sizeof(dm),
		.flags = VFIO_DMA_MAP_FLAG_READ | VFIO_DMA_MAP_FLAG_WRITE,
		.vaddr = (uint64_t)(uintptr_t)va,
		.iova = iova,
		.size = len,
	};

	if (v->len)
		return -EBUSY;
	if (ioctl(v->container, VFIO_IOMMU_MAP_DMA, &dm) < 0)
		return -errno;
	v->iova = iova;
	v->len = len;
	return 0;
}

int tg_vfio_device_fd(const struct tg_vfio *v)
{
	return v ? v->device : -1;
}

/* ---- interrupts ---- */

struct tg_irq {
	int fd;
	enum tg_irq_kind kind;
	int chardev;        /* UIO on a real device: unmask by writing 1 */
};

struct tg_irq *tg_irq_from_fd(int fd, enum tg_irq_kind kind)
{
	struct tg_irq *irq;
	struct stat st;

	if (fd < 0 || (kind != TG_IRQ_UIO && kind != TG_IRQ_EVENTFD)) {
		errno = EINVAL;
		return NULL;
	}
	irq = calloc(1, sizeof(*irq));
	if (!irq)
		return NULL;
	irq->fd = fd;
	irq->kind = kind;
	irq->chardev = kind == TG_IRQ_UIO && fstat(fd, &st) == 0 && S_ISCHR(st.st_mode);
	return irq;
}

struct tg_irq *tg_irq_open_uio(const char *path)
{
	struct tg_irq *irq;
	/* read-write: uio_pci_generic is unmasked by a write; a FIFO stand-in
	 * opened this way never blocks on the open */
	int fd = open(path, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	irq = tg_irq_from_fd(fd, TG_IRQ_UIO);
	if (!irq)
		close(fd);
	return irq;
}

struct tg_irq *tg_irq_open_vfio(int devfd)
{
	union {
		struct vfio_irq_set set;
		uint8_t bytes[sizeof(struct vfio_irq_set) + sizeof(int32_t)];
	} u;
	struct vfio_irq_set *set = &u.set;
	struct tg_irq *irq;
	int32_t efd = eventfd(0, EFD_CLOEXEC);
	int err;

	if (efd < 0)
		return NULL;
	memset(&u, 0, sizeof(u));
	set->argsz = sizeof(u);
	set->flags = VFIO_IRQ_SET_DATA_EVENTFD | VFIO_IRQ_SET_ACTION_TRIGGER;
	set->index = VFIO_PCI_MSI_IRQ_INDEX;
	set->start = 0;
	set->count = 1;
	memcpy(set->data, &efd, sizeof(efd));
	if (ioctl(devfd, VFIO_DEVICE_SET_IRQS, set) < 0) {
		err = errno;
		close(efd);
		errno = err;
		return NULL;
	}
	irq = tg_irq_from_fd(efd, TG_IRQ_EVENTFD);
	if (!irq)
		close(efd);
	return irq;
}

int tg_irq_wait(struct tg_irq *irq, int timeout_ms, uint64_t *count)
{
	struct pollfd pfd = { .fd = irq->fd, .events = POLLIN };
	uint32_t c32;
	uint64_t c64;
	ssize_t n;
	int rc;

	do
		rc = poll(&pfd, 1, timeout_ms);
	while (rc < 0 && errno == EINTR);
	if (rc < 0)
		return -errno;
	if (rc == 0)
		return -ETIMEDOUT;
	if (irq->kind == TG_IRQ_UIO) {
		n = read(irq->fd, &c32, sizeof(c32));
		c64 = c32;
	} else {
		n = read(irq->fd, &c64, sizeof(c64));
	}
	if (n < 0)
		return errno == EAGAIN ? -ETIMEDOUT : -errno;
	if (n != (irq->kind == TG_IRQ_UIO ? 4 : 8))
		return -EIO;
	if (count)
		*count = c64;
	return 0;
}

int tg_irq_unmask(struct tg_irq *irq)
{
	int32_t one = 1;

	if (!irq->chardev)
		return 0;
	return write(irq->fd, &one, sizeof(one)) == (ssize_t)sizeof(one) ? 0 : -errno;
}

int tg_irq_fd(const struct tg_irq *irq)
{
	return irq ? irq->fd : -1;
}

void tg_irq_close(struct tg_irq *irq)
{
	if (!irq)
		return;
	close(irq->fd);
	free(irq);
}
