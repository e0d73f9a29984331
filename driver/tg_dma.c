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

#include "tg_dma.h"

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

int tg_dma_hugepage_alloc(uint64_t len, uint64_t page, const char *pagemap,
			  struct tg_dma_mem *m, char *msg, size_t msg_sz)
{
	int shift = page == TG_HUGE_1G ? 30 : 21;
	uint64_t pgsz = (uint64_t)sysconf(_SC_PAGESIZE), pa = 0, contig = 0;
	unsigned long long need;
	void *va;
	int fd, rc;

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
		  MAP_SHARED | MAP_ANONYMOUS | MAP_HUGETLB | MAP_POPULATE | MAP_LOCKED |
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
	fd = open(pagemap ? pagemap : "/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		say(msg, msg_sz, "%s: %s", pagemap ? pagemap : "/proc/self/pagemap",
		    strerror(errno));
		goto fail;
	}
	rc = tg_pagemap_contig(fd, (uint64_t)(uintptr_t)va, len, page, pgsz, &pa, &contig);
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
	if (contig < len) {
		say(msg, msg_sz, "the %llu hugepages of %s are not physically contiguous (only the "
		    "first %llu bytes are): the NIC needs one block; use 1 GiB pages "
		    "(hugepagesz=1G at boot) or a smaller MEM_SIZE", need, page_name(page),
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
	char buf[sizeof(struct vfio_irq_set) + sizeof(int32_t)];
	struct vfio_irq_set *set = (struct vfio_irq_set *)(void *)buf;
	struct tg_irq *irq;
	int32_t efd = eventfd(0, EFD_CLOEXEC);
	int err;

	if (efd < 0)
		return NULL;
	memset(buf, 0, sizeof(buf));
	set->argsz = sizeof(buf);
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
