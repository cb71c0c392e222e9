"""A misbehaving engine for the safety tests, in plain Python (no plateau import): it speaks
the handshake of the engine protocol, answers ``isready``, and from its Nth ``game`` command
on (counted over all its restarts) misbehaves as its mode says:

    misbehave.py DIR MODE N

- ``deaf``: stops reading its input (it sleeps) as soon as the handshake is done;
- ``flood``: answers ``isready`` after that game, then writes ``info string xxx...`` lines
  forever, keeping the bytes it managed to write in ``DIR/written-PID``.

Every process writes its PID to ``DIR/pids``; the ``game`` count is kept in ``DIR/count``.
Before its Nth game it plays nothing: its ``go`` is answered ``bestaction (none)``.
"""

import os
import sys
import time

folder, mode, nth = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open(os.path.join(folder, "pids"), "a") as f:
    f.write(f"{os.getpid()}\n")


def games() -> int:
    try:
        with open(os.path.join(folder, "count")) as f:
            return int(f.read() or 0)
    except FileNotFoundError:
        return 0


def say(*lines: str) -> None:
    sys.stdout.write("".join(line + "\n" for line in lines))
    sys.stdout.flush()


started = games()
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "plateau-engine":
        say("id name misbehave", "ready")
        if mode == "deaf" and started + 1 >= nth:
            time.sleep(1000)
    elif words[0] == "game":
        count = games() + 1
        with open(os.path.join(folder, "count"), "w") as f:
            f.write(str(count))
    elif words[0] == "isready":
        say("ready")
        if mode == "flood" and games() >= nth:
            written = 0
            chunk = ("info string " + "x" * 1000 + "\n").encode() * 64
            record = os.path.join(folder, f"written-{os.getpid()}")
            while True:
                sys.stdout.buffer.write(chunk)
                sys.stdout.buffer.flush()
                written += len(chunk)
                with open(record, "w") as f:
                    f.write(str(written))
    elif words[0] == "go":
        say("bestaction (none)")
    elif words[0] == "quit":
        break
