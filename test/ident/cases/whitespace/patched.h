/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HDR_H
#define _HDR_H

/* comments and white space: no token changes */
#define LIMIT(x)  (	(x) > 10 ? 10 : (x) )

static inline int limited(int x)
{	/* the same */
	return LIMIT( x );
}
#endif
