import { describe, expect, it } from 'vitest';
import { ROUTE_ROLES } from '../../server/http/route-roles.js';
import { API } from '../../contract/api/paths.js';
import { ACTION_ROLES, refusalReason, roleAllows, type TAction } from './roles';

const routeRole = (endpoint: { method: string; route: string }) => ROUTE_ROLES.get(`${endpoint.method} ${endpoint.route}`);

describe('roles of the dashboard', () => {
  it('orders owner > editor > viewer', () => {
    expect(roleAllows('owner', 'buyCredits')).toBe(true);
    expect(roleAllows('editor', 'buyCredits')).toBe(false);
    expect(roleAllows('viewer', 'buyCredits')).toBe(false);
    expect(roleAllows('owner', 'payTestimonial')).toBe(true);
    expect(roleAllows('editor', 'payTestimonial')).toBe(true);
    expect(roleAllows('viewer', 'payTestimonial')).toBe(false);
    expect(roleAllows('viewer', 'studio')).toBe(false);
  });

  it('gives the reason of the lowest role allowed', () => {
    expect(refusalReason('apiKeys')).toBe('role_required');
    expect(refusalReason('payTestimonial')).toBe('role_required_editor');
  });

  // The web's matrix must say what the server's does for the route each action calls.
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
