/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A JSON string on stdout, for the tools' JSON output: quotes and
 * backslashes escaped, control characters as \u00XX, the rest as is.
 *
 * Header-only: each tool that includes it gets its own static copy.
 */
#ifndef SMC_JSON_H
#define SMC_JSON_H

#include <stdio.h>

static inline void smc_json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

#endif /* SMC_JSON_H */
