import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { MIGRATIONS_DIR } from '../lib/paths.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetDatabase, testDatabaseDriver, workerDatabase } from '../test/database.js';
import { openDatabase, type Database } from './client.js';
import { companies, creditTransactions, jobs, questions, testimonialRequests, users } from './schema.js';

/**
 * The same migrations and queries on PGlite and on PostgreSQL: this file runs in both test projects
 * (CI sets TEST_DATABASE_URL, so the 'postgres' project runs it on the machine's PostgreSQL 15).
 */
describe(`database on ${testDatabaseDriver()}`, () => {
  let database: Database;
  beforeAll(async () => {
    database = await workerDatabase();
    await resetDatabase(database);
  });
  afterAll(async () => {
    await resetDatabase(database);
  });

  const pgCode = (error: unknown): string | undefined => {
    let e: unknown = error;
    while (e && typeof e === 'object') {
      const code = (e as { code?: unknown }).code;
      if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
      e = (e as { cause?: unknown }).cause;
    }
    return undefined;
  };

  it('is on the expected driver with every migration applied', async () => {
    expect(database.driver).toBe(testDatabaseDriver());
    const { rows } = await database.executeSql(
      `select count(*)::int as n from information_schema.tables where table_schema = 'public'`,
      [],
    );
    // The 16 tables of the product, plus `workers` and `job_leases` (who runs which job) and
    // `pending_objects` (objects stored before their rows commit), and issue 19's `publications`,
    // `walls`, `publication_views`, `publication_view_marks` and `view_salts`, the shared limits' `rate_limits`,
    // and issue 29's `approvals` and `consent_events`, and issue 32's `api_keys`, `memberships`, `invitations`,
    // `company_events`, `webhook_endpoints`, `webhook_deliveries` and `webhook_attempts`.
    expect((rows[0] as { n: number }).n).toBe(39);
    // Applying again is a no-op.
    await database.migrate();
  });

  it.runIf(testDatabaseDriver() === 'postgres')('migrates once when several processes start together', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL ?? '');
    const name = `vr_test_${process.env.VR_TEST_RUN ?? 'solo'}_mig_${process.pid}`;
    const admin = await openDatabase({ databaseUrl: url.toString(), poolSize: 1 });
    await admin.executeSql(`drop database if exists ${name}`, []);
    await admin.executeSql(`create database ${name}`, []);
    url.pathname = `/${name}`;
    const a = await openDatabase({ databaseUrl: url.toString(), poolSize: 2 });
    const b = await openDatabase({ databaseUrl: url.toString(), poolSize: 2 });
    try {
      await Promise.all([a.migrate(), b.migrate(), a.migrate()]);
      const { rows } = await a.executeSql('select count(*)::int as n from drizzle.__drizzle_migrations', []);
      const journal = JSON.parse(await readFile(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] };
      expect((rows[0] as { n: number }).n).toBe(journal.entries.length);
    } finally {
      await a.close();
      await b.close();
      await admin.executeSql(`drop database if exists ${name} with (force)`, []);
      await admin.close();
    }
  });

  it.runIf(testDatabaseDriver() === 'postgres')('survives a connection cut in the middle of a transaction, which fails and leaves nothing', async () => {
    // The server ends the connection (a restart does the same) while a transaction holds it between two
    // queries: the process must not die of an unheard 'error'; the transaction fails and the pool heals.
    const url = process.env.TEST_DATABASE_URL ?? '';
    const own = await openDatabase({ databaseUrl: (await workerDatabase()).url ?? url, poolSize: 2 });
    const admin = await openDatabase({ databaseUrl: url, poolSize: 1 });
    try {
      const errorsOnTheProcess: unknown[] = [];
      const heard = (error: unknown) => errorsOnTheProcess.push(error);
      process.on('uncaughtException', heard);
      const cut = own.transaction(async (executeSql) => {
        await executeSql(`insert into companies (name) values ('Cut Midway')`, []);
        const { rows } = await executeSql('select pg_backend_pid() as pid', []);
        await admin.executeSql('select pg_terminate_backend($1)', [(rows[0] as { pid: number }).pid]);
        // The connection's end arrives while no query runs on it.
        await new Promise((resolve) => setTimeout(resolve, 300));
        await executeSql('select 1', []);
      });
      await expect(cut).rejects.toThrow();
      process.off('uncaughtException', heard);
      expect(errorsOnTheProcess).toEqual([]);
      const { rows } = await own.executeSql(`select count(*)::int as n from companies where name = 'Cut Midway'`, []);
      expect((rows[0] as { n: number }).n).toBe(0);
      // The same goes for a transaction of drizzle's own over the pool.
      const viaDrizzle = own.db.transaction(async (tx) => {
        const result = (await tx.execute(sql`select pg_backend_pid() as pid`)) as unknown as { rows: { pid: number }[] };
        await admin.executeSql('select pg_terminate_backend($1)', [result.rows[0]?.pid]);
        await new Promise((resolve) => setTimeout(resolve, 300));
        await tx.execute(sql`select 1`);
      });
      await expect(viaDrizzle).rejects.toThrow();
    } finally {
      await own.close();
      await admin.close();
    }
  });

  it('keeps company names unique without regard to case', async () => {
    await database.db.insert(companies).values({ name: 'Acme Studio' });
    const duplicate = database.db.insert(companies).values({ name: 'ACME studio' });
    await expect(duplicate).rejects.toSatisfy((e: unknown) => pgCode(e) === '23505');
  });

  it('keeps e-mails unique without regard to case and never lets credits go negative', async () => {
    const [company] = await database.db.insert(companies).values({ name: 'Bakery Bloom', credits: 1 }).returning();
    if (!company) throw new Error('no company');
    await database.db.insert(users).values({ companyId: company.id, email: 'Anna@Bloom.fr', firstname: 'Anna', lastname: 'B' });
    await expect(
      database.db.insert(users).values({ companyId: company.id, email: 'anna@bloom.fr', firstname: 'A', lastname: 'B' }),
    ).rejects.toSatisfy((e: unknown) => pgCode(e) === '23505');

    const spend = () =>
      database.db
        .update(companies)
        .set({ credits: sql`${companies.credits} - 1` })
        .where(eq(companies.id, company.id));
    await spend();
    await expect(spend()).rejects.toSatisfy((e: unknown) => pgCode(e) === '23514');
    const [after] = await database.db.select({ credits: companies.credits }).from(companies).where(eq(companies.id, company.id));
    expect(after?.credits).toBe(0);
  });

  it('pays a testimonial at most once (partial unique index) and rolls a failed transaction back', async () => {
    const [company] = await database.db.insert(companies).values({ name: 'Garage Nord', credits: 5 }).returning();
    if (!company) throw new Error('no company');
    const [request] = await database.db
      .insert(testimonialRequests)
      .values({
        companyId: company.id,
        token: 'tok-' + company.id,
        customerName: 'Léa Martin',
        customerEmail: 'lea@example.com',
        expiresAt: new Date(Date.now() + 86_400_000),
      })
      .returning();
    if (!request) throw new Error('no request');

    const pay = () =>
      database.db.transaction(async (tx) => {
        await tx
          .update(companies)
          .set({ credits: sql`${companies.credits} - 1` })
          .where(eq(companies.id, company.id));
        await tx.insert(creditTransactions).values({
          companyId: company.id,
          transactionType: 'testimonial_payment',
          credits: -1,
          requestId: request.id,
        });
      });
    await pay();
    await expect(pay()).rejects.toSatisfy((e: unknown) => pgCode(e) === '23505');
    const [after] = await database.db.select({ credits: companies.credits }).from(companies).where(eq(companies.id, company.id));
    expect(after?.credits).toBe(4);
    // Other kinds of transaction for the same request are not constrained.
    await database.db.insert(creditTransactions).values({
      companyId: company.id,
      transactionType: 'adjustment',
      credits: 1,
      requestId: request.id,
    });
    const rows = await database.db
      .select()
      .from(creditTransactions)
      .where(and(eq(creditTransactions.companyId, company.id), eq(creditTransactions.requestId, request.id)));
    expect(rows.map((r) => r.transactionType).sort()).toEqual(['adjustment', 'testimonial_payment']);
  });

  it('orders questions and reads jsonb job parameters the same way', async () => {
    const [company] = await database.db.insert(companies).values({ name: 'Yoga Flow' }).returning();
    if (!company) throw new Error('no company');
    await database.db.insert(questions).values([
      { companyId: company.id, textFr: 'Deux ?', orderPosition: 2 },
      { companyId: company.id, textFr: 'Un ?', orderPosition: 1 },
    ]);
    const list = await database.db.query.questions.findMany({
      where: eq(questions.companyId, company.id),
      orderBy: (q, { asc }) => [asc(q.orderPosition)],
    });
    expect(list.map((q) => q.textFr)).toEqual(['Un ?', 'Deux ?']);

    const [request] = await database.db
      .insert(testimonialRequests)
      .values({
        companyId: company.id,
        token: 'tok-yoga',
        customerName: 'Sam',
        customerEmail: 'sam@example.com',
        expiresAt: new Date(Date.now() + 86_400_000),
      })
      .returning();
    const [job] = await database.db
      .insert(jobs)
      .values({ companyId: company.id, kind: 'export', requestId: request!.id, params: { cropArea: { x: 0.25, y: 0, width: 0.5, height: 1 }, platform: 'shorts' } })
      .returning();
    expect(job?.params).toEqual({ cropArea: { x: 0.25, y: 0, width: 0.5, height: 1 }, platform: 'shorts' });
    expect(job?.phase).toBe('queued');
    expect(request?.status).toBe('pending');
    await expect(
      database.db.update(testimonialRequests).set({ status: 'archived' }).where(eq(testimonialRequests.id, request!.id)),
    ).rejects.toSatisfy((e: unknown) => pgCode(e) === '23514');
  });
});
