"""Where a dbt invocation's threads spend their time: every 5 ms, the stack of every thread
but the main one and the sampler's (dbt runs nodes on a worker thread; Py4J and PySpark keep
idle threads too), counted by the frame on top ("own") and by every frame in the stack
("cumulative"). Used from an experiment copied into tests/pytest/ and run alone (README.md):

    with Sampler() as sampler:
        pipeline.build()
    sampler.report("/tmp/sample_build.txt")
"""

import collections
import sys
import threading
import time
import traceback


def frame_name(frame, with_line: bool) -> str:
    where = frame.filename.split("site-packages/")[-1]
    return f"{where}:{frame.lineno} {frame.name}" if with_line else f"{where}:{frame.name}"


class Sampler:
    def __init__(self, interval: float = 0.005):
        self.interval = interval
        self.cumulative = collections.Counter()
        self.own = collections.Counter()
        self.samples = 0
        self.stopped = False

    def run(self) -> None:
        skipped = {threading.get_ident(), threading.main_thread().ident}
        while not self.stopped:
            for thread, frame in sys._current_frames().items():
                stack = traceback.extract_stack(frame) if thread not in skipped else None
                if not stack:
                    continue
                self.samples += 1
                self.own[frame_name(stack[-1], True)] += 1
                for name in {frame_name(frame, False) for frame in stack}:
                    self.cumulative[name] += 1
            time.sleep(self.interval)

    def __enter__(self):
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *_):
        self.stopped = True
        self.thread.join()

    def report(self, path: str) -> None:
        with open(path, "w", encoding="utf-8") as out:
            out.write(f"samples {self.samples}\n## own\n")
            out.writelines(f"{count:6d} {name}\n" for name, count in self.own.most_common(40))
            out.write("## cumulative\n")
            out.writelines(f"{count:6d} {name}\n" for name, count in self.cumulative.most_common(120))
