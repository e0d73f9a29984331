/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: a producer attached to tg-sim whose REQs wait behind a queue held full (its consumer stopped inside a dequeue) sleeps instead of polling: it uses little CPU meanwhile, and every entry arrives in order once the consumer goes on. */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tg_test_child.h"

#ifndef TG_SIM_BIN
#define TG_SIM_BIN "build/bin/tg-sim"
#endif

#define N          2000u       /* REQs the producer sends: far more than fit */
#define HELD_S     1.5         /* the producer is watched this long while held back */
#define MAX_CPU    0.2         /* its CPU seconds allowed meanwhile */
#define TIMEOUT_S  120u

static char name[64];
static pid_t producer;
static volatile uint64_t *progress;    /* the producer's calls that returned (shared) */
static uint64_t held_at, moved;
static double cpu_held = -1;

/* CPU seconds (user + system) process pid has used, or -1. */
static double cpu_of(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long ut, st;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (!(f = fopen(path, "r")))
		return -1;
	p = fgets(buf, sizeof(buf), f);
	fclose(f);
	if (!p || !(p = strrchr(buf, ')')) ||
	    sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
		return -1;
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/* Inside the consumer's first dequeue, QF_DNP held: the queue overflows
 * and stays closed, the producer's REQs fill the NIC's slots and spill
 * ring, and its request ring fills behind them (about 290 calls in).  Once
 * its count of calls has not moved for three looks 200 ms apart, measure
 * its CPU time for HELD_S; if the count moved meanwhile (it was only
 * descheduled on a busy machine), look again, up to five times. */
static void hook(struct tg_queue *q, void *arg)
{
	static int calls;
	double t0 = t_now_s(), c0, c1;

	(void)q;
	(void)arg;
	if (calls++)
		return;
	for (int attempt = 0; attempt < 5 && t_now_s() - t0 < 60.0; attempt++) {
		uint64_t seen = *progress;
		int still = 0;

		while (still < 3 && t_now_s() - t0 < 60.0) {
			usleep(200000);
			still = (*progress >= 250 && *progress == seen) ? still + 1 : 0;
			seen = *progress;
		}
		held_at = *progress;
		c0 = cpu_of(producer);
		usleep((useconds_t)(HELD_S * 1e6));
		c1 = cpu_of(producer);
		if (c0 >= 0 && c1 >= 0)
			cpu_held = c1 - c0;
		moved = *progress - held_at;
		if (!moved)
			break;
	}
}

int main(void)
{
	const char *bin = getenv("TG_SIM_BIN") ? getenv("TG_SIM_BIN") : TG_SIM_BIN;
	char dev[96];
	struct tg_dev *rcv;
	struct tg_queue *q;
	uint64_t e, next = 0;
	int st = 0;
	double t0;

	signal(SIGALRM, t_on_alarm_child);
	alarm(TIMEOUT_S);
	if (access(bin, X_OK)) {
		printf("test_enq_sleep: skip (no %s)\n", bin);
		return T_SKIP;
	}
	snprintf(name, sizeof(name), "sleep-%d", (int)getpid());
	{
		/* a 16-entry spill ring: the producer is held back soon */
		char *argv[] = { (char *)bin, "--nodes", "2", "--name", name, "--spill-log2", "4",
				 NULL };

		t_start_sim(argv);
	}

	snprintf(dev, sizeof(dev), "sim:%s:1", name);
	rcv = tg_open(dev, 0);
	REQUIRE(rcv, "tg_open(%s): %s", dev, tg_open_error());
	q = tg_queue_open(rcv, TG_Q_MIN_LOG2, 8);
	REQUIRE(q, "tg_queue_open: %s", tg_strerror(-errno));

	progress = mmap(NULL, sizeof(*progress), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			-1, 0);
	REQUIRE(progress != MAP_FAILED, "mmap");
	*progress = 0;
	producer = fork();
	REQUIRE(producer >= 0, "fork");
	if (producer == 0) {
		struct tg_dev *d;
		int rc;

		snprintf(dev, sizeof(dev), "sim:%s:0", name);
		d = tg_open(dev, 0);
		rc = d ? 0 : -ENODEV;
		for (uint64_t i = 0; i < N && !rc; i++) {
			rc = tg_enq(d, 1, tg_queue_paddr(q), i);
			*progress = i + 1;
		}
		if (!rc)
			rc = tg_fence(d, 1);
		tg_close(d);
		_exit(rc ? 1 : 0);
	}

	/* the consumer stops inside its first dequeue, then drains */
	CHECK_RC(tg_queue_set_deq_hook(q, hook, NULL), 0);
	t0 = t_now_s();
	while (next < N && t_now_s() - t0 < 100.0) {
		int rc = tg_deq_wait(q, &e, 8, 200000000ull);

		if (rc == -ETIMEDOUT)
			continue;
		REQUIRE(rc == 0, "tg_deq_wait: %s", tg_dev_error(rcv));
		CHECK(e == next, "entry %" PRIu64 " is %" PRIu64, next, e);
		next = e + 1;
	}
	CHECK(next == N, "%" PRIu64 " of %u entries", next, N);
	CHECK(waitpid(producer, &st, 0) == producer && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "producer exit status %#x", st);
	CHECK(held_at >= 250 && held_at < N && moved == 0,
	      "the producer was not held back: %" PRIu64 " calls, then %" PRIu64 " more", held_at,
	      moved);
	CHECK(cpu_held >= 0 && cpu_held <= MAX_CPU,
	      "the producer used %.3f CPU seconds in %.1f s held back (at most %.1f)", cpu_held,
	      HELD_S, MAX_CPU);
	printf("producer held back after %" PRIu64 " REQs: %.3f CPU seconds in %.1f s\n", held_at,
	       cpu_held, HELD_S);

	tg_queue_close(q);
	tg_close(rcv);
	kill(t_child_pid, SIGTERM);
	CHECK(waitpid(t_child_pid, &st, 0) == t_child_pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "tg-sim exit status %#x", st);
	t_child_pid = 0;
	return t_done("test_enq_sleep");
}
