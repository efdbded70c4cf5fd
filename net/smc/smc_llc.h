/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * Inside LLC: what the message path (smc_llc.c) gives the flows that add
 * and delete links (smc_llc_link.c).  Nothing outside these two files
 * includes it; the rest of the module sees LLC through smc_lgr.h.
 */
#ifndef _NET_SMC_LLC_H
#define _NET_SMC_LLC_H

#include "smc_lgr.h"

#define SMC_LLC_KEY_RESP	0x80	/* in llc_want: a response */

/* a received message waiting for the LLC receive or flow work */
struct smc_llc_qentry {
	struct list_head	list;
	u8			lnk_idx;
	unsigned int		len;
	u8			buf[];
};

struct smc_llc_sent;

/* what a waiter waits for: the message type, and whether a response */
static inline u8 smc_llc_key(u8 type, u8 flags)
{
	return type | (flags & SMC_LLC_FLAG_RESP ? SMC_LLC_KEY_RESP : 0);
}

void smc_llc_count_late(struct smc_link_group *lgr);
void smc_llc_init_msg(struct smc_lgr_link *lnk, struct smc_llc_msg_info *m,
		      u8 type, u8 flags);
int smc_llc_send_msg(struct smc_lgr_link *lnk, const struct smc_llc_msg_info *m,
		     struct smc_llc_sent *sent);
int smc_llc_send_wait(struct smc_lgr_link *lnk,
		      const struct smc_llc_msg_info *m);
void smc_llc_want(struct smc_lgr_link *lnk, u8 key, bool keep_early);
int smc_llc_wait(struct smc_lgr_link *lnk, u8 key, long timeout,
		 const bool *cancel, struct smc_llc_msg_info *m);
int smc_llc_xchg(struct smc_lgr_link *lnk, const struct smc_llc_msg_info *req,
		 long timeout, const bool *cancel,
		 struct smc_llc_msg_info *resp);
void smc_llc_link_active(struct smc_lgr_link *lnk, enum smc_lgr_type type);
void smc_llc_confirm_msg(struct smc_lgr_link *lnk, struct smc_llc_msg_info *m,
			 u8 flags);
int smc_llc_link_ready(struct smc_lgr_link *lnk);
struct smc_lgr_link *smc_llc_link_by_id(struct smc_link_group *lgr,
					u8 link_id);
struct smc_llc_qentry *smc_llc_pop(struct smc_link_group *lgr,
				   struct list_head *list, unsigned int *cnt);

#endif /* _NET_SMC_LLC_H */
