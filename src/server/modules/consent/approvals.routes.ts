import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZIdParams } from '../../../contract/api/common.js';
import {
  ZApproval,
  ZApprovalRequiredResponse,
  ZCompanyApprovalSettingBody,
  ZCompanyApprovalSettingResponse,
  ZRequestApprovalBody,
  ZSetApprovalRequiredBody,
} from '../../../contract/api/consent.schema.js';
import { API } from '../../../contract/api/paths.js';
import type { AppContext } from '../../context.js';
import { requireAuth } from '../../http/auth-guard.js';
import { callerCompany } from '../../http/company-scope.js';
import { remindApproval, requestApproval, setApprovalRequired, setCompanyApprovalSetting } from './approvals.service.js';

/** The approval of the final cut, the company's calls (issue 29): ask, remind, the testimonial's switch, the company's setting. */
export function approvalsRoutes(ctx: AppContext) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.addHook('onRequest', requireAuth(ctx));

    app.post(API.consent.requestApproval.route, { schema: { params: ZIdParams, body: ZRequestApprovalBody, response: { 201: ZApproval } } }, async (request, reply) =>
      reply
        .status(201)
        .send(await requestApproval(ctx, { companyId: callerCompany(request), testimonialId: request.params.id, jobId: request.body.jobId, responseId: request.body.responseId })),
    );

    app.post(API.consent.remindApproval.route, { schema: { params: ZIdParams, response: { 200: ZApproval } } }, async (request) =>
      remindApproval(ctx, { companyId: callerCompany(request), id: request.params.id }),
    );

    app.put(
      API.consent.setApprovalRequired.route,
      { schema: { params: ZIdParams, body: ZSetApprovalRequiredBody, response: { 200: ZApprovalRequiredResponse } } },
      async (request) => setApprovalRequired(ctx, { companyId: callerCompany(request), testimonialId: request.params.id, required: request.body.required }),
    );

    app.put(API.consent.companySetting.route, { schema: { body: ZCompanyApprovalSettingBody, response: { 200: ZCompanyApprovalSettingResponse } } }, async (request) =>
      setCompanyApprovalSetting(ctx, { companyId: callerCompany(request), approvalRequired: request.body.approval_required }),
    );
  };
}
