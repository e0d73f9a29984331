/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: a 16-node cluster under mpirun over 1, 2 and 4 ranks runs exactly as in one process; dead and hung ranks end the job; tg-sim under mpirun. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "tg_test_child.h"

#ifndef TG_DIST_WORKER
#define TG_DIST_WORKER "tg_dist_worker"
#endif
#ifndef TG_MPIRUN
#define TG_MPIRUN "mpirun"
#endif

#define NODES      16u
#define MSGS       24u
#define MAX_LINES  (NODES * MSGS * 40u + 256u)
#define LINE       200u
#define JOB_S      60       /* a workload job, at most (times $TG_DIST_SCALE) */
#define FAIL_S     20.0     /* a killed or hung rank ends the job within this */
#define START_S    60.0     /* the ranks of test_failure's job start within this */
#define READY_S    30       /* a tg-sim job says it is ready within this */
#define STOP_S     30       /* ... and stops on SIGINT within this */
#define RUN_S      60       /* a tg-sim job with --cycles ends within this */
#define WORKLOADS  5u       /* workload jobs */
/* the whole test: the sum of its jobs' limits (five workloads, two
 * failures, three tg-sim jobs), and some for the comparisons */
#define ALARM_S(scale) ((unsigned)(WORKLOADS * JOB_S * (scale) + 2 * (START_S + FAIL_S) + \
				   RUN_S + 2 * (READY_S + STOP_S) + 120))

static char dir[] = "/tmp/test_dist_XXXXXX";
static unsigned scale = 1;     /* $TG_DIST_SCALE: a longer workload */

struct result {
	unsigned n;
	char line[MAX_LINES][LINE];
};

/* ---- jobs --------------------------------------------------------------- */

/* Start argv (NULL-terminated) in a process group of its own, stdout and
 * stderr to `out`.  Returns the pid; until wait_job reaps it, a time out
 * of the test kills its group (t_child_pgid). */
static pid_t start_job(char *const *argv, const char *out)
{
	pid_t pid = fork();

	REQUIRE(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		setpgid(0, 0);
		if (fd < 0)
			_exit(126);
		dup2(fd, 1);
		dup2(fd, 2);
		close(fd);
		execvp(argv[0], argv);
		_exit(127);
	}
	setpgid(pid, pid);
	t_child_pgid = pid;
	return pid;
}

/* Wait up to secs for the job; on time out kill its group.  The wait
 * status, or -1 after a time out; *took the seconds it took. */
static int wait_job(pid_t pid, double secs, double *took)
{
	double t0 = t_now_s();
	int st;

	for (;;) {
		pid_t w = waitpid(pid, &st, WNOHANG);

		if (w == pid) {
			if (took)
				*took = t_now_s() - t0;
			kill(-pid, SIGKILL);   /* anything it left behind */
			t_child_pgid = 0;
			return st;
		}
		if (t_now_s() - t0 > secs) {
			kill(-pid, SIGKILL);
			waitpid(pid, &st, 0);
			t_child_pgid = 0;
			if (took)
				*took = t_now_s() - t0;
			return -1;
		}
		usleep(20000);
	}
}

static void slurp(const char *path, char *buf, size_t n)
{
	int fd = open(path, O_RDONLY);
	ssize_t k = fd >= 0 ? read(fd, buf, n - 1) : 0;

	buf[k > 0 ? k : 0] = 0;
	if (fd >= 0)
		close(fd);
}

/* One run of the workload over `ranks` ranks; its files under dir/tag. */
static int run_workload(const char *tag, unsigned ranks, const char *place, int faults,
			double *secs)
{
	char np[8], out[256], pcap[256], log[256], buf[8192];
	char *argv[20];
	int a = 0, st;

	snprintf(np, sizeof(np), "%u", ranks);
	snprintf(out, sizeof(out), "%s/%s", dir, tag);
	snprintf(pcap, sizeof(pcap), "%s/%s.pcap", dir, tag);
	snprintf(log, sizeof(log), "%s/%s.log", dir, tag);
	argv[a++] = TG_MPIRUN;
	argv[a++] = "--oversubscribe";
	argv[a++] = "-np";
	argv[a++] = np;
	argv[a++] = TG_DIST_WORKER;
	argv[a++] = "--out";
	argv[a++] = out;
	argv[a++] = "--pcap";
	argv[a++] = pcap;
	if (place) {
		argv[a++] = "--place";
		argv[a++] = (char *)place;
	}
	if (faults)
		argv[a++] = "--faults";
	if (scale > 1) {
		static char sc[16];

		snprintf(sc, sizeof(sc), "%u", scale);
		argv[a++] = "--scale";
		argv[a++] = sc;
	}
	argv[a] = NULL;
	st = wait_job(start_job(argv, log), JOB_S * scale, secs);
	if (st != 0) {
		slurp(log, buf, sizeof(buf));
		CHECK(0, "%s: %u ranks: %s: %s", tag, ranks,
		      st < 0 ? "timed out" : "failed", buf);
		return -1;
	}
	return 0;
}

static int cmp_line(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* The lines of every rank of run `tag`, sorted, each fact once (the
 * bring-up line comes from every rank). */
static void load(const char *tag, unsigned ranks, struct result *r)
{
	char path[256], buf[LINE + 2];
	unsigned w = 0;

	r->n = 0;
	for (unsigned k = 0; k < ranks; k++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s.%u", dir, tag, k);
		f = fopen(path, "r");
		CHECK(f != NULL, "%s: %s", path, strerror(errno));
		while (f && fgets(buf, sizeof(buf), f)) {
			buf[strcspn(buf, "\n")] = 0;
			if (r->n < MAX_LINES)
				snprintf(r->line[r->n++], LINE, "%.*s", (int)LINE - 1, buf);
		}
		if (f)
			fclose(f);
	}
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

/* The captures of two runs are the same file. */
static void compare_pcap(const char *what, const char *ref_tag, const char *tag)
{
	char a[256], b[256];
	unsigned bad = 0;
	int n;
	FILE *fa, *fb;
	int ca, cb;
	long pos = 0;

	snprintf(a, sizeof(a), "%s/%s.pcap", dir, ref_tag);
	snprintf(b, sizeof(b), "%s/%s.pcap", dir, tag);
	n = t_pcap_frames(a, &bad);
	CHECK(n > 100, "%s: the one-process capture holds %d frames", what, n);
	fa = fopen(a, "rb");
	fb = fopen(b, "rb");
	CHECK(fa && fb, "%s: captures %s, %s", what, a, b);
	if (!fa || !fb)
		goto out;
	do {
		ca = getc(fa);
		cb = getc(fb);
		pos++;
	} while (ca == cb && ca != EOF);
	CHECK(ca == cb, "%s: the merged capture differs from the one-process one at byte %ld",
	      what, pos - 1);
out:
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
}

/* Sum of field `key` (a number after it) over the stats lines. */
static uint64_t sum_field(const struct result *r, const char *key)
{
	uint64_t s = 0;

	for (unsigned i = 0; i < r->n; i++) {
		const char *p = strstr(r->line[i], " stats ") ? strstr(r->line[i], key) : NULL;

		if (p)
			s += strtoull(p + strlen(key), NULL, 10);
	}
	return s;
}

static unsigned count_lines(const struct result *r, const char *what)
{
	unsigned n = 0;

	for (unsigned i = 0; i < r->n; i++)
		n += strstr(r->line[i], what) != NULL;
	return n;
}

/* ---- failures ----------------------------------------------------------- */

/* The pid rank `rank` printed in the job's output, or 0. */
static pid_t rank_pid(const char *log, unsigned rank)
{
	char buf[16384], pat[32];
	const char *p;

	slurp(log, buf, sizeof(buf));
	snprintf(pat, sizeof(pat), "rank %u pid ", rank);
	p = strstr(buf, pat);
	return p ? (pid_t)atoi(p + strlen(pat)) : 0;
}

/*
 * A job of `ranks` ranks; once every rank runs, rank 1 is killed
 * (SIGKILL) or stopped (SIGSTOP: it hangs).  The job must end within
 * FAIL_S, with the other ranks' errors naming rank 1.
 */
static void test_failure(unsigned ranks, int sig)
{
	char np[8], out[256], log[256], buf[16384];
	/* mpirun kills the ranks left at once (not after the 10 s main sets):
	 * the job must end within FAIL_S */
	char *argv[] = { TG_MPIRUN, "--oversubscribe", "--mca", "odls_base_sigkill_timeout", "1",
			 "-np", np, TG_DIST_WORKER, "--out", out, "--hang", "--timeout-ms", "3000",
			 NULL };
	const char *what = sig == SIGKILL ? "killed rank" : "hung rank";
	double t0 = t_now_s(), took = 0;
	pid_t job, victim = 0;
	unsigned running = 0;
	int st;

	snprintf(np, sizeof(np), "%u", ranks);
	snprintf(out, sizeof(out), "%s/fail%d", dir, sig);
	snprintf(log, sizeof(log), "%s/fail%d.log", dir, sig);
	job = start_job(argv, log);
	while (running < ranks && t_now_s() - t0 < START_S) {
		usleep(50000);
		running = 0;
		for (unsigned r = 0; r < ranks; r++)
			running += rank_pid(log, r) != 0;
	}
	victim = rank_pid(log, 1);
	if (running < ranks || victim <= 0) {
		wait_job(job, 0, NULL);
		slurp(log, buf, sizeof(buf));
		CHECK(0, "%s: the ranks did not start: %s", what, buf);
		return;
	}
	usleep(300000);   /* well into the run */
	kill(victim, sig);
	st = wait_job(job, FAIL_S, &took);
	if (sig == SIGSTOP)
		kill(victim, SIGKILL);
	slurp(log, buf, sizeof(buf));
	CHECK(st != -1, "%s: the job still ran %.0f s later: %s", what, FAIL_S, buf);
	CHECK(st != 0, "%s: the job ended with status 0: %s", what, buf);
	if (sig == SIGKILL) {
		/* the launcher names the dead rank; each survivor says it waited for it */
		unsigned named = 0;

		for (unsigned r = 0; r < ranks; r++) {
			char pat[64];

			const char *line, *nl;

			snprintf(pat, sizeof(pat), "rank %u: stopped at cycle", r);
			line = r != 1 ? strstr(buf, pat) : NULL;
			nl = line ? strchr(line, '\n') : NULL;
			/* stopped by the launcher while waiting for it, or saw it silent */
			if (line && nl && ((strstr(line, "waits for rank 1 (") &&
					    strstr(line, "waits for rank 1 (") < nl) ||
					   (strstr(line, ": rank 1 (") && strstr(line, ": rank 1 (") < nl)))
				named++;
		}
		CHECK(strstr(buf, "rank 1 with PID") != NULL, "%s: mpirun does not name rank 1: %s",
		      what, buf);
		CHECK(named == ranks - 1, "%s: %u of %u survivors name rank 1: %s", what, named,
		      ranks - 1, buf);
	} else {
		CHECK(strstr(buf, "rank 1 (") && strstr(buf, "silent"),
		      "%s: no error naming the silent rank 1: %s", what, buf);
	}
	printf("%s: the job of %u ranks ended in %.2f s\n", what, ranks, took);
}

/* ---- tg-sim under mpirun ------------------------------------------------ */

/* Start a tg-sim job and wait (READY_S at most) for its ready line. */
static pid_t start_ready(char *const *argv, const char *out, const char *what)
{
	char buf[16384];
	double t0 = t_now_s();
	pid_t job = start_job(argv, out);

	do {
		usleep(50000);
		slurp(out, buf, sizeof(buf));
	} while (!strstr(buf, "tg-sim: ready") && t_now_s() - t0 < READY_S);
	CHECK(strstr(buf, "tg-sim: ready") != NULL, "%s not ready: %s", what, buf);
	return job;
}

static void test_tgsim(void)
{
	char name[32], out[256], buf[16384], dev[64];
	char *argv[] = { TG_MPIRUN, "--oversubscribe", "-np", "2", TG_SIM_BIN, "--nodes", "4",
			 "--mem-mib", "1", "--cycles", "20000", "--name", name, NULL };
	uint64_t ncyc[2] = { 0, 0 };
	const char *p;
	struct tg_dev *d0 = NULL, *d3 = NULL;
	uint64_t v = 0x5ca1ab1e0ddba11ULL, back = 0, pa;
	pid_t job;
	int st;

	snprintf(name, sizeof(name), "tdl%d", (int)getpid());
	snprintf(out, sizeof(out), "%s/tgsim.log", dir);
	st = wait_job(start_job(argv, out), RUN_S, NULL);
	slurp(out, buf, sizeof(buf));
	CHECK(st == 0, "tg-sim over 2 ranks: status %#x: %s", st, buf);
	CHECK(strstr(buf, "tg-sim: ready\n") != NULL, "no ready line: %s", buf);
	CHECK(strstr(buf, "4 nodes over 2 ranks (placement block)") &&
	      strstr(buf, "): nodes 0-1\n") && strstr(buf, "): nodes 2-3\n"),
	      "placement not said, or not 0-1 / 2-3: %s", buf);
	/* both ranks stop at the same cycle: their speed lines */
	for (p = buf; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		unsigned r;
		uint64_t c;

		if (sscanf(p, "tg-sim[%u]: %" SCNu64 " cycles in", &r, &c) == 2 && r < 2)
			ncyc[r] = c;
	}
	CHECK(ncyc[0] && ncyc[0] == ncyc[1], "speed lines: %" PRIu64 " and %" PRIu64 " cycles: %s",
	      ncyc[0], ncyc[1], buf);

	/* a program attaches to nodes of both ranks by the cluster's name */
	argv[9] = "--quiet";
	argv[10] = "--quiet";
	snprintf(name, sizeof(name), "tda%d", (int)getpid());
	job = start_ready(argv, out, "tg-sim over 2 ranks");
	snprintf(dev, sizeof(dev), "sim:%s:0", name);
	d0 = tg_open(dev, 0);
	snprintf(dev, sizeof(dev), "sim:%s:3", name);
	d3 = tg_open(dev, 0);
	CHECK(d0 && d3, "tg_open of nodes 0 and 3: %s", tg_open_error());
	if (d0 && d3) {
		struct tg_mr *mr = tg_mr_alloc(d3, 4096, 0);

		pa = mr ? tg_mr_paddr(mr) : 0;
		CHECK(mr != NULL, "tg_mr_alloc on node 3");
		CHECK_RC(tg_write(d0, 3, pa, &v, sizeof(v)), 0);
		CHECK_RC(tg_fence(d0, 3), 0);
		CHECK_RC(tg_sim_mem_read(d3, 3, pa, &back, sizeof(back)), 0);
		CHECK(back == v, "node 0 wrote %#" PRIx64 " to node 3 (rank 1), it holds %#" PRIx64,
		      v, back);
		tg_mr_free(mr);
	}
	snprintf(dev, sizeof(dev), "sim:%s:4", name);
	CHECK(tg_open(dev, 0) == NULL && errno == ENODEV, "node 4 of 4 opened");
	{
		/* tgctl finds the counters of a node of rank 1 by the name */
		char cmd[256];
		FILE *p;
		size_t got;

		snprintf(cmd, sizeof(cmd), "%s stats sim:%s:3 2>&1", TGCTL_BIN, name);
		p = popen(cmd, "r");
		REQUIRE(p, "popen: %s", strerror(errno));
		got = fread(buf, 1, sizeof(buf) - 1, p);
		buf[got] = 0;
		st = pclose(p);
		CHECK(st == 0 && strstr(buf, "switch_cycle"), "tgctl stats of node 3: %s", buf);
	}
	tg_close(d0);
	tg_close(d3);
	kill(job, SIGINT);
	st = wait_job(job, STOP_S, NULL);
	slurp(out, buf, sizeof(buf));
	CHECK(st != -1, "tg-sim over 2 ranks did not stop on SIGINT: %s", buf);
	printf("tg-sim over 2 ranks: placement said, same cycles, node 0 wrote to node 3 of "
	       "the other rank\n");
}

/*
 * A node whose rank runs on another machine: rank 1 gets a /dev/shm of
 * its own (a mount namespace), so that its objects are not on "this
 * machine"; opening its node must fail with ENODEV naming rank 1's host.
 */
static void test_other_machine(void)
{
	char name[32], out[256], script[256], dev[64];
	char *argv[] = { TG_MPIRUN, "--oversubscribe", "--mca", "btl", "self,tcp", "-np", "2",
			 script, TG_SIM_BIN, "--nodes", "4", "--mem-mib", "1", "--quiet", "--name",
			 name, NULL };
	struct tg_dev *d;
	pid_t job;
	FILE *f;
	int st;

	if (geteuid() != 0 || system("unshare -m true >/dev/null 2>&1") != 0) {
		printf("another machine: skipped (needs root and unshare -m)\n");
		return;
	}
	snprintf(name, sizeof(name), "tdm%d", (int)getpid());
	snprintf(out, sizeof(out), "%s/other.log", dir);
	snprintf(script, sizeof(script), "%s/rank1_apart.sh", dir);
	f = fopen(script, "w");
	REQUIRE(f, "%s: %s", script, strerror(errno));
	fprintf(f, "#!/bin/sh\n"
		"if [ \"$OMPI_COMM_WORLD_RANK\" = 1 ]; then\n"
		"\texec unshare -m sh -c 'mount -t tmpfs tmpfs /dev/shm && exec \"$@\"' sh \"$@\"\n"
		"fi\n"
		"exec \"$@\"\n");
	fclose(f);
	chmod(script, 0755);
	job = start_ready(argv, out, "tg-sim with rank 1 apart");
	snprintf(dev, sizeof(dev), "sim:%s:1", name);
	d = tg_open(dev, 0);
	CHECK(d != NULL, "%s (rank 0, here): %s", dev, tg_open_error());
	tg_close(d);
	snprintf(dev, sizeof(dev), "sim:%s:2", name);
	d = tg_open(dev, 0);
	CHECK(!d && errno == ENODEV && strstr(tg_open_error(), "served by rank 1 on "),
	      "%s (rank 1, apart): %s", dev, d ? "opened" : tg_open_error());
	printf("another machine: %s\n", tg_open_error());
	tg_close(d);
	kill(job, SIGINT);
	st = wait_job(job, STOP_S, NULL);
	CHECK(st != -1, "tg-sim with rank 1 apart did not stop on SIGINT");
}

int main(void)
{
	static struct result ref, r, fref;
	char cmd[512];
	double t1 = 0, t2 = 0, t4 = 0, tf1 = 0, tf4 = 0;
	unsigned entries;

	signal(SIGALRM, t_on_alarm_child);
	/* Open MPI refuses root unless told; CI runs as root */
	setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
	setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
	/* on SIGINT the ranks end the run (goodbyes, the capture, the
	 * counters) before mpirun kills them: 10 s, not its default 1 s */
	setenv("OMPI_MCA_odls_base_sigkill_timeout", "10", 1);
	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", TG_MPIRUN);
	if (system(cmd) != 0) {
		printf("test_dist: skipped (no %s: scripts/setup.sh installs openmpi-bin)\n",
		       TG_MPIRUN);
		return T_SKIP;
	}
	if (getenv("TG_DIST_SCALE"))
		scale = (unsigned)strtoul(getenv("TG_DIST_SCALE"), NULL, 0);
	REQUIRE(scale >= 1 && scale <= 40, "TG_DIST_SCALE: 1..40");
	alarm(ALARM_S(scale));
	REQUIRE(mkdtemp(dir) != NULL, "mkdtemp: %s", strerror(errno));
	/* a sanitizer build of the worker: Open MPI keeps memory to the end
	 * in plug-ins it unloads, which the leak checker cannot tell from
	 * ours; address and undefined-behaviour checks stay on */
	setenv("ASAN_OPTIONS", "detect_leaks=0", 0);

	REQUIRE(run_workload("one", 1, NULL, 0, &t1) == 0, "one-rank run failed");
	load("one", 1, &ref);
	entries = count_lines(&ref, " entry ");
	/* a run that lost entries would compare equal to itself only */
	CHECK(entries == NODES * MSGS * scale, "one process: %u entries, want %u", entries,
	      NODES * MSGS * scale);

	if (run_workload("two", 2, NULL, 0, &t2) == 0) {
		load("two", 2, &r);
		compare("2 ranks", &ref, &r);
		compare_pcap("2 ranks", "one", "two");
	}
	if (run_workload("four", 4, NULL, 0, &t4) == 0) {
		load("four", 4, &r);
		compare("4 ranks", &ref, &r);
		compare_pcap("4 ranks", "one", "four");
	}
	printf("16 nodes, %u entries: 1 rank %.2f s, 2 ranks %.2f s, 4 ranks %.2f s: the same "
	       "cycles, entries, counters, memory and capture\n", entries, t1, t2, t4);

	/* faults, an outage and the link layer; nodes dealt round-robin */
	REQUIRE(run_workload("fone", 1, NULL, 1, &tf1) == 0, "one-rank run with faults failed");
	load("fone", 1, &fref);
	entries = count_lines(&fref, " entry ");
	CHECK(entries == NODES * MSGS * scale, "faults, one process: %u entries, want %u", entries,
	      NODES * MSGS * scale);
	CHECK(sum_field(&fref, " drop ") && sum_field(&fref, " flip ") &&
	      sum_field(&fref, " dup ") && sum_field(&fref, " held ") && sum_field(&fref, " down "),
	      "faults: some kind of fault never happened");
	if (run_workload("ffour", 4, "cyclic", 1, &tf4) == 0) {
		load("ffour", 4, &r);
		compare("4 ranks, cyclic, faults", &fref, &r);
		compare_pcap("4 ranks, cyclic, faults", "fone", "ffour");
	}
	printf("with faults and the link layer: lost %" PRIu64 ", flipped %" PRIu64 ", duplicated %"
	       PRIu64 ", held back %" PRIu64 ", lost to an outage %" PRIu64 "; 1 rank %.2f s, 4 "
	       "ranks (cyclic) %.2f s: the same\n", sum_field(&fref, " drop "),
	       sum_field(&fref, " flip "), sum_field(&fref, " dup "), sum_field(&fref, " held "),
	       sum_field(&fref, " down "), tf1, tf4);

	test_failure(3, SIGKILL);
	test_failure(2, SIGSTOP);
	test_tgsim();
	test_other_machine();

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (!t_failed && system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return t_done("test_dist");
}
