/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: PCI discovery from an lspci -x dump, BAR mapping through a file, the pci: provider, tgctl. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "tg_fakepci.h"
#include "tgdrv/tg_pci.h"

/* One function of an lspci -x dump: 64 bytes of config space. */

/* "version M.0" of a NIC one major version ahead of this software */
static const char *next_version(void)
{
	static char v[32];

	snprintf(v, sizeof(v), "version %u.0", (unsigned)TG_VERSION_MAJOR + 1u);
	return v;
}
static void dump_fn(FILE *f, const char *slot, unsigned ven, unsigned devid)
{
	uint8_t cs[64];

	memset(cs, 0, sizeof(cs));
	cs[0] = ven & 0xff;
	cs[1] = ven >> 8;
	cs[2] = devid & 0xff;
	cs[3] = devid >> 8;
	cs[0x0b] = 0x02;                 /* network controller */
	cs[0x10] = 0x0c;                 /* 64-bit prefetchable memory BAR */
	cs[0x15] = 0x80;                 /* base 0x8000_0000_0000, aligned to the 47-bit BAR */
	fprintf(f, "%s Network controller: test function\n", slot);
	for (unsigned r = 0; r < sizeof(cs); r += 16) {
		fprintf(f, "%02x:", r);
		for (unsigned i = 0; i < 16; i++)
			fprintf(f, " %02x", cs[r + i]);
		fputc('\n', f);
	}
	fputc('\n', f);
}

static void test_dump(void)
{
	struct tg_pci_scan_opts o = { .dump = dump };
	struct tg_pci_info d[4];
	char msg[512], miss[160];
	FILE *f = fopen(dump, "w");
	int n;

	REQUIRE(f, "dump file");
	dump_fn(f, "00:00.0", 0x8086, 0x1237);
	dump_fn(f, "0000:03:00.0", (unsigned)TG_PCI_VENDOR, (unsigned)TG_PCI_DEVICE);
	dump_fn(f, "0000:04:00.0", (unsigned)TG_PCI_VENDOR, 0x9038);   /* same vendor, other device */
	fclose(f);

	n = tg_pci_scan(&o, d, 4, msg, sizeof(msg));
	CHECK(n == 1, "scan found %d: %s", n, msg);
	if (n == 1) {
		CHECK(!strcmp(d[0].bdf, BDF), "bdf %s", d[0].bdf);
		CHECK(d[0].vendor == TG_PCI_VENDOR && d[0].device == TG_PCI_DEVICE, "IDs %04x:%04x",
		      d[0].vendor, d[0].device);
		CHECK(d[0].bus == 3 && d[0].dev == 0 && d[0].func == 0, "address");
		CHECK(d[0].bar_base == 0x800000000000ULL, "BAR base 0x%llx",
		      (unsigned long long)d[0].bar_base);
	}
	/* other IDs: nothing of ours is that */
	o.vendor = 0x1af4;
	o.device = 0x1041;
	CHECK_RC(tg_pci_scan(&o, d, 4, msg, sizeof(msg)), 0);
	o.vendor = o.device = 0;
	/* explicit address: found, short form, wrong IDs, nothing there, bad text */
	o.bdf = "03:00.0";
	CHECK_RC(tg_pci_scan(&o, d, 4, msg, sizeof(msg)), 1);
	o.bdf = "0000:00:00.0";
	CHECK_RC(tg_pci_scan(&o, d, 4, msg, sizeof(msg)), -ENODEV);
	CHECK(strstr(msg, "8086:1237") && strstr(msg, "not a Telegraphos NIC"), "msg: %s", msg);
	o.bdf = "0000:07:1f.7";
	CHECK_RC(tg_pci_scan(&o, d, 4, msg, sizeof(msg)), -ENODEV);
	CHECK(strstr(msg, "no PCI function at 0000:07:1f.7"), "msg: %s", msg);
	o.bdf = "0000:03:20.0";
	CHECK_RC(tg_pci_scan(&o, d, 4, msg, sizeof(msg)), -EINVAL);
	CHECK(strstr(msg, "not a PCI address"), "msg: %s", msg);
	o.bdf = NULL;
	/* a dump that is not there */
	snprintf(miss, sizeof(miss), "%s/no-such-dump", dir);
	o.dump = miss;
	CHECK_RC(tg_pci_scan(&o, d, 4, msg, sizeof(msg)), -ENOENT);
	CHECK(strstr(msg, "no-such-dump"), "msg: %s", msg);
	/* the real bus: no NIC here, but no failure either */
	o.dump = NULL;
	n = tg_pci_scan(&o, d, 4, msg, sizeof(msg));
	CHECK(n >= 0 || n == -EIO, "bus scan: %d %s", n, msg);
	if (n < 0)
		fprintf(stderr, "note: libpci cannot scan this machine's bus: %s\n", msg);

	CHECK_RC(tg_pci_parse_bdf("0000:03:00.0", NULL, NULL, NULL, NULL), 0);
	CHECK_RC(tg_pci_parse_bdf("ffff:ff:1f.7", NULL, NULL, NULL, NULL), 0);
	CHECK_RC(tg_pci_parse_bdf("03:00.8", NULL, NULL, NULL, NULL), -EINVAL);
	CHECK_RC(tg_pci_parse_bdf("0000:03:00.0x", NULL, NULL, NULL, NULL), -EINVAL);
	CHECK_RC(tg_pci_parse_bdf("0000:03:00", NULL, NULL, NULL, NULL), -EINVAL);
	CHECK_RC(tg_pci_parse_bdf("", NULL, NULL, NULL, NULL), -EINVAL);
}

/* Every context's ranges: the helpers' addresses, disjoint, never the CSR page. */
static void test_ranges(void)
{
	enum { NODES = 3, NR = 1 + 7 * NODES };
	struct tg_pci_range r[1u << TG_BAR_CTX_BITS][NR];
	uint64_t span = 3 * TG_PAGE_SIZE - 100;   /* rounded up to 3 pages */

	for (unsigned c = 0; c < (1u << TG_BAR_CTX_BITS); c++) {
		unsigned n = tg_pci_ctx_ranges(c, NODES, span, r[c], NR);

		REQUIRE(n == NR, "ctx %u: %u ranges", c, n);
		CHECK(r[c][0].off == tg_bar_ctx_addr(c, 0) && r[c][0].len == TG_PAGE_SIZE &&
		      r[c][0].win == TG_WIN_CTRL, "ctx %u context page", c);
		for (unsigned i = 1; i < NR; i++) {
			unsigned w = 1 + (i - 1) / NODES, node = (i - 1) % NODES;

			CHECK(r[c][i].off == tg_bar_data_addr(w, c, node, 0) &&
			      r[c][i].len == 3 * TG_PAGE_SIZE && r[c][i].win == w &&
			      r[c][i].node == node, "ctx %u range %u", c, i);
			CHECK(tg_bar_win(r[c][i].off) == w && tg_bar_ctx(r[c][i].off) == c &&
			      tg_bar_node(r[c][i].off) == node &&
			      tg_bar_ctx(r[c][i].off + r[c][i].len - 1) == c,
			      "ctx %u range %u decomposes", c, i);
		}
		for (unsigned i = 0; i < NR; i++)
			CHECK(r[c][i].off >= TG_PAGE_SIZE, "ctx %u range %u overlaps the CSR page", c, i);
	}
	for (unsigned a = 0; a < (1u << TG_BAR_CTX_BITS); a++)
		for (unsigned b = a + 1; b < (1u << TG_BAR_CTX_BITS); b++)
			for (unsigned i = 0; i < NR; i++)
				for (unsigned j = 0; j < NR; j++)
					CHECK(r[a][i].off + r[a][i].len <= r[b][j].off ||
					      r[b][j].off + r[b][j].len <= r[a][i].off,
					      "ctx %u/%u ranges %u/%u overlap", a, b, i, j);
	/* full span: every node's slice, 2^32 bytes; bad arguments */
	CHECK(tg_pci_ctx_ranges(15, 256, 1ULL << TG_PADDR_BITS, r[0], 1) == 1 + 7 * 256, "count");
	CHECK(r[0][0].off == tg_bar_ctx_addr(15, 0), "count only");
	CHECK(tg_pci_ctx_ranges(16, 1, 4096, r[0], NR) == 0, "ctx 16");
	CHECK(tg_pci_ctx_ranges(0, 257, 4096, r[0], NR) == 0, "257 nodes");
	CHECK(tg_pci_ctx_ranges(0, 1, (1ULL << TG_PADDR_BITS) + 1, r[0], NR) == 0, "span");
}

/* The BAR file: identity, mappings of one context's ranges land in the file. */
static void test_bar(void)
{
	struct tg_pci_range r[1 + 7 * 2];
	struct tg_pci_bar *b;
	char msg[512];
	uint64_t id = 0;

	b = tg_pci_bar_open(res, msg, sizeof(msg));
	REQUIRE(b, "%s", msg);
	CHECK(tg_pci_bar_bytes(b) == 1ULL << TG_BAR_ADDR_BITS, "size");
	CHECK_RC(tg_pci_bar_identify(b, &id, msg, sizeof(msg)), 0);
	CHECK(id == good_id(), "id 0x%llx", (unsigned long long)id);
	put64(tg_bar_csr_addr(TG_CSR_REG_ID), TG_ID_MAGIC << 32 | (TG_VERSION_MAJOR + 1) << 16);
	CHECK_RC(tg_pci_bar_identify(b, &id, msg, sizeof(msg)), -EPROTO);
	CHECK(strstr(msg, next_version()) && strstr(msg, "needs"), "msg: %s", msg);
	put64(tg_bar_csr_addr(TG_CSR_REG_ID), (TG_ID_MAGIC ^ 0xff) << 32 | TG_VERSION_MAJOR << 16);
	CHECK_RC(tg_pci_bar_identify(b, NULL, msg, sizeof(msg)), -EPROTO);
	put64(tg_bar_csr_addr(TG_CSR_REG_ID), good_id());

	/* map context 9's ranges for two nodes and store a mark in each */
	REQUIRE(tg_pci_ctx_ranges(9, 2, TG_PAGE_SIZE, r, 15) == 15, "ranges");
	for (unsigned i = 0; i < 15; i++) {
		volatile uint64_t *p = tg_pci_bar_map(b, r[i].off, r[i].len);

		CHECK(p != NULL, "map range %u: %s", i, strerror(errno));
		if (!p)
			continue;
		p[1] = 0xa5a5000000000000ULL | i;
		tg_pci_bar_unmap((void *)p, r[i].len);
		CHECK(get64(r[i].off + 8) == (0xa5a5000000000000ULL | i), "mark %u", i);
		put64(r[i].off + 8, 0);
	}
	CHECK(tg_pci_bar_map(b, 1ULL << TG_BAR_ADDR_BITS, TG_PAGE_SIZE) == NULL && errno == ERANGE,
	      "beyond the BAR");
	CHECK(tg_pci_bar_map(b, 100, TG_PAGE_SIZE) == NULL && errno == EINVAL, "unaligned");
	tg_pci_bar_close(b);
	tg_pci_bar_close(NULL);
	CHECK(tg_pci_bar_open("/nonexistent/resource0", msg, sizeof(msg)) == NULL &&
	      errno == ENOENT, "missing resource file");
}

/* The pci: provider against the file. */
static void test_provider(void)
{
	struct tg_dev *d[NCTX + 1], *drv;
	uint64_t v = 0x1122334455667788ULL, got = 0, off;
	uint8_t three[3] = { 0xaa, 0xbb, 0xcc };
	char path[192];

	d[0] = tg_open("pci:" BDF, 0);
	REQUIRE(d[0], "tg_open: %s", tg_strerror(-errno));
	CHECK(tg_node_id(d[0]) == (int)NODE, "node %d", tg_node_id(d[0]));
	CHECK(tg_context(d[0]) == 0, "ctx %d", tg_context(d[0]));
	CHECK(tg_nic_id(d[0]) == good_id(), "id");
	CHECK(tg_mem_size(d[0]) == MEMSZ, "mem size");
	CHECK(tg_num_nodes(d[0]) == 1 << TG_BAR_NODE_BITS, "nodes");
	CHECK(tg_cycles(d[0]) == 0, "cycles without the CSR page");

	/* a posted write is a store at the context's slice of the remote window */
	CHECK_RC(tg_write(d[0], 2, 0x100, &v, 8), 0);
	CHECK(get64(tg_bar_data_addr(TG_WIN_REMOTE, 0, 2, 0x100)) == v, "8-byte write");
	off = tg_bar_data_addr(TG_WIN_REMOTE, 0, 7, 0x200);
	put64(off, 0);
	CHECK_RC(tg_write(d[0], 7, 0x203, three, 3), 0);
	CHECK(get64(off) == 0xccbbaa000000ULL,
	      "3-byte write: 0x%llx", (unsigned long long)get64(off));
	CHECK_RC(tg_write(d[0], 2, MEMSZ - 4, &v, 8), -EFAULT);
	/* a one-word read is a load at the same place */
	put64(tg_bar_data_addr(TG_WIN_REMOTE, 0, 3, 0x40), 0xfeedULL);
	CHECK_RC(tg_read(d[0], 3, 0x40, &got, 8), 0);
	CHECK(got == 0xfeed, "read 0x%llx", (unsigned long long)got);
	/* what needs DMA memory is refused, not faked (TG_PCI_DMA=none,
	 * tg_fakepci.h; test_dma covers the memory) */
	CHECK_RC(tg_read(d[0], 3, 0x40, path, 16), -EOPNOTSUPP);
	CHECK(tg_mr_alloc(d[0], 4096, TG_ACCESS_ALL) == NULL && errno == EOPNOTSUPP, "mr_alloc");
	CHECK(tg_queue_open(d[0], 12, 8) == NULL && errno == EOPNOTSUPP, "queue_open");
	CHECK(tg_queue_attach(d[0], 4096) == NULL && errno == EOPNOTSUPP, "queue_attach");
	CHECK_RC(tg_csr_read(d[0], TG_CSR_REG_NODE_ID, &got), -EPERM);

	/* contexts: NCTX of them, then EBUSY, and a closed one is free again */
	for (unsigned i = 1; i < NCTX; i++) {
		d[i] = tg_open("pci:03:00.0", 0);
		CHECK(d[i] && tg_context(d[i]) == (int)i, "context %u: %s", i,
		      d[i] ? "other" : tg_strerror(-errno));
	}
	t_bad_open("pci:" BDF, EBUSY, "all 4 contexts are taken");
	if (d[2]) {
		CHECK_RC(tg_write(d[2], 1, 0x80, &v, 8), 0);
		CHECK(get64(tg_bar_data_addr(TG_WIN_REMOTE, 2, 1, 0x80)) == v, "ctx 2's slice");
		CHECK(get64(tg_bar_data_addr(TG_WIN_REMOTE, 0, 1, 0x80)) == 0, "not ctx 0's");
	}
	tg_close(d[1]);
	d[1] = tg_open("pci:" BDF, 0);
	CHECK(d[1] && tg_context(d[1]) == 1 && !tg_open_error()[0], "context 1 again (%s)",
	      tg_open_error());
	for (unsigned i = 0; i < NCTX; i++)
		tg_close(d[i]);

	/* the driver flag maps the CSR page */
	drv = tg_open("pci:" BDF, TG_OPEN_DRIVER);
	REQUIRE(drv, "driver open: %s", tg_strerror(-errno));
	CHECK_RC(tg_csr_read(drv, TG_CSR_REG_NODE_ID, &got), 0);
	CHECK(got == NODE, "NODE_ID %llu", (unsigned long long)got);
	CHECK_RC(tg_csr_write(drv, TG_CSR_REG_SCRATCH, 0x5a5a), 0);
	CHECK(get64(tg_bar_csr_addr(TG_CSR_REG_SCRATCH)) == 0x5a5a, "scratch");
	put64(tg_bar_csr_addr(TG_CSR_REG_CYCLES), 12345);
	CHECK(tg_cycles(drv) == 12345, "cycles");
	tg_close(drv);

	/* failures: bad address, absent function, other IDs, version */
	/* "pci:" alone: the NIC libpci finds (the only one here) */
	drv = tg_open("pci:", 0);
	CHECK(drv && tg_node_id(drv) == NODE, "tg_open(\"pci:\"): %s", tg_open_error());
	tg_close(drv);
	t_bad_open("pci:0", EINVAL, "not a PCI address");
	t_bad_open("pci:0000:03:00.0:1", EINVAL, "not a PCI address");
	t_bad_open("pci:0000:09:00.0", ENODEV, "no PCI function at 0000:09:00.0");
	snprintf(path, sizeof(path), "%s/device", devdir);
	put_file(path, "0x9038\n");
	t_bad_open("pci:" BDF, ENODEV, "is 10ee:9038, not a Telegraphos NIC");
	t_bad_open("pci:", ENODEV, "no Telegraphos NIC (PCI ID 10ee:7447)");
	put_file(path, "0x7447\n");
	put64(tg_bar_csr_addr(TG_CSR_REG_ID), TG_ID_MAGIC << 32 | (TG_VERSION_MAJOR + 1) << 16);
	{
		char why[64];

		snprintf(why, sizeof(why), "%s, this software needs", next_version());
		t_bad_open("pci:" BDF, EPROTO, why);
	}
	put64(tg_bar_csr_addr(TG_CSR_REG_ID), good_id());
	/* a bridge configured with a BAR smaller than the host port */
	snprintf(path, sizeof(path), "%s/resource", devdir);
	t_fakepci_bar_size(path, 1ULL << 20);
	t_bad_open("pci:" BDF, EPROTO, "BAR 0 is 1048576 bytes");
	t_fakepci_bar_size(path, 1ULL << TG_BAR_ADDR_BITS);
	CHECK(tg_open("pci:" BDF, 0x80) == NULL && errno == EINVAL &&
	      strstr(tg_open_error(), "only TG_OPEN_DRIVER"), "bad flags: %s", tg_open_error());

	/* permissions on the resource file */
	if (geteuid() == 0) {
		fprintf(stderr, "note: running as root, which ignores file modes: "
			"the permission case is skipped\n");
	} else {
		struct tg_pci_bar *b;
		char msg[512];

		REQUIRE(chmod(res, 0) == 0, "chmod");
		t_bad_open("pci:" BDF, EACCES, "docs/hardware.md");
		b = tg_pci_bar_open(res, msg, sizeof(msg));
		CHECK(!b && errno == EACCES && strstr(msg, "docs/hardware.md"), "msg: %s", msg);
		tg_pci_bar_close(b);
		REQUIRE(chmod(res, 0600) == 0, "chmod");
	}
}

/* tgctl against the dump and the file: exit status and what it prints. */
static int run(const char *args, char *out, size_t out_sz)
{
	char cmd[1024];
	FILE *p;
	size_t n;
	int st;

	snprintf(cmd, sizeof(cmd), "%s %s 2>&1", TGCTL_BIN, args);
	p = popen(cmd, "r");
	REQUIRE(p, "popen");
	n = fread(out, 1, out_sz - 1, p);
	out[n] = 0;
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_tgctl(void)
{
	char args[512], out[4096];
	int rc;

	put64(tg_bar_csr_addr(TG_CSR_REG_TX_FRAMES), 77);
	snprintf(args, sizeof(args), "--dump %s --sysfs %s list", dump, sysfs);
	rc = run(args, out, sizeof(out));
	{
		char want[64];

		snprintf(want, sizeof(want), BDF "  10ee:7447  id 0x%016llx", (unsigned long long)good_id());
		CHECK(rc == 0 && strstr(out, want), "list: %d %s", rc, out);
	}
	snprintf(args, sizeof(args), "--dump %s --sysfs %s show 03:00.0", dump, sysfs);
	rc = run(args, out, sizeof(out));
	CHECK(rc == 0 && strstr(out, "node       5") && strstr(out, "tx_frames          77") &&
	      strstr(out, "mem_size   1048576"), "show: %d %s", rc, out);
	put64(tg_bar_csr_addr(TG_CSR_REG_REQ_RETRIES), 12);
	snprintf(args, sizeof(args), "--resource %s stats 03:00.0", res);
	rc = run(args, out, sizeof(out));
	CHECK(rc == 0 && strstr(out, "tx_frames                77") &&
	      strstr(out, "req_retries              12") && !strstr(out, "switch"),
	      "stats: %d %s", rc, out);
	/* the queue table through its view, at the addresses the register map
	 * gives; QSEL is not written */
	put64(tg_bar_csr_addr(TG_CSR_REG_CONFIG), NCTX | 4u << 16);
	put64(tg_bar_csr_addr(TG_CSR_REG_QSEL), 3);
	put64(tg_bar_csr_addr(TG_CSR_QVIEW_BASE + 2 * TG_CSR_QVIEW_STRIDE + TG_QVIEW_QBASE), 0x45000);
	put64(tg_bar_csr_addr(TG_CSR_QVIEW_BASE + 2 * TG_CSR_QVIEW_STRIDE + TG_QVIEW_QCFG),
	      12u | 3u << 8 | TG_QCFG_ENABLE | TG_QCFG_FULL);
	put64(tg_bar_csr_addr(TG_CSR_QVIEW_BASE + 2 * TG_CSR_QVIEW_STRIDE + TG_QVIEW_QTAIL), 0x1c0);
	put64(tg_bar_csr_addr(TG_CSR_QVIEW_BASE + 2 * TG_CSR_QVIEW_STRIDE + TG_QVIEW_QHEAD),
	      1ull << 63 | 0x88);
	/* entry 1 configured but disabled; entry 5 past the table's 4 entries */
	put64(tg_bar_csr_addr(TG_CSR_QVIEW_BASE + TG_CSR_QVIEW_STRIDE + TG_QVIEW_QCFG), 8u);
	put64(tg_bar_csr_addr(TG_CSR_QVIEW_BASE + 5 * TG_CSR_QVIEW_STRIDE + TG_QVIEW_QCFG),
	      8u | TG_QCFG_ENABLE);
	snprintf(args, sizeof(args), "--resource %s queues 03:00.0", res);
	rc = run(args, out, sizeof(out));
	CHECK(rc == 0 && strstr(out, "queues     1 of 4 entries enabled") &&
	      strstr(out, "  2     0x0000045000      4096      8   0x0001c0   0x000088  full") &&
	      !strstr(out, "\n  1 ") && !strstr(out, "\n  5 "), "queues: %d %s", rc, out);
	CHECK(get64(tg_bar_csr_addr(TG_CSR_REG_QSEL)) == 3, "tgctl queues wrote QSEL");
	snprintf(args, sizeof(args), "--dump %s --sysfs %s show 03:00.0", dump, sysfs);
	rc = run(args, out, sizeof(out));
	CHECK(rc == 0 && strstr(out, "queues     1 of 4 entries enabled"), "show queues: %d %s",
	      rc, out);
	put64(tg_bar_csr_addr(TG_CSR_REG_CONFIG), NCTX);
	snprintf(args, sizeof(args), "--dump %s --sysfs %s show 0000:05:00.0", dump, sysfs);
	rc = run(args, out, sizeof(out));
	CHECK(rc == 1 && strstr(out, "no PCI function at 0000:05:00.0"), "show absent: %d %s", rc, out);
	snprintf(args, sizeof(args), "--resource %s show 03:00.0", res);
	put64(tg_bar_csr_addr(TG_CSR_REG_ID), TG_ID_MAGIC << 32 | (TG_VERSION_MAJOR + 1) << 16);
	rc = run(args, out, sizeof(out));
	CHECK(rc == 1 && strstr(out, next_version()), "show version: %d %s", rc, out);
	put64(tg_bar_csr_addr(TG_CSR_REG_ID), good_id());
	snprintf(args, sizeof(args), "--dump %s/none list", dir);
	rc = run(args, out, sizeof(out));
	CHECK(rc == 1 && strstr(out, "No such file"), "list missing dump: %d %s", rc, out);
	/* dma-check: the hugepage allocation of the pci: provider, or the
	 * reason it fails here (no hugepages reserved, PFNs hidden) */
	rc = run("dma-check", out, sizeof(out));
	CHECK((rc == 0 && strstr(out, "physical 0x")) ||
	      (rc == 1 && (strstr(out, "hugepage") || strstr(out, "CAP_SYS_ADMIN"))),
	      "dma-check: %d %s", rc, out);
	if (rc)
		fprintf(stderr, "note: %s", out);
	rc = run("dma-check 4096 3M", out, sizeof(out));
	CHECK(rc == 2 && strstr(out, "want 2M or 1G"), "dma-check page: %d %s", rc, out);
}

int main(void)
{
	int rc = t_fakepci_setup();

	if (rc)
		return rc;

	test_dump();
	test_ranges();
	test_bar();
	test_provider();
	test_tgctl();

	/* leave nothing behind */
	t_fakepci_cleanup();
	return t_done("test_pci");
}
