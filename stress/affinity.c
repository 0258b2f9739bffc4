// SPDX-License-Identifier: MIT
/*
 * Where will-it-scale pins its tasks, without hwloc: task i goes to the
 * (i % n)-th core (default) or hardware thread (-m) of the CPUs this process
 * may run on; -n leaves them to the scheduler.  A core is a distinct
 * (physical_package_id, core_id) pair in sysfs; it is represented by its
 * first hardware thread, as hwloc's core object's cpuset is bound to it.
 */
#include "stress.h"

#include <sched.h>
#include <stdlib.h>

static long sysfs_long(int cpu, const char *what)
{
	char path[128];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, what);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

int stress_cpu_list(enum stress_affinity aff, int *cpus, int max)
{
	long core[CPU_SETSIZE], pkg[CPU_SETSIZE];
	cpu_set_t set;
	int cpu, n = 0, i;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -1;
	for (cpu = 0; cpu < CPU_SETSIZE && n < max; cpu++) {
		bool seen = false;

		if (!CPU_ISSET(cpu, &set))
			continue;
		core[cpu] = sysfs_long(cpu, "core_id");
		pkg[cpu] = sysfs_long(cpu, "physical_package_id");
		if (aff == AFF_CORES && core[cpu] >= 0) {
			for (i = 0; i < n && !seen; i++)
				seen = core[cpus[i]] == core[cpu] && pkg[cpus[i]] == pkg[cpu];
			if (seen)
				continue;
		}
		cpus[n++] = cpu;
	}
	return n;
}
