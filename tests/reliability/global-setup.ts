import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { ROOT_DIR } from '../../src/server/lib/paths.js';
import { ADMIN_URL } from './admin-url.js';

/**
 * The suite runs the built server (`dist/node/server/main.js`): processes start in about a second,
 * without compiling TypeScript in each of them, and write nothing to their TMPDIR (which the tests
 * check). Built here when older than its sources, under the build lock the end-to-end journeys use.
 * The run gets an id that its scratch databases carry, and the end of the run drops any a test left.
 */
export default function setup() {
  const result = spawnSync(process.execPath, [path.join(ROOT_DIR, 'scripts/build-if-needed.mjs'), '--server'], { cwd: ROOT_DIR, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('building the server failed');
  const run = randomBytes(3).toString('hex');
  process.env.VR_RELIABILITY_RUN = run;
  return async () => {
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ datname: string }>('select datname from pg_database where datname like $1', [`vr_reliability_${run}_%`]);
      for (const { datname } of rows) await admin.query(`drop database if exists "${datname}" with (force)`);
    } finally {
      await admin.end();
    }
  };
}
