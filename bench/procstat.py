"""What bench/whole-sampler.py and bench/thread-cpu.py read of a process from /proc."""
import os

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(stat_path):
    """utime + stime of a /proc/PID/stat or /proc/PID/task/TID/stat, in seconds."""
    with open(stat_path) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def alive(pid):
    """True while pid runs (a zombie, ended but not yet reaped by its parent, has ended)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


if __name__ == "__main__":  # a module, not a script: run, it says what it is (BenchScriptsTest)
    print(__doc__)
