"""Peak resident memory of the current process, for benchmark child processes."""

from __future__ import annotations

import resource


def peak_rss_kb() -> int:
    """The process's own peak RSS in KiB.

    Linux's VmHWM belongs to the process's address space, which exec replaces;
    ``ru_maxrss`` survives exec, so a child forked from a large parent would
    report the parent's peak.  Elsewhere ``ru_maxrss`` is the best there is.
    """
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
