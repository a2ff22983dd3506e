import { describe, expect, it } from 'vitest';
import { API } from '../../src/contract/api/paths.js';
import { ROUTE_ROLES } from '../../src/server/http/route-roles.js';
import { ACTION_ROLES, type TAction } from '../../src/web/lib/roles.js';

/**
 * The dashboard hides what a role cannot do (decision 219) with its own small matrix: it must say what
 * the server's table of route roles says for the route each action calls, or the UI would offer a
 * control the server refuses (or hide one it allows).
 */
const routeRole = (endpoint: { method: string; route: string }) => ROUTE_ROLES.get(`${endpoint.method} ${endpoint.route}`);

describe("the web's role matrix follows the server's", () => {

  it.each<[TAction, { method: string; route: string }]>([
    ['buyCredits', API.payment.checkoutSession],
    ['editCompany', API.settings.updateCompany],
    ['apiKeys', API.apiKeys.create],
    ['webhooks', API.webhooks.create],
    ['members', API.members.invite],
    ['sendRequest', API.testimonials.sendRequest],
    ['editQuestions', API.questions.add],
    ['payTestimonial', API.testimonials.pay],
    ['studio', API.studio.merge],
    ['publish', API.publications.create],
    ['collectionLinks', API.collection.create],
    ['editVideoStyle', API.settings.update],
    ['approvals', API.consent.companySetting],
  ])('%s matches the route role', (action, endpoint) => {
    expect(routeRole(endpoint)).toBe(ACTION_ROLES[action]);
  });
});
