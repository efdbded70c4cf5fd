/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SMC decline and fallback reason codes for the user-space tools: the
 * name of each code, what it means and what an administrator can change
 * to get SMC-R instead.  The same codes travel in a CLC Decline as the
 * peer diagnosis, so one table explains both sides.
 *
 * Header-only: each tool that includes it gets its own static copy.
 */
#ifndef SMC_REASONS_H
#define SMC_REASONS_H

#include <stddef.h>
#include <stdint.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

struct smc_reason {
	uint32_t code;
	const char *name;
	const char *text;	/* what happened, one sentence */
	const char *hint;	/* what to change, one sentence */
};

static const struct smc_reason smc_reasons[] = {
	{ 0x01010000, "MEM",
	  "the host ran out of memory for SMC buffers or link resources",
	  "free memory, or lower net.smc.wmem/rmem so that buffers fit" },
	{ 0x02010000, "TIMEOUT_CL",
	  "the peer did not confirm the first RDMA link in time",
	  "check that the RoCE ports of both hosts reach each other (rdma link, ping, MTU, VLAN)" },
	{ 0x02020000, "TIMEOUT_AL",
	  "the peer did not answer the request to add a second RDMA link in time",
	  "check the second RoCE port pair of both hosts (rdma link, PNETIDs)" },
	{ 0x03000000, "CNFERR",
	  "the SMC configuration does not allow this connection",
	  "compare the SMC set-up of both hosts (smcr info, smc_pnet, smcr ueid show)" },
	{ 0x03010000, "PEERNOSMC",
	  "the peer did not signal SMC in its TCP handshake",
	  "load smc on the peer and start its application with smc_run (or check middleboxes)" },
	{ 0x03020000, "IPSEC",
	  "the TCP connection is protected by IPsec, which SMC cannot carry",
	  "exempt this traffic from IPsec, or accept TCP" },
	{ 0x03030000, "NOSMCDEV",
	  "no RoCE device matched the interface of the connection",
	  "give the interface and a RoCE device one PNETID (smc_pnet -a); check rdma link" },
	{ 0x03030001, "NOSMCDDEV",
	  "no SMC-D (ISM) device was found",
	  "SMC-D needs an ISM device (s390); for SMC-R add a PNETID for the RoCE device" },
	{ 0x03030002, "NOSMCRDEV",
	  "no SMC-R device matched the interface of the connection",
	  "give the interface and a RoCE device one PNETID (smc_pnet -a); check rdma link" },
	{ 0x03030003, "NOISM2SUPP",
	  "SMC-Dv2 (ISMv2) is not supported here",
	  "SMC-Dv2 needs ISMv2 hardware; SMC-R needs a RoCE device on both hosts" },
	{ 0x03030004, "NOV2EXT",
	  "the peer proposed SMCv2 without the v2 extension",
	  "update the peer's SMC implementation, or let both hosts use SMC-Rv1" },
	{ 0x03030005, "NOV2DEXT",
	  "the peer proposed SMC-Dv2 without the SMC-Dv2 extension",
	  "update the peer's SMC implementation" },
	{ 0x03030006, "NOSEID",
	  "the peer sent no system EID",
	  "SMC-Dv2 needs a system EID; for SMC-R give both hosts a common UEID (smcr ueid add)" },
	{ 0x03030007, "NOSMCD2DEV",
	  "no SMC-Dv2 device was found",
	  "SMC-Dv2 needs an ISMv2 device; for SMC-R check the RoCE devices and PNETIDs" },
	{ 0x03030008, "NOUEID",
	  "the two hosts have no user EID in common",
	  "add the same UEID on both hosts (smcr ueid add NAME), or remove all UEIDs on both" },
	{ 0x03030009, "RELEASEERR",
	  "the peers did not agree on an SMC release (v2.1 negotiation)",
	  "update the SMC implementation of the older host" },
	{ 0x0303000a, "MAXCONNERR",
	  "the peers did not agree on the connections per link group",
	  "update the SMC implementation of the older host" },
	{ 0x0303000b, "MAXLINKERR",
	  "the peers did not agree on the links per link group",
	  "update the SMC implementation of the older host" },
	{ 0x03040000, "MODEUNSUPP",
	  "the peer accepted a type or version that was not proposed",
	  "update the peer's SMC implementation; report it if both are current" },
	{ 0x03050000, "RMBE_EC",
	  "the peer uses RMBE eye catchers, which this host does not support",
	  "turn RMBE eye catchers off on the peer" },
	{ 0x03060000, "OPTUNSUPP",
	  "the application asked for a socket option SMC cannot honour (TCP Fast Open)",
	  "do not use TCP_FASTOPEN on SMC sockets" },
	{ 0x03070000, "DIFFPREFIX",
	  "the peers are not in the same IP subnet, which SMC-Rv1 requires",
	  "put both RoCE interfaces into the same subnet, or enable SMC-Rv2 on both hosts" },
	{ 0x03080000, "GETVLANERR",
	  "the VLAN id of the interface could not be read",
	  "check the VLAN configuration of the interface" },
	{ 0x03090000, "ISMVLANERR",
	  "the VLAN could not be registered on the ISM device",
	  "check the VLAN configuration of the ISM device" },
	{ 0x030a0000, "NOACTLINK",
	  "the link group has no active RDMA link",
	  "check the RDMA ports of both hosts (rdma link) and their cabling" },
	{ 0x030b0000, "NOSRVLINK",
	  "the client could not find the RDMA link the server chose",
	  "check that both hosts see the same RoCE network (PNETIDs, rdma link)" },
	{ 0x030c0000, "VERSMISMAT",
	  "the peers have no SMC version in common",
	  "enable a common SMC version (v1 or v2) on both hosts" },
	{ 0x030d0000, "MAX_DMB",
	  "the SMC-D device has no DMB left",
	  "close other SMC-D connections or raise the DMB limit" },
	{ 0x030e0000, "NOROUTE",
	  "SMC-Rv2 found no route to the peer over a RoCE interface",
	  "add a route to the peer through the RoCE interface" },
	{ 0x030f0000, "NOINDIRECT",
	  "the peer wanted an indirect SMC-Rv2 path but the route is direct",
	  "check the routes and subnets of both hosts" },
	{ 0x04000000, "SYNCERR",
	  "the link group of the peers got out of sync",
	  "no change needed: a new connection builds a new link group" },
	{ 0x05000000, "PEERDECL",
	  "the peer declined SMC; its diagnosis says why",
	  "see the peer diagnosis" },
	{ 0x09990000, "INTERR",
	  "an internal error ended the SMC handshake",
	  "check the kernel log of this host" },
	{ 0x09990001, "ERR_RTOK",
	  "the peer's remote buffer token could not be used",
	  "check the kernel log of both hosts" },
	{ 0x09990002, "ERR_RDYLNK",
	  "the RDMA queue pair could not be made ready",
	  "check the RDMA device (rdma link) and the kernel log" },
	{ 0x09990003, "ERR_REGBUF",
	  "a buffer could not be registered with the RDMA device",
	  "check the RDMA device's memory registration limits and the kernel log" },
};

/* The entry of @code, or NULL for an unknown (or historical) code */
static inline const struct smc_reason *smc_reason_find(uint32_t code)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(smc_reasons); i++)
		if (smc_reasons[i].code == code)
			return &smc_reasons[i];
	return NULL;
}

#endif /* SMC_REASONS_H */
