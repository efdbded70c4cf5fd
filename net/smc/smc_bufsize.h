/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * Sizes of a connection's send buffer and RMB: half the socket's buffer
 * size, rounded up to the 16 KiB << n steps the CLC messages can carry,
 * and one step smaller at a time when the allocation fails.
 */
#ifndef _NET_SMC_BUFSIZE_H
#define _NET_SMC_BUFSIZE_H

#include <linux/types.h>

#define SMC_BUF_MIN_SIZE	16384	/* n = 0 */
#define SMC_BUF_MAX_SIZE	(SMC_BUF_MIN_SIZE << 15)	/* 512 MiB */

unsigned int smc_bufsize_round(unsigned int bytes, u8 *comp);
unsigned int smc_bufsize_select(int sk_buf, u8 *comp);
unsigned int smc_bufsize_step_down(u8 *comp);

#endif /* _NET_SMC_BUFSIZE_H */
