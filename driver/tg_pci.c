/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Finding the NIC on the PCI bus (or in an lspci -x dump) with libpci, by IDs or by address. */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pci/pci.h>

#include "tg/tg_hw.h"
#include "tgdrv/tg_pci.h"

/* libpci reports fatal errors through a callback that must not return:
 * it jumps back into tg_pci_scan with the text kept here. */
static _Thread_local jmp_buf *lib_jmp;
static _Thread_local char lib_msg[160];

static void lib_error(char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

static void lib_error(char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(lib_msg, sizeof(lib_msg), fmt, ap);
	va_end(ap);
	longjmp(*lib_jmp, 1);
}

static void lib_quiet(char *fmt, ...)
{
	(void)fmt;
}

static void fill(struct tg_pci_info *in, struct pci_dev *d)
{
	memset(in, 0, sizeof(*in));
	in->domain = (unsigned)d->domain;
	in->bus = d->bus;
	in->dev = d->dev;
	in->func = d->func;
	in->vendor = d->vendor_id;
	in->device = d->device_id;
	snprintf(in->bdf, sizeof(in->bdf), "%04x:%02x:%02x.%x", in->domain & 0xffffu, in->bus,
		 in->dev, in->func);
	in->bar_base = (uint64_t)(d->base_addr[TG_PCI_BAR] & PCI_ADDR_MEM_MASK);
	in->bar_size = (uint64_t)d->size[TG_PCI_BAR];
}

int tg_pci_scan(const struct tg_pci_scan_opts *o, struct tg_pci_info *out, unsigned max,
		char *msg, size_t msg_sz)
{
	unsigned dom = 0, bus = 0, dv = 0, fn = 0, vendor, device;
	char sysfs_path[4096];
	volatile int found = 0, rc = 0, at_bdf = 0;
	struct pci_access *volatile acc = NULL;
	jmp_buf jb;
	char where[TG_PCI_BDF_MAX + 8];

	if (msg && msg_sz)
		msg[0] = 0;
	if (!o || (max && !out))
		return -EINVAL;
	vendor = o->vendor ? o->vendor : (unsigned)TG_PCI_VENDOR;
	device = o->device ? o->device : (unsigned)TG_PCI_DEVICE;
	if (o->bdf && tg_pci_parse_bdf(o->bdf, &dom, &bus, &dv, &fn)) {
		if (msg)
			snprintf(msg, msg_sz, "'%s' is not a PCI address (domain:bus:dev.fn, hex)",
				 o->bdf);
		return -EINVAL;
	}
	/* libpci's sysfs.path is the bus directory holding devices/ */
	if (o->sysfs) {
		size_t n = strlen(o->sysfs);

		while (n > 1 && o->sysfs[n - 1] == '/')
			n--;
		if (n < 8 || n - 8 >= sizeof(sysfs_path) ||
		    strncmp(o->sysfs + n - 8, "/devices", 8)) {
			if (msg)
				snprintf(msg, msg_sz, "%s: not a sysfs devices directory "
					 "(as %s)", o->sysfs, TG_PCI_SYSFS);
			return -EINVAL;
		}
		memcpy(sysfs_path, o->sysfs, n - 8);
		sysfs_path[n - 8] = 0;
		if (!sysfs_path[0])
			strcpy(sysfs_path, "/");
		if (access(o->sysfs, R_OK | X_OK) < 0) {
			rc = -errno;
			if (msg)
				snprintf(msg, msg_sz, "%s: %s", o->sysfs, strerror(-rc));
			return rc;
		}
	}
	/* libpci treats an unreadable dump as fatal: say why before it does */
	if (o->dump && access(o->dump, R_OK) < 0) {
		rc = -errno;
		if (msg)
			snprintf(msg, msg_sz, "%s: %s", o->dump, strerror(-rc));
		return rc;
	}
	acc = pci_alloc();
	if (!acc) {
		if (msg)
			snprintf(msg, msg_sz, "libpci: out of memory");
		return -ENOMEM;
	}
	acc->error = lib_error;
	acc->warning = lib_quiet;
	acc->debug = lib_quiet;
	lib_jmp = &jb;
	if (setjmp(jb)) {
		if (msg)
			snprintf(msg, msg_sz, "libpci: %s", lib_msg);
		rc = -EIO;
		goto out;
	}
	if (o->dump) {
		acc->method = PCI_ACCESS_DUMP;
		pci_set_param(acc, "dump.name", (char *)o->dump);
	} else if (o->sysfs) {
		acc->method = PCI_ACCESS_SYS_BUS_PCI;
		pci_set_param(acc, "sysfs.path", sysfs_path);
	}
	pci_init(acc);
	pci_scan_bus(acc);
	for (struct pci_dev *d = acc->devices; d; d = d->next) {
		pci_fill_info(d, PCI_FILL_IDENT | PCI_FILL_BASES | PCI_FILL_SIZES);
		if (o->bdf) {
			if ((unsigned)d->domain != dom || d->bus != bus || d->dev != dv ||
			    d->func != fn)
				continue;
			at_bdf = 1;
			if (d->vendor_id != vendor || d->device_id != device) {
				if (msg)
					snprintf(msg, msg_sz, "%04x:%02x:%02x.%x is %04x:%04x, not a "
						 "Telegraphos NIC (%04x:%04x)", dom, bus, dv, fn,
						 d->vendor_id, d->device_id, vendor, device);
				rc = -ENODEV;
				goto out;
			}
		} else if (d->vendor_id != vendor || d->device_id != device) {
			continue;
		}
		if ((unsigned)found < max)
			fill(&out[found], d);
		found++;
	}
	if (o->bdf && !at_bdf) {
		snprintf(where, sizeof(where), "%04x:%02x:%02x.%x", dom & 0xffffu, bus, dv, fn);
		if (msg)
			snprintf(msg, msg_sz, "no PCI function at %s%s%s", where,
				 o->dump || o->sysfs ? " in " : "",
				 o->dump ? o->dump : o->sysfs ? o->sysfs : "");
		rc = -ENODEV;
	}
out:
	lib_jmp = NULL;
	pci_cleanup(acc);
	return rc ? rc : found;
}
