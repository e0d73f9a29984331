/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: every function tg.h declares follows its conventions for NULL and bad arguments (int calls -EINVAL, constructors NULL with EINVAL, getters 0, close and free accept NULL), and this file calls each one. */
#include <ctype.h>

#include "tg_test.h"

#ifndef TG_SRC_DIR
#define TG_SRC_DIR "."
#endif

static void hook(struct tg_queue *q, void *arg)
{
	(void)q;
	(void)arg;
}

/* Text of a file, NUL-terminated, or NULL. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET) &&
	    (buf = malloc((size_t)n + 1)) && fread(buf, 1, (size_t)n, f) == (size_t)n)
		buf[n] = 0;
	else {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* Every function tg.h declares (a line "type [*]tg_name(" that is not
 * static) is called in main below. */
static void check_coverage(void)
{
	char *hdr = slurp(TG_SRC_DIR "/include/tg/tg.h");
	char *me = slurp(TG_SRC_DIR "/tests/c/test_nullargs.c");
	const char *body;
	unsigned seen = 0;

	REQUIRE(hdr && me, "cannot read tg.h or this test's source under %s", TG_SRC_DIR);
	body = strstr(me, "int main(void)");
	REQUIRE(body, "no main in this test's source");
	for (char *l = hdr; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *open = strchr(l, '('), *eol = strchr(l, '\n'), *name;
		char call[80];
		size_t n;

		if (!isalpha((unsigned char)*l) || !strncmp(l, "static", 6) || !open ||
		    (eol && open > eol))
			continue;
		for (name = open; name > l && (isalnum((unsigned char)name[-1]) || name[-1] == '_');
		     name--)
			;
		n = (size_t)(open - name);
		if (n >= sizeof(call) - 1 || (strncmp(name, "tg_", 3) && strncmp(name, "__tg_", 5)))
			continue;
		memcpy(call, name, n);
		call[n] = '(';
		call[n + 1] = 0;
		seen++;
		CHECK(strstr(body, call) != NULL, "tg.h declares %s), which this test never calls",
		      call);
	}
	CHECK(seen > 50, "only %u declarations found in tg.h", seen);
	free(hdr);
	free(me);
}

int main(void)
{
	struct tg_sim *sim = t_sim(2);
	struct tg_dev *a = t_open(sim, 0, 0);
	struct tg_mr *mr = tg_mr_alloc(a, 4096, TG_ACCESS_ALL);
	uint64_t v = 0, w = 1;
	uint8_t buf[64];

	REQUIRE(mr, "tg_mr_alloc");
	check_coverage();

	/* devices */
	CHECK(tg_open(NULL, 0) == NULL && errno == EINVAL, "tg_open(NULL)");
	CHECK(tg_open("sim:", 0) == NULL && errno == EINVAL && tg_open_error()[0],
	      "tg_open(bad string) and its reason");
	CHECK(tg_open_sim(NULL, 0, 0) == NULL && errno == EINVAL, "tg_open_sim(NULL)");
	tg_close(NULL);
	CHECK(tg_node_id(NULL) == -EINVAL && tg_num_nodes(NULL) == -EINVAL &&
	      tg_context(NULL) == -EINVAL, "int getters on NULL give -EINVAL");
	CHECK(tg_mem_size(NULL) == 0 && tg_block_bytes(NULL) == 0 && tg_nic_id(NULL) == 0 &&
	      tg_cycles(NULL) == 0 && tg_clock_khz(NULL) == 0, "value getters on NULL give 0");
	CHECK_RC(tg_check_id(0), -EPROTO);
	CHECK_RC(tg_csr_read(NULL, TG_CSR_REG_ID, &v), -EINVAL);
	CHECK_RC(tg_csr_write(NULL, TG_CSR_REG_SCRATCH, 1), -EINVAL);
	CHECK_RC(tg_ctx_status(NULL), -EINVAL);
	CHECK_RC(tg_sim_mem_read(NULL, 0, 0, buf, 8), -EINVAL);
	CHECK(!strcmp(tg_dev_error(NULL), "no device (NULL)"), "tg_dev_error(NULL)");

	/* registered memory */
	CHECK(tg_mr_alloc(NULL, 4096, 0) == NULL && errno == EINVAL, "tg_mr_alloc(NULL)");
	CHECK(tg_mr_ptr(NULL) == NULL && tg_mr_paddr(NULL) == 0 && tg_mr_len(NULL) == 0 &&
	      tg_mr_access(NULL) == 0 && tg_mr_key(NULL) == 0, "region getters on NULL give 0");
	CHECK_RC(tg_mr_read(NULL, 0, buf, 8), -EINVAL);
	CHECK_RC(tg_mr_read(mr, 0, NULL, 8), -EINVAL);
	CHECK_RC(tg_mr_write(NULL, 0, buf, 8), -EINVAL);
	CHECK_RC(tg_mr_write(mr, 0, NULL, 8), -EINVAL);
	CHECK_RC(tg_mr_export(NULL, &v), -EINVAL);
	CHECK_RC(tg_mr_revoke(NULL), -EINVAL);
	CHECK_RC(tg_key_set(NULL, 1), -EINVAL);
	tg_mr_free(NULL);

	/* remote memory */
	CHECK_RC(tg_write(NULL, 1, 0, buf, 8), -EINVAL);
	CHECK_RC(tg_read(NULL, 1, 0, buf, 8), -EINVAL);
	CHECK_RC(tg_fence(NULL, 1), -EINVAL);
	CHECK_RC(tg_fetch(NULL, 1, 0, mr, 0, 8, mr, 64), -EINVAL);
	CHECK_RC(tg_fetch_test(NULL, mr, 0), -EINVAL);
	CHECK_RC(tg_fetch_wait(NULL, mr, 0), -EINVAL);
	CHECK_RC(tg_fetch_wait(a, NULL, 0), -EINVAL);
	CHECK(tg_win_open(NULL, 0) == NULL && errno == EINVAL, "tg_win_open(NULL)");
	tg_win_close(NULL);
	CHECK_RC(tg_win_error(NULL), -EINVAL);
	__tg_win_store(NULL, 0, 1, 8);              /* dropped */
	tg_win_store64(NULL, 0, 1);
	tg_win_store32(NULL, 0, 1);
	tg_win_store8(NULL, 0, 1);
	CHECK(__tg_win_load64(NULL, 0) == ~0ull && tg_win_load64(NULL, 0) == ~0ull,
	      "a load through no window gives all ones");

	/* atomics */
	CHECK_RC(tg_faa(NULL, 1, 0, 1, &v), -EINVAL);
	CHECK_RC(tg_fetch_inc(NULL, 1, 0, &v), -EINVAL);
	CHECK_RC(tg_swap(NULL, 1, 0, 1, &v), -EINVAL);
	CHECK_RC(tg_cas(NULL, 1, 0, 1, 2, &v), -EINVAL);
	CHECK_RC(tg_atomic_post(NULL, 1, 0, TG_AOP_FAA, 1, 0, mr, 0), -EINVAL);
	CHECK_RC(tg_atomic_post(a, 1, 0, TG_AOP_FAA, 1, 0, NULL, 0), -EINVAL);
	CHECK_RC(tg_atomic_test(NULL, mr, 0, &v), -EINVAL);
	CHECK_RC(tg_atomic_test(a, NULL, 0, &v), -EINVAL);
	CHECK_RC(tg_atomic_wait(NULL, mr, 0, &v), -EINVAL);
	CHECK_RC(tg_atomic_wait(a, NULL, 0, &v), -EINVAL);

	/* queues */
	CHECK(tg_queue_open(NULL, 12, 8) == NULL && errno == EINVAL, "tg_queue_open(NULL)");
	CHECK(tg_queue_attach(NULL, 0x1000) == NULL && errno == EINVAL, "tg_queue_attach(NULL)");
	tg_queue_close(NULL);
	CHECK_RC(tg_queue_export(NULL, &v), -EINVAL);
	CHECK_RC(tg_queue_revoke(NULL), -EINVAL);
	CHECK(tg_queue_paddr(NULL) == 0 && tg_queue_entry_bytes(NULL) == 0,
	      "queue getters on NULL give 0");
	CHECK_RC(tg_deq(NULL, &v, 8), -EINVAL);
	CHECK_RC(tg_deq_wait(NULL, &v, 8, 1), -EINVAL);
	CHECK_RC(tg_queue_error(NULL), -EINVAL);
	CHECK_RC(tg_queue_set_deq_hook(NULL, hook, NULL), -EINVAL);
	CHECK_RC(tg_queue_grow(NULL), -EINVAL);
	CHECK_RC(tg_enq(NULL, 1, 0x10000, 1), -EINVAL);
	CHECK_RC(tg_enq_wait(NULL, T_ENQ_NS, NULL), -EINVAL);
	CHECK(tg_enq_ticket(NULL) == 0, "tg_enq_ticket(NULL)");
	CHECK_RC(__tg_enq_store(NULL, 1, 0x10000, &w, 1), -EINVAL);
	CHECK_RC(tg_enq_multi(NULL, 1, 0x10000, &w, 1), -EINVAL);
	CHECK_RC(tg_enq_multi(a, 1, 0x10000, NULL, 1), -EINVAL);

	/* errors */
	CHECK_RC(tg_status_errno(TG_ST_NO_QUEUE), -ENOENT);
	CHECK(tg_strerror(0) && tg_strerror(-EINVAL) && tg_strerror(-99999) && tg_strerror(12345),
	      "tg_strerror of any value gives a string");

	tg_mr_free(mr);
	tg_close(a);
	tg_sim_destroy(sim);
	return t_done("test_nullargs");
}
