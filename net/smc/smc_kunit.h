/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * What the KUnit suites of smc_kunit share.
 */
#ifndef _NET_SMC_KUNIT_H
#define _NET_SMC_KUNIT_H

#include <kunit/test.h>
#include <rdma/ib_verbs.h>

struct ib_device *smc_kunit_rdma_dev(struct kunit *test, const char *name);

#endif /* _NET_SMC_KUNIT_H */
