import {
  Counter,
  Gauge,
  Histogram,
  Registry,
  collectDefaultMetrics,
} from "prom-client";
import type { Queue } from "../../queue/queue.js";

/**
 * The Prometheus metrics of one process, in a registry of its own (tests build many apps in one
 * process). Request latency and job outcomes are recorded as they happen; queue depth is asked of the
 * queue adapter when scraped, so every process reports the same shared queue.
 */
export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<"method" | "route" | "status_code">;
  jobDuration: Histogram<"queue" | "outcome">;
  jobFailures: Counter<"queue">;
}

export function createMetrics(options: {
  queue: Pick<Queue, "depth">;
  queues: string[];
  processMetrics: boolean;
  role: string;
}): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ role: options.role });
  if (options.processMetrics)
    collectDefaultMetrics({ register: registry, prefix: "vouchreel_" });

  const httpDuration = new Histogram({
    name: "vouchreel_http_request_duration_seconds",
    help: "Time to answer an HTTP request, by method, route template and status code.",
    labelNames: ["method", "route", "status_code"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const jobDuration = new Histogram({
    name: "vouchreel_job_duration_seconds",
    help: "Time a job ran in this process, by queue and outcome (completed, failed, handed_back).",
    labelNames: ["queue", "outcome"] as const,
    buckets: [0.1, 0.5, 1, 2.5, 5, 10, 20, 40, 60, 120, 300, 600],
    registers: [registry],
  });
  const jobFailures = new Counter({
    name: "vouchreel_job_failures_total",
    help: "Jobs that failed in this process (each failed attempt; pg-boss retries by the queue policy).",
    labelNames: ["queue"] as const,
    registers: [registry],
  });
  new Gauge({
    name: "vouchreel_queue_depth",
    help: "Jobs in the shared queue by state: waiting (created or retry, start time reached or not) and active.",
    labelNames: ["queue", "state"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const queue of options.queues)
        for (const state of ["waiting", "active"])
          this.set({ queue, state }, 0);
      for (const depth of await options.queue.depth()) {
        this.set({ queue: depth.queue, state: "waiting" }, depth.waiting);
        this.set({ queue: depth.queue, state: "active" }, depth.active);
      }
    },
  });
  return { registry, httpDuration, jobDuration, jobFailures };
}
