/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* NIC status codes as errno values, and readable reasons. */
#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
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

static _Thread_local unsigned err_depth;   /* public calls of this thread in progress */
static _Thread_local const struct tg_dev *err_cur;  /* ... the innermost one's device */
static _Thread_local int why_set;
static _Thread_local char why_msg[256];

const struct tg_dev *tg__enter(const struct tg_dev *dev)
{
	const struct tg_dev *parent = err_cur;

	if (err_depth++ == 0)
		why_set = 0;
	err_cur = dev;
	return parent;
}

void tg__why(const char *fmt, ...)
{
	va_list ap;

	if (why_set)
		return;          /* the innermost reason is the one to keep */
	va_start(ap, fmt);
	vsnprintf(why_msg, sizeof(why_msg), fmt, ap);
	va_end(ap);
	why_set = 1;
}

static const char *errno_name(int err)
{
	static const struct {
		int e;
		const char *n;
	} names[] = {
		{ EINVAL, "EINVAL" }, { ERANGE, "ERANGE" }, { EFAULT, "EFAULT" },
		{ EACCES, "EACCES" }, { EAGAIN, "EAGAIN" }, { EOPNOTSUPP, "EOPNOTSUPP" },
		{ ENOENT, "ENOENT" }, { EHOSTUNREACH, "EHOSTUNREACH" }, { EIO, "EIO" },
		{ EPROTO, "EPROTO" }, { EPERM, "EPERM" }, { ENXIO, "ENXIO" },
		{ ENODEV, "ENODEV" }, { EBUSY, "EBUSY" }, { ENOTCONN, "ENOTCONN" },
		{ ETIMEDOUT, "ETIMEDOUT" }, { ENOMEM, "ENOMEM" }, { ENOSPC, "ENOSPC" },
		{ EDEADLK, "EDEADLK" }, { EINTR, "EINTR" }, { EXDEV, "EXDEV" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].e == -err)
			return names[i].n;
	return NULL;
}

/* The device's message is guarded by a spin lock of its own: only failing
 * calls and tg_dev_error take it. */
static void msg_lock(struct tg_dev *dev)
{
	int expect = 0;

	while (!atomic_compare_exchange_weak_explicit(&dev->err_lock, &expect, 1,
						      memory_order_acquire, memory_order_relaxed))
		expect = 0;
}

static void msg_unlock(struct tg_dev *dev)
{
	atomic_store_explicit(&dev->err_lock, 0, memory_order_release);
}

int tg__leave(const struct tg_dev *parent, const struct tg_dev *cdev, const char *call, int rc,
	      int again)
{
	/* the device's message is state of its own, not of the device the
	 * caller may hold const */
	struct tg_dev *dev = (struct tg_dev *)cdev;
	const char *n;
	char num[24];
	int saved = errno;

	err_cur = parent;
	/* a call inside another on the same device leaves the text, and a
	 * failure's reason, to the outer one (a call from a dequeue hook on
	 * another device keeps its own); one that succeeds leaves no reason */
	if (--err_depth && cdev == parent) {
		if (rc >= 0 || (rc == -EAGAIN && !again))
			why_set = 0;
		return rc;
	}
	if (rc >= 0 || !dev || (rc == -EAGAIN && !again))
		return rc;
	n = errno_name(rc);
	if (!n) {
		snprintf(num, sizeof(num), "errno %d", -rc);
		n = num;
	}
	msg_lock(dev);
	snprintf(dev->err_msg, sizeof(dev->err_msg), "%s: %s (%s)", call,
		 why_set ? why_msg : tg_strerror(rc), n);
	msg_unlock(dev);
	if (err_depth)
		why_set = 0;     /* an inner call's reason is not the outer call's */
	errno = saved;
	return rc;
}

void *tg__leave_ptr(const struct tg_dev *parent, const struct tg_dev *dev, const char *call,
		    void *r)
{
	(void)tg__leave(parent, dev, call, r ? 0 : -errno, 1);
	return r;
}

const char *tg_dev_error(const struct tg_dev *cdev)
{
	static _Thread_local char copy[sizeof(((struct tg_dev *)0)->err_msg)];
	struct tg_dev *dev = (struct tg_dev *)cdev;

	if (!dev)
		return "no device (NULL)";
	msg_lock(dev);
	memcpy(copy, dev->err_msg, sizeof(copy));
	msg_unlock(dev);
	return copy;
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
	case EAGAIN:       return "not now: nothing there yet, or the receiver not ready";
	case EOPNOTSUPP:   return "operation or window not served by the NIC";
	case ENOENT:       return "no such queue, or no such exported region";
	case EHOSTUNREACH: return "peer node unreachable";
	case EIO:          return "unexpected status from the NIC";
	case EPROTO:       return "NIC identity or major version not the one this library speaks";
	case EPERM:        return "not permitted: the target's region does not grant this access, or the device was not opened with the rights the call needs";
	case ENXIO:        return "no simulator running under that name";
	case ENODEV:       return "no such node";
	case EBUSY:        return "every context of the node is taken, or busy with its former owner's REQs";
	case ENOTCONN:     return "the simulator stopped";
	case ETIMEDOUT:    return "no answer in time (the simulator, or the board's bridge)";
	case ENOMEM:       return "out of memory (host, or the node's exported memory)";
	case ENOSPC:       return "no free entry: the NIC's queues, regions or contexts are all taken";
	case EDEADLK:      return "another handle of the queue is inside its dequeue (in-process: it cannot finish while this call waits)";
	case EINTR:        return "interrupted";
	case EXDEV:        return "the DMA memory is not physically contiguous";
	default:           return "unknown error";
	}
}
