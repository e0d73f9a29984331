/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* tg-bench: options, shared helpers, and the notification-latency, message-size and simulation-speed benchmarks. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tg/tg_barrier.h"
#include "tg/tg_frame.h"
#include "tg_bench.h"

#define POLL_LIMIT     1000000u  /* cycles a benchmark waits for one event */
#define ENQ_ACCESSES   3u        /* head read, entry write, tail write */

/* ---------------------------------------------------------------- helpers */

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "tg-bench: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

struct dist dist_of(uint64_t *v, size_t n)
{
	struct dist d = { 0 };
	double sum = 0;

	if (!n)
		return d;
	qsort(v, n, sizeof(*v), cmp_u64);
	for (size_t i = 0; i < n; i++)
		sum += (double)v[i];
	d.n = n;
	d.min = v[0];
	d.med = v[n / 2];
	d.p99 = v[(size_t)ceil(0.99 * (double)n) - 1];
	d.max = v[n - 1];
	d.mean = sum / (double)n;
	return d;
}

double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

double ns_of(const struct bench_opts *o, double cycles)
{
	return cycles * 1000.0 / o->mhz;
}

unsigned frame_bytes(unsigned payload)
{
	return tg_frame_bytes(TG_OP_WRITE, (uint8_t)payload) + (unsigned)TG_FCS_BYTES;
}

/* A cluster of `nodes`, fast-forward on or off (ff). */
static void cluster_open_ff(struct bench_cluster *c, const struct bench_opts *o, unsigned nodes,
			    int ff)
{
	struct tg_sim_config cfg;

	tg_sim_config_init(&cfg);
	cfg.fast_forward = ff;
	cfg.nodes = nodes;
	cfg.mem_size = 16ULL << 20;
	cfg.ps_per_cycle = (unsigned)lround(1e6 / o->mhz);
	cfg.link_bytes_per_cycle = o->bpc;
	cfg.link_latency = o->cable_lat;
	cfg.switch_latency = o->switch_lat;
	cfg.mem_lat_min = cfg.mem_lat_max = o->mem_lat;
	cfg.link_overhead_bytes = o->overhead;
	memset(c, 0, sizeof(*c));
	c->sim = tg_sim_create(&cfg);
	if (!c->sim)
		die("tg_sim_create (%u nodes): %s", nodes, strerror(errno));
	c->nodes = nodes;
	for (unsigned n = 0; n < nodes; n++) {
		c->dev[n] = tg_open_sim(c->sim, n, TG_OPEN_DRIVER);
		if (!c->dev[n])
			die("tg_open_sim: %s", tg_open_error());
	}
}

void cluster_open(struct bench_cluster *c, const struct bench_opts *o, unsigned nodes)
{
	cluster_open_ff(c, o, nodes, 1);
}

void cluster_close(struct bench_cluster *c)
{
	for (unsigned n = 0; n < c->nodes; n++)
		tg_close(c->dev[n]);
	tg_sim_destroy(c->sim);
	memset(c, 0, sizeof(*c));
}

uint64_t csr(struct tg_dev *dev, uint64_t reg)
{
	uint64_t v = 0;
	int rc = tg_csr_read(dev, reg, &v);

	if (rc)
		die("CSR read %#" PRIx64 ": %s", reg, tg_strerror(rc));
	return v;
}

FILE *out_file(const struct bench_opts *o, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", o->out, name);
	f = fopen(path, "w");
	if (!f)
		die("%s: %s", path, strerror(errno));
	return f;
}

void plot(const struct bench_opts *o, const char *script, const char *svg)
{
	char cmd[8192];

	if (!o->plots) {
		printf("  (%s skipped: gnuplot not found; the CSV is written)\n", svg);
		return;
	}
	snprintf(cmd, sizeof(cmd), "cd '%s' && gnuplot '%s'", o->out, script);
	if (system(cmd) != 0)
		printf("  (%s: gnuplot failed)\n", svg);
	else
		printf("  plot: %s/%s\n", o->out, svg);
}

/* Step until the queue yields an entry; the cycle it was taken in. */
static uint64_t deq_poll(struct tg_sim *sim, struct tg_queue *q, uint64_t *v)
{
	uint64_t c0 = tg_sim_cycles(sim);
	int rc;

	while ((rc = tg_deq(q, v, 8)) == -EAGAIN) {
		if (tg_sim_cycles(sim) - c0 > POLL_LIMIT)
			die("no entry arrived within %u cycles", POLL_LIMIT);
		tg_sim_step(sim, 1);
	}
	if (rc)
		die("tg_deq: %s", tg_strerror(rc));
	return tg_sim_cycles(sim);
}

/* Offset of the NIC's CYCLES counter against the simulator's cycle count
 * (the counter starts after reset): in simulated cycle k the counter
 * reads k - offset.  A CSR read issued when the simulator has run a
 * cycles is accepted in cycle a or later, so a - value <= offset, with
 * equality when the NIC takes it at once; the largest over a few reads
 * is the offset. */
static uint64_t cycle_offset(struct bench_cluster *c)
{
	uint64_t best = 0;

	for (int i = 0; i < 16; i++) {
		uint64_t a = tg_sim_cycles(c->sim), v = csr(c->dev[0], TG_CSR_REG_CYCLES);

		if (a >= v && a - v > best)
			best = a - v;
	}
	return best;
}

/* ------------------------------------------------- 1: notification latency */

enum { ST_SNIC, ST_WIRE, ST_RNIC, ST_TOTAL, ST_NICDONE, ST_MEMORY, ST_N };

int bench_latency(const struct bench_opts *o)
{
	static const char *names[ST_N] = {
		"sender NIC: store accepted -> frame's first beat out",
		"wire: first beat out -> last beat in at receiver",
		"receiver NIC + memory: last beat in -> dequeued",
		"total: store accepted -> entry dequeued",
		"store accepted -> receiver NIC sees tail write done",
		"  of the receiver stage: host memory accesses",
	};
	static const char *keys[ST_N] = { "sender_nic", "wire", "receiver_nic_mem", "total",
					   "enq_done", "memory_derived" };
	struct bench_cluster c;
	struct tg_queue *q;
	struct dist d[ST_N];
	uint64_t *v[ST_N], qpa, off, wire_model;
	unsigned n = o->ops;
	FILE *f;
	int bad = 0;

	printf("\n== 1. Notification latency of remote enqueue (REQ), node 0 -> node 1, %u REQs\n", n);
	cluster_open(&c, o, 2);
	q = tg_queue_open(c.dev[1], 20, 8);
	if (!q)
		die("tg_queue_open: %s", strerror(errno));
	qpa = tg_queue_paddr(q);
	for (int s = 0; s < ST_N; s++)
		if (!(v[s] = calloc(n, sizeof(uint64_t))))
			die("out of memory");
	off = cycle_offset(&c);
	printf("  NIC cycle counter = simulated cycle - %" PRIu64 "\n", off);
	for (unsigned i = 0; i < n; i++) {
		uint64_t e = 0, deq, hreq, txs, rxe, enqd;
		int rc = tg_enq(c.dev[0], 1, qpa, 0xbe000000ULL | i);

		if (rc)
			die("tg_enq: %s", tg_strerror(rc));
		deq = deq_poll(c.sim, q, &e) - off;
		if (e != (0xbe000000ULL | i))
			die("entry %u holds %#" PRIx64, i, e);
		/* after the dequeue, so that the reads do not delay it */
		hreq = csr(c.dev[0], TG_CSR_REG_TS_HOST_REQ);
		txs = csr(c.dev[0], TG_CSR_REG_TS_TX_START);
		rxe = csr(c.dev[1], TG_CSR_REG_TS_RX_END);
		enqd = csr(c.dev[1], TG_CSR_REG_TS_ENQ_DONE);
		if (!(hreq <= txs && txs <= rxe && rxe <= deq && rxe <= enqd)) {
			if (bad++ < 5)
				fprintf(stderr, "tg-bench: REQ %u: stamps out of order: request %" PRIu64
					", tx %" PRIu64 ", rx end %" PRIu64 ", enq done %" PRIu64
					", dequeued %" PRIu64 "\n", i, hreq, txs, rxe, enqd, deq);
			continue;
		}
		v[ST_SNIC][i] = txs - hreq;
		v[ST_WIRE][i] = rxe - txs;
		v[ST_RNIC][i] = deq - rxe;
		v[ST_TOTAL][i] = deq - hreq;
		v[ST_NICDONE][i] = enqd - hreq;
		v[ST_MEMORY][i] = (uint64_t)ENQ_ACCESSES * o->mem_lat;
	}
	tg_queue_close(q);
	cluster_close(&c);
	if (bad)
		return 1;

	f = out_file(o, "latency_samples.csv");
	fprintf(f, "total_cycles\n");
	for (unsigned i = 0; i < n; i++)
		fprintf(f, "%" PRIu64 "\n", v[ST_TOTAL][i]);
	fclose(f);
	for (int s = 0; s < ST_N; s++)
		d[s] = dist_of(v[s], n);
	wire_model = (uint64_t)2 * ((frame_bytes(8) + 8u + o->bpc - 1) / o->bpc + o->cable_lat) +
		     o->switch_lat;
	printf("  %-54s %7s %7s %7s %9s %9s\n", "stage (cycles; ns at the clock)", "median", "p99",
	       "max", "median ns", "p99 ns");
	f = out_file(o, "latency.csv");
	fprintf(f, "stage,median_cycles,p99_cycles,max_cycles,median_ns,p99_ns,max_ns,samples\n");
	for (int s = 0; s < ST_N; s++) {
		printf("  %-54s %7" PRIu64 " %7" PRIu64 " %7" PRIu64 " %9.0f %9.0f\n", names[s],
		       d[s].med, d[s].p99, d[s].max, ns_of(o, (double)d[s].med),
		       ns_of(o, (double)d[s].p99));
		fprintf(f, "%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.1f,%.1f,%.1f,%zu\n", keys[s],
			d[s].med, d[s].p99, d[s].max, ns_of(o, (double)d[s].med),
			ns_of(o, (double)d[s].p99), ns_of(o, (double)d[s].max), d[s].n);
	}
	fclose(f);
	printf("  notes: the boundaries are NIC timestamps on one clock (TS_HOST_REQ, TS_TX_START\n"
	       "  on the sender, TS_RX_END and TS_ENQ_DONE on the receiver) except the dequeue: the\n"
	       "  cycle in which the receiving program, polling the queue once per cycle (in-process,\n"
	       "  so the poll itself takes no simulated time), had the entry, counted as the first\n"
	       "  cycle after the one that made the tail visible.  No timestamp separates the\n"
	       "  receiver NIC's logic from its memory accesses: the memory row is derived, %u\n"
	       "  serialized accesses (head read, entry write, tail write) x %u cycles of memory\n"
	       "  latency, and is part of the receiver row.  Wire model for the %u-byte REQ frame:\n"
	       "  2 x ((frame + 8 preamble) / %u B/cycle + %u cable) + %u switch = %" PRIu64 " cycles;\n"
	       "  measured median %" PRIu64 ".\n", ENQ_ACCESSES, o->mem_lat, frame_bytes(8), o->bpc,
	       o->cable_lat, o->switch_lat, wire_model, d[ST_WIRE].med);
	if (d[ST_TOTAL].med < wire_model || d[ST_WIRE].med < wire_model) {
		fprintf(stderr, "tg-bench: REQ latency below the wire time\n");
		return 1;
	}

	f = out_file(o, "latency.gp");
	fprintf(f, "set terminal svg size 720,420 noenhanced font 'sans,12'\nset output 'latency_cdf.svg'\n"
		"set title 'Remote enqueue: store to dequeued (%u REQs, %u B/cycle, %.2f MHz)'\n"
		"set xlabel 'latency (cycles)'\nset ylabel 'fraction of REQs'\nset grid\n"
		"set key bottom right\nset datafile separator ','\nset yrange [0:1.02]\n"
		"plot 'latency_samples.csv' skip 1 using 1:(1.0/%u) smooth cumulative lw 2 "
		"title 'store -> dequeued', %" PRIu64 " with impulses lw 1 dt 2 "
		"title 'wire model (%" PRIu64 ")'\n", n, o->bpc, o->mhz, n, wire_model, wire_model);
	fclose(f);
	f = out_file(o, "latency_stages.gp");
	fprintf(f, "set terminal svg size 720,420 noenhanced font 'sans,12'\nset output 'latency_stages.svg'\n"
		"set title 'Remote enqueue latency by stage (median, cycles)'\nset style data histograms\n"
		"set style fill solid 0.8 border -1\nset datafile separator ','\nset grid ytics\n"
		"set ylabel 'cycles'\nset xtics rotate by -20\nunset key\n"
		"plot 'latency.csv' skip 1 every ::0::2 using 2:xtic(1)\n");
	fclose(f);
	plot(o, "latency.gp", "latency_cdf.svg");
	plot(o, "latency_stages.gp", "latency_stages.svg");
	for (int s = 0; s < ST_N; s++)
		free(v[s]);
	return 0;
}

/* ------------------------------------------------ 4: latency vs write size */

/* Byte i of memory the NIC writes: acquire load of its aligned word
 * (pairs with the memory model's release store of the NIC's write). */
static uint8_t byte_acq(const uint8_t *mem, unsigned i)
{
	uint64_t w = TG_DEV_LOAD_ACQ64(mem + (i & ~7u));

	return (uint8_t)(w >> (8u * (i & 7u)));
}

int bench_size(const struct bench_opts *o)
{
	static const unsigned sizes[] = { 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096 };
	enum { NS = sizeof(sizes) / sizeof(sizes[0]) };
	unsigned reps = o->ops / 200 < 5 ? 5 : o->ops / 200;
	struct bench_cluster c;
	struct tg_mr *mr;
	uint8_t *mem;
	uint8_t *buf = malloc(4096);
	uint64_t *lat = calloc(reps, sizeof(uint64_t)), pa;
	double med[NS], sx = 0, sy = 0, sxx = 0, sxy = 0, a, b, ss = 0;
	FILE *f;

	printf("\n== 4. Remote write latency vs size, node 0 -> node 1, %u writes per size\n", reps);
	if (!buf || !lat)
		die("out of memory");
	cluster_open(&c, o, 2);
	mr = tg_mr_alloc(c.dev[1], 4096, TG_ACCESS_ALL);
	if (!mr)
		die("tg_mr_alloc: %s", strerror(errno));
	pa = tg_mr_paddr(mr);
	mem = tg_mr_ptr(mr);
	f = out_file(o, "size.csv");
	fprintf(f, "bytes,frames,median_cycles,min_cycles,max_cycles,median_ns\n");
	printf("  %6s %6s %8s %8s %8s %10s\n", "bytes", "frames", "median", "min", "max",
	       "median ns");
	for (unsigned k = 0; k < NS; k++) {
		unsigned len = sizes[k];
		struct dist d;

		for (unsigned r = 0; r < reps; r++) {
			uint8_t last = (uint8_t)(1u + (k * reps + r) % 255u);
			uint64_t c0, t0;
			int rc;

			for (unsigned i = 0; i < len; i++)
				buf[i] = (uint8_t)(r * 31u + i * 7u);
			buf[len - 1] = last;
			/* memory starts different from what the write brings */
			mem[len - 1] = (uint8_t)(last ^ 0xffu);
			c0 = tg_sim_cycles(c.sim);
			rc = tg_write(c.dev[0], 1, pa, buf, len);
			if (rc)
				die("tg_write %u bytes: %s", len, tg_strerror(rc));
			/* writes of one device land in order: the last byte is the
			 * last to land (acquire pairs with the memory's release) */
			t0 = c0;
			while (byte_acq(mem, len - 1) != last) {
				if (tg_sim_cycles(c.sim) - t0 > POLL_LIMIT)
					die("%u-byte write never landed", len);
				tg_sim_step(c.sim, 1);
			}
			lat[r] = tg_sim_cycles(c.sim) - c0;
			rc = tg_fence(c.dev[0], 1);
			if (rc)
				die("tg_fence: %s", tg_strerror(rc));
			if (memcmp((const void *)mem, buf, len))
				die("%u-byte write differs in memory", len);
		}
		d = dist_of(lat, reps);
		med[k] = (double)d.med;
		printf("  %6u %6u %8" PRIu64 " %8" PRIu64 " %8" PRIu64 " %10.0f\n", len, (len + 63) / 64,
		       d.med, d.min, d.max, ns_of(o, med[k]));
		fprintf(f, "%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.1f\n", len, (len + 63) / 64, d.med,
			d.min, d.max, ns_of(o, med[k]));
		sx += len;
		sy += med[k];
		sxx += (double)len * len;
		sxy += (double)len * med[k];
	}
	fclose(f);
	tg_mr_free(mr);
	cluster_close(&c);
	/* least squares: median = a + b * bytes */
	b = (NS * sxy - sx * sy) / (NS * sxx - sx * sx);
	a = (sy - b * sx) / NS;
	for (unsigned k = 0; k < NS; k++)
		ss += (med[k] - a - b * sizes[k]) * (med[k] - a - b * sizes[k]);
	printf("  least-squares fit over %u sizes: T(n) = %.1f cycles + %.3f cycles/byte x n\n"
	       "  = %.2f us + %.1f ns/byte x n at %.2f MHz (rms residual %.1f cycles);\n"
	       "  asymptotic bandwidth %.1f MB/s of payload\n", (unsigned)NS, a, b,
	       ns_of(o, a) / 1000.0, ns_of(o, b), o->mhz, sqrt(ss / NS), 1000.0 / ns_of(o, b));
	printf("  (store handed to the NIC -> last byte visible in node 1's memory; writes\n"
	       "   over 64 bytes are one 64-byte frame per block, sent back to back)\n");
	f = out_file(o, "size_fit.csv");
	fprintf(f, "fixed_cycles,per_byte_cycles,fixed_us,per_byte_ns,mbyte_per_s\n"
		"%.2f,%.4f,%.3f,%.3f,%.2f\n", a, b, ns_of(o, a) / 1000.0, ns_of(o, b),
		1000.0 / ns_of(o, b));
	fclose(f);
	f = out_file(o, "size.gp");
	fprintf(f, "set terminal svg size 720,420 noenhanced font 'sans,12'\nset output 'size.svg'\n"
		"set title 'Remote write: latency to completion vs size'\nset logscale xy 2\n"
		"set xlabel 'bytes'\nset ylabel 'cycles (median)'\nset grid\nset key top left\n"
		"set datafile separator ','\n"
		"plot 'size.csv' skip 1 using 1:3 with linespoints lw 2 title 'measured', "
		"%.3f + %.5f * x lw 1 dt 2 title 'fit %.0f + %.2f n cycles'\n", a, b, a, b);
	fclose(f);
	plot(o, "size.gp", "size.svg");
	free(buf);
	free(lat);
	return 0;
}

/* ---------------------------------------------------- 5: simulation speed */

/* Run cmd, return its wall time; *cycles gets the number after "cycles "
 * in its output. */
static double timed_run(const char *cmd, unsigned long *cycles)
{
	char line[512];
	double t0 = now_s(), t;
	FILE *p = popen(cmd, "r");

	*cycles = 0;
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p)) {
		const char *s = strstr(line, "cycles ");

		if (s)
			*cycles = strtoul(s + 7, NULL, 10);
	}
	if (pclose(p) != 0)
		return -1;
	t = now_s() - t0;
	return t;
}

/* CPU time of this process, in seconds. */
static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* One in-process run of `target` cycles on `nodes` nodes: every `gap`
 * cycles each even node sends its odd neighbour a 64-byte write (busy)
 * or node 0 one REQ to node 1 (sparse), with fast-forward on or off (ff).
 * Prints and records the row; returns the simulated cycles per second of
 * wall time. */
static double simspeed_run(const struct bench_opts *o, FILE *f, const char *label,
			   const char *key, unsigned nodes, unsigned gap, int sparse, int ff,
			   uint64_t target)
{
	struct bench_cluster c;
	struct tg_mr *mr[TG_SIM_MAX_NODES] = { 0 };
	struct tg_queue *q = NULL;
	uint8_t blk[64];
	uint64_t c0, c1, e, got = 0, sent = 0;
	double t0, t1, p0, p1;

	memset(blk, 0x5a, sizeof(blk));
	cluster_open_ff(&c, o, nodes, ff);
	if (sparse) {
		if (!(q = tg_queue_open(c.dev[1], 16, 8)))
			die("tg_queue_open: %s", strerror(errno));
	} else {
		for (unsigned n = 1; n < c.nodes; n += 2)
			if (!(mr[n] = tg_mr_alloc(c.dev[n], 4096, TG_ACCESS_ALL)))
				die("tg_mr_alloc: %s", strerror(errno));
	}
	c0 = tg_sim_cycles(c.sim);
	t0 = now_s();
	p0 = cpu_s();
	while (tg_sim_cycles(c.sim) - c0 < target) {
		int rc = 0;

		if (sparse) {
			rc = tg_enq(c.dev[0], 1, tg_queue_paddr(q), sent++);
			while (!rc && tg_deq(q, &e, 8) == 0)
				got++;
		}
		for (unsigned n = 0; !sparse && !rc && n + 1 < c.nodes; n += 2)
			rc = tg_write(c.dev[n], n + 1, tg_mr_paddr(mr[n + 1]), blk, 64);
		if (rc)
			die("%s: %s", sparse ? "tg_enq" : "tg_write", tg_strerror(rc));
		tg_sim_step(c.sim, gap);
	}
	p1 = cpu_s();
	t1 = now_s();
	c1 = tg_sim_cycles(c.sim);
	while (sparse && tg_deq(q, &e, 8) == 0)
		got++;
	if (sparse && got + 1 < sent)
		die("sparse run: %" PRIu64 " of %" PRIu64 " REQs dequeued", got, sent);
	tg_queue_close(q);
	for (unsigned n = 1; n < c.nodes; n += 2)
		tg_mr_free(mr[n]);
	cluster_close(&c);
	printf("  %-34s %5u %10" PRIu64 " %8.2f %8.2f %12.0f %12.0f\n", label, nodes, c1 - c0,
	       t1 - t0, p1 - p0, (double)(c1 - c0) / (t1 - t0), (double)(c1 - c0) / (p1 - p0));
	fprintf(f, "%s,%u,%" PRIu64 ",%.6f,%.1f,%.1f,%.6f,%.1f\n", key, nodes, c1 - c0, t1 - t0,
		(double)(c1 - c0) / (t1 - t0), (double)(c1 - c0) * nodes / (t1 - t0), p1 - p0,
		(double)(c1 - c0) / (p1 - p0));
	return (double)(c1 - c0) / (t1 - t0);
}

/* CPU seconds a process has used (user + system), from /proc; -1 if gone. */
static double proc_cpu_s(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long ut = 0, st = 0;
	long hz = sysconf(_SC_CLK_TCK);
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (!(f = fopen(path, "r")))
		return -1;
	p = fgets(buf, sizeof(buf), f);
	fclose(f);
	/* fields after the command's closing parenthesis: state is 3rd, utime 14th */
	if (!p || !(p = strrchr(buf, ')')) ||
	    sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
		return -1;
	return (double)(ut + st) / (double)(hz > 0 ? hz : 100);
}

#define ATT_PRODUCERS 4u
#define ATT_REQS      1500u    /* per producer */

/* tg-sim with ATT_PRODUCERS programs attached to node 0, each sending
 * ATT_REQS REQs to a queue on node 1 that this process drains in order
 * (with programs attached, tg-sim evaluates every cycle).  Cycles and
 * times are those between the producers' start and the last entry; the
 * CPU time is tg-sim's.  0, or 1 on a failure. */
static int simspeed_attached(const struct bench_opts *o, FILE *f)
{
	char name[64], dev0[96], dev1[96], line[256];
	pid_t sim, kids[ATT_PRODUCERS];
	struct tg_dev *rcv;
	struct tg_queue *q;
	uint64_t next[ATT_PRODUCERS] = { 0 }, c0, c1, got = 0, e;
	double t0, t1, p0, p1;
	int pfd[2], ok = 1;
	FILE *out;

	snprintf(name, sizeof(name), "bench-%d", (int)getpid());
	snprintf(dev0, sizeof(dev0), "sim:%s:0", name);
	snprintf(dev1, sizeof(dev1), "sim:%s:1", name);
	if (pipe(pfd))
		return 1;
	sim = fork();
	if (sim < 0)
		return 1;
	if (sim == 0) {
		dup2(pfd[1], 1);
		close(pfd[0]);
		close(pfd[1]);
		execl(o->tgsim, o->tgsim, "--nodes", "2", "--name", name, "--quiet", (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	out = fdopen(pfd[0], "r");
	while (out && fgets(line, sizeof(line), out) && strncmp(line, "tg-sim: ready", 13))
		;
	rcv = tg_open(dev1, 0);
	q = rcv ? tg_queue_open(rcv, 20, 8) : NULL;
	if (!q) {
		fprintf(stderr, "tg-bench: attached run: %s\n", rcv ? tg_dev_error(rcv) : tg_open_error());
		kill(sim, SIGTERM);
		waitpid(sim, NULL, 0);
		return 1;
	}
	c0 = tg_cycles(rcv);
	t0 = now_s();
	p0 = proc_cpu_s(sim);
	for (unsigned k = 0; k < ATT_PRODUCERS; k++) {
		kids[k] = fork();
		if (kids[k] == 0) {
			struct tg_dev *d = tg_open(dev0, 0);
			int rc = d ? 0 : -ENODEV;

			for (uint64_t i = 0; i < ATT_REQS && !rc; i++)
				rc = tg_enq(d, 1, tg_queue_paddr(q), (uint64_t)k << 32 | i);
			if (!rc)
				rc = tg_fence(d, 1);
			tg_close(d);
			_exit(rc ? 1 : 0);
		}
	}
	while (got < (uint64_t)ATT_PRODUCERS * ATT_REQS && now_s() - t0 < 600.0) {
		int rc = tg_deq_wait(q, &e, 8, 100000000ull);

		if (rc == -ETIMEDOUT)
			continue;
		if (rc || (e >> 32) >= ATT_PRODUCERS || (e & 0xffffffffu) != next[e >> 32]++) {
			ok = 0;
			break;
		}
		got++;
	}
	c1 = tg_cycles(rcv);
	t1 = now_s();
	p1 = proc_cpu_s(sim);
	for (unsigned k = 0; k < ATT_PRODUCERS; k++) {
		int st = 1;

		if (kids[k] > 0 && (waitpid(kids[k], &st, 0) != kids[k] || !WIFEXITED(st) ||
				    WEXITSTATUS(st)))
			ok = 0;
	}
	tg_queue_close(q);
	tg_close(rcv);
	kill(sim, SIGTERM);
	waitpid(sim, NULL, 0);
	if (out)
		fclose(out);
	if (!ok || got != (uint64_t)ATT_PRODUCERS * ATT_REQS || p0 < 0 || p1 <= p0) {
		fprintf(stderr, "tg-bench: attached run: %" PRIu64 " of %u entries in order\n", got,
			ATT_PRODUCERS * ATT_REQS);
		return 1;
	}
	printf("  %-34s %5u %10" PRIu64 " %8.2f %8.2f %12.0f %12.0f\n",
	       "tg-sim, 4 attached REQ senders", 2, c1 - c0, t1 - t0, p1 - p0,
	       (double)(c1 - c0) / (t1 - t0), (double)(c1 - c0) / (p1 - p0));
	fprintf(f, "tgsim-attached,2,%" PRIu64 ",%.3f,%.1f,%.1f,%.3f,%.1f\n", c1 - c0, t1 - t0,
		(double)(c1 - c0) / (t1 - t0), 2.0 * (double)(c1 - c0) / (t1 - t0), p1 - p0,
		(double)(c1 - c0) / (p1 - p0));
	return 0;
}

int bench_simspeed(const struct bench_opts *o)
{
	static const unsigned nodes[] = { 2, 4, 8, 16 };
	uint64_t target = o->tb_cycles;
	unsigned gap = (150u + o->bpc - 1) / o->bpc;
	double rate2 = 0, r;
	FILE *f;

	printf("\n== 5. Simulation speed: %" PRIu64 " simulated cycles per run; busy: 64-byte\n"
	       "   writes from every even node to the next odd node, one every %u cycles;\n"
	       "   sparse: one REQ from node 0 to node 1 every 10 000 cycles; fast-forward\n"
	       "   (docs/simulator.md) in-process unless the row says every cycle; tg-sim\n"
	       "   evaluates every cycle while programs are attached\n", target, gap);
	f = out_file(o, "simspeed.csv");
	fprintf(f, "simulator,nodes,cycles,wall_s,cycles_per_s,node_cycles_per_s,cpu_s,"
		"cycles_per_cpu_s\n");
	printf("  %-34s %5s %10s %8s %8s %12s %12s\n", "simulator", "nodes", "cycles", "wall s",
	       "cpu s", "cycles/s", "cycles/cpu-s");
	for (unsigned k = 0; k < sizeof(nodes) / sizeof(nodes[0]); k++) {
		r = simspeed_run(o, f, "Verilator, in-process cluster", "verilator-cluster", nodes[k],
				 gap, 0, 1, target);
		if (k == 0)
			rate2 = r;
	}
	simspeed_run(o, f, "Verilator, in-process, sparse", "verilator-sparse", 2, 10000, 1, 1,
		     target);
	simspeed_run(o, f, "  the same, every cycle evaluated", "verilator-sparse-noff", 2, 10000,
		     1, 0, target);
	if (o->tgsim && simspeed_attached(o, f)) {
		fclose(f);
		return 1;
	}
	if (!o->tgsim)
		printf("  (tg-sim with attached programs not run: give --tg-sim, as `make bench` does)\n");
	if (o->icarus_cmd && o->vl_cmd) {
		unsigned long ci, cv;
		double ti = timed_run(o->icarus_cmd, &ci), tv = timed_run(o->vl_cmd, &cv);

		if (ti <= 0 || tv <= 0 || !ci || !cv) {
			fprintf(stderr, "tg-bench: the RTL pair testbench failed\n");
			fclose(f);
			return 1;
		}
		printf("  %-34s %5u %10lu %8.2f %8s %12.0f %12s\n", "Icarus, tb_tg_pair (RTL testbench)",
		       2, ci, ti, "-", ci / ti, "-");
		printf("  %-34s %5u %10lu %8.2f %8s %12.0f %12s\n", "Verilator, tb_tg_pair (same bench)",
		       2, cv, tv, "-", cv / tv, "-");
		fprintf(f, "icarus-pair,2,%lu,%.3f,%.1f,%.1f,,\n", ci, ti, ci / ti, 2 * ci / ti);
		fprintf(f, "verilator-pair,2,%lu,%.3f,%.1f,%.1f,,\n", cv, tv, cv / tv, 2 * cv / tv);
		printf("  Verilator / Icarus on the same testbench (two tg_nic cross-connected, node 0\n"
		       "  writing 64-byte bursts to node 1, process start included): %.1fx;\n"
		       "  in-process 2-node cluster (switch model, C memory models) / Icarus: %.1fx\n",
		       (cv / tv) / (ci / ti), rate2 / (ci / ti));
	} else {
		printf("  (RTL pair under Icarus and Verilator not run: give --icarus and --verilator,\n"
		       "   as `make bench` does)\n");
	}
	fclose(f);
	f = out_file(o, "simspeed.gp");
	fprintf(f, "set terminal svg size 720,420 noenhanced font 'sans,12'\nset output 'simspeed.svg'\n"
		"set title 'Simulation speed (in-process Verilated cluster)'\nset logscale y 10\n"
		"set xlabel 'nodes'\nset ylabel 'per second'\nset grid\nset datafile separator ','\n"
		"set xtics (2, 4, 8, 16)\n"
		"plot 'simspeed.csv' skip 1 using (strcol(1) eq 'verilator-cluster' ? $2 : 1/0):5 "
		"with linespoints lw 2 title 'simulated cycles/s', "
		"'' skip 1 using (strcol(1) eq 'verilator-cluster' ? $2 : 1/0):6 with linespoints lw 2 "
		"title 'node-cycles/s'\n");
	fclose(f);
	plot(o, "simspeed.gp", "simspeed.svg");
	return 0;
}

/* ------------------------------------------------------------------- main */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: tg-bench [options]\n"
		"Benchmarks of the Telegraphos NIC on the in-process simulated cluster.\n"
		"  -b, --bench LIST          comma-separated: latency, compare, throughput, size,\n"
		"                            simspeed, all (default all)\n"
		"  -n, --ops N               REQs timed by the latency benchmark (default 10000);\n"
		"                            the others scale their counts from N\n"
		"  -w, --link-bytes B        link bytes per cycle, 1..64 (default %u: Gigabit\n"
		"                            Ethernet at the default clock)\n"
		"  -c, --clock-mhz F         NIC clock in MHz (default %.3f: the %s's\n"
		"                            NIC core)\n"
		"  -s, --switch-latency C    cycles inside the switch (default 0)\n"
		"  -l, --cable-latency C     cycles on each cable (default %u)\n"
		"  -m, --mem-latency C       host memory latency in cycles (default 4)\n"
		"  -o, --out DIR             results folder (default build/bench)\n"
		"      --icarus CMD          command running bench/tb_tg_pair.v under Icarus\n"
		"      --verilator CMD       the same testbench built by Verilator\n"
		"      --tg-sim PATH         tg-sim, for the simulation-speed row of programs\n"
		"                            attached to it\n"
		"      --sim-cycles N        cycles per simulation-speed run (default 200000)\n"
		"  -h, --help                this text\n"
		"Results: tables on stdout; CSV files and SVG plots (gnuplot) in the folder.\n",
		TG_BOARD_LINK_BYTES, 1e6 / TG_BOARD_CORE_PS, TG_BOARD_NAME, TG_BOARD_CABLE_CYCLES);
}

static unsigned parse_bench(const char *s)
{
	static const char *names[] = { "latency", "compare", "throughput", "size", "simspeed" };
	unsigned m = 0;
	char *dup = strdup(s), *save = NULL;

	if (!dup)
		die("out of memory");
	for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		unsigned k, found = 0;

		if (!strcmp(t, "all")) {
			m |= BENCH_ALL;
			continue;
		}
		for (k = 0; k < 5; k++)
			if (!strcmp(t, names[k]) || (t[0] == (char)('1' + k) && !t[1])) {
				m |= 1u << k;
				found = 1;
			}
		if (!found) {
			free(dup);
			return 0;
		}
	}
	free(dup);
	return m;
}

static unsigned long num(const char *what, const char *s, unsigned long lo, unsigned long hi)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || *end || !*s || v < lo || v > hi) {
		fprintf(stderr, "tg-bench: %s must be %lu..%lu, not \"%s\"\n", what, lo, hi, s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "bench", required_argument, NULL, 'b' },
		{ "ops", required_argument, NULL, 'n' },
		{ "link-bytes", required_argument, NULL, 'w' },
		{ "clock-mhz", required_argument, NULL, 'c' },
		{ "switch-latency", required_argument, NULL, 's' },
		{ "cable-latency", required_argument, NULL, 'l' },
		{ "mem-latency", required_argument, NULL, 'm' },
		{ "out", required_argument, NULL, 'o' },
		{ "icarus", required_argument, NULL, 'I' },
		{ "verilator", required_argument, NULL, 'V' },
		{ "tg-sim", required_argument, NULL, 'T' },
		{ "sim-cycles", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct bench_opts o = {
		.which = BENCH_ALL, .ops = 10000, .bpc = TG_BOARD_LINK_BYTES,
		.mhz = 1e6 / TG_BOARD_CORE_PS, .switch_lat = 0, .cable_lat = TG_BOARD_CABLE_CYCLES,
		.mem_lat = 4, .overhead = 20, .out = "build/bench",
		.tb_cycles = 200000,
	};
	char *end;
	int opt, fails = 0;
	double t0 = now_s();

	while ((opt = getopt_long(argc, argv, "b:n:w:c:s:l:m:o:h", lopts, NULL)) != -1) {
		switch (opt) {
		case 'b':
			if (!(o.which = parse_bench(optarg))) {
				fprintf(stderr, "tg-bench: unknown benchmark in \"%s\"\n", optarg);
				return 2;
			}
			break;
		case 'n':
			o.ops = (unsigned)num("--ops", optarg, 100, 10000000);
			break;
		case 'w':
			o.bpc = (unsigned)num("--link-bytes", optarg, 1, 64);
			break;
		case 'c':
			o.mhz = strtod(optarg, &end);
			if (*end || !(o.mhz >= 1.0 && o.mhz <= 10000.0)) {
				fprintf(stderr, "tg-bench: --clock-mhz must be 1..10000\n");
				return 2;
			}
			break;
		case 's':
			o.switch_lat = (unsigned)num("--switch-latency", optarg, 0, 1000000);
			break;
		case 'l':
			o.cable_lat = (unsigned)num("--cable-latency", optarg, 0, 1000000);
			break;
		case 'm':
			o.mem_lat = (unsigned)num("--mem-latency", optarg, 1, 100000);
			break;
		case 'o':
			o.out = optarg;
			break;
		case 'I':
			o.icarus_cmd = optarg;
			break;
		case 'T':
			o.tgsim = optarg;
			break;
		case 'V':
			o.vl_cmd = optarg;
			break;
		case 'C':
			o.tb_cycles = (unsigned)num("--sim-cycles", optarg, 1000, 100000000);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	if (mkdir(o.out, 0777) && errno != EEXIST)
		die("%s: %s", o.out, strerror(errno));
	o.plots = system("gnuplot --version > /dev/null 2>&1") == 0;

	printf("tg-bench: in-process simulated cluster of Verilated tg_nic cores\n"
	       "assumptions: clock %.2f MHz (%.2f ns/cycle); links %u byte(s)/cycle (%.0f Mbit/s),\n"
	       "  %u bytes of preamble+SFD+gap per frame; %u cycles per cable, %u cycles in the\n"
	       "  store-and-forward switch; host memory %u cycles; results in %s%s\n",
	       o.mhz, 1000.0 / o.mhz, o.bpc, o.bpc * 8.0 * o.mhz, o.overhead, o.cable_lat,
	       o.switch_lat, o.mem_lat, o.out, o.plots ? "" : " (gnuplot not found: no plots)");
	{
		FILE *f = out_file(&o, "assumptions.csv");

		fprintf(f, "clock_mhz,link_bytes_per_cycle,overhead_bytes,cable_cycles,switch_cycles,"
			"mem_cycles,ops\n%.3f,%u,%u,%u,%u,%u,%u\n", o.mhz, o.bpc, o.overhead, o.cable_lat,
			o.switch_lat, o.mem_lat, o.ops);
		fclose(f);
	}
	if (o.which & BENCH_LATENCY)
		fails += bench_latency(&o);
	if (o.which & BENCH_COMPARE)
		fails += bench_compare(&o);
	if (o.which & BENCH_THROUGHPUT)
		fails += bench_throughput(&o);
	if (o.which & BENCH_SIZE)
		fails += bench_size(&o);
	if (o.which & BENCH_SIMSPEED)
		fails += bench_simspeed(&o);
	printf("\ntg-bench: %s in %.1f s wall\n", fails ? "FAILED" : "done", now_s() - t0);
	return fails ? 1 : 0;
}
