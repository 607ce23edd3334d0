import sys, threading, time, collections, traceback
class Sampler:
    def __init__(self, interval=0.005):
        self.interval = interval; self.on = False; self.stacks = collections.Counter(); self.n = 0
        self.t = threading.Thread(target=self.run, daemon=True); self.t.start()
    def run(self):
        me = threading.get_ident(); main = threading.main_thread().ident
        while True:
            time.sleep(self.interval)
            if not self.on: continue
            for tid, frame in sys._current_frames().items():
                if tid == me: continue
                stack = []
                f = frame
                while f is not None:
                    c = f.f_code
                    stack.append(f"{c.co_filename.split('site-packages/')[-1]}:{c.co_name}")
                    f = f.f_back
                self.stacks[(tid == main, tuple(reversed(stack)))] += 1
            self.n += 1
    def report(self, out, main=False):
        incl = collections.Counter(); leaf = collections.Counter(); total = 0
        for (is_main, st), c in self.stacks.items():
            if is_main != main: continue
            total += c
            for fr in set(st): incl[fr] += c
            leaf[st[-1]] += c
        with open(out, 'w') as fh:
            fh.write(f"samples {self.n} thread-samples {total} interval {self.interval}\n== inclusive\n")
            for fr, c in incl.most_common(150): fh.write(f"{c/ max(total,1)*100:6.1f}% {c:7d} {fr}\n")
            fh.write("== leaf\n")
            for fr, c in leaf.most_common(60): fh.write(f"{c/ max(total,1)*100:6.1f}% {c:7d} {fr}\n")
