/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: the same libtg calls against both providers, the simulated node and a PCI function with a file for its BAR: identity, argument checks and the errors they return agree; writes of every length and alignment leave the same bytes, reads within a word return the same data, and fences and REQs are taken alike, each where the provider's addressing puts it. */
#define _GNU_SOURCE
#include "tg_fakepci.h"

struct conf_case {
	const char *what;
	int want;
	int (*call)(struct tg_dev *dev);
};

static uint64_t word = 0x1122334455667788ULL;

/* the node numbers and sizes each provider reports */
static unsigned bad_node(struct tg_dev *d) { return (unsigned)tg_num_nodes(d); }
static uint64_t top(struct tg_dev *d) { return tg_mem_size(d); }

static int c_write_node(struct tg_dev *d) { return tg_write(d, bad_node(d), 0x100, &word, 8); }
static int c_write_null(struct tg_dev *d) { return tg_write(d, 1, 0x100, NULL, 8); }
static int c_write_len0(struct tg_dev *d) { return tg_write(d, 1, 0x100, &word, 0); }
static int c_write_end(struct tg_dev *d) { return tg_write(d, 1, top(d) - 4, &word, 8); }
static int c_write_span(struct tg_dev *d) { return tg_write(d, 1, 1ULL << 40, &word, 8); }
static int c_read_node(struct tg_dev *d) { return tg_read(d, bad_node(d), 0x100, &word, 8); }
static int c_read_null(struct tg_dev *d) { return tg_read(d, 1, 0x100, NULL, 8); }
static int c_read_len0(struct tg_dev *d) { return tg_read(d, 1, 0x100, &word, 0); }
static int c_read_span(struct tg_dev *d) { return tg_read(d, 1, 1ULL << 40, &word, 8); }
static int c_fence_node(struct tg_dev *d) { return tg_fence(d, bad_node(d)); }
static int c_faa_align(struct tg_dev *d) { return tg_faa(d, 1, 0x104, 1, NULL); }
static int c_faa_node(struct tg_dev *d) { return tg_faa(d, bad_node(d), 0x100, 1, NULL); }
static int c_faa_span(struct tg_dev *d) { return tg_faa(d, 1, 1ULL << 40, 1, NULL); }
static int c_swap_align(struct tg_dev *d) { return tg_swap(d, 1, 0x101, 1, NULL); }
static int c_cas_align(struct tg_dev *d) { return tg_cas(d, 1, 0x102, 1, 2, NULL); }
static int c_finc_align(struct tg_dev *d) { return tg_fetch_inc(d, 1, 0x103, NULL); }
static int c_post_nomr(struct tg_dev *d) { return tg_atomic_post(d, 1, 0x100, TG_AOP_FAA, 1, 0, NULL, 0); }
static int c_atest_nomr(struct tg_dev *d) { return tg_atomic_test(d, NULL, 0, NULL); }
static int c_fetch_nomr(struct tg_dev *d) { return tg_fetch(d, 1, 0x100, NULL, 0, 8, NULL, 0); }
static int c_ftest_nomr(struct tg_dev *d) { return tg_fetch_test(d, NULL, 0); }
static int c_csr_user(struct tg_dev *d) { uint64_t v; return tg_csr_read(d, TG_CSR_REG_NODE_ID, &v); }
static int c_csrw_user(struct tg_dev *d) { return tg_csr_write(d, TG_CSR_REG_SCRATCH, 1); }
static int c_enq_node(struct tg_dev *d) { return tg_enq(d, bad_node(d), 0x10000, 1); }
static int c_enq_align(struct tg_dev *d) { return tg_enq(d, 1, 0x10008, 1); }
static int c_enq_zero(struct tg_dev *d) { return tg_enq(d, 1, 0, 1); }
static int c_enqm_none(struct tg_dev *d) { return tg_enq_multi(d, 1, 0x10000, &word, 0); }
static int c_enqm_many(struct tg_dev *d) { return tg_enq_multi(d, 1, 0x10000, &word, 9); }
static int c_enqm_null(struct tg_dev *d) { return tg_enq_multi(d, 1, 0x10000, NULL, 1); }
static int c_status(struct tg_dev *d) { return tg_ctx_status(d); }
static int c_write_ok(struct tg_dev *d) { return tg_write(d, 1, 0x200, &word, 8); }

static const struct conf_case cases[] = {
	{ "tg_write to a node past the last", -EINVAL, c_write_node },
	{ "tg_write from NULL", -EINVAL, c_write_null },
	{ "tg_write of 0 bytes", -EINVAL, c_write_len0 },
	{ "tg_write across the end of exported memory", -EFAULT, c_write_end },
	{ "tg_write beyond the address space", -ERANGE, c_write_span },
	{ "tg_read from a node past the last", -EINVAL, c_read_node },
	{ "tg_read into NULL", -EINVAL, c_read_null },
	{ "tg_read of 0 bytes", -EINVAL, c_read_len0 },
	{ "tg_read beyond the address space", -ERANGE, c_read_span },
	{ "tg_fence to a node past the last", -EINVAL, c_fence_node },
	{ "tg_faa on a misaligned word", -EINVAL, c_faa_align },
	{ "tg_faa to a node past the last", -EINVAL, c_faa_node },
	{ "tg_faa beyond the address space", -ERANGE, c_faa_span },
	{ "tg_swap on a misaligned word", -EINVAL, c_swap_align },
	{ "tg_cas on a misaligned word", -EINVAL, c_cas_align },
	{ "tg_fetch_inc on a misaligned word", -EINVAL, c_finc_align },
	{ "tg_atomic_post without a region", -EINVAL, c_post_nomr },
	{ "tg_atomic_test without a region", -EINVAL, c_atest_nomr },
	{ "tg_fetch without a region", -EINVAL, c_fetch_nomr },
	{ "tg_fetch_test without a region", -EINVAL, c_ftest_nomr },
	{ "tg_csr_read without TG_OPEN_DRIVER", -EPERM, c_csr_user },
	{ "tg_csr_write without TG_OPEN_DRIVER", -EPERM, c_csrw_user },
	{ "tg_enq to a node past the last", -EINVAL, c_enq_node },
	{ "tg_enq to a misaligned queue address", -EINVAL, c_enq_align },
	{ "tg_enq to queue address 0", -EINVAL, c_enq_zero },
	{ "tg_enq_multi of 0 words", -EINVAL, c_enqm_none },
	{ "tg_enq_multi of 9 words", -EINVAL, c_enqm_many },
	{ "tg_enq_multi from NULL", -EINVAL, c_enqm_null },
	{ "tg_ctx_status after refused calls", 0, c_status },
	{ "tg_write of one word", 0, c_write_ok },
};

/* Every case on one device; rc[i] gets what it returned. */
static void run_cases(struct tg_dev *d, const char *prov, int *rc)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		rc[i] = cases[i].call(d);
		CHECK(rc[i] == cases[i].want, "%s: %s returned %s, want %s", prov, cases[i].what,
		      tg_strerror(rc[i]), tg_strerror(cases[i].want));
	}
}

/* What both providers report about themselves. */
static void identity(struct tg_dev *d, const char *prov)
{
	CHECK(tg_check_id(tg_nic_id(d)) == 0, "%s: NIC id %#" PRIx64, prov, tg_nic_id(d));
	CHECK(tg_node_id(d) >= 0 && tg_node_id(d) < tg_num_nodes(d), "%s: node %d of %d", prov,
	      tg_node_id(d), tg_num_nodes(d));
	CHECK(tg_context(d) >= 0 && tg_context(d) < (1 << TG_BAR_CTX_BITS), "%s: context %d", prov,
	      tg_context(d));
	CHECK(tg_mem_size(d) >= 4096 && tg_mem_size(d) % 4096 == 0, "%s: memory %" PRIu64, prov,
	      tg_mem_size(d));
	CHECK(tg_node_id(NULL) == -EINVAL && tg_num_nodes(NULL) == -EINVAL &&
	      tg_context(NULL) == -EINVAL, "%s: NULL handle", prov);
}

#define DATA_BASE  0x4000u    /* node 1's bytes the data cases use */
#define DATA_SPAN  0x2000u

/* Node 1's bytes [DATA_BASE, DATA_BASE + DATA_SPAN) as each provider shows
 * them: the simulated node's memory, and the context's slice of the BAR's
 * remote window (where the host port's stores land). */
static void data_bytes(struct tg_sim *sim, struct tg_dev *dp, uint8_t *s, uint8_t *p)
{
	int fd = open(res, O_RDONLY);

	memcpy(s, tg_sim_mem(sim, 1) + DATA_BASE, DATA_SPAN);
	REQUIRE(fd >= 0 && pread(fd, p, DATA_SPAN, (off_t)tg_bar_data_addr(TG_WIN_REMOTE,
			(unsigned)tg_context(dp), 1, DATA_BASE)) == DATA_SPAN, "pread");
	close(fd);
}

/* Put the same bytes at node 1's [DATA_BASE, +DATA_SPAN) on both. */
static void data_fill(struct tg_sim *sim, struct tg_dev *dp, const uint8_t *b)
{
	int fd = open(res, O_RDWR);

	memcpy(tg_sim_mem(sim, 1) + DATA_BASE, b, DATA_SPAN);
	REQUIRE(fd >= 0 && pwrite(fd, b, DATA_SPAN, (off_t)tg_bar_data_addr(TG_WIN_REMOTE,
			(unsigned)tg_context(dp), 1, DATA_BASE)) == DATA_SPAN, "pwrite");
	close(fd);
}

/* Writes of 1 to 64 bytes at every alignment of a word, reads within a
 * word, fences and REQs: the same results on both providers. */
static void data_cases(struct tg_sim *sim, struct tg_dev *ds, struct tg_dev *dp)
{
	static uint8_t s[DATA_SPAN], p[DATA_SPAN], pat[64], want[DATA_SPAN];
	static const unsigned lens[] = { 1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 24, 31, 33, 40, 63, 64 };
	unsigned n = 0, reads = 0, off = 0;
	uint64_t w[4] = { 0x0102030405060708ULL, ~0ULL, 0x8000000000000001ULL, 0 }, got_s, got_p;
	struct tg_queue *q;
	struct tg_dev *d1;
	int rs, rp;

	memset(want, 0, sizeof(want));
	data_fill(sim, dp, want);
	for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
		for (unsigned a = 0; a < 8u; a++, n++) {
			for (unsigned i = 0; i < lens[l]; i++)
				pat[i] = (uint8_t)(n * 37u + i * 11u + 1u);
			rs = tg_write(ds, 1, DATA_BASE + off + a, pat, lens[l]);
			rp = tg_write(dp, 1, DATA_BASE + off + a, pat, lens[l]);
			CHECK(rs == 0 && rp == 0, "tg_write of %u bytes at +%u: sim %s, pci %s",
			      lens[l], a, tg_strerror(rs), tg_strerror(rp));
			memcpy(want + off + a, pat, lens[l]);
			off += (a + lens[l] + 15u) & ~7u;    /* a gap word after each */
		}
	}
	REQUIRE(off <= DATA_SPAN, "data cases span %u bytes", off);
	CHECK_RC(tg_fence(ds, 1), 0);
	CHECK_RC(tg_fence(dp, 1), 0);
	data_bytes(sim, dp, s, p);
	for (unsigned i = 0; i < DATA_SPAN; i++) {
		if (s[i] != want[i] || p[i] != want[i]) {
			CHECK(0, "after %u writes, byte +%#x: sim %02x, pci %02x, want %02x", n, i,
			      s[i], p[i], want[i]);
			break;
		}
	}

	/* reads of 1 to 8 bytes inside a word, an all-ones word included (a
	 * refused read's answer, asked about on both) */
	memset(want, 0, sizeof(want));
	memcpy(want, w, sizeof(w));
	data_fill(sim, dp, want);
	for (unsigned k = 0; k < 4u; k++) {
		for (unsigned a = 0; a < 8u; a++) {
			for (unsigned len = 1; a + len <= 8u; len++, reads++) {
				got_s = got_p = 0x5a5a5a5a5a5a5a5aULL;
				rs = tg_read(ds, 1, DATA_BASE + 8u * k + a, &got_s, len);
				rp = tg_read(dp, 1, DATA_BASE + 8u * k + a, &got_p, len);
				CHECK(rs == 0 && rp == 0 && got_s == got_p &&
				      !memcmp(&got_s, want + 8u * k + a, len),
				      "tg_read of %u bytes at word %u +%u: sim %s %#" PRIx64 ", pci %s %#"
				      PRIx64, len, k, a, tg_strerror(rs), got_s, tg_strerror(rp), got_p);
			}
		}
	}

	/* a REQ: on the simulated node it lands in the queue; on the PCI
	 * function the burst is at the context's slice of the REQ window */
	d1 = t_open(sim, 1, 0);
	q = tg_queue_open(d1, 12, 16);
	REQUIRE(q, "tg_queue_open: %s", tg_strerror(-errno));
	rs = tg_enq_multi(ds, 1, tg_queue_paddr(q), w, 2);
	rp = tg_enq_multi(dp, 1, tg_queue_paddr(q), w, 2);
	CHECK(rs == 0 && rp == 0, "tg_enq_multi: sim %s, pci %s", tg_strerror(rs), tg_strerror(rp));
	{
		uint64_t e[2] = { 0, 0 };

		CHECK(tg_deq_wait(q, e, sizeof(e), 1000000000ull) == 0 && e[0] == w[0] &&
		      e[1] == w[1], "sim: the queue holds %#" PRIx64 " %#" PRIx64, e[0], e[1]);
		CHECK(get64(tg_bar_data_addr(TG_WIN_REQ, (unsigned)tg_context(dp), 1,
					     tg_queue_paddr(q))) == w[0] &&
		      get64(tg_bar_data_addr(TG_WIN_REQ, (unsigned)tg_context(dp), 1,
					     tg_queue_paddr(q) + 8)) == w[1], "pci: the REQ burst");
	}
	tg_queue_close(q);
	tg_close(d1);
	printf("%u writes (1-64 bytes, every alignment) and %u reads: identical bytes on both "
	       "providers\n", n, reads);
}

int main(void)
{
	enum { N = sizeof(cases) / sizeof(cases[0]) };
	int rc_sim[N], rc_pci[N];
	struct tg_sim *sim;
	struct tg_dev *ds, *dp;
	uint64_t got = 0;
	int rc = t_fakepci_setup();

	if (rc)
		return rc;
	sim = t_sim(2);
	ds = t_open(sim, 0, 0);
	dp = tg_open("pci:" BDF, 0);
	REQUIRE(dp, "tg_open(pci:%s): %s", BDF, tg_strerror(-errno));

	identity(ds, "sim");
	identity(dp, "pci");
	run_cases(ds, "sim", rc_sim);
	run_cases(dp, "pci", rc_pci);
	for (size_t i = 0; i < N; i++)
		CHECK(rc_sim[i] == rc_pci[i], "%s: sim %s, pci %s", cases[i].what,
		      tg_strerror(rc_sim[i]), tg_strerror(rc_pci[i]));

	/* the write that succeeded: in node 1's memory, or at the context's
	 * slice of the remote window */
	CHECK_RC(tg_fence(ds, 1), 0);
	memcpy(&got, tg_sim_mem(sim, 1) + 0x200, 8);
	CHECK(got == word, "sim: node 1 holds %#" PRIx64, got);
	got = get64(tg_bar_data_addr(TG_WIN_REMOTE, (unsigned)tg_context(dp), 1, 0x200));
	CHECK(got == word, "pci: the BAR holds %#" PRIx64, got);
	/* nothing else was written to the BAR by the refused calls */
	CHECK(get64(tg_bar_data_addr(TG_WIN_REMOTE, (unsigned)tg_context(dp), 1, 0x100)) == 0,
	      "pci: a refused write reached the BAR");
	CHECK(get64(tg_bar_data_addr(TG_WIN_REQ, (unsigned)tg_context(dp), 1, 0x10000)) == 0,
	      "pci: a refused REQ reached the BAR");
	printf("%u calls, identical results on both providers\n", (unsigned)N);
	data_cases(sim, ds, dp);

	tg_close(dp);
	tg_close(ds);
	t_check_sim(sim);
	tg_sim_destroy(sim);
	t_fakepci_cleanup();
	return t_done("test_conformance");
}
