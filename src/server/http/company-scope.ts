import type { FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.js';

/**
 * The caller's company, from the verified token. A `company_id` the client sent (the spec's calls
 * carry one) must name that same company, or the call is refused: it is never used to choose rows.
 */
export function callerCompany(request: FastifyRequest, claimed?: string | null): string {
  const auth = request.auth;
  if (!auth) throw new AppError('unauthorized', { message: 'Please sign in to continue.', errorKey: 'unauthorized' });
  if (claimed && claimed !== auth.companyId) {
    throw new AppError('no_permission', { message: 'You do not have permission to access this company.' });
  }
  return auth.companyId;
}

/** The signed-in person's user id, from the verified token: the actor of the changes they make (activity log). */
export function callerUser(request: FastifyRequest): string {
  const auth = request.auth;
  if (!auth) throw new AppError('unauthorized', { message: 'Please sign in to continue.', errorKey: 'unauthorized' });
  return auth.userId;
}
