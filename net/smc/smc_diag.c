// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * sock_diag for AF_SMC (smc_diag.ko): answers SOCK_DIAG_BY_FAMILY dumps
 * with one struct smc_diag_msg plus SMC_DIAG_* attributes per socket of
 * the requester's network namespace, as smcss expects.
 */

#include <linux/inet_diag.h>
#include <linux/module.h>
#include <linux/net.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <linux/smc.h>
#include <linux/smc_diag.h>
#include <net/inet_sock.h>
#include <net/ipv6.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>

#include "smc.h"
#include "smc_ib.h"

struct smc_diag_ctx {
	struct sk_buff *skb;
	struct netlink_callback *cb;
};

/*
 * The addresses and ports are the clcsock's, the TCP 4-tuple on the wire,
 * for IPPROTO_SMC sockets too: unlike 6.12, which reports zero addresses
 * for them, since their protocol is neither SMCPROTO_SMC nor SMCPROTO_SMC6.
 */
static void smc_diag_fill_id(struct sock *sk, struct inet_diag_sockid *id)
{
	struct sock *clcsk = smc_sk(sk)->clcsock->sk;
	struct inet_sock *inet = inet_sk(clcsk);

	id->idiag_sport = inet->inet_sport;
	id->idiag_dport = inet->inet_dport;
	id->idiag_if = READ_ONCE(clcsk->sk_bound_dev_if);
	sock_diag_save_cookie(sk, id->idiag_cookie);
#if IS_ENABLED(CONFIG_IPV6)
	if (clcsk->sk_family == AF_INET6) {
		memcpy(id->idiag_src, &clcsk->sk_v6_rcv_saddr,
		       sizeof(id->idiag_src));
		memcpy(id->idiag_dst, &clcsk->sk_v6_daddr,
		       sizeof(id->idiag_dst));
		return;
	}
#endif
	id->idiag_src[0] = inet->inet_rcv_saddr;
	id->idiag_dst[0] = inet->inet_daddr;
}

static void smc_diag_curs(struct smc_diag_cursor *d, union smc_cursor *c)
{
	union smc_cursor v = smc_cursor_read(c);

	d->wrap = v.wrap;
	d->count = v.count;
}

/*
 * The connection's cursors, read without the sock lock: a closing
 * connection may move on meanwhile.  Its buffer descriptors stay valid:
 * the caller saw SMC_SOCK_CONN_DONE clear inside the walk's read lock,
 * a preempt-off section; smc_conn_free() sets the bit before the
 * synchronize_rcu() that precedes the buffers' return, which so waits
 * for this walk, and they are freed only with the group after that.
 */
static int smc_diag_conninfo(struct sk_buff *skb, struct smc_sock *smc)
{
	struct smc_connection *conn = &smc->conn;
	struct smc_buf_desc *sndbuf = READ_ONCE(conn->sndbuf_desc);
	struct smc_buf_desc *rmb = READ_ONCE(conn->rmb_desc);
	struct smc_diag_conninfo ci;

	memset(&ci, 0, sizeof(ci));
	ci.token = conn->alert_token_local;
	ci.sndbuf_size = sndbuf ? sndbuf->len : 0;
	ci.rmbe_size = rmb ? rmb->len : 0;
	ci.peer_rmbe_size = conn->peer_rmbe_size;
	smc_diag_curs(&ci.rx_prod, &conn->local_rx_ctrl.prod);
	smc_diag_curs(&ci.rx_cons, &conn->local_rx_ctrl.cons);
	smc_diag_curs(&ci.tx_prod, &conn->local_tx_ctrl.prod);
	smc_diag_curs(&ci.tx_cons, &conn->local_tx_ctrl.cons);
	ci.rx_prod_flags = READ_ONCE(conn->local_rx_ctrl.prod_flags);
	ci.rx_conn_state_flags = READ_ONCE(conn->local_rx_ctrl.conn_flags);
	ci.tx_prod_flags = READ_ONCE(conn->local_tx_ctrl.prod_flags);
	ci.tx_conn_state_flags = READ_ONCE(conn->local_tx_ctrl.conn_flags);
	smc_diag_curs(&ci.tx_prep, &conn->tx_curs_prep);
	smc_diag_curs(&ci.tx_sent, &conn->tx_curs_sent);
	smc_diag_curs(&ci.tx_fin, &conn->tx_curs_fin);
	return nla_put(skb, SMC_DIAG_CONNINFO, sizeof(ci), &ci);
}

/*
 * The group and link stay while the connection holds the group (it
 * leaves only after SMC_SOCK_CONN_DONE and an RCU grace period, which
 * waits for this walk).  The link may be cleared meanwhile, its device
 * reference dropped: read the device under lgr->lock, as the link
 * clear writes it.
 */
static int smc_diag_lgrinfo(struct sk_buff *skb, struct smc_sock *smc)
{
	struct smc_lgr_link *lnk = READ_ONCE(smc->conn.lnk);
	struct smc_link_group *lgr = READ_ONCE(smc->conn.lgr);
	struct smc_diag_lgrinfo li;

	if (!lnk || !lgr)
		return 0;
	memset(&li, 0, sizeof(li));
	li.role = lgr->role;
	spin_lock_bh(&lgr->lock);
	li.lnk[0].link_id = lnk->link_id;
	li.lnk[0].ibport = lnk->ibport;
	if (lnk->state != SMC_LNK_UNUSED && lnk->smcibdev)
		strscpy(li.lnk[0].ibname, dev_name(&lnk->smcibdev->ibdev->dev),
			sizeof(li.lnk[0].ibname));
	snprintf(li.lnk[0].gid, sizeof(li.lnk[0].gid), "%pI6",
		 lnk->wr.gid.raw);
	snprintf(li.lnk[0].peer_gid, sizeof(li.lnk[0].peer_gid), "%pI6",
		 lnk->peer_gid);
	spin_unlock_bh(&lgr->lock);
	return nla_put(skb, SMC_DIAG_LGRINFO, sizeof(li), &li);
}

static int smc_diag_fill(struct sock *sk, void *arg)
{
	struct smc_diag_ctx *ctx = arg;
	struct netlink_callback *cb = ctx->cb;
	struct smc_sock *smc = smc_sk(sk);
	struct smc_diag_fallback fb;
	struct sk_buff *skb = ctx->skb;
	struct smc_diag_msg *r;
	struct nlmsghdr *nlh;

	nlh = nlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			cb->nlh->nlmsg_type, sizeof(*r), NLM_F_MULTI);
	if (!nlh)
		return -EMSGSIZE;

	r = nlmsg_data(nlh);
	memset(r, 0, sizeof(*r));
	r->diag_family = sk->sk_family;
	r->diag_state = READ_ONCE(sk->sk_state);
	r->diag_mode = READ_ONCE(smc->mode);
	smc_diag_fill_id(sk, &r->id);
	r->diag_uid = from_kuid_munged(sk_user_ns(NETLINK_CB(cb->skb).sk),
				       sock_i_uid(sk));
	r->diag_inode = sock_i_ino(sk);

	if (nla_put_u8(skb, SMC_DIAG_SHUTDOWN, READ_ONCE(sk->sk_shutdown)))
		goto cancel;

	fb.reason = READ_ONCE(smc->fallback_rsn);
	fb.peer_diagnosis = READ_ONCE(smc->peer_diagnosis);
	if (nla_put(skb, SMC_DIAG_FALLBACK, sizeof(fb), &fb))
		goto cancel;

	/* as upstream: the connection details only when asked for */
	if (smc_uses_smcr(smc) && !test_bit(SMC_SOCK_CONN_DONE, &smc->flags)) {
		const struct smc_diag_req *req = nlmsg_data(cb->nlh);

		if ((req->diag_ext & (1 << (SMC_DIAG_CONNINFO - 1))) &&
		    smc_diag_conninfo(skb, smc))
			goto cancel;
		if ((req->diag_ext & (1 << (SMC_DIAG_LGRINFO - 1))) &&
		    smc_diag_lgrinfo(skb, smc))
			goto cancel;
	}
	nlmsg_end(skb, nlh);
	return 0;

cancel:
	nlmsg_cancel(skb, nlh);
	return -EMSGSIZE;
}

/* cb->args[0..1] is the smc_sock_walk() cursor */
static int smc_diag_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct smc_diag_ctx ctx = { .skb = skb, .cb = cb };

	smc_sock_walk(sock_net(skb->sk), &cb->args[0], smc_diag_fill, &ctx);
	return skb->len;
}

static int smc_diag_handler_dump(struct sk_buff *skb, struct nlmsghdr *h)
{
	struct net *net = sock_net(skb->sk);
	struct netlink_dump_control c = {
		.dump = smc_diag_dump,
		.min_dump_alloc = SKB_WITH_OVERHEAD(32768),
	};

	if (nlmsg_len(h) < (int)sizeof(struct smc_diag_req))
		return -EINVAL;
	/* sockets are looked at only in bulk */
	if (!(h->nlmsg_flags & NLM_F_DUMP))
		return -EOPNOTSUPP;
	return netlink_dump_start(net->diag_nlsk, skb, h, &c);
}

static const struct sock_diag_handler smc_diag_handler = {
#ifdef SMC_HAVE_DIAG_OWNER
	.owner	= THIS_MODULE,
#endif
	.family	= AF_SMC,
	.dump	= smc_diag_handler_dump,
};

static int __init smc_diag_init(void)
{
	/* the sock_diag wire layout that smcss and smc-tools expect */
	BUILD_BUG_ON(sizeof(struct smc_diag_req) != 52);
	BUILD_BUG_ON(sizeof(struct smc_diag_msg) != 64);
	BUILD_BUG_ON(sizeof(struct smc_diag_fallback) != 8);
	BUILD_BUG_ON(sizeof(struct smc_diag_conninfo) != 76);
	return sock_diag_register(&smc_diag_handler);
}

static void __exit smc_diag_exit(void)
{
	sock_diag_unregister(&smc_diag_handler);
}

module_init(smc_diag_init);
module_exit(smc_diag_exit);

MODULE_DESCRIPTION("SMC socket monitoring via sock_diag");
MODULE_LICENSE("GPL");
MODULE_VERSION(SMC_MODULE_VERSION);
MODULE_ALIAS_NET_PF_PROTO_TYPE(PF_NETLINK, NETLINK_SOCK_DIAG, 43 /* AF_SMC */);
/* as upstream: "SMC_PNETID" requests load smc_diag.ko, and so smc.ko */
MODULE_ALIAS_GENL_FAMILY(SMCR_GENL_FAMILY_NAME);
