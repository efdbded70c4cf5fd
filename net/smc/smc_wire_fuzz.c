// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * Test build only (CONFIG_SMC_TEST_HOOKS): a hostile peer's LLC and CDC
 * messages.  Writing "COUNT SEED" to /sys/kernel/debug/smc/fuzz_wr sends
 * COUNT mutated messages on the active link of a link group of the
 * writer's namespace, as real IB SENDs, so the other host receives them
 * through its whole receive path.  The mutations follow a PRNG seeded
 * with SEED, so a failing run can be repeated.
 *
 * Every message starts from the shape of a real one, with some bytes
 * flipped: a CDC with the token of one of the group's connections (or a
 * random token), random cursors near the peer's RMBE size and mostly
 * defined flags; an LLC message of a known type and version with a
 * random body; a v2 message of up to 2 KiB; or bytes at random.  A
 * DELETE_LINK that would end the group is rare (smc_fuzz_tame()).
 *
 * The receiver handles LLC messages in order in its LLC work, which
 * queues only so many: after every SMC_FUZZ_SYNC messages a real
 * TEST_LINK exchange waits until the peer has handled those before it,
 * so that they are parsed instead of dropped for queue space.
 *
 * Reading the file gives "sent N rc E" for the last run: E is 0, or the
 * error that stopped it early.  It stops early when the peer ends the
 * group (it may, for a DELETE_LINK) or does not answer a sync: then it
 * ends the group on this side as well, and the test sees a sent count
 * below COUNT.  A run ends with a sync too, so that a group the last
 * messages ended is ended here as well (E set, N equal to COUNT).
 */

#include <linux/bitfield.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/nsproxy.h>
#include <linux/prandom.h>
#include <linux/rbtree.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <net/net_namespace.h>

#include "smc.h"
#include "smc_bufsize.h"
#include "smc_compat.h"
#include "smc_data.h"
#include "smc_lgr.h"
#include "smc_test_hooks.h"

#define SMC_FUZZ_TOKENS		8	/* connections whose tokens we use */
#define SMC_FUZZ_SYNC		48	/* messages between TEST_LINK syncs */
#define SMC_FUZZ_SYNC_TRIES	8	/* a stale echo may answer a sync */
#define SMC_FUZZ_V2_MAX		2048	/* longest v2 message sent */
#define SMC_FUZZ_MAX		1000000	/* messages per write */
#define SMC_FUZZ_DEL_LINK	1024	/* one DELETE_LINK in so many ends it */

/* one run: the link, what it knows of the group, the PRNG */
struct smc_fuzz {
	struct smc_lgr_link	*lnk;
	struct rnd_state	rnd;
	u32			tokens[SMC_FUZZ_TOKENS];
	u32			rmbe_size[SMC_FUZZ_TOKENS];
	unsigned int		ntokens;
};

static DEFINE_MUTEX(smc_fuzz_lock);	/* one run at a time, and its result */
static u32 smc_fuzz_sent;
static int smc_fuzz_rc;	/* why the last run stopped early, or 0 */

static u32 smc_fuzz_rnd(struct smc_fuzz *f, u32 n)
{
	return prandom_u32_state(&f->rnd) % n;
}

/* a few random bytes of @buf changed, sometimes none */
static void smc_fuzz_flip(struct smc_fuzz *f, u8 *buf, unsigned int len)
{
	unsigned int i, n = smc_fuzz_rnd(f, 4);

	for (i = 0; i < n; i++)
		buf[smc_fuzz_rnd(f, len)] ^= 1 + smc_fuzz_rnd(f, 255);
}

static void smc_fuzz_put_cursor(struct smc_fuzz *f, struct smc_cdc_cursor *c,
				u32 size)
{
	c->reserved = 0;
	c->wrap = cpu_to_be16(smc_fuzz_rnd(f, 4) ? smc_fuzz_rnd(f, 4) :
			      prandom_u32_state(&f->rnd));
	c->count = cpu_to_be32(smc_fuzz_rnd(f, 4) ?
			       smc_fuzz_rnd(f, 2 * size + 1) :
			       prandom_u32_state(&f->rnd));
}

static void smc_fuzz_cdc(struct smc_fuzz *f, u8 *buf)
{
	struct smc_cdc_msg *m = (struct smc_cdc_msg *)buf;
	u32 size = SMC_BUF_MIN_SIZE;

	m->type = SMC_CDC_TYPE;
	m->len = SMC_CDC_LEN;
	if (f->ntokens && smc_fuzz_rnd(f, 4)) {
		unsigned int i = smc_fuzz_rnd(f, f->ntokens);

		m->token = cpu_to_be32(f->tokens[i]);
		size = f->rmbe_size[i];
	}
	smc_fuzz_put_cursor(f, &m->prod, size);
	smc_fuzz_put_cursor(f, &m->cons, size);
	/*
	 * Mostly defined flags, and an abort or close only now and then,
	 * so that most messages find the connection still there.
	 */
	if (smc_fuzz_rnd(f, 16)) {
		m->prod_flags &= SMC_CDC_PROD_MASK;
		m->conn_flags &= smc_fuzz_rnd(f, 32) ? 0 : SMC_CDC_CONN_MASK;
	}
	if (smc_fuzz_rnd(f, 2))
		memset(m->reserved, 0, sizeof(m->reserved));
}

/* an LLC message of a known type, or not, in @len bytes */
static void smc_fuzz_llc(struct smc_fuzz *f, u8 *buf, unsigned int len,
			 bool v2)
{
	struct smc_llc_hdr *hd = (struct smc_llc_hdr *)buf;
	u8 type = 1 + smc_fuzz_rnd(f, SMC_LLC_DELETE_RKEY);
	u16 l = len;

	if (!smc_fuzz_rnd(f, 10))
		v2 = !v2;
	hd->type = (v2 ? SMC_LLC_V2 << 4 : SMC_LLC_V1 << 4) | type;
	if (!smc_fuzz_rnd(f, 20))
		hd->type = prandom_u32_state(&f->rnd);
	if (v2) {
		if (smc_fuzz_rnd(f, 10))
			l = smc_fuzz_rnd(f, 20) ? len : SMC_LLC_LEN;
		else
			l = prandom_u32_state(&f->rnd);
		if (smc_fuzz_rnd(f, 2)) {
			hd->length_v2[0] = l & 0xff;
			hd->length_v2[1] = l >> 8;
		} else {
			hd->length_v2[0] = l >> 8;
			hd->length_v2[1] = l & 0xff;
		}
	} else if (smc_fuzz_rnd(f, 10)) {
		hd->length = SMC_LLC_LEN;
	}
}

/*
 * Two kinds of message are tamed, whatever made them (the type chosen,
 * random bytes, a flip).  A DELETE_LINK of the whole group or of its
 * link ends the group, which the peer then rightly does: one in
 * SMC_FUZZ_DEL_LINK is sent as it came, the others name no link, so
 * that most messages meet a live group.  A TEST_LINK request goes out
 * as a response: the peer's echo of it would answer our sync's
 * TEST_LINK, and each retry would then meet the echo of the one before.
 */
static void smc_fuzz_tame(struct smc_fuzz *f, u8 *buf)
{
	struct smc_llc_delete_link *d = (void *)buf;
	u8 type = FIELD_GET(SMC_LLC_HDR_TYPE, buf[0]);
	u8 version = FIELD_GET(SMC_LLC_HDR_VERSION, buf[0]);

	if (version != SMC_LLC_V1 && version != SMC_LLC_V2)
		return;
	if (type == SMC_LLC_TEST_LINK) {
		d->hd.flags |= SMC_LLC_FLAG_RESP;
		return;
	}
	if (type != SMC_LLC_DELETE_LINK || !smc_fuzz_rnd(f, SMC_FUZZ_DEL_LINK))
		return;
	d->hd.flags &= ~SMC_LLC_FLAG_DEL_LINK_ALL;
	if (d->link_num == f->lnk->link_id)
		d->link_num++;
}

/* build one message of SMC_WR_TX_SIZE bytes in @buf */
static void smc_fuzz_build(struct smc_fuzz *f, u8 *buf)
{
	bool v2 = f->lnk->wr.v2;
	u32 kind = smc_fuzz_rnd(f, 100);

	prandom_bytes_state(&f->rnd, buf, SMC_WR_TX_SIZE);
	if (kind < 40) {
		/* flipped first: the shape and flags stay mostly sane */
		smc_fuzz_flip(f, buf, SMC_WR_TX_SIZE);
		smc_fuzz_cdc(f, buf);
		return;
	}
	if (kind < 95)
		smc_fuzz_llc(f, buf, SMC_WR_TX_SIZE, v2);
	smc_fuzz_flip(f, buf, SMC_WR_TX_SIZE);
	smc_fuzz_tame(f, buf);
}

static int smc_fuzz_send_v2(struct smc_fuzz *f)
{
	struct smc_link *wr = &f->lnk->wr;
	struct smc_wr_tx_slot *slot;
	unsigned int len;
	u8 *buf;
	int rc;

	rc = smc_wr_send_v2_get(wr, &slot, &buf, SMC_WR_SEND_WAIT);
	if (rc)
		return rc;
	len = SMC_WR_TX_SIZE + 1 +
	      smc_fuzz_rnd(f, SMC_FUZZ_V2_MAX - SMC_WR_TX_SIZE);
	prandom_bytes_state(&f->rnd, buf, len);
	smc_fuzz_llc(f, buf, len, true);
	smc_fuzz_flip(f, buf, len);
	smc_fuzz_tame(f, buf);
	/* the slot is consumed, sent or not */
	return smc_wr_send_v2(wr, slot, len, NULL, NULL);
}

static int smc_fuzz_send(struct smc_fuzz *f)
{
	struct smc_link *wr = &f->lnk->wr;
	struct smc_wr_tx_slot *slot;
	int rc;

	if (wr->v2 && !smc_fuzz_rnd(f, 20))
		return smc_fuzz_send_v2(f);
	rc = smc_wr_send_slot_get(wr, &slot, SMC_WR_SLOT_CTRL, SMC_WR_SEND_WAIT);
	if (rc)
		return rc;
	smc_fuzz_build(f, smc_wr_slot_buf(slot));
	return smc_wr_send(wr, slot, NULL, NULL);
}

/* wait until the peer has handled what we sent: a real TEST_LINK */
static int smc_fuzz_sync(struct smc_fuzz *f)
{
	int i, rc = -EPROTO;

	/* the echo of an earlier fuzzed TEST_LINK may answer ours */
	for (i = 0; i < SMC_FUZZ_SYNC_TRIES && rc == -EPROTO; i++)
		rc = smc_llc_test_link(f->lnk);
	return rc;
}

/* the tokens and RMBE sizes of up to SMC_FUZZ_TOKENS connections */
static void smc_fuzz_tokens(struct smc_fuzz *f, struct smc_link_group *lgr)
{
	struct rb_node *n;

	spin_lock_bh(&lgr->lock);
	for (n = rb_first(&lgr->conns); n && f->ntokens < SMC_FUZZ_TOKENS;
	     n = rb_next(n)) {
		struct smc_connection *c = rb_entry(n, struct smc_connection,
						    node);

		f->tokens[f->ntokens] = c->peer_token;
		f->rmbe_size[f->ntokens] = c->peer_rmbe_size ?: SMC_BUF_MIN_SIZE;
		f->ntokens++;
	}
	spin_unlock_bh(&lgr->lock);
}

static u32 smc_fuzz_run(struct net *net, u32 count, u32 seed, int *rc)
{
	struct smc_link_group *lgr = smc_lgr_get_active(net);
	struct smc_fuzz f = {};
	u32 sent = 0;
	int i;

	*rc = -ENOLINK;
	if (!lgr)
		return 0;
	for (i = 0; i < SMC_LINKS_PER_LGR_MAX; i++)
		if (READ_ONCE(lgr->lnk[i].state) == SMC_LNK_ACTIVE)
			f.lnk = &lgr->lnk[i];
	if (f.lnk) {
		prandom_seed_state(&f.rnd, seed);
		smc_fuzz_tokens(&f, lgr);
		*rc = 0;
	}
	while (!*rc && sent < count) {
		*rc = fatal_signal_pending(current) ? -EINTR : smc_fuzz_send(&f);
		if (*rc)
			break;
		sent++;
		if (!(sent % SMC_FUZZ_SYNC))
			*rc = smc_fuzz_sync(&f);
	}
	/* the last messages may have ended the group too */
	if (!*rc && sent % SMC_FUZZ_SYNC)
		*rc = smc_fuzz_sync(&f);
	/*
	 * The peer took a DELETE_LINK of ours at its word, or stopped
	 * answering: end the group here too, as a peer that meant it
	 * would, instead of waiting for the transport to time out.
	 */
	if (f.lnk && *rc)
		smc_lgr_terminate_async(lgr, 0);
	smc_lgr_put(lgr);
	return sent;
}

static ssize_t smc_fuzz_write(struct file *file, const char __user *ubuf,
			      size_t len, loff_t *ppos)
{
	u32 count, seed;
	char *s;
	int rc;

	if (!capable(CAP_NET_ADMIN))
		return -EPERM;
	s = memdup_user_nul(ubuf, min_t(size_t, len, 64));
	if (IS_ERR(s))
		return PTR_ERR(s);
	rc = sscanf(s, "%u %u", &count, &seed);
	kfree(s);
	if (rc != 2 || !count || count > SMC_FUZZ_MAX)
		return -EINVAL;
	mutex_lock(&smc_fuzz_lock);
	smc_fuzz_sent = smc_fuzz_run(current->nsproxy->net_ns, count, seed,
				     &smc_fuzz_rc);
	mutex_unlock(&smc_fuzz_lock);
	return len;
}

static ssize_t smc_fuzz_read(struct file *file, char __user *ubuf,
			     size_t len, loff_t *ppos)
{
	char s[48];
	int n;

	mutex_lock(&smc_fuzz_lock);
	n = scnprintf(s, sizeof(s), "sent %u rc %d\n", smc_fuzz_sent,
		      smc_fuzz_rc);
	mutex_unlock(&smc_fuzz_lock);
	return simple_read_from_buffer(ubuf, len, ppos, s, n);
}

static const struct file_operations smc_fuzz_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= smc_fuzz_read,
	.write	= smc_fuzz_write,
	.llseek	= default_llseek,
};

/**
 * smc_wire_fuzz_init() - create /sys/kernel/debug/smc/fuzz_wr
 * @root: the module's debugfs directory
 *
 * Context: module init.
 */
void smc_wire_fuzz_init(struct dentry *root)
{
	debugfs_create_file("fuzz_wr", 0600, root, NULL, &smc_fuzz_fops);
}
