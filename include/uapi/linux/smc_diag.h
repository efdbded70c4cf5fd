/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * sock_diag interface for SMC sockets: send a SOCK_DIAG_BY_FAMILY dump
 * request on NETLINK_SOCK_DIAG with a struct smc_diag_req; every SMC
 * socket is answered with a struct smc_diag_msg plus SMC_DIAG_* attributes.
 */
#ifndef _UAPI_LINUX_SMC_DIAG_H
#define _UAPI_LINUX_SMC_DIAG_H

#include <linux/types.h>
#include <linux/inet_diag.h>
#include <rdma/ib_user_verbs.h>

/* Request: 52 bytes */
struct smc_diag_req {
	__u8	diag_family;	/* AF_SMC */
	__u8	pad[2];
	__u8	diag_ext;	/* bit (attr - 1) asks for SMC_DIAG_<attr> */
	struct inet_diag_sockid	id;	/* not used for filtering */
};

/* Reply header, one per socket: 64 bytes */
struct smc_diag_msg {
	__u8	diag_family;	/* sk_family of the SMC socket */
	__u8	diag_state;	/* SMC socket state (SMC_ACTIVE, ...) */
	union {
		__u8	diag_mode;	/* SMC_DIAG_MODE_* */
		__u8	diag_fallback;	/* old name, same byte */
	} __attribute__((packed));
	__u8	diag_shutdown;	/* see the SMC_DIAG_SHUTDOWN attribute */
	struct inet_diag_sockid	id;	/* of the TCP (CLC) socket */

	__u32	diag_uid;
	__aligned_u64	diag_inode;
};

/* Values of smc_diag_msg.diag_mode */
enum {
	SMC_DIAG_MODE_SMCR,		/* SMC over RDMA */
	SMC_DIAG_MODE_FALLBACK_TCP,	/* plain TCP after fallback */
	SMC_DIAG_MODE_SMCD,		/* SMC over ISM / loopback */
};

/* Attributes following struct smc_diag_msg */
enum {
	SMC_DIAG_NONE,
	SMC_DIAG_CONNINFO,	/* struct smc_diag_conninfo */
	SMC_DIAG_LGRINFO,	/* struct smc_diag_lgrinfo, SMC-R only */
	SMC_DIAG_SHUTDOWN,	/* __u8: sk_shutdown bits, always present */
	SMC_DIAG_DMBINFO,	/* struct smcd_diag_dmbinfo, SMC-D only */
	SMC_DIAG_FALLBACK,	/* struct smc_diag_fallback, always present */
	__SMC_DIAG_MAX,
};

#define SMC_DIAG_MAX (__SMC_DIAG_MAX - 1)

/* Reason codes of SMC_DIAG_FALLBACK: 8 bytes */
struct smc_diag_fallback {
	__u32	reason;		/* local fallback / decline reason */
	__u32	peer_diagnosis;	/* code received in the peer's decline */
};

/* A position in a ring buffer: 8 bytes, host byte order */
struct smc_diag_cursor {
	__u16	reserved;
	__u16	wrap;		/* wrap-around counter */
	__u32	count;		/* byte offset within the buffer */
};

/* SMC_DIAG_CONNINFO: 76 bytes */
struct smc_diag_conninfo {
	__u32	token;			/* connection alert token */
	__u32	sndbuf_size;		/* local send buffer, bytes */
	__u32	rmbe_size;		/* local receive buffer, bytes */
	__u32	peer_rmbe_size;		/* peer's receive buffer, bytes */
	/* local receive buffer */
	struct smc_diag_cursor	rx_prod;	/* producer, peer-written */
	struct smc_diag_cursor	rx_cons;	/* consumer, locally read */
	/* peer's receive buffer, as known locally */
	struct smc_diag_cursor	tx_prod;	/* producer, locally written */
	struct smc_diag_cursor	tx_cons;	/* consumer, peer-read */
	__u8	rx_prod_flags;		/* CDC producer flags received */
	__u8	rx_conn_state_flags;	/* CDC connection state received */
	__u8	tx_prod_flags;		/* CDC producer flags sent */
	__u8	tx_conn_state_flags;	/* CDC connection state sent */
	/* local send buffer */
	struct smc_diag_cursor	tx_prep;	/* data put in by the app */
	struct smc_diag_cursor	tx_sent;	/* data written to the peer */
	struct smc_diag_cursor	tx_fin;		/* writes completed */
};

/* One SMC-R link: 146 bytes */
struct smc_diag_linkinfo {
	__u8	link_id;			/* link id within the group */
	__u8	ibname[IB_DEVICE_NAME_MAX];	/* RDMA device name */
	__u8	ibport;				/* RDMA port, 1-based */
	__u8	gid[40];			/* local GID, text */
	__u8	peer_gid[40];			/* peer GID, text */
};

/* SMC_DIAG_LGRINFO: 147 bytes */
struct smc_diag_lgrinfo {
	struct smc_diag_linkinfo	lnk[1];
	__u8	role;			/* 0 client, 1 server */
};

/* SMC_DIAG_DMBINFO: 56 bytes (40 before the extended GIDs were added) */
struct smcd_diag_dmbinfo {
	__u32		linkid;		/* link group id */
	__aligned_u64	peer_gid;
	__aligned_u64	my_gid;
	__aligned_u64	token;		/* local DMB token */
	__aligned_u64	peer_token;	/* peer's DMB token */
	__aligned_u64	peer_gid_ext;
	__aligned_u64	my_gid_ext;
};

#endif /* _UAPI_LINUX_SMC_DIAG_H */
