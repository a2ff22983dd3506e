import { and, eq, isNull, notExists, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { companies, users } from '../../db/schema.js';

/**
 * Removes the account of this e-mail if nobody ever proved they own the address (account
 * pre-hijack): anyone can sign up with someone else's address and a password of their choosing. When
 * the real owner later proves the address (Google with a verified e-mail), they must not inherit that
 * account, its password or its company. So the unconfirmed user goes (with its refresh-token families,
 * refresh tokens and e-mail links, by cascade), and so does its company when no one else is in it:
 * an unconfirmed account never had a session (sign-in refuses it before confirmation), so its company
 * holds only what sign-up wrote (style settings, the sign-up bonus). Run it inside the transaction
 * that then creates or signs in the owner. Returns whether an account was removed.
 */
export async function discardUnconfirmedAccount(tx: DbOrTx, email: string): Promise<boolean> {
  const removed = await tx
    .delete(users)
    .where(and(sql`lower(${users.email}) = lower(${email})`, isNull(users.emailConfirmedAt), isNull(users.googleSub)))
    .returning({ companyId: users.companyId });
  for (const { companyId } of removed) {
    const members = tx
      .select({ one: sql`1` })
      .from(users)
      .where(eq(users.companyId, companyId));
    await tx.delete(companies).where(and(eq(companies.id, companyId), notExists(members)));
  }
  return removed.length > 0;
}
