// SPDX-License-Identifier: GPL-2.0
/*
 * smcr - SMC-R administration in iproute2 style: "smcr OBJECT COMMAND"
 *
 * Objects: info, ueid, stats, linkgroup, device.  Talks to the kernel's
 * "SMC_GEN_NETLINK" generic netlink family.
 *
 * "stats reset" is done in user space (the kernel has no reset): it saves
 * the current counters as a baseline that "stats show" subtracts.  The
 * baseline lives in a private directory ($XDG_RUNTIME_DIR/smcr or
 * ~/.cache/smcr, mode 0700, must be ours) and is replaced atomically
 * (mkstemp in that directory, then rename), so there is no predictable
 * /tmp name and no partial file.  One baseline per network namespace.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ctype.h>
#include <sys/stat.h>
#include <net/if.h>
#include <linux/smc.h>

#include "smc_genl.h"

#ifndef SMC_TOOLS_VERSION
#define SMC_TOOLS_VERSION "0.1"
#endif

#define MAX_RSN	64

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

static const char *prog = "smcr";
static bool json, absolute;
static struct smc_genl g;

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s [OPTIONS] OBJECT COMMAND [ARGS]\n"
		"\n"
		"  info                       SMC capabilities of this system\n"
		"  ueid show|flush            list or remove all user EIDs\n"
		"  ueid add|del UEID          add or remove a user EID\n"
		"  stats [show|json|reset]    connection and fallback counters\n"
		"  linkgroup show [all|LG-ID] SMC-R link groups\n"
		"  linkgroup link-show [all|LG-ID]\n"
		"                             their links\n"
		"  device show                SMC-R devices\n"
		"\n"
		"  -j, --json      JSON output\n"
		"  -a, --absolute  stats: ignore the baseline of \"stats reset\"\n"
		"  -v, --version   print the version and exit\n"
		"  -h, --help      print this help and exit\n",
		prog);
}

static int die_rc(int rc)
{
	fprintf(stderr, "%s: %s\n", prog, strerror(-rc));
	return 1;
}

static int request(uint8_t cmd, bool dump, const void *ueid, smc_genl_cb cb,
		   void *arg)
{
	struct smc_genl_msg m;

	smc_genl_msg_init(&m, &g, cmd, dump ? NLM_F_DUMP : 0);
	if (ueid)
		smc_genl_put(&m, SMC_NLA_EID_TABLE_ENTRY, ueid,
			     SMC_MAX_EID_LEN + 1);
	return smc_genl_talk(&g, &m, cb, arg);
}

/* ---- info ------------------------------------------------------------- */

static int info_cb(const struct nlattr *attrs, int len, uint8_t cmd,
		   void *arg)
{
	const struct nlattr *top[SMC_GEN_MAX + 1], *tb[SMC_NLA_SYS_MAX + 1];
	char host[SMC_MAX_HOSTNAME_LEN + 1];
	unsigned int ver, rel;
	size_t n;

	(void)cmd;
	(void)arg;
	smc_genl_parse(top, SMC_GEN_MAX, attrs, len);
	if (!top[SMC_GEN_SYS_INFO])
		return 0;
	smc_genl_parse(tb, SMC_NLA_SYS_MAX, smc_genl_data(top[SMC_GEN_SYS_INFO]),
		       smc_genl_len(top[SMC_GEN_SYS_INFO]));
	snprintf(host, sizeof(host), "%s",
		 smc_genl_str(tb[SMC_NLA_SYS_LOCAL_HOST]));
	for (n = strlen(host); n && host[n - 1] == ' '; n--)
		host[n - 1] = '\0';
	ver = smc_genl_uint(tb[SMC_NLA_SYS_VER]);
	rel = smc_genl_uint(tb[SMC_NLA_SYS_REL]);
	if (json) {
		printf("{\"version\":\"%u.%u\",\"hostname\":\"%s\",", ver, rel,
		       host);
		printf("\"smcr_v2\":%s,\"ism_v2\":%s,\"seid\":\"%s\"}\n",
		       smc_genl_uint(tb[SMC_NLA_SYS_IS_SMCR_V2]) ? "true" : "false",
		       smc_genl_uint(tb[SMC_NLA_SYS_IS_ISM_V2]) ? "true" : "false",
		       smc_genl_str(tb[SMC_NLA_SYS_SEID]));
		return 0;
	}
	printf("Kernel Capabilities\n");
	printf("SMC Version:     %u.%u\n", ver, rel);
	printf("SMC Hostname:    %s\n", host);
	printf("SMC-D Features:  v1%s\n",
	       smc_genl_uint(tb[SMC_NLA_SYS_IS_ISM_V2]) ? " v2" : "");
	printf("SMC-R Features:  v1%s\n",
	       smc_genl_uint(tb[SMC_NLA_SYS_IS_SMCR_V2]) ? " v2" : "");
	if (tb[SMC_NLA_SYS_SEID])
		printf("SEID:            %s\n", smc_genl_str(tb[SMC_NLA_SYS_SEID]));
	return 0;
}

/* ---- ueid ------------------------------------------------------------- */

static int ueid_cb(const struct nlattr *attrs, int len, uint8_t cmd,
		   void *arg)
{
	const struct nlattr *tb[SMC_NLA_EID_TABLE_MAX + 1];
	char eid[SMC_MAX_EID_LEN + 1];
	unsigned int *count = arg;
	size_t n;

	(void)cmd;
	smc_genl_parse(tb, SMC_NLA_EID_TABLE_MAX, attrs, len);
	if (!tb[SMC_NLA_EID_TABLE_ENTRY])
		return 0;
	snprintf(eid, sizeof(eid), "%s",
		 smc_genl_str(tb[SMC_NLA_EID_TABLE_ENTRY]));
	for (n = strlen(eid); n && eid[n - 1] == ' '; n--)
		eid[n - 1] = '\0';
	if (json)
		printf("%s\"%s\"", (*count)++ ? "," : "", eid);
	else
		printf("%s\n", eid);
	return 0;
}

/* upper-case and blank-pad @in to 32 characters plus NUL */
static int ueid_arg(const char *in, char *out)
{
	size_t i, n = strlen(in);

	if (!n || n > SMC_MAX_EID_LEN) {
		fprintf(stderr, "%s: a UEID has 1 to %d characters\n", prog,
			SMC_MAX_EID_LEN);
		return -1;
	}
	memset(out, ' ', SMC_MAX_EID_LEN);
	out[SMC_MAX_EID_LEN] = '\0';
	for (i = 0; i < n; i++)
		out[i] = toupper((unsigned char)in[i]);
	return 0;
}

static int do_ueid(int argc, char **argv)
{
	const char *sub = argc ? argv[0] : "show";
	char eid[SMC_MAX_EID_LEN + 1];
	unsigned int count = 0;
	int rc;

	if (!strcmp(sub, "show") && argc <= 1) {
		if (json)
			printf("[");
		rc = request(SMC_NETLINK_DUMP_UEID, true, NULL, ueid_cb, &count);
		if (json)
			printf("]\n");
		return rc ? die_rc(rc) : 0;
	}
	if (!strcmp(sub, "flush") && argc == 1) {
		rc = request(SMC_NETLINK_FLUSH_UEID, false, NULL, NULL, NULL);
		return rc ? die_rc(rc) : 0;
	}
	if ((!strcmp(sub, "add") || !strcmp(sub, "del")) && argc == 2) {
		if (ueid_arg(argv[1], eid))
			return 1;
		rc = request(sub[0] == 'a' ? SMC_NETLINK_ADD_UEID :
			     SMC_NETLINK_REMOVE_UEID, false, eid, NULL, NULL);
		/* s390: removing the last UEID re-enables the SEID */
		if (rc == -EAGAIN)
			rc = 0;
		return rc ? die_rc(rc) : 0;
	}
	usage(stderr);
	return 1;
}

/* ---- stats ------------------------------------------------------------ */

struct stats {
	uint64_t v[8];	/* see stat_names */
	unsigned int nrsn;
	struct { uint32_t code; uint8_t srv; uint64_t cnt; } rsn[MAX_RSN];
};

static const char * const stat_names[] = {
	"smcr_client_v1", "smcr_client_v2", "smcr_server_v1",
	"smcr_server_v2", "client_handshake_errors",
	"server_handshake_errors", "client_fallbacks", "server_fallbacks",
};

static int stats_cb(const struct nlattr *attrs, int len, uint8_t cmd,
		    void *arg)
{
	const struct nlattr *top[SMC_GEN_MAX + 1];
	const struct nlattr *tb[SMC_NLA_STATS_MAX + 1];
	const struct nlattr *tt[SMC_NLA_STATS_T_MAX + 1];
	const struct nlattr *fb[SMC_NLA_FBACK_STATS_MAX + 1];
	struct stats *st = arg;

	(void)cmd;
	smc_genl_parse(top, SMC_GEN_MAX, attrs, len);
	if (top[SMC_GEN_STATS]) {
		smc_genl_parse(tb, SMC_NLA_STATS_MAX,
			       smc_genl_data(top[SMC_GEN_STATS]),
			       smc_genl_len(top[SMC_GEN_STATS]));
		if (tb[SMC_NLA_STATS_SMCR_TECH]) {
			smc_genl_parse(tt, SMC_NLA_STATS_T_MAX,
				       smc_genl_data(tb[SMC_NLA_STATS_SMCR_TECH]),
				       smc_genl_len(tb[SMC_NLA_STATS_SMCR_TECH]));
			st->v[0] = smc_genl_uint(tt[SMC_NLA_STATS_T_CLNT_V1_SUCC]);
			st->v[1] = smc_genl_uint(tt[SMC_NLA_STATS_T_CLNT_V2_SUCC]);
			st->v[2] = smc_genl_uint(tt[SMC_NLA_STATS_T_SRV_V1_SUCC]);
			st->v[3] = smc_genl_uint(tt[SMC_NLA_STATS_T_SRV_V2_SUCC]);
		}
		st->v[4] = smc_genl_uint(tb[SMC_NLA_STATS_CLNT_HS_ERR_CNT]);
		st->v[5] = smc_genl_uint(tb[SMC_NLA_STATS_SRV_HS_ERR_CNT]);
	}
	if (top[SMC_GEN_FBACK_STATS]) {
		smc_genl_parse(fb, SMC_NLA_FBACK_STATS_MAX,
			       smc_genl_data(top[SMC_GEN_FBACK_STATS]),
			       smc_genl_len(top[SMC_GEN_FBACK_STATS]));
		if (fb[SMC_NLA_FBACK_STATS_CLNT_CNT])
			st->v[6] = smc_genl_uint(fb[SMC_NLA_FBACK_STATS_CLNT_CNT]);
		if (fb[SMC_NLA_FBACK_STATS_SRV_CNT])
			st->v[7] = smc_genl_uint(fb[SMC_NLA_FBACK_STATS_SRV_CNT]);
		if (fb[SMC_NLA_FBACK_STATS_RSN_CODE] && st->nrsn < MAX_RSN) {
			st->rsn[st->nrsn].code =
				smc_genl_uint(fb[SMC_NLA_FBACK_STATS_RSN_CODE]);
			st->rsn[st->nrsn].srv =
				smc_genl_uint(fb[SMC_NLA_FBACK_STATS_TYPE]);
			st->rsn[st->nrsn].cnt =
				smc_genl_uint(fb[SMC_NLA_FBACK_STATS_RSN_CNT]);
			st->nrsn++;
		}
	}
	return 0;
}

static int stats_read(struct stats *st)
{
	int rc;

	memset(st, 0, sizeof(*st));
	rc = request(SMC_NETLINK_GET_STATS, true, NULL, stats_cb, st);
	if (!rc)
		rc = request(SMC_NETLINK_GET_FBACK_STATS, true, NULL, stats_cb,
			     st);
	return rc;
}

/* the baseline file of this network namespace, its directory made 0700 */
static int baseline_path(char *path, size_t len, char *dir, size_t dlen)
{
	const char *base = getenv("XDG_RUNTIME_DIR");
	const char *sub = "smcr";
	struct stat sb;

	if (!base || base[0] != '/') {
		base = getenv("HOME");
		sub = ".cache/smcr";
		if (!base || base[0] != '/')
			return -ENOENT;
		snprintf(dir, dlen, "%s/.cache", base);
		mkdir(dir, 0700);
	}
	snprintf(dir, dlen, "%s/%s", base, sub);
	if (mkdir(dir, 0700) && errno != EEXIST)
		return -errno;
	if (lstat(dir, &sb))
		return -errno;
	if (!S_ISDIR(sb.st_mode) || sb.st_uid != geteuid() ||
	    (sb.st_mode & 0077))
		return -EPERM;
	if (stat("/proc/self/ns/net", &sb))
		return -errno;
	snprintf(path, len, "%s/stats-%llu", dir,
		 (unsigned long long)sb.st_ino);
	return 0;
}

static void baseline_load(struct stats *base)
{
	char path[4096], dir[4096], code[32];
	unsigned long long cnt;
	unsigned int i, srv;
	char name[64];
	FILE *f;
	int fd;

	memset(base, 0, sizeof(*base));
	if (baseline_path(path, sizeof(path), dir, sizeof(dir)))
		return;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return;
	}
	while (fscanf(f, "%63s %31s %llu", name, code, &cnt) == 3) {
		if (!strcmp(name, "rsn") && base->nrsn < MAX_RSN &&
		    sscanf(code, "%x/%u", &i, &srv) == 2) {
			base->rsn[base->nrsn].code = i;
			base->rsn[base->nrsn].srv = srv;
			base->rsn[base->nrsn++].cnt = cnt;
			continue;
		}
		for (i = 0; i < 8; i++)
			if (!strcmp(name, stat_names[i]))
				base->v[i] = cnt;
	}
	fclose(f);
}

static int stats_reset(void)
{
	char path[4096], dir[4096], tmp[4200];
	struct stats st;
	unsigned int i;
	FILE *f;
	int fd, rc;

	rc = stats_read(&st);
	if (rc)
		return die_rc(rc);
	rc = baseline_path(path, sizeof(path), dir, sizeof(dir));
	if (rc) {
		fprintf(stderr, "%s: no private directory for the baseline: %s\n",
			prog, strerror(-rc));
		return 1;
	}
	snprintf(tmp, sizeof(tmp), "%s/.stats-XXXXXX", dir);
	fd = mkstemp(tmp);
	if (fd < 0)
		return die_rc(-errno);
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(tmp);
		return die_rc(-ENOMEM);
	}
	for (i = 0; i < 8; i++)
		fprintf(f, "%s - %" PRIu64 "\n", stat_names[i], st.v[i]);
	for (i = 0; i < st.nrsn; i++)
		fprintf(f, "rsn %08x/%u %" PRIu64 "\n", st.rsn[i].code,
			st.rsn[i].srv, st.rsn[i].cnt);
	if (fflush(f) || fsync(fd)) {
		fclose(f);
		unlink(tmp);
		return die_rc(-EIO);
	}
	fclose(f);
	if (rename(tmp, path)) {
		rc = -errno;
		unlink(tmp);
		return die_rc(rc);
	}
	return 0;
}

static uint64_t sub(uint64_t now, uint64_t base)
{
	return now >= base ? now - base : now;
}

static int do_stats(int argc, char **argv)
{
	const char *cmd = argc ? argv[0] : "show";
	struct stats st, base;
	unsigned int i, j;
	int rc;

	if (argc > 1)
		goto bad;
	if (!strcmp(cmd, "reset"))
		return stats_reset();
	if (!strcmp(cmd, "json"))
		json = true;
	else if (strcmp(cmd, "show"))
		goto bad;
	rc = stats_read(&st);
	if (rc)
		return die_rc(rc);
	if (absolute)
		memset(&base, 0, sizeof(base));
	else
		baseline_load(&base);
	for (i = 0; i < 8; i++)
		st.v[i] = sub(st.v[i], base.v[i]);
	for (i = 0; i < st.nrsn; i++)
		for (j = 0; j < base.nrsn; j++)
			if (base.rsn[j].code == st.rsn[i].code &&
			    base.rsn[j].srv == st.rsn[i].srv)
				st.rsn[i].cnt = sub(st.rsn[i].cnt,
						    base.rsn[j].cnt);
	if (json) {
		printf("{");
		for (i = 0; i < 8; i++)
			printf("\"%s\":%" PRIu64 ",", stat_names[i], st.v[i]);
		printf("\"fallback_reasons\":[");
		for (i = 0; i < st.nrsn; i++)
			printf("%s{\"side\":\"%s\",\"code\":\"0x%08x\",\"count\":%"
			       PRIu64 "}", i ? "," : "",
			       st.rsn[i].srv ? "server" : "client",
			       st.rsn[i].code, st.rsn[i].cnt);
		printf("]}\n");
		return 0;
	}
	printf("SMC-R connections    client v1 %" PRIu64 "  v2 %" PRIu64
	       "    server v1 %" PRIu64 "  v2 %" PRIu64 "\n",
	       st.v[0], st.v[1], st.v[2], st.v[3]);
	printf("Handshake errors     client %" PRIu64 "    server %" PRIu64 "\n",
	       st.v[4], st.v[5]);
	printf("Fallbacks to TCP     client %" PRIu64 "    server %" PRIu64 "\n",
	       st.v[6], st.v[7]);
	for (j = 0; j < 2; j++) {
		bool hdr = false;

		for (i = 0; i < st.nrsn; i++) {
			if (st.rsn[i].srv != !j || !st.rsn[i].cnt)
				continue;
			if (!hdr)
				printf("%s fallback reasons:\n",
				       j ? "Client" : "Server");
			hdr = true;
			printf("  0x%08x  %" PRIu64 "\n", st.rsn[i].code,
			       st.rsn[i].cnt);
		}
	}
	return 0;
bad:
	usage(stderr);
	return 1;
}

/* ---- linkgroup -------------------------------------------------------- */

static const char *lgr_type_name(unsigned int type)
{
	static const char * const names[] = {
		"NONE", "SINGLE", "SYM", "ASYMP", "ASYML",
	};

	return type < ARRAY_SIZE(names) ? names[type] : "?";
}

static const char *link_state_name(unsigned int state)
{
	static const char * const names[] = {
		"UNUSED", "INACTIVE", "ACTIVATING", "ACTIVE",
	};

	return state < ARRAY_SIZE(names) ? names[state] : "?";
}

/* what a link group dump prints, and of which group */
struct lgr_walk {
	unsigned int	count;		/* objects printed */
	bool		links;		/* link-show: the links, not groups */
	bool		all;		/* every group, else only @want */
	unsigned int	want;		/* the LG-ID asked for */
	bool		in_want;	/* the last group message was wanted */
	unsigned int	id;		/* and its id */
	const char	*role;		/* its role */
};

/* one line (or JSON object) per link of the current group */
static void link_print(const struct nlattr *nest, struct lgr_walk *w)
{
	const struct nlattr *tb[SMC_NLA_LINK_MAX + 1];
	unsigned int id, port, conns, ifindex;
	char ndev[IF_NAMESIZE] = "-";
	const char *state, *ibdev, *gid, *peer_gid;

	smc_genl_parse(tb, SMC_NLA_LINK_MAX, smc_genl_data(nest),
		       smc_genl_len(nest));
	id = smc_genl_uint(tb[SMC_NLA_LINK_ID]);
	port = smc_genl_uint(tb[SMC_NLA_LINK_IB_PORT]);
	conns = smc_genl_uint(tb[SMC_NLA_LINK_CONN_CNT]);
	ifindex = smc_genl_uint(tb[SMC_NLA_LINK_NET_DEV]);
	if (!ifindex || !if_indextoname(ifindex, ndev))
		snprintf(ndev, sizeof(ndev), "-");
	state = link_state_name(smc_genl_uint(tb[SMC_NLA_LINK_STATE]));
	ibdev = smc_genl_str(tb[SMC_NLA_LINK_IB_DEV]);
	gid = smc_genl_str(tb[SMC_NLA_LINK_GID]);
	peer_gid = smc_genl_str(tb[SMC_NLA_LINK_PEER_GID]);
	if (json)
		printf("%s{\"lgr_id\":\"%08x\",\"role\":\"%s\",\"link_id\":%u,\"state\":\"%s\",\"ib_dev\":\"%s\",\"ib_port\":%u,\"net_dev\":\"%s\",\"conns\":%u,\"gid\":\"%s\",\"peer_gid\":\"%s\"}",
		       w->count ? "," : "", w->id, w->role, id, state, ibdev,
		       port, ndev, conns, gid, peer_gid);
	else
		printf("%08x %-4s %-7u %-10s %-8s %-4u %-8s %-6u %-39s %s\n",
		       w->id, w->role, id, state, ibdev, port, ndev, conns, gid,
		       peer_gid);
	w->count++;
}

/*
 * A group's message, then (link dump) one message per link of it: one
 * line (or JSON object) per group, or per link of the groups asked for.
 */
static int lgr_cb(const struct nlattr *attrs, int len, uint8_t cmd,
		  void *arg)
{
	const struct nlattr *top[SMC_GEN_MAX + 1], *tb[SMC_NLA_LGR_R_MAX + 1];
	struct lgr_walk *w = arg;
	const char *pnetid;
	unsigned int type, vlan, conns;

	(void)cmd;
	smc_genl_parse(top, SMC_GEN_MAX, attrs, len);
	if (top[SMC_GEN_LINK_SMCR]) {
		if (w->links && w->in_want)
			link_print(top[SMC_GEN_LINK_SMCR], w);
		return 0;
	}
	if (!top[SMC_GEN_LGR_SMCR])
		return 0;
	smc_genl_parse(tb, SMC_NLA_LGR_R_MAX, smc_genl_data(top[SMC_GEN_LGR_SMCR]),
		       smc_genl_len(top[SMC_GEN_LGR_SMCR]));
	w->id = smc_genl_uint(tb[SMC_NLA_LGR_R_ID]);
	w->role = smc_genl_uint(tb[SMC_NLA_LGR_R_ROLE]) ? "SERV" : "CLNT";
	w->in_want = w->all || w->id == w->want;
	if (w->links || !w->in_want)
		return 0;
	type = smc_genl_uint(tb[SMC_NLA_LGR_R_TYPE]);
	vlan = smc_genl_uint(tb[SMC_NLA_LGR_R_VLAN_ID]);
	conns = smc_genl_uint(tb[SMC_NLA_LGR_R_CONNS_NUM]);
	pnetid = tb[SMC_NLA_LGR_R_PNETID] ? smc_genl_str(tb[SMC_NLA_LGR_R_PNETID]) : "";
	if (json)
		printf("%s{\"lgr_id\":\"%08x\",\"role\":\"%s\",\"type\":\"%s\",\"vlan\":%u,\"conns\":%u,\"pnetid\":\"%s\"}",
		       w->count ? "," : "", w->id, w->role,
		       lgr_type_name(type), vlan, conns, pnetid);
	else
		printf("%08x %-8s %-8s %-5u %-7u %s\n", w->id, w->role,
		       lgr_type_name(type), vlan, conns, *pnetid ? pnetid : "-");
	w->count++;
	return 0;
}

/* linkgroup show|link-show [all|LG-ID] */
static int do_linkgroup(int argc, char **argv)
{
	struct lgr_walk w = { .all = true };
	char *end;
	int rc;

	if (argc > 2 || (argc && strcmp(argv[0], "show") &&
			 strcmp(argv[0], "link-show")))
		goto bad;
	w.links = argc && !strcmp(argv[0], "link-show");
	if (argc == 2 && strcmp(argv[1], "all")) {
		w.all = false;
		w.want = strtoul(argv[1], &end, 16);
		if (!*argv[1] || *end)
			goto bad;
	}
	if (json)
		printf("[");
	else if (w.links)
		printf("LG-ID    Role Link-ID State      IB-Dev   Port Net-Dev  #Conns Local-GID                               Peer-GID\n");
	else
		printf("LG-ID    LG-Role  LG-Type  VLAN  #Conns  PNET-ID\n");
	rc = request(w.links ? SMC_NETLINK_GET_LINK_SMCR :
			       SMC_NETLINK_GET_LGR_SMCR, true, NULL, lgr_cb, &w);
	if (json)
		printf("]\n");
	return rc ? die_rc(rc) : 0;
bad:
	usage(stderr);
	return 1;
}

/* ---- device ----------------------------------------------------------- */

/* one line (or JSON object) per port of each SMC-R device */
static int device_cb(const struct nlattr *attrs, int len, uint8_t cmd,
		     void *arg)
{
	const struct nlattr *top[SMC_GEN_MAX + 1], *tb[SMC_NLA_DEV_MAX + 1];
	const struct nlattr *pt[SMC_NLA_DEV_PORT_MAX + 1];
	char ndev[IF_NAMESIZE], pci[32];
	unsigned int *count = arg;
	unsigned int ifindex;
	int port;

	(void)cmd;
	smc_genl_parse(top, SMC_GEN_MAX, attrs, len);
	if (!top[SMC_GEN_DEV_SMCR])
		return 0;
	smc_genl_parse(tb, SMC_NLA_DEV_MAX, smc_genl_data(top[SMC_GEN_DEV_SMCR]),
		       smc_genl_len(top[SMC_GEN_DEV_SMCR]));
	if (tb[SMC_NLA_DEV_PCI_ID])
		snprintf(pci, sizeof(pci), "%04x:%04x",
			 (unsigned int)smc_genl_uint(tb[SMC_NLA_DEV_PCI_VENDOR]),
			 (unsigned int)smc_genl_uint(tb[SMC_NLA_DEV_PCI_DEVICE]));
	else
		snprintf(pci, sizeof(pci), "n/a");
	for (port = 1; port <= 2; port++) {
		const struct nlattr *nest = tb[SMC_NLA_DEV_PORT + port - 1];
		const char *pnetid;
		bool active, crit;
		uint64_t links;

		if (!nest)
			continue;
		smc_genl_parse(pt, SMC_NLA_DEV_PORT_MAX, smc_genl_data(nest),
			       smc_genl_len(nest));
		if (!smc_genl_uint(pt[SMC_NLA_DEV_PORT_VALID]))
			continue;
		ifindex = smc_genl_uint(pt[SMC_NLA_DEV_PORT_NETDEV]);
		if (!ifindex || !if_indextoname(ifindex, ndev))
			snprintf(ndev, sizeof(ndev), "n/a");
		active = smc_genl_uint(pt[SMC_NLA_DEV_PORT_STATE]);
		crit = smc_genl_uint(tb[SMC_NLA_DEV_IS_CRIT]);
		links = smc_genl_uint(pt[SMC_NLA_DEV_PORT_LNK_CNT]);
		pnetid = smc_genl_str(pt[SMC_NLA_DEV_PORT_PNETID]);
		if (json) {
			printf("%s{\"net_dev\":\"%s\",\"ifindex\":%u,",
			       *count ? "," : "", ndev, ifindex);
			printf("\"ib_dev\":\"%s\",\"ib_port\":%d,",
			       smc_genl_str(tb[SMC_NLA_DEV_IB_NAME]), port);
			printf("\"state\":\"%s\",\"pci\":\"%s\",",
			       active ? "ACTIVE" : "INACTIVE", pci);
			printf("\"crit\":%s,\"links\":%" PRIu64 ",",
			       crit ? "true" : "false", links);
			printf("\"pnetid\":\"%s\",\"pnet_usr\":%s}", pnetid,
			       smc_genl_uint(pt[SMC_NLA_DEV_PORT_PNET_USR]) ?
			       "true" : "false");
		} else {
			printf("%-8s  %-8s  %4d  %-8s  %-9s  %-4s  %6" PRIu64
			       "  %s%s\n",
			       ndev, smc_genl_str(tb[SMC_NLA_DEV_IB_NAME]), port,
			       active ? "ACTIVE" : "INACTIVE", pci,
			       crit ? "Yes" : "No", links, pnetid,
			       smc_genl_uint(pt[SMC_NLA_DEV_PORT_PNET_USR]) ?
			       " *" : "");
		}
		++*count;
	}
	return 0;
}

static int do_device(int argc, char **argv)
{
	unsigned int n = 0;
	int rc;

	if (argc > 1 || (argc && strcmp(argv[0], "show"))) {
		usage(stderr);
		return 1;
	}
	if (json)
		printf("[");
	else
		printf("%-8s  %-8s  %4s  %-8s  %-9s  %-4s  %6s  %s\n",
		       "Net-Dev", "IB-Dev", "IB-P", "IB-State", "PCI",
		       "Crit", "#Links", "PNET-ID");
	rc = request(SMC_NETLINK_GET_DEV_SMCR, true, NULL, device_cb, &n);
	if (json)
		printf("]\n");
	if (rc)
		return die_rc(rc);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json",	no_argument, NULL, 'j' },
		{ "absolute",	no_argument, NULL, 'a' },
		{ "version",	no_argument, NULL, 'v' },
		{ "help",	no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *obj;
	int c, rc;

	while ((c = getopt_long(argc, argv, "+javh", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'a':
			absolute = true;
			break;
		case 'v':
			printf("%s (smc-r tools) %s\n", prog, SMC_TOOLS_VERSION);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 1;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return 1;
	}
	obj = argv[optind++];
	argc -= optind;
	argv += optind;

	rc = smc_genl_open(&g, SMC_GENL_FAMILY_NAME);
	if (rc == -ENOENT) {
		fprintf(stderr, "%s: SMC module not loaded\n", prog);
		return 1;
	}
	if (rc)
		return die_rc(rc);
	if (!strcmp(obj, "info") && !argc) {
		rc = request(SMC_NETLINK_GET_SYS_INFO, true, NULL, info_cb, NULL);
	} else if (!strcmp(obj, "ueid")) {
		rc = do_ueid(argc, argv);
	} else if (!strcmp(obj, "stats") || !strcmp(obj, "statistics")) {
		rc = do_stats(argc, argv);
	} else if (!strcmp(obj, "linkgroup")) {
		rc = do_linkgroup(argc, argv);
	} else if (!strcmp(obj, "device")) {
		rc = do_device(argc, argv);
	} else {
		usage(stderr);
		rc = 1;
	}
	smc_genl_close(&g);
	if (rc < 0)
		return die_rc(rc);
	return rc;
}
