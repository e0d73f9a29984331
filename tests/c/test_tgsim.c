/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: a real tg-sim process with client processes attached over shared memory. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tg/tg_sim_proto.h"
#include "tg_test.h"

#ifndef TG_SIM_BIN
#define TG_SIM_BIN "build/bin/tg-sim"
#endif

#define LEN         65536u
#define TIMEOUT_S   150u

static pid_t sim_pid;
#define STRAY_FAULTED 97   /* the stray client's exit code from its SIGSEGV handler */
static char name[64], devstr[2][96];

static void on_alarm(int sig)
{
	(void)sig;
	if (sim_pid > 0)
		kill(sim_pid, SIGKILL);
	static const char msg[] = "test_tgsim: timed out\n";
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(T_FAIL);
	_exit(T_FAIL);
}

/* Read tg-sim's output until a line containing `want` (or EOF/timeout). */
static int wait_line(int fd, const char *want, char *log, size_t logsz, double timeout)
{
	double t0 = t_now_s();
	size_t used = strlen(log);

	while (t_now_s() - t0 < timeout) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (poll(&p, 1, 100) <= 0)
			continue;
		n = read(fd, log + used, logsz - used - 1);
		if (n <= 0)
			return strstr(log, want) ? 0 : -1;
		used += (size_t)n;
		log[used] = 0;
		if (strstr(log, want))
			return 0;
	}
	return -1;
}

static int run_sim(const char *bin, char *const argv[], int *out_fd)
{
	int fds[2];
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		execv(bin, argv);
		_exit(127);
	}
	close(fds[1]);
	*out_fd = fds[0];
	return pid;
}

static int exit_code(pid_t pid, double timeout)
{
	double t0 = t_now_s();
	int st;

	while (t_now_s() - t0 < timeout) {
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid)
			return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		usleep(20000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	return -1;
}

static void xwrite(int fd, uint64_t v)
{
	REQUIRE(write(fd, &v, sizeof(v)) == sizeof(v), "pipe write");
}

static uint64_t xread(int fd)
{
	uint64_t v = 0;

	REQUIRE(read(fd, &v, sizeof(v)) == sizeof(v), "pipe read");
	return v;
}

/* Client on node 0: fill its own memory, write node 1's, fence. */
static int client_writer(int to_r, int from_r)
{
	struct tg_dev *d = tg_open(devstr[0], 0);
	struct tg_mr *mr;
	uint8_t *buf = malloc(LEN);
	uint64_t rpa;

	REQUIRE(d && buf, "writer: tg_open: %s", tg_strerror(-errno));
	/* tg-sim runs with --clock-mhz 62.5: 16 ns a cycle */
	CHECK(tg_clock_khz(d) == 62500, "writer: %u kHz, not --clock-mhz 62.5", tg_clock_khz(d));
	mr = tg_mr_alloc(d, LEN, TG_ACCESS_ALL);
	REQUIRE(mr, "writer: tg_mr_alloc: %s", tg_strerror(-errno));
	for (unsigned i = 0; i < LEN; i++) {
		((uint8_t *)tg_mr_ptr(mr))[i] = t_pat(22, i);
		buf[i] = t_pat(11, i);
	}
	rpa = xread(from_r);
	CHECK_RC(tg_write(d, 1, rpa, buf, LEN), 0);
	CHECK_RC(tg_fence(d, 1), 0);
	xwrite(to_r, tg_mr_paddr(mr));
	xread(from_r);                  /* the reader is done with our memory */
	tg_mr_free(mr);
	tg_close(d);
	free(buf);
	return t_failed ? T_FAIL : T_PASS;
}

/* Client on node 1: check what the writer stored, read the writer's memory. */
static int client_reader(int to_w, int from_w)
{
	struct tg_dev *d = tg_open(devstr[1], 0);
	struct tg_mr *mr;
	uint8_t *buf = malloc(LEN), *p;
	uint64_t wpa;
	unsigned bad = 0;

	REQUIRE(d && buf, "reader: tg_open: %s", tg_strerror(-errno));
	mr = tg_mr_alloc(d, LEN, TG_ACCESS_ALL);
	REQUIRE(mr, "reader: tg_mr_alloc: %s", tg_strerror(-errno));
	xwrite(to_w, tg_mr_paddr(mr));
	wpa = xread(from_w);
	p = tg_mr_ptr(mr);
	for (unsigned i = 0; i < LEN; i++)
		bad += p[i] != t_pat(11, i);
	CHECK(bad == 0, "reader: %u bytes the writer stored differ", bad);
	CHECK_RC(tg_read(d, 0, wpa, buf, LEN), 0);
	bad = 0;
	for (unsigned i = 0; i < LEN; i++)
		bad += buf[i] != t_pat(22, i);
	CHECK(bad == 0, "reader: %u bytes read from node 0 differ", bad);
	xwrite(to_w, 1);
	tg_mr_free(mr);
	tg_close(d);
	free(buf);
	return t_failed ? T_FAIL : T_PASS;
}

static void on_segv(int sig)
{
	(void)sig;
	_exit(STRAY_FAULTED);
}

/* A client that stores one byte past its region, where another client's
 * region lies: the store must fault. */
static int client_stray(int to, int from)
{
	struct tg_dev *d = tg_open(devstr[0], 0);
	struct tg_mr *mr;
	volatile uint8_t *p;

	REQUIRE(d, "stray: tg_open: %s", tg_strerror(-errno));
	mr = tg_mr_alloc(d, 4096, TG_ACCESS_ALL);
	REQUIRE(mr, "stray: tg_mr_alloc: %s", tg_strerror(-errno));
	p = tg_mr_ptr(mr);
	for (unsigned i = 0; i < 4096; i++)
		p[i] = 0x5a;                  /* its own memory: fine */
	xwrite(to, tg_mr_paddr(mr));
	xread(from);                          /* the neighbour is in place */
	signal(SIGSEGV, on_segv);
	p[4096] = 0xa5;                       /* one past the end */
	return T_PASS;                        /* not reached when the store faults */
}

static pid_t spawn(int (*fn)(int, int), int to, int from)
{
	pid_t pid = fork();

	REQUIRE(pid >= 0, "fork");
	if (pid == 0)
		_exit(fn(to, from));
	return pid;
}

int main(void)
{
	const char *bin = getenv("TG_SIM_BIN") ? getenv("TG_SIM_BIN") : TG_SIM_BIN;
	char pcap[512], log[16384] = "", log2[4096] = "", obj[128], cmd[700];
	char *argv[16];
	int p1[2], p2[2], fd, fd2, st;
	pid_t w, r, d;
	uint64_t tx[2] = { 0, 0 };
	struct tg_dev *dev[TG_SIMP_CTX_SLOTS];
	unsigned bad, opened = 0;
	int frames;
	double t0;

	if (access(bin, X_OK)) {
		fprintf(stderr, "test_tgsim: no simulator at %s (set TG_SIM_BIN)\n", bin);
		return T_SKIP;
	}
	signal(SIGALRM, on_alarm);
	alarm(TIMEOUT_S);
	snprintf(name, sizeof(name), "ctest-%d", (int)getpid());
	snprintf(devstr[0], sizeof(devstr[0]), "sim:%s:0", name);
	snprintf(devstr[1], sizeof(devstr[1]), "sim:%s:1", name);
	snprintf(pcap, sizeof(pcap), "%s/tg-%s.pcap",
		 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", name);

	/* bad arguments: exit 2 */
	argv[0] = (char *)bin; argv[1] = "--nodes"; argv[2] = "0"; argv[3] = NULL;
	d = run_sim(bin, argv, &fd);
	CHECK(exit_code(d, 10) == 2, "--nodes 0 did not exit 2");
	close(fd);
	argv[1] = "--bogus"; argv[2] = NULL;
	d = run_sim(bin, argv, &fd);
	CHECK(exit_code(d, 10) == 2, "--bogus did not exit 2");
	close(fd);
	{
		static char *const bad_mhz[] = { "0", "abc", "", "10001", "-5" };

		for (unsigned i = 0; i < sizeof(bad_mhz) / sizeof(bad_mhz[0]); i++) {
			argv[1] = "--clock-mhz"; argv[2] = bad_mhz[i]; argv[3] = NULL;
			d = run_sim(bin, argv, &fd);
			CHECK(exit_code(d, 10) == 2, "--clock-mhz '%s' did not exit 2", bad_mhz[i]);
			close(fd);
		}
	}

	argv[0] = (char *)bin; argv[1] = "--name"; argv[2] = name; argv[3] = "--pcap";
	argv[4] = pcap; argv[5] = "--mem-latency"; argv[6] = "1:8"; argv[7] = "--seed";
	argv[8] = "5"; argv[9] = "--mem-mib"; argv[10] = "16"; argv[11] = "--clock-mhz";
	argv[12] = "62.5"; argv[13] = NULL;
	sim_pid = run_sim(bin, argv, &fd);
	REQUIRE(sim_pid > 0, "fork");
	REQUIRE(wait_line(fd, "tg-sim: ready", log, sizeof(log), 60) == 0,
		"tg-sim did not get ready:\n%s", log);

	/* the same name twice: refused */
	d = run_sim(bin, argv, &fd2);
	CHECK(exit_code(d, 20) == 1, "a second simulator of the same name did not exit 1");
	wait_line(fd2, "\n", log2, sizeof(log2), 1);
	CHECK(strstr(log2, "running") != NULL, "second simulator said: %s", log2);
	close(fd2);

	/* two clients, two processes, two nodes */
	REQUIRE(pipe(p1) == 0 && pipe(p2) == 0, "pipe");
	w = spawn(client_writer, p1[1], p2[0]);
	r = spawn(client_reader, p2[1], p1[0]);
	CHECK(exit_code(w, 100) == 0, "writer client failed");
	CHECK(exit_code(r, 100) == 0, "reader client failed");

	/* a client maps only the memory it uses: a store one byte past its
	 * region faults instead of reaching the next client's region */
	{
		struct tg_dev *o = tg_open(devstr[0], 0);
		struct tg_mr *nb;
		uint64_t spa;
		unsigned changed = 0;
		pid_t s;
		int code;

		REQUIRE(o && pipe(p1) == 0 && pipe(p2) == 0, "neighbour client");
		s = spawn(client_stray, p1[1], p2[0]);
		spa = xread(p1[0]);
		nb = tg_mr_alloc(o, 4096, TG_ACCESS_ALL);
		REQUIRE(nb, "neighbour region: %s", tg_strerror(-errno));
		CHECK(tg_mr_paddr(nb) == spa + 4096, "the neighbour's region is at 0x%" PRIx64
		      ", not right after the stray client's 0x%" PRIx64, tg_mr_paddr(nb), spa);
		memset(tg_mr_ptr(nb), 0x3c, 4096);
		xwrite(p2[1], 1);
		code = exit_code(s, 30);
		CHECK(code == STRAY_FAULTED || code == 128 + SIGSEGV,
		      "a store past the client's region did not fault (exit %d)", code);
		for (unsigned i = 0; i < 4096; i++)
			changed += ((uint8_t *)tg_mr_ptr(nb))[i] != 0x3c;
		CHECK(changed == 0, "%u bytes of the neighbour's region changed", changed);
		tg_mr_free(nb);
		tg_close(o);
		close(p1[0]); close(p1[1]); close(p2[0]); close(p2[1]);
	}

	/* a client that dies without closing gets its context freed */
	d = fork();
	if (d == 0) {
		struct tg_dev *x = tg_open(devstr[0], 0);

		_exit(x ? 0 : 1);
	}
	CHECK(exit_code(d, 30) == 0, "dying client could not open");
	t0 = t_now_s();
	while (opened < TG_SIMP_CTX_SLOTS && t_now_s() - t0 < 20) {
		dev[opened] = tg_open(devstr[0], opened ? 0 : TG_OPEN_DRIVER);
		if (dev[opened])
			opened++;
		else if (errno == EBUSY)
			usleep(50000);
		else
			break;
	}
	CHECK(opened == TG_SIMP_CTX_SLOTS, "only %u contexts after a client died: %s", opened,
	      tg_strerror(-errno));
	CHECK(tg_open("sim:no-such-simulator:0", 0) == NULL && errno == ENXIO, "ENXIO");
	{
		char s[96];

		snprintf(s, sizeof(s), "sim:%s:2", name);
		CHECK(tg_open(s, 0) == NULL && errno == ENODEV &&
		      strstr(tg_open_error(), "has 2 nodes, 0 to 1"), "node 2 of 2: %s",
		      tg_open_error());
	}
	if (opened) {
		struct tg_dev *d1 = tg_open(devstr[1], TG_OPEN_DRIVER);

		CHECK_RC(tg_csr_read(dev[0], TG_CSR_REG_TX_FRAMES, &tx[0]), 0);
		CHECK(d1 != NULL, "driver open of node 1");
		if (d1)
			CHECK_RC(tg_csr_read(d1, TG_CSR_REG_TX_FRAMES, &tx[1]), 0);
		tg_close(d1);
	}
	for (unsigned i = 0; i < opened; i++)
		tg_close(dev[i]);

	/* clean stop: exit 0, speed printed, shared memory removed */
	kill(sim_pid, SIGTERM);
	st = exit_code(sim_pid, 30);
	sim_pid = 0;
	wait_line(fd, "cycles/s", log, sizeof(log), 5);
	CHECK(st == 0, "tg-sim exit %d:\n%s", st, log);
	CHECK(strstr(log, "cycles/s") != NULL, "no speed report:\n%s", log);
	tg_simp_obj_name(obj, sizeof(obj), name, -1);
	CHECK(shm_open(obj, O_RDONLY, 0) < 0 && errno == ENOENT, "control object left behind");
	tg_simp_obj_name(obj, sizeof(obj), name, 1);
	CHECK(shm_open(obj, O_RDONLY, 0) < 0 && errno == ENOENT, "memory object left behind");

	/* every frame in the capture, each a valid Telegraphos frame */
	frames = t_pcap_frames(pcap, &bad);
	CHECK(bad == 0, "%u bad pcap records", bad);
	CHECK(frames > 0 && (uint64_t)frames == tx[0] + tx[1], "%d frames captured, NICs sent %"
	      PRIu64, frames, tx[0] + tx[1]);
	snprintf(cmd, sizeof(cmd), "command -v tshark >/dev/null 2>&1 || exit 77; "
		 "n=$(tshark -r '%s' 2>/dev/null | wc -l) && [ \"$n\" -eq %d ]", pcap, frames);
	st = system(cmd);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 77)
		printf("tshark not installed: capture checked by the built-in decoder only\n");
	else
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "tshark did not read %d frames", frames);
	unlink(pcap);
	close(fd);
	return t_done("test_tgsim");
}
