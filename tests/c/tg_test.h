/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Helpers shared by the C cluster tests: checks, exit codes, a stressed in-process cluster. */
#ifndef TG_TEST_H
#define TG_TEST_H

#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tg/sim.h"
#include "tg/tg.h"
#include "tg/tg_frame.h"

#define T_PASS  0
#define T_FAIL  1
#define T_SKIP  77

static int t_failed;

/* Record a failure and go on. */
#define CHECK(cond, ...)                                                        \
	do {                                                                    \
		if (!(cond)) {                                                  \
			fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__,  \
				__LINE__, #cond);                               \
			fprintf(stderr, __VA_ARGS__);                           \
			fputc('\n', stderr);                                    \
			t_failed++;                                             \
		}                                                               \
	} while (0)

/* Stop the test at once: later steps need this one. */
#define REQUIRE(cond, ...)                                                      \
	do {                                                                    \
		if (!(cond)) {                                                  \
			fprintf(stderr, "%s:%d: required: %s: ", __FILE__,      \
				__LINE__, #cond);                               \
			fprintf(stderr, __VA_ARGS__);                           \
			fputc('\n', stderr);                                    \
			exit(T_FAIL);                                           \
		}                                                               \
	} while (0)

/* rc of a libtg call must be `want`. */
#define CHECK_RC(expr, want)                                                    \
	do {                                                                    \
		int rc_ = (expr);                                               \
		CHECK(rc_ == (want), "got %d (%s), want %d (%s)", rc_,          \
		      tg_strerror(rc_), (want), tg_strerror(want));             \
	} while (0)

/* tg_enq_wait's timeout in the tests: far past any REQ's answer (simulated
 * time in-process, wall-clock time with tg-sim) */
#define T_ENQ_NS 10000000000ull
#define T_TIMEOUT_S 240u   /* a lost frame would make a blocking call wait forever */

static inline void t_on_alarm(int sig)
{
	static const char msg[] = "test timed out: a request was never answered\n";

	(void)sig;
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_Exit(T_FAIL);
	_Exit(T_FAIL);
}

/* Seconds on the monotonic clock. */
static inline double t_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Seed: $TG_TEST_SEED or 1. */
static inline uint64_t t_seed(void)
{
	const char *s = getenv("TG_TEST_SEED");

	return s ? strtoull(s, NULL, 0) : 1;
}

/* A configuration with the host memories and the switch stressing the
 * NICs: random memory latency and ready backpressure, TX stalls. */
static inline void t_config(struct tg_sim_config *cfg, unsigned nodes)
{
	signal(SIGALRM, t_on_alarm);
	alarm(T_TIMEOUT_S);
	tg_sim_config_init(cfg);
	cfg->nodes = nodes;
	cfg->mem_size = 8ULL << 20;
	cfg->seed = t_seed();
	cfg->mem_lat_min = 1;
	cfg->mem_lat_max = 12;
	cfg->mem_stall_pct = 25;
	cfg->tx_stall_pct = 10;
	/* TG_TEST_LINK=1 runs a test with every NIC's link layer on */
	cfg->link_layer = getenv("TG_TEST_LINK") && atoi(getenv("TG_TEST_LINK"));
}

/* A simulator on t_config(); raw: the link layer stays off even with
 * TG_TEST_LINK=1. */
static inline struct tg_sim *t_sim_make(unsigned nodes, int raw)
{
	struct tg_sim_config cfg;
	struct tg_sim *sim;

	t_config(&cfg, nodes);
	if (raw)
		cfg.link_layer = 0;
	sim = tg_sim_create(&cfg);
	REQUIRE(sim, "tg_sim_create: %s", strerror(errno));
	return sim;
}

static inline struct tg_sim *t_sim(unsigned nodes)
{
	return t_sim_make(nodes, 0);
}

/* A simulator for tests of the raw network (its resends would change
 * what such tests count). */
static inline struct tg_sim *t_sim_raw(unsigned nodes)
{
	return t_sim_make(nodes, 1);
}

static inline struct tg_dev *t_open(struct tg_sim *sim, unsigned node, unsigned flags)
{
	struct tg_dev *dev = tg_open_sim(sim, node, flags);

	REQUIRE(dev, "tg_open_sim(node %u): %s", node, tg_strerror(-errno));
	return dev;
}

/* A CSR of a device opened with TG_OPEN_DRIVER (the read must succeed). */
static inline uint64_t t_csr(struct tg_dev *dev, uint64_t reg)
{
	uint64_t v = 0;

	CHECK_RC(tg_csr_read(dev, reg, &v), 0);
	return v;
}

/* Deterministic pattern byte i of stream `salt`. */
static inline uint8_t t_pat(uint64_t salt, uint64_t i)
{
	uint64_t z = (salt + i) * 0x9e3779b97f4a7c15ULL;

	z ^= z >> 29;
	z *= 0xbf58476d1ce4e5b9ULL;
	return (uint8_t)(z >> 32);
}

/* The simulator saw the NICs keep every handshake rule and no request
 * leave memory. */
static inline void t_check_sim(struct tg_sim *sim)
{
	struct tg_sim_stats st;

	REQUIRE(tg_sim_get_stats(sim, TG_SIM_ALL_NODES, &st) == 0, "stats");
	CHECK(st.proto_errors == 0, "%" PRIu64 " handshake rule breaks", st.proto_errors);
	CHECK(st.mem_oob == 0, "%" PRIu64 " memory requests outside memory", st.mem_oob);
	CHECK(st.drop_malformed == 0, "%" PRIu64 " malformed frames", st.drop_malformed);
}

/* Records of a pcap file written by the simulator; *bad counts records cut
 * short or holding no valid Telegraphos frame (FCS included).  -1 if the
 * file is missing or is not a nanosecond pcap of Ethernet frames. */
static inline int t_pcap_frames(const char *path, unsigned *bad)
{
	FILE *f = fopen(path, "rb");
	uint8_t hdr[24], rec[16], data[2048];
	struct tg_frame_hdr h;
	int n = 0;

	*bad = 0;
	if (!f)
		return -1;
	if (fread(hdr, 1, sizeof(hdr), f) != sizeof(hdr) || hdr[0] != 0x4d || hdr[1] != 0x3c ||
	    hdr[2] != 0xb2 || hdr[3] != 0xa1 || hdr[20] != 1) {
		fclose(f);
		return -1;
	}
	while (fread(rec, 1, sizeof(rec), f) == sizeof(rec)) {
		unsigned len = rec[8] | rec[9] << 8 | rec[10] << 16 | (unsigned)rec[11] << 24;

		if (len > sizeof(data) || fread(data, 1, len, f) != len) {
			(*bad)++;
			break;
		}
		if (tg_frame_decode(data, len, &h))
			(*bad)++;
		n++;
	}
	fclose(f);
	return n;
}

/* Wait until a tg-sim started with its output on fd says it is ready
 * (60 s at most).  Returns 0, or -1 after printing what it said. */
static inline int t_wait_ready(int fd)
{
	char log[8192] = "";
	size_t used = 0;
	time_t t0 = time(NULL);

	while (time(NULL) - t0 < 60) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (poll(&p, 1, 100) <= 0)
			continue;
		n = read(fd, log + used, sizeof(log) - used - 1);
		if (n <= 0)
			break;
		used += (size_t)n;
		log[used] = 0;
		if (strstr(log, "tg-sim: ready"))
			return 0;
	}
	fprintf(stderr, "tg-sim did not start:\n%s\n", log);
	return -1;
}

/* tg_open(s) fails with errno want, and tg_open_error() names s and says
 * why (NULL: any text). */
static inline void t_bad_open(const char *s, int want, const char *why)
{
	struct tg_dev *d = tg_open(s, 0);

	CHECK(!d && errno == want, "tg_open(\"%s\"): %s, want %s", s,
	      d ? "opened" : tg_strerror(-errno), tg_strerror(-want));
	CHECK(strstr(tg_open_error(), s) && (!why || strstr(tg_open_error(), why)),
	      "tg_open(\"%s\"): the reason is \"%s\", want \"%s\"", s, tg_open_error(),
	      why ? why : "");
	tg_close(d);
}

static inline int t_done(const char *name)
{
	if (t_failed) {
		fprintf(stderr, "%s: FAIL (%d checks)\n", name, t_failed);
		return T_FAIL;
	}
	printf("%s: pass\n", name);
	return T_PASS;
}

#endif /* TG_TEST_H */
