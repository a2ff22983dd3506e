import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { CRASH_POINTS } from './lib/crash-point.js';
import { MAKE_A_SECRET, weakSecretReason } from './lib/secrets.js';

/**
 * The one place that reads the environment. Everything else receives a typed `Config`.
 * A bad value stops the start with a message naming the variable and what it expects.
 */

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(emptyToUndefined, schema.optional());

const urlWithProtocols = (protocols: string[], what: string) =>
  z.string().refine(
    (v) => {
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    { message: `expected ${what} (${protocols.map((p) => p + '//…').join(' or ')})` },
  );

const ZEnv = z.object({
  NODE_ENV: z.preprocess(emptyToUndefined, z.enum(['development', 'production', 'test']).default('development')),
  PORT: z.preprocess(
    emptyToUndefined,
    z.coerce.number({ message: 'expected a port number' }).int('expected a whole number').min(0).max(65535).default(3000),
  ),
  HOST: optional(z.string()),
  APP_URL: optional(urlWithProtocols(['http:', 'https:'], 'an absolute http(s) URL such as https://app.example.com')),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
  DATABASE_URL: optional(urlWithProtocols(['postgres:', 'postgresql:'], 'a PostgreSQL connection URL')),
  DATABASE_POOL_SIZE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(200).default(10)),
  SMTP_URL: optional(urlWithProtocols(['smtp:', 'smtps:'], 'an SMTP URL such as smtp://user:pass@host:587')),
  MAIL_FROM: z.preprocess(emptyToUndefined, z.string().min(3).default('Vouchreel <no-reply@vouchreel.app>')),
  SUPPORT_EMAIL: z.preprocess(emptyToUndefined, z.email({ message: 'expected an e-mail address' }).default('support@vouchreel.app')),
  BRAND_NAME: z.preprocess(emptyToUndefined, z.string().min(1).max(40).default('Vouchreel')),
  CUSTOMER_PAGES_POWERED_BY: z.preprocess(emptyToUndefined, z.enum(['true', 'false']).default('false')),
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  ),
  ROLE: z.preprocess(emptyToUndefined, z.enum(['all', 'api', 'worker']).default('all')),
  JWT_SECRET: optional(z.string().min(32, 'expected at least 32 characters')),
  BODY_LIMIT_BYTES: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1024).default(1_048_576)),
  /** Calls one API key may make to /api/v1 per minute, counted across every API process (decision 209). */
  API_KEY_RATE_PER_MINUTE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(100_000).default(120)),
  TRUST_PROXY: optional(z.string()),
  FREE_CREDITS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(1000).default(1)),
  GOOGLE_ISSUER: z.preprocess(
    emptyToUndefined,
    urlWithProtocols(['http:', 'https:'], 'the OpenID Connect issuer URL').default('https://accounts.google.com'),
  ),
  UPLOAD_MAX_BYTES: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1024).default(60 * 1024 * 1024)),
  /** Bytes of customer uploads one address may send in an hour; default 30 × UPLOAD_MAX_BYTES. */
  UPLOAD_BUDGET_BYTES_PER_HOUR: optional(z.coerce.number().int().min(1024)),
  FFMPEG_PATH: optional(z.string().min(1)),
  FFPROBE_PATH: optional(z.string().min(1)),
  FFMPEG_CONCURRENCY: optional(z.coerce.number().int().min(1).max(64)),
  STRIPE_SECRET_KEY: optional(z.string().regex(/^(sk|rk)_(test|live)_/, 'expected a Stripe secret key (sk_test_… or sk_live_…)')),
  STRIPE_WEBHOOK_SECRET: optional(z.string().regex(/^whsec_/, 'expected a Stripe webhook signing secret (whsec_…)')),
  STRIPE_API_URL: optional(urlWithProtocols(['http:', 'https:'], 'the base URL of the Stripe API')),
  STRIPE_PRICE_STARTER: optional(z.string().min(1)),
  STRIPE_PRICE_SMALL: optional(z.string().min(1)),
  STRIPE_PRICE_MEDIUM: optional(z.string().min(1)),
  STRIPE_PRICE_LARGE: optional(z.string().min(1)),
  STRIPE_PRICE_EXTRA_LARGE: optional(z.string().min(1)),
  TRANSCRIBE_URL: optional(urlWithProtocols(['http:', 'https:'], 'the base URL of an OpenAI-compatible API, such as https://api.openai.com/v1')),
  TRANSCRIBE_API_KEY: optional(z.string().min(1)),
  TRANSCRIBE_MODEL: z.preprocess(emptyToUndefined, z.string().min(1).default('whisper-1')),
  POCKETSPHINX_PATH: z.preprocess(emptyToUndefined, z.string().min(1).default('pocketsphinx_continuous')),
  /** Where commands named without a folder (ffmpeg, ffprobe, pocketsphinx) are found: identifies them for the start-up checks' cache. */
  PATH: optional(z.string()),
  GOOGLE_CLIENT_ID: optional(z.string().min(1)),
  GOOGLE_CLIENT_SECRET: optional(z.string().min(1)),
  S3_BUCKET: optional(z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'expected an S3 bucket name (3–63 lower-case letters, digits, dots, hyphens)')),
  S3_ENDPOINT: optional(urlWithProtocols(['http:', 'https:'], 'the base URL of an S3-compatible API, such as https://s3.eu-west-1.amazonaws.com')),
  S3_PUBLIC_ENDPOINT: optional(urlWithProtocols(['http:', 'https:'], 'the base URL browsers use to reach the bucket')),
  S3_REGION: z.preprocess(emptyToUndefined, z.string().min(1).default('us-east-1')),
  S3_ACCESS_KEY_ID: optional(z.string().min(1)),
  S3_SECRET_ACCESS_KEY: optional(z.string().min(1)),
  S3_FORCE_PATH_STYLE: z.preprocess(emptyToUndefined, z.enum(['true', 'false']).default('false')),
  S3_MEDIA_DELIVERY: z.preprocess(emptyToUndefined, z.enum(['redirect', 'stream']).default('redirect')),
  WORKER_CONCURRENCY: optional(z.coerce.number({ message: 'expected a number of jobs' }).int().min(1).max(64)),
  SHUTDOWN_TIMEOUT_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(3600).default(25)),
  WORKER_LEASE_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number({ message: 'expected a number of seconds' }).int().min(3).max(3600).default(30)),
  METRICS_TOKEN: optional(z.string().min(16, 'expected at least 16 characters')),
  READY_MAIL_GATHER_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number({ message: 'expected a number of seconds' }).int().min(0).max(3600).default(75)),
  /** Issue 29: days the media of a testimonial whose consent was withdrawn are kept before the retention job deletes them; 0 deletes at once. */
  CONSENT_WITHDRAWN_RETENTION_DAYS: z.preprocess(emptyToUndefined, z.coerce.number({ message: 'expected a number of days' }).int().min(0).max(3650).default(30)),
  READY_MAIL_INTERVAL_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number({ message: 'expected a number of seconds' }).int().min(0).max(86_400).default(600)),
  /** Issue 31: 'off' makes no draft when a testimonial is paid (and pays none on arrival); for operators saving the worker's time, and tests of other renders. */
  DRAFTS: z.preprocess(emptyToUndefined, z.enum(['on', 'off'], { message: "expected 'on' or 'off'" }).default('on')),
  WEBHOOKS_ALLOW_PRIVATE: z.preprocess(emptyToUndefined, z.enum(['on', 'off'], { message: "expected 'on' or 'off'" }).default('off')),
  READY_MAIL_SLOW_RENDER_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number({ message: 'expected a number of seconds' }).int().min(0).max(3600).default(60)),
  // Read by the test hook itself (lib/crash-point.ts); checked here so that a wrong name or a production use is seen at start.
  TEST_CRASH_AFTER: optional(z.enum(CRASH_POINTS)),
});

export type Role = 'all' | 'api' | 'worker';

/** An S3-compatible bucket for media (instead of DATA_DIR/media). */
export interface S3Config {
  bucket: string;
  /** Absent: AWS S3 of `region`. */
  endpoint: string | undefined;
  /** What browsers reach the bucket at (presigned addresses are signed for it); defaults to `endpoint`. */
  publicEndpoint: string | undefined;
  region: string;
  /** Absent: the SDK's default chain (instance role, web identity, AWS_* variables). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  forcePathStyle: boolean;
  /** The origin of presigned addresses, allowed by the web app's Content-Security-Policy. */
  publicOrigin: string;
  /**
   * How browsers get media: `redirect` (default) sends them to a presigned address of the bucket, which
   * they must be able to reach; `stream` serves the bytes through the app, so the bucket stays private
   * to the servers (the compose trial publishes no storage port).
   */
  delivery: 'redirect' | 'stream';
}

export interface Config {
  env: 'development' | 'production' | 'test';
  isProduction: boolean;
  port: number;
  host: string;
  appUrl: string;
  dataDir: string;
  mediaDir: string;
  outboxDir: string;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  supportEmail: string;
  brandName: string;
  /**
   * The customer's pages show a small "Video testimonials by {brand}" line (CUSTOMER_PAGES_POWERED_BY).
   * Off by default: those pages belong to the business, and carry no promotion of ours (issue 27).
   */
  customerPagesPoweredBy: boolean;
  logLevel: string;
  role: Role;
  jwtSecret: string | undefined;
  bodyLimitBytes: number;
  /** Calls one API key may make to /api/v1 per minute (decision 209). */
  apiKeyRatePerMinute: number;
  /**
   * Which peers' `X-Forwarded-For` to believe: false (none), a hop count (the socket's peer and the
   * proxies behind it, n in all), or the proxies' addresses and CIDRs. Never 'every hop'.
   */
  trustProxy: TrustProxy;
  freeCredits: number;
  /** Largest customer answer accepted, per file. */
  uploadMaxBytes: number;
  /** Bytes of customer uploads written per client address per hour (upload-budget.ts). */
  uploadBudgetBytesPerHour: number;
  ffmpegPath: string;
  ffprobePath: string;
  ffmpegConcurrency: number;
  /**
   * How credits are sold: Stripe Checkout; our labelled test mode (development and test only, without
   * Stripe keys); or not at all (production without Stripe keys: the test mode must not exist there).
   */
  payments: 'stripe' | 'test' | 'disabled';
  /** Stripe Checkout; absent in the embedded default, where payments run in our labelled test mode. */
  stripe:
    | {
        secretKey: string;
        webhookSecret: string | undefined;
        apiUrl: string | undefined;
        prices: Record<'starter' | 'small' | 'medium' | 'large' | 'extra_large', string>;
      }
    | undefined;
  /** Transcription: an OpenAI-compatible endpoint when set, otherwise the offline engine. */
  transcribe: { url: string | undefined; apiKey: string | undefined; model: string; pocketsphinxPath: string };
  /** The folders searched for a command named without one (the PATH variable). */
  commandSearchPath: string;
  /** Google sign-in through OpenID Connect; absent when not configured (the buttons are hidden). */
  google: { issuer: string; clientId: string; clientSecret: string } | undefined;
  /** Media in an S3-compatible bucket when S3_BUCKET is set; otherwise on local disk (mediaDir). */
  s3: S3Config | undefined;
  /** Jobs (renders, transcodes, transcriptions) one process runs at once; e-mail has its own lane. */
  workerConcurrency: number;
  /** How long SIGTERM waits for requests and jobs in flight; jobs still running are then handed back. */
  shutdownTimeoutMs: number;
  /**
   * A process not seen (heartbeat) for this long is presumed dead: its jobs go back to the queue and its
   * temporary folder is removed. Processes refresh their heartbeat every lease/6 seconds (1–5 s).
   */
  workerLeaseSeconds: number;
  /** Bearer token of GET /metrics; absent: the route does not exist. */
  metricsToken: string | undefined;
  /**
   * The 'video ready' e-mails (studio/ready-mail.ts): a render is worth an e-mail when it ran for at least
   * `slowRenderSeconds` or nobody was following it; the e-mail waits `gatherSeconds` after the last such
   * render (to gather a burst) and comes at most once per testimonial per `intervalSeconds`.
   */
  readyMail: { gatherSeconds: number; intervalSeconds: number; slowRenderSeconds: number };
  /** Issue 31: drafts made when a testimonial is paid (DRAFTS, on by default). */
  drafts: boolean;
  /** Issue 32: webhook endpoints may be on loopback or private addresses, and use http (WEBHOOKS_ALLOW_PRIVATE, off; refused in production). */
  webhooksAllowPrivate: boolean;
  /** Days a withdrawn testimonial's media are kept before they are deleted (CONSENT_WITHDRAWN_RETENTION_DAYS; 0: at once). */
  consentWithdrawnRetentionDays: number;
}

export type TrustProxy = false | { hops: number } | { proxies: string[] };

/** Names proxy-addr knows for ranges of addresses, accepted in TRUST_PROXY's list. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrCidr(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address, bits, ...rest] = entry.split('/');
  if (rest.length || !address) return false;
  const version = net.isIP(address);
  if (!version) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (version === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: unset or `false` (trust no one), a hop count (`1` behind one load balancer), or a
 * comma-separated list of the proxies' addresses or CIDRs. `true` would believe every address of
 * X-Forwarded-For, so any client could choose its own: it is refused with what to write instead.
 */
function parseTrustProxy(raw: string | undefined): TrustProxy | string {
  const value = raw?.trim().toLowerCase();
  if (value === undefined || value === '' || value === 'false' || value === '0') return false;
  if (value === 'true') {
    return 'TRUST_PROXY: `true` is refused: it trusts every hop, so a client chooses its own address with X-Forwarded-For. Write the number of proxies in front of the app (`1` behind one load balancer) or their addresses or CIDRs (`10.0.0.0/8,127.0.0.1`)';
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 10) return `TRUST_PROXY: expected a hop count from 1 to 10, or proxy addresses (got ${JSON.stringify(raw)})`;
    return { hops };
  }
  const proxies = value.split(',').map((entry) => entry.trim()).filter(Boolean);
  const bad = proxies.filter((entry) => !isAddressOrCidr(entry));
  if (bad.length || proxies.length === 0) {
    return `TRUST_PROXY: expected \`false\`, a hop count (\`1\`) or a comma-separated list of proxy addresses or CIDRs such as \`10.0.0.0/8,127.0.0.1\` (not understood: ${JSON.stringify(bad.join(',') || raw)})`;
  }
  return { proxies };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ZEnv.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? '?');
      const got = env[name];
      return `${name}: ${issue.message}${got === undefined ? '' : ` (got ${JSON.stringify(/SECRET|URL|TOKEN|KEY|ENDPOINT/.test(name) ? '…' : got)})`}`;
    });
    throw new ConfigError(problems);
  }
  const e = parsed.data;
  const problems: string[] = [];
  const trustProxy = parseTrustProxy(e.TRUST_PROXY);
  if (typeof trustProxy === 'string') problems.push(trustProxy);
  if (e.NODE_ENV === 'production') {
    // Published samples and guessable values are refused where they would guard real data; a developer
    // machine may keep any value. 128 bits for the signing key, 96 for the scrape token; 80 for the
    // storage secret, which a provider usually issues (some as 32 hex characters, whose estimate can
    // dip to ~90 bits though they hold 128).
    const secrets = [
      ['JWT_SECRET', e.JWT_SECRET, 128],
      ['METRICS_TOKEN', e.METRICS_TOKEN, 96],
      ['S3_SECRET_ACCESS_KEY', e.S3_SECRET_ACCESS_KEY, 80],
    ] as const;
    for (const [name, value, bits] of secrets) {
      const reason = value === undefined ? undefined : weakSecretReason(value, bits);
      if (reason) problems.push(`${name}: ${reason}; ${MAKE_A_SECRET} and set that value`);
    }
    if (e.METRICS_TOKEN && e.JWT_SECRET && e.METRICS_TOKEN.trim() === e.JWT_SECRET.trim()) {
      problems.push(`METRICS_TOKEN: must differ from JWT_SECRET (it travels in scrape configurations); ${MAKE_A_SECRET}`);
    }
    if (e.STRIPE_SECRET_KEY && !e.STRIPE_WEBHOOK_SECRET) {
      // Without the webhook, a payment completed after the customer left (closed tab, delayed methods)
      // would never be credited.
      problems.push('STRIPE_WEBHOOK_SECRET: required with STRIPE_SECRET_KEY when NODE_ENV=production (the signing secret whsec_… of the webhook endpoint $APP_URL/api/payment/webhook)');
    }
  }
  if (e.NODE_ENV === 'production' && e.WEBHOOKS_ALLOW_PRIVATE === 'on') {
    problems.push('WEBHOOKS_ALLOW_PRIVATE: refused when NODE_ENV=production (webhooks to loopback or private addresses are for tests and development)');
  }
  if (e.NODE_ENV === 'production' && e.TEST_CRASH_AFTER) {
    problems.push('TEST_CRASH_AFTER: refused when NODE_ENV=production (it makes the process kill itself; tests only)');
  }
  if (e.NODE_ENV === 'production' && !e.JWT_SECRET) {
    problems.push('JWT_SECRET: required when NODE_ENV=production (at least 32 random characters)');
  }
  if (e.NODE_ENV === 'production' && !e.APP_URL) {
    problems.push('APP_URL: required when NODE_ENV=production (the public https address of the app)');
  }
  if (Boolean(e.GOOGLE_CLIENT_ID) !== Boolean(e.GOOGLE_CLIENT_SECRET)) {
    problems.push('GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET: set both to enable Google sign-in, or neither');
  }
  const priceVars = ['STRIPE_PRICE_STARTER', 'STRIPE_PRICE_SMALL', 'STRIPE_PRICE_MEDIUM', 'STRIPE_PRICE_LARGE', 'STRIPE_PRICE_EXTRA_LARGE'] as const;
  if (e.STRIPE_SECRET_KEY) {
    for (const name of priceVars) if (!e[name]) problems.push(`${name}: required with STRIPE_SECRET_KEY (the Stripe price id of that credit package)`);
  }
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both, or neither to use the default AWS credential chain');
  }
  if (!e.S3_BUCKET) {
    for (const name of ['S3_ENDPOINT', 'S3_PUBLIC_ENDPOINT', 'S3_ACCESS_KEY_ID'] as const) {
      if (e[name]) problems.push(`S3_BUCKET: required with ${name} (the bucket that holds the media)`);
    }
  }
  if (e.ROLE !== 'all') {
    // Several processes share one state: the database, the signing key and the media must not be local.
    if (!e.DATABASE_URL) problems.push(`DATABASE_URL: required with ROLE=${e.ROLE} (processes share one PostgreSQL; the embedded database serves one process)`);
    if (!e.JWT_SECRET) problems.push(`JWT_SECRET: required with ROLE=${e.ROLE} (every process must sign and check with the same key)`);
  }
  if (problems.length) throw new ConfigError(problems);

  const dataDir = path.resolve(e.DATA_DIR);
  const appUrl = (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    env: e.NODE_ENV,
    isProduction: e.NODE_ENV === 'production',
    port: e.PORT,
    // Loopback unless told: a developer's outbox and test checkout stay off the café's Wi-Fi. A
    // production process (and its container) listens on every interface.
    host: e.HOST ?? (e.NODE_ENV === 'production' ? '0.0.0.0' : '127.0.0.1'),
    appUrl,
    dataDir,
    mediaDir: path.join(dataDir, 'media'),
    outboxDir: path.join(dataDir, 'outbox'),
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    supportEmail: e.SUPPORT_EMAIL,
    brandName: e.BRAND_NAME,
    customerPagesPoweredBy: e.CUSTOMER_PAGES_POWERED_BY === 'true',
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === 'test' ? 'silent' : 'info'),
    role: e.ROLE,
    jwtSecret: e.JWT_SECRET,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    apiKeyRatePerMinute: e.API_KEY_RATE_PER_MINUTE,
    trustProxy: trustProxy as TrustProxy,
    freeCredits: e.FREE_CREDITS,
    uploadMaxBytes: e.UPLOAD_MAX_BYTES,
    uploadBudgetBytesPerHour: e.UPLOAD_BUDGET_BYTES_PER_HOUR ?? 30 * e.UPLOAD_MAX_BYTES,
    ffmpegPath: e.FFMPEG_PATH ?? 'ffmpeg',
    ffprobePath: e.FFPROBE_PATH ?? 'ffprobe',
    // One ffmpeg per core unless told: each job runs its ffmpeg steps one after another.
    ffmpegConcurrency: e.FFMPEG_CONCURRENCY ?? os.availableParallelism(),
    transcribe: { url: e.TRANSCRIBE_URL?.replace(/\/+$/, ''), apiKey: e.TRANSCRIBE_API_KEY, model: e.TRANSCRIBE_MODEL, pocketsphinxPath: e.POCKETSPHINX_PATH },
    commandSearchPath: e.PATH ?? '',
    payments: e.STRIPE_SECRET_KEY ? 'stripe' : e.NODE_ENV === 'production' ? 'disabled' : 'test',
    stripe: e.STRIPE_SECRET_KEY
      ? {
          secretKey: e.STRIPE_SECRET_KEY,
          webhookSecret: e.STRIPE_WEBHOOK_SECRET,
          apiUrl: e.STRIPE_API_URL,
          prices: {
            starter: e.STRIPE_PRICE_STARTER!,
            small: e.STRIPE_PRICE_SMALL!,
            medium: e.STRIPE_PRICE_MEDIUM!,
            large: e.STRIPE_PRICE_LARGE!,
            extra_large: e.STRIPE_PRICE_EXTRA_LARGE!,
          },
        }
      : undefined,
    google:
      e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
        ? { issuer: e.GOOGLE_ISSUER, clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET }
        : undefined,
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT?.replace(/\/+$/, ''),
          publicEndpoint: e.S3_PUBLIC_ENDPOINT?.replace(/\/+$/, ''),
          region: e.S3_REGION,
          credentials: e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY } : undefined,
          forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
          publicOrigin: s3Origin(e.S3_PUBLIC_ENDPOINT ?? e.S3_ENDPOINT, e.S3_BUCKET, e.S3_REGION, e.S3_FORCE_PATH_STYLE === 'true'),
          delivery: e.S3_MEDIA_DELIVERY,
        }
      : undefined,
    workerConcurrency: e.WORKER_CONCURRENCY ?? os.availableParallelism(),
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    workerLeaseSeconds: e.WORKER_LEASE_SECONDS,
    metricsToken: e.METRICS_TOKEN,
    consentWithdrawnRetentionDays: e.CONSENT_WITHDRAWN_RETENTION_DAYS,
    drafts: e.DRAFTS === 'on',
    webhooksAllowPrivate: e.WEBHOOKS_ALLOW_PRIVATE === 'on',
    readyMail: { gatherSeconds: e.READY_MAIL_GATHER_SECONDS, intervalSeconds: e.READY_MAIL_INTERVAL_SECONDS, slowRenderSeconds: e.READY_MAIL_SLOW_RENDER_SECONDS },
  };
}

/** The origin presigned addresses point at: the endpoint's, or the bucket's host on AWS. */
function s3Origin(endpoint: string | undefined, bucket: string, region: string, pathStyle: boolean): string {
  if (endpoint) {
    const url = new URL(endpoint);
    return pathStyle ? url.origin : `${url.protocol}//${bucket}.${url.host}`;
  }
  return pathStyle ? `https://s3.${region}.amazonaws.com` : `https://${bucket}.s3.${region}.amazonaws.com`;
}
