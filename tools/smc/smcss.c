// SPDX-License-Identifier: GPL-2.0
/*
 * smcss - list SMC sockets
 *
 * Asks the kernel's smc_diag handler for every SMC socket (AF_SMC and
 * IPPROTO_SMC) through a NETLINK_SOCK_DIAG dump, and prints one line or
 * one JSON object per socket.  Only libc and raw netlink are used.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <linux/inet_diag.h>
#include <linux/smc_diag.h>

#include "smc_reasons.h"

#ifndef AF_SMC
#define AF_SMC 43
#endif

#ifndef SMC_TOOLS_VERSION
#define SMC_TOOLS_VERSION "0.1"
#endif

/* A wrong smc_diag.h must not build: these sizes are kernel ABI. */
_Static_assert(sizeof(struct smc_diag_req) == 52, "smc_diag_req size");
_Static_assert(sizeof(struct smc_diag_msg) == 64, "smc_diag_msg size");
_Static_assert(offsetof(struct smc_diag_msg, diag_mode) == 2,
	       "smc_diag_msg.diag_mode offset");
_Static_assert(offsetof(struct smc_diag_msg, id) == 4,
	       "smc_diag_msg.id offset");
_Static_assert(offsetof(struct smc_diag_msg, diag_uid) == 52,
	       "smc_diag_msg.diag_uid offset");
_Static_assert(offsetof(struct smc_diag_msg, diag_inode) == 56,
	       "smc_diag_msg.diag_inode offset");
_Static_assert(sizeof(struct smc_diag_cursor) == 8, "smc_diag_cursor size");
_Static_assert(sizeof(struct smc_diag_conninfo) == 76,
	       "smc_diag_conninfo size");
_Static_assert(offsetof(struct smc_diag_conninfo, rx_prod_flags) == 48,
	       "smc_diag_conninfo.rx_prod_flags offset");
_Static_assert(offsetof(struct smc_diag_conninfo, tx_prep) == 52,
	       "smc_diag_conninfo.tx_prep offset");
_Static_assert(sizeof(struct smc_diag_linkinfo) == 146,
	       "smc_diag_linkinfo size");
_Static_assert(sizeof(struct smc_diag_lgrinfo) == 147,
	       "smc_diag_lgrinfo size");
_Static_assert(sizeof(struct smcd_diag_dmbinfo) == 56,
	       "smcd_diag_dmbinfo size");
_Static_assert(offsetof(struct smcd_diag_dmbinfo, peer_gid) == 8,
	       "smcd_diag_dmbinfo.peer_gid offset");
_Static_assert(sizeof(struct smc_diag_fallback) == 8,
	       "smc_diag_fallback size");
_Static_assert(SMC_DIAG_MAX == 5, "SMC_DIAG_MAX");

/* The DMB info was 40 bytes before the extended GIDs were appended. */
#define SMCD_DMBINFO_V1_LEN	40

/* SMC socket states as reported in smc_diag_msg.diag_state */
static const struct {
	unsigned int num;
	const char *name;
} smc_states[] = {
	{ 1, "ACTIVE" },
	{ 2, "INIT" },
	{ 7, "CLOSED" },
	{ 10, "LISTEN" },
	{ 20, "PEERCLW1" },
	{ 21, "PEERCLW2" },
	{ 22, "APPLCLW1" },
	{ 23, "APPLCLW2" },
	{ 24, "APPLFINCLW" },
	{ 25, "PEERFINCLW" },
	{ 26, "PEERABORTW" },
	{ 27, "PROCESSABORT" },
};

#define SMC_STATE_LISTEN	10

/* Column widths of the text output */
#define ADDR_WIDTH	23	/* fits "255.255.255.255:65535" */
#define ADDR_WIDE	45	/* fits any IPv6 address and port */
#define ADDR_MAX	64	/* INET6_ADDRSTRLEN + ":65535" */
#define MODE_WIDTH	25	/* fits "TCP 0x03030000/0x00000000" */

enum show_states {
	SHOW_CONNECTED,		/* default: everything but LISTEN */
	SHOW_LISTENING,
	SHOW_ALL,
};

static struct {
	enum show_states states;
	bool smcr;
	bool smcd;
	bool debug;
	bool wide;
	bool json;
	bool explain;
} opt;

/* Everything known about one socket, collected from one reply */
struct sock_info {
	struct smc_diag_msg msg;
	bool has_shutdown;
	uint8_t shutdown;
	bool has_fallback;
	struct smc_diag_fallback fallback;
	bool has_conninfo;
	struct smc_diag_conninfo conn;
	bool has_lgrinfo;
	struct smc_diag_lgrinfo lgr;
	bool has_dmbinfo;
	struct smcd_diag_dmbinfo dmb;
};

static unsigned int json_count;
static bool output_started;
static unsigned int shown;	/* sockets printed */

static const char *state_name(unsigned int state)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(smc_states); i++)
		if (smc_states[i].num == state)
			return smc_states[i].name;
	return NULL;
}

static const char *reason_name(uint32_t code)
{
	const struct smc_reason *r = smc_reason_find(code);

	return r ? r->name : NULL;
}

static const char *mode_name(unsigned int mode)
{
	switch (mode) {
	case SMC_DIAG_MODE_SMCR:
		return "SMCR";
	case SMC_DIAG_MODE_SMCD:
		return "SMCD";
	case SMC_DIAG_MODE_FALLBACK_TCP:
		return "TCP";
	default:
		return "UNKNOWN";
	}
}

/*
 * AF_SMC replies carry family 43 whatever the IP version of the CLC
 * socket is.  IPv4 addresses sit in the first word with the other three
 * zero, so anything else is taken as IPv6.
 */
static int addr_family(const struct sock_info *si)
{
	const struct inet_diag_sockid *id = &si->msg.id;

	if (si->msg.diag_family == AF_INET || si->msg.diag_family == AF_INET6)
		return si->msg.diag_family;
	if (id->idiag_src[1] || id->idiag_src[2] || id->idiag_src[3] ||
	    id->idiag_dst[1] || id->idiag_dst[2] || id->idiag_dst[3])
		return AF_INET6;
	return AF_INET;
}

static void addr_str(int family, const __be32 *addr, char *buf, size_t len)
{
	if (!inet_ntop(family, addr, buf, len))
		snprintf(buf, len, "?");
}

/* "addr:port", shortened to ADDR_WIDTH unless -W; the port is kept */
static void print_addr(int family, const __be32 *addr, __be16 port)
{
	char a[INET6_ADDRSTRLEN], out[ADDR_MAX], p[8];
	size_t plen, keep;

	addr_str(family, addr, a, sizeof(a));
	snprintf(p, sizeof(p), ":%u", ntohs(port));
	snprintf(out, sizeof(out), "%s%s", a, p);
	plen = strlen(p);
	if (!opt.wide && strlen(out) > ADDR_WIDTH) {
		/* keep the head of the address, mark the cut with '..' */
		keep = ADDR_WIDTH - plen - 2;
		snprintf(out, sizeof(out), "%.*s..%s", (int)keep, a, p);
	}
	printf(" %-*s", opt.wide ? ADDR_WIDE : ADDR_WIDTH, out);
}

static void print_cursor(const struct smc_diag_cursor *c)
{
	printf(" %04x:%08x", c->wrap, c->count);
}

static void print_header(void)
{
	int aw = opt.wide ? ADDR_WIDE : ADDR_WIDTH;

	printf("%-12s %5s %7s %-*s %-*s %4s %-*s", "State", "UID", "Inode",
	       aw, "Local-Address", aw, "Peer-Address", "Intf",
	       MODE_WIDTH, "Mode");
	if (opt.debug) {
		printf(" %-5s %-8s %-8s %-8s %-8s", "Shutd", "Token",
		       "Sndbuf", "Rcvbuf", "Peerbuf");
		printf(" %-13s %-13s %-7s", "rxprod-Cursor", "rxcons-Cursor",
		       "rxFlags");
		printf(" %-13s %-13s %-7s", "txprod-Cursor", "txcons-Cursor",
		       "txFlags");
		printf(" %-13s %-13s %-13s", "txprep-Cursor", "txsent-Cursor",
		       "txfin-Cursor");
	}
	if (opt.smcr)
		printf(" %-4s %-16s %4s %6s %-39s %s", "Role", "IB-Device",
		       "Port", "Linkid", "GID", "Peer-GID");
	if (opt.smcd)
		printf(" %-16s %-16s %-16s %-16s %s", "GID", "Token",
		       "Peer-GID", "Peer-Token", "Linkid");
	printf("\n");
}

/* One code of --explain: name, meaning and what to change */
static void explain_code(const char *what, uint32_t code, const char *who)
{
	const struct smc_reason *r = smc_reason_find(code);

	if (!r) {
		printf("  %-15s 0x%08x: a code this smcss does not know\n",
		       what, code);
		printf("  %-15s check the kernel log of %s\n", "to change:",
		       who);
		return;
	}
	printf("  %-15s 0x%08x %s: %s\n", what, code, r->name, r->text);
	printf("  %-15s %s\n", "to change:", r->hint);
}

/*
 * --explain: why a fallback socket uses TCP, in words.  The local reason
 * is this host's; a peer diagnosis is what the peer put in its Decline,
 * so its hint is about the peer.
 */
static void print_explain(const struct sock_info *si)
{
	const struct smc_diag_msg *m = &si->msg;
	int family = addr_family(si);
	char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN];

	addr_str(family, m->id.idiag_src, src, sizeof(src));
	addr_str(family, m->id.idiag_dst, dst, sizeof(dst));
	printf("%s%s%s:%u -> %s%s%s:%u  inode %llu  uses TCP\n",
	       family == AF_INET6 ? "[" : "", src,
	       family == AF_INET6 ? "]" : "", ntohs(m->id.idiag_sport),
	       family == AF_INET6 ? "[" : "", dst,
	       family == AF_INET6 ? "]" : "", ntohs(m->id.idiag_dport),
	       (unsigned long long)m->diag_inode);
	if (!si->has_fallback || !si->fallback.reason)
		printf("  %-15s the kernel gave no reason\n", "reason:");
	else
		explain_code("reason:", si->fallback.reason, "this host");
	if (si->has_fallback && si->fallback.peer_diagnosis)
		explain_code("peer diagnosis:", si->fallback.peer_diagnosis,
			     "the peer");
}

static void print_text(const struct sock_info *si)
{
	const struct smc_diag_msg *m = &si->msg;
	const char *st = state_name(m->diag_state);
	int family = addr_family(si);
	char buf[32];

	if (st)
		snprintf(buf, sizeof(buf), "%s", st);
	else
		snprintf(buf, sizeof(buf), "STATE%u", m->diag_state);
	printf("%-12s %5u %7llu", buf, m->diag_uid,
	       (unsigned long long)m->diag_inode);
	print_addr(family, m->id.idiag_src, m->id.idiag_sport);
	print_addr(family, m->id.idiag_dst, m->id.idiag_dport);
	printf(" %4u", m->id.idiag_if);

	switch (m->diag_mode) {
	case SMC_DIAG_MODE_SMCR:
	case SMC_DIAG_MODE_SMCD:
		snprintf(buf, sizeof(buf), "%s", mode_name(m->diag_mode));
		break;
	case SMC_DIAG_MODE_FALLBACK_TCP:
		snprintf(buf, sizeof(buf), "TCP 0x%08x/0x%08x",
			 si->has_fallback ? si->fallback.reason : 0,
			 si->has_fallback ? si->fallback.peer_diagnosis : 0);
		break;
	default:
		snprintf(buf, sizeof(buf), "UNKNOWN(%u)", m->diag_mode);
		break;
	}
	printf(" %-*s", MODE_WIDTH, buf);

	if (opt.debug) {
		const struct smc_diag_conninfo *c = &si->conn;

		if (si->has_shutdown)
			snprintf(buf, sizeof(buf), "%c-%c",
				 si->shutdown & 1 ? '-' : '<',
				 si->shutdown & 2 ? '-' : '>');
		else
			snprintf(buf, sizeof(buf), "-");
		printf(" %-5s", buf);
		if (si->has_conninfo) {
			printf(" %08x %-8u %-8u %-8u", c->token,
			       c->sndbuf_size, c->rmbe_size,
			       c->peer_rmbe_size);
			print_cursor(&c->rx_prod);
			print_cursor(&c->rx_cons);
			printf(" %02x:%02x  ", c->rx_prod_flags,
			       c->rx_conn_state_flags);
			print_cursor(&c->tx_prod);
			print_cursor(&c->tx_cons);
			printf(" %02x:%02x  ", c->tx_prod_flags,
			       c->tx_conn_state_flags);
			print_cursor(&c->tx_prep);
			print_cursor(&c->tx_sent);
			print_cursor(&c->tx_fin);
		} else {
			/* keep the columns after this aligned */
			printf(" %-8s %-8s %-8s %-8s", "-", "-", "-", "-");
			printf(" %-13s %-13s %-7s", "-", "-", "-");
			printf(" %-13s %-13s %-7s", "-", "-", "-");
			printf(" %-13s %-13s %-13s", "-", "-", "-");
		}
	}

	if (opt.smcr && si->has_lgrinfo) {
		const struct smc_diag_linkinfo *l = &si->lgr.lnk[0];

		printf(" %-4s %-16.*s %4u %6u %-39.*s %.*s",
		       si->lgr.role ? "SERV" : "CLNT",
		       (int)sizeof(l->ibname), (const char *)l->ibname,
		       l->ibport, l->link_id,
		       (int)sizeof(l->gid), (const char *)l->gid,
		       (int)sizeof(l->peer_gid), (const char *)l->peer_gid);
	}
	if (opt.smcd && si->has_dmbinfo) {
		const struct smcd_diag_dmbinfo *d = &si->dmb;

		printf(" %016llx %016llx %016llx %016llx %u",
		       (unsigned long long)d->my_gid,
		       (unsigned long long)d->token,
		       (unsigned long long)d->peer_gid,
		       (unsigned long long)d->peer_token, d->linkid);
	}
	printf("\n");
}

/*
 * JSON output.  Each object is printed on one line; jsep holds what goes
 * before the next member ("{" for the first, "," after that).
 */
static const char *jsep;

static void jkey(const char *key)
{
	printf("%s\"%s\":", jsep, key);
	jsep = ",";
}

static void jobj_start(const char *key)
{
	if (key)
		jkey(key);
	else
		printf("%s", jsep);
	jsep = "{";
}

static void jobj_end(void)
{
	printf("}");
	jsep = ",";
}

static void jnum(const char *key, unsigned long long val)
{
	jkey(key);
	printf("%llu", val);
}

/* 64-bit ids as hex strings: large JSON numbers lose precision */
static void jhex64(const char *key, unsigned long long val)
{
	jkey(key);
	printf("\"0x%016llx\"", val);
}

static void jnull(const char *key)
{
	jkey(key);
	printf("null");
}

/* A byte string of at most @len bytes, cut at the first NUL */
static void jstrn(const char *key, const void *str, size_t len)
{
	const unsigned char *s = str;
	size_t i;

	if (!s) {
		jnull(key);
		return;
	}
	jkey(key);
	putchar('"');
	for (i = 0; i < len && s[i]; i++) {
		if (s[i] == '"' || s[i] == '\\')
			printf("\\%c", s[i]);
		else if (s[i] < 0x20 || s[i] >= 0x7f)
			printf("\\u%04x", s[i]);
		else
			putchar(s[i]);
	}
	putchar('"');
}

static void jstr(const char *key, const char *str)
{
	jstrn(key, str, str ? strlen(str) : 0);
}

static void jcursor(const char *key, const struct smc_diag_cursor *c)
{
	jobj_start(key);
	jnum("wrap", c->wrap);
	jnum("count", c->count);
	jobj_end();
}

static void print_json(const struct sock_info *si)
{
	const struct smc_diag_msg *m = &si->msg;
	int family = addr_family(si);
	char a[INET6_ADDRSTRLEN];

	jsep = json_count++ ? ",\n  " : "\n  ";
	jobj_start(NULL);
	jstr("state", state_name(m->diag_state));
	jnum("state_num", m->diag_state);
	jnum("diag_family", m->diag_family);
	jstr("ip_family", family == AF_INET ? "ipv4" : "ipv6");
	jnum("uid", m->diag_uid);
	jnum("inode", m->diag_inode);
	addr_str(family, m->id.idiag_src, a, sizeof(a));
	jstr("local_addr", a);
	jnum("local_port", ntohs(m->id.idiag_sport));
	addr_str(family, m->id.idiag_dst, a, sizeof(a));
	jstr("peer_addr", a);
	jnum("peer_port", ntohs(m->id.idiag_dport));
	jnum("ifindex", m->id.idiag_if);
	jnum("cookie", (unsigned long long)m->id.idiag_cookie[1] << 32 |
		       m->id.idiag_cookie[0]);
	jstr("mode", mode_name(m->diag_mode));
	jnum("mode_num", m->diag_mode);
	if (si->has_fallback) {
		jnum("fallback_reason", si->fallback.reason);
		jnum("peer_diagnosis", si->fallback.peer_diagnosis);
		jstr("fallback_reason_name",
		     reason_name(si->fallback.reason));
		jstr("peer_diagnosis_name",
		     reason_name(si->fallback.peer_diagnosis));
		if (opt.explain) {
			const struct smc_reason *r, *p;

			r = smc_reason_find(si->fallback.reason);
			p = smc_reason_find(si->fallback.peer_diagnosis);
			jstr("fallback_reason_text", r ? r->text : NULL);
			jstr("fallback_reason_hint", r ? r->hint : NULL);
			jstr("peer_diagnosis_text", p ? p->text : NULL);
			jstr("peer_diagnosis_hint", p ? p->hint : NULL);
		}
	} else {
		jnull("fallback_reason");
		jnull("peer_diagnosis");
		jnull("fallback_reason_name");
		jnull("peer_diagnosis_name");
	}
	if (si->has_shutdown)
		jnum("shutdown", si->shutdown);
	else
		jnull("shutdown");

	if (si->has_conninfo) {
		const struct smc_diag_conninfo *c = &si->conn;

		jobj_start("conninfo");
		jnum("token", c->token);
		jnum("sndbuf_size", c->sndbuf_size);
		jnum("rmbe_size", c->rmbe_size);
		jnum("peer_rmbe_size", c->peer_rmbe_size);
		jcursor("rx_prod", &c->rx_prod);
		jcursor("rx_cons", &c->rx_cons);
		jcursor("tx_prod", &c->tx_prod);
		jcursor("tx_cons", &c->tx_cons);
		jnum("rx_prod_flags", c->rx_prod_flags);
		jnum("rx_conn_state_flags", c->rx_conn_state_flags);
		jnum("tx_prod_flags", c->tx_prod_flags);
		jnum("tx_conn_state_flags", c->tx_conn_state_flags);
		jcursor("tx_prep", &c->tx_prep);
		jcursor("tx_sent", &c->tx_sent);
		jcursor("tx_fin", &c->tx_fin);
		jobj_end();
	}
	if (si->has_lgrinfo) {
		const struct smc_diag_linkinfo *l = &si->lgr.lnk[0];

		jobj_start("lgrinfo");
		jstr("role", si->lgr.role ? "SERV" : "CLNT");
		jnum("role_num", si->lgr.role);
		jnum("link_id", l->link_id);
		jstrn("ibname", l->ibname, sizeof(l->ibname));
		jnum("ibport", l->ibport);
		jstrn("gid", l->gid, sizeof(l->gid));
		jstrn("peer_gid", l->peer_gid, sizeof(l->peer_gid));
		jobj_end();
	}
	if (si->has_dmbinfo) {
		const struct smcd_diag_dmbinfo *d = &si->dmb;

		jobj_start("dmbinfo");
		jnum("linkid", d->linkid);
		jhex64("my_gid", d->my_gid);
		jhex64("peer_gid", d->peer_gid);
		jhex64("token", d->token);
		jhex64("peer_token", d->peer_token);
		jhex64("my_gid_ext", d->my_gid_ext);
		jhex64("peer_gid_ext", d->peer_gid_ext);
		jobj_end();
	}
	jobj_end();
}

/* The header (or '[') goes out with the first reply that parsed fine */
static void start_output(void)
{
	if (output_started)
		return;
	output_started = true;
	if (opt.json)
		printf("[");
	else if (!opt.explain)
		print_header();
}

static bool want(const struct sock_info *si)
{
	bool listen = si->msg.diag_state == SMC_STATE_LISTEN;

	if (opt.states == SHOW_CONNECTED && listen)
		return false;
	if (opt.states == SHOW_LISTENING && !listen)
		return false;
	if (opt.smcr && si->msg.diag_mode != SMC_DIAG_MODE_SMCR)
		return false;
	if (opt.smcd && si->msg.diag_mode != SMC_DIAG_MODE_SMCD)
		return false;
	if (opt.explain && si->msg.diag_mode != SMC_DIAG_MODE_FALLBACK_TCP)
		return false;
	return true;
}

/*
 * Copy an attribute payload into a fixed struct.  Longer payloads (a
 * newer kernel) are cut, shorter ones are accepted only down to @min
 * and the rest is zeroed.
 */
static bool attr_copy(void *dst, size_t dlen, const void *src, size_t slen,
		      size_t min)
{
	if (slen < min)
		return false;
	memset(dst, 0, dlen);
	memcpy(dst, src, slen < dlen ? slen : dlen);
	return true;
}

/* Parse one SOCK_DIAG_BY_FAMILY reply; false if it is malformed */
static bool parse_msg(const struct nlmsghdr *nlh, struct sock_info *si)
{
	const unsigned char *p = NLMSG_DATA(nlh);
	size_t len = nlh->nlmsg_len - NLMSG_HDRLEN;
	size_t off;

	memset(si, 0, sizeof(*si));
	if (len < sizeof(si->msg))
		return false;
	memcpy(&si->msg, p, sizeof(si->msg));

	off = NLMSG_ALIGN(sizeof(si->msg));
	while (off + NLA_HDRLEN <= len) {
		struct nlattr nla;
		const unsigned char *data;
		size_t alen;

		memcpy(&nla, p + off, sizeof(nla));
		if (nla.nla_len < NLA_HDRLEN || nla.nla_len > len - off)
			return false;
		data = p + off + NLA_HDRLEN;
		alen = nla.nla_len - NLA_HDRLEN;

		switch (nla.nla_type & NLA_TYPE_MASK) {
		case SMC_DIAG_SHUTDOWN:
			si->has_shutdown = alen >= 1;
			if (si->has_shutdown)
				si->shutdown = data[0];
			break;
		case SMC_DIAG_FALLBACK:
			si->has_fallback =
				attr_copy(&si->fallback, sizeof(si->fallback),
					  data, alen, sizeof(si->fallback));
			break;
		case SMC_DIAG_CONNINFO:
			si->has_conninfo =
				attr_copy(&si->conn, sizeof(si->conn),
					  data, alen, sizeof(si->conn));
			break;
		case SMC_DIAG_LGRINFO:
			si->has_lgrinfo =
				attr_copy(&si->lgr, sizeof(si->lgr),
					  data, alen, sizeof(si->lgr));
			break;
		case SMC_DIAG_DMBINFO:
			si->has_dmbinfo =
				attr_copy(&si->dmb, sizeof(si->dmb),
					  data, alen, SMCD_DMBINFO_V1_LEN);
			break;
		default:
			break;	/* unknown attributes are skipped */
		}
		off += NLA_ALIGN(nla.nla_len);
	}
	return true;
}

static int send_request(int fd, unsigned int seq)
{
	struct {
		struct nlmsghdr nlh;
		struct smc_diag_req req;
	} msg;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	ssize_t n;

	memset(&msg, 0, sizeof(msg));
	msg.nlh.nlmsg_len = NLMSG_LENGTH(sizeof(msg.req));
	msg.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	msg.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	msg.nlh.nlmsg_seq = seq;
	msg.req.diag_family = AF_SMC;
	/* SHUTDOWN and FALLBACK come unasked; ask for the rest */
	msg.req.diag_ext = 1 << (SMC_DIAG_CONNINFO - 1) |
			   1 << (SMC_DIAG_LGRINFO - 1) |
			   1 << (SMC_DIAG_DMBINFO - 1);
	msg.req.id.idiag_cookie[0] = INET_DIAG_NOCOOKIE;
	msg.req.id.idiag_cookie[1] = INET_DIAG_NOCOOKIE;

	do {
		n = sendto(fd, &msg, msg.nlh.nlmsg_len, 0,
			   (struct sockaddr *)&sa, sizeof(sa));
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		fprintf(stderr, "smcss: sending the diag request: %s\n",
			strerror(errno));
		return -1;
	}
	return 0;
}

static void report_nlerr(const struct nlmsghdr *nlh)
{
	struct nlmsgerr err;
	int e;

	if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(err))) {
		fprintf(stderr, "smcss: truncated netlink error message\n");
		return;
	}
	memcpy(&err, NLMSG_DATA(nlh), sizeof(err));
	e = -err.error;
	if (e == ENOENT)
		fprintf(stderr, "smcss: the kernel has no SMC socket diagnostics (is the smc_diag module loaded?)\n");
	else
		fprintf(stderr, "smcss: the kernel rejected the request: %s\n",
			strerror(e));
}

/* Read the dump; returns 0 when NLMSG_DONE was seen, -1 on error */
static int read_dump(int fd, unsigned int seq)
{
	static union {
		struct nlmsghdr align;	/* keeps the buffer aligned */
		char buf[64 * 1024];
	} rx;
	char *buf = rx.buf;
	struct sock_info si;
	bool intr = false;

	for (;;) {
		struct iovec iov = { buf, sizeof(rx.buf) };
		struct sockaddr_nl sa;
		struct msghdr mh = {
			.msg_name = &sa, .msg_namelen = sizeof(sa),
			.msg_iov = &iov, .msg_iovlen = 1,
		};
		const struct nlmsghdr *nlh;
		ssize_t n;
		int left;

		n = recvmsg(fd, &mh, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "smcss: reading the diag reply: %s\n",
				strerror(errno));
			return -1;
		}
		if (n == 0) {
			fprintf(stderr, "smcss: netlink socket closed early\n");
			return -1;
		}
		if (mh.msg_flags & MSG_TRUNC) {
			fprintf(stderr, "smcss: netlink reply truncated\n");
			return -1;
		}
		if (sa.nl_pid != 0)
			continue;	/* not from the kernel */

		left = (int)n;
		for (nlh = (const struct nlmsghdr *)buf; NLMSG_OK(nlh, left);
		     nlh = NLMSG_NEXT(nlh, left)) {
			if (nlh->nlmsg_seq != seq)
				continue;
			if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
				intr = true;
			if (nlh->nlmsg_type == NLMSG_DONE) {
				start_output();
				if (intr)
					fprintf(stderr, "smcss: warning: sockets changed during the dump, the list may be inconsistent\n");
				return 0;
			}
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				report_nlerr(nlh);
				return -1;
			}
			if (nlh->nlmsg_type != SOCK_DIAG_BY_FAMILY)
				continue;
			if (!parse_msg(nlh, &si)) {
				fprintf(stderr,
					"smcss: malformed diag message\n");
				return -1;
			}
			start_output();
			if (!want(&si))
				continue;
			if (opt.json)
				print_json(&si);
			else if (opt.explain)
				print_explain(&si);
			else
				print_text(&si);
			shown++;
		}
		if (left) {
			fprintf(stderr, "smcss: %d stray bytes in reply\n",
				left);
			return -1;
		}
	}
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: smcss [OPTION]...\n"
		"List SMC sockets (AF_SMC and IPPROTO_SMC) and their connection mode.\n"
		"\n"
		"  -a, --all        show sockets in every state\n"
		"  -l, --listening  show only listening sockets\n"
		"                   (default: every socket that is not listening)\n"
		"  -R, --smcr       show only SMC-R sockets, with link details\n"
		"  -D, --smcd       show only SMC-D sockets, with DMB details\n"
		"  -d, --debug      add shutdown state, token, buffer sizes and cursors\n"
		"  -W, --wide       do not shorten addresses\n"
		"  -x, --explain    only sockets that fell back to TCP: why, in words,\n"
		"                   and what to change to get SMC-R\n"
		"  -j, --json       print a JSON array with every field\n"
		"  -v, --version    print the version and exit\n"
		"  -h, --help       print this help and exit\n"
		"\n"
		"Mode is SMCR, SMCD, or TCP 0xLOCAL/0xPEER for a socket that fell back\n"
		"to TCP: LOCAL is the local fallback reason, PEER the diagnosis the peer\n"
		"sent in its decline.  smcss(8) lists the codes; -x explains them.\n");
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "all",	no_argument, NULL, 'a' },
		{ "listening",	no_argument, NULL, 'l' },
		{ "smcr",	no_argument, NULL, 'R' },
		{ "smcd",	no_argument, NULL, 'D' },
		{ "debug",	no_argument, NULL, 'd' },
		{ "wide",	no_argument, NULL, 'W' },
		{ "json",	no_argument, NULL, 'j' },
		{ "explain",	no_argument, NULL, 'x' },
		{ "version",	no_argument, NULL, 'v' },
		{ "help",	no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	unsigned int seq;
	int c, fd, ret;

	opt.states = SHOW_CONNECTED;
	while ((c = getopt_long(argc, argv, "alRDdWjxvh", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'a':
			opt.states = SHOW_ALL;
			break;
		case 'l':
			opt.states = SHOW_LISTENING;
			break;
		case 'R':
			opt.smcr = true;
			break;
		case 'D':
			opt.smcd = true;
			break;
		case 'd':
			opt.debug = true;
			break;
		case 'W':
			opt.wide = true;
			break;
		case 'j':
			opt.json = true;
			break;
		case 'x':
			opt.explain = true;
			break;
		case 'v':
			printf("smcss (smc-r tools) %s\n", SMC_TOOLS_VERSION);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "smcss: unexpected argument '%s'\n",
			argv[optind]);
		usage(stderr);
		return 2;
	}
	if (opt.smcr && opt.smcd) {
		fprintf(stderr, "smcss: -R and -D cannot be combined\n");
		return 2;
	}
	if (opt.explain && (opt.smcr || opt.smcd)) {
		fprintf(stderr, "smcss: -x lists fallback sockets, not -R or -D ones\n");
		return 2;
	}

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (fd < 0) {
		fprintf(stderr, "smcss: cannot open a sock_diag socket: %s\n",
			strerror(errno));
		return 1;
	}
	seq = (unsigned int)getpid();
	if (send_request(fd, seq)) {
		close(fd);
		return 1;
	}

	ret = read_dump(fd, seq);
	close(fd);
	if (ret) {
		fflush(stdout);
		return 1;
	}
	if (opt.json)
		printf("%s]\n", json_count ? "\n" : "");
	else if (opt.explain && !shown)
		printf("No SMC socket fell back to TCP.\n");
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "smcss: write error\n");
		return 1;
	}
	return 0;
}
