import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Gives this run an id that the workers' scratch PostgreSQL databases carry in their names, and drops
 * them when the run ends (workers are killed, so they cannot drop their own).
 */
export default function setup() {
  const run = randomBytes(3).toString('hex');
  process.env.VR_TEST_RUN = run;
  return async () => {
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) return;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ datname: string }>(
        `select datname from pg_database where datname like $1`,
        [`vr_test_${run}_%`],
      );
      for (const { datname } of rows) await admin.query(`drop database if exists "${datname}" with (force)`);
    } finally {
      await admin.end();
    }
  };
}
