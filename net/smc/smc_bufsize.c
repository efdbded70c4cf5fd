// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * Buffer size selection for send buffers and RMBs.  The encoding is the
 * CLC one (smc_clc_bufsize_compress()), so that the size we allocate is
 * exactly the size we can announce.
 */

#include <linux/kernel.h>
#include <linux/module.h>

#include "smc_bufsize.h"
#include "smc_clc_wire.h"
#include "smc_compat.h"

/**
 * smc_bufsize_round() - the buffer size for a wanted number of bytes
 * @bytes: wanted size
 * @comp: set to the compressed size n
 *
 * Context: any context.
 * Return: the first 16 KiB << n at or above @bytes, at least 16 KiB and
 * at most 512 MiB.
 */
unsigned int smc_bufsize_round(unsigned int bytes, u8 *comp)
{
	*comp = smc_clc_bufsize_compress(bytes, SMC_CLC_BUF_COMP_MAX_R);
	return smc_clc_bufsize_decompress(*comp);
}
EXPORT_SYMBOL_IF_KUNIT(smc_bufsize_round);

/**
 * smc_bufsize_select() - the first size to try for a socket's buffer
 * @sk_buf: sk_sndbuf for a send buffer, sk_rcvbuf for an RMB
 * @comp: set to the compressed size n
 *
 * Half the socket buffer, as with TCP half of it is for data and half
 * for overhead; net.smc.wmem/rmem of 64 KiB make sk_*buf 128 KiB, so
 * 64 KiB buffers.
 *
 * Context: any context.
 * Return: the size, see smc_bufsize_round().
 */
unsigned int smc_bufsize_select(int sk_buf, u8 *comp)
{
	return smc_bufsize_round(sk_buf > 0 ? sk_buf / 2 : 0, comp);
}
EXPORT_SYMBOL_IF_KUNIT(smc_bufsize_select);

/**
 * smc_bufsize_step_down() - the next smaller size after a failed allocation
 * @comp: the compressed size that failed; decremented
 *
 * Context: any context.
 * Return: the next smaller size, or 0 if 16 KiB failed already.
 */
unsigned int smc_bufsize_step_down(u8 *comp)
{
	if (!*comp)
		return 0;
	(*comp)--;
	return smc_clc_bufsize_decompress(*comp);
}
EXPORT_SYMBOL_IF_KUNIT(smc_bufsize_step_down);
