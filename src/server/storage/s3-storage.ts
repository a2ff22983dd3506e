import { randomUUID } from "node:crypto";
import { Readable, Transform, pipeline } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { S3Config } from "../config.js";
import { assertValidKey, assertValidPrefix, type Storage } from "./storage.js";

/** Parts of a multipart upload; S3's minimum is 5 MiB. Two in flight keep memory at ~20 MiB per upload. */
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;
/** The write probe of ping() runs at most this often; the bucket is still asked every time. */
const WRITE_PROBE_EVERY_MS = 60_000;
const PROBE_KEY = "_health/ping";

export interface S3Storage extends Storage {
  readonly driver: "s3";
  presignGet(
    key: string,
    options: {
      expiresInSeconds: number;
      downloadName?: string;
      audience?: "public" | "internal";
    },
  ): Promise<string>;
  close(): void;
}

const isNotFound = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.$metadata.httpStatusCode === 404 ||
    error.name === "NotFound" ||
    error.name === "NoSuchKey");

function client(config: S3Config, endpoint: string | undefined): S3Client {
  return new S3Client({
    region: config.region,
    ...(endpoint ? { endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    ...(config.credentials ? { credentials: config.credentials } : {}),
    // Checksums only where S3 requires them: several S3-compatible servers refuse or mangle the
    // SDK's default trailing checksums (aws-chunked bodies), and TLS already protects the transfer.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    maxAttempts: 3,
  });
}

/**
 * Media in an S3-compatible bucket, behind the same interface as the local store. Writes are streamed
 * (multipart above one part), so an object appears only once complete and a failed upload is aborted,
 * leaving nothing. Readers get presigned addresses; this process never keeps media on disk.
 */
export function createS3Storage(config: S3Config): S3Storage {
  const s3 = client(config, config.endpoint);
  // Browsers may reach the bucket under another name than this process (a public endpoint): presigned
  // addresses are signed for the host they will be sent to.
  const publicS3 =
    config.publicEndpoint && config.publicEndpoint !== config.endpoint
      ? client(config, config.publicEndpoint)
      : s3;
  const Bucket = config.bucket;
  let lastWriteProbe = 0;

  return {
    driver: "s3",
    async put(key, body, contentType) {
      assertValidKey(key);
      let size = 0;
      let sourceError: unknown;
      let source: Readable | Buffer;
      if (Buffer.isBuffer(body)) {
        size = body.length;
        source = body;
      } else {
        const counter = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            size += chunk.length;
            done(null, chunk);
          },
        });
        // An error of the source destroys the counter, which fails (and aborts) the upload.
        pipeline(body, counter, (error) => {
          if (error) sourceError = error;
        });
        source = counter;
      }
      const upload = new Upload({
        client: s3,
        params: { Bucket, Key: key, Body: source, ContentType: contentType },
        partSize: PART_SIZE,
        queueSize: QUEUE_SIZE,
        leavePartsOnError: false,
      });
      try {
        await upload.done();
      } catch (error) {
        // The cause is the body's failure, even when aborting the multipart upload failed as well
        // (a bucket lifecycle rule removes parts of uploads that were never completed nor aborted).
        throw sourceError ?? error;
      }
      return size;
    },
    async get(key, range) {
      assertValidKey(key);
      const result = await s3.send(
        new GetObjectCommand({
          Bucket,
          Key: key,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      if (!(result.Body instanceof Readable))
        throw new Error(`S3 returned no readable body for ${key}`);
      return result.Body;
    },
    async head(key) {
      assertValidKey(key);
      try {
        const result = await s3.send(
          new HeadObjectCommand({ Bucket, Key: key }),
        );
        return {
          size: result.ContentLength ?? 0,
          contentType: result.ContentType ?? "application/octet-stream",
        };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      assertValidKey(key);
      await s3.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    async list(prefix) {
      assertValidPrefix(prefix);
      const keys: string[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await s3.send(
          new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken }),
        );
        for (const object of page.Contents ?? [])
          if (object.Key) keys.push(object.Key);
        ContinuationToken = page.IsTruncated
          ? page.NextContinuationToken
          : undefined;
      } while (ContinuationToken);
      return keys;
    },
    async deletePrefix(prefix) {
      const keys = await this.list(prefix);
      // One call per object: every S3-compatible server has DeleteObject (not all take a batch).
      for (let i = 0; i < keys.length; i += 8) {
        await Promise.all(
          keys
            .slice(i, i + 8)
            .map((Key) => s3.send(new DeleteObjectCommand({ Bucket, Key }))),
        );
      }
      return keys.length;
    },
    async ping() {
      await s3.send(new HeadBucketCommand({ Bucket }));
      if (Date.now() - lastWriteProbe < WRITE_PROBE_EVERY_MS) return;
      // One fixed key, overwritten: readiness probes every few seconds must not grow the bucket.
      await s3.send(
        new PutObjectCommand({
          Bucket,
          Key: PROBE_KEY,
          Body: randomUUID(),
          ContentType: "text/plain",
        }),
      );
      lastWriteProbe = Date.now();
    },
    async presignGet(key, options) {
      assertValidKey(key);
      const command = new GetObjectCommand({
        Bucket,
        Key: key,
        ...(options.downloadName
          ? {
              ResponseContentDisposition: `attachment; filename="${options.downloadName.replace(/[^\w.-]/g, "_")}"`,
            }
          : {}),
      });
      const signer = options.audience === "internal" ? s3 : publicS3;
      return getSignedUrl(signer, command, {
        expiresIn: Math.max(1, Math.round(options.expiresInSeconds)),
      });
    },
    close() {
      s3.destroy();
      if (publicS3 !== s3) publicS3.destroy();
    },
  };
}
