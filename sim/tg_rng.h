/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Small seeded pseudo-random generator (splitmix64) for the simulator's models. */
#ifndef TG_RNG_H
#define TG_RNG_H

#include <stdint.h>

/* Next value of the sequence; *state advances. */
static inline uint64_t tg_rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The state after n more values (as n calls of tg_rng_next). */
static inline void tg_rng_skip(uint64_t *state, uint64_t n)
{
	*state += n * 0x9e3779b97f4a7c15ULL;
}

/* Uniform value in [lo, hi] (hi >= lo). */
static inline uint64_t tg_rng_range(uint64_t *state, uint64_t lo, uint64_t hi)
{
	return lo + tg_rng_next(state) % (hi - lo + 1);
}

/* True with probability pct percent. */
static inline int tg_rng_pct(uint64_t *state, unsigned pct)
{
	return pct && tg_rng_next(state) % 100u < pct;
}

/* Independent stream for model `which` of node `node` from one seed. */
static inline uint64_t tg_rng_seed(uint64_t seed, unsigned node, unsigned which)
{
	uint64_t s = seed ^ ((uint64_t)node << 20) ^ ((uint64_t)which << 52);

	return tg_rng_next(&s);
}

#endif /* TG_RNG_H */
