import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendMailJob } from "../../queue/definitions.js";
import { createLogger } from "../../lib/logger.js";
import { runWithContext } from "../../lib/request-context.js";
import { createTestApp, type TestApp } from "../../test/harness.js";

const TOKEN = "metrics-token-0123456789abcdef";

async function until<T>(
  what: string,
  fn: () => Promise<T | undefined | null | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The value of one sample of a Prometheus text exposition, or undefined. */
function sample(
  text: string,
  name: string,
  labels: Record<string, string>,
): number | undefined {
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`)) continue;
    const inside = line.slice(name.length + 1, line.lastIndexOf("}"));
    const has = Object.entries(labels).every(([k, v]) =>
      inside.includes(`${k}="${v}"`),
    );
    if (has) return Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return undefined;
}

describe("readiness, metrics and request ids", () => {
  let t: TestApp;
  beforeAll(async () => {
    // Mail to a closed port: every send-mail job fails, which the metrics must count.
    t = await createTestApp({
      work: true,
      env: { METRICS_TOKEN: TOKEN, SMTP_URL: "smtp://127.0.0.1:9" },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("answers /api/ready with its status to probes, and each check with the full report to the metrics token", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/ready" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.json()).toEqual({ status: "ready" });

    const wrong = await t.app.inject({
      method: "GET",
      url: "/api/ready",
      headers: { authorization: "Bearer not-the-token-at-all" },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe("unauthorized");

    const operator = await t.app.inject({
      method: "GET",
      url: "/api/ready",
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(operator.statusCode).toBe(200);
    expect(operator.json()).toEqual({
      status: "ready",
      checks: {
        database: { ok: true, latency_ms: expect.any(Number) },
        storage: { ok: true, driver: "local" },
        queue: { ok: true },
      },
      health: {
        status: expect.stringMatching(/^(ok|degraded)$/),
        version: expect.any(String),
        uptime_s: expect.any(Number),
        checks: {
          database: { ok: true, driver: t.ctx.database.driver, latency_ms: expect.any(Number) },
          queue: { ok: true },
          storage: { ok: true, driver: "local" },
          // Mail goes to a closed port here: the report says so, readiness does not care.
          mail: { ok: false, transport: "smtp", error: expect.any(String) },
          transcription: { ok: true, engine: expect.any(String) },
        },
      },
    });
  });

  it("gives every answer its request id, and a job sent by a request carries it", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/signup",
      remoteAddress: "10.77.0.1",
      payload: {
        firstname: "Ida",
        lastname: "Obs",
        email: `ida.${Date.now()}@obs.test`,
        companyName: `Obs ${Date.now()}`,
        password: "secret12",
        lang: "en",
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const requestId = String(res.headers["x-request-id"]);
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const { rows } = await t.ctx.database.executeSql(
      `select data from pgboss.job where name = $1`,
      [sendMailJob.name],
    );
    const carried = (
      rows as { data: { _meta?: { requestId?: string } } }[]
    ).map((r) => r.data._meta?.requestId);
    expect(carried).toContain(requestId);

    // Each answer has its own id; a 404 too.
    const other = await t.app.inject({
      method: "GET",
      url: "/api/nothing-here",
    });
    expect(other.statusCode).toBe(404);
    expect(other.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(other.headers["x-request-id"]).not.toBe(requestId);
  });

  it("adds the request id (and the job) to lines of the root logger, and not twice to a bound child", () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString().split("\n").filter(Boolean))
          lines.push(JSON.parse(l) as Record<string, unknown>);
        done();
      },
    });
    // The production logger, writing to a sink.
    const logger = createLogger({ env: "production", logLevel: "info" }, sink);
    runWithContext(
      {
        requestId: "req-1",
        bindings: { reqId: "req-1", job: "render-output", jobId: "j-1" },
      },
      () => {
        logger.info("rendering");
        logger.child({ reqId: "req-1" }).info("child line");
      },
    );
    logger.info("outside");
    expect(lines[0]).toMatchObject({
      msg: "rendering",
      reqId: "req-1",
      job: "render-output",
      jobId: "j-1",
    });
    expect(lines[1]).toMatchObject({ msg: "child line", reqId: "req-1" });
    expect(lines[1]).not.toHaveProperty("job");
    expect(lines[2]).not.toHaveProperty("reqId");
  });

  it("serves Prometheus metrics only with the token: latency histogram, job durations and failures, queue depth", async () => {
    expect(
      (await t.app.inject({ method: "GET", url: "/metrics" })).statusCode,
    ).toBe(401);
    const wrong = await t.app.inject({
      method: "GET",
      url: "/metrics",
      headers: { authorization: "Bearer nope" },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({
      error: "A valid metrics token is required.",
      code: "unauthorized",
    });

    expect(
      (await t.app.inject({ method: "GET", url: "/api/ready" })).statusCode,
    ).toBe(200);
    // A mail job that fails (the SMTP server refuses): its duration and its failure are counted.
    await t.ctx.queue.send(sendMailJob, {
      to: "x@obs.test",
      subject: "S",
      html: "<p>x</p>",
      text: "x",
    });
    const scrape = async () => {
      const res = await t.app.inject({
        method: "GET",
        url: "/metrics",
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toMatch(
        /^text\/plain; version=0\.0\.4/,
      );
      return res.body;
    };
    const text = await until("a failed mail job in the metrics", async () => {
      const body = await scrape();
      return (sample(body, "vouchreel_job_failures_total", {
        queue: "send-mail",
      }) ?? 0) >= 1
        ? body
        : undefined;
    });
    expect(
      sample(text, "vouchreel_http_request_duration_seconds_count", {
        method: "GET",
        route: "/api/ready",
        status_code: "200",
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, "vouchreel_http_request_duration_seconds_bucket", {
        route: "/api/ready",
        le: "+Inf",
      }),
    ).toBeGreaterThanOrEqual(1);
    // Paths without a route are one series, whatever was asked.
    expect(
      sample(text, "vouchreel_http_request_duration_seconds_count", {
        route: "unmatched",
        status_code: "404",
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, "vouchreel_job_duration_seconds_count", {
        queue: "send-mail",
        outcome: "failed",
      }),
    ).toBeGreaterThanOrEqual(1);
    for (const queue of [
      "send-mail",
      "transcode-answer",
      "render-output",
      "transcribe-merged",
    ]) {
      expect(
        sample(text, "vouchreel_queue_depth", { queue, state: "waiting" }),
        queue,
      ).toBeGreaterThanOrEqual(0);
      expect(
        sample(text, "vouchreel_queue_depth", { queue, state: "active" }),
        queue,
      ).toBeGreaterThanOrEqual(0);
    }
    expect(text).toContain("vouchreel_process_cpu_seconds_total");

    // Queue depth counts what waits: a job due in an hour waits.
    await t.ctx.queue.send(
      sendMailJob,
      { to: "later@obs.test", subject: "S", html: "<p>x</p>", text: "x" },
      { startAfter: 3600 },
    );
    expect(
      sample(await scrape(), "vouchreel_queue_depth", {
        queue: "send-mail",
        state: "waiting",
      }),
    ).toBeGreaterThanOrEqual(1);
  });
});

describe("without a metrics token, or with a storage that does not answer", () => {
  let t: TestApp;
  beforeAll(async () => {
    // A bucket on a port where nothing listens.
    t = await createTestApp({
      env: {
        S3_BUCKET: "gone",
        S3_ENDPOINT: "http://127.0.0.1:9",
        S3_FORCE_PATH_STYLE: "true",
        S3_ACCESS_KEY_ID: "k",
        S3_SECRET_ACCESS_KEY: "s",
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("has no /metrics at all (404 in the error shape)", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/metrics",
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      error: "Nothing here: GET /metrics.",
      code: "not_found",
    });
  });

  it("answers /api/ready 503 in the error shape, naming the part without its internals", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/ready" });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      error: "Not ready: storage unreachable.",
      code: "unavailable",
    });
    expect(res.body).not.toContain("127.0.0.1");
  });
});
