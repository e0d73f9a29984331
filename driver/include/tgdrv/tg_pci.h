/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* PCI side of the driver: finding the NIC with libpci, mapping its BAR through a resource file. */
#ifndef TG_PCI_H
#define TG_PCI_H

#include <stddef.h>
#include <stdint.h>

#define TG_PCI_BDF_MAX    16u    /* "dddd:bb:dd.f" and its NUL */
#define TG_PCI_SYSFS      "/sys/bus/pci/devices"

/* ---- Discovery (driver/tg_pci.c, needs libpci) ---------------------------- */

struct tg_pci_info {
	char bdf[TG_PCI_BDF_MAX];    /* "dddd:bb:dd.f" */
	unsigned domain, bus, dev, func;
	uint16_t vendor, device;
	uint64_t bar_base;           /* BAR TG_PCI_BAR as config space holds it (flags masked) */
	uint64_t bar_size;           /* as the OS reports it; 0 when unknown (dump files) */
};

struct tg_pci_scan_opts {
	const char *dump;            /* `lspci -x` dump read by libpci's dump method; NULL: the bus */
	const char *sysfs;           /* the bus through this devices directory (libpci's sysfs
				      * method, its sysfs.path the parent); NULL: libpci's
				      * default method and paths */
	const char *bdf;             /* only this function; NULL: every function with the IDs */
	uint16_t vendor, device;     /* IDs to look for; 0 means TG_PCI_VENDOR / TG_PCI_DEVICE */
};

/* Scan the bus (or a dump) for functions with the IDs of o and store up to
 * max of them in out.  Returns how many were found (0: none, not an error),
 * or -errno with a reason in msg: -EINVAL bad options or BDF, or a sysfs
 * directory not named .../devices, -ENOENT or -EACCES the dump file, -ENODEV an explicit BDF with no function or with
 * other IDs, -EIO libpci failed (no access method, malformed dump). */
int tg_pci_scan(const struct tg_pci_scan_opts *o, struct tg_pci_info *out, unsigned max,
		char *msg, size_t msg_sz);

/* ---- BAR mapping (driver/tg_pci_bar.c, no libpci) --------------------------
 * The BAR is 2^TG_BAR_ADDR_BITS bytes (128 TiB), larger than what a process
 * can map at once, so nothing maps all of it: the driver maps the CSR page
 * (4 KiB at 0), a process its own context page and its slices of the data
 * windows (tg_pci_ctx_ranges), each as its own page-aligned mapping. */

struct tg_pci_bar;

/* Parse "dddd:bb:dd.f" or "bb:dd.f" (hex; domain 0 when absent) into the
 * pointers that are not NULL.  Returns 0 or -EINVAL. */
int tg_pci_parse_bdf(const char *s, unsigned *domain, unsigned *bus, unsigned *dev,
		     unsigned *func);

/* Open a BAR's resource file (TG_PCI_SYSFS/<bdf>/resourceN, or a file
 * standing in for it), read-write.  Returns NULL with errno: ENOENT,
 * EACCES/EPERM (msg says what to change), ENOMEM. */
struct tg_pci_bar *tg_pci_bar_open(const char *path, char *msg, size_t msg_sz);

/* Close the file; mappings made from it stay valid until unmapped.
 * Accepts NULL. */
void tg_pci_bar_close(struct tg_pci_bar *b);

/* Bytes the file reports (st_size). */
uint64_t tg_pci_bar_bytes(const struct tg_pci_bar *b);

/* Map [off, off + len) shared, read-write.  off and len must be multiples
 * of the page size and inside the file.  Returns the mapping or NULL with
 * errno (EINVAL, ERANGE outside the file, or mmap's). */
void *tg_pci_bar_map(struct tg_pci_bar *b, uint64_t off, uint64_t len);

/* Undo tg_pci_bar_map.  Accepts NULL. */
void tg_pci_bar_unmap(void *p, uint64_t len);

/* Read CSR ID through a temporary mapping of the CSR page and check it.
 * Returns 0, -EPROTO (foreign magic or major version; msg shows both), or
 * the mapping's -errno.  *id gets the value read when not NULL. */
int tg_pci_bar_identify(struct tg_pci_bar *b, uint64_t *id, char *msg, size_t msg_sz);

/* One part of the BAR that a process is given. */
struct tg_pci_range {
	uint64_t off, len;           /* BAR offset and bytes, page-aligned */
	unsigned win, node;          /* window (TG_WIN_*) and node; node 0 for the context page */
};

/* The ranges a process holding context ctx is given: its context page
 * (TG_WIN_CTRL), then for every data window w = 1..7 and node n < nodes
 * the bytes [tg_bar_data_addr(w, ctx, n, 0), + span).  span is rounded up
 * to the page size and at most 2^TG_PADDR_BITS.  Stores up to max ranges
 * and returns how many there are (1 + 7 * nodes), or 0 for a bad ctx,
 * nodes or span. */
unsigned tg_pci_ctx_ranges(unsigned ctx, unsigned nodes, uint64_t span,
			   struct tg_pci_range *r, unsigned max);

#endif /* TG_PCI_H */
