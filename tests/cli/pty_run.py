# SPDX-License-Identifier: BSD-3-Clause
"""pty_run.py [--columns N] [--interrupts K] [--wait FILE] [--wait-text TEXT --wait-count M] [--answer TEXT] --
COMMAND...: runs COMMAND on a pseudo-terminal of N columns (default 80), as a user's terminal would; once FILE exists
and is not empty (and the command has written TEXT M times), types Ctrl-C K times (0: none), each after the command
has answered the one before with ANSWER where given (else 50 ms apart), and prints everything the command wrote, then
a last line "EXIT CODE" or "SIGNAL NUMBER"."""
import argparse
import fcntl
import os
import pty
import select
import struct
import sys
import termios
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--columns", type=int, default=80)
    parser.add_argument("--interrupts", type=int, default=0)
    parser.add_argument("--wait")
    parser.add_argument("--wait-text")
    parser.add_argument("--wait-count", type=int, default=1)
    parser.add_argument("--answer")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    pid, fd = pty.fork()
    if pid == 0:  # the child: its terminal's size first, so the command sees it from its start
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, args.columns, 0, 0))
        os.execvp(command[0], command)
    output = bytearray()
    sent = 0
    started = False
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if not started and sent < args.interrupts:
            written = args.wait_text is None or output.count(args.wait_text.encode()) >= args.wait_count
            started = written and (args.wait is None or (os.path.exists(args.wait) and os.path.getsize(args.wait) > 0))
            if started:
                time.sleep(0.5)  # a few steps into the run
        answered = args.answer is None or output.count(args.answer.encode()) >= sent
        if started and sent < args.interrupts and answered:
            os.write(fd, b"\x03")
            sent += 1
            if args.answer is None:
                time.sleep(0.05)
        ready, _, _ = select.select([fd], [], [], 0.01 if args.answer else 0.1)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # the command ended: its terminal closed
                break
            if not chunk:
                break
            output += chunk
    _, status = os.waitpid(pid, 0)
    sys.stdout.write(output.decode(errors="replace"))
    if os.WIFSIGNALED(status):
        print(f"\nSIGNAL {os.WTERMSIG(status)}")
    else:
        print(f"\nEXIT {os.WEXITSTATUS(status)}")


if __name__ == "__main__":
    main()
