/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: tgctl stats on the nodes of a tg-sim run with faults: NIC and switch counters as the test counted them; tg-sim's fault options; tgctl queues and show: the queue table as the NIC holds it, read without moving QSEL. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tg_test_child.h"

#ifndef TG_SIM_BIN
#define TG_SIM_BIN "build/bin/tg-sim"
#endif
#ifndef TGCTL_BIN
#define TGCTL_BIN "build/bin/tgctl"
#endif

#define WRITES  100u


/* Start tg-sim with argv; *fd reads its output. */
static pid_t start(char **argv, int *fd)
{
	int p[2];
	pid_t pid;

	REQUIRE(pipe(p) == 0, "pipe");
	pid = fork();
	REQUIRE(pid >= 0, "fork");
	if (pid == 0) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		close(p[0]);
		close(p[1]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	*fd = p[0];
	return pid;
}

static int exit_status(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* tg-sim refuses argv with exit status 2. */
static void refused(const char *bin, const char *opt, const char *val)
{
	char *argv[] = { (char *)bin, "--name", "never", (char *)opt, (char *)val, NULL };
	int fd, st;
	pid_t pid = start(argv, &fd);

	st = exit_status(pid);
	close(fd);
	CHECK(st == 2, "tg-sim %s %s: exit %d, want 2", opt, val, st);
}

struct kv {
	char name[32];
	uint64_t v;
};

/* Run tgctl stats DEV; returns its exit status, the "name number" lines in kv. */
static int tgctl_stats(const char *dev, struct kv *kv, unsigned max, unsigned *n)
{
	const char *bin = getenv("TGCTL_BIN") ? getenv("TGCTL_BIN") : TGCTL_BIN;
	char cmd[512], line[256];
	FILE *f;
	int st;

	snprintf(cmd, sizeof(cmd), "%s stats %s 2>&1", bin, dev);
	f = popen(cmd, "r");
	REQUIRE(f, "popen");
	*n = 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v;
		char nm[32];

		if (sscanf(line, "%31s %llu", nm, &v) == 2 && *n < max) {
			snprintf(kv[*n].name, sizeof(kv[*n].name), "%s", nm);
			kv[(*n)++].v = v;
		}
	}
	st = pclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static uint64_t get(const struct kv *kv, unsigned n, const char *name)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(kv[i].name, name))
			return kv[i].v;
	CHECK(0, "tgctl printed no %s", name);
	return ~0ull;
}

/* Run tgctl ARGS into out (NUL-terminated); returns its exit status. */
static int tgctl_run(const char *args, char *out, size_t out_sz)
{
	const char *bin = getenv("TGCTL_BIN") ? getenv("TGCTL_BIN") : TGCTL_BIN;
	char cmd[512];
	size_t n = 0, k;
	FILE *f;
	int st;

	snprintf(cmd, sizeof(cmd), "%s %s 2>&1", bin, args);
	f = popen(cmd, "r");
	REQUIRE(f, "popen");
	while (n + 1 < out_sz && (k = fread(out + n, 1, out_sz - 1 - n, f)) > 0)
		n += k;
	out[n] = 0;
	st = pclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The row tgctl printed for queue-table entry idx, parsed; 0 if none. */
static int queue_row(const char *out, unsigned idx, uint64_t *base, uint64_t *buf, unsigned *ent,
		     uint64_t *tail, char *head, char *flags)
{
	const char *l = strstr(out, "\n  entry");

	while (l && (l = strchr(l + 1, '\n'))) {
		unsigned q;
		unsigned long long b, z, t;

		if (sscanf(l + 1, " %u %llx %llu %u %llx %23s %23s", &q, &b, &z, ent, &t, head,
			   flags) == 7 && q == idx) {
			*base = b;
			*buf = z;
			*tail = t;
			return 1;
		}
	}
	return 0;
}

/* tgctl queues and show on a fault-free run: two queues node 1 opened,
 * one with entries, as the NIC holds them; QSEL as the driver left it. */
static void queues_phase(const char *bin)
{
	char name[64], dev0[96], dev1[96], args[160], head[24], flags[24];
	static char out[16384];
	char *argv[8];
	struct tg_dev *d0, *d1, *drv;
	struct tg_queue *qa, *qb;
	uint64_t base, buf, tail, qtail = 0, sel = 0, w;
	unsigned ent;
	int fd, st;

	snprintf(name, sizeof(name), "ctlq-%d", (int)getpid());
	snprintf(dev0, sizeof(dev0), "sim:%s:0", name);
	snprintf(dev1, sizeof(dev1), "sim:%s:1", name);
	argv[0] = (char *)bin; argv[1] = "--name"; argv[2] = name; argv[3] = "--mem-mib";
	argv[4] = "8"; argv[5] = NULL;
	t_child_pid = start(argv, &fd);
	REQUIRE(t_wait_ready(fd) == 0, "tg-sim did not start");

	snprintf(args, sizeof(args), "queues %s", dev1);
	st = tgctl_run(args, out, sizeof(out));
	CHECK(st == 0 && strstr(out, "queues     0 of 16 entries enabled"),
	      "tgctl queues on a node without queues: exit %d:\n%s", st, out);

	d0 = tg_open(dev0, 0);
	d1 = tg_open(dev1, 0);
	drv = tg_open(dev1, TG_OPEN_DRIVER);
	REQUIRE(d0 && d1 && drv, "open: %s", tg_strerror(-errno));
	qa = tg_queue_open(d1, 12, 8);
	qb = tg_queue_open(d1, 8, 16);
	REQUIRE(qa && qb, "tg_queue_open: %s", tg_strerror(-errno));
	for (uint64_t k = 1; k <= 5; k++)
		CHECK_RC(tg_enq(d0, 1, tg_queue_paddr(qa), k), 0);
	for (unsigned k = 0; k < 2; k++)
		CHECK(tg_deq_wait(qa, &w, 8, 2000000000ull) == 0 && w == k + 1u,
		      "dequeue %u: %" PRIu64, k, w);
	/* three more entries wait: the NIC's tail is past them */
	for (int tries = 0; tries < 2000; tries++) {
		CHECK_RC(tg_read(d0, 1, tg_queue_paddr(qa) + TG_Q_TAIL, &qtail, 8), 0);
		if (qtail == TG_Q_SLOTS + 5u * 8u)
			break;
		usleep(1000);
	}
	CHECK(qtail == TG_Q_SLOTS + 5u * 8u, "queue tail %#" PRIx64, qtail);
	/* node 1's memory seen from node 0's program, past the NICs, and by tgctl mem */
	{
		uint64_t ent[5] = { 0 }, tl = 0;
		char margs[160], mhead[32];

		CHECK_RC(tg_sim_mem_read(d0, 1, tg_queue_paddr(qa) + TG_Q_SLOTS, ent, sizeof(ent)), 0);
		CHECK_RC(tg_sim_mem_read(d0, 1, tg_queue_paddr(qa) + TG_Q_TAIL, &tl, 8), 0);
		for (unsigned k = 0; k < 5; k++)
			CHECK(ent[k] == k + 1u, "entry %u in node 1's memory: %" PRIu64, k, ent[k]);
		CHECK(tl == qtail, "tail in node 1's memory %#" PRIx64, tl);
		CHECK_RC(tg_sim_mem_read(d0, 1, 8ull << 20, ent, 8), -EFAULT);
		CHECK_RC(tg_sim_mem_read(d0, 2, 0, ent, 8), -EINVAL);
		snprintf(margs, sizeof(margs), "mem %s %#" PRIx64 " 40", dev1,
			 (uint64_t)(tg_queue_paddr(qa) + TG_Q_SLOTS));
		st = tgctl_run(margs, out, sizeof(out));
		snprintf(mhead, sizeof(mhead), "0x%08" PRIx64 " ",
			 (uint64_t)(tg_queue_paddr(qa) + TG_Q_SLOTS));
		CHECK(st == 0 && !strncmp(out, mhead, strlen(mhead)) &&
		      strstr(out, " 0000000000000001 0000000000000002 0000000000000003 "
				  "0000000000000004\n0x") &&
		      strstr(out, " 0000000000000005\n"), "tgctl %s: exit %d:\n%s", margs, st, out);
		st = tgctl_run("mem sim:x 0", out, sizeof(out));
		CHECK(st == 2, "tgctl mem sim:x: exit %d", st);
		snprintf(margs, sizeof(margs), "mem %s 4", dev1);
		CHECK(tgctl_run(margs, out, sizeof(out)) == 2, "tgctl mem at a misaligned address");
		snprintf(margs, sizeof(margs), "mem %s 0x800000 8", dev1);
		st = tgctl_run(margs, out, sizeof(out));
		CHECK(st == 1 && strstr(out, "tgctl: mem "), "tgctl %s past MEM_SIZE: exit %d:\n%s",
		      margs, st, out);
	}
	/* QSEL where a driver might have left it: the monitor must not move it */
	CHECK_RC(tg_csr_write(drv, TG_CSR_REG_QSEL, 9), 0);

	st = tgctl_run(args, out, sizeof(out));
	CHECK(st == 0, "tgctl %s: exit %d:\n%s", args, st, out);
	CHECK(strstr(out, "queues     2 of 16 entries enabled") != NULL, "tgctl %s:\n%s", args, out);
	CHECK_RC(tg_csr_read(drv, TG_CSR_REG_QSEL, &sel), 0);
	CHECK((sel & 15u) == 9, "tgctl moved QSEL to %" PRIu64, sel & 15u);
	/* the first two entries the driver handed out, in order */
	CHECK(queue_row(out, 0, &base, &buf, &ent, &tail, head, flags) &&
	      base == tg_queue_paddr(qa) && buf == 4096 && ent == 8 && tail == qtail &&
	      !strcmp(flags, "-"), "entry 0: base %#" PRIx64 " (queue at %#" PRIx64 ") buffer %"
	      PRIu64 " entry %u tail %#" PRIx64 " flags %s:\n%s", base, tg_queue_paddr(qa), buf,
	      ent, tail, flags, out);
	CHECK(queue_row(out, 1, &base, &buf, &ent, &tail, head, flags) &&
	      base == tg_queue_paddr(qb) && buf == 256 && ent == 16 && tail == TG_Q_SLOTS &&
	      !strcmp(head, "-"), "entry 1: base %#" PRIx64 " (queue at %#" PRIx64 ") buffer %"
	      PRIu64 " entry %u tail %#" PRIx64 " head %s:\n%s", base, tg_queue_paddr(qb), buf,
	      ent, tail, head, out);

	/* show: identity, counters and the same table */
	snprintf(args, sizeof(args), "show %s", dev1);
	st = tgctl_run(args, out, sizeof(out));
	CHECK(st == 0 && strstr(out, "req_accepted       5") &&
	      strstr(out, "queues     2 of 16 entries enabled") &&
	      queue_row(out, 0, &base, &buf, &ent, &tail, head, flags) &&
	      base == tg_queue_paddr(qa), "tgctl %s: exit %d:\n%s", args, st, out);

	/* a queue closed leaves its entry disabled */
	tg_queue_close(qb);
	snprintf(args, sizeof(args), "queues %s", dev1);
	st = tgctl_run(args, out, sizeof(out));
	CHECK(st == 0 && strstr(out, "queues     1 of 16 entries enabled") &&
	      !queue_row(out, 1, &base, &buf, &ent, &tail, head, flags),
	      "after close: exit %d:\n%s", st, out);
	printf("tgctl queues: entry 0 at %#" PRIx64 " tail %#" PRIx64 ", QSEL left at %" PRIu64
	       "\n", tg_queue_paddr(qa), qtail, sel & 15u);

	/* bad devices */
	st = tgctl_run("queues sim:x", out, sizeof(out));
	CHECK(st == 2, "tgctl queues sim:x: exit %d", st);
	snprintf(args, sizeof(args), "queues sim:%s-gone:0", name);
	st = tgctl_run(args, out, sizeof(out));
	CHECK(st == 1, "tgctl %s: exit %d", args, st);

	tg_queue_close(qa);
	tg_close(drv);
	tg_close(d1);
	tg_close(d0);
	kill(t_child_pid, SIGTERM);
	st = exit_status(t_child_pid);
	t_child_pid = 0;
	CHECK(st == 0, "tg-sim exit %d", st);
	close(fd);
}

int main(void)
{
	const char *bin = getenv("TG_SIM_BIN") ? getenv("TG_SIM_BIN") : TG_SIM_BIN;
	char name[64], dev0[96], dev1[96], bad[96];
	struct kv s0[64], s1[64];
	unsigned n0, n1;
	struct tg_dev *d0, *d1;
	struct tg_mr *mr;
	uint64_t c0[6], c1[6], t, rx_sw;
	static const uint64_t regs[6] = {
		TG_CSR_REG_TX_FRAMES, TG_CSR_REG_RX_FRAMES, TG_CSR_REG_RX_DROP_FCS,
		TG_CSR_REG_RX_DROP_TYPE, TG_CSR_REG_RX_DROP_MALFORMED, TG_CSR_REG_RX_STRAY,
	};
	char *argv[32];
	int fd, st;

	if (access(bin, X_OK)) {
		fprintf(stderr, "test_tgctl_stats: no simulator at %s\n", bin);
		return T_SKIP;
	}
	signal(SIGALRM, t_on_alarm_child);
	alarm(120);
	refused(bin, "--drop-ppm", "1000001");
	refused(bin, "--link-down", "1:5:5");
	refused(bin, "--link-down", "7:5:9");
	refused(bin, "--link", "1:10:0");
	refused(bin, "--reorder-depth", "0");

	snprintf(name, sizeof(name), "ctl-%d", (int)getpid());
	snprintf(dev0, sizeof(dev0), "sim:%s:0", name);
	snprintf(dev1, sizeof(dev1), "sim:%s:1", name);
	argv[0] = (char *)bin; argv[1] = "--name"; argv[2] = name; argv[3] = "--seed";
	argv[4] = "3"; argv[5] = "--flip-ppm"; argv[6] = "200000"; argv[7] = "--dup-ppm";
	argv[8] = "100000"; argv[9] = "--reorder-ppm"; argv[10] = "100000";
	argv[11] = "--buffer-bytes"; argv[12] = "65536"; argv[13] = "--link"; argv[14] = "1:20:2";
	argv[15] = "--link-down"; argv[16] = "1:0:100"; argv[17] = "--mem-mib"; argv[18] = "8";
	argv[19] = NULL;
	t_child_pid = start(argv, &fd);
	REQUIRE(t_wait_ready(fd) == 0, "tg-sim did not start");

	d0 = tg_open(dev0, TG_OPEN_DRIVER);
	d1 = tg_open(dev1, TG_OPEN_DRIVER);
	REQUIRE(d0 && d1, "open: %s", tg_strerror(-errno));
	mr = tg_mr_alloc(d1, 4096, 0);
	REQUIRE(mr, "mr");
	for (uint64_t k = 0; k < WRITES; k++)
		CHECK_RC(tg_write(d0, 1, tg_mr_paddr(mr) + 8 * (k % 512), &k, 8), 0);
	/* no fence (its frames may be corrupted): wait until all is sent,
	 * then long enough for every frame to arrive and the counters to be
	 * published */
	while (t_csr(d0, TG_CSR_REG_TX_FRAMES) < WRITES && !t_failed)
		usleep(1000);
	t = tg_cycles(d0);
	while (tg_cycles(d0) < t + 20000)
		usleep(1000);
	for (unsigned i = 0; i < 6; i++) {
		c0[i] = t_csr(d0, regs[i]);
		c1[i] = t_csr(d1, regs[i]);
	}
	/* programs attached: every cycle is evaluated, none fast-forwarded */
	st = tgctl_stats(dev0, s0, 64, &n0);
	CHECK(st == 0, "tgctl stats %s: exit %d", dev0, st);
	t = tg_cycles(d0);
	while (tg_cycles(d0) < t + 5000)
		usleep(1000);
	st = tgctl_stats(dev0, s1, 64, &n1);
	CHECK(st == 0, "tgctl stats %s: exit %d", dev0, st);
	CHECK(get(s0, n0, "sim_ff_cycles") == get(s1, n1, "sim_ff_cycles"),
	      "%" PRIu64 " cycles fast-forwarded with programs attached",
	      get(s1, n1, "sim_ff_cycles") - get(s0, n0, "sim_ff_cycles"));
	tg_close(d0);
	tg_close(d1);

	st = tgctl_stats(dev0, s0, 64, &n0);
	CHECK(st == 0, "tgctl stats %s: exit %d", dev0, st);
	st = tgctl_stats(dev1, s1, 64, &n1);
	CHECK(st == 0, "tgctl stats %s: exit %d", dev1, st);
	/* the NIC counters, as read through the CSR page */
	CHECK(get(s0, n0, "tx_frames") == c0[0] && c0[0] >= WRITES, "node 0 tx_frames %" PRIu64
	      ", CSR %" PRIu64, get(s0, n0, "tx_frames"), c0[0]);
	CHECK(get(s1, n1, "rx_frames") == c1[1], "node 1 rx_frames %" PRIu64 ", CSR %" PRIu64,
	      get(s1, n1, "rx_frames"), c1[1]);
	CHECK(get(s1, n1, "rx_drop_fcs") == c1[2] && get(s1, n1, "rx_drop_type") == c1[3] &&
	      get(s1, n1, "rx_drop_malformed") == c1[4] && get(s1, n1, "rx_stray") == c1[5],
	      "node 1 drop counters");
	CHECK(get(s1, n1, "node") == 1 && get(s1, n1, "req_refused") == 0 &&
	      get(s1, n1, "req_retries") == 0 && get(s1, n1, "tx_frames") == c1[0],
	      "node 1 identity, REQ and TX counters");
	/* the link layer is off in this run: its counters are there, all 0 */
	CHECK(get(s0, n0, "link_retx") == 0 && get(s1, n1, "link_dup_drop") == 0 &&
	      get(s1, n1, "link_ooo_drop") == 0 && get(s1, n1, "link_busy_drop") == 0 &&
	      get(s0, n0, "link_naks_sent") == 0 && get(s0, n0, "link_acks_sent") == 0 &&
	      get(s0, n0, "link_peer_gone") == 0, "link-layer counters of a run without it");
	/* the switch: what node 0 sent, what was done to it, what node 1 got */
	rx_sw = get(s1, n1, "switch_rx_frames");
	CHECK(get(s0, n0, "switch_tx_frames") == c0[0], "switch saw %" PRIu64 " frames from "
	      "node 0, which sent %" PRIu64, get(s0, n0, "switch_tx_frames"), c0[0]);
	CHECK(rx_sw == c0[0] + get(s0, n0, "switch_dup_injected"), "node 1 got %" PRIu64
	      " frames from the switch, %" PRIu64 " duplicated", rx_sw,
	      get(s0, n0, "switch_dup_injected"));
	CHECK(c1[1] + c1[2] + c1[3] + c1[4] <= rx_sw && c1[1] >= WRITES / 2, "node 1 accepted %"
	      PRIu64 " + dropped %" PRIu64 " of %" PRIu64 " delivered", c1[1],
	      c1[2] + c1[3] + c1[4], rx_sw);
	CHECK(c1[2] + c1[3] + c1[4] >= get(s0, n0, "switch_flip_injected") &&
	      get(s0, n0, "switch_flip_injected") > 0, "node 1 dropped %" PRIu64 ", %" PRIu64
	      " flipped", c1[2] + c1[3] + c1[4], get(s0, n0, "switch_flip_injected"));
	CHECK(get(s0, n0, "switch_reorder_injected") > 0 && get(s1, n1, "switch_drop_congestion")
	      == 0 && get(s1, n1, "switch_drop_link_down") == 0, "reorder, congestion, outage");
	printf("node 0 sent %" PRIu64 ": %" PRIu64 " flipped, %" PRIu64 " duplicated, %" PRIu64
	       " held back; node 1 accepted %" PRIu64 ", dropped %" PRIu64 " (FCS)\n", c0[0],
	       get(s0, n0, "switch_flip_injected"), get(s0, n0, "switch_dup_injected"),
	       get(s0, n0, "switch_reorder_injected"), c1[1], c1[2]);

	/* bad devices */
	snprintf(bad, sizeof(bad), "sim:%s:x", name);
	CHECK(tgctl_stats(bad, s0, 64, &n0) == 2, "%s accepted", bad);
	snprintf(bad, sizeof(bad), "sim:%s-gone:0", name);
	CHECK(tgctl_stats(bad, s0, 64, &n0) == 1, "%s: no failure", bad);

	kill(t_child_pid, SIGTERM);
	st = exit_status(t_child_pid);
	t_child_pid = 0;
	CHECK(st == 0, "tg-sim exit %d", st);
	close(fd);

	queues_phase(bin);
	return t_done("test_tgctl_stats");
}
