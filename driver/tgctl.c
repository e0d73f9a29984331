/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* tgctl: list the Telegraphos NICs on the PCI bus, show one's identity, counters and queue table, or a simulated node's, with its switch port's counters. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tg/sim.h"
#include "tg/tg.h"
#include "tg/tg_bar.h"
#include "tg/tg_barrier.h"
#include "tg/tg_sim_proto.h"
#include "tgdrv/tg_dma.h"
#include "tgdrv/tg_pci.h"

#define MAX_DEVS  64u

static const char *dump_file, *sysfs_root = TG_PCI_SYSFS, *resource_file;
static const char *sysfs_opt;   /* --sysfs: libpci scans it instead of its default */

static void usage(FILE *f)
{
	fprintf(f, "usage: tgctl [--dump FILE] [--sysfs DIR] list\n"
		   "       tgctl [--dump FILE] [--sysfs DIR] [--resource FILE] show DEV\n"
		   "       tgctl [--dump FILE] [--sysfs DIR] [--resource FILE] queues DEV\n"
		   "       tgctl [--dump FILE] [--sysfs DIR] [--resource FILE] stats DEV\n"
		   "       tgctl mem DEV PADDR [BYTES]\n"
		   "       tgctl dma-check [BYTES [2M|1G]]\n"
		   "  DEV        a PCI address, domain:bus:dev.fn or bus:dev.fn, or a simulated\n"
		   "             node, sim:NODE or sim:NAME:NODE (tg-sim --name)\n"
		   "  show       identity, configuration, counters and queue table\n"
		   "  queues     the queue table, read through its view (QSEL is not touched)\n"
		   "  stats      the NIC's frame, drop and REQ counters; for a simulated node\n"
		   "             also its switch port's counters and injected faults\n"
		   "  mem        a simulated node's host memory from PADDR, BYTES of it\n"
		   "             (default 64; both multiples of 8), as 64-bit words, read\n"
		   "             from the simulator's memory model, not through the NIC\n"
		   "  dma-check  map BYTES (default 2 MiB) of hugepages as the pci: provider\n"
		   "             does and print their physical address, or why not\n"
		   "  --dump     read the bus from an `lspci -x` dump (libpci's dump method)\n"
		   "  --sysfs    the devices directory holding <address>/resource%u (default\n"
		   "             %s); without --dump libpci also scans it\n"
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
	struct tg_pci_scan_opts o = { .dump = dump_file, .sysfs = sysfs_opt };
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
	{ TG_CSR_REG_REQ_SPILLED, "req_spilled" },
	{ TG_CSR_REG_LINK_RETX, "link_retx" },
	{ TG_CSR_REG_LINK_DUP_DROP, "link_dup_drop" },
	{ TG_CSR_REG_LINK_OOO_DROP, "link_ooo_drop" },
	{ TG_CSR_REG_LINK_BUSY_DROP, "link_busy_drop" },
	{ TG_CSR_REG_LINK_NAKS_SENT, "link_naks_sent" },
	{ TG_CSR_REG_LINK_ACKS_SENT, "link_acks_sent" },
	{ TG_CSR_REG_LINK_PEER_GONE, "link_peer_gone" },
	{ TG_CSR_REG_PROT_REFUSED, "prot_refused" },
};

#define NCOUNTERS (sizeof(counters) / sizeof(counters[0]))

static void print_counters(const uint64_t *v)
{
	for (size_t i = 0; i < NCOUNTERS; i++)
		printf("%-24s %llu\n", counters[i].name, (unsigned long long)v[i]);
}

/* Open bdf's BAR, check its identity (*id) and map its CSR page; prints
 * the reason and returns NULL on failure.  Unmap, then close *bp. */
static volatile uint64_t *open_csr(const char *bdf, struct tg_pci_bar **bp, uint64_t *id)
{
	char msg[PATH_MAX + 160];
	volatile uint64_t *csr;
	struct tg_pci_bar *b = open_bar(bdf);

	if (!b)
		return NULL;
	if (tg_pci_bar_identify(b, id, msg, sizeof(msg))) {
		fprintf(stderr, "tgctl: %s: %s\n", bdf, msg);
		tg_pci_bar_close(b);
		return NULL;
	}
	csr = tg_pci_bar_map(b, tg_bar_csr_addr(0), TG_PAGE_SIZE);
	if (!csr) {
		fprintf(stderr, "tgctl: %s: cannot map the CSR page: %s\n", bdf, strerror(errno));
		tg_pci_bar_close(b);
		return NULL;
	}
	*bp = b;
	return csr;
}

static int parse_sim_dev(const char *dev, char *name, size_t name_sz, unsigned *node);

/* Reads one CSR of the device: 0 or -errno. */
typedef int (*csr_reader)(void *arg, uint64_t reg, uint64_t *v);

static int bar_csr(void *arg, uint64_t reg, uint64_t *v)
{
	*v = ((volatile uint64_t *)arg)[reg / 8u];
	return 0;
}

static int sim_csr(void *arg, uint64_t reg, uint64_t *v)
{
	return tg_csr_read(arg, reg, v);
}

/* The queue table through its read-only view: a monitor must not write
 * QSEL, which the node's driver owns.  Returns 0 or -errno. */
static int print_queues(csr_reader rd, void *arg)
{
	uint64_t cfg, w[16][4];
	unsigned n, en = 0;
	int rc = rd(arg, TG_CSR_REG_CONFIG, &cfg);

	if (rc)
		return rc;
	n = (unsigned)(cfg >> 16 & 0xffu);
	if (n > 16u)
		n = 16u;
	for (unsigned q = 0; q < n; q++) {
		for (unsigned f = 0; f < 4u; f++) {
			rc = rd(arg, TG_CSR_QVIEW_BASE + q * TG_CSR_QVIEW_STRIDE + 8u * f, &w[q][f]);
			if (rc)
				return rc;
		}
		en += (w[q][TG_QVIEW_QCFG / 8u] & TG_QCFG_ENABLE) != 0;
	}
	printf("queues     %u of %u entries enabled\n", en, n);
	if (!en)
		return 0;
	printf("  %-5s %-12s %9s %6s %10s %10s  %s\n", "entry", "base", "buffer", "entry", "tail",
	       "head", "flags");
	for (unsigned q = 0; q < n; q++) {
		uint64_t c = w[q][TG_QVIEW_QCFG / 8u], h = w[q][TG_QVIEW_QHEAD / 8u];
		char head[24];

		if (!(c & TG_QCFG_ENABLE))
			continue;
		if (h >> 63)
			snprintf(head, sizeof(head), "0x%06llx", (unsigned long long)(h & 0xffffffu));
		else
			snprintf(head, sizeof(head), "-");
		printf("  %-5u 0x%010llx %9llu %6u   0x%06llx %10s  %s\n", q,
		       (unsigned long long)w[q][TG_QVIEW_QBASE / 8u], 1ull << (c & 0x1fu),
		       1u << (c >> 8 & 7u), (unsigned long long)w[q][TG_QVIEW_QTAIL / 8u], head,
		       c & TG_QCFG_FULL ? "full" : "-");
	}
	return 0;
}

/* Open a simulated node as its driver; returns 0, or tgctl's exit status
 * after saying why. */
static int open_sim(const char *dev, char *name, size_t name_sz, unsigned *node,
		    struct tg_dev **d)
{
	if (parse_sim_dev(dev, name, name_sz, node)) {
		fprintf(stderr, "tgctl: '%s' is not a simulated node (sim:NODE or sim:NAME:NODE)\n",
			dev);
		return 2;
	}
	*d = tg_open(dev, TG_OPEN_DRIVER);
	if (!*d) {
		fprintf(stderr, "tgctl: %s: %s\n", dev, tg_strerror(-errno));
		return 1;
	}
	return 0;
}

/* mem on a simulated node: words of its memory, four to a line. */
static int cmd_mem(const char *dev, const char *paddr_s, const char *len_s)
{
	char name[TG_SIMP_NAME_MAX], *end;
	unsigned long long pa, len = 64;
	uint64_t *w;
	struct tg_dev *d;
	unsigned node;
	int rc;

	errno = 0;
	pa = strtoull(paddr_s, &end, 0);
	if (errno || *end || pa % 8u) {
		fprintf(stderr, "tgctl: mem: PADDR '%s' is not a number that is a multiple of 8\n",
			paddr_s);
		return 2;
	}
	if (len_s) {
		len = strtoull(len_s, &end, 0);
		if (errno || *end || !len || len % 8u || len > (1ull << 20)) {
			fprintf(stderr, "tgctl: mem: BYTES '%s' is not a number that is a multiple of 8 "
				"in 8..1048576\n", len_s);
			return 2;
		}
	}
	rc = open_sim(dev, name, sizeof(name), &node, &d);
	if (rc)
		return rc;
	w = malloc(len);
	rc = w ? tg_sim_mem_read(d, node, pa, w, len) : -ENOMEM;
	tg_close(d);
	if (rc) {
		fprintf(stderr, "tgctl: mem %s 0x%llx %llu: %s\n", dev, pa, len, tg_strerror(rc));
		free(w);
		return 1;
	}
	for (unsigned long long i = 0; i < len / 8u; i++) {
		if (i % 4u == 0)
			printf("%s0x%08llx ", i ? "\n" : "", pa + 8u * i);
		printf(" %016llx", (unsigned long long)w[i]);
	}
	printf("\n");
	free(w);
	return 0;
}

/* show and queues on a simulated node, through a driver handle. */
static int cmd_show_sim(const char *dev, int counters_too)
{
	static const struct {
		uint64_t reg;
		const char *name;
	} cfg[] = {
		{ TG_CSR_REG_CONFIG, "config" },
		{ TG_CSR_REG_MEM_SIZE, "mem_size" },
		{ TG_CSR_REG_CYCLES, "cycles" },
	};
	char name[TG_SIMP_NAME_MAX];
	uint64_t id = 0, v = 0;
	struct tg_dev *d;
	unsigned node;
	int rc;

	rc = open_sim(dev, name, sizeof(name), &node, &d);
	if (rc)
		return rc;
	rc = tg_csr_read(d, TG_CSR_REG_ID, &id);
	if (!rc && counters_too) {
		printf("device     %s\nidentity   ", dev);
		print_id(id);
		printf("\nnode       %u\n", node);
		for (size_t i = 0; !rc && i < sizeof(cfg) / sizeof(cfg[0]); i++)
			if (!(rc = tg_csr_read(d, cfg[i].reg, &v)))
				printf(i ? "%-10s %llu\n" : "%-10s 0x%llx\n", cfg[i].name,
				       (unsigned long long)v);
		for (size_t i = 0; !rc && i < NCOUNTERS; i++)
			if (!(rc = tg_csr_read(d, counters[i].reg, &v)))
				printf("%-18s %llu\n", counters[i].name, (unsigned long long)v);
	}
	if (!rc)
		rc = print_queues(sim_csr, d);
	tg_close(d);
	if (rc) {
		fprintf(stderr, "tgctl: %s: reading the CSRs: %s\n", dev, tg_strerror(rc));
		return 1;
	}
	return 0;
}

static int cmd_show(const char *dev, int counters_too)
{
	char bdf[TG_PCI_BDF_MAX], msg[PATH_MAX + 160];
	unsigned dom, bus, dv, fn;
	volatile uint64_t *csr;
	struct tg_pci_bar *b;
	uint64_t id = 0, mac;
	int rc;

	if (!strncmp(dev, "sim:", 4))
		return cmd_show_sim(dev, counters_too);
	if (tg_pci_parse_bdf(dev, &dom, &bus, &dv, &fn)) {
		fprintf(stderr, "tgctl: '%s' is neither a PCI address (domain:bus:dev.fn, hex) nor a "
			"simulated node (sim:NODE)\n", dev);
		return 2;
	}
	snprintf(bdf, sizeof(bdf), "%04x:%02x:%02x.%x", dom, bus, dv, fn);
	if (!resource_file) {
		struct tg_pci_scan_opts o = { .dump = dump_file, .sysfs = sysfs_opt, .bdf = bdf };
		struct tg_pci_info info;

		rc = tg_pci_scan(&o, &info, 1, msg, sizeof(msg));
		if (rc < 0) {
			fprintf(stderr, "tgctl: %s\n", msg);
			return 1;
		}
	}
	csr = open_csr(bdf, &b, &id);
	if (!csr)
		return 1;
	if (counters_too) {
		printf("device     %s\n", bdf);
		printf("identity   ");
		print_id(id);
		printf("\nnode       %llu\n", (unsigned long long)csr[TG_CSR_REG_NODE_ID / 8u]);
		mac = csr[TG_CSR_REG_MAC / 8u];
		printf("mac        %02x:%02x:%02x:%02x:%02x:%02x\n", (unsigned)(mac >> 40) & 0xffu,
		       (unsigned)(mac >> 32) & 0xffu, (unsigned)(mac >> 24) & 0xffu,
		       (unsigned)(mac >> 16) & 0xffu, (unsigned)(mac >> 8) & 0xffu,
		       (unsigned)mac & 0xffu);
		printf("config     0x%llx\n", (unsigned long long)csr[TG_CSR_REG_CONFIG / 8u]);
		printf("mem_size   %llu\n", (unsigned long long)csr[TG_CSR_REG_MEM_SIZE / 8u]);
		printf("cycles     %llu\n", (unsigned long long)csr[TG_CSR_REG_CYCLES / 8u]);
		for (size_t i = 0; i < NCOUNTERS; i++)
			printf("%-18s %llu\n", counters[i].name,
			       (unsigned long long)csr[counters[i].reg / 8u]);
	}
	print_queues(bar_csr, (void *)csr);
	tg_pci_bar_unmap((void *)csr, TG_PAGE_SIZE);
	tg_pci_bar_close(b);
	return 0;
}

/* The switch counters of a simulated node, in the order of struct
 * tg_sim_stats (only the network ones are printed), and its cycles
 * fast-forwarded. */
static const struct {
	size_t off;
	const char *name;
} sw_counters[] = {
	{ offsetof(struct tg_sim_stats, tx_frames), "switch_tx_frames" },
	{ offsetof(struct tg_sim_stats, tx_bytes), "switch_tx_bytes" },
	{ offsetof(struct tg_sim_stats, rx_frames), "switch_rx_frames" },
	{ offsetof(struct tg_sim_stats, drop_unknown), "switch_drop_unknown" },
	{ offsetof(struct tg_sim_stats, drop_malformed), "switch_drop_malformed" },
	{ offsetof(struct tg_sim_stats, drop_injected), "switch_drop_injected" },
	{ offsetof(struct tg_sim_stats, corrupt_injected), "switch_flip_injected" },
	{ offsetof(struct tg_sim_stats, dup_injected), "switch_dup_injected" },
	{ offsetof(struct tg_sim_stats, reorder_injected), "switch_reorder_injected" },
	{ offsetof(struct tg_sim_stats, drop_congestion), "switch_drop_congestion" },
	{ offsetof(struct tg_sim_stats, drop_link_down), "switch_drop_link_down" },
	{ offsetof(struct tg_sim_stats, rx_injected), "switch_rx_injected" },
	{ offsetof(struct tg_sim_stats, ff_cycles), "sim_ff_cycles" },
};

/* "sim:NODE" or "sim:NAME:NODE" of a node a simulator can hold. */
static int parse_sim_dev(const char *dev, char *name, size_t name_sz, unsigned *node)
{
	int rc = tg_simp_parse_dev(dev, name, name_sz, node);

	return rc ? rc : *node < TG_SIM_MAX_NODES ? 0 : -EINVAL;
}

/* Copy node's switch counters from the simulator's control region.
 * Returns 0, or -errno (-ENODATA: the simulator publishes none). */
static int sim_switch_stats(const char *name, unsigned node, struct tg_sim_stats *st,
			    uint64_t *cycle)
{
	char obj[128];
	struct tg_simp_ctl hdr;
	const struct tg_simp_stats *ps;
	uint64_t bytes, w[sizeof(*st) / sizeof(uint64_t)];
	void *map;
	int fd, rc = -EAGAIN;

	tg_simp_obj_name(obj, sizeof(obj), name, -1);
	fd = shm_open(obj, O_RDONLY, 0);
	if (fd < 0)
		return -errno;
	if (pread(fd, &hdr, sizeof(hdr), 0) != (ssize_t)sizeof(hdr)) {
		close(fd);
		return -EPROTO;
	}
	if (hdr.magic == TG_SIMP_DIR_MAGIC) {
		/* a cluster split over MPI ranks: the node's rank serves it as
		 * NAME@RANK (tg_sim_proto.h) */
		struct tg_simp_dir dir;
		char rname[TG_SIMP_NAME_MAX + 8];

		rc = pread(fd, &dir, sizeof(dir), 0) == (ssize_t)sizeof(dir) &&
		     dir.version == TG_SIMP_VERSION && node < dir.nodes &&
		     dir.nodes <= TG_SIMP_DIR_MAX ? 0 : -ENODEV;
		close(fd);
		if (rc)
			return rc;
		snprintf(rname, sizeof(rname), "%s@%u", name, dir.owner[node]);
		return sim_switch_stats(rname, node, st, cycle);
	}
	if (hdr.magic != TG_SIMP_MAGIC || hdr.version != TG_SIMP_VERSION || node >= hdr.nodes) {
		close(fd);
		return hdr.magic == TG_SIMP_MAGIC && node >= hdr.nodes ? -ENODEV : -EPROTO;
	}
	if (!hdr.stats_offset || !hdr.stats_words) {
		close(fd);
		return -ENODATA;
	}
	bytes = hdr.stats_offset + (uint64_t)hdr.nodes * sizeof(struct tg_simp_stats);
	map = mmap(NULL, bytes, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -errno;
	ps = (const struct tg_simp_stats *)((const uint8_t *)map + hdr.stats_offset) + node;
	memset(w, 0, sizeof(w));
	for (int tries = 0; tries < 1000; tries++) {
		/* seqlock reader: an even generation, the words, the same generation */
		uint64_t g = TG_ATOMIC_LOAD_ACQ(&ps->gen), g2;
		unsigned n = hdr.stats_words < sizeof(w) / sizeof(w[0]) ? hdr.stats_words
							      : (unsigned)(sizeof(w) / sizeof(w[0]));

		if (g & 1u)
			continue;
		for (unsigned i = 0; i < n; i++)
			w[i] = atomic_load_explicit(&ps->v[i], memory_order_relaxed);
		*cycle = atomic_load_explicit(&ps->cycle, memory_order_relaxed);
		TG_MB();  /* the words are read before the generation is read again */
		g2 = atomic_load_explicit(&ps->gen, memory_order_relaxed);
		if (g == g2) {
			rc = 0;
			break;
		}
	}
	munmap(map, bytes);
	memcpy(st, w, sizeof(*st));
	return rc;
}

static int cmd_stats_sim(const char *dev)
{
	char name[TG_SIMP_NAME_MAX];
	uint64_t v[NCOUNTERS], cycle = 0, id = 0;
	struct tg_sim_stats st;
	struct tg_dev *d;
	unsigned node;
	int rc;

	rc = open_sim(dev, name, sizeof(name), &node, &d);
	if (rc)
		return rc;
	rc = tg_csr_read(d, TG_CSR_REG_ID, &id);
	for (size_t i = 0; !rc && i < NCOUNTERS; i++)
		rc = tg_csr_read(d, counters[i].reg, &v[i]);
	tg_close(d);
	if (rc) {
		fprintf(stderr, "tgctl: %s: reading the counters: %s\n", dev, tg_strerror(rc));
		return 1;
	}
	printf("%-24s %s\n", "device", dev);
	printf("%-24s ", "identity");
	print_id(id);
	printf("\n%-24s %u\n", "node", node);
	print_counters(v);
	rc = sim_switch_stats(name, node, &st, &cycle);
	if (rc) {
		printf("%-24s unavailable (%s)\n", "switch", strerror(-rc));
		return 0;
	}
	printf("%-24s %" PRIu64 "\n", "switch_cycle", cycle);
	for (size_t i = 0; i < sizeof(sw_counters) / sizeof(sw_counters[0]); i++) {
		uint64_t x;

		memcpy(&x, (const uint8_t *)&st + sw_counters[i].off, sizeof(x));
		printf("%-24s %" PRIu64 "\n", sw_counters[i].name, x);
	}
	return 0;
}

/* NIC counters of a PCI device. */
static int cmd_stats_pci(const char *dev)
{
	char bdf[TG_PCI_BDF_MAX];
	unsigned dom, bus, dv, fn;
	volatile uint64_t *csr;
	struct tg_pci_bar *b;
	uint64_t id = 0, v[NCOUNTERS];

	if (tg_pci_parse_bdf(dev, &dom, &bus, &dv, &fn)) {
		fprintf(stderr, "tgctl: '%s' is neither a PCI address nor a simulated node\n", dev);
		return 2;
	}
	snprintf(bdf, sizeof(bdf), "%04x:%02x:%02x.%x", dom, bus, dv, fn);
	csr = open_csr(bdf, &b, &id);
	if (!csr)
		return 1;
	for (size_t i = 0; i < NCOUNTERS; i++)
		v[i] = csr[counters[i].reg / 8u];
	printf("%-24s %s\n", "device", bdf);
	printf("%-24s ", "identity");
	print_id(id);
	printf("\n%-24s %llu\n", "node", (unsigned long long)csr[TG_CSR_REG_NODE_ID / 8u]);
	print_counters(v);
	tg_pci_bar_unmap((void *)csr, TG_PAGE_SIZE);
	tg_pci_bar_close(b);
	return 0;
}

/* The DMA memory check: the same allocation the pci: provider makes. */
static int cmd_dma_check(const char *bytes, const char *page)
{
	uint64_t len = bytes ? strtoull(bytes, NULL, 0) : TG_HUGE_2M, pg;
	struct tg_dma_mem m;
	char msg[320];
	int rc;

	pg = page ? (!strcmp(page, "1G") ? TG_HUGE_1G : TG_HUGE_2M)
		  : len > TG_HUGE_2M ? TG_HUGE_1G : TG_HUGE_2M;
	if (page && strcmp(page, "1G") && strcmp(page, "2M")) {
		fprintf(stderr, "tgctl: page size %s: want 2M or 1G\n", page);
		return 2;
	}
	rc = tg_dma_hugepage_alloc(len, pg, NULL, &m, msg, sizeof(msg));
	if (rc) {
		fprintf(stderr, "tgctl: dma-check: %s\n", msg);
		return 1;
	}
	printf("dma memory: %llu bytes of %s pages, physical 0x%llx-0x%llx, contiguous\n",
	       (unsigned long long)m.len, pg == TG_HUGE_1G ? "1 GiB" : "2 MiB",
	       (unsigned long long)m.phys, (unsigned long long)(m.phys + m.len - 1));
	tg_dma_free(&m);
	return 0;
}

int main(int argc, char **argv)
{
	int i = 1;

	for (; i + 1 < argc && !strncmp(argv[i], "--", 2); i += 2) {
		if (!strcmp(argv[i], "--dump"))
			dump_file = argv[i + 1];
		else if (!strcmp(argv[i], "--sysfs"))
			sysfs_root = sysfs_opt = argv[i + 1];
		else if (!strcmp(argv[i], "--resource"))
			resource_file = argv[i + 1];
		else
			break;
	}
	if (i < argc && !strcmp(argv[i], "list") && i + 1 == argc)
		return cmd_list();
	if (i < argc && !strcmp(argv[i], "show") && i + 2 == argc)
		return cmd_show(argv[i + 1], 1);
	if (i < argc && !strcmp(argv[i], "queues") && i + 2 == argc)
		return cmd_show(argv[i + 1], 0);
	if (i < argc && !strcmp(argv[i], "stats") && i + 2 == argc)
		return strncmp(argv[i + 1], "sim:", 4) ? cmd_stats_pci(argv[i + 1])
						      : cmd_stats_sim(argv[i + 1]);
	if (i < argc && !strcmp(argv[i], "mem") && (i + 3 == argc || i + 4 == argc))
		return cmd_mem(argv[i + 1], argv[i + 2], i + 3 < argc ? argv[i + 3] : NULL);
	if (i < argc && !strcmp(argv[i], "dma-check") && i + 3 >= argc)
		return cmd_dma_check(i + 1 < argc ? argv[i + 1] : NULL,
				     i + 2 < argc ? argv[i + 2] : NULL);
	if (i < argc && (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))) {
		usage(stdout);
		return 0;
	}
	usage(stderr);
	return 2;
}
