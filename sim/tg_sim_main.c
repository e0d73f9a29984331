/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* tg-sim: runs a simulated Telegraphos cluster that user processes attach to through shared memory. */
#define _GNU_SOURCE
#include <errno.h>
#include <arpa/inet.h>
#include <getopt.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tg/sim.h"
#include "tg/tg_hw.h"
#include "tg/tg_sim_proto.h"

#define BATCH_CYCLES   256u   /* cycles between looks at signals and limits */
#define REAP_NS        200000000ULL
#define MAX_OUTAGES    64u
#define MAX_LINKS      256u
#define MAX_PROCS      64u
#define ADDR_MAX       64u

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
		"  --procs K                run the cluster as K processes on this machine,\n"
		"                           joined by UDP on 127.0.0.1 (node blocks in order;\n"
		"                           process P's nodes are at sim:NAME-P:N)\n"
		"  --dist-config FILE       the cluster spans the processes FILE lists (lines\n"
		"                           'PROC IPV4:PORT NODES', NODES like 0-7,9) ...\n"
		"  --proc P                 ... and this is process P of them\n"
		"  --peer-timeout MS        a peer silent this long is reported gone (default 5000)\n"
		"  --bridge IF              copy the frames the switch forwards to Linux interface\n"
		"                           IF, and take Telegraphos frames for our nodes from it\n"
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

struct dist_plan {
	unsigned procs;
	uint8_t owner[TG_SIM_MAX_NODES];
	char addr_buf[MAX_PROCS][ADDR_MAX];
	const char *addr[MAX_PROCS];
};

/* Parse a node list "0-7,9" into owner[] for process p.  0 or -1. */
static int parse_nodes(const char *s, unsigned nodes, unsigned p, uint8_t *owner, int *seen)
{
	char buf[1024], *tok, *save = NULL;

	if (snprintf(buf, sizeof(buf), "%s", s) >= (int)sizeof(buf))
		return -1;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(tok, '-');
		uint64_t lo, hi;

		if (dash)
			*dash = 0;
		if (parse_u64(tok, 0, nodes - 1, &lo) ||
		    parse_u64(dash ? dash + 1 : tok, lo, nodes - 1, &hi))
			return -1;
		for (uint64_t n = lo; n <= hi; n++) {
			if (seen[n])
				return -1;
			seen[n] = 1;
			owner[n] = (uint8_t)p;
		}
	}
	return 0;
}

/* Read a cluster file: one line per process, "PROC IPV4:PORT NODES";
 * '#' starts a comment.  0, or 2 after a message. */
static int read_dist_config(const char *path, unsigned nodes, struct dist_plan *pl)
{
	FILE *f = fopen(path, "r");
	char line[1200];
	int seen[TG_SIM_MAX_NODES] = { 0 }, have[MAX_PROCS] = { 0 };
	unsigned ln = 0;

	if (!f) {
		fprintf(stderr, "tg-sim: %s: %s\n", path, strerror(errno));
		return 2;
	}
	memset(pl, 0, sizeof(*pl));
	while (fgets(line, sizeof(line), f)) {
		char addr[ADDR_MAX + 1], list[1024];
		unsigned p;
		int n;

		ln++;
		line[strcspn(line, "#\n")] = 0;
		if (strspn(line, " \t") == strlen(line))
			continue;
		if (sscanf(line, "%u %64s %1023s %n", &p, addr, list, &n) != 3 || line[n] ||
		    p >= MAX_PROCS || have[p] || strlen(addr) >= ADDR_MAX ||
		    parse_nodes(list, nodes, p, pl->owner, seen)) {
			fprintf(stderr, "tg-sim: %s:%u: want 'PROC IPV4:PORT NODES' with a new "
				"process number below %u and nodes below %u not listed before\n",
				path, ln, MAX_PROCS, nodes);
			fclose(f);
			return 2;
		}
		have[p] = 1;
		snprintf(pl->addr_buf[p], ADDR_MAX, "%s", addr);
		pl->addr[p] = pl->addr_buf[p];
		if (p + 1 > pl->procs)
			pl->procs = p + 1;
	}
	fclose(f);
	for (unsigned p = 0; p < pl->procs; p++)
		if (!have[p]) {
			fprintf(stderr, "tg-sim: %s: no line for process %u\n", path, p);
			return 2;
		}
	for (unsigned n = 0; n < nodes; n++)
		if (!seen[n]) {
			fprintf(stderr, "tg-sim: %s: no process hosts node %u\n", path, n);
			return 2;
		}
	if (pl->procs < 2) {
		fprintf(stderr, "tg-sim: %s: a distributed cluster needs 2 processes or more\n",
			path);
		return 2;
	}
	return 0;
}

struct run_opts {
	const char *name;
	const char *tag;              /* "tg-sim" or "tg-sim[P]" */
	int quiet;
	uint64_t max_cycles;
	unsigned nlinks;
	unsigned (*link_spec)[3];
	int ready_fd;                 /* --procs child: write a byte when ready, else -1 */
};

static int serve(struct tg_sim_config *cfg, const struct run_opts *o);

/* --procs K: K children on 127.0.0.1, each with a block of nodes. */
static int launch(struct tg_sim_config *cfg, unsigned procs, unsigned timeout_ms,
		  struct run_opts *o)
{
	static struct dist_plan pl;
	static char names[MAX_PROCS][TG_SIMP_NAME_MAX + 8], tags[MAX_PROCS][24];
	int sock[MAX_PROCS], ready[2], status = 0, failed = 0;
	pid_t pid[MAX_PROCS];
	unsigned up = 0, left;
	char c;

	if (strlen(o->name) + 4 >= TG_SIMP_NAME_MAX) {
		fprintf(stderr, "tg-sim: --name too long for --procs\n");
		return 2;
	}
	pl.procs = procs;
	for (unsigned n = 0; n < cfg->nodes; n++)
		pl.owner[n] = (uint8_t)(n * procs / cfg->nodes);
	for (unsigned p = 0; p < procs; p++) {
		struct sockaddr_in sa = { .sin_family = AF_INET };
		socklen_t sl = sizeof(sa);

		sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		sock[p] = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (sock[p] < 0 || bind(sock[p], (struct sockaddr *)&sa, sizeof(sa)) ||
		    getsockname(sock[p], (struct sockaddr *)&sa, &sl)) {
			fprintf(stderr, "tg-sim: UDP socket: %s\n", strerror(errno));
			return 1;
		}
		snprintf(pl.addr_buf[p], ADDR_MAX, "127.0.0.1:%u", ntohs(sa.sin_port));
		pl.addr[p] = pl.addr_buf[p];
	}
	if (pipe(ready)) {
		fprintf(stderr, "tg-sim: pipe: %s\n", strerror(errno));
		return 1;
	}
	for (unsigned p = 0; p < procs; p++) {
		pid[p] = fork();
		if (pid[p] < 0) {
			fprintf(stderr, "tg-sim: fork: %s\n", strerror(errno));
			procs = p;
			failed = 1;
			break;
		}
		if (pid[p] == 0) {
			struct tg_sim_dist dist = { .procs = pl.procs, .self = p, .owner = pl.owner,
						    .addr = pl.addr, .sock = sock[p],
						    .timeout_ms = timeout_ms };

			close(ready[0]);
			for (unsigned q = 0; q < pl.procs; q++)
				if (q != p)
					close(sock[q]);
			snprintf(names[p], sizeof(names[p]), "%s-%u", o->name, p);
			snprintf(tags[p], sizeof(tags[p]), "tg-sim[%u]", p);
			cfg->dist = &dist;
			o->name = names[p];
			o->tag = tags[p];
			o->ready_fd = ready[1];
			status = serve(cfg, o);
			fflush(stdout);
			_exit(status);
		}
	}
	close(ready[1]);
	for (unsigned p = 0; p < pl.procs; p++)
		close(sock[p]);
	/* ready when every child is */
	while (!failed && up < procs && read(ready[0], &c, 1) == 1)
		up++;
	if (up == procs) {
		printf("tg-sim: %u nodes in %u processes, name \"%s-P\"\n", cfg->nodes, procs,
		       o->name);
		printf("tg-sim: ready\n");
		fflush(stdout);
	}
	close(ready[0]);
	/* a child that fails makes the others fail (they see it stop) */
	for (left = procs; left; left--) {
		int st;
		pid_t w;

		while ((w = wait(&st)) < 0 && errno == EINTR)
			if (stop_signal)
				for (unsigned p = 0; p < procs; p++)
					kill(pid[p], stop_signal);
		if (w < 0)
			break;
		if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			if (!status)
				status = WIFEXITED(st) ? WEXITSTATUS(st) : 1;
		}
	}
	return failed ? 1 : status;
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
		{ "link-layer", no_argument, NULL, 1012 },
		{ "link-rto", required_argument, NULL, 1013 },
		{ "protect", no_argument, NULL, 1014 },
		{ "no-fast-forward", no_argument, NULL, 1015 },
		{ "vcd", required_argument, NULL, 'v' },
		{ "cycles", required_argument, NULL, 'c' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "procs", required_argument, NULL, 1007 },
		{ "dist-config", required_argument, NULL, 1008 },
		{ "proc", required_argument, NULL, 1009 },
		{ "peer-timeout", required_argument, NULL, 1010 },
		{ "bridge", required_argument, NULL, 1011 },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct tg_sim_config cfg;
	struct sigaction sa;
	uint64_t v, max_cycles = 0;
	const char *name = TG_SIMP_DEFAULT_NAME, *dist_file = NULL;
	int quiet = 0, opt, self = -1;
	static struct tg_sim_outage outages[MAX_OUTAGES];
	static unsigned link_spec[MAX_LINKS][3];
	unsigned nlinks = 0, procs = 1, timeout_ms = 0;
	uint64_t f3[3];
	struct run_opts ro;

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
			if (parse_u64(optarg, 1, MAX_PROCS, &v))
				return bad_arg("procs (1..64)", optarg);
			procs = (unsigned)v;
			break;
		case 1008:
			dist_file = optarg;
			break;
		case 1009:
			if (parse_u64(optarg, 0, MAX_PROCS - 1, &v))
				return bad_arg("proc (0..63)", optarg);
			self = (int)v;
			break;
		case 1011:
			cfg.bridge_if = optarg;
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

	if (dist_file && self < 0) {
		fprintf(stderr, "tg-sim: --dist-config needs --proc\n");
		return 2;
	}
	if (self >= 0 && (!dist_file || procs > 1)) {
		fprintf(stderr, "tg-sim: --proc goes with --dist-config, not --procs\n");
		return 2;
	}
	if (procs > cfg.nodes) {
		fprintf(stderr, "tg-sim: --procs %u: more processes than nodes\n", procs);
		return 2;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	ro = (struct run_opts){ .name = name, .tag = "tg-sim", .quiet = quiet,
				.max_cycles = max_cycles, .nlinks = nlinks, .link_spec = link_spec,
				.ready_fd = -1 };
	if (procs > 1)
		return launch(&cfg, procs, timeout_ms, &ro);
	if (dist_file) {
		static struct dist_plan pl;
		static struct tg_sim_dist dist;
		int rc = read_dist_config(dist_file, cfg.nodes, &pl);

		if (rc)
			return rc;
		if ((unsigned)self >= pl.procs) {
			fprintf(stderr, "tg-sim: --proc %d: %s lists processes 0..%u\n", self,
				dist_file, pl.procs - 1);
			return 2;
		}
		dist = (struct tg_sim_dist){ .procs = pl.procs, .self = (unsigned)self,
					     .owner = pl.owner, .addr = pl.addr, .sock = -1,
					     .timeout_ms = timeout_ms };
		cfg.dist = &dist;
	}
	return serve(&cfg, &ro);
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
				rc == -EOPNOTSUPP ? " (a distributed cluster keeps one link latency)" :
				"");
			tg_sim_destroy(sim);
			return 2;
		}
	}
	if (!o->quiet) {
		if (cfg->dist) {
			char list[1024];
			size_t len = 0;
			unsigned count = 0;

			/* the local nodes as ranges: "0-2,5" */
			list[0] = 0;
			for (unsigned n = 0; n < cfg->nodes; n++) {
				unsigned m = n;

				if (!tg_sim_is_local(sim, n))
					continue;
				while (m + 1 < cfg->nodes && tg_sim_is_local(sim, m + 1))
					m++;
				if (len < sizeof(list))
					len += (size_t)snprintf(list + len, sizeof(list) - len,
								m > n ? "%s%u-%u" : "%s%u",
								len ? "," : "", n, m);
				count += m - n + 1;
				n = m;
			}
			printf("%s: %u of %u nodes (%s), %" PRIu64 " MiB each, name \"%s\"\n", tag,
			       count, cfg->nodes, list, cfg->mem_size >> 20, o->name);
		} else {
			printf("%s: %u nodes, %" PRIu64 " MiB each, name \"%s\"\n", tag, cfg->nodes,
			       cfg->mem_size >> 20, o->name);
		}
	}
	if (o->ready_fd >= 0) {
		char c = 1;

		if (write(o->ready_fd, &c, 1) != 1)
			rc = 1;
		close(o->ready_fd);
	} else {
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
	tg_sim_destroy(sim);
	return rc ? 1 : 0;
}
