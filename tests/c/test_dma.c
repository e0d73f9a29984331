/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: DMA memory and interrupts of the pci: provider without the board:
 * the pagemap parser on synthetic pagemap files, hugepage allocation where
 * the machine has hugepages (a clear skip reason otherwise), interrupt
 * descriptors on a FIFO, an eventfd and a regular file, and the provider
 * as the node's driver over a file standing in for resource0 and another
 * for the DMA memory. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "tg/tg_queue.h"
#include "tgdrv/tg_dma.h"
#include "tg_fakepci.h"

#define PG    4096ull
#define ENT(pfn)  (TG_PAGEMAP_PRESENT | (uint64_t)(pfn))

static char pm[192], fifo[192], memf[192];

/* A pagemap file: entry i of the virtual page va/PG + i is e[i]. */
static int synth_pagemap(uint64_t va, const uint64_t *e, unsigned n)
{
	int fd = open(pm, O_RDWR | O_CREAT | O_TRUNC, 0600);

	REQUIRE(fd >= 0, "%s: %s", pm, strerror(errno));
	REQUIRE(pwrite(fd, e, n * 8u, (off_t)(va / PG * 8u)) == (ssize_t)(n * 8u), "pwrite");
	return fd;
}

static void test_decode(void)
{
	uint64_t pa = 0;

	CHECK_RC(tg_pagemap_decode(ENT(0x1234), 0x7000abc, PG, &pa), 0);
	CHECK(pa == 0x1234000 + 0xabc, "pa 0x%llx", (unsigned long long)pa);
	/* bits 55..61 are flags, not part of the frame number */
	CHECK_RC(tg_pagemap_decode(ENT(0x5) | 1ULL << 55 | 1ULL << 61, 0, PG, &pa), 0);
	CHECK(pa == 0x5000, "flags kept out of the PFN: 0x%llx", (unsigned long long)pa);
	CHECK_RC(tg_pagemap_decode(0x1234, 0, PG, &pa), -EFAULT);           /* not present */
	CHECK_RC(tg_pagemap_decode(ENT(0x1234) | TG_PAGEMAP_SWAPPED, 0, PG, &pa), -EFAULT);
	CHECK_RC(tg_pagemap_decode(TG_PAGEMAP_PRESENT, 0, PG, &pa), -EPERM); /* PFN hidden */
}

static void test_synthetic(void)
{
	const uint64_t va = 0x7f0000000000ull, huge = 2ull << 20, per = huge / PG;
	uint64_t e[4 * 512], pa = 0, contig = 0;
	int fd;

	/* four 2 MiB pages at 0x40000000, physically one block */
	for (unsigned i = 0; i < 4 * per; i++)
		e[i] = ENT(0x40000 + i);
	fd = synth_pagemap(va, e, 4 * per);
	CHECK_RC(tg_pagemap_phys(fd, va + 0x1008, PG, &pa), 0);
	CHECK(pa == 0x40001008, "phys 0x%llx", (unsigned long long)pa);
	CHECK_RC(tg_pagemap_contig(fd, va, 4 * huge, huge, PG, &pa, &contig), 0);
	CHECK(pa == 0x40000000 && contig == 4 * huge, "contiguous: 0x%llx, %llu bytes",
	      (unsigned long long)pa, (unsigned long long)contig);
	CHECK_RC(tg_pagemap_contig(fd, va + 1, huge, huge, PG, &pa, &contig), -EINVAL);
	/* beyond the end of the file: a short read */
	CHECK_RC(tg_pagemap_phys(fd, va + 4 * huge, PG, &pa), -EIO);
	close(fd);

	/* the third hugepage lies elsewhere: two pages are one block */
	for (unsigned i = 2 * per; i < 3 * per; i++)
		e[i] = ENT(0x90000 + i);
	fd = synth_pagemap(va, e, 4 * per);
	CHECK_RC(tg_pagemap_contig(fd, va, 4 * huge, huge, PG, &pa, &contig), 0);
	CHECK(contig == 2 * huge, "contiguous part %llu", (unsigned long long)contig);
	close(fd);

	/* what a process without CAP_SYS_ADMIN sees: present, PFN 0 */
	for (unsigned i = 0; i < 4 * per; i++)
		e[i] = TG_PAGEMAP_PRESENT;
	fd = synth_pagemap(va, e, 4 * per);
	CHECK_RC(tg_pagemap_contig(fd, va, 4 * huge, huge, PG, &pa, &contig), -EPERM);
	close(fd);
	e[0] = 0;   /* not present (never touched) */
	fd = synth_pagemap(va, e, 1);
	CHECK_RC(tg_pagemap_phys(fd, va, PG, &pa), -EFAULT);
	close(fd);
	unlink(pm);
}

/* The real thing where the machine allows it. */
static void test_hugepages(void)
{
	struct tg_dma_mem m;
	char msg[320];
	long nfree = tg_dma_free_hugepages(NULL, TG_HUGE_2M);
	uint64_t pa = 0;
	int rc, fd;

	if (nfree < 1) {
		/* the refusal must say what to do */
		rc = tg_dma_hugepage_alloc(TG_HUGE_2M, TG_HUGE_2M, NULL, &m, msg, sizeof(msg));
		CHECK_RC(rc, -ENOMEM);
		CHECK(rc != -ENOMEM || strstr(msg, "hugepage"), "message: %s", msg);
		CHECK(m.va == NULL, "nothing mapped");
		fprintf(stderr, "skip: hugepage allocation: no free 2 MiB hugepages here "
			"(/sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages: %ld); "
			"refused with: %s\n", nfree, msg);
		return;
	}
	rc = tg_dma_hugepage_alloc(TG_HUGE_2M, TG_HUGE_2M, NULL, &m, msg, sizeof(msg));
	if (rc == -EPERM) {
		CHECK(strstr(msg, "CAP_SYS_ADMIN") != NULL, "message: %s", msg);
		fprintf(stderr, "skip: hugepages mapped, but the pagemap hides PFNs: %s\n", msg);
		return;
	}
	REQUIRE(rc == 0, "hugepage alloc: %s", msg);
	CHECK(m.has_phys && m.phys && !(m.phys & (TG_HUGE_2M - 1)) && m.len == TG_HUGE_2M,
	      "phys 0x%llx len %llu", (unsigned long long)m.phys, (unsigned long long)m.len);
	CHECK(m.va[0] == 0 && m.va[TG_HUGE_2M - 1] == 0, "zeroed");
	memset(m.va, 0x5a, TG_HUGE_2M);
	/* the same answer from the kernel's pagemap, for the last base page */
	fd = open("/proc/self/pagemap", O_RDONLY);
	REQUIRE(fd >= 0, "pagemap");
	CHECK_RC(tg_pagemap_phys(fd, (uint64_t)(uintptr_t)m.va + TG_HUGE_2M - PG, PG, &pa), 0);
	CHECK(pa == m.phys + TG_HUGE_2M - PG, "last page at 0x%llx", (unsigned long long)pa);
	close(fd);
	fprintf(stderr, "hugepages: a 2 MiB page at physical 0x%llx\n",
		(unsigned long long)m.phys);
	/* a pagemap that hides PFNs gives the clear refusal */
	tg_dma_free(&m);
	{
		uint64_t e[1] = { TG_PAGEMAP_PRESENT };

		close(synth_pagemap(0, e, 1));
		/* every lookup lands beyond this one-entry file or on PFN 0 */
		rc = tg_dma_hugepage_alloc(TG_HUGE_2M, TG_HUGE_2M, pm, &m, msg, sizeof(msg));
		CHECK(rc == -EIO || rc == -EPERM, "rc %d: %s", rc, msg);
		unlink(pm);
	}
}

static void test_irq(void)
{
	struct tg_irq *irq;
	uint64_t c = 0;
	uint32_t c32 = 7;
	char rf[200];
	int w, efd;

	/* a FIFO standing in for /dev/uioN: 32-bit counts */
	REQUIRE(mkfifo(fifo, 0600) == 0, "mkfifo: %s", strerror(errno));
	irq = tg_irq_open_uio(fifo);
	REQUIRE(irq, "open fifo: %s", strerror(errno));
	CHECK(tg_irq_fd(irq) >= 0, "fd");
	CHECK_RC(tg_irq_wait(irq, 10, &c), -ETIMEDOUT);
	w = open(fifo, O_WRONLY);
	REQUIRE(w >= 0, "writer");
	REQUIRE(write(w, &c32, 4) == 4, "write");
	CHECK_RC(tg_irq_wait(irq, 1000, &c), 0);
	CHECK(c == 7, "uio count %llu", (unsigned long long)c);
	/* not a character device: the unmask write is left out */
	CHECK_RC(tg_irq_unmask(irq), 0);
	CHECK_RC(tg_irq_wait(irq, 10, &c), -ETIMEDOUT);
	/* half a count is an error, not an interrupt */
	REQUIRE(write(w, &c32, 2) == 2, "write");
	CHECK_RC(tg_irq_wait(irq, 1000, &c), -EIO);
	close(w);
	tg_irq_close(irq);

	/* an eventfd, as VFIO signals: 64-bit counts */
	efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	REQUIRE(efd >= 0, "eventfd");
	irq = tg_irq_from_fd(efd, TG_IRQ_EVENTFD);
	REQUIRE(irq, "from fd");
	CHECK_RC(tg_irq_wait(irq, 10, &c), -ETIMEDOUT);
	REQUIRE(eventfd_write(efd, 3) == 0, "eventfd_write");
	CHECK_RC(tg_irq_wait(irq, 1000, &c), 0);
	CHECK(c == 3, "eventfd count %llu", (unsigned long long)c);
	CHECK_RC(tg_irq_unmask(irq), 0);
	tg_irq_close(irq);
	CHECK(tg_irq_from_fd(-1, TG_IRQ_UIO) == NULL && errno == EINVAL, "bad fd");

	/* a regular file in place of /dev/uioN: always ready, its count read */
	snprintf(rf, sizeof(rf), "%s/uio-file", dir);
	w = open(rf, O_RDWR | O_CREAT, 0600);
	REQUIRE(w >= 0 && write(w, &c32, 4) == 4, "file");
	close(w);
	irq = tg_irq_open_uio(rf);
	REQUIRE(irq, "open file");
	CHECK_RC(tg_irq_wait(irq, 10, &c), 0);
	CHECK(c == 7, "file count %llu", (unsigned long long)c);
	tg_irq_close(irq);
	unlink(rf);

	/* not a VFIO device: the SET_IRQS ioctl is refused */
	w = open("/dev/null", O_RDWR);
	CHECK(tg_irq_open_vfio(w) == NULL, "vfio on /dev/null");
	close(w);
	CHECK(tg_irq_open_uio("/nonexistent/uio0") == NULL && errno == ENOENT, "missing uio");
}

/* Config space and VFIO discovery on the stand-in sysfs directory; the
 * VFIO ioctls themselves need /dev/vfio and an IOMMU. */
static void test_cfg_vfio(void)
{
	char path[256], link[256], msg[320], name[64];
	uint8_t cfg[64] = { 0 };
	struct tg_dev *d;
	int fd;

	/* Bus Master Enable: COMMAND bit 2, other bits kept */
	snprintf(path, sizeof(path), "%s/config", devdir);
	cfg[4] = 0x02;   /* memory decoding */
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	REQUIRE(fd >= 0 && write(fd, cfg, sizeof(cfg)) == (ssize_t)sizeof(cfg), "config");
	CHECK_RC(tg_pci_cfg_bus_master(fd, 0), 0);
	CHECK(pread(fd, cfg, 8, 0) == 8 && cfg[4] == 0x06 && cfg[5] == 0, "COMMAND 0x%02x",
	      cfg[4]);
	CHECK_RC(tg_pci_cfg_bus_master(fd, 62), -EIO);   /* beyond the file */
	close(fd);

	/* no IOMMU group: the IOMMU is off */
	CHECK_RC(tg_vfio_group_of(sysfs, BDF, msg, sizeof(msg)), -ENODEV);
	CHECK(strstr(msg, "IOMMU is off") != NULL, "message: %s", msg);
	errno = 0;
	CHECK(tg_vfio_open(sysfs, BDF, dir, msg, sizeof(msg)) == NULL && errno == ENODEV,
	      "open without group: %d", errno);
	CHECK_RC(tg_pci_driver_of(sysfs, BDF, name, sizeof(name)), -ENOENT);
	/* group 17, the function bound to vfio-pci, no /dev/vfio */
	snprintf(link, sizeof(link), "%s/iommu_group", devdir);
	REQUIRE(symlink("../../../kernel/iommu_groups/17", link) == 0, "symlink");
	snprintf(path, sizeof(path), "%s/driver", devdir);
	REQUIRE(symlink("../../../bus/pci/drivers/vfio-pci", path) == 0, "symlink");
	CHECK_RC(tg_vfio_group_of(sysfs, BDF, msg, sizeof(msg)), 17);
	CHECK_RC(tg_pci_driver_of(sysfs, BDF, name, sizeof(name)), 0);
	CHECK(!strcmp(name, "vfio-pci"), "driver %s", name);
	CHECK(tg_vfio_open(sysfs, BDF, dir, msg, sizeof(msg)) == NULL && errno == ENOENT &&
	      strstr(msg, "vfio-pci"), "open without /dev/vfio: %d %s", errno, msg);

	/* the provider: auto picks VFIO for a function bound to vfio-pci */
	setenv("TG_VFIO_DIR", dir, 1);
	setenv("TG_PCI_DMA", "auto", 1);
	d = tg_open("pci:" BDF, 0);
	REQUIRE(d, "open");
	CHECK(tg_mr_alloc(d, 4096, 0) == NULL && errno == ENOENT, "vfio, no container: %d",
	      errno);
	tg_close(d);
	unlink(path);
	unlink(link);
	setenv("TG_PCI_DMA", "vfio", 1);
	d = tg_open("pci:" BDF, 0);
	REQUIRE(d, "open");
	CHECK(tg_mr_alloc(d, 4096, 0) == NULL && errno == ENODEV, "vfio, no group: %d", errno);
	tg_close(d);
	setenv("TG_PCI_DMA", "none", 1);
	unsetenv("TG_VFIO_DIR");
}

/* What the NIC would do: append a word to queue buffer b and move its tail. */
static void nic_append(uint8_t *mem, uint64_t b, uint64_t val)
{
	uint64_t *tail = (uint64_t *)(mem + b + TG_Q_TAIL);
	uint64_t t = __atomic_load_n(tail, __ATOMIC_ACQUIRE);

	memcpy(mem + b + t, &val, 8);
	__atomic_store_n(tail, t + 8, __ATOMIC_RELEASE);
}

struct nic_thread {
	uint8_t *mem;
	uint64_t qpa;
	unsigned idx;
};

/* Later: an entry, the notification cause in IRQ_STATUS, the interrupt. */
static void *nic_main(void *arg)
{
	struct nic_thread *n = arg;
	struct timespec ts = { 0, 50 * 1000000L };
	uint32_t count = 1;
	int w;

	nanosleep(&ts, NULL);
	nic_append(n->mem, n->qpa, 0xabcdef);
	put64(tg_bar_csr_addr(TG_CSR_REG_IRQ_STATUS), 1ULL << (16 + n->idx));
	w = open(fifo, O_WRONLY);
	if (w >= 0) {
		if (write(w, &count, 4) != 4)
			perror("fifo");
		close(w);
	}
	return NULL;
}

static void test_provider(void)
{
	char env[256];
	struct tg_dev *d, *other;
	struct tg_mr *mr;
	struct tg_queue *q, *qa;
	struct nic_thread nt;
	pthread_t th;
	uint64_t v = 0, qpa, cfg;
	uint8_t *mem;
	double t0;
	int fd;

	snprintf(env, sizeof(env), "file:%s", memf);
	setenv("TG_PCI_DMA", env, 1);
	snprintf(env, sizeof(env), "uio:%s", fifo);
	setenv("TG_PCI_IRQ", env, 1);

	/* a config space with bus mastering off */
	{
		char cpath[256];
		uint8_t cfg[64] = { 0 };

		snprintf(cpath, sizeof(cpath), "%s/config", devdir);
		fd = open(cpath, O_RDWR | O_CREAT | O_TRUNC, 0600);
		REQUIRE(fd >= 0 && write(fd, cfg, sizeof(cfg)) == (ssize_t)sizeof(cfg), "config");
		close(fd);
	}
	d = tg_open("pci:" BDF, 0);
	REQUIRE(d, "tg_open: %s", tg_strerror(-errno));
	/* registered memory comes from the DMA memory */
	mr = tg_mr_alloc(d, 8192, TG_ACCESS_ALL);
	REQUIRE(mr, "tg_mr_alloc: %s", tg_strerror(-errno));
	CHECK(tg_mr_paddr(mr) >= 4096 && tg_mr_paddr(mr) + 8192 <= MEMSZ, "paddr 0x%llx",
	      (unsigned long long)tg_mr_paddr(mr));
	fd = open(memf, O_RDWR);
	REQUIRE(fd >= 0, "memory file");
	mem = mmap(NULL, MEMSZ, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	REQUIRE(mem != MAP_FAILED, "mmap");
	memcpy(tg_mr_ptr(mr), "dma", 4);
	CHECK(!memcmp(mem + tg_mr_paddr(mr), "dma", 4), "tg_mr_ptr is the DMA memory");
	/* bus mastering switched on through the function's config file */
	{
		char cpath[256];
		uint8_t cmd = 0;

		snprintf(cpath, sizeof(cpath), "%s/config", devdir);
		fd = open(cpath, O_RDWR);
		REQUIRE(fd >= 0, "config");
		CHECK(pread(fd, &cmd, 1, 4) == 1 && cmd == 0x04, "COMMAND 0x%02x", cmd);
		close(fd);
	}
	CHECK(tg_mr_alloc(d, 2 * MEMSZ, 0) == NULL && errno == ENOMEM, "too large");
	/* exported: the region-table entry written through the CSR page */
	{
		uint64_t key = 0;

		CHECK_RC(tg_mr_export(mr, &key), 0);
		CHECK(get64(tg_bar_csr_addr(TG_CSR_REG_RKEY)) == key &&
		      get64(tg_bar_csr_addr(TG_CSR_REG_RSEL)) == (key & (TG_REGIONS - 1)) &&
		      get64(tg_bar_csr_addr(TG_CSR_REG_RBASE)) == tg_mr_paddr(mr) &&
		      get64(tg_bar_csr_addr(TG_CSR_REG_RLEN)) == 8192 &&
		      get64(tg_bar_csr_addr(TG_CSR_REG_RCFG)) ==
			      (TG_RCFG_VALID | TG_RIGHT_READ | TG_RIGHT_WRITE | TG_RIGHT_ATOMIC),
		      "region entry of key 0x%llx", (unsigned long long)key);
		CHECK_RC(tg_mr_revoke(mr), 0);
		CHECK(get64(tg_bar_csr_addr(TG_CSR_REG_RCFG)) == 0, "revoked entry");
	}

	/* the owner says where the NIC's paddr 0 is */
	{
		char lpath[256], line[160] = { 0 }, want[64];

		snprintf(lpath, sizeof(lpath), "%s/tg-pci-%s-mem.lock", dir, BDF);
		fd = open(lpath, O_RDONLY);
		REQUIRE(fd >= 0, "lock file");
		CHECK(read(fd, line, sizeof(line) - 1) > 0, "lock file content");
		close(fd);
		snprintf(want, sizeof(want), "pid %d bytes %u file\n", (int)getpid(), MEMSZ);
		CHECK(!strcmp(line, want), "lock file: %s", line);
	}
	/* one owner of the memory: a second open of the node is refused */
	other = tg_open("pci:" BDF, 0);
	REQUIRE(other, "second open");
	CHECK(tg_mr_alloc(other, 4096, 0) == NULL && errno == EBUSY, "second owner: %d", errno);
	CHECK(tg_queue_open(other, 12, 8) == NULL && errno == EBUSY, "second owner queue");
	tg_close(other);

	/* a queue: the table entry programmed through the CSR page */
	q = tg_queue_open(d, 12, 8);
	REQUIRE(q, "tg_queue_open: %s", tg_strerror(-errno));
	qpa = tg_queue_paddr(q);
	CHECK(qpa && !(qpa & 4095) && qpa < MEMSZ, "queue at 0x%llx", (unsigned long long)qpa);
	CHECK(get64(tg_bar_csr_addr(TG_CSR_REG_QBASE)) == qpa, "QBASE 0x%llx",
	      (unsigned long long)get64(tg_bar_csr_addr(TG_CSR_REG_QBASE)));
	cfg = get64(tg_bar_csr_addr(TG_CSR_REG_QCFG));
	CHECK(cfg == (12 | 3 << 8 | TG_QCFG_ENABLE), "QCFG 0x%llx", (unsigned long long)cfg);
	nt.idx = (unsigned)get64(tg_bar_csr_addr(TG_CSR_REG_QSEL));
	CHECK(get64(tg_bar_csr_addr(TG_CSR_REG_QTAIL)) == TG_Q_SLOTS, "QTAIL");
	CHECK(get64(tg_bar_csr_addr(TG_CSR_REG_IRQ_MASK)) ==
	      ((1ULL << nt.idx) | 1ULL << (16 + nt.idx)), "IRQ_MASK");
	CHECK(*(uint64_t *)(mem + qpa + TG_Q_TAIL) == TG_Q_SLOTS &&
	      *(uint64_t *)(mem + qpa + TG_Q_SIZE) == (12 | 3 << 8), "header in DMA memory");

	/* dequeue what the "NIC" wrote */
	CHECK_RC(tg_deq(q, &v, 8), -EAGAIN);
	nic_append(mem, qpa, 0x1234);
	CHECK_RC(tg_deq(q, &v, 8), 0);
	CHECK(v == 0x1234, "entry 0x%llx", (unsigned long long)v);
	qa = tg_queue_attach(d, qpa);
	CHECK(qa != NULL, "attach: %s", tg_strerror(-errno));
	tg_queue_close(qa);

	/* waiting: armed, then the timeout */
	put64(tg_bar_csr_addr(TG_CSR_REG_QARM), 0);
	CHECK_RC(tg_deq_wait(q, &v, 8, 20 * 1000000ull), -ETIMEDOUT);
	CHECK(get64(tg_bar_csr_addr(TG_CSR_REG_QARM)) == 1ULL << nt.idx, "QARM");
	/* the interrupt wakes the waiter long before its 1 s nap ends */
	nt.mem = mem;
	nt.qpa = qpa;
	REQUIRE(pthread_create(&th, NULL, nic_main, &nt) == 0, "thread");
	t0 = t_now_s();
	CHECK_RC(tg_deq_wait(q, &v, 8, 5000000000ull), 0);
	CHECK(v == 0xabcdef, "woken entry 0x%llx", (unsigned long long)v);
	CHECK(t_now_s() - t0 < 0.8, "woken after %.3f s", t_now_s() - t0);
	pthread_join(th, NULL);
	/* the notification cause was cleared (W1C: the bit written back) */
	CHECK(get64(tg_bar_csr_addr(TG_CSR_REG_IRQ_STATUS)) == 1ULL << (16 + nt.idx),
	      "IRQ_STATUS write");

	/* an overflow the NIC reported (queue closed: QCFG full, cause in
	 * IRQ_STATUS): handled once the owner finds the queue empty, and
	 * the queue reopened */
	nic_append(mem, qpa, 1);
	nic_append(mem, qpa, 2);
	put64(tg_bar_csr_addr(TG_CSR_REG_QCFG), 12 | 3 << 8 | TG_QCFG_ENABLE | TG_QCFG_FULL);
	put64(tg_bar_csr_addr(TG_CSR_REG_IRQ_STATUS), 1ULL << nt.idx);
	CHECK_RC(tg_deq(q, &v, 8), 0);
	CHECK(v == 1, "first after overflow");
	CHECK_RC(tg_deq(q, &v, 8), 0);
	CHECK(v == 2, "second after overflow");
	CHECK(get64(tg_bar_csr_addr(TG_CSR_REG_QCFG)) & TG_QCFG_FULL, "still closed");
	CHECK_RC(tg_deq(q, &v, 8), -EAGAIN);
	CHECK(get64(tg_bar_csr_addr(TG_CSR_REG_QCFG)) == (12 | 3 << 8 | TG_QCFG_ENABLE),
	      "reopened: QCFG 0x%llx", (unsigned long long)get64(tg_bar_csr_addr(TG_CSR_REG_QCFG)));
	CHECK(get64(tg_bar_csr_addr(TG_CSR_REG_QSEL)) == nt.idx, "QSEL");

	/* tg_read of more than a word needs the NIC's fetch: not run here */
	tg_queue_close(q);
	CHECK(get64(tg_bar_csr_addr(TG_CSR_REG_QCFG)) == 0, "queue disabled at close");
	tg_mr_free(mr);
	/* a region still exported at close is revoked: its key must not
	 * open the memory the next owner gets */
	{
		struct tg_mr *ex = tg_mr_alloc(d, 4096, TG_ACCESS_REMOTE_READ);
		uint64_t key = 0;

		REQUIRE(ex, "region to leave exported");
		CHECK_RC(tg_mr_export(ex, &key), 0);
		CHECK(get64(tg_bar_csr_addr(TG_CSR_REG_RCFG)) == (TG_RCFG_VALID | TG_RIGHT_READ),
		      "exported before close");
		tg_close(d);
		CHECK(get64(tg_bar_csr_addr(TG_CSR_REG_RSEL)) == (key & (TG_REGIONS - 1)) &&
		      get64(tg_bar_csr_addr(TG_CSR_REG_RCFG)) == 0, "region revoked at close");
	}
	CHECK(get64(tg_bar_csr_addr(TG_CSR_REG_IRQ_MASK)) == 0, "IRQ_MASK cleared at close");
	/* the memory is free for the next owner, which clears the region
	 * table (the last entry is written last) and sets PROT_CFG as
	 * $TG_PCI_PROTECT says */
	put64(tg_bar_csr_addr(TG_CSR_REG_RCFG), TG_RCFG_VALID | TG_RIGHT_WRITE);
	setenv("TG_PCI_PROTECT", "1", 1);
	d = tg_open("pci:" BDF, 0);
	REQUIRE(d, "reopen");
	mr = tg_mr_alloc(d, 4096, 0);
	unsetenv("TG_PCI_PROTECT");
	CHECK(get64(tg_bar_csr_addr(TG_CSR_REG_RSEL)) == TG_REGIONS - 1 &&
	      get64(tg_bar_csr_addr(TG_CSR_REG_RCFG)) == 0, "region table cleared by the new owner");
	CHECK(get64(tg_bar_csr_addr(TG_CSR_REG_PROT_CFG)) == TG_PROT_CFG_ENABLE,
	      "TG_PCI_PROTECT=1: PROT_CFG 0x%llx",
	      (unsigned long long)get64(tg_bar_csr_addr(TG_CSR_REG_PROT_CFG)));
	CHECK(mr != NULL, "next owner: %s", tg_strerror(-errno));
	tg_close(d);

	/* the refusals: no MEM_SIZE, no hugepages (or none reserved), none */
	put64(tg_bar_csr_addr(TG_CSR_REG_MEM_SIZE), 0);
	d = tg_open("pci:" BDF, 0);
	REQUIRE(d, "open without MEM_SIZE");
	CHECK(tg_mr_alloc(d, 4096, 0) == NULL && errno == ENOMEM, "no MEM_SIZE: %d", errno);
	tg_close(d);
	put64(tg_bar_csr_addr(TG_CSR_REG_MEM_SIZE), MEMSZ);
	setenv("TG_PCI_DMA", "none", 1);
	d = tg_open("pci:" BDF, 0);
	REQUIRE(d, "open");
	CHECK(tg_queue_open(d, 12, 8) == NULL && errno == EOPNOTSUPP, "none");
	CHECK(tg_mr_alloc(d, 4096, 0) == NULL && errno == EOPNOTSUPP, "none, sticky");
	tg_close(d);
	if (tg_dma_free_hugepages(NULL, TG_HUGE_2M) < 1) {
		setenv("TG_PCI_DMA", "hugepage", 1);
		d = tg_open("pci:" BDF, 0);
		REQUIRE(d, "open");
		CHECK(tg_mr_alloc(d, 4096, 0) == NULL && errno == ENOMEM, "no hugepages: %d",
		      errno);
		tg_close(d);
	} else {
		/* hugepages here: the provider on real DMA memory */
		setenv("TG_PCI_DMA", "hugepage", 1);
		d = tg_open("pci:" BDF, 0);
		REQUIRE(d, "open");
		mr = tg_mr_alloc(d, 4096, 0);
		/* EPERM: the pagemap hides PFNs from this user */
		CHECK(mr != NULL || errno == EPERM, "hugepage DMA memory: %s", tg_strerror(-errno));
		if (mr)
			memset(tg_mr_ptr(mr), 1, 4096);
		tg_close(d);
	}
	setenv("TG_PCI_DMA", "bogus", 1);
	d = tg_open("pci:" BDF, 0);
	REQUIRE(d, "open");
	CHECK(tg_mr_alloc(d, 4096, 0) == NULL && errno == EINVAL, "bogus");
	tg_close(d);
	setenv("TG_PCI_DMA", "none", 1);
	unsetenv("TG_PCI_IRQ");
	munmap(mem, MEMSZ);
	unlink(memf);
}

int main(void)
{
	int rc;

	signal(SIGALRM, t_on_alarm);
	alarm(60);
	rc = t_fakepci_setup();
	if (rc)
		return rc;
	snprintf(pm, sizeof(pm), "%s/pagemap", dir);
	snprintf(fifo, sizeof(fifo), "%s/uio0", dir);
	snprintf(memf, sizeof(memf), "%s/dma-mem", dir);

	test_decode();
	test_synthetic();
	test_hugepages();
	test_irq();
	test_cfg_vfio();
	test_provider();

	t_fakepci_cleanup();
	return t_done("test_dma");
}
