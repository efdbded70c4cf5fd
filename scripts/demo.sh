#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: set up, build, boot two hosts and run an application over
# AF_SMC between them, with smcss output from both hosts.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
scripts/setup.sh >/dev/null
make -s module tools
exec scripts/rig/rig.sh run --timeout 600 -- bash scripts/demo-guest.sh
