"""``/metrics`` in Prometheus' text exposition format (version 0.0.4): request counts and
latency histograms per route, learned events and mistakes per model, each model's progressive
error and queue depth. Counters live in memory (they restart at 0 with the process, as
Prometheus expects of counters)."""
import threading
from collections import defaultdict

import numpy as np

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
        self.squared = defaultdict(float)  # regressor -> Σ(y − ŷ)² of served predictions
        self.absolute = defaultdict(float)  # regressor -> Σ|y − ŷ|

    def request(self, route, method, status, seconds):
        with self.lock:
            self.requests[(route, method, status)] += 1
            hist = self.latency.setdefault((route, method), [0] * (len(BUCKETS) + 2))
            for i, bound in enumerate(BUCKETS):
                if seconds <= bound:
                    hist[i] += 1
            hist[-2] += seconds
            hist[-1] += 1

    def learned(self, model, kind, rows, outcomes):
        """``outcomes``: per row, right or wrong (bool), or a regressor's residual y − ŷ."""
        with self.lock:
            self.events[(model, kind)] += rows
            if outcomes.dtype == np.bool_:
                self.mistakes[model] += int((~outcomes).sum())
            else:
                self.squared[model] += float(np.dot(outcomes, outcomes))
                self.absolute[model] += float(np.sum(np.abs(outcomes)))

    def forget(self, model):
        with self.lock:
            for key in [k for k in self.events if k[0] == model]:
                del self.events[key]
            for table in (self.mistakes, self.squared, self.absolute):
                table.pop(model, None)

    def render(self, hosts, retained=None):
        """The exposition text; ``hosts``: the served models (for gauges); ``retained``:
        {model: [pending predictions, idempotency keys]} stored (``Store.retained``)."""
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
            for metric, table, what in (("squared", self.squared, "(y - y_hat)^2"),
                                        ("absolute", self.absolute, "|y - y_hat|")):
                lines += [f"# HELP olc_{metric}_error_total A regressor's sum of {what} over "
                          "its served predictions, by model.",
                          f"# TYPE olc_{metric}_error_total counter"]
                for model, total in sorted(table.items()):
                    lines.append(f'olc_{metric}_error_total{{model="{_label(model)}"}} '
                                 f"{total!r}")
        progressive = {"olc_progressive_error": [], "olc_progressive_mean_squared_error": []}
        gauges = []
        for name, host in sorted(hosts.items()):
            value = host.outcomes.progressive()
            if value is not None:
                progressive[value[0]].append(f'{value[0]}{{model="{_label(name)}"}} '
                                             f"{value[1]!r}")
            gauges.append(f'olc_queue_depth{{model="{_label(name)}"}} {host.queue_depth()}')
        lines += ["# HELP olc_progressive_error A classifier's mistakes / rows over its logged "
                  "history.", "# TYPE olc_progressive_error gauge"]
        lines += progressive["olc_progressive_error"]
        lines += ["# HELP olc_progressive_mean_squared_error A regressor's sum of (y - y_hat)^2 "
                  "/ rows over its logged history.",
                  "# TYPE olc_progressive_mean_squared_error gauge"]
        lines += progressive["olc_progressive_mean_squared_error"]
        lines += ["# HELP olc_queue_depth Learn/feedback requests waiting for the model's "
                  "writer.", "# TYPE olc_queue_depth gauge"] + gauges
        retained = retained or {}
        for i, (metric, what) in enumerate((
                ("olc_pending_predictions", "Predictions stored waiting for their label"),
                ("olc_idempotency_keys", "Idempotency keys stored with their answer"))):
            lines += [f"# HELP {metric} {what}, by model.", f"# TYPE {metric} gauge"]
            lines += [f'{metric}{{model="{_label(name)}"}} {retained.get(name, [0, 0])[i]}'
                      for name in sorted(hosts)]
        lines += ["# HELP olc_models Models served.", "# TYPE olc_models gauge",
                  f"olc_models {len(hosts)}"]
        return "\n".join(lines) + "\n"
