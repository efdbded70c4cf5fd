/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * Cursor arithmetic of the data layer.  A cursor is a position in a ring
 * (an RMBE or a send buffer) of a given size: a byte count below the size
 * and a 16-bit wrap counter that counts the laps.  The producer cursor
 * says how far one side has written into the peer's RMBE, the consumer
 * cursor how far the peer has read; their distance is the data in flight,
 * and size minus that the space the writer may still fill.
 */
#ifndef _NET_SMC_CURSOR_H
#define _NET_SMC_CURSOR_H

#include <linux/atomic.h>
#include <linux/bug.h>
#include <linux/net.h>
#include <linux/minmax.h>
#include <linux/types.h>
#include <net/sock.h>

/**
 * union smc_cursor - a ring position, host order
 * @wrap: laps completed, wraps from 0xffff to 0
 * @reserved: zero
 * @count: byte offset in the ring, below its size
 * @acurs: all of it, for tearing-free copies on 32-bit machines too
 */
union smc_cursor {
	struct {
		u16	wrap;
		u16	reserved;
		u32	count;
	};
	atomic64_t	acurs;
};

/**
 * smc_cursor_read() - copy a cursor that another CPU may be updating
 * @c: the cursor
 *
 * Context: any context.
 * Return: @c as one consistent snapshot.
 */
static inline union smc_cursor smc_cursor_read(const union smc_cursor *c)
{
	union smc_cursor v;

	atomic64_set(&v.acurs, atomic64_read(&c->acurs));
	return v;
}

/**
 * smc_cursor_write() - update a cursor that other CPUs may read
 * @c: the cursor
 * @v: the new value
 *
 * Context: any context; writers serialise among themselves.
 */
static inline void smc_cursor_write(union smc_cursor *c, union smc_cursor v)
{
	atomic64_set(&c->acurs, atomic64_read(&v.acurs));
}

/**
 * smc_cursor_valid() - is a received cursor inside the ring?
 * @size: ring size
 * @c: the cursor
 *
 * Context: any context.
 * Return: true if @c->count is below @size.
 */
static inline bool smc_cursor_valid(u32 size, const union smc_cursor *c)
{
	return c->count < size;
}

/**
 * smc_cursor_add() - advance a cursor
 * @size: ring size
 * @c: the cursor, advanced in place
 * @value: bytes to advance, at most @size
 *
 * Passing the end of the ring starts the next lap: count drops by @size
 * and wrap goes up by one, from 0xffff to 0 as well.
 *
 * Context: any context.
 */
static inline void smc_cursor_add(u32 size, union smc_cursor *c, u32 value)
{
	DEBUG_NET_WARN_ON_ONCE(value > size || c->count >= size);
	c->count += value;
	if (c->count >= size) {
		c->count -= size;
		c->wrap++;
	}
}

/**
 * smc_cursor_sub() - move a cursor back
 * @size: ring size
 * @c: the cursor, moved in place
 * @value: bytes to move back, at most @size
 *
 * The inverse of smc_cursor_add(): going back past the start of the
 * ring returns to the previous lap.
 *
 * Context: any context.
 */
static inline void smc_cursor_sub(u32 size, union smc_cursor *c, u32 value)
{
	DEBUG_NET_WARN_ON_ONCE(value > size || c->count >= size);
	if (value > c->count) {
		c->count = c->count + size - value;
		c->wrap--;
	} else {
		c->count -= value;
	}
}

/**
 * smc_cursor_diff() - bytes from one cursor to a later one
 * @size: ring size
 * @old: the earlier cursor
 * @new: the later cursor
 *
 * In the same lap that is the count difference, 0 if @new is behind;
 * across a lap end it is what is left of @old's lap plus @new's count.
 * Valid cursors are at most one lap apart, so the result is limited to
 * @size: a peer's garbage cannot make a window larger than the ring.
 *
 * Context: any context.
 * Return: 0..@size.
 */
static inline u32 smc_cursor_diff(u32 size, const union smc_cursor *old,
				  const union smc_cursor *new)
{
	if (old->wrap == new->wrap)
		return new->count > old->count ? new->count - old->count : 0;
	return min_t(u64, (u64)size - old->count + new->count, size);
}

/**
 * smc_cursor_behind() - would an update move a cursor backwards?
 * @old: the cursor as known
 * @new: a received value for it
 *
 * A cursor never moves backwards, so a received one that is behind the
 * known one is stale and ignored.  Wrap counters compare in serial-number
 * arithmetic: 0 after 0xffff is ahead.
 *
 * Context: any context.
 * Return: true if @new is behind @old.
 */
static inline bool smc_cursor_behind(const union smc_cursor *old,
				     const union smc_cursor *new)
{
	u16 laps = (new->wrap - old->wrap) & 0xffff;

	return laps >= 0x8000 || (!laps && new->count < old->count);
}

/**
 * smc_cursor_comp() - compare two cursors
 * @size: ring size
 * @old: one cursor
 * @new: another
 *
 * Wrap counters compare in serial-number arithmetic, so that wrap 0
 * follows wrap 0xffff.
 *
 * Context: any context.
 * Return: the distance from @old to @new, negative if @new is behind.
 */
static inline int smc_cursor_comp(u32 size, const union smc_cursor *old,
				  const union smc_cursor *new)
{
	if (smc_cursor_behind(old, new))
		return -(int)smc_cursor_diff(size, new, old);
	return smc_cursor_diff(size, old, new);
}

/**
 * smc_cursor_free() - space left in the peer's RMBE
 * @size: the peer's RMBE size
 * @peer_cons: the consumer cursor last received from the peer
 * @prod: our producer cursor into that RMBE
 *
 * Context: any context.
 * Return: bytes we may still write, 0..@size.
 */
static inline u32 smc_cursor_free(u32 size, const union smc_cursor *peer_cons,
				  const union smc_cursor *prod)
{
	return size - smc_cursor_diff(size, peer_cons, prod);
}

/**
 * smc_rmb_update_limit() - consumed bytes worth a cursor update
 * @rmbe_size: size of our RMBE
 *
 * RFC 7609's 10 % of the RMBE, but at least half the smallest socket
 * send buffer, so that small RMBEs do not cost a CDC every few bytes
 * (the max() replaced an older min() in Linux).
 *
 * Context: any context.
 * Return: the limit in bytes.
 */
static inline u32 smc_rmb_update_limit(u32 rmbe_size)
{
	return max_t(u32, rmbe_size / 10, SOCK_MIN_SNDBUF / 2);
}

/**
 * struct smc_cons_update - what decides a consumer-cursor update
 * @rmbe_size: size of our RMBE
 * @confirmed: consumer cursor last sent to the peer
 * @cons: our consumer cursor now
 * @peer_prod: producer cursor last received from the peer
 * @peer_upd_req: the peer set cons_curs_upd_req
 * @peer_write_blocked: the peer set write_blocked
 * @force: urgent data was consumed
 */
struct smc_cons_update {
	u32			rmbe_size;
	union smc_cursor	confirmed;
	union smc_cursor	cons;
	union smc_cursor	peer_prod;
	bool			peer_upd_req;
	bool			peer_write_blocked;
	bool			force;
};

/**
 * smc_cons_update_needed() - must the receiver send its consumer cursor?
 * @u: the state
 *
 * Yes if the peer asked, or urgent data was consumed; or if more than
 * smc_rmb_update_limit() bytes were consumed since the last update and
 * the peer either sees at most half the RMBE free or is blocked.
 *
 * Context: any context.
 * Return: true if a CDC with the consumer cursor should go out now.
 */
static inline bool smc_cons_update_needed(const struct smc_cons_update *u)
{
	u32 to_confirm, peer_free;

	if (u->peer_upd_req || u->force)
		return true;
	to_confirm = smc_cursor_diff(u->rmbe_size, &u->confirmed, &u->cons);
	if (to_confirm <= smc_rmb_update_limit(u->rmbe_size))
		return false;
	/* the peer's view: written up to peer_prod, freed up to confirmed */
	peer_free = smc_cursor_free(u->rmbe_size, &u->confirmed,
				    &u->peer_prod);
	return peer_free <= u->rmbe_size / 2 || u->peer_write_blocked;
}

/**
 * struct smc_tx_rewind - a sender's cursors when its connection moves to
 *	another link
 * @fin: send ring: end of the data whose CDC completed on the old link
 * @sent: send ring: end of the data written to the peer
 * @prod: the peer's RMBE: our producer cursor, where @sent landed
 * @peer_cons: the peer's RMBE: its consumer cursor, as it last told us
 * @freed: out: send ring bytes freed without a completion (the peer
 *	consumed them, so it had them)
 * @space: out: free bytes of the peer's RMBE from the new cursors
 *
 * The send ring and the peer's RMBE carry the same stream, so @sent and
 * @prod move together and the producer cursor at @fin is @prod less the
 * bytes between @fin and @sent.  The stream position to start from is the
 * later of @fin and @peer_cons.
 */
struct smc_tx_rewind {
	union smc_cursor	fin;
	union smc_cursor	sent;
	union smc_cursor	prod;
	union smc_cursor	peer_cons;
	u32			freed;
	u32			space;
};

/**
 * smc_tx_rewind() - where a sender starts again on a new link
 * @sndlen: send ring size
 * @rmbelen: the peer's RMBE size
 * @r: the cursors, updated in place
 *
 * Only a completed CDC proves the peer got the writes before it (RC
 * ordering on one QP): @sent and @prod go back to @fin and the producer
 * cursor there, and everything after is written again at the same RMBE
 * offsets.  What the peer's consumer cursor shows it read past that
 * point arrived, though its CDC's completion was lost: the cursors skip
 * it, and its send ring space is freed.  Rewritten bytes the peer has
 * already are the same bytes, which the send ring kept.
 *
 * Context: any context; the caller holds what keeps the cursors still.
 */
static inline void smc_tx_rewind(u32 sndlen, u32 rmbelen,
				 struct smc_tx_rewind *r)
{
	u32 unconfirmed = smc_cursor_diff(sndlen, &r->fin, &r->sent);
	u32 unread = smc_cursor_diff(rmbelen, &r->peer_cons, &r->prod);
	u32 back = min(unconfirmed, unread);

	/* the peer read what it consumed: only the rest goes again */
	smc_cursor_add(sndlen, &r->fin, unconfirmed - back);
	r->sent = r->fin;
	smc_cursor_sub(rmbelen, &r->prod, back);
	r->freed = unconfirmed - back;
	r->space = rmbelen - (unread - back);
}

#endif /* _NET_SMC_CURSOR_H */
