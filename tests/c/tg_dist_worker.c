/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* One rank of test_dist's runs: a 16-node workload under mpirun, its facts (cycles, entries, counters, memory) written to a file per rank. */
#define _GNU_SOURCE
#include <mpi.h>

#include "tg_test.h"
#include "../../sim/tg_dist.h"

#define NODES      16u
#define MSGS       24u      /* REQs each node sends (times --scale) */
#define PERIOD     251u     /* cycles between a node's REQs (the links keep up) */
#define START      40000u   /* workload start, after every rank's set-up */
#define DRAIN      3000u    /* cycles after the last REQ */
#define FAULT_DRAIN 20u     /* ... times this with faults: retransmissions */
#define LONG_END   100000000u  /* failure tests: a run that outlasts them */
#define Q_LOG2     12u

static volatile sig_atomic_t stop_sig;

static void on_term(int sig)
{
	stop_sig = sig;
}

struct opts {
	const char *out, *place, *pcap;
	unsigned scale, timeout_ms;
	int faults, hang;
};

/* FNV-1a of a node's whole memory. */
static uint64_t mem_hash(const uint8_t *m, uint64_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (uint64_t i = 0; i < n; i++)
		h = (h ^ m[i]) * 0x100000001b3ULL;
	return h;
}

static void config(struct tg_sim_config *cfg, const struct opts *o)
{
	static const struct tg_sim_outage out = { .node = 3, .from = START + 2000,
						  .to = START + 4000 };

	t_config(cfg, NODES);
	alarm(0);               /* the harness times the whole job */
	cfg->mem_size = 1ULL << 20;
	cfg->link_latency = 12;
	if (o->faults) {
		/* every kind of fault, an outage, and the link layer that
		 * makes the workload survive them */
		cfg->link_layer = 1;
		cfg->drop_ppm = 20000;
		cfg->flip_ppm = 10000;
		cfg->dup_ppm = 10000;
		cfg->reorder_ppm = 10000;
		cfg->outages = &out;
		cfg->noutages = 1;
	}
	cfg->pcap_path = o->pcap;
}

/*
 * The workload: every node sends MSGS remote enqueues, node s at cycles
 * START + s * 5 + k * PERIOD, to nodes s+1, s+2, ... in turn, and polls
 * its own queue every cycle.  Each line is one fact, prefixed by the node,
 * so the lines of all ranks sorted equal those of one process.
 */
static int run(const struct opts *o, const struct tg_sim_dist *dist, FILE *f)
{
	struct tg_sim_config cfg;
	struct tg_sim *sim;
	struct tg_dev *d[NODES] = { 0 };
	struct tg_queue *q[NODES] = { 0 };
	unsigned got[NODES] = { 0 }, msgs = MSGS * o->scale;
	uint64_t qpa = 0, end = o->hang ? LONG_END :
		START + (uint64_t)msgs * PERIOD + DRAIN * (o->faults ? FAULT_DRAIN : 1u);
	int rc = 0;

	config(&cfg, o);
	cfg.dist = dist;
	sim = tg_sim_create(&cfg);
	if (!sim) {
		fprintf(stderr, "tg_sim_create: %s: %s\n", strerror(errno), tg_sim_error(NULL));
		return -errno;
	}
	fprintf(f, "cycles after bring-up %" PRIu64 "\n", tg_sim_cycles(sim));
	for (unsigned n = 0; n < NODES; n++) {
		if (!tg_sim_is_local(sim, n))
			continue;
		d[n] = tg_open_sim(sim, n, 0);
		q[n] = d[n] ? tg_queue_open(d[n], Q_LOG2, 8) : NULL;
		if (!q[n]) {
			fprintf(stderr, "node %u: open: %s\n", n, strerror(errno));
			rc = -EIO;
			goto out;
		}
		/* the same allocations on every node: one address for all */
		qpa = tg_queue_paddr(q[n]);
	}
	if (tg_sim_cycles(sim) >= START) {
		fprintf(stderr, "set-up ran to cycle %" PRIu64 ", past %u\n", tg_sim_cycles(sim),
			START);
		rc = -EIO;
		goto out;
	}
	if ((rc = tg_sim_step(sim, START - tg_sim_cycles(sim))))
		goto fail_step;
	if (o->hang) {
		int rank = 0;

		MPI_Comm_rank(MPI_COMM_WORLD, &rank);
		printf("rank %d pid %d running\n", rank, (int)getpid());
		fflush(stdout);
	}
	for (uint64_t c = START; c < end; c++) {
		for (unsigned s = 0; s < NODES; s++) {
			uint64_t v;
			unsigned k;

			if (!d[s])
				continue;
			if (c >= START + s * 5u && (c - START - s * 5u) % PERIOD == 0 &&
			    (k = (unsigned)((c - START - s * 5u) / PERIOD)) < msgs) {
				unsigned t = (s + 1u + k % (NODES - 1u)) % NODES;

				rc = tg_enq(d[s], t, qpa, (uint64_t)s << 32 | k);
				if (rc) {
					fprintf(stderr, "node %u: tg_enq: %s\n", s, tg_strerror(rc));
					goto out;
				}
			}
			while (tg_deq(q[s], &v, sizeof(v)) == 0)
				fprintf(f, "node %02u entry %03u cycle %" PRIu64 " from %" PRIu64
					" #%" PRIu64 "\n", s, got[s]++, c, v >> 32, v & 0xffffffffu);
		}
		if ((rc = tg_sim_step(sim, 1)))
			goto fail_step;
	}
	for (unsigned n = 0; n < NODES; n++) {
		struct tg_sim_stats st;

		if (!d[n])
			continue;
		tg_sim_get_stats(sim, n, &st);
		/* every counter but ff_cycles: a split rank's idle jumps stop
		 * at its peers' horizon (docs/distributed.md) */
		fprintf(f, "node %02u stats tx %" PRIu64 " bytes %" PRIu64 " rx %" PRIu64
			" unknown %" PRIu64 " malformed %" PRIu64 " drop %" PRIu64 " flip %" PRIu64
			" dup %" PRIu64 " held %" PRIu64 " congestion %" PRIu64 " down %" PRIu64
			" mem r %" PRIu64 " w %" PRIu64 " oob %" PRIu64 " proto %" PRIu64
			" host r %" PRIu64 " w %" PRIu64 " rej %" PRIu64 " at %" PRIu64 "\n", n,
			st.tx_frames, st.tx_bytes, st.rx_frames, st.drop_unknown, st.drop_malformed,
			st.drop_injected, st.corrupt_injected, st.dup_injected, st.reorder_injected,
			st.drop_congestion, st.drop_link_down, st.mem_reads, st.mem_writes,
			st.mem_oob, st.proto_errors, st.host_reads, st.host_writes,
			st.host_rejects, tg_sim_cycles(sim));
	}
	for (unsigned n = 0; n < NODES; n++) {
		tg_queue_close(q[n]);
		q[n] = NULL;
		tg_close(d[n]);
		d[n] = NULL;
		if (tg_sim_is_local(sim, n))
			fprintf(f, "node %02u memory %016" PRIx64 "\n", n,
				mem_hash(tg_sim_mem(sim, n), tg_sim_mem_size(sim)));
	}
	if ((rc = tg_sim_end(sim)))
		fprintf(stderr, "tg_sim_end: %s\n", tg_sim_error(sim));
	goto out;

fail_step:
	{
		int rank = 0;

		MPI_Comm_rank(MPI_COMM_WORLD, &rank);
		fprintf(stderr, "rank %d: stopped at cycle %" PRIu64 ": %s\n", rank,
			tg_sim_cycles(sim), tg_sim_error(sim));
	}
out:
	for (unsigned n = 0; n < NODES; n++) {
		tg_queue_close(q[n]);
		tg_close(d[n]);
	}
	if (!rc)
		tg_sim_destroy(sim);
	return rc;
}

int main(int argc, char **argv)
{
	struct opts o = { .scale = 1 };
	struct tg_sim_dist dist;
	uint8_t owner[NODES];
	struct tg_dist *link = NULL;
	char path[4096], err[256];
	int rank = 0, ranks = 1, rc;
	FILE *f;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--out") && i + 1 < argc)
			o.out = argv[++i];
		else if (!strcmp(argv[i], "--place") && i + 1 < argc)
			o.place = argv[++i];
		else if (!strcmp(argv[i], "--pcap") && i + 1 < argc)
			o.pcap = argv[++i];
		else if (!strcmp(argv[i], "--scale") && i + 1 < argc)
			o.scale = (unsigned)atoi(argv[++i]);
		else if (!strcmp(argv[i], "--timeout-ms") && i + 1 < argc)
			o.timeout_ms = (unsigned)atoi(argv[++i]);
		else if (!strcmp(argv[i], "--faults"))
			o.faults = 1;
		else if (!strcmp(argv[i], "--hang"))
			o.hang = 1;
		else {
			fprintf(stderr, "tg_dist_worker: bad argument '%s'\n", argv[i]);
			return 2;
		}
	}
	if (!o.out || !o.scale) {
		fprintf(stderr, "tg_dist_worker: --out PREFIX needed\n");
		return 2;
	}
	signal(SIGTERM, on_term);
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &ranks);
	snprintf(path, sizeof(path), "%s.%d", o.out, rank);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	if (ranks > 1) {
		if (tg_dist_place(o.place, NODES, (unsigned)ranks, owner, err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
		link = tg_dist_mpi_open(MPI_COMM_WORLD, o.timeout_ms, &stop_sig, err, sizeof(err));
		if (!link) {
			fprintf(stderr, "rank %d: %s\n", rank, err);
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
		dist = (struct tg_sim_dist){ .owner = owner, .link = link };
	}
	rc = run(&o, link ? &dist : NULL, f);
	fclose(f);
	if (rc) {
		/* say which rank stopped this one, then end the job */
		fprintf(stderr, "rank %d failed (%s)\n", rank, strerror(-rc));
		fflush(NULL);
		if (stop_sig)
			_exit(3);
		MPI_Abort(MPI_COMM_WORLD, 3);
	}
	tg_dist_close(link);
	MPI_Finalize();
	return 0;
}
