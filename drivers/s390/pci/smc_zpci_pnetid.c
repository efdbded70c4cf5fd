// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * PNETIDs from zPCI functions.
 *
 * The utility string of a zPCI function is 64 bytes of EBCDIC, read by
 * the kernel with CLP Query PCI Function together with a bit that says
 * whether the platform supplied one.  For network functions it holds one
 * 16-byte PNETID per physical port, port 0 first, each left-justified
 * and padded with blanks (0x40) or NULs.
 *
 * A field is accepted under the rules the PNETID table applies to ids an
 * administrator enters: 1 to 16 letters and digits, stored upper-cased.
 * Since the field has a fixed width there is nothing to trim: the id
 * starts in its first byte and everything after the first pad byte must
 * be padding too.  A field that breaks these rules is reported as
 * malformed rather than guessed at, and SMC-R then treats the port as
 * one without a hardware PNETID.
 */

#include <linux/ctype.h>
#include <linux/device.h>
#include <linux/errno.h>
#include <linux/string.h>

#if IS_ENABLED(CONFIG_S390) && IS_ENABLED(CONFIG_PCI)
#include <linux/pci.h>
#include <asm/pci.h>
#endif

#include "../../../net/smc/smc_compat.h"
#include "smc_zpci_pnetid.h"

/*
 * The EBCDIC characters a PNETID field may hold, as runs of consecutive
 * codes: code page 037 and 500 (and the other Latin-1 EBCDIC pages)
 * agree on all of them.  Letters come in three runs per case, with gaps
 * between I and J and between R and S.
 */
struct smc_zpci_ebcdic_run {
	u8	first;		/* first EBCDIC code of the run */
	u8	last;		/* last one */
	char	ascii;		/* ASCII of @first */
};

static const struct smc_zpci_ebcdic_run smc_zpci_ebcdic_runs[] = {
	{ 0x00, 0x00, '\0' },
	{ 0x40, 0x40, ' ' },
	{ 0x81, 0x89, 'a' },	/* a..i */
	{ 0x91, 0x99, 'j' },	/* j..r */
	{ 0xa2, 0xa9, 's' },	/* s..z */
	{ 0xc1, 0xc9, 'A' },	/* A..I */
	{ 0xd1, 0xd9, 'J' },	/* J..R */
	{ 0xe2, 0xe9, 'S' },	/* S..Z */
	{ 0xf0, 0xf9, '0' },	/* 0..9 */
};

/* the ASCII of EBCDIC @c, or -1 if no PNETID may contain it */
static int smc_zpci_ebcdic_to_ascii(u8 c)
{
	const struct smc_zpci_ebcdic_run *r;
	int i;

	for (i = 0; i < ARRAY_SIZE(smc_zpci_ebcdic_runs); i++) {
		r = &smc_zpci_ebcdic_runs[i];
		if (c >= r->first && c <= r->last)
			return r->ascii + (c - r->first);
	}
	return -1;
}

/**
 * smc_zpci_util_pnetid() - the PNETID of one port in a utility string
 * @util: the utility string, EBCDIC
 * @len: its length in bytes (SMC_ZPCI_UTIL_LEN for a zPCI function)
 * @port: port index, from 0; the port's field starts at byte 16 * @port
 * @pnetid: SMC_ZPCI_PNETID_LEN + 1 bytes for the result
 *
 * Context: any.
 * Return: 0 and the PNETID in ASCII, upper-cased and NUL-terminated, in
 * @pnetid; else @pnetid is "" and the return is -ERANGE if @util has no
 * complete field for @port, -ENOENT if the field is all padding (no
 * PNETID for this port), or -EILSEQ if it holds anything but 1 to 16
 * letters and digits followed by padding.
 */
int smc_zpci_util_pnetid(const u8 *util, size_t len, unsigned int port,
			 char *pnetid)
{
	const u8 *field;
	bool padded = false;
	int i, c, n = 0;

	pnetid[0] = '\0';
	if (port >= len / SMC_ZPCI_PNETID_LEN)
		return -ERANGE;
	field = util + port * SMC_ZPCI_PNETID_LEN;
	for (i = 0; i < SMC_ZPCI_PNETID_LEN; i++) {
		c = smc_zpci_ebcdic_to_ascii(field[i]);
		if (c == ' ' || c == '\0') {
			padded = true;
			continue;
		}
		if (c < 0 || padded) {
			pnetid[0] = '\0';
			return -EILSEQ;
		}
		pnetid[n++] = toupper(c);
	}
	pnetid[n] = '\0';
	return n ? 0 : -ENOENT;
}
EXPORT_SYMBOL_IF_KUNIT(smc_zpci_util_pnetid);

/**
 * smc_zpci_fn_get() - the zPCI function a device sits on
 * @dev: a device, held by the caller: an RDMA device's or a netdev's
 *	parent; may be NULL
 * @fn: the result, zeroed if there is none
 *
 * @dev itself if it is a PCI function, else its nearest PCI ancestor:
 * a RoCE driver makes the PCI function the parent of its RDMA device and
 * netdev, virtio-net-pci puts a virtio device in between.  There are
 * zPCI functions only on s390 with PCI.
 *
 * Context: any; the caller's reference on @dev keeps its ancestors.
 * Return: 0, -ENODEV if @dev is not on a zPCI function, or -EOPNOTSUPP
 * on other architectures.
 */
int smc_zpci_fn_get(struct device *dev, struct smc_zpci_fn *fn)
{
#if IS_ENABLED(CONFIG_S390) && IS_ENABLED(CONFIG_PCI)
	struct zpci_dev *zdev;

	BUILD_BUG_ON(sizeof(zdev->util_str) != SMC_ZPCI_UTIL_LEN);
	memset(fn, 0, sizeof(*fn));
	while (dev && !dev_is_pci(dev))
		dev = dev->parent;
	if (!dev)
		return -ENODEV;
	zdev = to_zpci(to_pci_dev(dev));
	if (!zdev)
		return -ENODEV;
	fn->fid = zdev->fid;
	fn->uid = zdev->uid;
	fn->pchid = zdev->pchid;
	fn->util_avail = zdev->util_str_avail;
	if (fn->util_avail)
		memcpy(fn->util, zdev->util_str, SMC_ZPCI_UTIL_LEN);
	return 0;
#else
	memset(fn, 0, sizeof(*fn));
	return -EOPNOTSUPP;
#endif
}
EXPORT_SYMBOL_IF_KUNIT(smc_zpci_fn_get);

/**
 * smc_zpci_pnetid() - the hardware PNETID of a port
 * @dev: the port's device, see smc_zpci_fn_get()
 * @port: port index on that device, from 0 (RDMA port 1 is index 0; a
 *	netdev's index is its dev_port)
 * @pnetid: SMC_ZPCI_PNETID_LEN + 1 bytes for the result
 *
 * Context: any; the caller holds a reference on @dev.
 * Return: 0 and the PNETID in @pnetid; else @pnetid is "" and the
 * return is -EOPNOTSUPP off s390, -ENODEV if @dev is not on a zPCI
 * function, -ENODATA if that function has no utility string, or an
 * error of smc_zpci_util_pnetid().
 */
int smc_zpci_pnetid(struct device *dev, unsigned int port, char *pnetid)
{
	struct smc_zpci_fn fn;
	int rc;

	pnetid[0] = '\0';
	rc = smc_zpci_fn_get(dev, &fn);
	if (rc)
		return rc;
	if (!fn.util_avail)
		return -ENODATA;
	return smc_zpci_util_pnetid(fn.util, sizeof(fn.util), port, pnetid);
}
EXPORT_SYMBOL_IF_KUNIT(smc_zpci_pnetid);
