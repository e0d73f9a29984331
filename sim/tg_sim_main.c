/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* tg-sim: runs a simulated Telegraphos cluster that user processes attach to through shared memory. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tg/sim.h"
#include "tg/tg_hw.h"
#include "tg/tg_sim_proto.h"

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
		"  --link-latency C         cycles on each cable (default 10)\n"
		"  --link-bytes-per-cycle B link bandwidth, 1..64 (default 1 = GbE at 125 MHz)\n"
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
		"  --seed S                 seed of every random choice (default 1)\n"
		"  --pcap FILE              write the frames the switch forwards to FILE\n"
		"  --vcd FILE               waveforms, one file per node (FILE.N.vcd, or %%u in FILE)\n"
		"  --cycles N               stop after N cycles\n"
		"  --quiet                  print only errors and the ready line\n"
		"  --help                   this text\n",
		TG_SIM_MAX_NODES, TG_SIMP_DEFAULT_NAME);
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

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "nodes", required_argument, NULL, 'n' },
		{ "mem-mib", required_argument, NULL, 'm' },
		{ "name", required_argument, NULL, 'N' },
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
		{ "link-layer", no_argument, NULL, 1007 },
		{ "link-rto", required_argument, NULL, 1008 },
		{ "vcd", required_argument, NULL, 'v' },
		{ "cycles", required_argument, NULL, 'c' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct tg_sim_config cfg;
	struct tg_sim_stats st;
	struct tg_sim *sim;
	struct sigaction sa;
	uint64_t v, max_cycles = 0, start_cycles;
	const char *name = TG_SIMP_DEFAULT_NAME;
	double t0, t1, last_reap;
	int quiet = 0, opt;
	static struct tg_sim_outage outages[MAX_OUTAGES];
	static unsigned link_spec[MAX_LINKS][3];
	unsigned nlinks = 0;
	uint64_t f3[3];

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
		case 1007:
			cfg.link_layer = 1;
			break;
		case 1008:
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
	cfg.shm_name = name;
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

	sim = tg_sim_create(&cfg);
	if (!sim) {
		int e = errno;

		fprintf(stderr, "tg-sim: cannot start the cluster: %s%s\n", strerror(e),
			e == EEXIST ? " (a simulator of this name is running; use --name)" :
			e == ETIMEDOUT ? " (a NIC did not answer its driver)" :
			e == EPROTO ? " (a NIC reports a foreign ID or version)" :
			(e == ENOENT || e == EACCES || e == EISDIR || e == EROFS) &&
			(cfg.pcap_path || cfg.vcd_path) ? " (check the --pcap / --vcd file names)" : "");
		return 1;
	}
	for (unsigned i = 0; i < nlinks; i++)
		tg_sim_set_link(sim, link_spec[i][0], link_spec[i][1], link_spec[i][2]);
	if (!quiet)
		printf("tg-sim: %u nodes, %" PRIu64 " MiB each, name \"%s\"\n", cfg.nodes,
		       cfg.mem_size >> 20, name);
	/* scripts wait for this line */
	printf("tg-sim: ready\n");
	fflush(stdout);

	start_cycles = tg_sim_cycles(sim);
	t0 = now_s();
	last_reap = t0;
	while (!stop_signal) {
		uint64_t n = BATCH_CYCLES;

		if (max_cycles) {
			uint64_t done = tg_sim_cycles(sim);

			if (done >= max_cycles)
				break;
			if (max_cycles - done < n)
				n = max_cycles - done;
		}
		tg_sim_step(sim, n);
		if ((tg_sim_cycles(sim) & 0xffffu) < BATCH_CYCLES) {
			double t = now_s();

			if (t - last_reap > REAP_NS * 1e-9) {
				tg_sim_reap(sim);
				last_reap = t;
			}
		}
	}
	t1 = now_s();
	if (!quiet) {
		struct tg_sim_qstats qs;
		uint64_t cyc = tg_sim_cycles(sim) - start_cycles;
		double dt = t1 - t0 > 0 ? t1 - t0 : 1e-9;

		tg_sim_get_stats(sim, TG_SIM_ALL_NODES, &st);
		printf("tg-sim: stopping%s\n", stop_signal ? " (signal)" : "");
		printf("tg-sim: %" PRIu64 " cycles in %.3f s: %.0f cycles/s\n", cyc, dt,
		       (double)cyc / dt);
		printf("tg-sim: frames %" PRIu64 ", bytes %" PRIu64 ", dropped unknown %" PRIu64
		       ", malformed %" PRIu64 ", lost %" PRIu64 ", corrupted %" PRIu64
		       ", NIC rule breaks %" PRIu64 "\n",
		       st.tx_frames, st.tx_bytes, st.drop_unknown, st.drop_malformed,
		       st.drop_injected, st.corrupt_injected, st.proto_errors);
		if (st.dup_injected || st.reorder_injected || st.drop_congestion ||
		    st.drop_link_down)
			printf("tg-sim: duplicated %" PRIu64 ", held back %" PRIu64 ", congestion "
			       "drops %" PRIu64 ", lost on down links %" PRIu64 "\n",
			       st.dup_injected, st.reorder_injected, st.drop_congestion,
			       st.drop_link_down);
		tg_sim_get_qstats(sim, TG_SIM_ALL_NODES, &qs);
		if (qs.overflows || qs.notifies)
			printf("tg-sim: queues: overflows %" PRIu64 ", buffers added %" PRIu64
			       ", full marks %" PRIu64 ", reopened %" PRIu64 ", notifications %"
			       PRIu64 "\n", qs.overflows, qs.grows, qs.full_marks, qs.reopens,
			       qs.notifies);
	}
	tg_sim_destroy(sim);
	return 0;
}
