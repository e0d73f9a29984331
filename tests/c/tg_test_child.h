/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* For tests that start a simulator in a child process (they define _GNU_SOURCE): its pid and a timeout handler that kills it. */
#ifndef TG_TEST_CHILD_H
#define TG_TEST_CHILD_H

#include <signal.h>
#include <sys/types.h>
#include <unistd.h>

#include "tg_test.h"

/* A simulator the test started in a child process: killed with the test
 * when it times out (SIGALRM handler t_on_alarm_child). */
static pid_t t_child_pid;

static inline void t_on_alarm_child(int sig)
{
	static const char msg[] = "test timed out: its simulator is killed\n";

	(void)sig;
	if (t_child_pid > 0)
		kill(t_child_pid, SIGKILL);
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(T_FAIL);
	_exit(T_FAIL);
}

#endif /* TG_TEST_CHILD_H */
