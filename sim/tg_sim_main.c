/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* tg-sim: runs a simulated Telegraphos cluster that user processes attach to through shared memory. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tg/sim.h"
#include "tg/tg_hw.h"
#include "tg/tg_sim_proto.h"
#include "tg_dist.h"

#define BATCH_CYCLES   256u   /* cycles between looks at signals and limits */
#define REAP_NS        200000000ULL
#define MAX_OUTAGES    64u
#define MAX_LINKS      256u

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: tg-sim [options]\n"
		"  --nodes N                nodes in the cluster, 1..%u (default 2)\n"
		"  --mem-mib M              host memory per node in MiB (default 64)\n"
		"  --name NAME              shared-memory name clients use (default \"%s\")\n"
		"  --clock-mhz F            the NICs' clock (default %.3f: the %s's NIC core)\n"
		"  --link-latency C         cycles on each cable (default %u: %.0f ns)\n"
		"  --link-bytes-per-cycle B link bandwidth, 1..64 (default %u: Gigabit Ethernet at\n"
		"                           the default clock)\n"
		"  --switch-latency C       cycles in the switch after a frame is stored (default 0)\n"
		"  --mem-latency MIN:MAX    host memory response latency in cycles (default 4:4)\n"
		"  --mem-stall PCT          %% of cycles host memory refuses a request (default 0)\n"
		"  --link NODE:LAT:B        node NODE's cable: LAT cycles, B bytes per cycle\n"
		"                           (repeatable; others keep --link-latency and\n"
		"                           --link-bytes-per-cycle)\n"
		"  --buffer-bytes B         output buffer per switch port; frames that do not\n"
		"                           fit are dropped as congestion (default 0: unlimited)\n"
		"  --drop PCT               %% of frames the switch loses (default 0)\n"
		"  --corrupt PCT            %% of frames delivered with a bit flipped (default 0)\n"
		"  --drop-ppm N             frames per million lost (adds to --drop)\n"
		"  --flip-ppm N             frames per million with one bit flipped (adds to\n"
		"                           --corrupt)\n"
		"  --dup-ppm N              frames per million delivered twice\n"
		"  --reorder-ppm N          frames per million held back at their output port\n"
		"  --reorder-depth N        a held frame goes behind N later frames, 1..1000\n"
		"                           (default 1)\n"
		"  --reorder-hold C         ... or after C cycles if fewer come (default 2000)\n"
		"  --link-down NODE:FROM:TO node NODE's link is down in cycles [FROM, TO):\n"
		"                           frames from and to it are lost (repeatable)\n"
		"  --pcap-ingress           capture frames where they enter the switch, as\n"
		"                           sent; default: at the output ports, after faults\n"
		"  --spill-log2 N           REQ spill ring of 2^N entries per node, 0..16 (default 10)\n"
		"  --link-layer             every NIC numbers, acknowledges and retransmits its\n"
		"                           frames (needed with --drop, --corrupt and the other\n"
		"                           faults if nothing may be lost; default off)\n"
		"  --link-rto C             retransmission timeout in cycles, 1..2^32-1\n"
		"                           (default: the NIC's reset value of LINK_RTO)\n"
		"  --protect                every NIC refuses remote accesses that do not name\n"
		"                           an exported region with its key (docs/security.md;\n"
		"                           default off: any node reaches all of --mem)\n"
		"  --no-fast-forward        evaluate every NIC in every cycle, idle or not\n"
		"                           (default: idle time is skipped with the same\n"
		"                           results, docs/simulator.md)\n"
		"  --seed S                 seed of every random choice (default 1)\n"
		"  --pcap FILE              write the frames the switch forwards to FILE\n"
		"  --vcd FILE               waveforms, one file per node (FILE.N.vcd, or %%u in FILE)\n"
		"  --cycles N               stop after N cycles\n"
		"  --place RULE             under mpirun -np K: which rank hosts which node:\n"
		"                           block (default: node n on rank n*K/N), cyclic\n"
		"                           (n mod K), or one node list per rank, like\n"
		"                           0-3,8/4-7,9 (docs/distributed.md)\n"
		"  --peer-timeout MS        under mpirun: a rank silent this long while awaited\n"
		"                           ends the run (default 5000)\n"
		"  --bridge IF              copy the frames the switch forwards to Linux interface\n"
		"                           IF, and take Telegraphos frames for our nodes from it\n"
		"  --bridge-rank R          under mpirun: the rank that opens --bridge (default 0)\n"
		"  --quiet                  print only errors and the ready line\n"
		"  --help                   this text\n",
		TG_SIM_MAX_NODES, TG_SIMP_DEFAULT_NAME, 1e6 / TG_BOARD_CORE_PS, TG_BOARD_NAME,
		TG_BOARD_CABLE_CYCLES, TG_BOARD_CABLE_CYCLES * TG_BOARD_CORE_PS / 1000.0,
		TG_BOARD_LINK_BYTES);
}

static int parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/* "A:B:C", three numbers. */
static int parse_triple(const char *s, uint64_t out[3])
{
	char buf[96], *p = buf, *c;

	if (snprintf(buf, sizeof(buf), "%s", s) >= (int)sizeof(buf))
		return -1;
	for (int i = 0; i < 3; i++) {
		c = strchr(p, ':');
		if ((i < 2) != (c != NULL))
			return -1;
		if (c)
			*c = 0;
		if (parse_u64(p, 0, UINT64_MAX, &out[i]))
			return -1;
		p = c ? c + 1 : p;
	}
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int bad_arg(const char *opt, const char *val)
{
	fprintf(stderr, "tg-sim: bad value for --%s: '%s'\n", opt, val ? val : "");
	usage(stderr);
	return 2;
}

struct run_opts {
	const char *name;
	const char *tag;              /* "tg-sim" or "tg-sim[R]" */
	const char *place;            /* --place rule */
	int quiet;
	uint64_t max_cycles;
	unsigned nlinks;
	unsigned (*link_spec)[3];
	struct tg_dist *link;         /* the other ranks, or NULL */
};

static int serve(struct tg_sim_config *cfg, const struct run_opts *o);

/* Started by an MPI launcher (mpirun, or srun with PMI or PMIx)?  Only
 * then is MPI initialized: a plain tg-sim is one process, as always. */
static int under_mpi(void)
{
	return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_RANK");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "nodes", required_argument, NULL, 'n' },
		{ "mem-mib", required_argument, NULL, 'm' },
		{ "name", required_argument, NULL, 'N' },
		{ "clock-mhz", required_argument, NULL, 1016 },
		{ "link-latency", required_argument, NULL, 'l' },
		{ "link-bytes-per-cycle", required_argument, NULL, 'b' },
		{ "switch-latency", required_argument, NULL, 'W' },
		{ "mem-latency", required_argument, NULL, 'L' },
		{ "mem-stall", required_argument, NULL, 'S' },
		{ "seed", required_argument, NULL, 's' },
		{ "drop", required_argument, NULL, 'D' },
		{ "corrupt", required_argument, NULL, 'C' },
		{ "spill-log2", required_argument, NULL, 'R' },
		{ "pcap", required_argument, NULL, 'p' },
		{ "pcap-ingress", no_argument, NULL, 'I' },
		{ "link", required_argument, NULL, 'k' },
		{ "buffer-bytes", required_argument, NULL, 'B' },
		{ "drop-ppm", required_argument, NULL, 1000 },
		{ "flip-ppm", required_argument, NULL, 1001 },
		{ "dup-ppm", required_argument, NULL, 1002 },
		{ "reorder-ppm", required_argument, NULL, 1003 },
		{ "reorder-depth", required_argument, NULL, 1004 },
		{ "reorder-hold", required_argument, NULL, 1005 },
		{ "link-down", required_argument, NULL, 1006 },
		{ "link-layer", no_argument, NULL, 1012 },
		{ "link-rto", required_argument, NULL, 1013 },
		{ "protect", no_argument, NULL, 1014 },
		{ "no-fast-forward", no_argument, NULL, 1015 },
		{ "vcd", required_argument, NULL, 'v' },
		{ "cycles", required_argument, NULL, 'c' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "place", required_argument, NULL, 1007 },
		{ "bridge-rank", required_argument, NULL, 1008 },
		{ "peer-timeout", required_argument, NULL, 1010 },
		{ "bridge", required_argument, NULL, 1011 },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct tg_sim_config cfg;
	struct sigaction sa;
	uint64_t v, max_cycles = 0;
	const char *name = TG_SIMP_DEFAULT_NAME, *place = NULL, *bridge = NULL;
	int quiet = 0, opt, mpi = 0, ranks = 1, rank = 0, rc;
	static struct tg_sim_outage outages[MAX_OUTAGES];
	static unsigned link_spec[MAX_LINKS][3];
	static uint8_t owner[TG_SIM_MAX_NODES];
	static struct tg_sim_dist dist;
	static char tag[32];
	unsigned nlinks = 0, timeout_ms = 0, bridge_rank = 0;
	uint64_t f3[3];
	struct run_opts ro;
	char err[256];

	tg_sim_config_init(&cfg);
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'n':
			if (parse_u64(optarg, 1, TG_SIM_MAX_NODES, &v))
				return bad_arg("nodes (1..256)", optarg);
			cfg.nodes = (unsigned)v;
			break;
		case 'm':
			/* MEM_SIZE is a 32-bit register: below 4 GiB */
			if (parse_u64(optarg, 1, 4095, &v))
				return bad_arg("mem-mib (1..4095)", optarg);
			cfg.mem_size = v << 20;
			break;
		case 'N':
			if (!*optarg || strlen(optarg) >= TG_SIMP_NAME_MAX ||
			    strchr(optarg, '/'))
				return bad_arg("name", optarg);
			name = optarg;
			break;
		case 1016: {
			char *end;
			double mhz = strtod(optarg, &end);

			if (end == optarg || *end || !(mhz >= 1.0 && mhz <= 10000.0))
				return bad_arg("clock-mhz (1..10000)", optarg);
			cfg.ps_per_cycle = (unsigned)lround(1e6 / mhz);
			break;
		}
		case 'l':
			if (parse_u64(optarg, 0, 1000000, &v))
				return bad_arg("link-latency (0..1000000)", optarg);
			cfg.link_latency = (unsigned)v;
			break;
		case 'W':
			if (parse_u64(optarg, 0, 1000000, &v))
				return bad_arg("switch-latency (0..1000000)", optarg);
			cfg.switch_latency = (unsigned)v;
			break;
		case 'b':
			if (parse_u64(optarg, 1, 64, &v))
				return bad_arg("link-bytes-per-cycle (1..64)", optarg);
			cfg.link_bytes_per_cycle = (unsigned)v;
			break;
		case 'L': {
			char buf[64], *colon;
			uint64_t lo, hi;

			snprintf(buf, sizeof(buf), "%s", optarg);
			colon = strchr(buf, ':');
			if (!colon)
				return bad_arg("mem-latency", optarg);
			*colon = 0;
			if (parse_u64(buf, 1, 100000, &lo) || parse_u64(colon + 1, lo, 100000, &hi))
				return bad_arg("mem-latency", optarg);
			cfg.mem_lat_min = (unsigned)lo;
			cfg.mem_lat_max = (unsigned)hi;
			break;
		}
		case 'S':
			if (parse_u64(optarg, 0, 99, &v))
				return bad_arg("mem-stall (0..99)", optarg);
			cfg.mem_stall_pct = (unsigned)v;
			break;
		case 'D':
			if (parse_u64(optarg, 0, 100, &v))
				return bad_arg("drop (0..100)", optarg);
			cfg.drop_pct = (unsigned)v;
			break;
		case 1012:
			cfg.link_layer = 1;
			break;
		case 1014:
			cfg.protect = 1;
			break;
		case 1015:
			cfg.fast_forward = 0;
			break;
		case 1013:
			if (parse_u64(optarg, 1, 0xFFFFFFFFULL, &v))
				return bad_arg("link-rto (1..4294967295)", optarg);
			cfg.link_rto = (uint32_t)v;
			break;
		case 'R':
			if (parse_u64(optarg, 0, TG_SPILL_MAX_LOG2, &v))
				return bad_arg("spill-log2 (0..16)", optarg);
			cfg.spill_log2 = (unsigned)v;
			break;
		case 'C':
			if (parse_u64(optarg, 0, 100, &v))
				return bad_arg("corrupt (0..100)", optarg);
			cfg.corrupt_pct = (unsigned)v;
			break;
		case 's':
			if (parse_u64(optarg, 0, UINT64_MAX, &v))
				return bad_arg("seed", optarg);
			cfg.seed = v;
			break;
		case 'p':
			cfg.pcap_path = optarg;
			break;
		case 'I':
			cfg.pcap_ingress = 1;
			break;
		case 'k':
			if (nlinks >= MAX_LINKS || parse_triple(optarg, f3) ||
			    f3[0] >= TG_SIM_MAX_NODES || f3[1] > 1000000 || f3[2] < 1 || f3[2] > 64)
				return bad_arg("link (NODE:LATENCY:BYTES_PER_CYCLE)", optarg);
			link_spec[nlinks][0] = (unsigned)f3[0];
			link_spec[nlinks][1] = (unsigned)f3[1];
			link_spec[nlinks][2] = (unsigned)f3[2];
			nlinks++;
			break;
		case 'B':
			if (parse_u64(optarg, 0, UINT32_MAX, &v))
				return bad_arg("buffer-bytes", optarg);
			cfg.buffer_bytes = (uint32_t)v;
			break;
		case 1000: case 1001: case 1002: case 1003:
			if (parse_u64(optarg, 0, 1000000, &v))
				return bad_arg("...-ppm (0..1000000)", optarg);
			if (opt == 1000)
				cfg.drop_ppm = (uint32_t)v;
			else if (opt == 1001)
				cfg.flip_ppm = (uint32_t)v;
			else if (opt == 1002)
				cfg.dup_ppm = (uint32_t)v;
			else
				cfg.reorder_ppm = (uint32_t)v;
			break;
		case 1004:
			if (parse_u64(optarg, 1, 1000, &v))
				return bad_arg("reorder-depth (1..1000)", optarg);
			cfg.reorder_depth = (unsigned)v;
			break;
		case 1005:
			if (parse_u64(optarg, 1, 1000000, &v))
				return bad_arg("reorder-hold (1..1000000)", optarg);
			cfg.reorder_hold_cycles = (unsigned)v;
			break;
		case 1006:
			if (cfg.noutages >= MAX_OUTAGES || parse_triple(optarg, f3) ||
			    f3[0] >= TG_SIM_MAX_NODES || f3[2] <= f3[1])
				return bad_arg("link-down (NODE:FROM:TO, FROM < TO)", optarg);
			outages[cfg.noutages++] = (struct tg_sim_outage){ (unsigned)f3[0], f3[1],
									 f3[2] };
			cfg.outages = outages;
			break;
		case 'v':
			cfg.vcd_path = optarg;
			break;
		case 'c':
			if (parse_u64(optarg, 1, UINT64_MAX, &max_cycles))
				return bad_arg("cycles", optarg);
			break;
		case 'q':
			quiet = 1;
			break;
		case 1007:
			place = optarg;
			break;
		case 1008:
			if (parse_u64(optarg, 0, TG_SIM_MAX_NODES - 1, &v))
				return bad_arg("bridge-rank (0..255)", optarg);
			bridge_rank = (unsigned)v;
			break;
		case 1011:
			bridge = optarg;
			break;
		case 1010:
			if (parse_u64(optarg, 1, 3600000, &v))
				return bad_arg("peer-timeout (1..3600000 ms)", optarg);
			timeout_ms = (unsigned)v;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			fprintf(stderr, "tg-sim: unknown or incomplete option '%s'\n",
				argv[optind - 1]);
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "tg-sim: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return 2;
	}
	for (unsigned i = 0; i < cfg.noutages; i++)
		if (outages[i].node >= cfg.nodes) {
			fprintf(stderr, "tg-sim: --link-down: no node %u\n", outages[i].node);
			return 2;
		}
	for (unsigned i = 0; i < nlinks; i++)
		if (link_spec[i][0] >= cfg.nodes) {
			fprintf(stderr, "tg-sim: --link: no node %u\n", link_spec[i][0]);
			return 2;
		}
	if ((uint64_t)cfg.drop_pct * 10000u + cfg.drop_ppm > 1000000u ||
	    (uint64_t)cfg.corrupt_pct * 10000u + cfg.flip_ppm > 1000000u) {
		fprintf(stderr, "tg-sim: --drop/--drop-ppm or --corrupt/--flip-ppm add up to more "
			"than every frame\n");
		return 2;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	ro = (struct run_opts){ .name = name, .tag = "tg-sim", .place = place, .quiet = quiet,
				.max_cycles = max_cycles, .nlinks = nlinks, .link_spec = link_spec };
	if (under_mpi()) {
		MPI_Init(&argc, &argv);
		MPI_Comm_size(MPI_COMM_WORLD, &ranks);
		MPI_Comm_rank(MPI_COMM_WORLD, &rank);
		mpi = 1;
	}
	if ((unsigned)ranks <= bridge_rank) {
		if (rank == 0)
			fprintf(stderr, "tg-sim: --bridge-rank %u: no such rank, the job has %d "
				"(0..%d)\n", bridge_rank, ranks, ranks - 1);
		if (mpi)
			MPI_Finalize();
		return 2;
	}
	if (!mpi || ranks == 1) {
		cfg.bridge_if = bridge;
		if (place && (rc = tg_dist_place(place, cfg.nodes, 1, owner, err, sizeof(err)))) {
			fprintf(stderr, "tg-sim: --place: %s\n", err);
			rc = 2;
		} else {
			rc = serve(&cfg, &ro);
		}
		if (mpi)
			MPI_Finalize();
		return rc;
	}
	/* one rank of a split cluster: every rank checks the same options */
	snprintf(tag, sizeof(tag), "tg-sim[%d]", rank);
	ro.tag = tag;
	if (tg_dist_place(place, cfg.nodes, (unsigned)ranks, owner, err, sizeof(err))) {
		if (rank == 0)
			fprintf(stderr, "tg-sim: --place: %s\n", err);
		MPI_Finalize();
		return 2;
	}
	if (strlen(name) + 4 >= TG_SIMP_NAME_MAX) {
		if (rank == 0)
			fprintf(stderr, "tg-sim: --name: at most %u characters under mpirun\n",
				TG_SIMP_NAME_MAX - 5);
		MPI_Finalize();
		return 2;
	}
	if ((unsigned)rank == bridge_rank)
		cfg.bridge_if = bridge;
	ro.link = tg_dist_mpi_open(MPI_COMM_WORLD, timeout_ms, &stop_signal, err, sizeof(err));
	if (!ro.link) {
		fprintf(stderr, "%s: %s\n", tag, err);
		MPI_Abort(MPI_COMM_WORLD, 1);
		return 1;
	}
	dist = (struct tg_sim_dist){ .owner = owner, .link = ro.link };
	cfg.dist = &dist;
	rc = serve(&cfg, &ro);
	if (rc) {
		/* the ranks cannot end in step: the launcher ends the job */
		fflush(NULL);
		MPI_Abort(MPI_COMM_WORLD, rc);
		return rc;
	}
	tg_dist_close(ro.link);
	MPI_Finalize();
	return 0;
}

/* Node list of rank r as ranges: "0-2,5". */
static void node_list(const struct tg_sim_config *cfg, unsigned r, char *list, size_t size)
{
	size_t len = 0;

	list[0] = 0;
	for (unsigned n = 0; n < cfg->nodes; n++) {
		unsigned m = n;

		if (cfg->dist->owner[n] != r)
			continue;
		while (m + 1 < cfg->nodes && cfg->dist->owner[m + 1] == r)
			m++;
		if (len < size)
			len += (size_t)snprintf(list + len, size - len, m > n ? "%s%u-%u" : "%s%u",
						len ? "," : "", n, m);
		n = m;
	}
}

/* Rank 0 says which rank hosts which nodes, on which machine. */
static void say_placement(const struct tg_sim_config *cfg, const struct run_opts *o)
{
	const struct tg_dist_ops *ops = o->link->ops;
	unsigned ranks = ops->ranks(o->link);
	int *pids = calloc(ranks, sizeof(int)), pid = (int)getpid();
	char list[1024];

	MPI_Gather(&pid, 1, MPI_INT, pids, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (ops->self(o->link) != 0 || o->quiet || !pids) {
		free(pids);
		return;
	}
	printf("tg-sim: %u nodes over %u ranks (placement %s), %" PRIu64 " MiB each, name \"%s\"\n",
	       cfg->nodes, ranks, o->place ? o->place : "block", cfg->mem_size >> 20, o->name);
	for (unsigned r = 0; r < ranks; r++) {
		node_list(cfg, r, list, sizeof(list));
		printf("tg-sim: rank %u on %s (pid %d): nodes %s\n", r, ops->host(o->link, r),
		       pids[r], list);
	}
	free(pids);
}

/* Run one simulator process until --cycles, a signal, or a failure. */
static int serve(struct tg_sim_config *cfg, const struct run_opts *o)
{
	struct tg_sim_stats st;
	struct tg_sim *sim;
	uint64_t start_cycles;
	double t0, t1, last_reap;
	const char *tag = o->tag;
	int rc = 0;

	cfg->shm_name = o->name;
	sim = tg_sim_create(cfg);
	if (!sim) {
		int e = errno;

		fprintf(stderr, "%s: cannot start the cluster: %s%s%s\n", tag, strerror(e),
			e == EEXIST ? " (a simulator of this name is running; use --name)" :
			e == ETIMEDOUT && !cfg->dist ? " (a NIC did not answer its driver)" :
			e == EPROTO && !cfg->dist ? " (a NIC reports a foreign ID or version)" :
			(e == ENOENT || e == EACCES || e == EISDIR || e == EROFS) &&
			(cfg->pcap_path || cfg->vcd_path) ? " (check the --pcap / --vcd file names)" :
			*tg_sim_error(NULL) ? ": " : "", tg_sim_error(NULL));
		return 1;
	}
	for (unsigned i = 0; i < o->nlinks; i++) {
		rc = tg_sim_set_link(sim, o->link_spec[i][0], o->link_spec[i][1],
				     o->link_spec[i][2]);
		if (rc) {
			fprintf(stderr, "%s: --link %u:%u:%u: %s%s\n", tag, o->link_spec[i][0],
				o->link_spec[i][1], o->link_spec[i][2], strerror(-rc),
				rc == -EOPNOTSUPP ? " (a split cluster keeps one link latency)" :
				"");
			tg_sim_destroy(sim);
			return 2;
		}
	}
	if (cfg->dist) {
		say_placement(cfg, o);
		/* ready when every rank is */
		MPI_Barrier(MPI_COMM_WORLD);
		if (o->link->ops->self(o->link) == 0)
			printf("tg-sim: ready\n");
	} else {
		if (!o->quiet)
			printf("%s: %u nodes, %" PRIu64 " MiB each, name \"%s\"\n", tag, cfg->nodes,
			       cfg->mem_size >> 20, o->name);
		/* scripts wait for this line */
		printf("%s: ready\n", tag);
	}
	fflush(stdout);

	start_cycles = tg_sim_cycles(sim);
	t0 = now_s();
	last_reap = t0;
	while (!stop_signal && !rc) {
		uint64_t n = BATCH_CYCLES;

		if (o->max_cycles) {
			uint64_t done = tg_sim_cycles(sim);

			if (done >= o->max_cycles)
				break;
			if (o->max_cycles - done < n)
				n = o->max_cycles - done;
		}
		rc = tg_sim_step(sim, n);
		if (rc) {
			fprintf(stderr, "%s: stopped at cycle %" PRIu64 ": %s\n", tag,
				tg_sim_cycles(sim), tg_sim_error(sim));
			/* a signal while waiting for a rank, or a rank that
			 * stopped (on the same signal): a stop like any */
			if ((rc == -EINTR && stop_signal) || rc == -EPIPE)
				rc = 0;
			else
				rc = 1;
			break;
		}
		if ((tg_sim_cycles(sim) & 0xffffu) < BATCH_CYCLES) {
			double t = now_s();

			if (t - last_reap > REAP_NS * 1e-9) {
				tg_sim_reap(sim);
				last_reap = t;
			}
		}
	}
	t1 = now_s();
	if (!o->quiet) {
		struct tg_sim_qstats qs;
		uint64_t cyc = tg_sim_cycles(sim) - start_cycles;
		double dt = t1 - t0 > 0 ? t1 - t0 : 1e-9;

		tg_sim_get_stats(sim, TG_SIM_ALL_NODES, &st);
		printf("%s: stopping%s\n", tag, stop_signal ? " (signal)" : "");
		printf("%s: %" PRIu64 " cycles in %.3f s: %.0f cycles/s\n", tag, cyc, dt,
		       (double)cyc / dt);
		if (st.ff_cycles)
			printf("%s: %" PRIu64 " node-cycles fast-forwarded (idle NICs, no program "
			       "attached)\n", tag, st.ff_cycles);
		printf("%s: frames %" PRIu64 ", bytes %" PRIu64 ", dropped unknown %" PRIu64
		       ", malformed %" PRIu64 ", lost %" PRIu64 ", corrupted %" PRIu64
		       ", NIC rule breaks %" PRIu64 "\n", tag,
		       st.tx_frames, st.tx_bytes, st.drop_unknown, st.drop_malformed,
		       st.drop_injected, st.corrupt_injected, st.proto_errors);
		if (st.dup_injected || st.reorder_injected || st.drop_congestion ||
		    st.drop_link_down)
			printf("%s: duplicated %" PRIu64 ", held back %" PRIu64 ", congestion "
			       "drops %" PRIu64 ", lost on down links %" PRIu64 "\n", tag,
			       st.dup_injected, st.reorder_injected, st.drop_congestion,
			       st.drop_link_down);
		if (cfg->bridge_if) {
			struct tg_sim_bridge_stats bs;

			tg_sim_get_bridge_stats(sim, &bs);
			printf("%s: bridge %s: sent %" PRIu64 ", received %" PRIu64 ", ignored %"
			       PRIu64 ", lost %" PRIu64 "\n", tag, cfg->bridge_if, bs.sent,
			       bs.received, bs.ignored, bs.lost);
		}
		tg_sim_get_qstats(sim, TG_SIM_ALL_NODES, &qs);
		if (qs.overflows || qs.notifies)
			printf("%s: queues: overflows %" PRIu64 ", buffers added %" PRIu64
			       ", full marks %" PRIu64 ", reopened %" PRIu64 ", notifications %"
			       PRIu64 "\n", tag, qs.overflows, qs.grows, qs.full_marks, qs.reopens,
			       qs.notifies);
	}
	/* a split cluster: the ranks end together (and rank 0 writes the
	 * merged capture) */
	if (cfg->dist && !rc && tg_sim_end(sim)) {
		fprintf(stderr, "%s: ending the run: %s\n", tag, tg_sim_error(sim));
		rc = 1;
	}
	tg_sim_destroy(sim);
	return rc ? 1 : 0;
}
