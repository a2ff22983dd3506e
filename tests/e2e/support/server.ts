import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  url: string;
  dataDir: string;
  logs: () => string;
  stop: () => Promise<void>;
}

/** Starts the built app (`dist/`) as `npm start` would, on a random port with a fresh DATA_DIR (drafts off unless `DRAFTS: 'on'`). */
export async function startServer(
  env: Record<string, string> = {},
  // answering: return once the server answers /api/health at all (a server expected to be degraded).
  options: { dataDir?: string; keepData?: boolean; port?: number; answering?: boolean } = {},
): Promise<RunningServer> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'vouchreel-e2e-')));
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child: ChildProcess = spawn(process.execPath, [path.join(root, 'dist/node/server/main.js')], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'warn', PORT: String(port), HOST: '127.0.0.1', APP_URL: url, DATA_DIR: dataDir, DRAFTS: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));

  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok || options.answering) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server not healthy after 90 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }

  return {
    url,
    dataDir,
    logs: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      if (!options.keepData) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
