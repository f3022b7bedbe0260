"""The system-call filter of a hosted bot: a classic-BPF program that bubblewrap installs (``--seccomp FD``).

The program is compiled by libseccomp (through ``pyseccomp``, its ctypes binding, API-compatible with
libseccomp's own Python module): it knows every architecture's system-call numbers, and makes any
call of another ABI (32-bit ``int 0x80``, x32) end the process, so the list cannot be bypassed.

Everything is allowed but what a bot never needs and what widens the kernel it can attack:

* new namespaces: ``unshare``, ``setns`` and ``clone`` with ``CLONE_NEWUSER`` (a user namespace is
  where most local kernel exploits start); ``clone3`` answers ``ENOSYS``, so the C library falls back
  to ``clone``, whose flags the filter can read;
* another process's memory: ``ptrace``, ``process_vm_readv``/``writev`` (the sandbox's init included);
* file systems: ``mount`` and the new mount API, ``umount2``, ``pivot_root``, ``chroot``;
* the kernel's keyrings (``keyctl``, ``add_key``, ``request_key``), ``bpf``, ``perf_event_open``,
  ``userfaultfd``, ``open_by_handle_at``, modules, ``kexec``, ``reboot``, ``swapon``, ``acct``, ``syslog``.

A refused call fails with ``EPERM`` (Python raises ``PermissionError``): the bot goes on and is told.
"""

from __future__ import annotations

import errno
import functools
import os

__all__ = ["REFUSED", "SeccompUnavailable", "bot_filter"]

#: The system calls a bot is refused (``EPERM``), as libseccomp names them.
REFUSED = (
    "unshare", "setns",
    "ptrace", "process_vm_readv", "process_vm_writev",
    "mount", "umount2", "pivot_root", "chroot",
    "open_tree", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr",
    "keyctl", "add_key", "request_key",
    "bpf", "perf_event_open", "userfaultfd", "open_by_handle_at", "name_to_handle_at",
    "init_module", "finit_module", "delete_module", "kexec_load", "kexec_file_load",
    "reboot", "swapon", "swapoff", "acct", "syslog", "quotactl",
)
_CLONE_NEWUSER = 0x10000000
_MAX_PROGRAM = 64 * 1024


class SeccompUnavailable(RuntimeError):
    """libseccomp (or its binding) is missing here: the filter cannot be compiled."""


@functools.cache
def bot_filter() -> bytes:
    """The compiled filter (classic BPF, as ``--seccomp`` reads it); ``SeccompUnavailable`` when it cannot be."""
    try:
        import pyseccomp as seccomp
    except (ImportError, OSError, RuntimeError) as exc:     # the binding, or libseccomp.so.2 itself, is missing
        raise SeccompUnavailable(f"the system-call filter needs libseccomp ({exc}): apt-get install libseccomp2 "
                                 "and pip install pyseccomp") from exc
    program = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    for name in REFUSED:
        program.add_rule(seccomp.ERRNO(errno.EPERM), name)
    program.add_rule(seccomp.ERRNO(errno.EPERM), "clone",
                     seccomp.Arg(0, seccomp.MASKED_EQ, _CLONE_NEWUSER, _CLONE_NEWUSER))
    program.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    read, write = os.pipe()
    try:
        program.export_bpf(_Fd(write))
        os.close(write)
        write = -1
        compiled = os.read(read, _MAX_PROGRAM)
    finally:
        os.close(read)
        if write >= 0:
            os.close(write)
    if not compiled or len(compiled) % 8:
        raise SeccompUnavailable(f"libseccomp exported a program of {len(compiled)} bytes (not whole instructions)")
    return compiled


class _Fd:
    """A file descriptor where libseccomp's export wants a file object (it only asks for ``fileno``)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def fileno(self) -> int:
        return self.fd
