/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: remote fetch-and-add, fetch-and-increment, swap and compare-and-swap, blocking and non-blocking; four nodes counting on one word; every refusal. */
#include "tg_test.h"

#define NODES    4u
#define DEF_N    12500u   /* fetch-and-adds per node; $TG_ATOMIC_N overrides (make test-atomic-long: 200000) */
#define INFLIGHT 8u       /* non-blocking atomics in flight per node (the NIC's fetch table) */
#if defined(__SANITIZE_ADDRESS__)
#undef DEF_N
#define DEF_N    5000u
#endif

static uint64_t rd64(struct tg_dev *d, unsigned node, uint64_t pa)
{
	uint64_t v = 0;

	CHECK_RC(tg_read(d, node, pa, &v, 8), 0);
	return v;
}

/* Each call against a model of the word. */
static void semantics(struct tg_dev *dev[], uint64_t pa)
{
	uint64_t old = 0, want = 0x1000;

	CHECK_RC(tg_write(dev[1], 0, pa, &want, 8), 0);
	CHECK_RC(tg_fence(dev[1], 0), 0);
	CHECK_RC(tg_faa(dev[1], 0, pa, 5, &old), 0);
	CHECK(old == 0x1000, "faa old %#" PRIx64, old);
	CHECK_RC(tg_faa(dev[2], 0, pa, (uint64_t)-6, &old), 0);   /* wraps: adds -6 */
	CHECK(old == 0x1005, "faa old %#" PRIx64, old);
	CHECK_RC(tg_fetch_inc(dev[3], 0, pa, &old), 0);
	CHECK(old == 0xfff, "fetch_inc old %#" PRIx64, old);
	CHECK_RC(tg_swap(dev[1], 0, pa, 0xdeadbeefcafef00dULL, &old), 0);
	CHECK(old == 0x1000, "swap old %#" PRIx64, old);
	/* CAS that fails returns the current value and changes nothing */
	CHECK_RC(tg_cas(dev[2], 0, pa, 1, 2, &old), 0);
	CHECK(old == 0xdeadbeefcafef00dULL, "failed cas old %#" PRIx64, old);
	CHECK(rd64(dev[3], 0, pa) == 0xdeadbeefcafef00dULL, "failed cas changed the word");
	CHECK_RC(tg_cas(dev[2], 0, pa, 0xdeadbeefcafef00dULL, ~0ULL, &old), 0);
	CHECK(old == 0xdeadbeefcafef00dULL, "cas old %#" PRIx64, old);
	/* all ones is a value, not an error */
	CHECK_RC(tg_faa(dev[1], 0, pa, 0, &old), 0);
	CHECK(old == ~0ULL, "faa of all ones old %#" PRIx64, old);
	CHECK_RC(tg_fetch_inc(dev[1], 0, pa, NULL), 0);            /* wraps to 0 */
	/* the node's own NIC: a local atomic takes part in the same order */
	CHECK_RC(tg_faa(dev[0], 0, pa, 7, &old), 0);
	CHECK(old == 0, "local faa old %#" PRIx64, old);
	/* the operand is cached per device: same add twice, then another */
	CHECK_RC(tg_faa(dev[0], 0, pa, 7, &old), 0);
	CHECK_RC(tg_faa(dev[0], 0, pa, 1, &old), 0);
	CHECK(old == 14, "faa after cached operand old %" PRIu64, old);
	CHECK(rd64(dev[2], 0, pa) == 15, "word %#" PRIx64 ", want 15", rd64(dev[2], 0, pa));
	/* a word holding all ones after an earlier request of the device
	 * failed (a REQ to no queue): the atomic still succeeds and returns
	 * the value, and the REQ's failure is tg_enq_wait's alone */
	want = ~0ULL;
	CHECK_RC(tg_write(dev[3], 0, pa, &want, 8), 0);
	CHECK_RC(tg_enq(dev[3], 0, 1ULL << 20, 1), 0);
	CHECK_RC(tg_fence(dev[3], 0), 0);
	CHECK_RC(tg_swap(dev[3], 0, pa, 15, &old), 0);
	CHECK(old == ~0ULL, "swap of all ones after a failed REQ old %#" PRIx64, old);
	CHECK_RC(tg_ctx_status(dev[3]), 0);
	CHECK_RC(tg_enq_wait(dev[3], T_ENQ_NS, NULL), -ENOENT);
	/* writes before an atomic of the same device land before it */
	want = 100;
	CHECK_RC(tg_write(dev[3], 0, pa, &want, 8), 0);
	CHECK_RC(tg_faa(dev[3], 0, pa, 1, &old), 0);
	CHECK(old == 100, "faa after write old %" PRIu64, old);
}

/* Non-blocking forms, their record, and refusals in the record. */
static void nonblocking(struct tg_dev *dev[], struct tg_mr *res, uint64_t pa)
{
	uint64_t old = 0, v = 50;
	uint8_t *r = tg_mr_ptr(res);

	CHECK_RC(tg_write(dev[1], 0, pa, &v, 8), 0);
	CHECK_RC(tg_atomic_post(dev[1], 0, pa, TG_AOP_FAA, 3, 0, res, 0), 0);
	CHECK_RC(tg_atomic_post(dev[1], 0, pa, TG_AOP_SWAP, 9, 0, res, 16), 0);
	CHECK_RC(tg_atomic_post(dev[1], 0, pa, TG_AOP_CAS, 10, 9, res, 32), 0);   /* matches */
	CHECK_RC(tg_atomic_post(dev[1], 0, pa, TG_AOP_CAS, 11, 9, res, 48), 0);   /* does not */
	CHECK_RC(tg_atomic_test(dev[1], res, 0, &old), -EAGAIN);
	CHECK_RC(tg_atomic_wait(dev[1], res, 0, &old), 0);
	CHECK(old == 50, "post faa old %" PRIu64, old);
	CHECK_RC(tg_atomic_wait(dev[1], res, 16, &old), 0);
	CHECK(old == 53, "post swap old %" PRIu64, old);
	CHECK_RC(tg_atomic_wait(dev[1], res, 32, &old), 0);
	CHECK(old == 9, "post cas old %" PRIu64, old);
	CHECK_RC(tg_atomic_wait(dev[1], res, 48, &old), 0);
	CHECK(old == 10, "post failed cas old %" PRIu64, old);
	CHECK_RC(tg_atomic_test(dev[1], res, 48, NULL), 0);
	CHECK(rd64(dev[2], 0, pa) == 10, "word after posted atomics");

	/* refused at the target: the record says why, nothing changes */
	memset(r + 64, 0xa5, 16);
	CHECK_RC(tg_atomic_post(dev[1], 0, tg_mem_size(dev[1]), TG_AOP_FAA, 1, 0, res, 64), 0);
	CHECK_RC(tg_atomic_wait(dev[1], res, 64, &old), -EFAULT);
	CHECK(r[64] == 0xa5, "a refused atomic wrote its old value");
	CHECK_RC(tg_ctx_status(dev[1]), 0);   /* reported in the record only */
}

/* Bad arguments: refused before anything is sent, nothing changes. */
static void refusals(struct tg_sim *sim, struct tg_dev *dev[], struct tg_mr *res, uint64_t pa)
{
	uint64_t old = 12345, end = tg_mem_size(dev[0]), top, v;
	struct tg_sim_stats s0, s1;

	CHECK_RC(tg_write(dev[1], 0, end - 8, &old, 8), 0);
	CHECK_RC(tg_fence(dev[1], 0), 0);
	old = 77;
	REQUIRE(tg_sim_get_stats(sim, TG_SIM_ALL_NODES, &s0) == 0, "stats");
	CHECK_RC(tg_faa(NULL, 0, pa, 1, &old), -EINVAL);
	CHECK_RC(tg_faa(dev[1], NODES, pa, 1, &old), -EINVAL);
	CHECK_RC(tg_faa(dev[1], 0, pa + 4, 1, &old), -EINVAL);
	CHECK_RC(tg_swap(dev[1], 0, pa + 1, 1, &old), -EINVAL);
	CHECK_RC(tg_cas(dev[1], 0, pa + 2, 1, 2, &old), -EINVAL);
	CHECK_RC(tg_fetch_inc(dev[1], 0, pa + 7, &old), -EINVAL);
	CHECK_RC(tg_faa(dev[1], 0, 1ULL << 32, 1, &old), -ERANGE);
	CHECK_RC(tg_atomic_post(dev[1], 0, pa, 3, 1, 0, res, 0), -EINVAL);         /* no such function */
	CHECK_RC(tg_atomic_post(dev[1], 0, pa, TG_AOP_FAA, 1, 0, res, 4), -EINVAL);  /* record misaligned */
	CHECK_RC(tg_atomic_post(dev[1], 0, pa, TG_AOP_FAA, 1, 0, res, tg_mr_len(res) - 8), -EINVAL);
	CHECK_RC(tg_atomic_post(dev[1], 0, pa, TG_AOP_FAA, 1, 0, NULL, 0), -EINVAL);
	CHECK_RC(tg_atomic_post(dev[2], 0, pa, TG_AOP_FAA, 1, 0, res, 0), -EINVAL);  /* another device's region */
	CHECK_RC(tg_atomic_post(dev[1], 0, pa + 3, TG_AOP_FAA, 1, 0, res, 0), -EINVAL);
	CHECK_RC(tg_atomic_test(dev[1], NULL, 0, &old), -EINVAL);
	CHECK_RC(tg_atomic_wait(dev[1], res, 3, &old), -EINVAL);
	CHECK(old == 77, "a refused call wrote *old");
	REQUIRE(tg_sim_get_stats(sim, TG_SIM_ALL_NODES, &s1) == 0, "stats");
	CHECK(s1.tx_frames == s0.tx_frames, "refused calls sent %" PRIu64 " frames",
	      s1.tx_frames - s0.tx_frames);

	/* beyond the target's memory: refused there, nothing changes, the
	 * status is the error; the last word inside still works */
	for (top = end; top < end + 64; top += 8) {
		CHECK_RC(tg_faa(dev[1], 0, top, 1, &old), -EFAULT);
		CHECK_RC(tg_swap(dev[2], 0, top, 1, &old), -EFAULT);
		CHECK_RC(tg_cas(dev[3], 0, top, 0, 1, &old), -EFAULT);
		CHECK_RC(tg_fetch_inc(dev[0], 0, top, &old), -EFAULT);
	}
	/* the failing calls said so; the context's sticky STATUS keeps the
	 * first of them */
	for (unsigned k = 0; k < NODES; k++) {
		CHECK_RC(tg_ctx_status(dev[k]), -EFAULT);
		CHECK_RC(tg_ctx_status(dev[k]), 0);
	}
	CHECK(rd64(dev[2], 0, end - 8) == 12345, "last word changed by refused atomics");
	CHECK_RC(tg_faa(dev[1], 0, end - 8, 1, &v), 0);
	CHECK(v == 12345, "last word old %" PRIu64, v);
}

/* Every node fetch-and-adds 1 to one counter n times, most non-blocking
 * with INFLIGHT in flight, node 3 partly blocking: the final value is
 * exact and every old value returned is unique. */
static void counting(struct tg_sim *sim, struct tg_dev *dev[], struct tg_mr *res[], uint64_t ctr,
		     unsigned n)
{
	uint64_t total = (uint64_t)n * NODES, got = 0, dup = 0, oob = 0, c0 = tg_sim_cycles(sim);
	unsigned issued[NODES] = { 0 }, head[NODES] = { 0 }, inflight[NODES] = { 0 };
	uint8_t *seen = calloc(total, 1);
	uint64_t zero = 0, v;

	REQUIRE(seen, "calloc");
	CHECK_RC(tg_write(dev[1], 0, ctr, &zero, 8), 0);
	CHECK_RC(tg_fence(dev[1], 0), 0);
	while (got < total) {
		int progress = 0;

		for (unsigned k = 0; k < NODES; k++) {
			while (issued[k] < n && inflight[k] < INFLIGHT) {
				unsigned slot = (head[k] + inflight[k]) % INFLIGHT;

				if (k == 3 && issued[k] % 4 == 3 && inflight[k] == 0) {
					/* blocking: the others go on meanwhile */
					int rc = tg_fetch_inc(dev[k], 0, ctr, &v);

					CHECK_RC(rc, 0);
					if (!rc && v < total) dup += seen[v]++ != 0;
					else oob++;
					issued[k]++;
					got++;
					progress = 1;
					break;
				}
				CHECK_RC(tg_atomic_post(dev[k], 0, ctr, TG_AOP_FAA, 1, 0, res[k], 16u * slot), 0);
				issued[k]++;
				inflight[k]++;
				progress = 1;
			}
			while (inflight[k]) {
				int rc = tg_atomic_test(dev[k], res[k], 16u * head[k], &v);

				if (rc == -EAGAIN)
					break;
				CHECK_RC(rc, 0);
				if (!rc && v < total) dup += seen[v]++ != 0;
				else oob++;
				head[k] = (head[k] + 1) % INFLIGHT;
				inflight[k]--;
				got++;
				progress = 1;
			}
		}
		if (!progress)
			tg_sim_step(sim, 8);
		if (t_failed > 20)
			break;
	}
	v = rd64(dev[2], 0, ctr);
	CHECK(v == total, "counter %" PRIu64 ", want %" PRIu64, v, total);
	CHECK(dup == 0 && oob == 0, "%" PRIu64 " duplicate and %" PRIu64 " impossible old values", dup, oob);
	for (uint64_t i = 0; i < total; i++)
		if (!seen[i]) {
			CHECK(0, "old value %" PRIu64 " never returned", i);
			break;
		}
	printf("%u nodes x %u fetch-and-adds on one word: %" PRIu64 " cycles, %.1f per 1000 cycles\n",
	       NODES, n, tg_sim_cycles(sim) - c0, 1000.0 * (double)total / (double)(tg_sim_cycles(sim) - c0));
	free(seen);
}

int main(void)
{
	struct tg_sim_config cfg;
	struct tg_sim *sim;
	struct tg_dev *dev[NODES];
	struct tg_mr *words, *res[NODES];
	uint64_t pa, natomics0 = 0, natomics1 = 0;
	unsigned n = DEF_N;
	const char *env = getenv("TG_ATOMIC_N");

	if (env)
		n = (unsigned)strtoul(env, NULL, 0);
	t_config(&cfg, NODES);
	cfg.link_bytes_per_cycle = 8;   /* volume: the target's NIC, not the wire, is the limit */
	sim = tg_sim_create(&cfg);
	REQUIRE(sim, "tg_sim_create: %s", strerror(errno));
	for (unsigned k = 0; k < NODES; k++) {
		dev[k] = t_open(sim, k, k == 0 ? TG_OPEN_DRIVER : 0);
		res[k] = tg_mr_alloc(dev[k], 4096, TG_ACCESS_ALL);
		REQUIRE(res[k], "tg_mr_alloc: %s", tg_strerror(-errno));
	}
	words = tg_mr_alloc(dev[0], 4096, TG_ACCESS_ALL);
	REQUIRE(words, "tg_mr_alloc: %s", tg_strerror(-errno));
	pa = tg_mr_paddr(words);
	CHECK_RC(tg_csr_read(dev[0], TG_CSR_REG_ATOMICS, &natomics0), 0);

	semantics(dev, pa);
	nonblocking(dev, res[1], pa + 8);
	refusals(sim, dev, res[1], pa + 16);
	counting(sim, dev, res, pa + 64, n);

	CHECK_RC(tg_csr_read(dev[0], TG_CSR_REG_ATOMICS, &natomics1), 0);
	CHECK(natomics1 - natomics0 >= (uint64_t)n * NODES, "ATOMICS counter %" PRIu64,
	      natomics1 - natomics0);
	for (unsigned k = 0; k < NODES; k++)
		CHECK_RC(tg_ctx_status(dev[k]), 0);
	t_check_sim(sim);
	for (unsigned k = 0; k < NODES; k++)
		tg_close(dev[k]);
	tg_sim_destroy(sim);
	return t_done("test_atomic");
}
