/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Reading a fuzzer's input as a stream of small numbers; past its end every read gives 0. */
#ifndef FUZZ_INPUT_H
#define FUZZ_INPUT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct fz_in {
	const uint8_t *p;
	size_t n;
};

static inline uint8_t fz_u8(struct fz_in *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

/* `bytes` bytes, least significant first. */
static inline uint64_t fz_le(struct fz_in *in, unsigned bytes)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < bytes; i++)
		v |= (uint64_t)fz_u8(in) << (8 * i);
	return v;
}

/* A broken property: report it and stop, so the fuzzer keeps the input. */
__attribute__((noreturn, format(printf, 4, 5)))
static inline void fz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%d: property broken: %s: ", file, line, cond);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

#define FZ_ASSERT(cond, ...) \
	do { if (!(cond)) fz_fail(__FILE__, __LINE__, #cond, __VA_ARGS__); } while (0)

#endif /* FUZZ_INPUT_H */
