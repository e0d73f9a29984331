/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* tg-dsim-bench: simulated cycles per second of one cluster over 1, 2, 4... MPI ranks, and the parallel efficiency. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tg/sim.h"
#include "tg/tg.h"
#include "tg_dist.h"

#define MAX_LIST   8u
#define MAX_REPS   16u
#define WRITE_LEN  64u
#define NAP_NS     1000000L   /* a rank outside the run naps this long between looks */

struct opts {
	unsigned nodes[MAX_LIST], nnodes, ranks[MAX_LIST], nranks;
	unsigned reps, latency, period;
	int no_ff;                  /* evaluate every cycle, idle or not */
	uint64_t cycles;            /* for 16 nodes; scaled by 16 / nodes */
};

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double now_s(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

/*
 * One rank's part of a run: its nodes each post a 64-byte write every
 * `period` cycles to the next node in turn, for `cycles` cycles after
 * bring-up.  Returns the wall time of those cycles, or a negative value.
 */
static double run(const struct opts *o, unsigned nodes, uint64_t cycles,
		  const struct tg_sim_dist *dist, double *wait, double *cpu)
{
	uint64_t m0, m1;
	double w0 = 0, w1 = 0;
	struct tg_sim_config cfg;
	struct tg_sim *sim;
	struct tg_dev *d[TG_SIM_MAX_NODES] = { 0 };
	struct tg_mr *mr[TG_SIM_MAX_NODES] = { 0 };
	uint8_t buf[WRITE_LEN];
	uint64_t pa = 0, c0;
	double t0, t = -1;

	tg_sim_config_init(&cfg);
	cfg.nodes = nodes;
	cfg.mem_size = 1ULL << 20;
	cfg.link_latency = o->latency;
	cfg.fast_forward = !o->no_ff;
	cfg.dist = dist;
	sim = tg_sim_create(&cfg);
	if (!sim) {
		fprintf(stderr, "tg-dsim-bench: %s: %s\n", strerror(errno), tg_sim_error(NULL));
		return -1;
	}
	memset(buf, 0x5a, sizeof(buf));
	for (unsigned n = 0; n < nodes; n++) {
		if (!tg_sim_is_local(sim, n))
			continue;
		d[n] = tg_open_sim(sim, n, 0);
		mr[n] = d[n] ? tg_mr_alloc(d[n], 4096, 0) : NULL;
		if (!mr[n]) {
			fprintf(stderr, "tg-dsim-bench: node %u: %s\n", n, strerror(errno));
			goto out;
		}
		pa = tg_mr_paddr(mr[n]);   /* the same on every node */
	}
	/* every rank starts timing at the same simulated cycle */
	if (tg_sim_step(sim, 20000 - tg_sim_cycles(sim)))
		goto fail;
	c0 = tg_sim_cycles(sim);
	tg_dist_counts(dist ? dist->link : NULL, &m0, &w0);
	*cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	t0 = now_s();
	for (uint64_t c = 0; c < cycles; c++) {
		for (unsigned n = 0; n < nodes; n++)
			if (d[n] && (c + n) % o->period == 0)
				tg_write(d[n], (unsigned)((n + 1 + c / o->period % (nodes - 1)) % nodes),
					 pa, buf, sizeof(buf));
		if (tg_sim_step(sim, 1))
			goto fail;
	}
	t = now_s() - t0;
	*cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID) - *cpu;
	tg_dist_counts(dist ? dist->link : NULL, &m1, &w1);
	*wait = w1 - w0;
	if (tg_sim_cycles(sim) - c0 != cycles)
		t = -1;
	goto out;
fail:
	fprintf(stderr, "tg-dsim-bench: %s\n", tg_sim_error(sim));
	t = -1;
out:
	for (unsigned n = 0; n < nodes; n++) {
		tg_mr_free(mr[n]);
		tg_close(d[n]);
	}
	if (tg_sim_end(sim)) {
		fprintf(stderr, "tg-dsim-bench: %s\n", tg_sim_error(sim));
		t = -1;
	}
	tg_sim_destroy(sim);
	return t;
}

/* Everybody meets; ranks outside a run nap instead of spinning, so that
 * the ranks inside it have the cores. */
static void meet(void)
{
	MPI_Request req;
	int done = 0;

	MPI_Ibarrier(MPI_COMM_WORLD, &req);
	for (;;) {
		struct timespec ts = { 0, NAP_NS };

		MPI_Test(&req, &done, MPI_STATUS_IGNORE);
		if (done)
			return;
		nanosleep(&ts, NULL);
	}
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static unsigned parse_list(const char *s, unsigned *out)
{
	unsigned n = 0;

	while (s && *s && n < MAX_LIST) {
		char *end;

		out[n++] = (unsigned)strtoul(s, &end, 10);
		s = *end == ',' ? end + 1 : NULL;
	}
	return n;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "nodes", required_argument, NULL, 'n' },
		{ "ranks", required_argument, NULL, 'k' },
		{ "cycles", required_argument, NULL, 'c' },
		{ "reps", required_argument, NULL, 'r' },
		{ "link-latency", required_argument, NULL, 'l' },
		{ "period", required_argument, NULL, 'P' },
		{ "no-fast-forward", no_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { .reps = 3, .latency = 10, .period = 200, .cycles = 100000 };
	int c, size, rank, bad = 0;
	double base = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	o.nnodes = parse_list("16,64", o.nodes);
	o.nranks = parse_list("1,2,4", o.ranks);
	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c) {
		case 'n': o.nnodes = parse_list(optarg, o.nodes); break;
		case 'k': o.nranks = parse_list(optarg, o.ranks); break;
		case 'c': o.cycles = strtoull(optarg, NULL, 0); break;
		case 'r': o.reps = (unsigned)strtoul(optarg, NULL, 0); break;
		case 'l': o.latency = (unsigned)strtoul(optarg, NULL, 0); break;
		case 'P': o.period = (unsigned)strtoul(optarg, NULL, 0); break;
		case 'F': o.no_ff = 1; break;
		case 'h':
			if (rank == 0)
				printf("usage: mpirun -np K tg-dsim-bench [--nodes 16,64] [--ranks 1,2,4]\n"
				       "       [--cycles C] [--reps R] [--link-latency L] [--period P]\n"
				       "Simulated cycles per second of each cluster (each node posting a\n"
				       "64-byte write every P cycles; C cycles at 16 nodes, fewer in\n"
				       "proportion for more) over each number of ranks up to K, the\n"
				       "median of R runs, with the speed-up and parallel efficiency.\n");
			MPI_Finalize();
			return 0;
		default:
			bad = 1;
		}
	}
	for (unsigned i = 0; i < o.nnodes; i++)
		bad |= o.nodes[i] < 2 || o.nodes[i] > TG_SIM_MAX_NODES;
	for (unsigned i = 0; i < o.nranks; i++)
		bad |= !o.ranks[i] || o.ranks[i] > (unsigned)size;
	if (bad || !o.nnodes || !o.nranks || !o.reps || o.reps > MAX_REPS || !o.cycles ||
	    !o.period) {
		if (rank == 0)
			fprintf(stderr, "tg-dsim-bench: bad arguments, or more ranks asked than "
				"mpirun -np gives (see --help)\n");
		MPI_Finalize();
		return 2;
	}
	if (rank == 0)
		printf("%-6s %-6s %14s %9s %12s %11s %6s\n", "nodes", "ranks", "cycles/s",
		       "speed-up", "efficiency", "waiting", "cores");
	for (unsigned i = 0; i < o.nnodes; i++) {
		unsigned nodes = o.nodes[i];
		uint64_t cycles = o.cycles * 16u / nodes;

		for (unsigned j = 0; j < o.nranks; j++) {
			unsigned k = o.ranks[j];
			double t[MAX_REPS], waited[MAX_REPS], cores[MAX_REPS], worst;
			MPI_Comm sub;
			struct tg_dist *link = NULL;
			uint8_t owner[TG_SIM_MAX_NODES];
			struct tg_sim_dist dist = { .owner = owner };
			char err[256];

			MPI_Comm_split(MPI_COMM_WORLD, (unsigned)rank < k ? 0 : MPI_UNDEFINED, rank,
				       &sub);
			if (sub != MPI_COMM_NULL && k > 1) {
				tg_dist_place("block", nodes, k, owner, err, sizeof(err));
				link = tg_dist_mpi_open(sub, 0, NULL, err, sizeof(err));
				if (!link) {
					fprintf(stderr, "tg-dsim-bench: %s\n", err);
					MPI_Abort(MPI_COMM_WORLD, 1);
				}
				dist.link = link;
			}
			for (unsigned r = 0; r < o.reps; r++) {
				if (sub != MPI_COMM_NULL) {
					double w = 0, cpu = 0, cpus = 0;
					double mine = run(&o, nodes, cycles, link ? &dist : NULL, &w, &cpu);
					double in[2] = { mine, w }, out[2];

					if (mine < 0)
						MPI_Abort(MPI_COMM_WORLD, 1);
					/* the run takes as long as its slowest rank; the
					 * rank that waited most says how coupled they are;
					 * the CPU time of all, how many cores they had */
					MPI_Reduce(in, out, 2, MPI_DOUBLE, MPI_MAX, 0, sub);
					MPI_Reduce(&cpu, &cpus, 1, MPI_DOUBLE, MPI_SUM, 0, sub);
					worst = out[0];
					t[r] = worst;
					waited[r] = out[1] / worst;
					cores[r] = cpus / worst;
				}
				meet();
			}
			if (sub != MPI_COMM_NULL) {
				tg_dist_close(link);
				MPI_Comm_free(&sub);
			}
			if (rank == 0) {
				double speed;

				qsort(t, o.reps, sizeof(t[0]), cmp_d);
				qsort(waited, o.reps, sizeof(waited[0]), cmp_d);
				qsort(cores, o.reps, sizeof(cores[0]), cmp_d);
				speed = (double)cycles / t[o.reps / 2];
				if (k == 1)
					base = speed;
				if (base > 0)
					printf("%-6u %-6u %14.0f %8.2fx %10.0f %% %9.0f %% %6.2f\n", nodes,
					       k, speed, speed / base, 100.0 * speed / base / k,
					       100.0 * waited[o.reps / 2], cores[o.reps / 2]);
				else
					printf("%-6u %-6u %14.0f %9s %12s %9.0f %% %6.2f\n", nodes, k, speed,
					       "-", "-", 100.0 * waited[o.reps / 2], cores[o.reps / 2]);
				fflush(stdout);
			}
		}
		base = 0;
	}
	if (rank == 0)
		printf("link latency %u (lookahead %u cycles), a 64-byte write per node every %u "
		       "cycles, %" PRIu64 " cycles at 16 nodes, median of %u\n", o.latency,
		       o.latency + 1, o.period, o.cycles, o.reps);
	MPI_Finalize();
	return 0;
}
