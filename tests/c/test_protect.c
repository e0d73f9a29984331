/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: protection.  Node 0 exports regions and a queue with keys; node 1
 * uses them as granted; node 2 tries every way in it has no right to.
 * Each refusal must come back to the sender with its reason, be counted
 * by the target, and leave the target's whole memory byte for byte as it
 * was.  Revocation must stop requests already in flight. */
#include "../../libtg/tg_internal.h"
#include "tg_test.h"

#define T 0u   /* target */
#define G 1u   /* granted sender */
#define X 2u   /* misbehaving sender */

static struct tg_sim *sim;
static uint8_t *snap;
static uint64_t mem_size;

static void snapshot(void)
{
	memcpy(snap, tg_sim_mem(sim, T), mem_size);
}

/* The target's memory is as at the last snapshot. */
static void unchanged(const char *what)
{
	const uint8_t *m = tg_sim_mem(sim, T);

	for (uint64_t i = 0; i < mem_size; i++)
		if (m[i] != snap[i]) {
			CHECK(0, "%s: target byte 0x%" PRIx64 " changed", what, i);
			return;
		}
}

static uint64_t refused(struct tg_dev *drv)
{
	return t_csr(drv, TG_CSR_REG_PROT_REFUSED);
}

int main(void)
{
	struct tg_sim_config cfg;
	struct tg_dev *t, *g, *x, *x2, *drv;
	struct tg_mr *a, *ro, *noat, *odd, *loc, *extra[TG_REGIONS];
	struct tg_queue *q;
	uint64_t ka, kro, knoat, kodd, kq, k, v, old, ref0, failed;
	uint8_t buf[64], back[64];
	unsigned nextra = 0;
	int rc;

	t_config(&cfg, 3);
	cfg.protect = 1;
	sim = tg_sim_create(&cfg);
	REQUIRE(sim, "tg_sim_create: %s", strerror(errno));
	mem_size = tg_sim_mem_size(sim);
	snap = malloc(mem_size);
	REQUIRE(snap, "malloc");
	t = t_open(sim, T, 0);
	g = t_open(sim, G, 0);
	x = t_open(sim, X, 0);
	x2 = t_open(sim, X, 0);
	drv = t_open(sim, T, TG_OPEN_DRIVER);
	CHECK(t_csr(drv, TG_CSR_REG_PROT_CFG) == TG_PROT_CFG_ENABLE, "protection on");

	a = tg_mr_alloc(t, 8192, TG_ACCESS_REMOTE_READ | TG_ACCESS_REMOTE_WRITE |
			TG_ACCESS_REMOTE_ATOMIC);
	ro = tg_mr_alloc(t, 4096, TG_ACCESS_REMOTE_READ);
	noat = tg_mr_alloc(t, 4096, TG_ACCESS_REMOTE_READ | TG_ACCESS_REMOTE_WRITE);
	odd = tg_mr_alloc(t, 4000, TG_ACCESS_REMOTE_READ | TG_ACCESS_REMOTE_WRITE);
	loc = tg_mr_alloc(g, 4096, TG_ACCESS_LOCAL_WRITE);
	q = tg_queue_open(t, 12, 8);
	REQUIRE(a && ro && noat && odd && loc && q, "regions");
	for (unsigned i = 0; i < 4096; i++) {
		((uint8_t *)tg_mr_ptr(a))[i] = t_pat(1, i);
		((uint8_t *)tg_mr_ptr(ro))[i] = t_pat(2, i);
	}

	/* ---- library arguments */
	CHECK_RC(tg_mr_export(NULL, &k), -EINVAL);
	CHECK_RC(tg_mr_export(a, NULL), -EINVAL);
	CHECK_RC(tg_mr_export(loc, &k), -EINVAL);          /* no remote right */
	CHECK_RC(tg_mr_revoke(a), -ENOENT);                 /* not exported */
	CHECK_RC(tg_key_set(NULL, 1), -EINVAL);
	CHECK_RC(tg_queue_export(NULL, &k), -EINVAL);
	CHECK(tg_mr_key(a) == 0 && tg_mr_key(NULL) == 0, "no key before export");

	REQUIRE(tg_mr_export(a, &ka) == 0, "export a");
	REQUIRE(tg_mr_export(ro, &kro) == 0, "export ro");
	REQUIRE(tg_mr_export(noat, &knoat) == 0, "export noat");
	REQUIRE(tg_mr_export(odd, &kodd) == 0, "export odd");
	REQUIRE(tg_queue_export(q, &kq) == 0, "export queue");
	CHECK(tg_mr_export(a, &k) == 0 && k == ka, "export again: same key");
	CHECK(tg_mr_key(a) == ka, "tg_mr_key");
	CHECK(ka != kro && ka != knoat && ka != kodd && ka != kq, "distinct keys");
	CHECK((ka >> TG_KEY_IDX_BITS) != 0, "key has random bits");

	/* ---- the granted sender */
	for (unsigned i = 0; i < 64; i++)
		buf[i] = (uint8_t)(0xA0 + i);
	CHECK_RC(tg_key_set(g, ka), 0);
	CHECK_RC(tg_write(g, T, tg_mr_paddr(a) + 128, buf, 64), 0);
	CHECK_RC(tg_fence(g, T), 0);
	CHECK_RC(tg_read(g, T, tg_mr_paddr(a) + 128, back, 64), 0);
	CHECK(memcmp(buf, back, 64) == 0, "granted write and read");
	CHECK_RC(tg_faa(g, T, tg_mr_paddr(a) + 8000, 5, &old), 0);
	CHECK_RC(tg_faa(g, T, tg_mr_paddr(a) + 8000, 5, &old), 0);
	CHECK(old == 5, "granted fetch-and-add: old %" PRIu64, old);
	CHECK_RC(tg_key_set(g, kro), 0);
	CHECK_RC(tg_read(g, T, tg_mr_paddr(ro) + 8, &v, 8), 0);
	CHECK_RC(tg_key_set(g, kq), 0);
	CHECK_RC(tg_enq(g, T, tg_queue_paddr(q), 0x1234), 0);
	CHECK_RC(tg_fence(g, T), 0);
	CHECK_RC(tg_deq(q, &v, 8), 0);
	CHECK(v == 0x1234, "granted enqueue: %" PRIx64, v);
	CHECK_RC(tg_ctx_status(g), 0);
	CHECK(refused(drv) == 0, "nothing refused yet");

	/* ---- wrong keys: one bit off, a guess with the right index, no key */
	ref0 = refused(drv);
	snapshot();
	{
		const uint64_t bad[] = { ka ^ (1ULL << 40), (0x5eedULL << 20) | (ka & 31), 0 };

		for (unsigned i = 0; i < 3; i++) {
			CHECK_RC(tg_key_set(x, bad[i]), 0);
			CHECK_RC(tg_write(x, T, tg_mr_paddr(a), buf, 64), 0);   /* posted */
			CHECK_RC(tg_fence(x, T), -EACCES);
			CHECK_RC(tg_fence(x, T), 0);                  /* reported once */
			CHECK_RC(tg_read(x, T, tg_mr_paddr(a), back, 8), -EACCES);
			CHECK_RC(tg_read(x, T, tg_mr_paddr(a), back, 64), -EACCES);
			CHECK_RC(tg_faa(x, T, tg_mr_paddr(a) + 8000, 1, &old), -EACCES);
			CHECK_RC(tg_cas(x, T, tg_mr_paddr(a) + 8000, 10, 0, &old), -EACCES);
			CHECK_RC(tg_swap(x, T, tg_mr_paddr(a) + 8000, 0, &old), -EACCES);
			CHECK_RC(tg_ctx_status(x), -EACCES);
		}
	}
	unchanged("wrong keys");
	CHECK(refused(drv) - ref0 == 3 * 6, "wrong keys counted: %" PRIu64, refused(drv) - ref0);

	/* ---- bounds: one past the end, a write crossing the end */
	ref0 = refused(drv);
	snapshot();
	CHECK_RC(tg_key_set(x, ka), 0);
	CHECK_RC(tg_write(x, T, tg_mr_paddr(a) + 8192, buf, 8), 0);
	CHECK_RC(tg_fence(x, T), -EFAULT);
	CHECK_RC(tg_read(x, T, tg_mr_paddr(a) + 8192, back, 8), -EFAULT);
	CHECK_RC(tg_faa(x, T, tg_mr_paddr(a) + 8192, 1, &old), -EFAULT);
	CHECK_RC(tg_read(x, T, tg_mr_paddr(a) - 8, back, 8), -EFAULT);   /* one before */
	CHECK_RC(tg_key_set(x, kodd), 0);
	/* 16 bytes at 3992 of a 4000-byte region: one frame, half inside */
	CHECK_RC(tg_write(x, T, tg_mr_paddr(odd) + 3992, buf, 16), 0);
	CHECK_RC(tg_fence(x, T), -EFAULT);
	CHECK_RC(tg_read(x, T, tg_mr_paddr(odd) + 3992, back, 16), -EFAULT);
	/* neither half of the crossing write, nor any word past the end */
	unchanged("bounds: past the end, before the start, crossing the end");
	CHECK(refused(drv) - ref0 == 6, "bounds refusals counted: %" PRIu64, refused(drv) - ref0);
	CHECK_RC(tg_write(x, T, tg_mr_paddr(odd) + 3992, buf, 8), 0);   /* inside: fine */
	CHECK_RC(tg_fence(x, T), 0);
	CHECK(memcmp((uint8_t *)tg_mr_ptr(odd) + 3992, buf, 8) == 0, "last word of odd written");

	/* ---- writes of many frames across a bound land whole or not at all:
	 * the library checks the last frame's range first, the first frame
	 * checks the start, and once a write is refused the target refuses the
	 * context's later writes until its fence */
	{
		uint8_t big[512];
		uint64_t rx0 = t_csr(drv, TG_CSR_REG_RX_REFUSED);
		uint8_t *o = tg_mr_ptr(odd);

		for (unsigned i = 0; i < sizeof(big); i++)
			big[i] = t_pat(9, i);
		ref0 = refused(drv);
		snapshot();
		CHECK_RC(tg_key_set(x, kodd), 0);
		/* 400 bytes at 3700 (8 frames), the last 100 past the end, and an
		 * 8-byte write inside before the fence */
		CHECK_RC(tg_write(x, T, tg_mr_paddr(odd) + 3700, big, 400), 0);
		CHECK_RC(tg_write(x, T, tg_mr_paddr(odd) + 64, big, 8), 0);
		CHECK_RC(tg_fence(x, T), -EFAULT);
		unchanged("8 frames crossing the region's end, then a write inside");
		/* 300 bytes from 128 before the region (5 frames) */
		CHECK_RC(tg_write(x, T, tg_mr_paddr(odd) - 128, big, 300), 0);
		CHECK_RC(tg_fence(x, T), -EFAULT);
		unchanged("5 frames starting before the region");
		/* the check, the three frames reaching past the end and the two
		 * before the start were refused by protection; the 9 others for
		 * the refusal kept */
		CHECK(refused(drv) - ref0 == 6, "protection refusals: %" PRIu64, refused(drv) - ref0);
		CHECK(t_csr(drv, TG_CSR_REG_RX_REFUSED) - rx0 == 15, "refused writes: %" PRIu64,
		      t_csr(drv, TG_CSR_REG_RX_REFUSED) - rx0);
		/* after the fence the same writes, inside, land whole */
		CHECK_RC(tg_write(x, T, tg_mr_paddr(odd) + 3600, big, 400), 0);
		CHECK_RC(tg_write(x, T, tg_mr_paddr(odd) + 64, big, 8), 0);
		CHECK_RC(tg_fence(x, T), 0);
		CHECK(memcmp(o + 3600, big, 400) == 0 && memcmp(o + 64, big, 8) == 0,
		      "writes inside the region after the fence");
		CHECK(refused(drv) - ref0 == 6, "nothing more refused");
	}
	snapshot();
	/* a key names one region: another region's address is out of its bounds */
	CHECK_RC(tg_key_set(x, kro), 0);
	CHECK_RC(tg_read(x, T, tg_mr_paddr(a), back, 8), -EFAULT);
	unchanged("bounds");

	/* ---- rights */
	ref0 = refused(drv);
	snapshot();
	CHECK_RC(tg_key_set(x, kro), 0);
	CHECK_RC(tg_write(x, T, tg_mr_paddr(ro), buf, 64), 0);
	CHECK_RC(tg_fence(x, T), -EPERM);
	CHECK_RC(tg_faa(x, T, tg_mr_paddr(ro), 1, &old), -EPERM);
	CHECK_RC(tg_read(x, T, tg_mr_paddr(ro), back, 64), 0);          /* granted */
	CHECK(memcmp(back, tg_mr_ptr(ro), 64) == 0, "read-only region reads");
	CHECK_RC(tg_key_set(x, knoat), 0);
	CHECK_RC(tg_faa(x, T, tg_mr_paddr(noat), 1, &old), -EPERM);
	CHECK_RC(tg_swap(x, T, tg_mr_paddr(noat), 1, &old), -EPERM);
	CHECK_RC(tg_cas(x, T, tg_mr_paddr(noat), 0, 1, &old), -EPERM);
	{
		struct tg_mr *rec = tg_mr_alloc(x, 4096, TG_ACCESS_LOCAL_WRITE);

		REQUIRE(rec, "record");
		CHECK_RC(tg_atomic_post(x, T, tg_mr_paddr(noat), TG_AOP_FAA, 1, 0, rec, 0), 0);
		CHECK_RC(tg_atomic_wait(x, rec, 0, &old), -EPERM);
		tg_mr_free(rec);
	}
	/* a REQ to a region that is not a queue, and to a queue with a
	 * memory region's key */
	CHECK_RC(tg_key_set(x, ka), 0);
	CHECK_RC(tg_ctx_status(x), -EFAULT);            /* first failure since the last call */
	CHECK_RC(tg_enq(x, T, tg_mr_paddr(a), 7), 0);
	CHECK_RC(tg_enq_wait(x, T_ENQ_NS, NULL), -EPERM);
	CHECK_RC(tg_enq(x, T, tg_queue_paddr(q), 7), 0);
	CHECK_RC(tg_enq_wait(x, T_ENQ_NS, NULL), -EPERM);         /* rights are checked before bounds */
	CHECK_RC(tg_ctx_status(x), 0);                  /* REQs are not in STATUS */
	/* the queue's key: only enqueue */
	CHECK_RC(tg_key_set(x, kq), 0);
	CHECK_RC(tg_write(x, T, tg_queue_paddr(q) + TG_Q_SLOTS, buf, 8), 0);
	CHECK_RC(tg_fence(x, T), -EPERM);
	CHECK_RC(tg_read(x, T, tg_queue_paddr(q), back, 8), -EPERM);
	CHECK_RC(tg_deq(q, &v, 8), -EAGAIN);
	unchanged("rights");
	/* write and FAA to ro, three atomics and a posted one to noat, two
	 * REQs, a write and a read with the queue's key */
	CHECK(refused(drv) - ref0 == 10, "rights refusals counted: %" PRIu64, refused(drv) - ref0);
	CHECK_RC(tg_ctx_status(x), -EPERM);
	/* each refusal has a reason a program can print */
	CHECK(strstr(tg_strerror(-EACCES), "key") != NULL, "reason of -EACCES: %s", tg_strerror(-EACCES));
	CHECK(strstr(tg_strerror(-EPERM), "does not grant") != NULL, "reason of -EPERM: %s", tg_strerror(-EPERM));
	CHECK(strstr(tg_strerror(-EFAULT), "region") != NULL, "reason of -EFAULT: %s", tg_strerror(-EFAULT));

	/* ---- another context's page: its key is not readable or writable */
	{
		unsigned cg = (unsigned)tg_context(x2);

		CHECK_RC(tg_key_set(x2, knoat), 0);
		CHECK_RC(tg__mmio_read(x, tg_bar_ctx_addr(cg, TG_CTX_REG_KEY), &v), -EPERM);
		v = ka;
		REQUIRE(tg__mmio_write(x, tg_bar_ctx_addr(cg, TG_CTX_REG_KEY), &v, NULL, 1) == 0, "post");
		CHECK_RC(tg_fence(x, T), 0);
		CHECK_RC(tg__async_err(x), -EPERM);
		CHECK_RC(tg__mmio_read(x2, tg_bar_ctx_addr(cg, TG_CTX_REG_KEY), &v), 0);
		CHECK(v == knoat, "the other context's key is unchanged: %" PRIx64, v);
	}

	/* ---- a forged frame: node 1's identity, a guessed key */
	snapshot();
	ref0 = refused(drv);
	{
		uint8_t f[TG_MAX_FRAME_BYTES];
		uint8_t pl[64];
		struct tg_frame_hdr h = { .ver = TG_PROTO_VERSION, .op = TG_OP_WRITE, .src = G,
					  .dst = T, .addr = (uint32_t)tg_mr_paddr(a), .cnt = 64, .len = 64 };

		memset(pl, 0xEE, sizeof(pl));
		for (unsigned i = 0; i < 8; i++) {
			size_t n;

			h.key = (0x9e3779b97f4a7c15ULL * (i + 1)) & ~31ULL;
			h.key |= ka & 31;
			if (h.key == ka)
				continue;
			n = tg_frame_encode(f, &h, pl);
			REQUIRE(tg_sim_inject(sim, T, f, n) == 0, "inject");
		}
		/* the forged frames are ahead of the fence; the source on the
		 * wire is not authenticated, so the refusal is reported to the
		 * context the forger named (docs/security.md) */
		CHECK_RC(tg_fence(g, T), -EACCES);
	}
	unchanged("forged frames");
	CHECK(refused(drv) - ref0 == 8, "forged frames counted: %" PRIu64, refused(drv) - ref0);
	CHECK_RC(tg_fence(g, T), 0);
	CHECK_RC(tg_ctx_status(g), -EACCES);

	/* ---- revocation, with writes in flight when it lands */
	CHECK_RC(tg_sim_set_link(sim, G, 4000, cfg.link_bytes_per_cycle), 0);
	snapshot();
	CHECK_RC(tg_key_set(g, ka), 0);
	for (unsigned i = 0; i < 8; i++)
		CHECK_RC(tg_write(g, T, tg_mr_paddr(a) + 64 * i, buf, 64), 0);
	CHECK_RC(tg_mr_revoke(a), 0);
	CHECK(tg_mr_key(a) == 0, "no key after revoke");
	CHECK_RC(tg_fence(g, T), -EACCES);
	unchanged("writes in flight at the revocation");
	CHECK_RC(tg_read(g, T, tg_mr_paddr(a), back, 8), -EACCES);
	CHECK_RC(tg_faa(g, T, tg_mr_paddr(a) + 8000, 1, &old), -EACCES);
	CHECK_RC(tg_mr_revoke(a), -ENOENT);
	CHECK_RC(tg_sim_set_link(sim, G, cfg.link_latency, cfg.link_bytes_per_cycle), 0);
	/* exported again: a new key; the old one stays dead */
	CHECK_RC(tg_mr_export(a, &k), 0);
	CHECK(k != ka, "fresh key after revoke");
	CHECK_RC(tg_read(g, T, tg_mr_paddr(a), back, 8), -EACCES);
	CHECK_RC(tg_key_set(g, k), 0);
	CHECK_RC(tg_read(g, T, tg_mr_paddr(a) + 128, back, 64), 0);
	CHECK(memcmp(buf, back, 64) == 0, "data under the new key");
	ka = k;
	/* a queue revoked with REQs in flight refuses them, and later ones */
	CHECK_RC(tg_key_set(g, kq), 0);
	CHECK_RC(tg_ctx_status(g), -EACCES);            /* the fence's failure at the revocation */
	CHECK_RC(tg_sim_set_link(sim, G, 4000, cfg.link_bytes_per_cycle), 0);
	snapshot();
	ref0 = refused(drv);
	for (unsigned i = 0; i < 4; i++)
		CHECK_RC(tg_enq(g, T, tg_queue_paddr(q), 20 + i), 0);
	CHECK_RC(tg_queue_revoke(q), 0);
	CHECK_RC(tg_enq_wait(g, T_ENQ_NS, &failed), -EACCES);
	CHECK(failed == tg_enq_ticket(g) - 3, "first REQ refused: ticket %" PRIu64 " of %" PRIu64, failed,
	      tg_enq_ticket(g));
	CHECK(strstr(tg_dev_error(g), "; 4 REQs failed"), "tg_dev_error: \"%s\"", tg_dev_error(g));
	CHECK_RC(tg_deq(q, &v, 8), -EAGAIN);
	unchanged("REQs in flight at the queue's revocation");
	CHECK(refused(drv) - ref0 == 4, "REQs in flight refused: %" PRIu64, refused(drv) - ref0);
	CHECK_RC(tg_sim_set_link(sim, G, cfg.link_latency, cfg.link_bytes_per_cycle), 0);
	CHECK_RC(tg_enq(g, T, tg_queue_paddr(q), 9), 0);
	CHECK_RC(tg_enq_wait(g, T_ENQ_NS, &failed), -EACCES);
	CHECK(failed == tg_enq_ticket(g), "REQ refused: ticket %" PRIu64 " of %" PRIu64, failed, tg_enq_ticket(g));
	CHECK_RC(tg_deq(q, &v, 8), -EAGAIN);

	/* ---- the table fills up: ENOSPC, then room again after a free */
	for (rc = 0; nextra < TG_REGIONS; nextra++) {
		extra[nextra] = tg_mr_alloc(t, 4096, TG_ACCESS_REMOTE_READ);
		REQUIRE(extra[nextra], "extra region");
		rc = tg_mr_export(extra[nextra], &k);
		if (rc)
			break;
	}
	CHECK_RC(rc, -ENOSPC);
	/* a, ro, noat and odd are exported; the queue's entry was revoked */
	CHECK(nextra == TG_REGIONS - 4, "regions exported before ENOSPC: %u", nextra);
	tg_mr_free(extra[0]);
	CHECK_RC(tg_mr_export(extra[nextra], &k), 0);
	for (unsigned i = 1; i <= nextra; i++)
		tg_mr_free(extra[i]);

	/* ---- after all that, the granted sender is served as before */
	CHECK_RC(tg_key_set(g, ka), 0);
	CHECK_RC(tg_faa(g, T, tg_mr_paddr(a) + 8000, 5, &old), 0);
	CHECK(old == 10, "counter after the misbehaving node: %" PRIu64, old);
	CHECK_RC(tg_ctx_status(g), 0);
	CHECK(t_csr(drv, TG_CSR_REG_RX_DROP_MALFORMED) == 0, "no malformed frames");

	t_check_sim(sim);
	tg_queue_close(q);
	tg_close(drv);
	tg_close(x2);
	tg_close(x);
	tg_close(g);
	tg_close(t);
	tg_sim_destroy(sim);
	free(snap);
	if (t_failed)
		fprintf(stderr, "test_protect: %d checks failed\n", t_failed);
	else
		printf("test_protect: every refusal reported and counted, target memory unchanged\n");
	return t_failed ? T_FAIL : T_PASS;
}
