import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";

/** The part of s3rver (CommonJS, untyped) the tests use. */
interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverClass = new (options: {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  configureBuckets: { name: string }[];
  resetOnClose?: boolean;
}) => S3rverInstance;

const S3rver = createRequire(import.meta.url)("s3rver") as S3rverClass;

export interface TestS3Server {
  endpoint: string;
  bucket: string;
  /** The environment that points the app at this server. */
  env: Record<string, string>;
  /** A client of the bucket, to look at it from outside the app. */
  client: S3Client;
  /** Every object key in the bucket, listed through the S3 API. */
  keys: () => Promise<string[]>;
  close: () => Promise<void>;
}

/**
 * A real S3-compatible server (s3rver) on loopback, on a free port, with one empty bucket in a
 * temporary folder. It speaks the S3 REST API the SDK uses (put, multipart, get with ranges, head,
 * delete, presigned GET); it does not verify SigV4 signatures, nor abort multipart uploads.
 */
export async function startS3Server(
  bucket = "vouchreel-test",
): Promise<TestS3Server> {
  const directory = await mkdtemp(path.join(os.tmpdir(), "vouchreel-s3-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
  });
  const keys = async () => {
    const found: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }),
      );
      for (const item of page.Contents ?? [])
        if (item.Key) found.push(item.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return found.sort();
  };
  return {
    endpoint,
    bucket,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "true",
    },
    client,
    keys,
    close: async () => {
      client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
