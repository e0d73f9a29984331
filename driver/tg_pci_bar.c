/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* BAR mapping through a PCI resource file: page mappings, identity check, a context's ranges. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tg/tg_bar.h"
#include "tgdrv/tg_pci.h"

struct tg_pci_bar {
	int fd;
	uint64_t bytes;
};

static void say(char *msg, size_t msg_sz, const char *fmt, ...)
{
	va_list ap;

	if (!msg || !msg_sz)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, msg_sz, fmt, ap);
	va_end(ap);
}

int tg_pci_parse_bdf(const char *s, unsigned *domain, unsigned *bus, unsigned *dev,
		     unsigned *func)
{
	unsigned v[4] = { 0, 0, 0, 0 };
	int used = 0, full;

	if (!s)
		return -EINVAL;
	/* a full address has two colons, a short one one */
	full = strchr(s, ':') && strchr(strchr(s, ':') + 1, ':');
	if (full) {
		if (sscanf(s, "%4x:%2x:%2x.%1x%n", &v[0], &v[1], &v[2], &v[3], &used) != 4)
			return -EINVAL;
	} else if (sscanf(s, "%2x:%2x.%1x%n", &v[1], &v[2], &v[3], &used) != 3) {
		return -EINVAL;
	}
	/* nothing after it, hex digits only, device < 32, function < 8 */
	if (s[used] || v[2] > 31 || v[3] > 7 || strspn(s, "0123456789abcdefABCDEF:.") != strlen(s))
		return -EINVAL;
	if (domain)
		*domain = v[0];
	if (bus)
		*bus = v[1];
	if (dev)
		*dev = v[2];
	if (func)
		*func = v[3];
	return 0;
}

struct tg_pci_bar *tg_pci_bar_open(const char *path, char *msg, size_t msg_sz)
{
	struct tg_pci_bar *b;
	struct stat st;
	int fd, err;

	if (!path || !*path) {
		errno = EINVAL;
		return NULL;
	}
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		if (err == EACCES || err == EPERM)
			say(msg, msg_sz, "%s: %s (the resource file is root's: run as root, or "
			    "give the user read-write access to it, see docs/hardware.md)",
			    path, strerror(err));
		else
			say(msg, msg_sz, "%s: %s", path, strerror(err));
		errno = err;
		return NULL;
	}
	if (fstat(fd, &st) < 0) {
		err = errno;
		say(msg, msg_sz, "%s: %s", path, strerror(err));
		close(fd);
		errno = err;
		return NULL;
	}
	b = calloc(1, sizeof(*b));
	if (!b) {
		close(fd);
		errno = ENOMEM;
		return NULL;
	}
	b->fd = fd;
	b->bytes = (uint64_t)st.st_size;
	return b;
}

void tg_pci_bar_close(struct tg_pci_bar *b)
{
	if (!b)
		return;
	close(b->fd);
	free(b);
}

uint64_t tg_pci_bar_bytes(const struct tg_pci_bar *b)
{
	return b ? b->bytes : 0;
}

void *tg_pci_bar_map(struct tg_pci_bar *b, uint64_t off, uint64_t len)
{
	uint64_t pg = (uint64_t)sysconf(_SC_PAGESIZE);
	void *p;

	if (!b || !len || off % pg || len % pg) {
		errno = EINVAL;
		return NULL;
	}
	if (off >= b->bytes || len > b->bytes - off || len > SIZE_MAX) {
		errno = ERANGE;
		return NULL;
	}
	p = mmap(NULL, (size_t)len, PROT_READ | PROT_WRITE, MAP_SHARED, b->fd, (off_t)off);
	return p == MAP_FAILED ? NULL : p;
}

void tg_pci_bar_unmap(void *p, uint64_t len)
{
	if (p)
		munmap(p, (size_t)len);
}

int tg_pci_bar_identify(struct tg_pci_bar *b, uint64_t *id, char *msg, size_t msg_sz)
{
	char got[48], want[48];
	volatile uint64_t *csr;
	uint64_t v;
	int rc;

	csr = tg_pci_bar_map(b, tg_bar_csr_addr(0), TG_PAGE_SIZE);
	if (!csr) {
		rc = -errno;
		say(msg, msg_sz, "cannot map the CSR page: %s", strerror(-rc));
		return rc;
	}
	v = csr[TG_CSR_REG_ID / 8u];
	tg_pci_bar_unmap((void *)csr, TG_PAGE_SIZE);
	if (id)
		*id = v;
	rc = tg_bar_check_id(v);
	if (rc) {
		snprintf(got, sizeof(got), "magic 0x%08llx version %llu.%llu",
			 (unsigned long long)(v >> 32), (unsigned long long)((v >> 16) & 0xffffu),
			 (unsigned long long)(v & 0xffffu));
		snprintf(want, sizeof(want), "magic 0x%08llx version %llu.x",
			 (unsigned long long)TG_ID_MAGIC, (unsigned long long)TG_VERSION_MAJOR);
		say(msg, msg_sz, "CSR ID: %s, this software needs %s", got, want);
	}
	return rc;
}

unsigned tg_pci_ctx_ranges(unsigned ctx, unsigned nodes, uint64_t span,
			   struct tg_pci_range *r, unsigned max)
{
	unsigned n = 0;

	if (ctx >= (1u << TG_BAR_CTX_BITS) || !nodes || nodes > (1u << TG_BAR_NODE_BITS) ||
	    !span || span > (1ULL << TG_PADDR_BITS))
		return 0;
	span = (span + TG_PAGE_SIZE - 1) & ~(TG_PAGE_SIZE - 1);
	if (n < max)
		r[n] = (struct tg_pci_range){ tg_bar_ctx_addr(ctx, 0), TG_PAGE_SIZE, TG_WIN_CTRL, 0 };
	n++;
	for (unsigned w = TG_WIN_REMOTE; w <= TG_WIN_FINC; w++) {
		for (unsigned node = 0; node < nodes; node++, n++) {
			if (n < max)
				r[n] = (struct tg_pci_range){ tg_bar_data_addr(w, ctx, node, 0),
							      span, w, node };
		}
	}
	return n;
}
