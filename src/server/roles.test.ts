import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT_DIR } from "./lib/paths.js";
import { makeClip, multipart } from "./test/clips.js";
import { startS3Server, type TestS3Server } from "./test/s3-server.js";

/**
 * The fleet for real: separate API and worker processes (`node --import tsx src/server/main.ts`)
 * against one PostgreSQL database and one S3-compatible bucket. PGlite cannot be shared between
 * processes, so this uses the machine's PostgreSQL (TEST_DATABASE_URL, else the local default) with a
 * scratch database created and dropped here.
 */
const adminUrl =
  process.env.TEST_DATABASE_URL ??
  "postgres://postgres@127.0.0.1:5432/postgres";
const JWT_SECRET = randomBytes(32).toString("hex");

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function until<T>(
  what: string,
  fn: () => Promise<T | undefined | null | false>,
  timeoutMs = 90_000,
  everyMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

interface Proc {
  role: string;
  url: string;
  dataDir: string;
  child: ChildProcess;
  /** Every JSON log line so far. */
  lines: () => Record<string, unknown>[];
  output: () => string;
  /** SIGTERM, then the exit code. */
  stop: () => Promise<number | null>;
}

describe("ROLE=api and ROLE=worker as separate processes on one database and one bucket", () => {
  let admin: pg.Client;
  let db: pg.Client;
  let dbName: string;
  let databaseUrl: string;
  let s3: TestS3Server;
  const procs: Proc[] = [];

  async function start(
    role: "api" | "worker",
    env: Record<string, string> = {},
  ): Promise<Proc> {
    const port = await freePort();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), `vouchreel-${role}-`));
    const url = `http://127.0.0.1:${port}`;
    let out = "";
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.join(ROOT_DIR, "src/server/main.ts")],
      {
        cwd: ROOT_DIR,
        env: {
          PATH: process.env.PATH ?? "",
          NODE_ENV: "test",
          LOG_LEVEL: "info",
          ROLE: role,
          PORT: String(port),
          HOST: "127.0.0.1",
          APP_URL: "http://app.test",
          DATA_DIR: dataDir,
          DATABASE_URL: databaseUrl,
          DATABASE_POOL_SIZE: "4",
          JWT_SECRET,
          AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
          ...s3.env,
          ...env,
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) =>
      child.once("exit", (code) => resolve(code)),
    );
    const proc: Proc = {
      role,
      url,
      dataDir,
      child,
      output: () => out,
      lines: () =>
        out
          .split("\n")
          .filter((l) => l.startsWith("{"))
          .map((l) => JSON.parse(l) as Record<string, unknown>),
      stop: async () => {
        if (child.exitCode === null && child.signalCode === null)
          child.kill("SIGTERM");
        return exited;
      },
    };
    procs.push(proc);
    await until(
      `${role} to answer /api/ready`,
      async () => {
        if (child.exitCode !== null)
          throw new Error(`${role} exited with ${child.exitCode}:\n${out}`);
        return fetch(`${url}/api/ready`).then(
          (res) => res.ok,
          () => false,
        );
      },
      60_000,
      250,
    ).catch((error: unknown) => {
      throw new Error(
        `${error instanceof Error ? error.message : String(error)}\n${out}`,
      );
    });
    return proc;
  }

  const json = async (res: Response) => ({
    status: res.status,
    body: (await res.json()) as Record<string, unknown>,
  });
  const jobRows = async (name: string) =>
    (
      await db.query<{
        id: string;
        state: string;
        retry_count: number;
        data: { responseId?: string; _meta?: { requestId?: string } };
      }>(
        `select id, state, retry_count, data from pgboss.job where name = $1 order by created_on`,
        [name],
      )
    ).rows;

  /** A company signed in through the API (confirmation done in the database). */
  async function company(api: Proc) {
    const email = `owner.${randomBytes(4).toString("hex")}@fleet.test`;
    const signup = await fetch(`${api.url}/api/auth/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        firstname: "Flo",
        lastname: "Fleet",
        email,
        companyName: `Fleet ${email}`,
        password: "secret12",
        lang: "en",
      }),
    });
    expect(signup.status).toBe(201);
    await db.query(
      "update users set email_confirmed_at = now() where email = $1",
      [email],
    );
    const signin = await json(
      await fetch(`${api.url}/api/auth/signin`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password: "secret12" }),
      }),
    );
    expect(signin.status).toBe(200);
    const user = signin.body.user as { company_id: string };
    const headers = {
      authorization: `Bearer ${String(signin.body.token)}`,
      "content-type": "application/json",
    };
    const call = async (method: string, url: string, body?: object) =>
      json(
        await fetch(`${api.url}${url}`, {
          method,
          headers,
          ...(body ? { body: JSON.stringify(body) } : {}),
        }),
      );
    return { companyId: user.company_id, headers, call };
  }

  /** A request answered by a customer through the API; returns the save call's request id. */
  async function submit(
    api: Proc,
    me: Awaited<ReturnType<typeof company>>,
    clipFile: string,
    slow?: (sendRest: () => void) => void,
  ) {
    const q = await me.call("POST", "/api/questions/add", {
      company_id: me.companyId,
      text: "What changed for you?",
      order_position: 1,
    });
    const sent = await me.call("POST", "/api/testimonials/request", {
      customer_email: "c@client.test",
      customer_name: "Cleo",
      question_ids: [q.body.id],
      language: "english",
    });
    const id = (sent.body.testimonial as { id: string }).id;
    const { rows } = await db.query<{ token: string }>(
      "select token from testimonial_requests where id = $1",
      [id],
    );
    const form = multipart([
      {
        name: "videos",
        filename: "video0.webm",
        content: await readFile(clipFile),
        type: "video/webm",
      },
      { name: "questionIds[0]", value: String(q.body.id) },
      { name: "bgColors[0]", value: "#000000" },
      { name: "name", value: "Cleo" },
      { name: "testimonialId", value: id },
      { name: "token", value: rows[0]!.token },
      { name: "consentVersion", value: "image-rights-v1" },
    ]);
    let body: BodyInit = form.payload;
    if (slow) {
      // Half the body now, the rest when told: a request that is in flight.
      const half = Math.floor(form.payload.length / 2);
      body = new ReadableStream({
        start(controller) {
          controller.enqueue(form.payload.subarray(0, half));
          slow(() => {
            controller.enqueue(form.payload.subarray(half));
            controller.close();
          });
        },
      });
    }
    const res = await fetch(`${api.url}/api/public/testimonial/save`, {
      method: "POST",
      headers: {
        ...form.headers,
        "content-length": String(form.payload.length),
      },
      body,
      ...(slow ? { duplex: "half" } : {}),
    } as RequestInit);
    const saved = await json(res);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    return {
      id,
      requestId: String(res.headers.get("x-request-id")),
      responseId: (saved.body.responses as { id: string }[])[0]!.id,
    };
  }

  const videoKeyOf = async (responseId: string) =>
    (
      await db.query<{ video_key: string | null }>(
        "select video_key from testimonial_responses where id = $1",
        [responseId],
      )
    ).rows[0]?.video_key ?? null;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    dbName = `vr_roles_${process.pid}_${randomBytes(3).toString("hex")}`;
    await admin.query(`create database ${dbName}`);
    const url = new URL(adminUrl);
    url.pathname = `/${dbName}`;
    databaseUrl = url.toString();
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    s3 = await startS3Server();
  });

  afterAll(async () => {
    for (const p of procs) {
      if (p.child.exitCode === null && p.child.signalCode === null)
        p.child.kill("SIGKILL");
      await rm(p.dataDir, { recursive: true, force: true });
    }
    await db?.end().catch(() => undefined);
    await s3?.close();
    if (admin) {
      await admin
        .query(`drop database if exists ${dbName} with (force)`)
        .catch(() => undefined);
      await admin.end();
    }
  });

  it("API processes run no job and workers serve only health, readiness and metrics; the request id reaches the worker's logs", async () => {
    const api = await start("api", {
      METRICS_TOKEN: "fleet-metrics-token-123456",
    });
    const worker = await start("worker", {
      WORKER_CONCURRENCY: "1",
      METRICS_TOKEN: "fleet-metrics-token-123456",
    });

    const health = await json(await fetch(`${worker.url}/api/health`));
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({
      status: "ok",
      checks: { database: { driver: "postgres" }, storage: { driver: "s3" } },
    });
    const notHere = await json(
      await fetch(`${worker.url}/api/public/app-config`),
    );
    expect(notHere.status).toBe(404);
    expect(notHere.body.code).toBe("not_found");
    expect((await fetch(`${api.url}/api/public/app-config`)).status).toBe(200);

    const me = await company(api);
    const clip = await makeClip({ format: "webm", seconds: 2, tone: 523 });
    const saved = await submit(api, me, clip);
    const key = await until("the worker to transcode", () =>
      videoKeyOf(saved.responseId),
    );
    expect(await s3.keys()).toContain(key);

    // Sent by the API with the request's id, run by the worker, whose log lines carry that id.
    const [job] = (await jobRows("transcode-answer")).filter(
      (j) => j.data.responseId === saved.responseId,
    );
    expect(job!.data._meta?.requestId).toBe(saved.requestId);
    await until(
      "the job to be completed",
      async () =>
        (await jobRows("transcode-answer")).find((j) => j.id === job!.id)
          ?.state === "completed",
    );
    const done = await until("the worker's log line", async () =>
      worker
        .lines()
        .find((l) => l.msg === "job completed" && l.jobId === job!.id),
    );
    expect(done).toMatchObject({
      reqId: saved.requestId,
      job: "transcode-answer",
    });
    expect(api.lines().some((l) => l.msg === "job completed")).toBe(false);
    expect(api.lines().some((l) => l.reqId === saved.requestId)).toBe(true);

    // The worker's metrics show its job; the API's show its requests.
    const auth = { authorization: "Bearer fleet-metrics-token-123456" };
    expect(
      await (await fetch(`${worker.url}/metrics`, { headers: auth })).text(),
    ).toMatch(
      /vouchreel_job_duration_seconds_count\{[^}]*queue="transcode-answer"[^}]*\} [1-9]/,
    );
    expect(
      await (await fetch(`${api.url}/metrics`, { headers: auth })).text(),
    ).toMatch(
      /vouchreel_http_request_duration_seconds_count\{[^}]*route="\/api\/public\/testimonial\/save"/,
    );

    // Paid playback through the API: a redirect to the bucket.
    expect(
      (await me.call("POST", `/api/testimonials/pay/${saved.id}`)).status,
    ).toBe(200);
    const detail = await me.call(
      "GET",
      `/api/testimonials/request/${saved.id}?company_id=${me.companyId}`,
    );
    const videoUrl = new URL(
      String(
        (
          detail.body.testimonial as {
            testimonial_responses: { video_url: string }[];
          }
        ).testimonial_responses[0]!.video_url,
      ),
    );
    const redirect = await fetch(
      `${api.url}${videoUrl.pathname}${videoUrl.search}`,
      { redirect: "manual" },
    );
    expect(redirect.status).toBe(302);
    const media = await fetch(String(redirect.headers.get("location")));
    expect(media.status).toBe(200);
    expect(
      Buffer.from(await media.arrayBuffer())
        .subarray(4, 8)
        .toString("latin1"),
    ).toBe("ftyp");

    // Neither keeps media on its disk.
    for (const p of [api, worker]) {
      expect(existsSync(path.join(p.dataDir, "media")), p.role).toBe(false);
      expect(
        existsSync(path.join(p.dataDir, "tmp"))
          ? await readdir(path.join(p.dataDir, "tmp"))
          : [],
        p.role,
      ).toEqual([]);
    }

    // SIGTERM while an upload is in flight: the API finishes it, then exits cleanly.
    let sendRest: () => void = () => undefined;
    const saves = () =>
      api
        .lines()
        .filter(
          (l) =>
            l.msg === "incoming request" &&
            (l.req as { url?: string } | undefined)?.url ===
              "/api/public/testimonial/save",
        ).length;
    const savesBefore = saves();
    const inFlight = submit(api, me, clip, (rest) => (sendRest = rest));
    await until(
      "the upload to reach the API",
      async () => saves() > savesBefore,
      10_000,
      50,
    );
    const apiExit = api.stop();
    await new Promise((r) => setTimeout(r, 500));
    expect(api.child.exitCode).toBeNull();
    sendRest();
    const second = await inFlight;
    expect(second.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await apiExit).toBe(0);
    expect(api.lines().some((l) => l.msg === "stopped cleanly")).toBe(true);
    await until("the worker to transcode the last upload", () =>
      videoKeyOf(second.responseId),
    );
    expect(await worker.stop()).toBe(0);
  }, 240_000);

  it("SIGTERM hands a job that cannot finish in time back to the queue; another worker finishes it, and finishes what it runs before exiting", async () => {
    const api = await start("api");
    // Long enough to be interrupted: a 19 s 1280×720 answer takes several seconds to transcode here.
    const clip = await makeClip({
      format: "webm",
      seconds: 19,
      size: "1280x720",
      tone: 659,
    });
    const me = await company(api);

    // A worker with one second to finish its jobs on SIGTERM.
    const first = await start("worker", {
      WORKER_CONCURRENCY: "1",
      SHUTDOWN_TIMEOUT_SECONDS: "6",
    });
    const saved = await submit(api, me, clip);
    const active = await until(
      "the first worker to take the job",
      async () =>
        (await jobRows("transcode-answer")).find(
          (j) => j.data.responseId === saved.responseId && j.state === "active",
        ),
      100_000,
      100,
    );
    expect(await first.stop()).toBe(0);
    expect(
      first
        .lines()
        .find((l) => l.msg === "job interrupted by shutdown: handed back"),
    ).toMatchObject({ jobId: active.id, reqId: saved.requestId });
    const handedBack = (await jobRows("transcode-answer")).find(
      (j) => j.id === active.id,
    )!;
    expect(handedBack.state).toBe("created");
    expect(handedBack.retry_count).toBe(0);
    expect(await videoKeyOf(saved.responseId)).toBeNull();
    expect(await readdir(path.join(first.dataDir, "tmp"))).toEqual([]);

    // A second worker takes it; SIGTERM while it runs: with time enough, it finishes, then exits.
    const second = await start("worker", {
      WORKER_CONCURRENCY: "1",
      SHUTDOWN_TIMEOUT_SECONDS: "120",
    });
    await until(
      "the second worker to take the job",
      async () =>
        (await jobRows("transcode-answer")).find((j) => j.id === active.id)
          ?.state === "active",
      30_000,
      100,
    );
    expect(await second.stop()).toBe(0);
    const finished = (await jobRows("transcode-answer")).find(
      (j) => j.id === active.id,
    )!;
    expect(finished.state).toBe("completed");
    expect(finished.retry_count).toBe(0);
    expect(await videoKeyOf(saved.responseId)).toMatch(/answer\.mp4$/);
    expect(
      second
        .lines()
        .filter((l) => l.msg === "job completed" && l.jobId === active.id),
    ).toHaveLength(1);
    expect(await readdir(path.join(second.dataDir, "tmp"))).toEqual([]);
    expect(await api.stop()).toBe(0);
  }, 300_000);
});
