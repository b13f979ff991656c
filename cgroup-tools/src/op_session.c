// SPDX-License-Identifier: GPL-2.0
/* One features read and one mount for a flow's many cgroups (op_session.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "op_session.h"

int op_session_open(struct op_session *s, char *err, size_t len)
{
	int ret = features_load(&s->f);

	s->root.fd = -1;
	if (ret) {
		snprintf(err, len, "%s: %s", FEATURES_FILE, strerror(-ret));
		return ret;
	}
	return cgroot_open(&s->root, err, len);
}

void op_session_close(struct op_session *s)
{
	cgroot_close(&s->root);
}

void op_session_run(struct op_session *s, const struct op_request *req, const char *path,
		    bool reclaim, struct op_result *res)
{
	struct target t;
	char err[256];
	int ret = target_open_path(&s->root, path, &t, err, sizeof(err));

	if (ret) {
		memset(res, 0, sizeof(*res));
		res->operation = reclaim ? "reclaim" : "release";
		res->status = OP_ERROR;
		res->error = -ret;
		snprintf(res->message, sizeof(res->message), "%s", err);
		return;
	}
	if (reclaim)
		op_reclaim(req, &s->f, &t, res);
	else
		op_release(req, &s->f, &t, res);
	target_close(&t);
}
