// SPDX-License-Identifier: GPL-2.0
/*
 * smc_nl_test - send one raw generic netlink request, print the answer
 *
 * Usage: smc_nl_test [-d] [-u] FAMILY CMD [ATTR...]
 *        smc_nl_test -b NETNS_FILE <REQUESTS
 *
 *   -d   send a dump request (NLM_F_DUMP)
 *   -u   drop root (setuid 65534) first, to test permission checks
 *   -b   batch: each line of stdin is "init|ns [-d] [-u] FAMILY CMD
 *        [ATTR...]", sent from a child process in the initial network
 *        namespace or in NETNS_FILE's (/run/netns/NAME); each answer
 *        follows a line "@@ " and the request line.  One process for a
 *        hundred requests instead of a hundred, each behind ip-netns.
 *
 * ATTR is one of (T is the attribute type, a number):
 *   s:T:TEXT        NUL-terminated string
 *   r:T:TEXT        string without NUL
 *   p:T:TEXT:LEN    TEXT blank padded to LEN characters, plus NUL
 *   u8:T:N  u16:T:N  u32:T:N
 *   x:T:HEX         raw bytes
 *   n:T             empty attribute
 *
 * Output, deliberately free of anything varying (sequence numbers, port
 * ids): one line per answer message, "msg CMD A1 A2 ...", every top-level
 * attribute as T="text" when it is a printable NUL-terminated string and
 * as T=hex otherwise; then "rc=0" or "rc=-ENAME".  The extack message, if
 * any, goes to stderr.  Exit status 0 unless the request could not be
 * made, so scripts compare the output of two kernels line by line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif

static char req[8192];
static char rbuf[65536];

static const struct {
	int num;
	const char *name;
} errnames[] = {
	{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { EINVAL, "EINVAL" },
	{ EEXIST, "EEXIST" }, { ERANGE, "ERANGE" }, { EOPNOTSUPP, "EOPNOTSUPP" },
	{ EAGAIN, "EAGAIN" }, { ENOMEM, "ENOMEM" }, { EMSGSIZE, "EMSGSIZE" },
	{ ENODEV, "ENODEV" }, { EACCES, "EACCES" }, { EBUSY, "EBUSY" },
	{ E2BIG, "E2BIG" }, { ENODATA, "ENODATA" },
};

static void print_rc(int rc)
{
	unsigned int i;

	if (!rc) {
		printf("rc=0\n");
		return;
	}
	for (i = 0; i < ARRAY_SIZE(errnames); i++)
		if (errnames[i].num == -rc) {
			printf("rc=-%s\n", errnames[i].name);
			return;
		}
	printf("rc=%d\n", rc);
}

static int put_attr(struct nlmsghdr *nlh, int type, const void *data,
		    size_t len)
{
	size_t off = NLMSG_ALIGN(nlh->nlmsg_len);
	struct nlattr *na = (struct nlattr *)((char *)nlh + off);

	if (off + NLA_HDRLEN + NLA_ALIGN(len) > sizeof(req))
		return -1;
	na->nla_type = type;
	na->nla_len = NLA_HDRLEN + len;
	memcpy((char *)na + NLA_HDRLEN, data, len);
	nlh->nlmsg_len = off + NLA_ALIGN(na->nla_len);
	return 0;
}

static int parse_attr(struct nlmsghdr *nlh, char *spec)
{
	char *kind = strtok(spec, ":"), *t = strtok(NULL, ":");
	char *val = strtok(NULL, ""), buf[4096];
	unsigned long v;
	size_t len, i;
	uint16_t v16;
	uint32_t v32;
	uint8_t v8;
	int type;

	if (!kind || !t)
		return -1;
	type = atoi(t);
	if (!strcmp(kind, "n"))
		return put_attr(nlh, type, "", 0);
	if (!val)
		val = "";
	if (!strcmp(kind, "s"))
		return put_attr(nlh, type, val, strlen(val) + 1);
	if (!strcmp(kind, "r"))
		return put_attr(nlh, type, val, strlen(val));
	if (!strcmp(kind, "p")) {
		char *colon = strrchr(val, ':');

		if (!colon)
			return -1;
		*colon = '\0';
		len = strtoul(colon + 1, NULL, 0);
		if (len >= sizeof(buf) || strlen(val) > len)
			return -1;
		memset(buf, ' ', len);
		memcpy(buf, val, strlen(val));
		buf[len] = '\0';
		return put_attr(nlh, type, buf, len + 1);
	}
	if (!strcmp(kind, "x")) {
		len = strlen(val) / 2;
		if (len > sizeof(buf))
			return -1;
		for (i = 0; i < len; i++) {
			unsigned int b;

			if (sscanf(val + 2 * i, "%2x", &b) != 1)
				return -1;
			buf[i] = b;
		}
		return put_attr(nlh, type, buf, len);
	}
	v = strtoul(val, NULL, 0);
	if (!strcmp(kind, "u8")) {
		v8 = v;
		return put_attr(nlh, type, &v8, 1);
	}
	if (!strcmp(kind, "u16")) {
		v16 = v;
		return put_attr(nlh, type, &v16, 2);
	}
	if (!strcmp(kind, "u32")) {
		v32 = v;
		return put_attr(nlh, type, &v32, 4);
	}
	return -1;
}

static void print_attrs(const struct nlattr *na, int len)
{
	while (len >= NLA_HDRLEN && na->nla_len >= NLA_HDRLEN &&
	       na->nla_len <= len) {
		const unsigned char *d = (const unsigned char *)na + NLA_HDRLEN;
		int n = na->nla_len - NLA_HDRLEN, i;
		bool str = n > 0 && !d[n - 1];

		for (i = 0; str && i < n - 1; i++)
			if (d[i] < 0x20 || d[i] > 0x7e || d[i] == '"')
				str = false;
		printf(" %u=", na->nla_type);
		if (str)
			printf("\"%s\"", d);
		else
			for (i = 0; i < n; i++)
				printf("%02x", d[i]);
		len -= NLA_ALIGN(na->nla_len);
		na = (const struct nlattr *)((const char *)na +
					     NLA_ALIGN(na->nla_len));
	}
}

/* the extack message of an error or DONE message, if any */
static void print_extack(const struct nlmsghdr *nh, size_t off)
{
	const struct nlattr *na;
	int len;

	if (!(nh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	na = (const struct nlattr *)((const char *)nh + off);
	len = (int)nh->nlmsg_len - (int)off;
	while (len >= NLA_HDRLEN && na->nla_len >= NLA_HDRLEN &&
	       na->nla_len <= len) {
		if (na->nla_type == NLMSGERR_ATTR_MSG)
			fprintf(stderr, "extack: %s\n",
				(const char *)na + NLA_HDRLEN);
		len -= NLA_ALIGN(na->nla_len);
		na = (const struct nlattr *)((const char *)na +
					     NLA_ALIGN(na->nla_len));
	}
}

/* send @nlh, print the answers; return the kernel's result */
static int talk(int fd, struct nlmsghdr *nlh, bool print, uint16_t *family)
{
	bool dump = nlh->nlmsg_flags & NLM_F_DUMP;
	int done_seen = 0;

	if (send(fd, nlh, nlh->nlmsg_len, 0) < 0)
		return -errno;
	for (;;) {
		ssize_t n = recv(fd, rbuf, sizeof(rbuf), 0);
		struct nlmsghdr *nh;

		if (n < 0)
			return -errno;
		for (nh = (struct nlmsghdr *)rbuf; NLMSG_OK(nh, n);
		     nh = NLMSG_NEXT(nh, n)) {
			const struct genlmsghdr *gh = NLMSG_DATA(nh);
			const struct nlattr *na;

			if (nh->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(nh);
				size_t off = NLMSG_HDRLEN + sizeof(*e);

				if (!(nh->nlmsg_flags & NLM_F_CAPPED))
					off += e->msg.nlmsg_len -
					       NLMSG_HDRLEN;
				print_extack(nh, NLMSG_ALIGN(off));
				return e->error;
			}
			if (nh->nlmsg_type == NLMSG_DONE) {
				const int *err = NLMSG_DATA(nh);

				print_extack(nh, NLMSG_HDRLEN + sizeof(int));
				if (dump)
					return *err;
				/* a doit may send its own DONE */
				if (print)
					printf("done\n");
				done_seen++;
				continue;
			}
			if (family) {
				int len = nh->nlmsg_len -
					  NLMSG_LENGTH(GENL_HDRLEN);

				na = (const struct nlattr *)((const char *)gh +
							     GENL_HDRLEN);
				while (len >= NLA_HDRLEN &&
				       na->nla_len >= NLA_HDRLEN) {
					if (na->nla_type == CTRL_ATTR_FAMILY_ID)
						memcpy(family,
						       (const char *)na +
						       NLA_HDRLEN, 2);
					len -= NLA_ALIGN(na->nla_len);
					na = (const struct nlattr *)
						((const char *)na +
						 NLA_ALIGN(na->nla_len));
				}
			}
			if (!print)
				continue;
			printf("msg %u", gh->cmd);
			print_attrs((const struct nlattr *)((const char *)gh +
							    GENL_HDRLEN),
				    nh->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN));
			printf("\n");
		}
	}
}

static void init_req(struct nlmsghdr *nlh, uint16_t type, uint8_t cmd,
		     uint16_t flags, uint32_t seq)
{
	struct genlmsghdr *gh = NLMSG_DATA(nlh);

	memset(req, 0, sizeof(req));
	nlh->nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	nlh->nlmsg_seq = seq;
	gh->cmd = cmd;
	gh->version = 1;
}

static int request(int argc, char **argv)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)req;
	bool dump = false, drop = false;
	uint16_t family = 0;
	int fd, one = 1, rc, i = 1;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-d"))
			dump = true;
		else if (!strcmp(argv[i], "-u"))
			drop = true;
		else
			break;
	}
	if (argc - i < 2) {
		fprintf(stderr, "usage: %s [-d] [-u] FAMILY CMD [ATTR...]\n",
			argv[0]);
		return 2;
	}
	if (drop && (setgroups(0, NULL) || setgid(65534) || setuid(65534))) {
		perror("setuid");
		return 2;
	}
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0) {
		perror("socket");
		return 2;
	}
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));

	init_req(nlh, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0, 1);
	put_attr(nlh, CTRL_ATTR_FAMILY_NAME, argv[i], strlen(argv[i]) + 1);
	rc = talk(fd, nlh, false, &family);
	if (rc || !family) {
		printf("family %s: not registered\n", argv[i]);
		print_rc(rc ? rc : -ENOENT);
		return 0;
	}

	init_req(nlh, family, strtoul(argv[i + 1], NULL, 0),
		 dump ? NLM_F_DUMP : 0, 2);
	for (i += 2; i < argc; i++) {
		if (parse_attr(nlh, argv[i])) {
			fprintf(stderr, "bad attribute: %s\n", argv[i]);
			return 2;
		}
	}
	print_rc(talk(fd, nlh, true, NULL));
	close(fd);
	return 0;
}

/* -b: requests from stdin, each in a child that may enter the netns */
static int batch(const char *nsfile)
{
	char line[4096], *args[64];
	int nsfd, status, argc;
	pid_t pid;

	nsfd = open(nsfile, O_RDONLY | O_CLOEXEC);
	if (nsfd < 0) {
		perror(nsfile);
		return 2;
	}
	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = '\0';
		printf("@@ %s\n", line);
		fflush(stdout);
		args[0] = "smc_nl_test";
		argc = 1;
		for (char *t = strtok(line, " \t"); t && argc < 63;
		     t = strtok(NULL, " \t"))
			args[argc++] = t;
		args[argc] = NULL;
		if (argc < 2)
			continue;
		pid = fork();
		if (pid < 0) {
			perror("fork");
			return 2;
		}
		if (!pid) {
			if (!strcmp(args[1], "ns") && setns(nsfd, CLONE_NEWNET)) {
				perror("setns");
				exit(2);
			}
			/* args[1], the namespace, stands in for the name */
			exit(request(argc - 1, args + 1));
		}
		/* a request that could not be made shows as no rc= line */
		if (waitpid(pid, &status, 0) < 0) {
			perror("waitpid");
			return 2;
		}
	}
	close(nsfd);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "-b"))
		return batch(argv[2]);
	return request(argc, argv);
}
