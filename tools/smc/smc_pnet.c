// SPDX-License-Identifier: GPL-2.0
/*
 * smc_pnet - show and change the SMC PNETID table
 *
 * Talks to the kernel's "SMC_PNETID" generic netlink family.  The
 * options and the output lines ("PNETID ETHNAME IBNAME IBPORT") are
 * those of smc-tools' smc_pnet, so scripts written for it keep working.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/smc.h>

#include "smc_genl.h"
#include "smc_json.h"

#ifndef SMC_TOOLS_VERSION
#define SMC_TOOLS_VERSION "0.1"
#endif

static const char *prog = "smc_pnet";
static bool json;
static unsigned int json_count;

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s [OPTIONS] [PNETID]\n"
		"Show or change the SMC PNETID table of this network namespace.\n"
		"\n"
		"  (no option)          show the whole table\n"
		"  -a, --add PNETID     add an entry; needs -I and/or -D\n"
		"  -I, --interface ETH  Ethernet interface of the entry\n"
		"  -D, --ibdevice DEV   RDMA device of the entry\n"
		"  -P, --ibport PORT    RDMA port, 1 (default) or 2\n"
		"  -s, --show PNETID    show the entries of PNETID\n"
		"  -d, --delete PNETID  delete the entries of PNETID\n"
		"  -f, --flush          delete every entry\n"
		"  -j, --json           show entries as a JSON array\n"
		"  -v, --version        print the version and exit\n"
		"  -h, --help           print this help and exit\n"
		"\n"
		"Output: one line per entry, \"PNETID ETHNAME IBNAME IBPORT\";\n"
		"n/a and 255 stand for the missing half of an entry.\n",
		prog);
}

static int print_entry(const struct nlattr *attrs, int len, uint8_t cmd,
		       void *arg)
{
	const struct nlattr *tb[SMC_PNETID_MAX + 1];

	(void)cmd;
	(void)arg;
	smc_genl_parse(tb, SMC_PNETID_MAX, attrs, len);
	if (!tb[SMC_PNETID_NAME] || !tb[SMC_PNETID_ETHNAME] ||
	    !tb[SMC_PNETID_IBNAME] || !tb[SMC_PNETID_IBPORT]) {
		fprintf(stderr, "%s: invalid data returned\n", prog);
		return -EPROTO;
	}
	if (!json) {
		printf("%s %s %s %u\n", smc_genl_str(tb[SMC_PNETID_NAME]),
		       smc_genl_str(tb[SMC_PNETID_ETHNAME]),
		       smc_genl_str(tb[SMC_PNETID_IBNAME]),
		       (unsigned int)smc_genl_uint(tb[SMC_PNETID_IBPORT]));
		return 0;
	}
	printf("%s{\"pnetid\":", json_count++ ? ",\n  " : "\n  ");
	smc_json_str(smc_genl_str(tb[SMC_PNETID_NAME]));
	printf(",\"ethname\":");
	smc_json_str(smc_genl_str(tb[SMC_PNETID_ETHNAME]));
	printf(",\"ibname\":");
	smc_json_str(smc_genl_str(tb[SMC_PNETID_IBNAME]));
	printf(",\"ibport\":%u}",
	       (unsigned int)smc_genl_uint(tb[SMC_PNETID_IBPORT]));
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "add",	no_argument, NULL, 'a' },
		{ "interface",	required_argument, NULL, 'I' },
		{ "ibdevice",	required_argument, NULL, 'D' },
		{ "ibport",	required_argument, NULL, 'P' },
		{ "show",	no_argument, NULL, 's' },
		{ "delete",	no_argument, NULL, 'd' },
		{ "flush",	no_argument, NULL, 'f' },
		{ "json",	no_argument, NULL, 'j' },
		{ "version",	no_argument, NULL, 'v' },
		{ "help",	no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *pnetid = NULL, *eth = NULL, *ibdev = NULL;
	struct smc_genl_msg m;
	struct smc_genl g;
	int cmd = 0, port = 0, c, rc;
	uint16_t flags = 0;
	char *end;

	while ((c = getopt_long(argc, argv, "aI:D:P:sdfjvh", opts,
				NULL)) != -1) {
		int want = 0;

		switch (c) {
		case 'a':
			want = SMC_PNETID_ADD;
			break;
		case 's':
			want = SMC_PNETID_GET;
			break;
		case 'd':
			want = SMC_PNETID_DEL;
			break;
		case 'f':
			want = SMC_PNETID_FLUSH;
			break;
		case 'I':
			eth = optarg;
			continue;
		case 'D':
			ibdev = optarg;
			continue;
		case 'P':
			errno = 0;
			port = strtol(optarg, &end, 0);
			if (errno || *end || port < 1 || port > 2) {
				fprintf(stderr, "%s: invalid ib port: %s\n",
					prog, optarg);
				return 1;
			}
			continue;
		case 'j':
			json = true;
			continue;
		case 'v':
			printf("%s (smc-r tools) %s\n", prog,
			       SMC_TOOLS_VERSION);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 1;
		}
		if (cmd) {
			fprintf(stderr, "%s: only one of -a, -s, -d, -f\n",
				prog);
			return 1;
		}
		cmd = want;
	}
	/* the PNETID is an operand: "-a ID -I eth0" and "-a -I eth0 ID" */
	if (optind + 1 < argc || (optind < argc && (!cmd ||
						    cmd == SMC_PNETID_FLUSH))) {
		fprintf(stderr, "%s: unexpected argument: %s\n", prog,
			argv[argc - 1]);
		usage(stderr);
		return 1;
	}
	if (optind < argc)
		pnetid = argv[optind];
	if (!cmd)
		cmd = SMC_PNETID_GET;
	if (cmd == SMC_PNETID_GET && !pnetid)
		flags = NLM_F_DUMP;
	if ((cmd == SMC_PNETID_ADD || cmd == SMC_PNETID_DEL) && !pnetid) {
		fprintf(stderr, "%s: PNETID missing\n", prog);
		return 1;
	}
	if (cmd == SMC_PNETID_ADD && !eth && !ibdev) {
		fprintf(stderr, "%s: interface or device missing\n", prog);
		return 1;
	}
	if (cmd != SMC_PNETID_ADD && (eth || ibdev || port)) {
		fprintf(stderr, "%s: -I, -D and -P only go with -a\n", prog);
		return 1;
	}

	rc = smc_genl_open(&g, SMCR_GENL_FAMILY_NAME);
	if (rc == -ENOENT) {
		fprintf(stderr, "%s: SMC module not loaded\n", prog);
		return 1;
	}
	if (rc) {
		fprintf(stderr, "%s: netlink: %s\n", prog, strerror(-rc));
		return 1;
	}
	smc_genl_msg_init(&m, &g, cmd, flags);
	rc = 0;
	if (pnetid)
		rc = smc_genl_put_str(&m, SMC_PNETID_NAME, pnetid);
	if (!rc && eth)
		rc = smc_genl_put_str(&m, SMC_PNETID_ETHNAME, eth);
	if (!rc && ibdev) {
		rc = smc_genl_put_str(&m, SMC_PNETID_IBNAME, ibdev);
		if (!rc)
			rc = smc_genl_put_u8(&m, SMC_PNETID_IBPORT,
					     port ? port : 1);
	}
	if (rc) {
		fprintf(stderr, "%s: argument too long\n", prog);
		smc_genl_close(&g);
		return 1;
	}
	if (json && cmd == SMC_PNETID_GET)
		printf("[");
	rc = smc_genl_talk(&g, &m, print_entry, NULL);
	if (json && cmd == SMC_PNETID_GET)
		printf("%s]\n", json_count ? "\n" : "");
	smc_genl_close(&g);
	if (rc) {
		fprintf(stderr, "%s: %s\n", prog, strerror(-rc));
		return 1;
	}
	return 0;
}
