/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smc_genl.h - a minimal generic netlink client for the SMC tools
 *
 * Raw AF_NETLINK sockets, no libnl: resolve a family by name, build one
 * request with a few attributes, and walk the answers (a single reply,
 * or a dump) calling back for every message.  Header-only so that every
 * tool stays one .c file.
 */
#ifndef SMC_GENL_H
#define SMC_GENL_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#define SMC_GENL_BUFSZ	32768

struct smc_genl {
	int fd;
	uint16_t family;
	uint32_t seq;
};

struct smc_genl_msg {
	union {
		struct nlmsghdr nlh;
		char buf[1024];
	};
};

/* callback for every answer: its attributes and the genl command */
typedef int (*smc_genl_cb)(const struct nlattr *attrs, int len,
			   uint8_t cmd, void *arg);

static inline void smc_genl_msg_init(struct smc_genl_msg *m,
				     const struct smc_genl *g, uint8_t cmd,
				     uint16_t flags)
{
	struct genlmsghdr *gh;

	memset(m, 0, sizeof(*m));
	m->nlh.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	m->nlh.nlmsg_type = g->family;
	m->nlh.nlmsg_flags = NLM_F_REQUEST | flags;
	gh = NLMSG_DATA(&m->nlh);
	gh->cmd = cmd;
	gh->version = 1;
}

static inline int smc_genl_put(struct smc_genl_msg *m, uint16_t type,
			       const void *data, size_t len)
{
	size_t off = NLMSG_ALIGN(m->nlh.nlmsg_len);
	struct nlattr *na = (struct nlattr *)(m->buf + off);

	if (off + NLA_HDRLEN + NLA_ALIGN(len) > sizeof(m->buf))
		return -EMSGSIZE;
	na->nla_type = type;
	na->nla_len = NLA_HDRLEN + len;
	memcpy((char *)na + NLA_HDRLEN, data, len);
	m->nlh.nlmsg_len = off + NLA_ALIGN(na->nla_len);
	return 0;
}

static inline int smc_genl_put_str(struct smc_genl_msg *m, uint16_t type,
				   const char *s)
{
	return smc_genl_put(m, type, s, strlen(s) + 1);
}

static inline int smc_genl_put_u8(struct smc_genl_msg *m, uint16_t type,
				  uint8_t v)
{
	return smc_genl_put(m, type, &v, 1);
}

/*
 * Send @m and read the answers until the reply, the end of a dump or an
 * error.  Return: 0, a negative errno from the kernel, or -EPROTO.
 */
static inline int smc_genl_talk(struct smc_genl *g, struct smc_genl_msg *m,
				smc_genl_cb cb, void *arg)
{
	static char buf[SMC_GENL_BUFSZ];
	int dump = m->nlh.nlmsg_flags & NLM_F_DUMP;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	uint32_t seq = ++g->seq;

	m->nlh.nlmsg_seq = seq;
	m->nlh.nlmsg_flags |= NLM_F_ACK;
	if (sendto(g->fd, m->buf, m->nlh.nlmsg_len, 0,
		   (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return -errno;
	for (;;) {
		struct nlmsghdr *nh;
		ssize_t n;

		n = recv(g->fd, buf, sizeof(buf), 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		for (nh = (struct nlmsghdr *)buf; NLMSG_OK(nh, n);
		     nh = NLMSG_NEXT(nh, n)) {
			const struct genlmsghdr *gh;
			int rc;

			if (nh->nlmsg_seq != seq)
				continue;
			if (nh->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(nh);

				if (nh->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
					return -EPROTO;
				return e->error;
			}
			if (nh->nlmsg_type == NLMSG_DONE) {
				const int *err = NLMSG_DATA(nh);

				/* a dump ends here; a reply gets an ACK */
				if (!dump)
					continue;
				if (nh->nlmsg_len >= NLMSG_LENGTH(sizeof(*err)) &&
				    *err < 0)
					return *err;
				return 0;
			}
			if (nh->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN))
				return -EPROTO;
			gh = NLMSG_DATA(nh);
			if (!cb)
				continue;
			rc = cb((const struct nlattr *)((const char *)gh +
							 GENL_HDRLEN),
				nh->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN),
				gh->cmd, arg);
			if (rc)
				return rc;
		}
	}
}

/* index the attributes in @attrs (up to @max) into @tb, last one wins */
static inline void smc_genl_parse(const struct nlattr **tb, int max,
				  const struct nlattr *attrs, int len)
{
	const struct nlattr *na = attrs;

	memset(tb, 0, sizeof(*tb) * (max + 1));
	while (len >= NLA_HDRLEN && na->nla_len >= NLA_HDRLEN &&
	       na->nla_len <= len) {
		int type = na->nla_type & NLA_TYPE_MASK;

		if (type <= max)
			tb[type] = na;
		len -= NLA_ALIGN(na->nla_len);
		na = (const struct nlattr *)((const char *)na +
					     NLA_ALIGN(na->nla_len));
	}
}

static inline const void *smc_genl_data(const struct nlattr *na)
{
	return (const char *)na + NLA_HDRLEN;
}

static inline int smc_genl_len(const struct nlattr *na)
{
	return na->nla_len - NLA_HDRLEN;
}

static inline uint64_t smc_genl_uint(const struct nlattr *na)
{
	const void *d = smc_genl_data(na);
	uint64_t v64;
	uint32_t v32;
	uint16_t v16;

	if (!na)
		return 0;
	switch (smc_genl_len(na)) {
	case 1:
		return *(const uint8_t *)d;
	case 2:
		memcpy(&v16, d, 2);
		return v16;
	case 4:
		memcpy(&v32, d, 4);
		return v32;
	case 8:
		memcpy(&v64, d, 8);
		return v64;
	}
	return 0;
}

/* a string attribute as a C string, "" if absent or not terminated */
static inline const char *smc_genl_str(const struct nlattr *na)
{
	const char *s;
	int len;

	if (!na)
		return "";
	s = smc_genl_data(na);
	len = smc_genl_len(na);
	if (len < 1 || s[len - 1])
		return "";
	return s;
}

static int smc_genl_family_cb(const struct nlattr *attrs, int len,
			      uint8_t cmd, void *arg)
{
	const struct nlattr *tb[CTRL_ATTR_FAMILY_ID + 1];

	(void)cmd;
	smc_genl_parse(tb, CTRL_ATTR_FAMILY_ID, attrs, len);
	if (tb[CTRL_ATTR_FAMILY_ID])
		*(uint16_t *)arg = smc_genl_uint(tb[CTRL_ATTR_FAMILY_ID]);
	return 0;
}

/*
 * Open a socket and resolve @name.  Return: 0, -ENOENT if the family is
 * not registered (module not loaded), or another negative errno.
 */
static inline int smc_genl_open(struct smc_genl *g, const char *name)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct smc_genl_msg m;
	uint16_t id = 0;
	int rc;

	g->seq = 0;
	g->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (g->fd < 0)
		return -errno;
	if (bind(g->fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		rc = -errno;
		goto err;
	}
	g->family = GENL_ID_CTRL;
	smc_genl_msg_init(&m, g, CTRL_CMD_GETFAMILY, 0);
	smc_genl_put_str(&m, CTRL_ATTR_FAMILY_NAME, name);
	rc = smc_genl_talk(g, &m, smc_genl_family_cb, &id);
	if (!rc && !id)
		rc = -ENOENT;
	if (rc)
		goto err;
	g->family = id;
	return 0;
err:
	close(g->fd);
	g->fd = -1;
	return rc;
}

static inline void smc_genl_close(struct smc_genl *g)
{
	if (g->fd >= 0)
		close(g->fd);
	g->fd = -1;
}

#endif /* SMC_GENL_H */
