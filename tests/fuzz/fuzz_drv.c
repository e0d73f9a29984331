/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* libFuzzer harness: the driver's allocator and queue calls driven by arbitrary client requests, with queue memory overwritten at random as remote writes could. */
#include <errno.h>
#include <string.h>

#include "tgdrv/tg_drv.h"
#include "fuzz_input.h"
#include "tg/tg_bar.h"
#include "tg/tg_queue.h"

/*
 * Input: records of an opcode byte and its arguments, the calls a client
 * slot can make through the simulator's request ring (allocate, free,
 * create / destroy / grow / arm a queue, free a queue buffer), the
 * overflow and notification interrupts, a client leaving, and 8-byte
 * stores anywhere in memory (remote nodes write host memory, queue
 * headers included).  Properties: nothing is read or written outside the
 * memory (AddressSanitizer), and memory the allocator handed out is
 * never handed out again while its owner holds it: live allocations and
 * the first buffers of live queues never overlap.
 */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MEM_BYTES  (1u << 20)
#define SLOTS      4u
#define MAX_LIVE   256u

struct live {
	uint64_t pa, len;
	uint32_t owner;
	int queue;               /* the first buffer of a queue */
};

static uint8_t *mem;
static struct live live[MAX_LIVE];
static unsigned nlive;
static int fail_writes;

static int io_write(void *arg, uint64_t addr, uint64_t val)
{
	(void)arg;
	(void)addr;
	(void)val;
	return fail_writes ? -EIO : 0;
}

static int io_read(void *arg, uint64_t addr, uint64_t *val)
{
	(void)arg;
	(void)addr;
	*val = 0;
	return 0;
}

static void add_live(uint64_t pa, uint64_t len, uint32_t owner, int queue)
{
	FZ_ASSERT(pa >= TG_DRV_GRAN && pa + len <= MEM_BYTES && len,
		  "allocation [0x%llx, +0x%llx) outside the arena", (unsigned long long)pa,
		  (unsigned long long)len);
	for (unsigned i = 0; i < nlive; i++)
		FZ_ASSERT(pa + len <= live[i].pa || live[i].pa + live[i].len <= pa,
			  "[0x%llx, +0x%llx) of owner %u handed out over [0x%llx, +0x%llx) "
			  "of owner %u%s", (unsigned long long)pa, (unsigned long long)len,
			  owner, (unsigned long long)live[i].pa,
			  (unsigned long long)live[i].len, live[i].owner,
			  live[i].queue ? " (a queue's first buffer)" : "");
	if (nlive < MAX_LIVE)
		live[nlive++] = (struct live){ pa, len, owner, queue };
}

static void drop_live(unsigned i)
{
	live[i] = live[--nlive];
}

/* An address to pass: one the harness knows of, or any. */
static uint64_t pick(struct fz_in *in)
{
	uint8_t k = fz_u8(in);

	if (k < 200 && nlive)
		return live[k % nlive].pa + (k & 1 ? 0 : (uint64_t)(k >> 1) * TG_DRV_GRAN);
	return fz_le(in, 3);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in in = { data, size };
	struct tg_drv_mmio io = { io_read, io_write, NULL };
	struct tg_drv_qtable t;
	struct tg_alloc *alloc;
	struct tg_drv_qenv env;
	unsigned steps = 0;

	if (!mem)
		mem = malloc(MEM_BYTES);
	if (!mem)
		return 0;
	memset(mem, 0, MEM_BYTES);
	memset(&t, 0, sizeof(t));
	nlive = 0;
	fail_writes = 0;
	alloc = tg_alloc_create(TG_DRV_GRAN, MEM_BYTES - TG_DRV_GRAN, TG_DRV_GRAN);
	if (!alloc)
		return 0;
	env = (struct tg_drv_qenv){ .io = &io, .mem = mem, .mem_size = MEM_BYTES, .alloc = alloc };

	while (in.n && steps++ < 4096) {
		uint8_t op = fz_u8(&in);
		uint32_t s = op >> 4 & (SLOTS - 1);
		uint64_t pa = 0, a, b;
		uint32_t notified;
		unsigned idx;

		fail_writes = (op & 0x40) && (op & 0x80);
		switch (op & 15u) {
		case 0:   /* ALLOC */
			a = fz_le(&in, 3);
			b = 1ULL << fz_u8(&in) % 24;
			if (tg_alloc_get(alloc, a, b, s, &pa) == 0) {
				FZ_ASSERT(!(pa & (b - 1)), "0x%llx not aligned to 0x%llx",
					  (unsigned long long)pa, (unsigned long long)b);
				add_live(pa, (a + TG_DRV_GRAN - 1) & ~(uint64_t)(TG_DRV_GRAN - 1), s, 0);
			}
			break;
		case 1:   /* FREE */
			pa = pick(&in);
			if (tg_alloc_put(alloc, pa, s) == 0)
				for (unsigned i = 0; i < nlive; i++)
					if (live[i].pa == pa) {
						FZ_ASSERT(!live[i].queue && live[i].owner == s,
							  "freed a queue's buffer or another's");
						drop_live(i);
						break;
					}
			break;
		case 2:   /* QCREATE */
			a = TG_Q_MIN_LOG2 + fz_u8(&in) % 14;
			b = fz_u8(&in) % 8;
			if (tg_drv_queue_create(&env, &t, (unsigned)a, (unsigned)b, s, &pa, &idx) == 0) {
				FZ_ASSERT(idx < 16 && t.q[idx].base == pa, "queue %u", idx);
				add_live(pa, 1ULL << a, s, 1);
			}
			break;
		case 3:   /* QDESTROY */
			pa = pick(&in);
			if (tg_drv_queue_destroy(&env, &t, pa, s) == 0)
				for (unsigned i = 0; i < nlive; i++)
					if (live[i].pa == pa && live[i].queue) {
						drop_live(i);
						break;
					}
			break;
		case 4:   /* QGROW */
			tg_drv_queue_grow(&env, &t, pick(&in));
			break;
		case 5:   /* QARM */
			tg_drv_queue_arm(&env, &t, pick(&in));
			break;
		case 6:   /* QFREEBUF */
			pa = pick(&in);
			tg_drv_queue_freebuf(&env, &t, pa, pick(&in));
			break;
		case 7:   /* interrupt */
			a = fz_le(&in, 4);
			tg_drv_queue_irq(&env, &t, a, &notified);
			FZ_ASSERT(notified == (a >> 16 & 0xffff), "notified 0x%x", notified);
			break;
		case 8:   /* a client leaves */
			tg_drv_queue_destroy_owner(&env, &t, s);
			tg_alloc_put_owner(alloc, s);
			for (unsigned i = 0; i < nlive;)
				if (live[i].owner == s)
					drop_live(i);
				else
					i++;
			break;
		case 9:   /* a store into a queue header or anywhere */
		case 10:
			pa = (pick(&in) + 8u * (fz_u8(&in) % 16u)) & (MEM_BYTES - 8u);
			a = fz_u8(&in) < 128 ? fz_le(&in, 8) : fz_le(&in, 3);
			memcpy(mem + pa, &a, 8);
			break;
		case 11:  /* the NIC closes a queue: overflow raised */
			idx = fz_u8(&in) % 16u;
			if (t.q[idx].base)
				tg_drv_queue_irq(&env, &t, 1ULL << idx, &notified);
			break;
		default:
			break;
		}
		/* the table's queues are among the live allocations */
		for (unsigned i = 0; i < 16; i++) {
			int found = !t.q[i].base;

			for (unsigned k = 0; k < nlive && !found; k++)
				found = live[k].queue && live[k].pa == t.q[i].base;
			FZ_ASSERT(found || nlive == MAX_LIVE, "queue %u at 0x%llx unknown", i,
				  (unsigned long long)t.q[i].base);
		}
		FZ_ASSERT(tg_alloc_free_bytes(alloc) <= MEM_BYTES - TG_DRV_GRAN, "free bytes");
	}
	tg_alloc_destroy(alloc);
	return 0;
}
