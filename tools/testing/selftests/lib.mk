# SPDX-License-Identifier: GPL-2.0
#
# Minimal kselftest rules for this out-of-tree repository.  A test
# directory's Makefile sets, then includes this file:
#
#   TEST_PROGS       scripts run by "make run_tests"
#   TEST_GEN_PROGS   programs built from <name>.c and run as tests
#   TEST_GEN_FILES   programs built from <name>.c, used by the tests
#   TEST_FILES       other files the tests need (lib.sh, settings, ...)
#   LOCAL_HDRS       headers the programs depend on
#   EXTRA_CLEAN      more files for "make clean"
#
# Targets: all (default), run_tests, clean.  "run_tests" prints KTAP and
# fails if any test failed; a test's time limit is "timeout=" in the
# directory's settings file (45 s without one).

CFLAGS ?= -O2
# always applied, even with CFLAGS from the command line
override CFLAGS += -Wall -Wextra -Werror

selfdir := $(realpath $(dir $(lastword $(MAKEFILE_LIST))))
COLLECTION := $(patsubst $(selfdir)/%,%,$(realpath $(CURDIR)))

.PHONY: all run_tests clean

all: $(TEST_GEN_PROGS) $(TEST_GEN_FILES)

$(TEST_GEN_PROGS) $(TEST_GEN_FILES): %: %.c $(LOCAL_HDRS)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LDLIBS)

run_tests: all
	@$(selfdir)/kselftest/runner.sh "$(COLLECTION)" \
		$(TEST_GEN_PROGS) $(TEST_PROGS)

clean:
	rm -f $(TEST_GEN_PROGS) $(TEST_GEN_FILES) $(EXTRA_CLEAN)
