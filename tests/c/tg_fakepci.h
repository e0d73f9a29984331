/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* A PCI function with no hardware behind it, for the tests of the pci:
 * provider: a sysfs-like devices directory with the attributes libpci's
 * sysfs method reads (vendor, device, class, irq, resource) and a sparse
 * file standing in for resource0, its CSR page filled in. */
#ifndef TG_FAKEPCI_H
#define TG_FAKEPCI_H

#include <fcntl.h>
#include <sys/stat.h>

#include "tg/tg_bar.h"
#include "tg_test.h"

#define BDF       "0000:03:00.0"
#define NCTX      4u
#define MEMSZ     (1u << 20)
#define NODE      5u

static char dir[64], sysfs[96], devdir[128], res[160], dump[128];

static inline uint64_t good_id(void)
{
	return TG_ID_MAGIC << 32 | TG_VERSION_MAJOR << 16 | TG_VERSION_MINOR;
}

static inline void put64(uint64_t off, uint64_t v)
{
	int fd = open(res, O_RDWR);

	REQUIRE(fd >= 0, "%s: %s", res, strerror(errno));
	REQUIRE(pwrite(fd, &v, 8, (off_t)off) == 8, "pwrite");
	close(fd);
}

static inline uint64_t get64(uint64_t off)
{
	uint64_t v = 0;
	int fd = open(res, O_RDONLY);

	REQUIRE(fd >= 0 && pread(fd, &v, 8, (off_t)off) == 8, "pread at 0x%llx",
		(unsigned long long)off);
	close(fd);
	return v;
}

static inline void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	REQUIRE(f, "%s: %s", path, strerror(errno));
	fputs(text, f);
	fclose(f);
}

/* Write sysfs's resource attribute: BAR 0 of `size` bytes at a
 * made-up bus address, the other five unused. */
static inline void t_fakepci_bar_size(const char *path, uint64_t size)
{
	FILE *f = fopen(path, "w");
	uint64_t base = 1ULL << 47;

	REQUIRE(f, "%s: %s", path, strerror(errno));
	fprintf(f, "0x%016llx 0x%016llx 0x%016llx\n", (unsigned long long)base,
		(unsigned long long)(base + size - 1), 0x14220cULL);
	for (int i = 1; i < 6; i++)
		fprintf(f, "0x%016llx 0x%016llx 0x%016llx\n", 0ULL, 0ULL, 0ULL);
	fclose(f);
}

/* Build the function under a fresh directory in /dev/shm and point the
 * provider at it (TG_PCI_SYSFS, TG_PCI_LOCK_DIR).  Returns 0, or T_SKIP
 * where no 128 TiB sparse file can be made. */
static inline int t_fakepci_setup(void)
{
	char path[192];
	int fd;

	snprintf(dir, sizeof(dir), "/dev/shm/tg-pci-test-XXXXXX");
	REQUIRE(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
	snprintf(sysfs, sizeof(sysfs), "%s/devices", dir);
	snprintf(devdir, sizeof(devdir), "%s/%s", sysfs, BDF);
	REQUIRE(mkdir(sysfs, 0700) == 0 && mkdir(devdir, 0700) == 0, "mkdir");
	snprintf(res, sizeof(res), "%s/resource0", devdir);
	snprintf(dump, sizeof(dump), "%s/lspci.dump", dir);
	fd = open(res, O_RDWR | O_CREAT, 0600);
	REQUIRE(fd >= 0, "resource file");
	/* tmpfs: a sparse file as large as the 47-bit BAR */
	if (ftruncate(fd, (off_t)(1ULL << TG_BAR_ADDR_BITS)) < 0) {
		fprintf(stderr, "skip: no 128 TiB sparse file here: %s\n", strerror(errno));
		close(fd);
		return T_SKIP;
	}
	close(fd);
	snprintf(path, sizeof(path), "%s/vendor", devdir);
	put_file(path, "0x10ee\n");
	snprintf(path, sizeof(path), "%s/device", devdir);
	put_file(path, "0x7447\n");
	snprintf(path, sizeof(path), "%s/class", devdir);
	put_file(path, "0x020000\n");
	snprintf(path, sizeof(path), "%s/irq", devdir);
	put_file(path, "0\n");
	/* BAR 0: 64-bit prefetchable memory, 2^TG_BAR_ADDR_BITS bytes */
	snprintf(path, sizeof(path), "%s/resource", devdir);
	t_fakepci_bar_size(path, 1ULL << TG_BAR_ADDR_BITS);
	put64(tg_bar_csr_addr(TG_CSR_REG_ID), good_id());
	put64(tg_bar_csr_addr(TG_CSR_REG_NODE_ID), NODE);
	put64(tg_bar_csr_addr(TG_CSR_REG_MEM_SIZE), MEMSZ);
	put64(tg_bar_csr_addr(TG_CSR_REG_CONFIG), NCTX);
	setenv("TG_PCI_SYSFS", sysfs, 1);
	setenv("TG_PCI_LOCK_DIR", dir, 1);
	/* no DMA memory unless a test asks for it: no NIC would answer */
	setenv("TG_PCI_DMA", "none", 1);
	return 0;
}

/* Remove the directory. */
static inline void t_fakepci_cleanup(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0, "cleanup");
}

#endif /* TG_FAKEPCI_H */
