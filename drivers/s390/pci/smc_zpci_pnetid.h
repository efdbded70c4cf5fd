/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * PNETIDs from zPCI functions.  On IBM Z the machine's I/O configuration
 * names the physical network of every port of a PCI function (a RoCE
 * Express adapter, say) and hands it to the operating system in the
 * function's CLP utility string, so that SMC-R can pair RoCE ports and
 * netdevs without a PNETID table.
 *
 * The parser is plain C and builds everywhere (KUnit runs it on amd64);
 * the look-up of a device's zPCI function exists only on s390 and fails
 * with -EOPNOTSUPP elsewhere.
 */
#ifndef _SMC_ZPCI_PNETID_H
#define _SMC_ZPCI_PNETID_H

#include <linux/types.h>

struct device;

#define SMC_ZPCI_UTIL_LEN	64	/* CLP_UTIL_STR_LEN */
#define SMC_ZPCI_PNETID_LEN	16	/* the field of one port */
#define SMC_ZPCI_MAX_PORTS	(SMC_ZPCI_UTIL_LEN / SMC_ZPCI_PNETID_LEN)

/**
 * struct smc_zpci_fn - the parts of a zPCI function SMC-R reads
 * @fid: function id, as in /sys/bus/pci/devices/.../function_id
 * @uid: user-defined id (uid)
 * @pchid: physical channel id (pchid)
 * @util_avail: the platform reported a utility string
 * @util: the utility string as reported (EBCDIC); zero without one
 */
struct smc_zpci_fn {
	u32	fid;
	u32	uid;
	u16	pchid;
	bool	util_avail;
	u8	util[SMC_ZPCI_UTIL_LEN];
};

int smc_zpci_util_pnetid(const u8 *util, size_t len, unsigned int port,
			 char *pnetid);
int smc_zpci_fn_get(struct device *dev, struct smc_zpci_fn *fn);
int smc_zpci_pnetid(struct device *dev, unsigned int port, char *pnetid);

#endif /* _SMC_ZPCI_PNETID_H */
