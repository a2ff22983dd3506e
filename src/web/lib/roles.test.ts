import { describe, expect, it } from 'vitest';
import { refusalReason, roleAllows } from './roles';

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
});
