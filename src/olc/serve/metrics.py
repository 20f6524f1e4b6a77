"""``/metrics`` in Prometheus' text exposition format (version 0.0.4): request counts and
latency histograms per route, learned events and mistakes per model, each model's progressive
error and queue depth. Counters live in memory (they restart at 0 with the process, as
Prometheus expects of counters)."""
import threading
from collections import defaultdict

__all__ = ["Metrics", "CONTENT_TYPE"]

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
#: Latency buckets (seconds) of the request histograms.
BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


def _label(value):
    return str(value).replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


class Metrics:
    def __init__(self):
        self.lock = threading.Lock()
        self.requests = defaultdict(int)  # (route, method, status) -> count
        self.latency = {}  # (route, method) -> [bucket counts..., sum, count]
        self.events = defaultdict(int)  # (model, kind) -> rows learned
        self.mistakes = defaultdict(int)  # model -> mistakes of served predictions

    def request(self, route, method, status, seconds):
        with self.lock:
            self.requests[(route, method, status)] += 1
            hist = self.latency.setdefault((route, method), [0] * (len(BUCKETS) + 2))
            for i, bound in enumerate(BUCKETS):
                if seconds <= bound:
                    hist[i] += 1
            hist[-2] += seconds
            hist[-1] += 1

    def learned(self, model, kind, rows, mistakes):
        with self.lock:
            self.events[(model, kind)] += rows
            self.mistakes[model] += mistakes

    def forget(self, model):
        with self.lock:
            for key in [k for k in self.events if k[0] == model]:
                del self.events[key]
            self.mistakes.pop(model, None)

    def render(self, hosts):
        """The exposition text; ``hosts``: the served models (for gauges)."""
        lines = []
        with self.lock:
            lines += ["# HELP olc_requests_total HTTP requests by route, method and status.",
                      "# TYPE olc_requests_total counter"]
            for (route, method, status), n in sorted(self.requests.items()):
                lines.append(f'olc_requests_total{{route="{_label(route)}",method="{method}",'
                             f'status="{status}"}} {n}')
            lines += ["# HELP olc_request_seconds Request latency by route.",
                      "# TYPE olc_request_seconds histogram"]
            for (route, method), hist in sorted(self.latency.items()):
                tags = f'route="{_label(route)}",method="{method}"'
                for bound, n in zip(BUCKETS, hist):
                    lines.append(f'olc_request_seconds_bucket{{{tags},le="{bound}"}} {n}')
                lines.append(f'olc_request_seconds_bucket{{{tags},le="+Inf"}} {hist[-1]}')
                lines.append(f"olc_request_seconds_sum{{{tags}}} {hist[-2]!r}")
                lines.append(f"olc_request_seconds_count{{{tags}}} {hist[-1]}")
            lines += ["# HELP olc_events_total Rows learned, by model and kind (learn, "
                      "feedback).", "# TYPE olc_events_total counter"]
            for (model, kind), n in sorted(self.events.items()):
                lines.append(f'olc_events_total{{model="{_label(model)}",kind="{kind}"}} {n}')
            lines += ["# HELP olc_mistakes_total Served predictions found wrong by their "
                      "label, by model.", "# TYPE olc_mistakes_total counter"]
            for model, n in sorted(self.mistakes.items()):
                lines.append(f'olc_mistakes_total{{model="{_label(model)}"}} {n}')
        lines += ["# HELP olc_progressive_error Mistakes / rows over the model's logged "
                  "history.", "# TYPE olc_progressive_error gauge"]
        gauges = []
        for name, host in sorted(hosts.items()):
            n = len(host.correct)
            if n:
                lines.append(f'olc_progressive_error{{model="{_label(name)}"}} '
                             f"{host.mistakes / n!r}")
            gauges.append(f'olc_queue_depth{{model="{_label(name)}"}} {host.queue_depth()}')
        lines += ["# HELP olc_queue_depth Learn/feedback requests waiting for the model's "
                  "writer.", "# TYPE olc_queue_depth gauge"] + gauges
        lines += ["# HELP olc_models Models served.", "# TYPE olc_models gauge",
                  f"olc_models {len(hosts)}"]
        return "\n".join(lines) + "\n"
