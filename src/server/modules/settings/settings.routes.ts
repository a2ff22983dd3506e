import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API } from '../../../contract/api/paths.js';
import {
  LOGO_FIELD,
  ZGetSettingsResponse,
  ZProfileResponse,
  ZUpdateCompanyBody,
  ZUpdateCompanyResponse,
  ZUpdateSettingsBody,
  ZUpdateSettingsResponse,
  ZUploadLogoResponse,
} from '../../../contract/api/settings.schema.js';
import { LOGO_MAX_BYTES } from '../../../contract/constants.js';
import type { AppContext } from '../../context.js';
import { requireAuth } from '../../http/auth-guard.js';
import { callerCompany } from '../../http/company-scope.js';
import { sendError } from '../../http/errors.js';
import { AppError } from '../../lib/errors.js';
import * as service from './settings.service.js';

export function settingsRoutes(ctx: AppContext) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const authenticated = requireAuth(ctx);

    app.get(API.settings.get.route, { onRequest: [authenticated], schema: { response: { 200: ZGetSettingsResponse } } }, async (request) =>
      service.getSettings(ctx, callerCompany(request)),
    );
    app.post(
      API.settings.update.route,
      { onRequest: [authenticated], schema: { body: ZUpdateSettingsBody, response: { 200: ZUpdateSettingsResponse } } },
      async (request) => service.updateSettings(ctx, callerCompany(request), request.body),
    );
    app.get(API.settings.profile.route, { onRequest: [authenticated], schema: { response: { 200: ZProfileResponse } } }, async (request) =>
      service.getProfile(ctx, request.auth!.userId),
    );
    app.put(
      API.settings.updateCompany.route,
      { onRequest: [authenticated], schema: { body: ZUpdateCompanyBody, response: { 200: ZUpdateCompanyResponse } } },
      async (request) =>
        service.updateCompany(ctx, {
          userId: request.auth!.userId,
          companyId: callerCompany(request),
          name: request.body.company_name,
          mailLanguage: request.body.mail_language,
        }),
    );
    app.post(API.settings.uploadLogo.route, { onRequest: [authenticated], schema: { response: { 200: ZUploadLogoResponse } } }, async (request) => {
      if (!request.isMultipart()) throw new AppError('unsupported_media_type', { message: 'This call expects a multipart/form-data upload.' });
      const file = await request.file({ limits: { fileSize: LOGO_MAX_BYTES, files: 1 } });
      if (!file || file.fieldname !== LOGO_FIELD) throw new AppError('missing_fields', { message: 'Please select an image file', field: LOGO_FIELD });
      const data = await file.toBuffer();
      if (file.file.truncated) throw new AppError('payload_too_large', { message: 'File size must be less than 5MB' });
      return service.saveLogo(ctx, { companyId: callerCompany(request), data });
    });

    // The logo, public (e-mails and the customer's page show it); addressed by company and version.
    app.get('/api/public/logo/:companyId', async (request, reply) => {
      const { companyId } = z.object({ companyId: z.uuid() }).parse(request.params);
      const logo = await service.readLogo(ctx, companyId);
      if (!logo) return sendError(reply, 404, { error: 'No logo.', code: 'not_found' });
      return reply
        .header('content-type', logo.contentType)
        .header('content-length', logo.size)
        .header('cache-control', 'public, max-age=86400')
        .header('cross-origin-resource-policy', 'cross-origin')
        .header('content-security-policy', "default-src 'none'")
        .send(logo.stream);
    });
  };
}
