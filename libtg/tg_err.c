/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* NIC status codes as errno values, and readable reasons. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tg_internal.h"

void tg__say(char *msg, size_t msg_sz, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, msg_sz, fmt, ap);
	va_end(ap);
}

int tg__cfg_apply(struct tg_dev *dev, uint64_t cfg)
{
	unsigned b = (unsigned)(cfg >> 24) & 0xffu;

	/* a CONFIG without the block field predates NICs built without fetches */
	dev->no_fetch = b && !((cfg >> 8) & 0xffu);
	if (!b)
		b = TG_MAX_BURST_BYTES;
	if (b != 16u && b != 32u && b != 64u)
		return -EPROTO;
	dev->block = b;
	return 0;
}

int tg__env_is_1(const char *name)
{
	const char *v = getenv(name);

	return v && v[0] == '1' && !v[1];
}

int tg_status_errno(unsigned status)
{
	switch (status) {
	case TG_ST_OK:         return 0;
	case TG_ST_BAD_KEY:    return -EACCES;
	case TG_ST_RANGE:      return -EFAULT;
	case TG_ST_NOT_READY:  return -EAGAIN;
	case TG_ST_MALFORMED:  return -EINVAL;
	case TG_ST_BAD_OP:     return -EOPNOTSUPP;
	case TG_ST_NO_QUEUE:   return -ENOENT;
	case TG_ST_MISALIGNED: return -EINVAL;
	case TG_ST_PEER_GONE:  return -EHOSTUNREACH;
	case TG_ST_NO_RIGHT:   return -EPERM;
	default:               return -EIO;
	}
}

const char *tg_strerror(int err)
{
	switch (-err) {
	case 0:            return "success";
	case EINVAL:       return "invalid argument, or a request the NIC found malformed or misaligned";
	case ERANGE:       return "remote address range beyond the 32-bit physical address space";
	case EFAULT:       return "address outside the target node's exported memory, or outside the region the key names";
	case EACCES:       return "protection key mismatch: the target exports no region with this key (wrong, or revoked)";
	case EAGAIN:       return "receiver not ready, or not done yet";
	case EOPNOTSUPP:   return "operation or window not served by the NIC";
	case ENOENT:       return "no such queue, or no such exported region";
	case EHOSTUNREACH: return "peer node unreachable";
	case EIO:          return "unexpected status from the NIC";
	case EPROTO:       return "NIC identity or major version not the one this library speaks";
	case EPERM:        return "not permitted: the region does not grant this access, CSR access needs TG_OPEN_DRIVER, or a context reaches only its own page";
	case ENXIO:        return "no simulator running under that name";
	case ENODEV:       return "no such node";
	case EBUSY:        return "every context of the node is taken";
	case ENOTCONN:     return "the simulator stopped";
	case ETIMEDOUT:    return "no answer in time (the simulator, or the board's bridge)";
	case ENOMEM:       return "out of memory (host, or the node's exported memory)";
	default:           return "unknown error";
	}
}
