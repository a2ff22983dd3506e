import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { companies, testimonialResponses } from "../db/schema.js";
import { signMediaPath } from "../media/signed-urls.js";
import { signedInCompany } from "../test/accounts.js";
import { multipart } from "../test/clips.js";
import { createTestApp, type TestApp } from "../test/harness.js";
import { startS3Server, type TestS3Server } from "../test/s3-server.js";
import { completedTestimonial } from "../test/testimonials.js";

async function until<T>(
  what: string,
  fn: () => Promise<T | undefined | null | false>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("the app on S3 storage (upload, transcode, paid playback through presigned addresses)", () => {
  let s3: TestS3Server;
  let t: TestApp;
  beforeAll(async () => {
    s3 = await startS3Server();
    t = await createTestApp({ work: true, env: s3.env });
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  it("keeps every object in the bucket and nothing on local disk, and plays paid answers from presigned addresses only", async () => {
    expect(t.ctx.storage.driver).toBe("s3");
    const me = await signedInCompany(t);
    const tm = await completedTestimonial(t, me);
    const prefix = `companies/${me.companyId}/requests/${tm.id}/answers/`;

    const [response] = await t.ctx.db
      .select()
      .from(testimonialResponses)
      .where(eq(testimonialResponses.requestId, tm.id));
    expect(response!.originalKey).toMatch(
      new RegExp(`^${prefix}[0-9a-f-]{36}/original\\.webm$`),
    );
    const answerDir = path.posix.dirname(response!.originalKey);

    // The worker (in-process here) downloads the original, transcodes, uploads the MP4 and the poster.
    const done = await until("the transcode", async () => {
      const [row] = await t.ctx.db
        .select()
        .from(testimonialResponses)
        .where(eq(testimonialResponses.id, response!.id));
      return row?.videoKey && row.posterKey ? row : undefined;
    });
    expect(done.videoKey).toBe(`${answerDir}/answer.mp4`);
    expect(await s3.keys()).toEqual(
      expect.arrayContaining([
        response!.originalKey,
        `${answerDir}/answer.mp4`,
        `${answerDir}/poster.jpg`,
      ]),
    );

    // Nothing kept on this process's disk: no media folder, and the temporary folders are empty again
    // (DATA_DIR/tmp holds at most this process's own, empty, folder).
    expect(existsSync(t.config.mediaDir)).toBe(false);
    const tmp = path.join(t.config.dataDir, "tmp");
    expect(existsSync(tmp) ? await readdir(tmp) : []).toEqual(
      existsSync(t.ctx.tmpDir) ? [path.basename(t.ctx.tmpDir)] : [],
    );
    expect(existsSync(t.ctx.tmpDir) ? await readdir(t.ctx.tmpDir) : []).toEqual([]);

    // Unpaid: no address at all; a forged signed one is refused before any redirect.
    const before = (
      await me.get(
        `/api/testimonials/request/${tm.id}?company_id=${me.companyId}`,
      )
    ).json();
    expect(before.testimonial.testimonial_responses[0].video_url).toBeNull();
    const unpaid = await t.app.inject({
      method: "GET",
      url: signMediaPath(t.ctx.secrets.jwt, done.videoKey!),
    });
    expect(unpaid.statusCode).toBe(403);
    expect(unpaid.headers.location).toBeUndefined();

    expect((await me.post(`/api/testimonials/pay/${tm.id}`)).statusCode).toBe(
      200,
    );
    const after = (
      await me.get(
        `/api/testimonials/request/${tm.id}?company_id=${me.companyId}`,
      )
    ).json();
    const videoUrl = new URL(
      after.testimonial.testimonial_responses[0].video_url,
    );
    expect(videoUrl.pathname.startsWith("/files/")).toBe(true);

    const redirect = await t.app.inject({
      method: "GET",
      url: videoUrl.pathname + videoUrl.search,
    });
    expect(redirect.statusCode).toBe(302);
    expect(redirect.headers["cache-control"]).toBe("private, no-store");
    const presigned = new URL(String(redirect.headers.location));
    expect(presigned.origin).toBe(s3.endpoint);
    expect(presigned.pathname).toBe(`/${s3.bucket}/${done.videoKey}`);
    const expires = Number(presigned.searchParams.get("X-Amz-Expires"));
    expect(expires).toBeGreaterThan(7000);
    expect(expires).toBeLessThanOrEqual(7200);

    const whole = await fetch(presigned);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("video/mp4");
    const bytes = Buffer.from(await whole.arrayBuffer());
    expect(bytes.length).toBe((await t.ctx.storage.head(done.videoKey!))!.size);
    expect(bytes.subarray(4, 8).toString("latin1")).toBe("ftyp");
    const ranged = await fetch(presigned, {
      headers: { range: "bytes=100-199" },
    });
    expect(ranged.status).toBe(206);
    expect(
      Buffer.from(await ranged.arrayBuffer()).equals(bytes.subarray(100, 200)),
    ).toBe(true);

    // A download keeps the same checks and names the file.
    const download = await t.app.inject({
      method: "GET",
      url: `${videoUrl.pathname}${videoUrl.search}&download=Customer answer.mp4`,
    });
    expect(download.statusCode).toBe(302);
    const attachment = await fetch(String(download.headers.location));
    expect(attachment.headers.get("content-disposition")).toBe(
      'attachment; filename="Customer_answer.mp4"',
    );
    await attachment.arrayBuffer();

    // Another company's signature moved onto this file is refused, as on local storage.
    const expired = signMediaPath(
      t.ctx.secrets.jwt,
      done.videoKey!,
      60,
      Date.now() - 3_600_000,
    );
    expect(
      (await t.app.inject({ method: "GET", url: expired })).statusCode,
    ).toBe(403);
  });

  it("serves the logo and lets the pages load media from the bucket (Content-Security-Policy)", async () => {
    const me = await signedInCompany(t);
    const file = path.join(os.tmpdir(), `vr-s3-logo-${process.pid}.png`);
    await promisify(execFile)("ffmpeg", [
      "-hide_banner",
      "-v",
      "error",
      "-y",
      "-f",
      "lavfi",
      "-i",
      "color=c=#6d28d9:s=120x60",
      "-frames:v",
      "1",
      file,
    ]);
    const png = await readFile(file);
    await rm(file, { force: true });
    const form = multipart([
      { name: "logo", filename: "logo.png", content: png, type: "image/png" },
    ]);
    const upload = await t.app.inject({
      method: "POST",
      url: "/api/auth/upload-logo",
      ...form,
      headers: { ...form.headers, ...me.headers },
    });
    expect(upload.statusCode, upload.body).toBe(200);
    // The logo job (the in-process worker) stores the normalised copy and points the company at it.
    await expect
      .poll(async () => (await t.ctx.db.select().from(companies).where(eq(companies.id, me.companyId)))[0]?.logoKey, { timeout: 30_000, interval: 100 })
      .toBeTruthy();
    const [company] = await t.ctx.db
      .select()
      .from(companies)
      .where(eq(companies.id, me.companyId));
    expect(await s3.keys()).toContain(company!.logoKey);
    const logo = await t.app.inject({
      method: "GET",
      url: `/api/public/logo/${me.companyId}`,
    });
    expect(logo.statusCode).toBe(200);
    // The stored logo is the normalised PNG copy (the same size here, the picture under 1024 px).
    expect(logo.rawPayload.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect([logo.rawPayload.readUInt32BE(16), logo.rawPayload.readUInt32BE(20)]).toEqual([120, 60]);

    // A page's policy (API answers load nothing).
    const csp = String(
      (await t.app.inject({ method: "GET", url: "/dashboard" })).headers[
        "content-security-policy"
      ],
    );
    expect(csp).toContain(`media-src 'self' blob: ${s3.endpoint}`);
    expect(csp).toContain(`img-src 'self' data: blob: ${s3.endpoint}`);
  });
});

describe("the app on S3 storage with a bucket private to the servers (S3_MEDIA_DELIVERY=stream)", () => {
  let s3: TestS3Server;
  let t: TestApp;
  beforeAll(async () => {
    s3 = await startS3Server();
    t = await createTestApp({ work: true, env: { ...s3.env, S3_MEDIA_DELIVERY: "stream" } });
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  it("plays a paid answer through the app itself, with ranges, and never sends the browser to the bucket", async () => {
    const me = await signedInCompany(t);
    const tm = await completedTestimonial(t, me);
    const [response] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, tm.id));
    const done = await until("the transcode", async () => {
      const [row] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.id, response!.id));
      return row?.videoKey && row.posterKey ? row : undefined;
    });
    expect((await me.post(`/api/testimonials/pay/${tm.id}`)).statusCode).toBe(200);
    const after = (await me.get(`/api/testimonials/request/${tm.id}?company_id=${me.companyId}`)).json();
    const videoUrl = new URL(after.testimonial.testimonial_responses[0].video_url);

    const whole = await t.app.inject({ method: "GET", url: videoUrl.pathname + videoUrl.search });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers.location).toBeUndefined();
    expect(whole.headers["content-type"]).toBe("video/mp4");
    expect(whole.rawPayload.length).toBe((await t.ctx.storage.head(done.videoKey!))!.size);
    expect(whole.rawPayload.subarray(4, 8).toString("latin1")).toBe("ftyp");
    const ranged = await t.app.inject({ method: "GET", url: videoUrl.pathname + videoUrl.search, headers: { range: "bytes=100-199" } });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.rawPayload.equals(whole.rawPayload.subarray(100, 200))).toBe(true);

    // The pages allow no media origin but their own.
    const csp = String((await t.app.inject({ method: "GET", url: "/dashboard" })).headers["content-security-policy"]);
    expect(csp).not.toContain(s3.endpoint);
  });
});
