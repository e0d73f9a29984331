/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* Bridge to a Linux interface: an AF_PACKET socket bound to the interface and the Telegraphos EtherType. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tg/tg_hw.h"
#include "tg_bridge.h"

struct tg_bridge {
	int fd;
	int ifindex;
	uint64_t sent, received, lost;
};

struct tg_bridge *tg_bridge_open(const char *ifname)
{
	struct sockaddr_ll sll;
	struct tg_bridge *b;
	int err;

	if (!ifname || !*ifname || strlen(ifname) >= IF_NAMESIZE) {
		errno = EINVAL;
		return NULL;
	}
	b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->ifindex = (int)if_nametoindex(ifname);
	if (!b->ifindex) {
		err = errno;
		goto fail;
	}
	/* only Telegraphos frames come in; our own sends are not looped back
	 * to a socket bound to one protocol */
	b->fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, htons(TG_ETHERTYPE));
	if (b->fd < 0) {
		err = errno;
		goto fail;
	}
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(TG_ETHERTYPE);
	sll.sll_ifindex = b->ifindex;
	if (bind(b->fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
		err = errno;
		close(b->fd);
		goto fail;
	}
	return b;

fail:
	free(b);
	errno = err;
	return NULL;
}

void tg_bridge_close(struct tg_bridge *b)
{
	if (!b)
		return;
	close(b->fd);
	free(b);
}

void tg_bridge_send(struct tg_bridge *b, const uint8_t *data, unsigned len)
{
	struct sockaddr_ll sll;

	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_ifindex = b->ifindex;
	sll.sll_halen = 6;
	memcpy(sll.sll_addr, data, 6);
	if (sendto(b->fd, data, len, 0, (struct sockaddr *)&sll, sizeof(sll)) == (ssize_t)len)
		b->sent++;
	else
		b->lost++;
}

int tg_bridge_recv(struct tg_bridge *b, uint8_t *buf, unsigned n)
{
	for (;;) {
		struct sockaddr_ll from;
		socklen_t fl = sizeof(from);
		ssize_t k = recvfrom(b->fd, buf, n, MSG_TRUNC, (struct sockaddr *)&from, &fl);

		if (k < 0) {
			if (errno == EINTR)
				continue;
			return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -errno;
		}
		if (from.sll_pkttype == PACKET_OUTGOING || (size_t)k > n)
			continue;   /* sent from this host, or too long for the switch */
		b->received++;
		return (int)k;
	}
}

void tg_bridge_counts(const struct tg_bridge *b, uint64_t *sent, uint64_t *received,
		      uint64_t *lost)
{
	*sent = b ? b->sent : 0;
	*received = b ? b->received : 0;
	*lost = b ? b->lost : 0;
}
