/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: a 16-node cluster split over 4 UDP-joined processes runs exactly as in one process; bad peers and dead peers are reported. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdarg.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "tg_test.h"
#include "../../sim/tg_dist.h"

#define NODES      16u
#define MSGS       24u      /* REQs each node sends (times $TG_DIST_SCALE) */
#define MAX_SCALE  40u
#define PERIOD     251u     /* cycles between a node's REQs (the links keep up) */
#define START      40000u   /* workload start, after every process's set-up */
#define END        (START + msgs * PERIOD + 3000u)
#define LONG_END   100000000u  /* failure tests: a run that outlasts them */
#define Q_LOG2     12u
#define MAX_LINES  (NODES * MSGS * MAX_SCALE + 64u)
#define LINE       96u

static unsigned msgs = MSGS;   /* REQs per node in this run */

struct result {
	unsigned n;
	char line[MAX_LINES][LINE];
};

static void config(struct tg_sim_config *cfg)
{
	t_config(cfg, NODES);
	cfg->mem_size = 1ULL << 20;
	/* TX stalls share one random stream: not distributed (docs/distributed.md) */
	cfg->tx_stall_pct = 0;
	cfg->link_latency = 12;
}

static void add(struct result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add(struct result *r, const char *fmt, ...)
{
	va_list ap;

	if (r->n >= MAX_LINES)
		return;
	va_start(ap, fmt);
	vsnprintf(r->line[r->n++], LINE, fmt, ap);
	va_end(ap);
}

/*
 * The workload: every node sends MSGS remote enqueues, node s at cycles
 * START + s * 5 + k * PERIOD, to nodes s+1, s+2, ... in turn, and polls
 * its own queue every cycle.  Each line is one fact, prefixed by the node,
 * so the lines of all processes sorted equal those of one process.
 * Returns 0, or the failing call's -errno (the reason is printed).
 */
static int run(const struct tg_sim_dist *dist, uint64_t end, struct result *r)
{
	struct tg_sim_config cfg;
	struct tg_sim *sim;
	struct tg_dev *d[NODES] = { 0 };
	struct tg_queue *q[NODES] = { 0 };
	unsigned got[NODES] = { 0 };
	uint64_t qpa = 0;
	int rc = 0;

	config(&cfg);
	cfg.dist = dist;
	sim = tg_sim_create(&cfg);
	if (!sim) {
		fprintf(stderr, "tg_sim_create: %s: %s\n", strerror(errno), tg_sim_error(NULL));
		return -errno;
	}
	add(r, "cycles after bring-up %" PRIu64, tg_sim_cycles(sim));
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
		if (qpa && tg_queue_paddr(q[n]) != qpa) {
			fprintf(stderr, "node %u: queue at %#" PRIx64 ", not %#" PRIx64 "\n", n,
				tg_queue_paddr(q[n]), qpa);
			rc = -EIO;
			goto out;
		}
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
				add(r, "node %02u entry %03u cycle %" PRIu64 " from %" PRIu64 " #%" PRIu64,
				    s, got[s]++, c, v >> 32, v & 0xffffffffu);
		}
		if ((rc = tg_sim_step(sim, 1)))
			goto fail_step;
	}
	for (unsigned n = 0; n < NODES; n++) {
		struct tg_sim_stats st;

		if (!d[n])
			continue;
		tg_sim_get_stats(sim, n, &st);
		add(r, "node %02u stats tx %" PRIu64 " rx %" PRIu64 " mem r %" PRIu64 " w %" PRIu64
		    " proto %" PRIu64 " at %" PRIu64, n, st.tx_frames, st.rx_frames, st.mem_reads,
		    st.mem_writes, st.proto_errors, tg_sim_cycles(sim));
	}
	goto out;

fail_step:
	fprintf(stderr, "tg_sim_step at cycle %" PRIu64 ": %s: %s\n", tg_sim_cycles(sim),
		strerror(-rc), tg_sim_error(sim));
out:
	for (unsigned n = 0; n < NODES; n++) {
		tg_queue_close(q[n]);
		tg_close(d[n]);
	}
	tg_sim_destroy(sim);
	return rc;
}

/* ---- processes ---------------------------------------------------------- */

struct plan {
	unsigned procs;
	uint8_t owner[NODES];
	char addr_buf[8][32];
	const char *addr[8];
	int sock[8];
	char netns[8][32];          /* namespace of each process, or "" */
	unsigned timeout_ms;
	uint64_t end;               /* last cycle of the workload */
};

/* A UDP socket bound to ip, port chosen by the kernel; its address in out. */
static int bound_socket(const char *ip, char *out, size_t n)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t sl = sizeof(sa);
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || inet_pton(AF_INET, ip, &sa.sin_addr) != 1 ||
	    bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    getsockname(fd, (struct sockaddr *)&sa, &sl) < 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	snprintf(out, n, "%s:%u", ip, ntohs(sa.sin_port));
	return fd;
}

static int enter_netns(const char *name)
{
	char path[128];
	int fd, rc;

	snprintf(path, sizeof(path), "/var/run/netns/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	rc = setns(fd, CLONE_NEWNET);
	close(fd);
	return rc ? -errno : 0;
}

/* Open the sockets (each in its process's namespace) of plan pl. */
static int plan_sockets(struct plan *pl, const char *const *ip)
{
	for (unsigned p = 0; p < pl->procs; p++) {
		int orig = -1;

		if (pl->netns[p][0]) {
			orig = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
			if (orig < 0 || enter_netns(pl->netns[p]))
				return -1;
		}
		pl->sock[p] = bound_socket(ip[p], pl->addr_buf[p], sizeof(pl->addr_buf[p]));
		pl->addr[p] = pl->addr_buf[p];
		if (orig >= 0) {
			setns(orig, CLONE_NEWNET);
			close(orig);
		}
		if (pl->sock[p] < 0)
			return -1;
	}
	return 0;
}

/* Start process p of the plan: its result lines go to *rfd.  Returns the pid. */
static pid_t start_proc(struct plan *pl, unsigned p, int *rfd)
{
	int fds[2];
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		static struct result r;
		struct tg_sim_dist dist = { .procs = pl->procs, .self = p, .owner = pl->owner,
					    .addr = pl->addr, .sock = pl->sock[p],
					    .timeout_ms = pl->timeout_ms };
		FILE *f;
		int rc;

		close(fds[0]);
		for (unsigned q = 0; q < pl->procs; q++)
			if (q != p)
				close(pl->sock[q]);
		rc = run(&dist, pl->end, &r);
		f = fdopen(fds[1], "w");
		for (unsigned i = 0; f && i < r.n; i++)
			fprintf(f, "%s\n", r.line[i]);
		if (f)
			fclose(f);
		_exit(rc ? 3 : 0);
	}
	close(fds[1]);
	*rfd = fds[0];
	return pid;
}

static int cmp_line(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* Read the result lines of one process into r. */
static void read_lines(int fd, struct result *r)
{
	FILE *f = fdopen(fd, "r");
	char buf[LINE + 2];

	while (f && fgets(buf, sizeof(buf), f)) {
		buf[strcspn(buf, "\n")] = 0;
		if (r->n < MAX_LINES) {
			memcpy(r->line[r->n], buf, LINE - 1);
			r->line[r->n++][LINE - 1] = 0;
		}
	}
	if (f)
		fclose(f);
	else
		close(fd);
}

/* Run the plan; the lines of all processes, sorted, in r.  Returns the
 * number of processes that failed. */
static unsigned run_plan(struct plan *pl, struct result *r, double *secs)
{
	pid_t pid[8];
	int rfd[8];
	unsigned bad = 0;
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (unsigned p = 0; p < pl->procs; p++) {
		pid[p] = start_proc(pl, p, &rfd[p]);
		REQUIRE(pid[p] > 0, "fork: %s", strerror(errno));
	}
	for (unsigned p = 0; p < pl->procs; p++)
		close(pl->sock[p]);
	for (unsigned p = 0; p < pl->procs; p++)
		read_lines(rfd[p], r);
	for (unsigned p = 0; p < pl->procs; p++) {
		int st;

		waitpid(pid[p], &st, 0);
		if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			fprintf(stderr, "process %u failed (status %#x)\n", p, st);
			bad++;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	*secs = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
	return bad;
}

/* Lines of one process, each fact once per node (the bring-up line comes
 * from every process: keep one). */
static void normalize(struct result *r)
{
	unsigned w = 0;

	qsort(r->line, r->n, LINE, cmp_line);
	for (unsigned i = 0; i < r->n; i++)
		if (!w || strcmp(r->line[i], r->line[w - 1]))
			memmove(r->line[w++], r->line[i], LINE);
	r->n = w;
}

static void compare(const char *what, const struct result *ref, const struct result *r)
{
	unsigned diffs = 0;

	CHECK(r->n == ref->n, "%s: %u result lines, one process gave %u", what, r->n, ref->n);
	for (unsigned i = 0; i < ref->n && i < r->n; i++)
		if (strcmp(ref->line[i], r->line[i]) && diffs++ < 5)
			CHECK(0, "%s: line %u: '%s', one process: '%s'", what, i, r->line[i],
			      ref->line[i]);
	CHECK(diffs == 0, "%s: %u lines differ from the one-process run", what, diffs);
}

static void plan_blocks(struct plan *pl, unsigned procs)
{
	memset(pl, 0, sizeof(*pl));
	pl->procs = procs;
	pl->timeout_ms = 3000;
	pl->end = END;
	for (unsigned n = 0; n < NODES; n++)
		pl->owner[n] = (uint8_t)(n * procs / NODES);
}

/* ---- bad input ---------------------------------------------------------- */

static void test_codec(void)
{
	uint8_t buf[TG_DIST_HDR_BYTES + 64], frame[60];
	struct tg_dist_msg m = { .type = TG_DIST_FRAME, .from = 3, .seq = 7, .aux = 0x00050002,
				 .nodes = 16, .cycle = 123456789012ULL, .len = sizeof(frame),
				 .data = frame }, o;
	char why[128];
	int len;

	for (unsigned i = 0; i < sizeof(frame); i++)
		frame[i] = (uint8_t)(i * 7);
	len = tg_dist_encode(&m, buf, sizeof(buf));
	CHECK(len == (int)(TG_DIST_HDR_BYTES + sizeof(frame)), "encoded %d bytes", len);
	CHECK(tg_dist_decode(buf, (size_t)len, &o, why, sizeof(why)) == 0, "decode: %s", why);
	CHECK(o.type == m.type && o.from == 3 && o.seq == 7 && o.aux == m.aux && o.nodes == 16 &&
	      o.cycle == m.cycle && o.len == m.len && !memcmp(o.data, frame, sizeof(frame)),
	      "decoded fields differ");
	CHECK(tg_dist_decode(buf, 20, &o, why, sizeof(why)) == -EBADMSG, "short datagram taken");
	CHECK(tg_dist_decode(buf, (size_t)len - 1, &o, why, sizeof(why)) == -EBADMSG,
	      "length mismatch taken");
	buf[0] ^= 1;
	CHECK(tg_dist_decode(buf, (size_t)len, &o, why, sizeof(why)) == -EBADMSG &&
	      strstr(why, "magic"), "bad magic: %s", why);
	buf[0] ^= 1;
	buf[4] = 9;
	CHECK(tg_dist_decode(buf, (size_t)len, &o, why, sizeof(why)) == -EBADMSG &&
	      strstr(why, "version"), "bad version: %s", why);
	buf[4] = TG_DIST_VERSION;
	buf[5] = 77;
	CHECK(tg_dist_decode(buf, (size_t)len, &o, why, sizeof(why)) == -EBADMSG &&
	      strstr(why, "type"), "bad type: %s", why);
	m.len = TG_DIST_MAX_FRAME + 1;
	CHECK(tg_dist_encode(&m, buf, sizeof(buf)) == -EMSGSIZE, "oversized frame encoded");
}

/* Stderr of a child into buf. */
static void read_all(int fd, char *buf, size_t n)
{
	size_t got = 0;
	ssize_t k;

	while (got + 1 < n && (k = read(fd, buf + got, n - 1 - got)) > 0)
		got += (size_t)k;
	buf[got] = 0;
	close(fd);
}

/*
 * Two processes; one is killed (kill_it) or gets a datagram from a
 * stranger (poke).  The other must stop with an error that says so,
 * within bounded time.
 */
static void test_failure(int poke)
{
	struct plan pl;
	static const char *const ip[2] = { "127.0.0.1", "127.0.0.1" };
	int efd[2], rfd[2], st;
	pid_t pid[2];
	char err[4096];
	struct timespec t0, t1;
	double dt;

	plan_blocks(&pl, 2);
	pl.timeout_ms = 1000;
	pl.end = LONG_END;
	REQUIRE(plan_sockets(&pl, ip) == 0, "sockets: %s", strerror(errno));
	REQUIRE(pipe(efd) == 0, "pipe");
	for (unsigned p = 0; p < 2; p++) {
		if (p == 0) {
			/* the survivor's stderr is what we check */
			int saved = dup(2);

			dup2(efd[1], 2);
			pid[p] = start_proc(&pl, p, &rfd[p]);
			dup2(saved, 2);
			close(saved);
		} else {
			pid[p] = start_proc(&pl, p, &rfd[p]);
		}
		REQUIRE(pid[p] > 0, "fork");
	}
	close(efd[1]);
	/* let them get well into the run */
	usleep(1500 * 1000);
	if (poke) {
		char a[32];
		int fd = bound_socket("127.0.0.1", a, sizeof(a));
		struct sockaddr_in to = { .sin_family = AF_INET };
		const char *colon = strrchr(pl.addr[0], ':');
		static const char junk[] = "not a simulator message";

		REQUIRE(fd >= 0, "stranger socket");
		inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
		to.sin_port = htons((uint16_t)atoi(colon + 1));
		sendto(fd, junk, sizeof(junk), 0, (struct sockaddr *)&to, sizeof(to));
		close(fd);
	} else {
		kill(pid[1], SIGKILL);
	}
	for (unsigned p = 0; p < 2; p++)
		close(pl.sock[p]);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	waitpid(pid[0], &st, 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	dt = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
	if (poke)
		kill(pid[1], SIGKILL);   /* it holds the pipe open too */
	waitpid(pid[1], NULL, 0);
	read_all(efd[0], err, sizeof(err));
	for (unsigned p = 0; p < 2; p++)
		close(rfd[p]);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 3, "%s: survivor status %#x, want exit 3",
	      poke ? "stranger" : "kill", st);
	CHECK(dt < 10.0, "%s: survivor took %.1f s to give up", poke ? "stranger" : "kill", dt);
	if (poke)
		CHECK(strstr(err, "no process of this cluster") != NULL,
		      "stranger: the error does not say so: %s", err);
	else
		CHECK(strstr(err, "silent") != NULL || strstr(err, "stopped") != NULL,
		      "kill: the error does not name the dead peer: %s", err);
	printf("%s: detected in %.2f s: %s", poke ? "stranger datagram" : "killed peer", dt, err);
}

/* ---- tg-sim ------------------------------------------------------------- */

/* Run a shell command; its output in out, its exit status returned. */
static int capture(const char *cmd, char *out, size_t n)
{
	FILE *f = popen(cmd, "r");
	size_t got = 0;
	int st;

	REQUIRE(f, "popen: %s", strerror(errno));
	while (got + 1 < n && fgets(out + got, (int)(n - got), f))
		got += strlen(out + got);
	out[got] = 0;
	st = pclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* tg-sim --procs and --dist-config, as a user runs them. */
static void test_launcher(void)
{
	char cmd[1024], out[8192], conf[] = "/tmp/test_dist_XXXXXX";
	const char *p;
	uint64_t ncyc[2] = { 0, 0 };
	int rc, fd;

	snprintf(cmd, sizeof(cmd), "%s --nodes 4 --procs 2 --mem-mib 1 --cycles 20000 "
		 "--name tdl%d 2>&1", TG_SIM_BIN, (int)getpid());
	rc = capture(cmd, out, sizeof(out));
	CHECK(rc == 0, "tg-sim --procs 2: exit %d: %s", rc, out);
	CHECK(strstr(out, "tg-sim: ready\n") != NULL, "no ready line: %s", out);
	CHECK(strstr(out, "tg-sim[0]: 2 of 4 nodes (0-1)") && strstr(out, "tg-sim[1]: 2 of 4 nodes (2-3)"),
	      "nodes not split 0-1 / 2-3: %s", out);
	/* both processes stop at the same cycle: their speed lines */
	for (p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		unsigned proc;
		uint64_t cyc;

		if (sscanf(p, "tg-sim[%u]: %" SCNu64 " cycles in", &proc, &cyc) == 2 && proc < 2)
			ncyc[proc] = cyc;
	}
	CHECK(ncyc[0] && ncyc[0] == ncyc[1], "speed lines: %" PRIu64 " and %" PRIu64 " cycles: %s",
	      ncyc[0], ncyc[1], out);

	/* a cluster file that gives node 1 to two processes is refused */
	fd = mkstemp(conf);
	REQUIRE(fd >= 0, "mkstemp: %s", strerror(errno));
	dprintf(fd, "# process address nodes\n0 127.0.0.1:1 0-1\n1 127.0.0.1:2 1-3\n");
	close(fd);
	snprintf(cmd, sizeof(cmd), "%s --nodes 4 --dist-config %s --proc 0 2>&1", TG_SIM_BIN,
		 conf);
	rc = capture(cmd, out, sizeof(out));
	CHECK(rc == 2 && strstr(out, ":3: want"), "node in two processes: exit %d: %s", rc, out);
	/* and a cluster with random faults is refused, saying why */
	snprintf(cmd, sizeof(cmd), "%s --nodes 4 --procs 2 --drop 1 --name tdf%d 2>&1",
		 TG_SIM_BIN, (int)getpid());
	rc = capture(cmd, out, sizeof(out));
	CHECK(rc == 1 && strstr(out, "do not run distributed"), "faults: exit %d: %s", rc, out);
	unlink(conf);
}

/* ---- network namespaces ------------------------------------------------- */

static int sh(const char *cmd)
{
	int rc = system(cmd);

	return rc == 0 ? 0 : -1;
}

/* Two namespaces joined by a veth pair, 10.213.0.1 and .2.  0 or -1. */
static int netns_setup(char *why, size_t n)
{
	char name[2][16], cmd[1024];
	unsigned id = (unsigned)getpid() % 100000u;

	if (geteuid() != 0) {
		snprintf(why, n, "not root");
		return -1;
	}
	if (sh("ip netns list >/dev/null 2>&1")) {
		snprintf(why, n, "'ip netns' is not available");
		return -1;
	}
	for (int i = 0; i < 2; i++)
		snprintf(name[i], sizeof(name[i]), "tgd%u%c", id, 'a' + i);
	snprintf(cmd, sizeof(cmd),
		 "ip netns add %s && ip netns add %s && "
		 "ip link add %sv type veth peer name %sv && "
		 "ip link set %sv netns %s && ip link set %sv netns %s && "
		 "ip -n %s addr add 10.213.0.1/24 dev %sv && ip -n %s addr add 10.213.0.2/24 dev %sv && "
		 "ip -n %s link set %sv up && ip -n %s link set %sv up && "
		 "ip -n %s link set lo up && ip -n %s link set lo up",
		 name[0], name[1], name[0], name[1], name[0], name[0], name[1], name[1],
		 name[0], name[0], name[1], name[1], name[0], name[0], name[1], name[1],
		 name[0], name[1]);
	if (sh(cmd)) {
		snprintf(why, n, "could not make namespaces and a veth pair");
		snprintf(cmd, sizeof(cmd), "ip netns del %s 2>/dev/null; ip netns del %s 2>/dev/null",
			 name[0], name[1]);
		sh(cmd);
		return -1;
	}
	return (int)id;
}

static void netns_teardown(int id)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "ip netns del tgd%da; ip netns del tgd%db", id, id);
	sh(cmd);
}

int main(int argc, char **argv)
{
	static struct result ref, r;
	struct plan pl;
	static const char *const lo4[4] = { "127.0.0.1", "127.0.0.1", "127.0.0.1", "127.0.0.1" };
	double t1, tk;
	unsigned entries = 0;
	char why[128];
	int id;

	(void)argc;
	(void)argv;
	/* make test-dist-long: a longer workload */
	if (getenv("TG_DIST_SCALE")) {
		unsigned long k = strtoul(getenv("TG_DIST_SCALE"), NULL, 0);

		REQUIRE(k >= 1 && k <= MAX_SCALE, "TG_DIST_SCALE: 1..%u", MAX_SCALE);
		msgs = MSGS * (unsigned)k;
	}
	alarm(T_TIMEOUT_S);
	signal(SIGALRM, t_on_alarm);
	test_codec();

	REQUIRE(run(NULL, END, &ref) == 0, "one-process run failed");
	normalize(&ref);
	for (unsigned i = 0; i < ref.n; i++)
		entries += strstr(ref.line[i], " entry ") != NULL;
	/* a run that lost entries would compare equal to itself only */
	CHECK(entries == NODES * msgs, "one process: %u entries, want %u", entries, NODES * msgs);

	plan_blocks(&pl, 4);
	REQUIRE(plan_sockets(&pl, lo4) == 0, "sockets: %s", strerror(errno));
	CHECK(run_plan(&pl, &r, &tk) == 0, "4 processes: a process failed");
	normalize(&r);
	compare("4 processes over UDP", &ref, &r);
	printf("4 processes on localhost: %u lines as in one process (%.2f s)\n", r.n, tk);

	/* an uneven split, nodes interleaved: frames go every way */
	memset(&r, 0, sizeof(r));
	plan_blocks(&pl, 3);
	for (unsigned n = 0; n < NODES; n++)
		pl.owner[n] = (uint8_t)((n * 7u) % 3u);
	REQUIRE(plan_sockets(&pl, lo4) == 0, "sockets: %s", strerror(errno));
	CHECK(run_plan(&pl, &r, &t1) == 0, "3 processes: a process failed");
	normalize(&r);
	compare("3 interleaved processes", &ref, &r);

	id = netns_setup(why, sizeof(why));
	if (id < 0) {
		printf("network namespaces: skipped (%s)\n", why);
	} else {
		static const char *const ip2[2] = { "10.213.0.1", "10.213.0.2" };

		memset(&r, 0, sizeof(r));
		plan_blocks(&pl, 2);
		snprintf(pl.netns[0], sizeof(pl.netns[0]), "tgd%da", id);
		snprintf(pl.netns[1], sizeof(pl.netns[1]), "tgd%db", id);
		if (plan_sockets(&pl, ip2) == 0) {
			CHECK(run_plan(&pl, &r, &t1) == 0, "namespaces: a process failed");
			normalize(&r);
			compare("2 processes in 2 namespaces over veth", &ref, &r);
			printf("2 processes in 2 network namespaces over veth: same results (%.2f s)\n",
			       t1);
		} else {
			CHECK(0, "sockets in the namespaces: %s", strerror(errno));
		}
		netns_teardown(id);
	}

	test_failure(0);
	test_failure(1);
	test_launcher();
	return t_done("test_dist");
}
