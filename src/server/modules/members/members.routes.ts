import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZIdParams } from '../../../contract/api/common.js';
import {
  ZAcceptInvitationResponse,
  ZChangeRoleBody,
  ZInvitation,
  ZInvitationPreview,
  ZInvitationTokenBody,
  ZInviteBody,
  ZMemberList,
  ZMyCompanies,
  ZSwitchCompanyBody,
  ZSwitchCompanyResponse,
  ZUserIdParams,
} from '../../../contract/api/members.schema.js';
import { API } from '../../../contract/api/paths.js';
import type { AppContext } from '../../context.js';
import { requireAuth, type CallerAuth } from '../../http/auth-guard.js';
import { byIp, limits } from '../../http/rate-limit.js';
import { listMyCompanies, switchCompany } from './companies.service.js';
import * as service from './members.service.js';

const caller = (request: FastifyRequest): CallerAuth => request.auth!;

/**
 * Members, invitations and the caller's companies (issue 32). Each route's lowest role is in
 * http/route-roles.ts (members: owners only; my companies, switching and accepting: any member).
 */
export function membersRoutes(ctx: AppContext) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.addHook('onRequest', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    // The invitation page reads its link before anyone signs in: the token is the proof.
    app.get(
      API.invitations.preview.route,
      {
        preHandler: [limits(app, [{ name: 'invitation-preview', max: 30, timeWindow: '10 minutes', key: byIp }])],
        schema: { querystring: ZInvitationTokenBody, response: { 200: ZInvitationPreview } },
      },
      async (request) => service.previewInvitation(ctx, request.query.token),
    );

    await app.register(async (scoped) => {
      const routes = scoped.withTypeProvider<ZodTypeProvider>();
      routes.addHook('onRequest', requireAuth(ctx));

      routes.get(API.members.list.route, { schema: { response: { 200: ZMemberList } } }, async (request) => service.listMembers(ctx, caller(request)));

      routes.post(API.members.invite.route, { schema: { body: ZInviteBody, response: { 201: ZInvitation } } }, async (request, reply) =>
        reply.status(201).send(await service.inviteMember(ctx, caller(request), request.body)),
      );

      routes.post(API.members.resendInvitation.route, { schema: { params: ZIdParams, response: { 200: ZInvitation } } }, async (request) =>
        service.resendInvitation(ctx, caller(request), request.params.id),
      );

      routes.delete(API.members.cancelInvitation.route, { schema: { params: ZIdParams } }, async (request, reply) => {
        await service.cancelInvitation(ctx, caller(request), request.params.id);
        return reply.status(204).send();
      });

      routes.put(API.members.changeRole.route, { schema: { params: ZUserIdParams, body: ZChangeRoleBody } }, async (request, reply) => {
        await service.changeRole(ctx, caller(request), request.params.userId, request.body.role);
        return reply.status(204).send();
      });

      routes.delete(API.members.remove.route, { schema: { params: ZUserIdParams } }, async (request, reply) => {
        await service.removeMember(ctx, caller(request), request.params.userId);
        return reply.status(204).send();
      });

      routes.post(API.invitations.accept.route, { schema: { body: ZInvitationTokenBody, response: { 200: ZAcceptInvitationResponse } } }, async (request) =>
        service.acceptInvitation(ctx, caller(request), request.body.token),
      );

      routes.get(API.companies.mine.route, { schema: { response: { 200: ZMyCompanies } } }, async (request) => listMyCompanies(ctx, caller(request)));

      routes.post(API.companies.switch.route, { schema: { body: ZSwitchCompanyBody, response: { 200: ZSwitchCompanyResponse } } }, async (request) =>
        switchCompany(ctx, caller(request), request.body.companyId),
      );
    });
  };
}
