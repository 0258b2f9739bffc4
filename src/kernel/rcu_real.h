/* SPDX-License-Identifier: MIT */
/*
 * The real-mode RCU backend's interface (rcupdate.h says what real mode
 * is), apart from rcupdate.h so that a backend can include liburcu's
 * headers, whose struct rcu_head is not the model's.  The backend's
 * call() gets the model's head, whose first 16 bytes are its own to use,
 * and must run invoke(head) after a grace period.
 */
#ifndef MMFUZZ_KERNEL_RCU_REAL_H
#define MMFUZZ_KERNEL_RCU_REAL_H

#define RCU_REAL_HEAD_SPACE	16	/* bytes of the model's head a backend may use */

struct rcu_real_ops {
	void (*read_lock)(void);
	void (*read_unlock)(void);
	void (*synchronize)(void);
	void (*call)(void *head, void (*invoke)(void *head));
	void (*do_barrier)(void);	/* rcu_barrier() */
	void (*register_thread)(void);
	void (*unregister_thread)(void);
};

void rcu_set_real_ops(const struct rcu_real_ops *ops);
/* A real-mode thread begins or ends using RCU (the stress runner's tasks). */
void rcu_register_thread(void);
void rcu_unregister_thread(void);
/* A task that a violation unwound may have left a read-side section open:
 * close it, then unregister. */
struct task;
void rcu_real_task_exit(struct task *t);

#endif /* MMFUZZ_KERNEL_RCU_REAL_H */
