/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: the bridge to a Linux interface shows the cluster's frames on a veth pair and delivers frames sent into it. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <sched.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "tg_test_child.h"

#define LEN 64u

/* A frame seen on the far end of the veth pair. */
struct seen {
	struct tg_frame_hdr h;
	uint8_t payload[LEN];
	int ok;
};

/* Read frames from fd until one matches (src, dst, op), or the
 * simulator has run `cycles` more cycles (sim NULL: a tg-sim runs on its
 * own; a wait of 10 us per cycle of 64).  Returns 1 if found. */
static int wait_frame(int fd, struct tg_sim *sim, unsigned src, unsigned dst, unsigned op,
		      uint64_t cycles, struct seen *out, unsigned *frames)
{
	uint8_t buf[TG_MAX_FRAME_BYTES + 64];

	for (uint64_t c = 0; c < cycles; c += 64) {
		ssize_t n;

		while ((n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT)) > 0) {
			struct tg_frame_hdr h;

			(*frames)++;
			if (tg_frame_decode(buf, (size_t)n, &h))
				continue;
			if (h.src != src || h.dst != dst || h.op != op)
				continue;
			out->h = h;
			memcpy(out->payload, buf + TG_PAYLOAD_OFF,
			       (size_t)n - TG_PAYLOAD_OFF - TG_FCS_BYTES < LEN ?
			       (size_t)n - TG_PAYLOAD_OFF - TG_FCS_BYTES : LEN);
			out->ok = 1;
			return 1;
		}
		if (sim)
			tg_sim_step(sim, 64);
		else
			usleep(640);
	}
	return 0;
}

#ifndef TG_MPIRUN
#define TG_MPIRUN "mpirun"
#endif

/* What a job wrote to fd so far, as a string. */
static void read_out(int fd, char *buf, size_t n)
{
	ssize_t k;

	lseek(fd, 0, SEEK_SET);
	k = read(fd, buf, n - 1);
	buf[k > 0 ? k : 0] = 0;
}

/*
 * tg-sim under mpirun, 4 nodes over 2 ranks, rank 1 bridged: a write and
 * a read from outside the cluster, sent into the veth for node 3 (rank
 * 1), are executed, and the read's answer comes back out.  h: a WRITE
 * header seen before; fd: the far end.
 */
static void test_split(int fd, struct tg_frame_hdr h, const uint8_t *data)
{
	char name[32], out[] = "/tmp/test_bridge_XXXXXX", buf[8192];
	char *argv[] = { TG_MPIRUN, "--oversubscribe", "-np", "2", TG_SIM_BIN, "--nodes", "4",
			 "--mem-mib", "1", "--bridge", "tgbr0", "--bridge-rank", "1", "--name",
			 name, NULL };
	uint8_t frame[TG_MAX_FRAME_BYTES];
	struct seen ack = { 0 };
	unsigned frames = 0;
	size_t flen;
	double t0;
	pid_t pid, w;
	int ofd, st;

	/* a time out of the test kills the job's process group */
	signal(SIGALRM, t_on_alarm_child);
	/* Open MPI refuses root unless told; CI runs as root */
	setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
	setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
	/* on SIGINT the ranks end the run (goodbyes, the capture, the
	 * counters) before mpirun kills them: 10 s, not its default 1 s */
	setenv("OMPI_MCA_odls_base_sigkill_timeout", "10", 1);
	snprintf(buf, sizeof(buf), "command -v %s >/dev/null 2>&1 && ip link set lo up", TG_MPIRUN);
	if (system(buf)) {
		printf("tg-sim over 2 ranks: skipped (no %s)\n", TG_MPIRUN);
		return;
	}
	snprintf(name, sizeof(name), "tbr%d", (int)getpid());
	ofd = mkstemp(out);
	REQUIRE(ofd >= 0, "mkstemp: %s", strerror(errno));
	pid = fork();
	REQUIRE(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		setpgid(0, 0);   /* mpirun leads a group: its ranks can be killed with it */
		dup2(ofd, 1);
		dup2(ofd, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	setpgid(pid, pid);
	t_child_pgid = pid;
	t0 = t_now_s();
	do {
		usleep(50000);
		read_out(ofd, buf, sizeof(buf));
	} while (!strstr(buf, "tg-sim: ready") && t_now_s() - t0 < 30);
	CHECK(strstr(buf, "tg-sim: ready") != NULL, "tg-sim over 2 ranks not ready: %s", buf);
	h.dst = 3;
	h.src = 7;
	h.addr = 0x10000;
	flen = tg_frame_encode(frame, &h, data);
	CHECK(send(fd, frame, flen, 0) == (ssize_t)flen, "send: %s", strerror(errno));
	h.op = TG_OP_READ_REQ;
	h.tag = 0x66;
	flen = tg_frame_encode(frame, &h, NULL);
	usleep(100000);
	CHECK(send(fd, frame, flen, 0) == (ssize_t)flen, "send: %s", strerror(errno));
	CHECK(wait_frame(fd, NULL, 3, 7, TG_OP_READ_RESP, 1000000, &ack, &frames),
	      "tg-sim over 2 ranks: no READ_RESP from node 3 (rank 1) through its bridge");
	if (ack.ok)
		CHECK(ack.h.tag == 0x66 && ack.h.status == 0 && !memcmp(ack.payload, data, LEN),
		      "READ_RESP from rank 1: tag %#x status %u, or other data", ack.h.tag,
		      ack.h.status);
	kill(pid, SIGINT);
	for (t0 = t_now_s(), w = 0; w != pid && t_now_s() - t0 < 30;) {
		usleep(20000);
		w = waitpid(pid, &st, WNOHANG);
	}
	if (w != pid) {
		kill(-pid, SIGKILL);
		waitpid(pid, &st, 0);
	}
	kill(-pid, SIGKILL);   /* anything it left behind */
	t_child_pgid = 0;
	read_out(ofd, buf, sizeof(buf));
	CHECK(w == pid, "tg-sim over 2 ranks did not stop within 30 s of SIGINT: %s", buf);
	CHECK(strstr(buf, "tg-sim[1]: bridge tgbr0: sent") && strstr(buf, "received 2"),
	      "tg-sim over 2 ranks: rank 1's bridge counters: %s", buf);
	printf("tg-sim over 2 ranks, rank 1 bridged: a write and a read from outside answered\n");
	close(ofd);
	unlink(out);
}

/* tcpdump on ifname writing a capture of two Telegraphos frames to a
 * pipe (*cap).  Returns its pid once it listens, or -1 (err: why). */
static pid_t tcpdump_start(const char *ifname, int *cap, int *errfd, char *err, size_t n)
{
	int o[2], e[2];
	char line[512];
	size_t got = 0;
	pid_t pid;

	if (pipe(o) || pipe(e)) {
		snprintf(err, n, "pipe: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		dup2(o[1], 1);
		dup2(e[1], 2);
		close(o[0]);
		close(e[0]);
		execlp("tcpdump", "tcpdump", "-i", ifname, "-U", "-c", "2", "-Z", "root", "-w", "-",
		       "ether", "proto", "0x88b5", (char *)NULL);
		_exit(127);
	}
	close(o[1]);
	close(e[1]);
	/* wait for "listening on ..." */
	for (;;) {
		ssize_t k = read(e[0], line + got, sizeof(line) - 1 - got);

		if (k <= 0) {
			line[got] = 0;
			snprintf(err, n, "tcpdump did not start: %.200s", got ? line : "not installed?");
			close(o[0]);
			close(e[0]);
			waitpid(pid, NULL, 0);
			return -1;
		}
		got += (size_t)k;
		line[got] = 0;
		if (strstr(line, "listening on"))
			break;
		if (got + 1 >= sizeof(line))
			got = 0;
	}
	*cap = o[0];
	*errfd = e[0];
	return pid;
}

/* Wait (at most 10 s) for tcpdump to finish; count the records of its
 * capture and check that the first is a Telegraphos frame. */
static unsigned tcpdump_finish(pid_t pid, int cap, int errfd, int *first_ok)
{
	static uint8_t buf[1 << 16];
	size_t got = 0, off = 24;
	unsigned recs = 0;
	ssize_t k;
	int st;

	for (int i = 0; i < 1000 && waitpid(pid, &st, WNOHANG) == 0; i++)
		usleep(10000);
	if (waitpid(pid, &st, WNOHANG) == 0) {
		kill(pid, SIGTERM);
		waitpid(pid, &st, 0);
	}
	while (got < sizeof(buf) && (k = read(cap, buf + got, sizeof(buf) - got)) > 0)
		got += (size_t)k;
	close(cap);
	close(errfd);
	*first_ok = 0;
	/* classic pcap: 24-byte file header, 16-byte record headers */
	while (off + 16 <= got) {
		uint32_t incl = (uint32_t)buf[off + 8] | (uint32_t)buf[off + 9] << 8 |
				(uint32_t)buf[off + 10] << 16 | (uint32_t)buf[off + 11] << 24;

		if (off + 16 + incl > got)
			break;
		if (!recs && incl >= 14)
			*first_ok = buf[off + 16 + 12] == (uint8_t)(TG_ETHERTYPE >> 8) &&
				    buf[off + 16 + 13] == (uint8_t)TG_ETHERTYPE;
		recs++;
		off += 16 + incl;
	}
	return recs;
}

int main(void)
{
	struct tg_sim_config cfg;
	struct tg_sim *sim;
	struct tg_dev *d0, *d1;
	struct tg_mr *mr;
	struct tg_sim_bridge_stats bs;
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	struct seen w = { 0 }, ack = { 0 };
	uint8_t data[LEN], data2[LEN], frame[TG_MAX_FRAME_BYTES];
	unsigned frames = 0, idx, recs = 0;
	size_t flen;
	int fd, done = 0, cap = -1, errfd = -1, first_ok = 0;
	pid_t dump;
	char why[256];

	alarm(T_TIMEOUT_S);
	signal(SIGALRM, t_on_alarm);
	/* a network namespace of our own: the veth pair goes with us */
	if (unshare(CLONE_NEWNET)) {
		printf("test_bridge: skipped: no network namespace (%s; needs root)\n",
		       strerror(errno));
		return T_SKIP;
	}
	if (system("ip link add tgbr0 type veth peer name tgbr1 2>/dev/null && "
		   "ip link set tgbr0 up && ip link set tgbr1 up")) {
		printf("test_bridge: skipped: cannot make a veth pair with ip(8)\n");
		return T_SKIP;
	}
	idx = if_nametoindex("tgbr1");
	REQUIRE(idx, "tgbr1: %s", strerror(errno));
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(TG_ETHERTYPE));
	REQUIRE(fd >= 0, "packet socket: %s", strerror(errno));
	sll.sll_protocol = htons(TG_ETHERTYPE);
	sll.sll_ifindex = (int)idx;
	REQUIRE(bind(fd, (struct sockaddr *)&sll, sizeof(sll)) == 0, "bind: %s", strerror(errno));

	t_config(&cfg, 2);
	cfg.mem_size = 1ULL << 20;
	cfg.bridge_if = "tgbr0";
	sim = tg_sim_create(&cfg);
	REQUIRE(sim, "tg_sim_create: %s: %s", strerror(errno), tg_sim_error(NULL));
	d0 = t_open(sim, 0, 0);
	d1 = t_open(sim, 1, 0);
	mr = tg_mr_alloc(d1, 4096, 0);
	REQUIRE(mr, "region on node 1");

	/* tcpdump on the bridged interface itself, as a user would run it */
	dump = tcpdump_start("tgbr0", &cap, &errfd, why, sizeof(why));
	if (dump < 0)
		printf("tcpdump: not run (%s)\n", why);

	/* out: a write between two simulated nodes is seen on the interface */
	for (unsigned i = 0; i < LEN; i++) {
		data[i] = t_pat(1, i);
		data2[i] = t_pat(2, i);
	}
	CHECK_RC(tg_write(d0, 1, tg_mr_paddr(mr), data, LEN), 0);
	CHECK_RC(tg_fence(d0, 1), 0);
	CHECK(wait_frame(fd, sim, 0, 1, TG_OP_WRITE, 100000, &w, &frames),
	      "no WRITE from node 0 to node 1 on the veth (%u frames seen)", frames);
	if (dump > 0) {
		recs = tcpdump_finish(dump, cap, errfd, &first_ok);
		CHECK(recs == 2 && first_ok, "tcpdump -i tgbr0 captured %u frames (want 2), "
		      "first %s", recs, first_ok ? "Telegraphos" : "not Telegraphos");
		printf("tcpdump -i tgbr0: %u Telegraphos frames captured\n", recs);
	}
	if (w.ok)
		CHECK(w.h.addr == tg_mr_paddr(mr) && w.h.len == LEN &&
		      !memcmp(w.payload, data, LEN), "the WRITE seen carries other data");

	/* in: a write from a node outside the cluster, sent into the veth,
	 * reaches node 1's memory */
	if (w.ok) {
		struct tg_frame_hdr h = w.h;

		h.src = 7;
		h.seq = 0;
		h.ack = 0;
		h.flags &= (uint8_t)~TG_FLAG_SEQ;   /* node 7 runs no link layer */
		flen = tg_frame_encode(frame, &h, data2);
		CHECK(send(fd, frame, flen, 0) == (ssize_t)flen, "send: %s", strerror(errno));
		for (unsigned i = 0; i < 200 && !done; i++) {
			tg_sim_step(sim, 1000);
			done = !memcmp(tg_mr_ptr(mr), data2, LEN);
		}
		CHECK(done, "the frame sent into the veth did not reach node 1's memory");
		/* a read from outside: the answer leaves by the bridge */
		h.op = TG_OP_READ_REQ;
		h.tag = 0x55;
		flen = tg_frame_encode(frame, &h, NULL);
		CHECK(send(fd, frame, flen, 0) == (ssize_t)flen, "send: %s", strerror(errno));
		CHECK(wait_frame(fd, sim, 1, 7, TG_OP_READ_RESP, 1000000, &ack, &frames),
		      "no READ_RESP from node 1 to node 7 through the bridge");
		if (ack.ok)
			CHECK(ack.h.tag == 0x55 && ack.h.status == 0 &&
			      !memcmp(ack.payload, data2, LEN),
			      "READ_RESP: tag %#x status %u, or other data", ack.h.tag,
			      ack.h.status);
	}
	tg_sim_get_bridge_stats(sim, &bs);
	CHECK(bs.received >= 2 && bs.sent >= 3 && bs.lost == 0,
	      "bridge counters: sent %" PRIu64 " received %" PRIu64 " lost %" PRIu64, bs.sent,
	      bs.received, bs.lost);
	printf("bridge: sent %" PRIu64 ", received %" PRIu64 ", ignored %" PRIu64
	       "; seen on the veth: %u frames\n", bs.sent, bs.received, bs.ignored, frames);
	tg_close(d0);
	tg_close(d1);
	tg_sim_destroy(sim);
	if (w.ok)
		test_split(fd, w.h, data2);
	close(fd);
	return t_done("test_bridge");
}
