/** The machine's PostgreSQL (trust authentication), where the suite makes its scratch databases. */
export const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
