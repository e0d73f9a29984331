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
/* ... or a job (mpirun) leading a process group of its own: the group is
 * killed with the test, mpirun and its ranks */
static pid_t t_child_pgid;

static inline void t_on_alarm_child(int sig)
{
	static const char msg[] = "test timed out: its simulator is killed\n";

	(void)sig;
	if (t_child_pid > 0)
		kill(t_child_pid, SIGKILL);
	if (t_child_pgid > 0)
		kill(-t_child_pgid, SIGKILL);
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(T_FAIL);
	_exit(T_FAIL);
}

/* Start the simulator argv[0] with argv in a child process (t_child_pid),
 * its output on a pipe, and wait for its ready line: stops the test if it
 * does not come. */
static inline void t_start_sim(char *const argv[])
{
	int fds[2];

	REQUIRE(pipe(fds) == 0, "pipe");
	t_child_pid = fork();
	REQUIRE(t_child_pid >= 0, "fork");
	if (t_child_pid == 0) {
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	REQUIRE(t_wait_ready(fds[0]) == 0, "tg-sim start");
}

#endif /* TG_TEST_CHILD_H */
