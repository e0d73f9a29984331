/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: tg_dev_error names the call that failed last on a device, why, and the errno; an earlier request's refusal says it is one; polling's -EAGAIN and successes leave it. */
#include "tg_test.h"

/* The device's text must be exactly want. */
#define CHECK_TEXT(dev, want)                                                   \
	do {                                                                    \
		const char *got_ = tg_dev_error(dev);                           \
		CHECK(!strcmp(got_, (want)), "tg_dev_error: \"%s\", want \"%s\"", \
		      got_, (want));                                            \
	} while (0)

/* The device's text must start with `call: ` and contain each of the
 * other strings. */
static void check_has(const struct tg_dev *dev, const char *call, const char *a, const char *b)
{
	const char *t = tg_dev_error(dev);
	size_t n = strlen(call);

	CHECK(!strncmp(t, call, n) && t[n] == ':' && strstr(t, a) && (!b || strstr(t, b)),
	      "tg_dev_error: \"%s\", want %s: ...%s...%s", t, call, a, b ? b : "");
}

/* A dequeue hook that fails calls on another device: one that runs a
 * public call of its own inside (tg_enq_multi's store), then a plain one. */
static void hook(struct tg_queue *q, void *arg)
{
	uint64_t v = 1;

	CHECK_RC(tg_enq_multi(arg, 7, tg_queue_paddr(q), &v, 1), -EINVAL);
	CHECK(!strcmp(tg_dev_error(arg), "tg_enq_multi: node 7: the cluster has nodes 0 to 1 "
		      "(EINVAL)"), "in a hook: \"%s\"", tg_dev_error(arg));
	CHECK_RC(tg_write(arg, 7, 0x1000, &v, 8), -EINVAL);
}

int main(void)
{
	struct tg_sim *sim = t_sim(2);
	struct tg_dev *a = t_open(sim, 0, 0), *b = t_open(sim, 1, 0);
	struct tg_mr *mr = tg_mr_alloc(b, 4096, TG_ACCESS_ALL);
	struct tg_queue *q = tg_queue_open(b, 12, 8);
	struct tg_win *w = tg_win_open(a, 1);
	char want[200];
	uint64_t v = 7;

	REQUIRE(mr && q && w, "setup: %s", tg_strerror(-errno));
	CHECK_TEXT(a, "");
	CHECK_TEXT(NULL, "no device (NULL)");

	/* argument errors, with what was wrong */
	CHECK_RC(tg_csr_write(a, TG_CSR_REG_SCRATCH, 1), -EPERM);
	CHECK_TEXT(a, "tg_csr_write: the CSR page needs a device opened with TG_OPEN_DRIVER (EPERM)");
	CHECK(!strstr(tg_strerror(-EPERM), "TG_OPEN_DRIVER"), "tg_strerror(-EPERM) names one case");
	CHECK_RC(tg_write(a, 9, 0x1000, &v, 8), -EINVAL);
	CHECK_TEXT(a, "tg_write: node 9: the cluster has nodes 0 to 1 (EINVAL)");
	CHECK_RC(tg_read(a, 1, 0xfffffffcull, &v, 8), -ERANGE);
	CHECK_TEXT(a, "tg_read: 8 bytes at 0xfffffffc go past the 32-bit physical address space "
		      "(ERANGE)");
	snprintf(want, sizeof(want), "tg_write: 16 bytes at %#" PRIx64 " end past the target's "
		 "memory (%#" PRIx64 " bytes) (EFAULT)", tg_mem_size(a) - 8, tg_mem_size(a));
	CHECK_RC(tg_write(a, 1, tg_mem_size(a) - 8, want, 16), -EFAULT);
	CHECK_TEXT(a, want);
	CHECK_RC(tg_enq_multi(a, 1, tg_queue_paddr(q), &v, 9), -EINVAL);
	CHECK_TEXT(a, "tg_enq_multi: an entry of 9 words: 1 to 8 fit in the NIC's block (EINVAL)");
	CHECK_RC(tg_enq(a, 1, 0x80, 1), -EINVAL);  /* inline: checked before the library */
	CHECK_RC(tg_enq_multi(a, 1, 0x80, &v, 1), -EINVAL);
	CHECK_TEXT(a, "tg_enq_multi: 0x80 is no queue address: nonzero, below 2^32, aligned to 256 "
		      "(EINVAL)");
	CHECK_RC(tg_enq_multi(a, 1, tg_queue_paddr(q), &v, 9), -EINVAL);

	/* a success, and polling's "not yet", leave the last failure */
	CHECK_RC(tg_write(a, 1, tg_mr_paddr(mr), &v, 8), 0);
	CHECK_RC(tg_deq(q, &v, 8), -EAGAIN);
	CHECK_TEXT(a, "tg_enq_multi: an entry of 9 words: 1 to 8 fit in the NIC's block (EINVAL)");
	CHECK_TEXT(b, "");

	/* a queue's, a region's and a constructor's failures go to their device */
	CHECK_RC(tg_deq_wait(q, &v, 8, 1000), -ETIMEDOUT);
	check_has(b, "tg_deq_wait", "(ETIMEDOUT)", NULL);
	CHECK_RC(tg_mr_read(mr, 4090, &v, 8), -EINVAL);
	check_has(b, "tg_mr_read", "(EINVAL)", NULL);
	errno = 0;
	CHECK(tg_mr_alloc(b, tg_mem_size(b), 0) == NULL && errno == ENOMEM,
	      "an allocation of all memory: errno %d", errno);
	check_has(b, "tg_mr_alloc", "(ENOMEM)", NULL);
	CHECK_RC(tg_sim_mem_read(b, 1, tg_mem_size(b), &v, 8), -EFAULT);
	check_has(b, "tg_sim_mem_read", "(EFAULT)", NULL);

	/* a failure inside a call on another device is that device's */
	CHECK_RC(tg_queue_set_deq_hook(q, hook, a), 0);
	CHECK_RC(tg_deq(q, &v, 8), -EAGAIN);
	CHECK_RC(tg_queue_set_deq_hook(q, NULL, NULL), 0);
	CHECK_TEXT(a, "tg_write: node 7: the cluster has nodes 0 to 1 (EINVAL)");
	check_has(b, "tg_sim_mem_read", "(EFAULT)", NULL);

	/* a refusal that belongs to an earlier posted write: the fence says
	 * whose it is */
	tg_win_store64(w, tg_mem_size(a) + 64, 1);   /* past node 1's memory */
	CHECK_RC(tg_win_error(w), 0);
	CHECK_RC(tg_fence(a, 1), -EFAULT);
	check_has(a, "tg_fence", "node 1 refused a write this context posted to it since the last "
		  "fence: ", "(EFAULT)");
	CHECK_RC(tg_ctx_status(a), -EFAULT);     /* the same refusal, still in the status */
	snprintf(want, sizeof(want), "tg_ctx_status: a request of context %d failed since the "
		 "last check: %s (EFAULT)", tg_context(a), tg_strerror(-EFAULT));
	CHECK_TEXT(a, want);
	/* a REQ's failure: tg_enq_wait names the REQ by its ticket, its node
	 * and its queue, and no other call reports it */
	CHECK_RC(tg_enq(a, 1, tg_queue_paddr(q) + 0x100000, 42), 0);
	CHECK_RC(tg_fence(a, 1), 0);
	CHECK_RC(tg_ctx_status(a), 0);
	CHECK_RC(tg_enq_wait(a, T_ENQ_NS, NULL), -ENOENT);
	snprintf(want, sizeof(want), "tg_enq_wait: REQ %" PRIu64 " (to node 1, queue %#" PRIx64 ") failed "
		 "for good: %s; 1 REQ failed since the last tg_enq_wait (ENOENT)", tg_enq_ticket(a),
		 tg_queue_paddr(q) + 0x100000, tg_strerror(-ENOENT));
	CHECK_TEXT(a, want);
	CHECK_RC(tg_enq_wait(a, T_ENQ_NS, NULL), 0);
	CHECK_TEXT(a, want);

	/* freeing a region never exported is no failure of its own */
	{
		struct tg_mr *m2 = tg_mr_alloc(a, 4096, 0);

		REQUIRE(m2, "tg_mr_alloc");
		tg_mr_free(m2);
		CHECK_TEXT(a, want);
	}

	tg_win_close(w);
	tg_queue_close(q);
	tg_mr_free(mr);
	tg_close(b);
	tg_close(a);
	tg_sim_destroy(sim);
	return t_done("test_errtext");
}
