// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * LLC wire codec: one decoder that checks a received message against the
 * length rules and turns it into struct smc_llc_msg_info, and one encoder
 * that does the reverse for every message type, so that the link layer
 * never touches wire bytes itself.
 *
 * The v2 16-bit fields.  Linux keeps length_v2 (bytes 1-2) and the
 * ADD_LINK v2 num_rkeys (offset 70) as plain u16, i.e. in the sender's
 * CPU order; what the IBM v2 specification says is not known to us.  So:
 *  - we emit them in the order the caller passes (SMC_LLC_ORDER_DEFAULT,
 *    little-endian, for the x86 peers we mostly meet; an s390x build or
 *    a caller that learnt the peer's order may choose big-endian);
 *  - we accept length_v2 in either order: the reading that is at least
 *    44, at most 8192 and at most what arrived wins; if both do, the one
 *    equal to the received length, else little-endian.  The order found
 *    is reported in smc_llc_msg_info.order;
 *  - num_rkeys is read in the order length_v2 came in; if that count of
 *    triples does not fit the message, the field looks byte-swapped (or
 *    was truncated to a byte by the peer) and the count is derived from
 *    the length instead: (length_v2 - 72) / 16.
 */

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>

#include "smc_compat.h"
#include "smc_llc_wire.h"

#define SMC_LLC_REQ_ADD_LINK_LEN	sizeof(struct smc_llc_req_add_link)

static u16 smc_llc_get16(const u8 *p, enum smc_llc_order order)
{
	if (order == SMC_LLC_ORDER_BE)
		return p[0] << 8 | p[1];
	return p[1] << 8 | p[0];
}

static void smc_llc_put16(u8 *p, u16 v, enum smc_llc_order order)
{
	if (order == SMC_LLC_ORDER_BE) {
		p[0] = v >> 8;
		p[1] = v;
	} else {
		p[0] = v;
		p[1] = v >> 8;
	}
}

/*
 * The type bytes Linux registers a handler for; any other is dropped
 * unseen by the peer, so we report it apart from malformed messages.
 */
static bool smc_llc_type_known(u8 version, u8 type)
{
	switch (type) {
	case SMC_LLC_CONFIRM_LINK:
	case SMC_LLC_ADD_LINK:
	case SMC_LLC_DELETE_LINK:
	case SMC_LLC_CONFIRM_RKEY:
	case SMC_LLC_TEST_LINK:
	case SMC_LLC_DELETE_RKEY:
		return version == SMC_LLC_V1 || version == SMC_LLC_V2;
	case SMC_LLC_ADD_LINK_CONT:
	case SMC_LLC_CONFIRM_RKEY_CONT:
		return version == SMC_LLC_V1;
	case SMC_LLC_REQ_ADD_LINK:
		return version == SMC_LLC_V2;
	default:
		return false;
	}
}

static bool smc_llc_len_ok(u16 v, size_t max)
{
	return v >= SMC_LLC_LEN && v <= max;
}

static int smc_llc_decode_len_v2(const struct smc_llc_hdr *hd, size_t len,
				 struct smc_llc_msg_info *m)
{
	u16 le = smc_llc_get16(hd->length_v2, SMC_LLC_ORDER_LE);
	u16 be = smc_llc_get16(hd->length_v2, SMC_LLC_ORDER_BE);
	size_t max = min_t(size_t, len, SMC_LLC_LEN_V2_MAX);
	bool le_ok = smc_llc_len_ok(le, max);
	bool be_ok = smc_llc_len_ok(be, max);
	u16 v;

	/*
	 * A Linux client rejects a v2 ADD_LINK by echoing the 44 bytes of
	 * the request with the reason in byte 2 bits 3-0, on top of
	 * length_v2: that length means nothing any more.  No v2 length
	 * has a zero low byte, which tells the order well enough.
	 */
	if (m->type == SMC_LLC_ADD_LINK &&
	    (hd->flags & SMC_LLC_FLAG_ADD_LINK_REJ)) {
		m->length = SMC_LLC_LEN;
		m->order = hd->length_v2[0] ? SMC_LLC_ORDER_LE :
					      SMC_LLC_ORDER_BE;
		return 0;
	}
	if (le_ok && (!be_ok || le == len || be != len)) {
		m->length = le;
		m->order = SMC_LLC_ORDER_LE;
		return 0;
	}
	if (be_ok) {
		m->length = be;
		m->order = SMC_LLC_ORDER_BE;
		return 0;
	}
	/* classify by the more plausible reading */
	v = le;
	if (smc_llc_len_ok(be, SMC_LLC_LEN_V2_MAX) &&
	    !smc_llc_len_ok(le, SMC_LLC_LEN_V2_MAX))
		v = be;
	return v < SMC_LLC_LEN ? -EPROTO : -EMSGSIZE;
}

static void smc_llc_decode_confirm_link(const void *buf,
					struct smc_llc_msg_info *m)
{
	const struct smc_llc_confirm_link *cl = buf;

	memcpy(m->confirm_link.mac, cl->sender_mac, ETH_ALEN);
	memcpy(m->confirm_link.gid, cl->sender_gid, SMC_LLC_GID_SIZE);
	m->confirm_link.qpn = get_unaligned_be24(cl->sender_qpn);
	m->confirm_link.link_num = cl->link_num;
	m->confirm_link.link_uid = be32_to_cpu(cl->link_uid);
	m->confirm_link.max_links = cl->max_links;
	m->confirm_link.max_conns = cl->max_conns;
}

static void smc_llc_decode_add_link(const u8 *buf,
				    struct smc_llc_msg_info *m)
{
	const struct smc_llc_add_link *al = (const void *)buf;
	const struct smc_llc_add_link_v2_ext *ext;
	unsigned int room;
	u16 n;

	memcpy(m->add_link.mac, al->sender_mac, ETH_ALEN);
	memcpy(m->add_link.gid, al->sender_gid, SMC_LLC_GID_SIZE);
	m->add_link.qpn = get_unaligned_be24(al->sender_qpn);
	m->add_link.link_num = al->link_num;
	m->add_link.qp_mtu = FIELD_GET(SMC_LLC_ADD_LINK_MTU, al->qp_mtu);
	m->add_link.psn = get_unaligned_be24(al->initial_psn);
	if (m->flags & SMC_LLC_FLAG_ADD_LINK_REJ)
		m->add_link.reject_reason =
			FIELD_GET(SMC_LLC_ADD_LINK_REJ_REASON, buf[2]);
	if (m->version != SMC_LLC_V2 || m->length < SMC_LLC_ADD_LINK_V2_LEN)
		return;

	ext = (const void *)(buf + sizeof(*al));
	m->add_link.has_ext = true;
	m->add_link.v2_direct = !!(ext->v2_direct & 0x80);
	memcpy(m->add_link.target_gid, ext->client_target_gid,
	       SMC_LLC_GID_SIZE);
	room = (m->length - SMC_LLC_ADD_LINK_V2_LEN) /
	       sizeof(struct smc_llc_rkey_triple);
	n = smc_llc_get16(ext->num_rkeys, m->order);
	if (n > room) {
		/* byte-swapped or truncated by the sender, see the top */
		n = room;
		m->add_link.num_rkeys_derived = true;
	}
	m->add_link.num_rkeys = min_t(u16, n, SMC_LLC_RKEYS_MAX_V2);
	m->add_link.rkeys = (const void *)(buf + SMC_LLC_ADD_LINK_V2_LEN);
}

static void smc_llc_decode_add_link_cont(const void *buf,
					 struct smc_llc_msg_info *m)
{
	const struct smc_llc_add_link_cont *alc = buf;
	unsigned int i;

	m->add_link_cont.link_num = alc->link_num;
	m->add_link_cont.num_rkeys = alc->num_rkeys;
	for (i = 0; i < SMC_LLC_ADD_LINK_CONT_RKEYS; i++)
		smc_llc_rkey_get(&alc->rt[i], &m->add_link_cont.rkeys[i]);
}

static void smc_llc_decode_rtokens(const struct smc_llc_rtoken *rt,
				   struct smc_llc_msg_info *m)
{
	unsigned int i;

	for (i = 0; i < SMC_LLC_RTOKENS; i++) {
		m->confirm_rkey.rtoken[i].link_id = rt[i].link_id;
		m->confirm_rkey.rtoken[i].rkey = be32_to_cpu(rt[i].rkey);
		m->confirm_rkey.rtoken[i].vaddr = be64_to_cpu(rt[i].vaddr);
	}
}

static int smc_llc_decode_delete_rkey(const u8 *buf,
				      struct smc_llc_msg_info *m)
{
	const struct smc_llc_delete_rkey *dr = (const void *)buf;
	unsigned int max = SMC_LLC_DEL_RKEY_MAX;

	/* v2 lists the rkeys up to the end of the message */
	if (m->version == SMC_LLC_V2)
		max = (m->length - SMC_LLC_DEL_RKEY_V2_OFF) / sizeof(__be32);
	if (dr->num_rkeys > max)
		return -EPROTO;
	m->delete_rkey.num_rkeys = dr->num_rkeys;
	m->delete_rkey.err_mask = dr->err_mask;
	m->delete_rkey.rkeys = (const void *)(buf + SMC_LLC_DEL_RKEY_V2_OFF);
	return 0;
}

static int smc_llc_decode_req_add_link(const u8 *buf,
				       struct smc_llc_msg_info *m)
{
	const struct smc_llc_req_add_link *ral = (const void *)buf;

	if (SMC_LLC_REQ_ADD_LINK_LEN + ral->gid_cnt * SMC_LLC_GID_SIZE >
	    m->length)
		return -EPROTO;
	m->req_add_link.gid_cnt = ral->gid_cnt;
	m->req_add_link.gids = buf + SMC_LLC_REQ_ADD_LINK_LEN;
	return 0;
}

/**
 * smc_llc_decode() - check and decode a received LLC message
 * @buf: received bytes
 * @len: how many arrived
 * @m: filled in on success; its pointers point into @buf
 *
 * Length rules: at least 44 bytes must have arrived; a v1 length byte
 * must be 44; a v2 length_v2 (either byte order, see the top of this
 * file) must be 44..8192 and no more than @len.  Counts that would reach
 * past the message (DELETE_RKEY, REQ_ADD_LINK) make it malformed.
 *
 * Context: any context.
 * Return: 0; -ENOMSG for a type byte Linux has no handler for (drop it
 * silently); -EMSGSIZE if fewer bytes arrived than the message needs;
 * -EPROTO for a wrong length field or an inconsistent count.
 */
int smc_llc_decode(const void *buf, size_t len, struct smc_llc_msg_info *m)
{
	const struct smc_llc_hdr *hd = buf;
	const u8 *p = buf;
	int rc;

	if (len < SMC_LLC_LEN)
		return -EMSGSIZE;
	memset(m, 0, sizeof(*m));
	m->version = FIELD_GET(SMC_LLC_HDR_VERSION, hd->type);
	m->type = FIELD_GET(SMC_LLC_HDR_TYPE, hd->type);
	m->flags = hd->flags;
	if (!smc_llc_type_known(m->version, m->type))
		return -ENOMSG;
	if (m->version == SMC_LLC_V1) {
		if (hd->length != SMC_LLC_LEN)
			return -EPROTO;
		m->length = SMC_LLC_LEN;
	} else {
		rc = smc_llc_decode_len_v2(hd, len, m);
		if (rc)
			return rc;
	}

	switch (m->type) {
	case SMC_LLC_CONFIRM_LINK:
		smc_llc_decode_confirm_link(buf, m);
		break;
	case SMC_LLC_ADD_LINK:
		smc_llc_decode_add_link(p, m);
		break;
	case SMC_LLC_ADD_LINK_CONT:
		smc_llc_decode_add_link_cont(buf, m);
		break;
	case SMC_LLC_DELETE_LINK: {
		const struct smc_llc_delete_link *dl = buf;

		m->delete_link.link_num = dl->link_num;
		m->delete_link.reason = be32_to_cpu(dl->reason);
		break;
	}
	case SMC_LLC_CONFIRM_RKEY:
		smc_llc_decode_rtokens(((const struct smc_llc_confirm_rkey *)
					buf)->rtoken, m);
		break;
	case SMC_LLC_CONFIRM_RKEY_CONT: {
		const struct smc_llc_confirm_rkey_cont *crc = buf;

		m->confirm_rkey.num_rkeys = crc->num_rkeys;
		smc_llc_decode_rtokens(crc->rtoken, m);
		break;
	}
	case SMC_LLC_TEST_LINK:
		memcpy(m->test_link.data,
		       ((const struct smc_llc_test_link *)buf)->user_data,
		       SMC_LLC_TEST_LINK_DATA);
		break;
	case SMC_LLC_DELETE_RKEY:
		return smc_llc_decode_delete_rkey(p, m);
	case SMC_LLC_REQ_ADD_LINK:
		return smc_llc_decode_req_add_link(p, m);
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(smc_llc_decode);

/* the length of the message @m describes, or a negative errno */
static int smc_llc_encode_len(const struct smc_llc_msg_info *m)
{
	unsigned int n;

	if (!smc_llc_type_known(m->version, m->type))
		return -EINVAL;
	if (m->version == SMC_LLC_V1) {
		if (m->type == SMC_LLC_DELETE_RKEY &&
		    m->delete_rkey.num_rkeys > SMC_LLC_DEL_RKEY_MAX)
			return -EINVAL;
		return SMC_LLC_LEN;
	}
	switch (m->type) {
	case SMC_LLC_ADD_LINK:
		if (!m->add_link.has_ext ||
		    (m->flags & SMC_LLC_FLAG_ADD_LINK_REJ))
			return SMC_LLC_LEN;
		n = m->add_link.num_rkeys;
		if (n > SMC_LLC_RKEYS_MAX_V2 || (n && !m->add_link.rkeys))
			return -EINVAL;
		return SMC_LLC_ADD_LINK_V2_LEN +
		       n * sizeof(struct smc_llc_rkey_triple);
	case SMC_LLC_DELETE_RKEY:
		n = m->delete_rkey.num_rkeys;
		if (n && !m->delete_rkey.rkeys)
			return -EINVAL;
		return max_t(unsigned int, SMC_LLC_LEN,
			     SMC_LLC_DEL_RKEY_V2_OFF + n * sizeof(__be32));
	case SMC_LLC_REQ_ADD_LINK:
		n = m->req_add_link.gid_cnt;
		if (n && !m->req_add_link.gids)
			return -EINVAL;
		return max_t(unsigned int, SMC_LLC_LEN,
			     SMC_LLC_REQ_ADD_LINK_LEN + n * SMC_LLC_GID_SIZE);
	default:
		return SMC_LLC_LEN;
	}
}

static void smc_llc_encode_add_link(u8 *buf, const struct smc_llc_msg_info *m,
				    enum smc_llc_order order)
{
	struct smc_llc_add_link *al = (void *)buf;
	struct smc_llc_add_link_v2_ext *ext;

	memcpy(al->sender_mac, m->add_link.mac, ETH_ALEN);
	memcpy(al->sender_gid, m->add_link.gid, SMC_LLC_GID_SIZE);
	put_unaligned_be24(m->add_link.qpn, al->sender_qpn);
	al->link_num = m->add_link.link_num;
	al->qp_mtu = FIELD_PREP(SMC_LLC_ADD_LINK_MTU, m->add_link.qp_mtu);
	put_unaligned_be24(m->add_link.psn, al->initial_psn);
	if (m->flags & SMC_LLC_FLAG_ADD_LINK_REJ) {
		/* byte 2 bits 3-0; in v2 on top of length_v2, as Linux does */
		buf[2] |= FIELD_PREP(SMC_LLC_ADD_LINK_REJ_REASON,
				     m->add_link.reject_reason);
		return;
	}
	if (m->version != SMC_LLC_V2 || !m->add_link.has_ext)
		return;

	ext = (void *)(buf + sizeof(*al));
	ext->v2_direct = m->add_link.v2_direct ? 0x80 : 0;
	memcpy(ext->client_target_gid, m->add_link.target_gid,
	       SMC_LLC_GID_SIZE);
	smc_llc_put16(ext->num_rkeys, m->add_link.num_rkeys, order);
	if (m->add_link.num_rkeys)
		memcpy(buf + SMC_LLC_ADD_LINK_V2_LEN, m->add_link.rkeys,
		       m->add_link.num_rkeys *
		       sizeof(struct smc_llc_rkey_triple));
}

static void smc_llc_encode_rtokens(struct smc_llc_rtoken *rt,
				   const struct smc_llc_msg_info *m)
{
	unsigned int i;

	for (i = 0; i < SMC_LLC_RTOKENS; i++) {
		rt[i].link_id = m->confirm_rkey.rtoken[i].link_id;
		rt[i].rkey = cpu_to_be32(m->confirm_rkey.rtoken[i].rkey);
		rt[i].vaddr = cpu_to_be64(m->confirm_rkey.rtoken[i].vaddr);
	}
}

static void smc_llc_encode_body(u8 *buf, const struct smc_llc_msg_info *m,
				enum smc_llc_order order)
{
	switch (m->type) {
	case SMC_LLC_CONFIRM_LINK: {
		struct smc_llc_confirm_link *cl = (void *)buf;

		memcpy(cl->sender_mac, m->confirm_link.mac, ETH_ALEN);
		memcpy(cl->sender_gid, m->confirm_link.gid, SMC_LLC_GID_SIZE);
		put_unaligned_be24(m->confirm_link.qpn, cl->sender_qpn);
		cl->link_num = m->confirm_link.link_num;
		cl->link_uid = cpu_to_be32(m->confirm_link.link_uid);
		cl->max_links = m->confirm_link.max_links;
		cl->max_conns = m->confirm_link.max_conns;
		break;
	}
	case SMC_LLC_ADD_LINK:
		smc_llc_encode_add_link(buf, m, order);
		break;
	case SMC_LLC_ADD_LINK_CONT: {
		struct smc_llc_add_link_cont *alc = (void *)buf;
		unsigned int i;

		alc->link_num = m->add_link_cont.link_num;
		alc->num_rkeys = m->add_link_cont.num_rkeys;
		for (i = 0; i < SMC_LLC_ADD_LINK_CONT_RKEYS; i++)
			smc_llc_rkey_set(&alc->rt[i],
					 &m->add_link_cont.rkeys[i]);
		break;
	}
	case SMC_LLC_DELETE_LINK: {
		struct smc_llc_delete_link *dl = (void *)buf;

		dl->link_num = m->delete_link.link_num;
		dl->reason = cpu_to_be32(m->delete_link.reason);
		break;
	}
	case SMC_LLC_CONFIRM_RKEY:
		smc_llc_encode_rtokens(((struct smc_llc_confirm_rkey *)buf)->rtoken,
				       m);
		break;
	case SMC_LLC_CONFIRM_RKEY_CONT: {
		struct smc_llc_confirm_rkey_cont *crc = (void *)buf;

		crc->num_rkeys = m->confirm_rkey.num_rkeys;
		smc_llc_encode_rtokens(crc->rtoken, m);
		break;
	}
	case SMC_LLC_TEST_LINK:
		memcpy(((struct smc_llc_test_link *)buf)->user_data,
		       m->test_link.data, SMC_LLC_TEST_LINK_DATA);
		break;
	case SMC_LLC_DELETE_RKEY: {
		struct smc_llc_delete_rkey *dr = (void *)buf;

		dr->num_rkeys = m->delete_rkey.num_rkeys;
		dr->err_mask = m->delete_rkey.err_mask;
		if (m->delete_rkey.num_rkeys)
			memcpy(buf + SMC_LLC_DEL_RKEY_V2_OFF,
			       m->delete_rkey.rkeys,
			       m->delete_rkey.num_rkeys * sizeof(__be32));
		break;
	}
	case SMC_LLC_REQ_ADD_LINK: {
		struct smc_llc_req_add_link *ral = (void *)buf;

		ral->gid_cnt = m->req_add_link.gid_cnt;
		if (ral->gid_cnt)
			memcpy(buf + SMC_LLC_REQ_ADD_LINK_LEN,
			       m->req_add_link.gids,
			       ral->gid_cnt * SMC_LLC_GID_SIZE);
		break;
	}
	}
}

/**
 * smc_llc_encode() - build an LLC message
 * @buf: where to put it
 * @size: room at @buf
 * @m: the message: @m->type, @m->version and @m->flags, and the member
 *	of the union for @m->type; @m->length and @m->order are ignored
 * @order: byte order of the v2 16-bit fields (SMC_LLC_ORDER_DEFAULT, or
 *	the order the peer was seen to use)
 *
 * One encoder for all types, so that a message decodes and encodes
 * through the same struct.  Reserved bytes are zeroed.  The length comes
 * from the content: 44 for v1, and for v2 the ADD_LINK extension with its
 * triples, the DELETE_RKEY list or the REQ_ADD_LINK GIDs, at least 44.
 * A v2 ADD_LINK reject is 44 bytes with the reason on top of length_v2,
 * as Linux sends it.
 *
 * Context: any context.
 * Return: the message length, -EINVAL for a type or count the wire
 * cannot carry, or -EMSGSIZE if it does not fit in @size.
 */
int smc_llc_encode(void *buf, size_t size, const struct smc_llc_msg_info *m,
		   enum smc_llc_order order)
{
	struct smc_llc_hdr *hd = buf;
	int len;

	smc_llc_wire_size_check();
	len = smc_llc_encode_len(m);
	if (len < 0)
		return len;
	if ((size_t)len > size)
		return -EMSGSIZE;
	memset(buf, 0, len);
	hd->type = FIELD_PREP(SMC_LLC_HDR_VERSION, m->version) |
		   FIELD_PREP(SMC_LLC_HDR_TYPE, m->type);
	if (m->version == SMC_LLC_V1)
		hd->length = SMC_LLC_LEN;
	else
		smc_llc_put16(hd->length_v2, len, order);
	hd->flags = m->flags;
	smc_llc_encode_body(buf, m, order);
	return len;
}
EXPORT_SYMBOL_IF_KUNIT(smc_llc_encode);

/**
 * smc_llc_rkey_get() - read an rkey triple
 * @wire: the triple in a message, possibly unaligned
 * @info: filled in, host order
 *
 * Context: any context.
 */
void smc_llc_rkey_get(const struct smc_llc_rkey_triple *wire,
		      struct smc_llc_rkey_info *info)
{
	info->rkey = be32_to_cpu(wire->rkey);
	info->rkey_new = be32_to_cpu(wire->rkey_new);
	info->vaddr_new = be64_to_cpu(wire->vaddr_new);
}
EXPORT_SYMBOL_IF_KUNIT(smc_llc_rkey_get);

/**
 * smc_llc_rkey_set() - write an rkey triple
 * @wire: the triple in a message or in an array for smc_llc_encode()
 * @info: the values, host order
 *
 * Context: any context.
 */
void smc_llc_rkey_set(struct smc_llc_rkey_triple *wire,
		      const struct smc_llc_rkey_info *info)
{
	wire->rkey = cpu_to_be32(info->rkey);
	wire->rkey_new = cpu_to_be32(info->rkey_new);
	wire->vaddr_new = cpu_to_be64(info->vaddr_new);
}
EXPORT_SYMBOL_IF_KUNIT(smc_llc_rkey_set);

/**
 * smc_llc_del_rkey_get() - read one rkey of a decoded DELETE_RKEY
 * @m: decoded DELETE_RKEY
 * @i: index, below @m->delete_rkey.num_rkeys
 *
 * Context: any context.
 * Return: the rkey in host order.
 */
u32 smc_llc_del_rkey_get(const struct smc_llc_msg_info *m, unsigned int i)
{
	__be32 v;

	/* the list may sit at any alignment in a receive buffer */
	memcpy(&v, &m->delete_rkey.rkeys[i], sizeof(v));
	return be32_to_cpu(v);
}
EXPORT_SYMBOL_IF_KUNIT(smc_llc_del_rkey_get);
