/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* tgctl: list the Telegraphos NICs on the PCI bus and show one's identity, node id and counters. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tg/tg_bar.h"
#include "tg_pci.h"

#define MAX_DEVS  64u

static const char *dump_file, *sysfs_root = TG_PCI_SYSFS, *resource_file;

static void usage(FILE *f)
{
	fprintf(f, "usage: tgctl [--dump FILE] [--sysfs DIR] list\n"
		   "       tgctl [--dump FILE] [--sysfs DIR] [--resource FILE] show DEV\n"
		   "  DEV        a PCI address, domain:bus:dev.fn or bus:dev.fn\n"
		   "  --dump     read the bus from an `lspci -x` dump (libpci's dump method)\n"
		   "  --sysfs    directory holding <address>/resource%u (default %s)\n"
		   "  --resource the file holding the BAR (instead of the sysfs one)\n",
		(unsigned)TG_PCI_BAR, TG_PCI_SYSFS);
}

/* Open the BAR of bdf (or --resource); prints the reason on failure. */
static struct tg_pci_bar *open_bar(const char *bdf)
{
	char path[PATH_MAX], msg[PATH_MAX + 160];
	struct tg_pci_bar *b;

	if (resource_file)
		snprintf(path, sizeof(path), "%s", resource_file);
	else
		snprintf(path, sizeof(path), "%s/%s/resource%u", sysfs_root, bdf,
			 (unsigned)TG_PCI_BAR);
	b = tg_pci_bar_open(path, msg, sizeof(msg));
	if (!b)
		fprintf(stderr, "tgctl: %s\n", msg);
	return b;
}

static void print_id(uint64_t id)
{
	printf("id 0x%016llx (magic 0x%08llx, version %llu.%llu)",
	       (unsigned long long)id, (unsigned long long)(id >> 32),
	       (unsigned long long)((id >> 16) & 0xffffu), (unsigned long long)(id & 0xffffu));
}

static int cmd_list(void)
{
	struct tg_pci_scan_opts o = { .dump = dump_file };
	struct tg_pci_info d[MAX_DEVS];
	char msg[PATH_MAX + 160];
	int n = tg_pci_scan(&o, d, MAX_DEVS, msg, sizeof(msg));

	if (n < 0) {
		fprintf(stderr, "tgctl: %s\n", msg);
		return 1;
	}
	if (!n) {
		fprintf(stderr, "tgctl: no Telegraphos NIC (PCI ID %04x:%04x) on %s\n",
			(unsigned)TG_PCI_VENDOR, (unsigned)TG_PCI_DEVICE,
			dump_file ? dump_file : "the PCI bus");
		return 1;
	}
	for (int i = 0; i < n && (unsigned)i < MAX_DEVS; i++) {
		struct tg_pci_bar *b;
		uint64_t id = 0;
		int rc;

		printf("%s  %04x:%04x  ", d[i].bdf, d[i].vendor, d[i].device);
		fflush(stdout);
		b = open_bar(d[i].bdf);
		if (!b) {
			printf("identity unknown\n");
			continue;
		}
		rc = tg_pci_bar_identify(b, &id, msg, sizeof(msg));
		tg_pci_bar_close(b);
		if (rc && rc != -EPROTO) {
			printf("identity unknown: %s\n", msg);
			continue;
		}
		print_id(id);
		printf(rc ? "  UNSUPPORTED: %s\n" : "\n", msg);
	}
	return 0;
}

static const struct {
	uint64_t reg;
	const char *name;
} counters[] = {
	{ TG_CSR_REG_TX_FRAMES, "tx_frames" },
	{ TG_CSR_REG_RX_FRAMES, "rx_frames" },
	{ TG_CSR_REG_RX_DROP_FCS, "rx_drop_fcs" },
	{ TG_CSR_REG_RX_DROP_TYPE, "rx_drop_type" },
	{ TG_CSR_REG_RX_DROP_MALFORMED, "rx_drop_malformed" },
	{ TG_CSR_REG_RX_REFUSED, "rx_refused" },
	{ TG_CSR_REG_HOST_ERRORS, "host_errors" },
	{ TG_CSR_REG_RX_STRAY, "rx_stray" },
	{ TG_CSR_REG_REQ_ACCEPTED, "req_accepted" },
	{ TG_CSR_REG_REQ_REFUSED, "req_refused" },
	{ TG_CSR_REG_REQ_RETRIES, "req_retries" },
	{ TG_CSR_REG_ATOMICS, "atomics" },
};

static int cmd_show(const char *dev)
{
	char bdf[TG_PCI_BDF_MAX], msg[PATH_MAX + 160];
	unsigned dom, bus, dv, fn;
	volatile uint64_t *csr;
	struct tg_pci_bar *b;
	uint64_t id = 0, mac;
	int rc;

	if (tg_pci_parse_bdf(dev, &dom, &bus, &dv, &fn)) {
		fprintf(stderr, "tgctl: '%s' is not a PCI address (domain:bus:dev.fn, hex)\n", dev);
		return 2;
	}
	snprintf(bdf, sizeof(bdf), "%04x:%02x:%02x.%x", dom, bus, dv, fn);
	if (!resource_file) {
		struct tg_pci_scan_opts o = { .dump = dump_file, .bdf = bdf };
		struct tg_pci_info info;

		rc = tg_pci_scan(&o, &info, 1, msg, sizeof(msg));
		if (rc < 0) {
			fprintf(stderr, "tgctl: %s\n", msg);
			return 1;
		}
	}
	b = open_bar(bdf);
	if (!b)
		return 1;
	rc = tg_pci_bar_identify(b, &id, msg, sizeof(msg));
	if (rc) {
		fprintf(stderr, "tgctl: %s: %s\n", bdf, msg);
		tg_pci_bar_close(b);
		return 1;
	}
	csr = tg_pci_bar_map(b, tg_bar_csr_addr(0), TG_PAGE_SIZE);
	if (!csr) {
		fprintf(stderr, "tgctl: %s: cannot map the CSR page: %s\n", bdf, strerror(errno));
		tg_pci_bar_close(b);
		return 1;
	}
	printf("device     %s\n", bdf);
	printf("identity   ");
	print_id(id);
	printf("\nnode       %llu\n", (unsigned long long)csr[TG_CSR_REG_NODE_ID / 8u]);
	mac = csr[TG_CSR_REG_MAC / 8u];
	printf("mac        %02x:%02x:%02x:%02x:%02x:%02x\n", (unsigned)(mac >> 40) & 0xffu,
	       (unsigned)(mac >> 32) & 0xffu, (unsigned)(mac >> 24) & 0xffu,
	       (unsigned)(mac >> 16) & 0xffu, (unsigned)(mac >> 8) & 0xffu, (unsigned)mac & 0xffu);
	printf("config     0x%llx\n", (unsigned long long)csr[TG_CSR_REG_CONFIG / 8u]);
	printf("mem_size   %llu\n", (unsigned long long)csr[TG_CSR_REG_MEM_SIZE / 8u]);
	printf("cycles     %llu\n", (unsigned long long)csr[TG_CSR_REG_CYCLES / 8u]);
	for (size_t i = 0; i < sizeof(counters) / sizeof(counters[0]); i++)
		printf("%-18s %llu\n", counters[i].name,
		       (unsigned long long)csr[counters[i].reg / 8u]);
	tg_pci_bar_unmap((void *)csr, TG_PAGE_SIZE);
	tg_pci_bar_close(b);
	return 0;
}

int main(int argc, char **argv)
{
	int i = 1;

	for (; i + 1 < argc && !strncmp(argv[i], "--", 2); i += 2) {
		if (!strcmp(argv[i], "--dump"))
			dump_file = argv[i + 1];
		else if (!strcmp(argv[i], "--sysfs"))
			sysfs_root = argv[i + 1];
		else if (!strcmp(argv[i], "--resource"))
			resource_file = argv[i + 1];
		else
			break;
	}
	if (i < argc && !strcmp(argv[i], "list") && i + 1 == argc)
		return cmd_list();
	if (i < argc && !strcmp(argv[i], "show") && i + 2 == argc)
		return cmd_show(argv[i + 1]);
	if (i < argc && (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))) {
		usage(stdout);
		return 0;
	}
	usage(stderr);
	return 2;
}
