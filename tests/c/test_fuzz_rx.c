/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Test: random and mutated frames fed to a NIC's network port are each counted once, write only what a reference model predicts, and leave the NIC serving. */
#include "../../libtg/tg_internal.h"
#include "tg_test.h"

/*
 * Node 1 is fuzzed: frames built from valid ones of every opcode, then
 * mutated (bit flips, truncation, extension, EtherType, FCS, length,
 * opcode, out-of-range fields, random bytes), are put straight on its
 * switch output with tg_sim_inject.  A reference model of the receive
 * checks (tg_eth_rx) and of the receive engine predicts, for each frame,
 * the one counter it must land in, the response it causes and the bytes
 * it writes.  After each batch the test compares every receive counter of
 * node 1 with the prediction and its whole host memory with a shadow copy
 * (only the enqueue target's buffer is exempt; REQs are counted through
 * the queue instead).  Frames whose effect would reach memory outside the
 * target area are not sent, so any other change is a wild write.  Between
 * batches node 0 checks that node 1 still serves writes, reads,
 * fetch-and-adds and enqueues, and node 1 that its own reads still work.
 *
 * TG_TEST_SEED picks the run; TG_FUZZ_FRAMES (default 3000) the number of
 * frames; TG_FUZZ_BATCH (default 48) frames between comparisons (1 checks
 * after every frame).
 */

#define FUZZED      1u
#define PEER        0u
#define AREA_BYTES  65536u        /* target area of the valid frames */
#define Q_LOG2      16u           /* enqueue target: 64 KiB, 8-byte entries */
#define MAX_LEN     2048u
#define SETTLE      3000u         /* cycles for the last frame's effects and answers */

/* what a frame does at node 1 */
enum cls {
	C_DROP_FCS, C_DROP_TYPE, C_DROP_MAL,
	C_WRITE, C_WRITE_REF, C_WRITE_HELD, C_READ, C_READ_REF, C_ATOM, C_ATOM_REF,
	C_REQ_ANY, C_REQ_REF, C_STRAY, C_LINK, NCLS
};

static const char *const cls_name[NCLS] = {
	"dropped: FCS", "dropped: type", "dropped: malformed", "write executed",
	"write refused", "write held back", "read answered", "read refused", "atomic executed", "atomic refused",
	"REQ to the queue", "REQ refused", "stray response", "link frame ignored",
};

/* the counters compared; index into regs[] */
enum { K_RX, K_FCS, K_TYPE, K_MAL, K_REF, K_STRAY, K_REQA, K_REQR, K_ATOM, K_TX, NK };

static const uint64_t regs[NK] = {
	TG_CSR_REG_RX_FRAMES, TG_CSR_REG_RX_DROP_FCS, TG_CSR_REG_RX_DROP_TYPE,
	TG_CSR_REG_RX_DROP_MALFORMED, TG_CSR_REG_RX_REFUSED, TG_CSR_REG_RX_STRAY,
	TG_CSR_REG_REQ_ACCEPTED, TG_CSR_REG_REQ_REFUSED, TG_CSR_REG_ATOMICS,
	TG_CSR_REG_TX_FRAMES,
};

static const char *const reg_name[NK] = {
	"RX_FRAMES", "RX_DROP_FCS", "RX_DROP_TYPE", "RX_DROP_MALFORMED", "RX_REFUSED",
	"RX_STRAY", "REQ_ACCEPTED", "REQ_REFUSED", "ATOMICS", "TX_FRAMES",
};

struct fz {
	struct tg_sim *sim;
	struct tg_dev *peer, *drv;
	struct tg_queue *q;
	uint64_t rng;
	uint64_t mem_size;        /* MEM_SIZE of node 1 */
	uint64_t area, qbase;     /* paddrs */
	uint8_t *mem, *shadow;
	uint64_t msize;           /* bytes of the simulated memory */
	uint64_t base[NK];        /* counters at the start of the batch */
	uint64_t want[NK];        /* predicted increments */
	uint64_t req_any;         /* REQs to the queue in the batch */
	uint64_t deq_total;       /* entries taken from the queue */
	uint64_t by_cls[NCLS];
	uint64_t frames, skipped, mutated;
	/* the reason a refused write left for its (source row, context),
	 * which that context's next fence to node 1 returns */
	uint8_t wst[256][16];
	uint64_t health_held;    /* the peer's own writes held back by them */
};

static uint64_t rnd(struct fz *f)
{
	/* xorshift64*: the whole run follows from the seed */
	f->rng ^= f->rng >> 12;
	f->rng ^= f->rng << 25;
	f->rng ^= f->rng >> 27;
	return f->rng * 0x2545f4914f6cdd1dULL;
}

static unsigned below(struct fz *f, unsigned n)
{
	return (unsigned)(rnd(f) % n);
}

static uint64_t get_be(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

static void put_be(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = n; i-- > 0; v >>= 8)
		p[i] = (uint8_t)v;
}

static void set_fcs(uint8_t *b, unsigned n)
{
	uint32_t fcs;

	if (n < 4)
		return;
	fcs = ~tg_crc32_update(0xFFFFFFFFu, b, n - 4);
	for (int i = 0; i < 4; i++)
		b[n - 4 + i] = (uint8_t)(fcs >> (8 * i));
}

static int op_link(unsigned op)
{
	return op == TG_OP_ACK || op == TG_OP_NAK;
}

static int op_known(unsigned op)
{
	return op == TG_OP_WRITE || op == TG_OP_READ_REQ || op == TG_OP_READ_RESP ||
	       op == TG_OP_FAA || op == TG_OP_ATOMIC_RESP || op == TG_OP_REQ ||
	       op == TG_OP_REQ_RESP || op == TG_OP_SWAP || op == TG_OP_CAS;
}

/* Field of the header at offset off (as tg_eth_rx sees it: bytes past the
 * end of a short frame read as zero). */
static uint64_t hfield(const uint8_t *b, unsigned n, unsigned off, unsigned bytes)
{
	uint8_t tmp[8] = { 0 };

	for (unsigned i = 0; i < bytes; i++)
		if (TG_HDR_OFF + off + i < n)
			tmp[i] = b[TG_HDR_OFF + off + i];
	return get_be(tmp, bytes);
}

/* The fields of part of a byte, and the source node (its MAC's last two bytes). */
#define H_OP(b, n)   ((unsigned)hfield(b, n, TG_H_OP, 1) >> TG_H_OP_LSB & 15u)
#define H_CTX(b, n)  ((unsigned)hfield(b, n, TG_H_CTX, 1) >> TG_H_CTX_LSB & 15u)
#define H_SRC(b)     ((unsigned)get_be((b) + 10, 2))

/* The reference model: what node 1 does with frame b of n bytes.  *resp
 * is set when node 1 answers, *self when that answer comes back to it. */
static enum cls classify(const struct fz *f, const uint8_t *b, unsigned n, int *resp, int *self)
{
	uint8_t mac[6];
	unsigned op, len, want, words;
	uint64_t addr;
	int bad_range;

	*resp = 0;
	*self = 0;
	/* the MAC (the switch's port) marks a frame bad that has a wrong FCS
	 * or nothing before its FCS */
	if (n <= TG_FCS_BYTES || tg_crc32_update(0xFFFFFFFFu, b, n) != TG_FCS_RESIDUE)
		return C_DROP_FCS;
	if (n < TG_PAYLOAD_OFF + TG_FCS_BYTES || n > 128 + TG_FCS_BYTES)   /* 16 beats buffered */
		return C_DROP_MAL;
	tg_node_mac(mac, FUZZED);
	if (get_be(b + 12, 2) != TG_ETHERTYPE || hfield(b, n, TG_H_VER, 1) != TG_PROTO_VERSION ||
	    memcmp(b, mac, 6) != 0)
		return C_DROP_TYPE;
	op = H_OP(b, n);
	len = (unsigned)hfield(b, n, TG_H_LEN, 1);
	/* header and payload, zero-padded to the minimum frame */
	want = tg_frame_bytes((uint8_t)op, (uint8_t)len) + TG_FCS_BYTES;
	if (len % 8 || len > 64 || n != want || (!op_known(op) && !op_link(op)) ||
	    (op_link(op) && len) || hfield(b, n, TG_H_OFF, 1) + hfield(b, n, TG_H_CNT, 1) > 64)
		return C_DROP_MAL;
	if (op_link(op))   /* the link layer is off: taken and ignored */
		return C_LINK;

	addr = hfield(b, n, TG_H_ADDR, 4);
	words = len / 8;
	bad_range = addr + len > f->mem_size;
	*self = H_SRC(b) == FUZZED;
	switch (op) {
	case TG_OP_WRITE:
		*self = 0;
		if (addr % 8 || bad_range)
			return C_WRITE_REF;
		/* refused too while a refusal of its source and context waits
		 * for their fence */
		if (f->wst[H_SRC(b) & 0xFFu][H_CTX(b, n)])
			return C_WRITE_HELD;
		return C_WRITE;
	case TG_OP_READ_REQ:
		*resp = 1;
		if (addr % 8 || (bad_range && words))
			return C_READ_REF;
		return C_READ;
	case TG_OP_FAA:
	case TG_OP_SWAP:
	case TG_OP_CAS:
		*resp = 1;
		if (len != TG_ATOMIC_LEN || addr % 8 || addr + 8 > f->mem_size)
			return C_ATOM_REF;
		return C_ATOM;
	case TG_OP_REQ:
		*resp = 1;
		if (addr >= f->qbase && addr < f->qbase + (1u << Q_LOG2))
			return C_REQ_ANY;
		return C_REQ_REF;
	default:   /* READ_RESP, ATOMIC_RESP, REQ_RESP: node 1 asked nothing */
		*self = 0;
		return C_STRAY;
	}
}

/* Keep the refusal table: a refused write records its reason for its
 * source and context, a zero-length read from them takes it. */
static void wst_note(struct fz *f, const uint8_t *b, unsigned n, enum cls c)
{
	unsigned src = H_SRC(b) & 0xFFu;
	unsigned ctx = H_CTX(b, n);

	if (c == C_WRITE_REF)
		f->wst[src][ctx] = hfield(b, n, TG_H_ADDR, 4) % 8 ? TG_ST_MISALIGNED : TG_ST_RANGE;
	else if (c == C_READ && hfield(b, n, TG_H_LEN, 1) == 0)
		f->wst[src][ctx] = TG_ST_OK;
}

/* Apply what the model says frame b does to memory to the shadow copy.
 * Returns -1 (and changes nothing) if it would write outside the target
 * area: such a frame is not sent. */
static int shadow_apply(struct fz *f, const uint8_t *b, enum cls c)
{
	uint64_t addr = get_be(b + TG_HDR_OFF + TG_H_ADDR, 4);
	uint64_t mask = tg_frame_mask(b[TG_HDR_OFF + TG_H_OFF], b[TG_HDR_OFF + TG_H_CNT]);
	unsigned len = b[TG_HDR_OFF + TG_H_LEN];
	unsigned op = b[TG_HDR_OFF + TG_H_OP] >> TG_H_OP_LSB & 15u;
	const uint8_t *pl = b + TG_PAYLOAD_OFF;
	uint64_t old = 0, opnd = 0, cmp = 0, nv;

	if (c != C_WRITE && c != C_ATOM)
		return 0;
	if (c == C_ATOM)
		len = 8;
	if (len && (addr < f->area || addr + len > f->area + AREA_BYTES))
		return -1;
	if (c == C_WRITE) {
		for (unsigned i = 0; i < len; i++)
			if (mask >> i & 1u)
				f->shadow[addr + i] = pl[i];
		return 0;
	}
	for (int i = 7; i >= 0; i--) {
		old = old << 8 | f->shadow[addr + (unsigned)i];
		opnd = opnd << 8 | pl[i];
		cmp = cmp << 8 | pl[8 + i];
	}
	nv = op == TG_OP_FAA ? old + opnd : op == TG_OP_SWAP ? opnd : old == cmp ? opnd : old;
	for (unsigned i = 0; i < 8; i++)
		f->shadow[addr + i] = (uint8_t)(nv >> (8 * i));
	return 0;
}

/* An address for a frame: mostly in the target area, else at the edges. */
static uint64_t pick_addr(struct fz *f)
{
	unsigned span = AREA_BYTES - 64u;

	switch (below(f, 16)) {
	case 0:
		return f->mem_size - 8u * below(f, 9);               /* across the end */
	case 1:
		return f->mem_size + 8u * below(f, 1000);            /* beyond it */
	case 2:
		return (rnd(f) | 1ULL << 31) & 0xFFFFFFF8u;         /* far beyond it */
	case 3:
		return f->area + below(f, span);                     /* any alignment */
	case 4:
		return f->qbase;                                     /* the queue */
	default:
		return f->area + (below(f, span) & ~7u);
	}
}

/* A valid frame of a random opcode to node 1; returns its length. */
static unsigned valid_frame(struct fz *f, uint8_t *buf)
{
	static const uint8_t ops[] = {
		TG_OP_WRITE, TG_OP_READ_REQ, TG_OP_READ_RESP, TG_OP_FAA, TG_OP_ATOMIC_RESP,
		TG_OP_REQ, TG_OP_REQ_RESP, TG_OP_SWAP, TG_OP_CAS,
	};
	struct tg_frame_hdr h;
	uint8_t pl[64];
	unsigned r = below(f, 8);

	/* mostly from node 0; answers of frames from node 1 come back to it */
	memset(&h, 0, sizeof(h));
	h.ver = TG_PROTO_VERSION;
	h.op = ops[below(f, sizeof(ops))];
	h.src = r < 5 ? PEER : r < 7 ? FUZZED : (uint16_t)rnd(f);
	h.dst = FUZZED;
	h.ctx = (uint8_t)below(f, 16);
	h.tag = (uint16_t)rnd(f);
	if (below(f, 4)) {
		h.cnt = 64;
	} else {
		h.off = (uint8_t)below(f, 64);
		h.cnt = (uint8_t)below(f, 65u - h.off);
	}
	h.status = below(f, 4) ? 0 : (uint8_t)below(f, 10);
	switch (h.op) {
	case TG_OP_WRITE:
	case TG_OP_READ_RESP:
	case TG_OP_READ_REQ:
		h.len = (uint8_t)(8u * below(f, 9));
		break;
	case TG_OP_FAA:
	case TG_OP_SWAP:
	case TG_OP_CAS:
		h.len = below(f, 8) ? TG_ATOMIC_LEN : (uint8_t)(8u * below(f, 9));
		h.off = 0;
		h.cnt = 8;
		break;
	case TG_OP_REQ:
		h.len = below(f, 4) ? 8 : (uint8_t)(8u * below(f, 9));
		break;
	default:
		h.len = 8;
		break;
	}
	h.addr = (uint32_t)(h.op == TG_OP_REQ && below(f, 2) ? f->qbase : pick_addr(f));
	for (unsigned i = 0; i < sizeof(pl); i++)
		pl[i] = (uint8_t)rnd(f);
	if (h.op == TG_OP_CAS && below(f, 2)) {
		/* a compare value that matches, when the word is in the area */
		uint64_t a = h.addr;

		if (a >= f->area && a + 8 <= f->area + AREA_BYTES)
			memcpy(pl + 8, f->shadow + a, 8);
	}
	return (unsigned)tg_frame_encode(buf, &h, pl);
}

/* Mutate frame buf of *n bytes in one of the ways listed at the top. */
static void mutate(struct fz *f, uint8_t *buf, unsigned *n)
{
	unsigned k, m = below(f, 12);
	int fix = below(f, 10) < 7;   /* recompute the FCS afterwards */

	switch (m) {
	case 0:   /* bit flips */
		for (k = 1 + below(f, 3); k; k--) {
			unsigned bit = below(f, 8u * *n);

			buf[bit / 8] ^= (uint8_t)(1u << bit % 8);
		}
		break;
	case 1:   /* truncation */
		if (*n > 1)
			*n = 1 + below(f, *n - 1);
		break;
	case 2:   /* extension */
		for (k = 1 + below(f, below(f, 4) ? 16 : MAX_LEN - *n); k && *n < MAX_LEN; k--)
			buf[(*n)++] = (uint8_t)rnd(f);
		break;
	case 3:   /* EtherType */
		put_be(buf + 12, below(f, 2) ? rnd(f) : TG_ETHERTYPE ^ (1u << below(f, 16)), 2);
		break;
	case 4:   /* bad FCS */
		buf[*n - 1 - below(f, *n < 4 ? *n : 4)] ^= (uint8_t)(1u + below(f, 255));
		fix = 0;
		break;
	case 5:   /* length field */
		buf[TG_HDR_OFF + TG_H_LEN] = below(f, 2) ? (uint8_t)rnd(f) :
			(uint8_t)(buf[TG_HDR_OFF + TG_H_LEN] + 8u * (below(f, 2) ? 1 : 255));
		break;
	case 6:   /* opcode (the flags kept) */
		do
			buf[TG_HDR_OFF + TG_H_OP] = (uint8_t)((buf[TG_HDR_OFF + TG_H_OP] & ~(15u << TG_H_OP_LSB)) |
							      below(f, 16) << TG_H_OP_LSB);
		while (below(f, 4) && op_known(buf[TG_HDR_OFF + TG_H_OP] >> TG_H_OP_LSB & 15u));
		break;
	case 7:   /* random bytes */
		*n = 1 + below(f, below(f, 4) ? 200 : MAX_LEN);
		for (k = 0; k < *n; k++)
			buf[k] = (uint8_t)rnd(f);
		if (below(f, 2) && *n >= TG_PAYLOAD_OFF) {
			/* ... behind a header that passes the type checks */
			tg_node_mac(buf, FUZZED);
			put_be(buf + 12, TG_ETHERTYPE, 2);
			buf[TG_HDR_OFF + TG_H_VER] = TG_PROTO_VERSION;
		}
		break;
	case 8:   /* version (the old one too), destination MAC or source MAC */
		k = below(f, 3);
		if (k == 0)
			buf[TG_HDR_OFF + TG_H_VER] = (uint8_t)(below(f, 2) ? TG_PROTO_VERSION - 1 :
							       1u + below(f, 255) + TG_PROTO_VERSION);
		else if (k == 1)
			buf[below(f, 6)] ^= (uint8_t)(1u + below(f, 255));
		else
			buf[6 + below(f, 6)] ^= (uint8_t)(1u + below(f, 255));
		break;
	case 9:   /* address */
		put_be(buf + TG_HDR_OFF + TG_H_ADDR, below(f, 2) ? rnd(f) : pick_addr(f), 4);
		break;
	case 10:  /* flags, status, ctx, len, off, cnt, seq, ack, tag, key */
		buf[TG_HDR_OFF + TG_H_FLAGS + below(f, TG_HDR_BYTES - TG_H_FLAGS)] = (uint8_t)rnd(f);
		break;
	case 11:  /* a byte of the payload or the header */
		buf[below(f, *n)] = (uint8_t)rnd(f);
		break;
	default:
		break;
	}
	if (fix)
		set_fcs(buf, *n);
	f->mutated++;
}

static void read_counters(struct fz *f, uint64_t *v)
{
	for (unsigned k = 0; k < NK; k++)
		v[k] = t_csr(f->drv, regs[k]);
}

/* Step until node 1's port has delivered `delivered` frames (the ones
 * injected and node 1's answers to itself), then let the last one's
 * effects and answers settle. */
static void settle(struct fz *f, uint64_t delivered)
{
	struct tg_sim_stats st;

	for (unsigned i = 0; i < 100000; i++) {
		REQUIRE(tg_sim_get_stats(f->sim, FUZZED, &st) == 0, "stats");
		if (st.rx_frames >= delivered)
			break;
		tg_sim_step(f->sim, 64);
	}
	tg_sim_step(f->sim, SETTLE);
}

/* Take every entry from the queue. */
static uint64_t drain(struct fz *f)
{
	uint64_t e[8], n = 0;
	int rc;

	while ((rc = tg_deq(f->q, e, sizeof(e))) == 0)
		n++;
	CHECK(rc == -EAGAIN, "tg_deq: %s", tg_strerror(rc));
	f->deq_total += n;
	return n;
}

/* First byte where node 1's memory and the shadow differ, outside the
 * queue buffer; -1 if none. */
static int64_t mem_diff(const struct fz *f)
{
	uint64_t qend = f->qbase + (1u << Q_LOG2);

	if (memcmp(f->mem, f->shadow, f->qbase) == 0 &&
	    memcmp(f->mem + qend, f->shadow + qend, f->msize - qend) == 0)
		return -1;
	for (uint64_t i = 0; i < f->msize; i++)
		if ((i < f->qbase || i >= qend) && f->mem[i] != f->shadow[i])
			return (int64_t)i;
	return -1;
}

static void dump(const uint8_t *b, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		fprintf(stderr, "%02x%s", b[i], i % 32 == 31 ? "\n" : "");
	fputc('\n', stderr);
}

/* Inject one batch; compare counters and memory with the model. */
static void batch(struct fz *f, unsigned nframes, uint64_t seed)
{
	static uint8_t frames[64][MAX_LEN];
	static unsigned lens[64];
	static enum cls cl[64];
	struct tg_sim_stats st;
	uint64_t now[NK], acc, reqd, deq;
	int64_t d;
	int resp, self, bad = 0;
	unsigned nself = 0;

	memset(f->want, 0, sizeof(f->want));
	f->req_any = 0;
	read_counters(f, f->base);
	REQUIRE(tg_sim_get_stats(f->sim, FUZZED, &st) == 0, "stats");
	for (unsigned i = 0; i < nframes; i++) {
		uint8_t *b = frames[i];
		unsigned n;
		enum cls c;

		for (;;) {
			unsigned r = below(f, 8);

			/* a quarter left valid (fields may still be out of range) */
			n = valid_frame(f, b);
			for (unsigned m = r < 2 ? 0 : r < 7 ? 1 : 2 + below(f, 2); m; m--)
				mutate(f, b, &n);
			c = classify(f, b, n, &resp, &self);
			if (shadow_apply(f, b, c) == 0)
				break;
			f->skipped++;
		}
		lens[i] = n;
		cl[i] = c;
		f->by_cls[c]++;
		wst_note(f, b, n, c);
		switch (c) {
		case C_DROP_FCS:  f->want[K_FCS]++; break;
		case C_DROP_TYPE: f->want[K_TYPE]++; break;
		case C_DROP_MAL:  f->want[K_MAL]++; break;
		case C_WRITE_REF:
		case C_WRITE_HELD:
		case C_READ_REF:
		case C_ATOM_REF:  f->want[K_REF]++; break;
		case C_ATOM:      f->want[K_ATOM]++; break;
		case C_REQ_ANY:   f->req_any++; break;
		case C_REQ_REF:   f->want[K_REQR]++; break;
		case C_STRAY:     f->want[K_STRAY]++; break;
		default: break;
		}
		if (c >= C_WRITE)
			f->want[K_RX]++;
		f->want[K_TX] += (uint64_t)resp;
		if (self) {   /* the answer comes back: a stray response */
			f->want[K_RX]++;
			f->want[K_STRAY]++;
			nself++;
		}
		REQUIRE(tg_sim_inject(f->sim, FUZZED, b, n) == 0, "inject");
	}
	f->frames += nframes;
	/* the answers to node 1 queue behind the injected frames */
	settle(f, st.rx_frames + nframes + nself);
	read_counters(f, now);
	REQUIRE(tg_sim_get_stats(f->sim, FUZZED, &st) == 0, "stats");

	/* REQs to the queue land in REQ_ACCEPTED or REQ_REFUSED */
	acc = now[K_REQA] - f->base[K_REQA];
	reqd = now[K_REQR] - f->base[K_REQR];
	for (unsigned k = 0; k < NK; k++) {
		uint64_t got = now[k] - f->base[k], w = f->want[k];

		if (k == K_REQA || k == K_REQR)
			continue;
		if (got != w) {
			fprintf(stderr, "%s: %" PRIu64 ", model %" PRIu64 "\n", reg_name[k], got, w);
			bad = 1;
		}
	}
	if (acc + reqd != f->want[K_REQR] + f->req_any || reqd < f->want[K_REQR]) {
		fprintf(stderr, "REQ_ACCEPTED %" PRIu64 " + REQ_REFUSED %" PRIu64 ", model %" PRIu64
			" refused + %" PRIu64 " either\n", acc, reqd, f->want[K_REQR], f->req_any);
		bad = 1;
	}
	d = mem_diff(f);
	if (d >= 0) {
		fprintf(stderr, "memory of node 1 at 0x%" PRIx64 ": 0x%02x, model 0x%02x\n",
			(uint64_t)d, f->mem[d], f->shadow[d]);
		bad = 1;
	}
	deq = drain(f);
	if (deq != acc) {
		fprintf(stderr, "%" PRIu64 " entries in the queue, REQ_ACCEPTED says %" PRIu64 "\n",
			deq, acc);
		bad = 1;
	}
	if (bad) {
		fprintf(stderr, "batch of %u frames from frame %" PRIu64 " (seed %" PRIu64
			", TG_FUZZ_BATCH=1 checks each frame):\n", nframes, f->frames - nframes,
			seed);
		for (unsigned i = 0; i < nframes; i++) {
			fprintf(stderr, "frame %u, %u bytes, model: %s\n", i, lens[i], cls_name[cl[i]]);
			dump(frames[i], lens[i] < 160 ? lens[i] : 160);
		}
		t_failed++;
		/* the shadow follows the memory so the next batch starts clean */
		memcpy(f->shadow, f->mem, f->msize);
	}
}

/* Node 1 still serves: node 0 writes, reads, adds and enqueues; node 1
 * reads from node 0. */
static void health(struct fz *f, struct tg_dev *self1, uint64_t peer_paddr, const uint8_t *peer_mem)
{
	uint64_t off = (rnd(f) % (AREA_BYTES - 64)) & ~7ULL, a = f->area + off;
	uint8_t w[64], r[64];
	uint64_t v = rnd(f), old = 0, word, e[8];
	unsigned len = 8u * (1 + below(f, 8));
	int rc = -EAGAIN;

	for (unsigned i = 0; i < len; i++)
		w[i] = (uint8_t)rnd(f);
	CHECK_RC(tg_write(f->peer, FUZZED, a, w, len), 0);
	{
		/* a fuzzed write refused in the peer's name is reported to it,
		 * and until then the peer's own writes are refused too */
		uint8_t *st = &f->wst[PEER & 0xFFu][(unsigned)tg_context(f->peer) & 15u];
		int held = *st != TG_ST_OK;

		CHECK_RC(tg_fence(f->peer, FUZZED), tg_status_errno(*st));
		*st = TG_ST_OK;
		if (held) {
			f->health_held++;
			CHECK(memcmp(f->mem + a, f->shadow + a, len) == 0,
			      "a write held back by a refusal changed memory");
			CHECK_RC(tg_write(f->peer, FUZZED, a, w, len), 0);
			CHECK_RC(tg_fence(f->peer, FUZZED), 0);
		}
	}
	memcpy(f->shadow + a, w, len);
	CHECK_RC(tg_read(f->peer, FUZZED, a, r, len), 0);
	CHECK(memcmp(r, w, len) == 0, "read after the fuzz returned other bytes");
	memcpy(&word, f->shadow + a, 8);
	CHECK_RC(tg_faa(f->peer, FUZZED, a, v, &old), 0);
	CHECK(old == word, "fetch-and-add old 0x%" PRIx64 ", memory held 0x%" PRIx64, old, word);
	word += v;
	memcpy(f->shadow + a, &word, 8);
	CHECK(memcmp(f->mem + a, &word, 8) == 0, "fetch-and-add result");
	CHECK_RC(tg_enq(f->peer, FUZZED, f->qbase, v), 0);
	for (unsigned i = 0; i < 400 && rc == -EAGAIN; i++) {
		tg_sim_step(f->sim, 100);
		rc = tg_deq(f->q, e, sizeof(e));
	}
	CHECK_RC(rc, 0);
	CHECK(rc != 0 || e[0] == v, "enqueued 0x%" PRIx64 ", took 0x%" PRIx64, v, e[0]);
	f->deq_total += rc == 0;
	CHECK_RC(tg_read(self1, PEER, peer_paddr, r, 8), 0);
	CHECK(memcmp(r, peer_mem, 8) == 0, "node 1's read of node 0");
	CHECK(memcmp(f->mem, f->shadow, f->qbase) == 0, "memory after the checks");
}

static uint64_t env_u(const char *name, uint64_t def)
{
	const char *s = getenv(name);

	return s && *s ? strtoull(s, NULL, 0) : def;
}

int main(void)
{
	struct fz f;
	struct tg_dev *self1, *drv0;
	struct tg_mr *area, *pmr;
	uint64_t seed = t_seed(), total = env_u("TG_FUZZ_FRAMES", 3000);
	unsigned bsize = (unsigned)env_u("TG_FUZZ_BATCH", 48);
	uint64_t start_deq, c0[NK], c1[NK], delivered0, acc_total;
	struct tg_sim_stats st0, st1;
	time_t t0 = time(NULL);

	memset(&f, 0, sizeof(f));
	REQUIRE(bsize >= 1 && bsize <= 64, "TG_FUZZ_BATCH must be 1..64");
	f.rng = seed * 0x9e3779b97f4a7c15ULL + 0x1234567ULL;
	printf("test_fuzz_rx: seed %" PRIu64 " (TG_TEST_SEED), %" PRIu64
	       " frames (TG_FUZZ_FRAMES), batches of %u\n", seed, total, bsize);
	/* the raw port: with the link layer on, it would drop sequenced frames */
	f.sim = t_sim_raw(2);
	f.peer = t_open(f.sim, PEER, 0);
	f.drv = t_open(f.sim, FUZZED, TG_OPEN_DRIVER);
	self1 = t_open(f.sim, FUZZED, 0);
	drv0 = t_open(f.sim, PEER, TG_OPEN_DRIVER);
	area = tg_mr_alloc(f.drv, AREA_BYTES, 0);
	pmr = tg_mr_alloc(drv0, 4096, 0);
	f.q = tg_queue_open(self1, Q_LOG2, 8);
	REQUIRE(area && pmr && f.q, "allocations");
	f.area = tg_mr_paddr(area);
	f.qbase = tg_queue_paddr(f.q);
	f.mem_size = t_csr(f.drv, TG_CSR_REG_MEM_SIZE);
	f.mem = tg_sim_mem(f.sim, FUZZED);
	f.msize = tg_sim_mem_size(f.sim);
	REQUIRE(f.mem_size == f.msize && f.area + AREA_BYTES <= f.msize, "memory layout");
	for (unsigned i = 0; i < 4096; i++)
		((uint8_t *)tg_mr_ptr(pmr))[i] = t_pat(seed, i);
	for (unsigned i = 0; i < AREA_BYTES; i++)
		((uint8_t *)tg_mr_ptr(area))[i] = t_pat(seed + 1, i);
	f.shadow = malloc(f.msize);
	REQUIRE(f.shadow, "shadow");
	tg_sim_step(f.sim, 1000);
	memcpy(f.shadow, f.mem, f.msize);
	health(&f, self1, tg_mr_paddr(pmr), tg_mr_ptr(pmr));
	start_deq = f.deq_total;

	read_counters(&f, c0);
	REQUIRE(tg_sim_get_stats(f.sim, FUZZED, &st0) == 0, "stats");
	delivered0 = st0.rx_frames;
	for (uint64_t done = 0; done < total && !t_failed;) {
		unsigned n = total - done < bsize ? (unsigned)(total - done) : bsize;

		batch(&f, n, seed);
		done += n;
		if (done % 480 < n || done == total)
			health(&f, self1, tg_mr_paddr(pmr), tg_mr_ptr(pmr));
	}
	read_counters(&f, c1);
	REQUIRE(tg_sim_get_stats(f.sim, FUZZED, &st1) == 0, "stats");

	/* the whole run, without the model: every frame delivered to node 1
	 * is in exactly one of RX_FRAMES and the three drop counters */
	{
		uint64_t counted = (c1[K_RX] - c0[K_RX]) + (c1[K_FCS] - c0[K_FCS]) +
				   (c1[K_TYPE] - c0[K_TYPE]) + (c1[K_MAL] - c0[K_MAL]);

		acc_total = c1[K_REQA] - c0[K_REQA];
		CHECK(st1.rx_injected - st0.rx_injected == f.frames, "injected %" PRIu64,
		      st1.rx_injected - st0.rx_injected);
		CHECK(counted == st1.rx_frames - delivered0,
		      "%" PRIu64 " frames delivered, %" PRIu64 " counted", st1.rx_frames - delivered0,
		      counted);
		printf("  %" PRIu64 " frames injected (%" PRIu64 " mutated, %" PRIu64
		       " candidates not sent: they would write outside the area), %" PRIu64
		       " delivered in all with node 1's own answers and the checks\n",
		       f.frames, f.mutated, f.skipped, st1.rx_frames - delivered0);
		printf("  counters: RX_FRAMES %" PRIu64 ", RX_DROP_FCS %" PRIu64 ", RX_DROP_TYPE %" PRIu64
		       ", RX_DROP_MALFORMED %" PRIu64 ", RX_REFUSED %" PRIu64 ", RX_STRAY %" PRIu64
		       ", REQ_ACCEPTED %" PRIu64 ", REQ_REFUSED %" PRIu64 ", ATOMICS %" PRIu64 "\n",
		       c1[K_RX] - c0[K_RX], c1[K_FCS] - c0[K_FCS], c1[K_TYPE] - c0[K_TYPE],
		       c1[K_MAL] - c0[K_MAL], c1[K_REF] - c0[K_REF], c1[K_STRAY] - c0[K_STRAY],
		       acc_total, c1[K_REQR] - c0[K_REQR], c1[K_ATOM] - c0[K_ATOM]);
		CHECK(f.deq_total - start_deq == acc_total, "%" PRIu64 " entries taken, %" PRIu64
		      " accepted", f.deq_total - start_deq, acc_total);
	}
	printf("  model:");
	for (unsigned c = 0; c < NCLS; c++)
		printf("%s %s %" PRIu64, c ? "," : "", cls_name[c], f.by_cls[c]);
	printf("\n  the peer's own writes held back by a refusal in its name: %" PRIu64 "\n",
	       f.health_held);
	printf("  %ld s\n", (long)(time(NULL) - t0));
	t_check_sim(f.sim);
	tg_queue_close(f.q);
	tg_close(drv0);
	tg_close(self1);
	tg_close(f.drv);
	tg_close(f.peer);
	tg_sim_destroy(f.sim);
	free(f.shadow);
	return t_done("test_fuzz_rx");
}
