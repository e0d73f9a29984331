/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* tg-dsim-bench: simulated cycles per second of one cluster run in one process and split over several. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tg/sim.h"
#include "tg/tg.h"

#define MAX_PROCS  8u
#define WRITE_LEN  64u

struct opts {
	unsigned nodes, procs, reps, latency, period;
	uint64_t cycles;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/*
 * One process of a run: its nodes each post a 64-byte write every
 * `period` cycles to the next node in turn, for o->cycles cycles after
 * bring-up.  Returns the wall time of those cycles, or a negative value.
 */
static double run(const struct opts *o, const struct tg_sim_dist *dist)
{
	struct tg_sim_config cfg;
	struct tg_sim *sim;
	struct tg_dev *d[TG_SIM_MAX_NODES] = { 0 };
	struct tg_mr *mr[TG_SIM_MAX_NODES] = { 0 };
	uint8_t buf[WRITE_LEN];
	uint64_t pa = 0, c0;
	double t0, t = -1;

	tg_sim_config_init(&cfg);
	cfg.nodes = o->nodes;
	cfg.mem_size = 1ULL << 20;
	cfg.link_latency = o->latency;
	cfg.dist = dist;
	sim = tg_sim_create(&cfg);
	if (!sim) {
		fprintf(stderr, "tg-dsim-bench: %s: %s\n", strerror(errno), tg_sim_error(NULL));
		return -1;
	}
	memset(buf, 0x5a, sizeof(buf));
	for (unsigned n = 0; n < o->nodes; n++) {
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
	/* every process starts timing at the same simulated cycle */
	if (tg_sim_step(sim, 20000 - tg_sim_cycles(sim)))
		goto fail;
	c0 = tg_sim_cycles(sim);
	t0 = now_s();
	for (uint64_t c = 0; c < o->cycles; c++) {
		for (unsigned n = 0; n < o->nodes; n++)
			if (d[n] && (c + n) % o->period == 0)
				tg_write(d[n], (unsigned)((n + 1 + c / o->period % (o->nodes - 1)) %
							  o->nodes), pa, buf, sizeof(buf));
		if (tg_sim_step(sim, 1))
			goto fail;
	}
	t = now_s() - t0;
	if (tg_sim_cycles(sim) - c0 != o->cycles)
		t = -1;
	goto out;
fail:
	fprintf(stderr, "tg-dsim-bench: %s\n", tg_sim_error(sim));
out:
	for (unsigned n = 0; n < o->nodes; n++) {
		tg_mr_free(mr[n]);
		tg_close(d[n]);
	}
	tg_sim_destroy(sim);
	return t;
}

/* A run over k processes on 127.0.0.1; the wall time of the slowest. */
static double run_split(const struct opts *o, unsigned k)
{
	char addr_buf[MAX_PROCS][32];
	const char *addr[MAX_PROCS];
	uint8_t owner[TG_SIM_MAX_NODES];
	int sock[MAX_PROCS], pfd[2];
	pid_t pid[MAX_PROCS];
	double worst = 0;

	for (unsigned n = 0; n < o->nodes; n++)
		owner[n] = (uint8_t)(n * k / o->nodes);
	for (unsigned p = 0; p < k; p++) {
		struct sockaddr_in sa = { .sin_family = AF_INET };
		socklen_t sl = sizeof(sa);

		sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		sock[p] = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (sock[p] < 0 || bind(sock[p], (struct sockaddr *)&sa, sizeof(sa)) ||
		    getsockname(sock[p], (struct sockaddr *)&sa, &sl))
			return -1;
		snprintf(addr_buf[p], sizeof(addr_buf[p]), "127.0.0.1:%u", ntohs(sa.sin_port));
		addr[p] = addr_buf[p];
	}
	if (pipe(pfd))
		return -1;
	for (unsigned p = 0; p < k; p++) {
		pid[p] = fork();
		if (pid[p] == 0) {
			struct tg_sim_dist dist = { .procs = k, .self = p, .owner = owner,
						    .addr = addr, .sock = sock[p] };
			double t;

			for (unsigned q = 0; q < k; q++)
				if (q != p)
					close(sock[q]);
			t = run(o, &dist);
			_exit(write(pfd[1], &t, sizeof(t)) == sizeof(t) ? 0 : 1);
		}
	}
	close(pfd[1]);
	for (unsigned p = 0; p < k; p++)
		close(sock[p]);
	for (unsigned p = 0; p < k; p++) {
		double t;

		if (read(pfd[0], &t, sizeof(t)) != sizeof(t) || t < 0)
			worst = -1;
		else if (worst >= 0 && t > worst)
			worst = t;
	}
	close(pfd[0]);
	for (unsigned p = 0; p < k; p++)
		waitpid(pid[p], NULL, 0);
	return worst;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "nodes", required_argument, NULL, 'n' },
		{ "procs", required_argument, NULL, 'p' },
		{ "cycles", required_argument, NULL, 'c' },
		{ "reps", required_argument, NULL, 'r' },
		{ "link-latency", required_argument, NULL, 'l' },
		{ "period", required_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { .nodes = 16, .procs = 2, .reps = 3, .latency = 10, .period = 200,
			  .cycles = 100000 };
	double one[16], split[16];
	int c;

	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c) {
		case 'n': o.nodes = (unsigned)strtoul(optarg, NULL, 0); break;
		case 'p': o.procs = (unsigned)strtoul(optarg, NULL, 0); break;
		case 'c': o.cycles = strtoull(optarg, NULL, 0); break;
		case 'r': o.reps = (unsigned)strtoul(optarg, NULL, 0); break;
		case 'l': o.latency = (unsigned)strtoul(optarg, NULL, 0); break;
		case 'P': o.period = (unsigned)strtoul(optarg, NULL, 0); break;
		case 'h':
			printf("usage: tg-dsim-bench [--nodes N] [--procs K] [--cycles C] [--reps R]\n"
			       "                     [--link-latency L] [--period P]\n"
			       "Simulated cycles per second of an N-node cluster (each node posting a\n"
			       "64-byte write every P cycles) in one process and in K processes joined\n"
			       "by UDP on 127.0.0.1; R runs of each, alternated, median reported.\n");
			return 0;
		default:
			return 2;
		}
	}
	if (o.nodes < 2 || o.nodes > TG_SIM_MAX_NODES || o.procs < 2 || o.procs > MAX_PROCS ||
	    o.procs > o.nodes || !o.reps || o.reps > 16 || !o.cycles || !o.period) {
		fprintf(stderr, "tg-dsim-bench: bad arguments (see --help)\n");
		return 2;
	}
	for (unsigned r = 0; r < o.reps; r++) {
		one[r] = run(&o, NULL);
		split[r] = run_split(&o, o.procs);
		if (one[r] <= 0 || split[r] <= 0) {
			fprintf(stderr, "tg-dsim-bench: a run failed\n");
			return 1;
		}
		printf("run %u: 1 process %.3f s, %u processes %.3f s\n", r + 1, one[r], o.procs,
		       split[r]);
	}
	qsort(one, o.reps, sizeof(one[0]), cmp_d);
	qsort(split, o.reps, sizeof(split[0]), cmp_d);
	printf("%u nodes, link latency %u (lookahead %u cycles), %" PRIu64 " cycles, median of %u:\n",
	       o.nodes, o.latency, o.latency + 1, o.cycles, o.reps);
	printf("  1 process:   %9.0f cycles/s\n", (double)o.cycles / one[o.reps / 2]);
	printf("  %u processes: %9.0f cycles/s (x%.2f)\n", o.procs,
	       (double)o.cycles / split[o.reps / 2], one[o.reps / 2] / split[o.reps / 2]);
	return 0;
}
