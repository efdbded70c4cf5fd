// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * Buffers of a link group (protocol reference 7.2) and the peer's
 * rtokens.  A buffer is physically contiguous memory of 16 KiB << comp;
 * an RMB is registered for RDMA WRITE on each usable link, a send buffer
 * DMA-mapped on each.  Buffers are kept in the group when a connection
 * is done with them and reused by the next one of the same size, so
 * registration (slow, a work request round trip) stays off the
 * connection set-up path once a group is warm.
 */

#include <linux/bitmap.h>
#include <linux/gfp.h>
#include <linux/slab.h>

#include "smc_bufsize.h"
#include "smc_compat.h"
#include "smc_lgr.h"

#define SMC_BUF_USED	0	/* bit in smc_buf_desc.used */

static bool smc_buf_link_usable(const struct smc_lgr_link *lnk)
{
	return lnk->state == SMC_LNK_ACTIVATING || lnk->state == SMC_LNK_ACTIVE;
}

/*
 * Register or map @desc on link @lnk; lgr->bufs_lock held.  An RMB gets
 * its MR (and so the rkey CLC advertises) on any usable link, and the MR
 * is made valid with IB_WR_REG_MR, a send work request, once the QP is
 * in RTS: smc_buf_reg_link() does that for a link that just got there.
 */
static int smc_buf_reg_one(struct smc_lgr_link *lnk, struct smc_buf_desc *desc)
{
	struct smc_wr_mr *mr = &desc->mr[lnk->idx];
	int rc = 0;

	lockdep_assert_held(&lnk->lgr->bufs_lock);
	if (!test_bit(lnk->idx, &desc->regd)) {
		if (desc->is_rmb)
			rc = smc_wr_mr_prepare(&lnk->wr, desc->cpu_addr,
					       desc->len, mr);
		else
			rc = smc_wr_dma_map(&lnk->wr, desc->cpu_addr, desc->len,
					    &desc->dma[lnk->idx]);
		if (rc)
			return rc;
		set_bit(lnk->idx, &desc->regd);
	}
	if (!desc->is_rmb || test_bit(lnk->idx, &desc->live) ||
	    READ_ONCE(lnk->wr.qp_state) != SMC_WR_QP_RTS)
		return 0;
	rc = smc_wr_mr_post(&lnk->wr, mr);
	if (!rc)
		set_bit(lnk->idx, &desc->live);
	return rc;
}

static void smc_buf_unreg_one(struct smc_lgr_link *lnk,
			      struct smc_buf_desc *desc)
{
	clear_bit(lnk->idx, &desc->live);
	if (!test_and_clear_bit(lnk->idx, &desc->regd))
		return;
	if (desc->is_rmb)
		smc_wr_mr_unregister(&lnk->wr, &desc->mr[lnk->idx]);
	else
		smc_wr_dma_unmap(&lnk->wr, desc->dma[lnk->idx], desc->len);
}

static void smc_buf_free_one(struct smc_buf_desc *desc)
{
	if (desc->cpu_addr)
		free_pages((unsigned long)desc->cpu_addr,
			   get_order(desc->len));
	kfree(desc);
}

/*
 * Undo a buffer's registrations on every link, then free it; a link it
 * is not registered on is skipped, and a link whose IB_WR_REG_MR failed
 * has its MR released too, or it would keep the PD busy.
 */
static void smc_buf_destroy(struct smc_link_group *lgr,
			    struct smc_buf_desc *desc)
{
	int i;

	lockdep_assert_held(&lgr->bufs_lock);
	for (i = 0; i < SMC_LINKS_PER_LGR_MAX; i++)
		smc_buf_unreg_one(&lgr->lnk[i], desc);
	smc_buf_free_one(desc);
}

/* a new buffer of compressed size @comp, registered; bufs_lock held */
static struct smc_buf_desc *smc_buf_alloc(struct smc_link_group *lgr,
					  bool is_rmb, u8 comp)
{
	struct smc_buf_desc *desc;
	unsigned int len = SMC_BUF_MIN_SIZE << comp;
	int i;

	lockdep_assert_held(&lgr->bufs_lock);
	desc = kzalloc(sizeof(*desc), GFP_KERNEL);
	if (!desc)
		return NULL;
	desc->cpu_addr = (void *)__get_free_pages(GFP_KERNEL | __GFP_NOWARN |
						  __GFP_NORETRY | __GFP_ZERO |
						  __GFP_COMP,
						  get_order(len));
	if (!desc->cpu_addr) {
		kfree(desc);
		return NULL;
	}
	desc->len = len;
	desc->comp = comp;
	desc->is_rmb = is_rmb;
	for (i = 0; i < SMC_LINKS_PER_LGR_MAX; i++) {
		struct smc_lgr_link *lnk = &lgr->lnk[i];

		if (!smc_buf_link_usable(lnk))
			continue;
		if (smc_buf_reg_one(lnk, desc)) {
			smc_buf_destroy(lgr, desc);
			return NULL;
		}
	}
	return desc;
}

/*
 * How long an RMB we aborted on is kept from reuse: the peer stops
 * writing once it has our ABORT, and what it posted before lands within
 * its RC retries (SMC_WR_QP_RETRY of about 134 ms each).  A path dead
 * for longer ends the link group, and its buffers with it.
 */
#define SMC_BUF_QUARANTINE_TIME	(2 * HZ)

/* take @desc if it is free and out of quarantine */
static bool smc_buf_claim(struct smc_buf_desc *desc)
{
	unsigned long end;

	if (test_and_set_bit(SMC_BUF_USED, &desc->used))
		return false;
	/* read after the claim, which orders it after the owner's put */
	end = READ_ONCE(desc->quarantine_end);
	if (!end)
		return true;
	if (time_before(jiffies, end)) {
		clear_bit_unlock(SMC_BUF_USED, &desc->used);
		return false;
	}
	/* what landed late is none of the new owner's data */
	memset(desc->cpu_addr, 0, desc->len);
	desc->quarantine_end = 0;
	return true;
}

/* any free buffer of @lists, the largest first */
static struct smc_buf_desc *smc_buf_take_free(struct smc_link_group *lgr,
					      struct list_head *lists)
{
	struct smc_buf_desc *desc;
	int i;

	lockdep_assert_held(&lgr->bufs_lock);
	for (i = SMC_BUF_COMP_SLOTS - 1; i >= 0; i--)
		list_for_each_entry(desc, &lists[i], list)
			if (smc_buf_claim(desc))
				return desc;
	return NULL;
}

/**
 * smc_buf_get() - a send buffer or RMB for a connection
 * @lgr: the group
 * @is_rmb: an RMB rather than a send buffer
 * @size: the size wanted, rounded up to 16 KiB << n
 *
 * A free buffer of that size in the group is reused as it is (still
 * registered); otherwise one is allocated and registered on every
 * usable link: a send buffer DMA-mapped, an RMB with its rkey fixed and,
 * where the QP is in RTS, valid (the others make it valid in
 * smc_buf_reg_link()).  When memory is short the size steps down.
 * The buffer's content is zero.
 *
 * The peer keeps an rtoken for every RMB of the group and has room for
 * SMC_RMBS_PER_LGR_MAX.  RMBs are kept until the group ends, so one
 * that served many sizes could run out of rtokens before connections:
 * at that limit a free RMB of another size is taken instead (the CLC
 * handshake tells the peer the size).  Only when all are in use is one
 * more allocated, for a handshake that lost the race for the group's
 * last connection and is about to try another group; smc_buf_put()
 * frees it again.
 *
 * Context: process context.
 * Return: the buffer, marked used, or NULL.
 */
struct smc_buf_desc *smc_buf_get(struct smc_link_group *lgr, bool is_rmb,
				 unsigned int size)
{
	struct smc_buf_desc *desc;
	struct list_head *lists = is_rmb ? lgr->rmbs : lgr->sndbufs;
	u8 comp;

	if (!smc_bufsize_round(size, &comp))
		return NULL;
	mutex_lock(&lgr->bufs_lock);
	do {
		list_for_each_entry(desc, &lists[comp], list) {
			if (smc_buf_claim(desc))
				goto out;
		}
		if (is_rmb && lgr->rmbs_num >= SMC_RMBS_PER_LGR_MAX) {
			desc = smc_buf_take_free(lgr, lists);
			if (desc)
				goto out;
			/*
			 * Every RMB in use: the group is full, and a
			 * handshake that raced for its last place moves
			 * on to another group (smc_conn_create()).
			 */
		}
		desc = smc_buf_alloc(lgr, is_rmb, comp);
		if (desc) {
			set_bit(SMC_BUF_USED, &desc->used);
			list_add(&desc->list, &lists[comp]);
			if (is_rmb) {
				WRITE_ONCE(lgr->alloc_rmbs,
					   lgr->alloc_rmbs + desc->len);
				lgr->rmbs_num++;
			} else {
				WRITE_ONCE(lgr->alloc_sndbufs,
					   lgr->alloc_sndbufs + desc->len);
			}
			goto out;
		}
	} while (smc_bufsize_step_down(&comp));
out:
	mutex_unlock(&lgr->bufs_lock);
	return desc;
}
EXPORT_SYMBOL_IF_KUNIT(smc_buf_get);

/*
 * Over the limit, an RMB nobody announced is freed rather than kept: it
 * served a handshake that left for another group (smc_buf_get()), and a
 * later connection taking it would announce one RMB more than the peer
 * has rtokens for.
 */
static bool smc_buf_drop_extra(struct smc_link_group *lgr,
			       struct smc_buf_desc *desc)
{
	mutex_lock(&lgr->bufs_lock);
	if (desc->confirmed || lgr->rmbs_num <= SMC_RMBS_PER_LGR_MAX) {
		mutex_unlock(&lgr->bufs_lock);
		return false;
	}
	list_del(&desc->list);
	lgr->rmbs_num--;
	WRITE_ONCE(lgr->alloc_rmbs, lgr->alloc_rmbs - desc->len);
	smc_buf_destroy(lgr, desc);
	mutex_unlock(&lgr->bufs_lock);
	return true;
}

/**
 * smc_buf_put() - a connection is done with a buffer
 * @lgr: its group
 * @desc: the buffer; an RMB announced by CONFIRM_RKEY stays announced
 *	(smc_llc_delete_rkey() withdraws it)
 *
 * The buffer is zeroed and free for reuse in the group.
 *
 * Context: process context.
 */
void smc_buf_put(struct smc_link_group *lgr, struct smc_buf_desc *desc)
{
	if (!desc)
		return;
	if (desc->is_rmb && smc_buf_drop_extra(lgr, desc))
		return;
	memset(desc->cpu_addr, 0, desc->len);
	clear_bit_unlock(SMC_BUF_USED, &desc->used);
}
EXPORT_SYMBOL_IF_KUNIT(smc_buf_put);

/**
 * smc_buf_quarantine() - keep an RMB from reuse for a while
 * @desc: an RMB of a connection that aborted, about to be put back
 *
 * After our ABORT the peer may still have RDMA WRITEs into it in flight;
 * they must not land in a new connection's data.
 *
 * Context: any context; the connection's owner, before smc_buf_put().
 */
void smc_buf_quarantine(struct smc_buf_desc *desc)
{
	WRITE_ONCE(desc->quarantine_end,
		   (jiffies + SMC_BUF_QUARANTINE_TIME) | 1);
}
EXPORT_SYMBOL_IF_KUNIT(smc_buf_quarantine);

/**
 * smc_buf_reg_link() - register the group's buffers on a link
 * @lnk: a link that just became usable; with its QP in RTS the RMBs'
 *	MRs are made valid too
 *
 * Context: process context.
 * Return: 0 or the first registration error.
 */
int smc_buf_reg_link(struct smc_lgr_link *lnk)
{
	struct smc_link_group *lgr = lnk->lgr;
	struct smc_buf_desc *desc;
	int i, rc = 0;

	mutex_lock(&lgr->bufs_lock);
	for (i = 0; i < SMC_BUF_COMP_SLOTS && !rc; i++) {
		list_for_each_entry(desc, &lgr->rmbs[i], list) {
			rc = smc_buf_reg_one(lnk, desc);
			if (rc)
				break;
		}
		list_for_each_entry(desc, &lgr->sndbufs[i], list) {
			if (rc)
				break;
			rc = smc_buf_reg_one(lnk, desc);
		}
	}
	mutex_unlock(&lgr->bufs_lock);
	return rc;
}

/**
 * smc_buf_unreg_link() - undo every registration and mapping on a link,
 *	and forget the peer's rkeys on it
 * @lnk: the link, about to be destroyed, quiesced (smc_wr_link_quiesce()):
 *	an unsignaled WRITE still posted reads its send buffer, and with an
 *	IOMMU an unmapped one faults
 *
 * Context: process context.
 */
void smc_buf_unreg_link(struct smc_lgr_link *lnk)
{
	struct smc_link_group *lgr = lnk->lgr;
	struct smc_buf_desc *desc;
	int i;

	WARN_ON_ONCE(!test_bit(SMC_WR_LINK_QUIESCED, &lnk->wr.flags));
	mutex_lock(&lgr->bufs_lock);
	for (i = 0; i < SMC_BUF_COMP_SLOTS; i++) {
		list_for_each_entry(desc, &lgr->rmbs[i], list)
			smc_buf_unreg_one(lnk, desc);
		list_for_each_entry(desc, &lgr->sndbufs[i], list)
			smc_buf_unreg_one(lnk, desc);
	}
	mutex_unlock(&lgr->bufs_lock);
	/* a link added in this slot later learns the peer's rkeys anew */
	spin_lock_bh(&lgr->rtokens_lock);
	for (i = 0; i < SMC_RMBS_PER_LGR_MAX; i++)
		lgr->rtokens[i][lnk->idx] = (struct smc_rtoken){};
	spin_unlock_bh(&lgr->rtokens_lock);
}

/**
 * smc_buf_free_all() - free the buffers of a group
 * @lgr: the group, with its last reference gone and its links destroyed
 *
 * Context: any; nothing else can reach the group.
 */
void smc_buf_free_all(struct smc_link_group *lgr)
{
	struct smc_buf_desc *desc, *tmp;
	int i;

	for (i = 0; i < SMC_BUF_COMP_SLOTS; i++) {
		list_for_each_entry_safe(desc, tmp, &lgr->rmbs[i], list) {
			WARN_ON_ONCE(desc->regd);
			list_del(&desc->list);
			smc_buf_free_one(desc);
		}
		list_for_each_entry_safe(desc, tmp, &lgr->sndbufs[i], list) {
			WARN_ON_ONCE(desc->regd);
			list_del(&desc->list);
			smc_buf_free_one(desc);
		}
	}
}

/* --- rtokens ------------------------------------------------------------- */

/**
 * smc_rtoken_add() - keep where a peer RMB is on one link
 * @lgr: the group
 * @lnk_idx: index of the link the rkey is for
 * @vaddr: the RMB's address the peer gave
 * @rkey: its rkey
 *
 * An entry that holds the same values already is reused: peers may
 * announce an RMB twice (protocol reference 14, item 7).
 *
 * Context: any but hard interrupt.
 * Return: the rtoken index, or -ENOSPC when all are in use.
 */
int smc_rtoken_add(struct smc_link_group *lgr, u8 lnk_idx, u64 vaddr,
		   u32 rkey)
{
	int i;

	if (lnk_idx >= SMC_LINKS_PER_LGR_MAX)
		return -EINVAL;
	spin_lock_bh(&lgr->rtokens_lock);
	for_each_set_bit(i, lgr->rtokens_used, SMC_RMBS_PER_LGR_MAX)
		if (lgr->rtokens[i][lnk_idx].rkey == rkey &&
		    lgr->rtokens[i][lnk_idx].vaddr == vaddr)
			goto out;
	i = find_first_zero_bit(lgr->rtokens_used, SMC_RMBS_PER_LGR_MAX);
	if (i >= SMC_RMBS_PER_LGR_MAX) {
		i = -ENOSPC;
		goto out;
	}
	memset(lgr->rtokens[i], 0, sizeof(lgr->rtokens[i]));
	lgr->rtokens[i][lnk_idx].vaddr = vaddr;
	lgr->rtokens[i][lnk_idx].rkey = rkey;
	set_bit(i, lgr->rtokens_used);
out:
	spin_unlock_bh(&lgr->rtokens_lock);
	return i;
}
EXPORT_SYMBOL_IF_KUNIT(smc_rtoken_add);

/**
 * smc_rtoken_set_link() - add another link's values to an rtoken
 * @lgr: the group
 * @idx: the rtoken index from smc_rtoken_add()
 * @lnk_idx: index of the other link
 * @vaddr: the RMB's address on it
 * @rkey: its rkey on it
 *
 * Context: any but hard interrupt.
 * Return: 0, or -EINVAL for an index not in use.
 */
int smc_rtoken_set_link(struct smc_link_group *lgr, int idx, u8 lnk_idx,
			u64 vaddr, u32 rkey)
{
	int rc = -EINVAL;

	if (idx < 0 || idx >= SMC_RMBS_PER_LGR_MAX ||
	    lnk_idx >= SMC_LINKS_PER_LGR_MAX)
		return -EINVAL;
	spin_lock_bh(&lgr->rtokens_lock);
	if (test_bit(idx, lgr->rtokens_used)) {
		lgr->rtokens[idx][lnk_idx].vaddr = vaddr;
		lgr->rtokens[idx][lnk_idx].rkey = rkey;
		rc = 0;
	}
	spin_unlock_bh(&lgr->rtokens_lock);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(smc_rtoken_set_link);

/**
 * smc_rtoken_find() - the rtoken holding an rkey on a link
 * @lgr: the group
 * @lnk_idx: the link's index
 * @rkey: the rkey
 *
 * Context: any but hard interrupt.
 * Return: the index or -ENOENT.
 */
int smc_rtoken_find(struct smc_link_group *lgr, u8 lnk_idx, u32 rkey)
{
	int i, rc = -ENOENT;

	if (lnk_idx >= SMC_LINKS_PER_LGR_MAX)
		return -EINVAL;
	spin_lock_bh(&lgr->rtokens_lock);
	for_each_set_bit(i, lgr->rtokens_used, SMC_RMBS_PER_LGR_MAX)
		if (lgr->rtokens[i][lnk_idx].rkey == rkey) {
			rc = i;
			break;
		}
	spin_unlock_bh(&lgr->rtokens_lock);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(smc_rtoken_find);

/**
 * smc_rtoken_delete() - forget the peer RMB an rkey belongs to
 * @lgr: the group
 * @rkey: the rkey, on any link
 *
 * Context: any but hard interrupt.
 * Return: 0 or -ENOENT.
 */
int smc_rtoken_delete(struct smc_link_group *lgr, u32 rkey)
{
	int i, j, rc = -ENOENT;

	spin_lock_bh(&lgr->rtokens_lock);
	for_each_set_bit(i, lgr->rtokens_used, SMC_RMBS_PER_LGR_MAX) {
		for (j = 0; j < SMC_LINKS_PER_LGR_MAX; j++)
			if (lgr->rtokens[i][j].rkey == rkey &&
			    lgr->rtokens[i][j].vaddr)	/* an entry in use */
				break;
		if (j == SMC_LINKS_PER_LGR_MAX)
			continue;
		memset(lgr->rtokens[i], 0, sizeof(lgr->rtokens[i]));
		clear_bit(i, lgr->rtokens_used);
		rc = 0;
		break;
	}
	spin_unlock_bh(&lgr->rtokens_lock);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(smc_rtoken_delete);
