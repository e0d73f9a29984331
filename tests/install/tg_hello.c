/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* A program built outside the source tree against the installed libtg (pkg-config tg): a remote write, read, fetch-and-add and enqueue between nodes 0 and 1 of a running tg-sim. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <tg/tg.h>

static int fail(struct tg_dev *dev, const char *what, int rc)
{
	fprintf(stderr, "tg_hello: %s: %s\n", what, dev ? tg_dev_error(dev) : tg_strerror(rc));
	return 1;
}

int main(int argc, char **argv)
{
	char name[96];
	struct tg_dev *a, *b;
	struct tg_mr *mr;
	struct tg_queue *q;
	uint64_t v = 0x7465737400000001ULL, got = 0, old = 0, e = 0;
	int rc;

	if (argc != 2) {
		fprintf(stderr, "usage: tg_hello SIMULATOR\n");
		return 2;
	}
	snprintf(name, sizeof(name), "sim:%s:0", argv[1]);
	a = tg_open(name, 0);
	snprintf(name, sizeof(name), "sim:%s:1", argv[1]);
	b = tg_open(name, 0);
	if (!a || !b) {
		fprintf(stderr, "tg_hello: %s\n", tg_open_error());
		return 1;
	}
	mr = tg_mr_alloc(b, 4096, TG_ACCESS_ALL);
	q = tg_queue_open(b, 12, 8);
	if (!mr || !q)
		return fail(b, "setup", -errno);
	if ((rc = tg_write(a, 1, tg_mr_paddr(mr), &v, 8)) || (rc = tg_fence(a, 1)))
		return fail(a, "write", rc);
	if ((rc = tg_mr_read(mr, 0, &got, 8)) || got != v)
		return fail(b, "the written word", rc ? rc : -EIO);
	if ((rc = tg_read(a, 1, tg_mr_paddr(mr), &got, 8)) || got != v)
		return fail(a, "read", rc ? rc : -EIO);
	if ((rc = tg_faa(a, 1, tg_mr_paddr(mr) + 8, 5, &old)) || old != 0)
		return fail(a, "fetch-and-add", rc ? rc : -EIO);
	if ((rc = tg_enq(a, 1, tg_queue_paddr(q), 42)) ||
	    (rc = tg_deq_wait(q, &e, 8, 10000000000ull)) || e != 42)
		return fail(b, "enqueue", rc ? rc : -EIO);
	tg_queue_close(q);
	tg_mr_free(mr);
	tg_close(b);
	tg_close(a);
	printf("tg_hello: write, read, fetch-and-add and enqueue ok\n");
	return 0;
}
