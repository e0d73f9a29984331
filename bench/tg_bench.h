/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* tg-bench: shared options, statistics and output helpers of the benchmark program. */
#ifndef TG_BENCH_H
#define TG_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tg/sim.h"
#include "tg/tg.h"

/* What the user chose; printed with every result. */
struct bench_opts {
	unsigned which;          /* BENCH_* bits */
	unsigned ops;            /* REQs of the latency benchmark; the others scale from it */
	unsigned bpc;            /* link bytes per cycle */
	double mhz;              /* NIC clock */
	unsigned switch_lat;     /* cycles inside the switch */
	unsigned cable_lat;      /* cycles on each cable */
	unsigned mem_lat;        /* host memory latency, cycles */
	unsigned overhead;       /* preamble + SFD + IFG bytes per frame */
	const char *out;         /* results folder */
	const char *icarus_cmd;  /* command running the RTL pair under Icarus, or NULL */
	const char *vl_cmd;      /* the same testbench built by Verilator, or NULL */
	const char *tgsim;       /* tg-sim, for the attached-programs row, or NULL */
	unsigned tb_cycles;      /* cycles each RTL-pair run simulates */
	int plots;               /* gnuplot found */
};

#define BENCH_LATENCY    0x01u
#define BENCH_COMPARE    0x02u
#define BENCH_THROUGHPUT 0x04u
#define BENCH_SIZE       0x08u
#define BENCH_SIMSPEED   0x10u
#define BENCH_ALL        0x1fu

/* Order statistics of a sample (the array is sorted in place). */
struct dist {
	uint64_t min, med, p99, max;
	double mean;
	size_t n;
};

struct dist dist_of(uint64_t *v, size_t n);

/* A cluster for a benchmark: nodes, with the options' clock, links and
 * switch, and a device (TG_OPEN_DRIVER) on every node.  Exits on
 * failure. */
struct bench_cluster {
	struct tg_sim *sim;
	struct tg_dev *dev[TG_SIM_MAX_NODES];
	unsigned nodes;
};

void cluster_open(struct bench_cluster *c, const struct bench_opts *o, unsigned nodes);
void cluster_close(struct bench_cluster *c);

/* Read a CSR of dev; exits on failure. */
uint64_t csr(struct tg_dev *dev, uint64_t reg);

/* Nanoseconds of n cycles at the options' clock. */
double ns_of(const struct bench_opts *o, double cycles);

/* Seconds of the monotonic clock. */
double now_s(void);

/* Print the message and exit(1). */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* Open OUT/name for writing; exits on failure.  The caller fcloses. */
FILE *out_file(const struct bench_opts *o, const char *name);

/* Run gnuplot on OUT/name (a script written by the caller) unless it is
 * missing; prints which SVG was written. */
void plot(const struct bench_opts *o, const char *script, const char *svg);

/* Frame bytes on the wire for a payload of n bytes (FCS included, no
 * preamble or gap), from the frame format in tg_hw.h. */
unsigned frame_bytes(unsigned payload);

/* The benchmarks.  Each returns 0, or 1 if a check failed. */
int bench_latency(const struct bench_opts *o);
int bench_compare(const struct bench_opts *o);
int bench_throughput(const struct bench_opts *o);
int bench_size(const struct bench_opts *o);
int bench_simspeed(const struct bench_opts *o);

#endif /* TG_BENCH_H */
