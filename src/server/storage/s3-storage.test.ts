import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { buffer, text } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import { startS3Server, type TestS3Server } from "../test/s3-server.js";
import { createS3Storage, type S3Storage } from "./s3-storage.js";

describe("S3 storage against a real S3-compatible server on loopback", () => {
  let server: TestS3Server;
  let storage: S3Storage;
  beforeAll(async () => {
    server = await startS3Server();
    storage = createS3Storage(loadConfig(server.env).s3!);
  });
  afterAll(async () => {
    storage?.close();
    await server?.close();
  });

  it("puts, heads, gets (whole and ranges) and deletes an object", async () => {
    const key = "companies/c1/answers/a.webm";
    const size = await storage.put(
      key,
      Readable.from([Buffer.from("hello "), Buffer.from("world")]),
      "video/webm",
    );
    expect(size).toBe(11);
    expect(await storage.head(key)).toEqual({
      size: 11,
      contentType: "video/webm",
    });
    expect(await text(await storage.get(key))).toBe("hello world");
    expect(await text(await storage.get(key, { start: 6, end: 10 }))).toBe(
      "world",
    );
    expect(await text(await storage.get(key, { start: 0, end: 1 }))).toBe("he");
    expect(await server.keys()).toContain(key);

    await storage.delete(key);
    expect(await storage.head(key)).toBeNull();
    await expect(storage.get(key)).rejects.toThrow();
    expect(await server.keys()).not.toContain(key);
    // Deleting what is not there is not an error (as on disk).
    await expect(storage.delete(key)).resolves.toBeUndefined();
  });

  it("streams a large body as a multipart upload, byte for byte", async () => {
    const body = randomBytes(19 * 1024 * 1024 + 123);
    const chunks = Array.from(
      { length: Math.ceil(body.length / 65_536) },
      (_, i) => body.subarray(i * 65_536, (i + 1) * 65_536),
    );
    const size = await storage.put(
      "big/answer.mp4",
      Readable.from(chunks),
      "video/mp4",
    );
    expect(size).toBe(body.length);
    expect(await storage.head("big/answer.mp4")).toEqual({
      size: body.length,
      contentType: "video/mp4",
    });
    expect(
      (await buffer(await storage.get("big/answer.mp4"))).equals(body),
    ).toBe(true);
    const start = 8 * 1024 * 1024 - 10;
    const part = await buffer(
      await storage.get("big/answer.mp4", { start, end: start + 19 }),
    );
    expect(part.equals(body.subarray(start, start + 20))).toBe(true);
    await storage.delete("big/answer.mp4");
  });

  it("stores a Buffer as it is", async () => {
    const logo = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    expect(
      await storage.put("companies/c1/logo/x.png", logo, "image/png"),
    ).toBe(7);
    expect(
      (await buffer(await storage.get("companies/c1/logo/x.png"))).equals(logo),
    ).toBe(true);
    expect((await storage.head("companies/c1/logo/x.png"))?.contentType).toBe(
      "image/png",
    );
  });

  it("leaves no object behind when the stream fails half-way (small and multipart)", async () => {
    const failing = (bytes: number) => {
      let sent = 0;
      return new Readable({
        read() {
          if (sent >= bytes) {
            this.destroy(new Error("connection reset"));
            return;
          }
          sent += 1024 * 1024;
          this.push(Buffer.alloc(1024 * 1024, 1));
        },
      });
    };
    await expect(
      storage.put("x/partial-small.webm", failing(1024 * 1024), "video/webm"),
    ).rejects.toThrow("connection reset");
    await expect(
      storage.put(
        "x/partial-large.webm",
        failing(12 * 1024 * 1024),
        "video/webm",
      ),
    ).rejects.toThrow("connection reset");
    expect(await storage.head("x/partial-small.webm")).toBeNull();
    expect(await storage.head("x/partial-large.webm")).toBeNull();
    expect((await server.keys()).filter((k) => k.startsWith("x/"))).toEqual([]);
  });

  it("hands out presigned addresses that a plain HTTP client can read, with ranges and a download name", async () => {
    await storage.put(
      "companies/c2/requests/r/answers/a/answer.mp4",
      Buffer.from("0123456789"),
      "video/mp4",
    );
    const url = await storage.presignGet(
      "companies/c2/requests/r/answers/a/answer.mp4",
      { expiresInSeconds: 300 },
    );
    const parsed = new URL(url);
    expect(parsed.origin).toBe(server.endpoint);
    expect(parsed.searchParams.get("X-Amz-Expires")).toBe("300");
    expect(parsed.searchParams.get("X-Amz-Signature")).toMatch(
      /^[0-9a-f]{64}$/,
    );

    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("video/mp4");
    expect(await whole.text()).toBe("0123456789");
    const ranged = await fetch(url, { headers: { range: "bytes=2-5" } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get("content-range")).toBe("bytes 2-5/10");
    expect(await ranged.text()).toBe("2345");

    const download = await fetch(
      await storage.presignGet("companies/c2/requests/r/answers/a/answer.mp4", {
        expiresInSeconds: 60,
        downloadName: 'my "video".mp4',
      }),
    );
    expect(download.headers.get("content-disposition")).toBe(
      'attachment; filename="my__video_.mp4"',
    );
  });

  it("signs for the public endpoint when browsers reach the bucket under another name", async () => {
    const config = loadConfig({
      ...server.env,
      S3_PUBLIC_ENDPOINT: "https://media.example.com",
    }).s3!;
    expect(config.publicOrigin).toBe("https://media.example.com");
    const other = createS3Storage(config);
    try {
      expect(
        new URL(await other.presignGet("a/b.mp4", { expiresInSeconds: 60 }))
          .origin,
      ).toBe("https://media.example.com");
      expect(
        new URL(
          await other.presignGet("a/b.mp4", {
            expiresInSeconds: 60,
            audience: "internal",
          }),
        ).origin,
      ).toBe(server.endpoint);
    } finally {
      other.close();
    }
  });

  it("refuses keys that could escape their prefix, before any request", async () => {
    for (const key of [
      "../escape",
      "/abs/path",
      "a/../../b",
      "a//b",
      "",
      "a/.hidden",
    ]) {
      await expect(
        storage.put(key, Buffer.from("x"), "text/plain"),
        key,
      ).rejects.toThrow(/Invalid storage key/);
      await expect(
        storage.presignGet(key, { expiresInSeconds: 60 }),
        key,
      ).rejects.toThrow(/Invalid storage key/);
    }
  });

  it("pings a reachable bucket, and fails on a missing bucket or a server that is gone", async () => {
    await expect(storage.ping()).resolves.toBeUndefined();
    expect(await server.keys()).toContain("_health/ping");

    const missing = createS3Storage({
      ...loadConfig(server.env).s3!,
      bucket: "no-such-bucket",
    });
    await expect(missing.ping()).rejects.toThrow();
    missing.close();

    const gone = createS3Storage({
      ...loadConfig(server.env).s3!,
      endpoint: "http://127.0.0.1:9",
    });
    await expect(gone.ping()).rejects.toThrow();
    gone.close();
  });
});

describe("S3 configuration", () => {
  it("selects S3 only with a bucket and derives the origin browsers are sent to", () => {
    expect(loadConfig({}).s3).toBeUndefined();
    const aws = loadConfig({
      S3_BUCKET: "media-bucket",
      S3_REGION: "eu-west-3",
    }).s3!;
    expect(aws).toMatchObject({
      bucket: "media-bucket",
      endpoint: undefined,
      region: "eu-west-3",
      credentials: undefined,
      forcePathStyle: false,
    });
    expect(aws.publicOrigin).toBe(
      "https://media-bucket.s3.eu-west-3.amazonaws.com",
    );
    const minio = loadConfig({
      S3_BUCKET: "media",
      S3_ENDPOINT: "http://minio:9000/",
      S3_PUBLIC_ENDPOINT: "http://localhost:9000",
      S3_FORCE_PATH_STYLE: "true",
      S3_ACCESS_KEY_ID: "k",
      S3_SECRET_ACCESS_KEY: "s",
    }).s3!;
    expect(minio).toMatchObject({
      endpoint: "http://minio:9000",
      publicOrigin: "http://localhost:9000",
      credentials: { accessKeyId: "k", secretAccessKey: "s" },
    });
  });

  it("names what is missing or wrong", () => {
    expect(() =>
      loadConfig({ S3_BUCKET: "media", S3_ACCESS_KEY_ID: "k" }),
    ).toThrow(/S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both/);
    expect(() => loadConfig({ S3_ENDPOINT: "http://minio:9000" })).toThrow(
      /S3_BUCKET: required with S3_ENDPOINT/,
    );
    expect(() => loadConfig({ S3_BUCKET: "Bad_Bucket" })).toThrow(
      /S3_BUCKET: expected an S3 bucket name/,
    );
    expect(() =>
      loadConfig({ S3_BUCKET: "media", S3_ENDPOINT: "ftp://x" }),
    ).toThrow(/S3_ENDPOINT: expected the base URL/);
  });
});
