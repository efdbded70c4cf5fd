/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * LLC (Link Layer Control) wire format: the messages that set up, test
 * and tear down the RDMA links of a link group and exchange rkeys, sent
 * as IB SENDs of 44 bytes (v1) or up to 8 KiB (v2).  Packed structs
 * describe the bytes; decode turns them into struct smc_llc_msg_info in
 * host order, encode does the reverse.  Nothing here touches a QP, so
 * smc_llc_kunit.c can test it anywhere.
 */
#ifndef _NET_SMC_LLC_WIRE_H
#define _NET_SMC_LLC_WIRE_H

#include <linux/bitfield.h>
#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/if_ether.h>
#include <linux/jiffies.h>
#include <linux/types.h>

/* message types, the low nibble of byte 0 */
enum smc_llc_type {
	SMC_LLC_CONFIRM_LINK		= 0x01,
	SMC_LLC_ADD_LINK		= 0x02,
	SMC_LLC_ADD_LINK_CONT		= 0x03,	/* v1 only */
	SMC_LLC_DELETE_LINK		= 0x04,
	SMC_LLC_REQ_ADD_LINK		= 0x05,	/* v2 only */
	SMC_LLC_CONFIRM_RKEY		= 0x06,
	SMC_LLC_TEST_LINK		= 0x07,
	SMC_LLC_CONFIRM_RKEY_CONT	= 0x08,	/* v1 only */
	SMC_LLC_DELETE_RKEY		= 0x09,
};

/* the version, the high nibble of byte 0 */
#define SMC_LLC_V1		0
#define SMC_LLC_V2		2

#define SMC_LLC_LEN		44	/* every v1 message; minimum for v2 */
#define SMC_LLC_LEN_V2_MAX	8192	/* the receive overflow buffer */
#define SMC_LLC_GID_SIZE	16

/* how long the link layer waits, as Linux does */
#define SMC_LLC_WAIT_FIRST_TIME	(5 * HZ)	/* CONFIRM_LINK, new link */
#define SMC_LLC_WAIT_TIME	(2 * HZ)	/* any other response */
/*
 * The client waits for the first CONFIRM_LINK, or the server's Decline,
 * half a second longer than a server waits for the response (2 s), and
 * half a second less than Linux as server looks for a client's Decline
 * (2 s, then 1 s on the clcsock): when RoCE does not pass, one side's
 * Decline must come while the other still looks for it, or both decline
 * and each application reads the other's as data.
 */
#define SMC_LLC_WAIT_CLNT_FIRST	(5 * HZ / 2)
#define SMC_LLC_FLOW_START_TIME	(20 * HZ)	/* for another flow to end */
#define SMC_LLC_TESTLINK_TIME	(30 * HZ)	/* idle before TEST_LINK */

/* byte 0, all types: the version and the type */
#define SMC_LLC_HDR_VERSION		GENMASK(7, 4)
#define SMC_LLC_HDR_TYPE		GENMASK(3, 0)
/* ADD_LINK: the QP MTU's byte, and the reject reason in byte 2 */
#define SMC_LLC_ADD_LINK_MTU		GENMASK(3, 0)
#define SMC_LLC_ADD_LINK_REJ_REASON	GENMASK(3, 0)

/* byte 3, all types */
#define SMC_LLC_FLAG_RESP		0x80
/* CONFIRM_LINK: the RMBEs carry no eyecatcher (Linux sets and requires) */
#define SMC_LLC_FLAG_NO_RMBE_EYEC	0x03
/* ADD_LINK */
#define SMC_LLC_FLAG_ADD_LINK_REJ	0x40
#define SMC_LLC_ADD_LINK_REJ_NO_ALT_PATH 1	/* byte 2 bits 3-0 */
/* DELETE_LINK */
#define SMC_LLC_FLAG_DEL_LINK_ALL	0x40
#define SMC_LLC_FLAG_DEL_LINK_ORDERLY	0x20
/* CONFIRM_RKEY, DELETE_RKEY */
#define SMC_LLC_FLAG_RKEY_NEG		0x20
#define SMC_LLC_FLAG_RKEY_RETRY		0x10	/* CONFIRM_RKEY only */

/* DELETE_LINK reasons: requests, then responses */
#define SMC_LLC_DEL_LOST_PATH		0x00010000
#define SMC_LLC_DEL_OP_INIT_TERM	0x00020000
#define SMC_LLC_DEL_PROG_INIT_TERM	0x00030000
#define SMC_LLC_DEL_PROT_VIOL		0x00040000
#define SMC_LLC_DEL_NO_ASYM_NEEDED	0x00050000
#define SMC_LLC_DEL_NOLNK		0x00100000	/* unknown link id */
#define SMC_LLC_DEL_NOLGR		0x00200000	/* unknown link group */

#define SMC_LLC_RTOKENS			3	/* per CONFIRM_RKEY(_CONT) */
#define SMC_LLC_ADD_LINK_CONT_RKEYS	2
#define SMC_LLC_DEL_RKEY_MAX		8	/* v1 */
#define SMC_LLC_RKEYS_MAX_V2		255	/* one per RMB of a link group */
#define SMC_LLC_TEST_LINK_DATA		16

/*
 * Byte order of the 16-bit v2 fields (length_v2, ADD_LINK num_rkeys).
 * Linux declares them plain u16, so each peer sends them in its CPU's
 * order: little-endian from x86, big-endian from s390x.  We emit the
 * order the caller asks for (little-endian by default, as the peers we
 * meet are mostly x86) and accept either on receipt; see smc_llc_wire.c.
 */
enum smc_llc_order {
	SMC_LLC_ORDER_LE,
	SMC_LLC_ORDER_BE,
};

#define SMC_LLC_ORDER_DEFAULT	SMC_LLC_ORDER_LE

/**
 * struct smc_llc_hdr - LLC header, on the wire
 * @type: bits 7-4 version, bits 3-0 enum smc_llc_type
 * @length: v1: 44
 * @add_link_rej: v1: bits 3-0 ADD_LINK reject reason, bits 7-4 reserved
 * @length_v2: v2: bytes 1-2, the total length in the sender's CPU order
 * @flags: SMC_LLC_FLAG_*
 */
struct smc_llc_hdr {
	u8	type;
	union {
		struct {
			u8	length;
			u8	add_link_rej;
		} __packed;
		u8	length_v2[2];
	};
	u8	flags;
} __packed;

/**
 * struct smc_llc_rkey_triple - one RMB's rkeys in ADD_LINK(_CONT), on the wire
 * @rkey: rkey on the link the message travels on
 * @rkey_new: rkey on the new link
 * @vaddr_new: address on the new link
 */
struct smc_llc_rkey_triple {
	__be32	rkey;
	__be32	rkey_new;
	__be64	vaddr_new;
} __packed;

/**
 * struct smc_llc_rtoken - one rtoken of CONFIRM_RKEY(_CONT), on the wire
 * @link_id: rtoken[0] of CONFIRM_RKEY: number of further rtokens; else
 *	the link id the rkey and address belong to
 * @rkey: rkey
 * @vaddr: address
 */
struct smc_llc_rtoken {
	u8	link_id;
	__be32	rkey;
	__be64	vaddr;
} __packed;

/**
 * struct smc_llc_confirm_link - CONFIRM_LINK, on the wire
 * @hd: header
 * @sender_mac: sender's MAC
 * @sender_gid: sender's GID
 * @sender_qpn: sender's QP number, 24 bits big-endian
 * @link_num: link id, assigned by the server
 * @link_uid: link user id, for diagnostics
 * @max_links: maximum links per link group
 * @max_conns: v2.1: maximum connections per link group; else reserved
 * @reserved: zero
 */
struct smc_llc_confirm_link {
	struct smc_llc_hdr	hd;
	u8			sender_mac[ETH_ALEN];
	u8			sender_gid[SMC_LLC_GID_SIZE];
	u8			sender_qpn[3];
	u8			link_num;
	__be32			link_uid;
	u8			max_links;
	u8			max_conns;
	u8			reserved[8];
} __packed;

/**
 * struct smc_llc_add_link - ADD_LINK up to its v2 extension, on the wire
 * @hd: header
 * @sender_mac: sender's MAC
 * @reserved: zero
 * @sender_gid: sender's GID
 * @sender_qpn: QP number of the new link, 24 bits big-endian
 * @link_num: new link id, chosen by the server
 * @qp_mtu: bits 3-0 QP MTU (enum ib_mtu)
 * @initial_psn: first PSN, 24 bits big-endian
 * @reserved2: zero
 */
struct smc_llc_add_link {
	struct smc_llc_hdr	hd;
	u8			sender_mac[ETH_ALEN];
	u8			reserved[2];
	u8			sender_gid[SMC_LLC_GID_SIZE];
	u8			sender_qpn[3];
	u8			link_num;
	u8			qp_mtu;
	u8			initial_psn[3];
	u8			reserved2[8];
} __packed;

/**
 * struct smc_llc_add_link_v2_ext - ADD_LINK v2 extension, on the wire
 * @v2_direct: bit 7: peer is on the same subnet
 * @reserved: zero
 * @client_target_gid: GID of the new link
 * @reserved2: zero
 * @num_rkeys: rkey triples that follow, in the sender's CPU order
 *
 * Followed by @num_rkeys struct smc_llc_rkey_triple.
 */
struct smc_llc_add_link_v2_ext {
	u8	v2_direct;
	u8	reserved;
	u8	client_target_gid[SMC_LLC_GID_SIZE];
	u8	reserved2[8];
	u8	num_rkeys[2];
} __packed;

/**
 * struct smc_llc_add_link_cont - ADD_LINK_CONT (v1), on the wire
 * @hd: header
 * @link_num: id of the new link
 * @num_rkeys: triples still to send, this message's included
 * @reserved: zero
 * @rt: up to two triples
 * @reserved2: zero
 */
struct smc_llc_add_link_cont {
	struct smc_llc_hdr		hd;
	u8				link_num;
	u8				num_rkeys;
	u8				reserved[2];
	struct smc_llc_rkey_triple	rt[SMC_LLC_ADD_LINK_CONT_RKEYS];
	u8				reserved2[4];
} __packed;

/**
 * struct smc_llc_delete_link - DELETE_LINK, on the wire
 * @hd: header
 * @link_num: link to delete; 0 with SMC_LLC_FLAG_DEL_LINK_ALL
 * @reason: SMC_LLC_DEL_*
 * @reserved: zero
 */
struct smc_llc_delete_link {
	struct smc_llc_hdr	hd;
	u8			link_num;
	__be32			reason;
	u8			reserved[35];
} __packed;

/**
 * struct smc_llc_confirm_rkey - CONFIRM_RKEY, on the wire
 * @hd: header
 * @rtoken: rtoken[0] for this link, then up to two for other links
 * @reserved: zero
 */
struct smc_llc_confirm_rkey {
	struct smc_llc_hdr	hd;
	struct smc_llc_rtoken	rtoken[SMC_LLC_RTOKENS];
	u8			reserved;
} __packed;

/**
 * struct smc_llc_confirm_rkey_cont - CONFIRM_RKEY_CONT (v1), on the wire
 * @hd: header
 * @num_rkeys: rtokens in this and further messages
 * @rtoken: up to three rtokens
 */
struct smc_llc_confirm_rkey_cont {
	struct smc_llc_hdr	hd;
	u8			num_rkeys;
	struct smc_llc_rtoken	rtoken[SMC_LLC_RTOKENS];
} __packed;

/**
 * struct smc_llc_delete_rkey - DELETE_RKEY, on the wire
 * @hd: header
 * @num_rkeys: rkeys listed
 * @err_mask: v1 response: bit (7 - i) set when rkey[i] was not found;
 *	v2 response: the number of rkeys not found
 * @reserved: zero
 * @rkey: v1: up to eight rkeys; v2 continues past the 44 bytes
 * @reserved2: zero (v1)
 */
struct smc_llc_delete_rkey {
	struct smc_llc_hdr	hd;
	u8			num_rkeys;
	u8			err_mask;
	u8			reserved[2];
	__be32			rkey[SMC_LLC_DEL_RKEY_MAX];
	u8			reserved2[4];
} __packed;

/**
 * struct smc_llc_test_link - TEST_LINK, on the wire
 * @hd: header
 * @user_data: echoed by the response
 * @reserved: zero
 */
struct smc_llc_test_link {
	struct smc_llc_hdr	hd;
	u8			user_data[SMC_LLC_TEST_LINK_DATA];
	u8			reserved[24];
} __packed;

/**
 * struct smc_llc_req_add_link - REQ_ADD_LINK (v2), on the wire
 * @hd: header
 * @reserved: zero
 * @gid_cnt: GIDs that follow
 * @reserved2: zero
 *
 * Followed by @gid_cnt GIDs of 16 bytes.
 */
struct smc_llc_req_add_link {
	struct smc_llc_hdr	hd;
	u8			reserved[20];
	u8			gid_cnt;
	u8			reserved2[3];
} __packed;

#define SMC_LLC_ADD_LINK_V2_LEN	(sizeof(struct smc_llc_add_link) + \
				 sizeof(struct smc_llc_add_link_v2_ext))
#define SMC_LLC_DEL_RKEY_V2_OFF	offsetof(struct smc_llc_delete_rkey, rkey)

/**
 * struct smc_llc_rkey_info - one rkey triple of ADD_LINK(_CONT), host order
 * @rkey: rkey on the link the message travels on
 * @rkey_new: rkey on the new link
 * @vaddr_new: address on the new link
 */
struct smc_llc_rkey_info {
	u32	rkey;
	u32	rkey_new;
	u64	vaddr_new;
};

/**
 * struct smc_llc_rtoken_info - one CONFIRM_RKEY rtoken, host order
 * @link_id: see struct smc_llc_rtoken
 * @rkey: rkey
 * @vaddr: address
 */
struct smc_llc_rtoken_info {
	u8	link_id;
	u32	rkey;
	u64	vaddr;
};

/**
 * struct smc_llc_msg_info - a decoded LLC message, host order
 * @type: enum smc_llc_type
 * @version: SMC_LLC_V1 or SMC_LLC_V2
 * @flags: byte 3, SMC_LLC_FLAG_*
 * @length: 44 for v1; the valid length of a v2 message
 * @order: v2: the byte order length_v2 came in, a hint for answering
 *	this peer; on encode, ignored (the order is a parameter)
 * @confirm_link: CONFIRM_LINK
 * @confirm_link.mac: sender's MAC
 * @confirm_link.gid: sender's GID
 * @confirm_link.qpn: sender's QP number
 * @confirm_link.link_num: link id
 * @confirm_link.link_uid: link user id
 * @confirm_link.max_links: maximum links per link group
 * @confirm_link.max_conns: v2.1 maximum connections, else 0
 * @add_link: ADD_LINK
 * @add_link.mac: sender's MAC
 * @add_link.gid: sender's GID
 * @add_link.qpn: QP number of the new link
 * @add_link.link_num: new link id
 * @add_link.qp_mtu: QP MTU (enum ib_mtu)
 * @add_link.psn: initial PSN
 * @add_link.reject_reason: with SMC_LLC_FLAG_ADD_LINK_REJ, byte 2 bits 3-0;
 *	in v2 that byte is part of length_v2 too, so only the flag is reliable
 * @add_link.has_ext: v2 extension present (a v2 message of >= 72 bytes)
 * @add_link.v2_direct: extension: peer on the same subnet
 * @add_link.target_gid: extension: client target GID
 * @add_link.num_rkeys: extension: number of triples at @add_link.rkeys
 * @add_link.num_rkeys_derived: num_rkeys did not fit the message in either
 *	byte order, so it was taken from the length
 * @add_link.rkeys: extension: triples, pointing into the message (decode)
 *	or to be copied into it (encode); see smc_llc_rkey_get()
 * @add_link_cont: ADD_LINK_CONT
 * @add_link_cont.link_num: id of the new link
 * @add_link_cont.num_rkeys: triples still to send, this message's included
 * @add_link_cont.rkeys: the first min(num_rkeys, 2) are meaningful
 * @delete_link: DELETE_LINK
 * @delete_link.link_num: link id, 0 for all
 * @delete_link.reason: SMC_LLC_DEL_*
 * @confirm_rkey: CONFIRM_RKEY and CONFIRM_RKEY_CONT
 * @confirm_rkey.num_rkeys: CONFIRM_RKEY_CONT only: its num_rkeys byte
 * @confirm_rkey.rtoken: the three rtokens
 * @delete_rkey: DELETE_RKEY
 * @delete_rkey.num_rkeys: rkeys at @delete_rkey.rkeys
 * @delete_rkey.err_mask: see struct smc_llc_delete_rkey
 * @delete_rkey.rkeys: big-endian rkeys, pointing into the message (decode)
 *	or to be copied into it (encode); see smc_llc_del_rkey_get()
 * @test_link: TEST_LINK
 * @test_link.data: user data
 * @req_add_link: REQ_ADD_LINK
 * @req_add_link.gid_cnt: GIDs at @req_add_link.gids
 * @req_add_link.gids: GIDs, 16 bytes each, pointing into the message
 *	(decode) or to be copied into it (encode)
 *
 * The pointers of a decoded message are valid as long as its buffer is.
 */
struct smc_llc_msg_info {
	u8			type;
	u8			version;
	u8			flags;
	u16			length;
	enum smc_llc_order	order;
	union {
		struct {
			u8	mac[ETH_ALEN];
			u8	gid[SMC_LLC_GID_SIZE];
			u32	qpn;
			u8	link_num;
			u32	link_uid;
			u8	max_links;
			u8	max_conns;
		} confirm_link;
		struct {
			u8	mac[ETH_ALEN];
			u8	gid[SMC_LLC_GID_SIZE];
			u32	qpn;
			u8	link_num;
			u8	qp_mtu;
			u32	psn;
			u8	reject_reason;
			bool	has_ext;
			bool	v2_direct;
			u8	target_gid[SMC_LLC_GID_SIZE];
			u16	num_rkeys;
			bool	num_rkeys_derived;
			const struct smc_llc_rkey_triple *rkeys;
		} add_link;
		struct {
			u8	link_num;
			u8	num_rkeys;
			struct smc_llc_rkey_info
				rkeys[SMC_LLC_ADD_LINK_CONT_RKEYS];
		} add_link_cont;
		struct {
			u8	link_num;
			u32	reason;
		} delete_link;
		struct {
			u8	num_rkeys;
			struct smc_llc_rtoken_info rtoken[SMC_LLC_RTOKENS];
		} confirm_rkey;
		struct {
			u8	num_rkeys;
			u8	err_mask;
			const __be32 *rkeys;
		} delete_rkey;
		struct {
			u8	data[SMC_LLC_TEST_LINK_DATA];
		} test_link;
		struct {
			u8	gid_cnt;
			const u8 *gids;
		} req_add_link;
	};
};

static inline void smc_llc_wire_size_check(void)
{
	BUILD_BUG_ON(sizeof(struct smc_llc_hdr) != 4);
	BUILD_BUG_ON(sizeof(struct smc_llc_rkey_triple) != 16);
	BUILD_BUG_ON(sizeof(struct smc_llc_rtoken) != 13);
	BUILD_BUG_ON(sizeof(struct smc_llc_confirm_link) != SMC_LLC_LEN);
	BUILD_BUG_ON(sizeof(struct smc_llc_add_link) != SMC_LLC_LEN);
	BUILD_BUG_ON(sizeof(struct smc_llc_add_link_v2_ext) != 28);
	BUILD_BUG_ON(SMC_LLC_ADD_LINK_V2_LEN != 72);
	BUILD_BUG_ON(sizeof(struct smc_llc_add_link_cont) != SMC_LLC_LEN);
	BUILD_BUG_ON(sizeof(struct smc_llc_delete_link) != SMC_LLC_LEN);
	BUILD_BUG_ON(sizeof(struct smc_llc_confirm_rkey) != SMC_LLC_LEN);
	BUILD_BUG_ON(sizeof(struct smc_llc_confirm_rkey_cont) != SMC_LLC_LEN);
	BUILD_BUG_ON(sizeof(struct smc_llc_delete_rkey) != SMC_LLC_LEN);
	BUILD_BUG_ON(sizeof(struct smc_llc_test_link) != SMC_LLC_LEN);
	BUILD_BUG_ON(sizeof(struct smc_llc_req_add_link) != 28);
}

int smc_llc_decode(const void *buf, size_t len, struct smc_llc_msg_info *m);
int smc_llc_encode(void *buf, size_t size, const struct smc_llc_msg_info *m,
		   enum smc_llc_order order);
void smc_llc_rkey_get(const struct smc_llc_rkey_triple *wire,
		      struct smc_llc_rkey_info *info);
void smc_llc_rkey_set(struct smc_llc_rkey_triple *wire,
		      const struct smc_llc_rkey_info *info);
u32 smc_llc_del_rkey_get(const struct smc_llc_msg_info *m, unsigned int i);

#endif /* _NET_SMC_LLC_WIRE_H */
