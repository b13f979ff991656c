// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dropin_cache.h"
#include "unit.h"

static uint64_t monotonic_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000ULL + ts.tv_nsec / 1000;
}

static void forget(struct dropin_answer *a)
{
	free(a->unit);
	unit_strv_free(a->dropins);
}

static void forget_all(struct dropin_cache *c)
{
	for (int i = 0; i < c->n; i++)
		forget(&c->a[i]);
	c->n = 0;
	c->next = 0;
}

int dropin_cache_begin(struct dropin_cache *c, sd_bus *bus)
{
	uint64_t load_us = 0;
	int ret = bus ? unit_manager_load_time(bus, &load_us) : -ENOTCONN;

	if (ret || !c->load_known || load_us != c->load_us)
		forget_all(c);
	c->load_known = !ret;
	c->load_us = load_us;
	for (int i = 0; i < c->n; i++)
		c->a[i].seen = false;
	c->next = 0;
	return ret;
}

const struct dropin_answer *dropin_cache_get(struct dropin_cache *c, uint64_t cgroup_id,
					     const char *unit)
{
	uint64_t max_age = c->max_age_us ? c->max_age_us : DROPIN_CACHE_MAX_AGE_US;

	/* the walk goes in the same order every plan: look where the last hit left off */
	for (int k = 0; c->load_known && k < c->n; k++) {
		int i = (c->next + k) % c->n;
		struct dropin_answer *a = &c->a[i];

		if (a->cgroup_id != cgroup_id || strcmp(a->unit, unit))
			continue;
		if (monotonic_us() - a->asked_us > max_age) {
			/* too old: asked again, and put back by dropin_cache_put() */
			forget(a);
			c->a[i] = c->a[--c->n];
			c->next = 0;
			return NULL;
		}
		a->seen = true;
		c->next = (i + 1) % c->n;
		return a;
	}
	return NULL;
}

void dropin_cache_put(struct dropin_cache *c, uint64_t cgroup_id, const char *unit,
		      bool others, char **dropins)
{
	struct dropin_answer *a;
	char *name = c->load_known ? strdup(unit) : NULL;

	if (name && c->n == c->cap) {
		int cap = c->cap ? 2 * c->cap : 64;
		struct dropin_answer *bigger = realloc(c->a, cap * sizeof(*bigger));

		if (bigger) {
			c->a = bigger;
			c->cap = cap;
		}
	}
	/* not kept (no load time to compare with, or no memory): asked again next time */
	if (!name || c->n == c->cap) {
		free(name);
		unit_strv_free(dropins);
		return;
	}
	a = &c->a[c->n++];
	*a = (struct dropin_answer){
		.cgroup_id = cgroup_id, .unit = name, .others = others,
		.dropins = others ? NULL : dropins, .asked_us = monotonic_us(), .seen = true,
	};
	if (others)
		unit_strv_free(dropins);
}

void dropin_cache_end(struct dropin_cache *c)
{
	int kept = 0;

	for (int i = 0; i < c->n; i++) {
		if (c->a[i].seen)
			c->a[kept++] = c->a[i];
		else
			forget(&c->a[i]);
	}
	c->n = kept;
	c->next = 0;
}

void dropin_cache_free(struct dropin_cache *c)
{
	sd_bus_flush_close_unref(c->bus);
	forget_all(c);
	free(c->a);
	memset(c, 0, sizeof(*c));
}
