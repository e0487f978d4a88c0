// SPDX-License-Identifier: GPL-2.0-only
/*
 * HAVE_SYSTEM_PERCPU_WQ: the per-CPU system workqueue is called
 * system_percpu_wq; system_wq is its old name, marked for removal.
 */
#include <linux/module.h>
#include <linux/workqueue.h>

static void probe_fn(struct work_struct *work)
{
}

static DECLARE_DELAYED_WORK(probe_work, probe_fn);

static int __init probe_init(void)
{
	return queue_delayed_work(system_percpu_wq, &probe_work, 1) ? 0 : -EBUSY;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
