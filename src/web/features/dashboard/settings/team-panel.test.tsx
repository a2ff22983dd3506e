// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ZMemberList, type TInvitation, type TMember, type TMemberList } from '../../../../contract/api/members.schema.js';
import i18n from '../../../i18n/i18n';
import { TeamPanel } from './team-panel';
import { renderWithQueries, stubApi, type Reply } from './card-test-support';

await vi.hoisted(async () => {
  Object.assign(globalThis, { React: await import('react') });
});

/**
 * The Team tab of the settings (issue 32, decision 218), with the real component, fetchers and
 * translations against a stand-in for the HTTP API answering the contract's shapes and error shape.
 */

const renderPanel = () => renderWithQueries(<TeamPanel />);

const OWNER = '11111111-1111-4111-8111-111111111111';
const EDITOR = '22222222-2222-4222-8222-222222222222';
const INVITE = '33333333-3333-4333-8333-333333333333';
const owner: TMember = { userId: OWNER, email: 'olivia@acme.test', firstname: 'Olivia', lastname: 'Owner', role: 'owner', joinedAt: '2026-11-01T10:00:00.000Z', you: true };
const editor: TMember = { userId: EDITOR, email: 'eddie@acme.test', firstname: 'Eddie', lastname: 'Editor', role: 'editor', joinedAt: '2026-11-10T10:00:00.000Z', you: false };
const invitation: TInvitation = { id: INVITE, email: 'vic@acme.test', role: 'viewer', createdAt: '2026-11-27T10:00:00.000Z', expiresAt: '2026-12-04T10:00:00.000Z' };
const list = (value: TMemberList): Reply => ({ status: 200, body: ZMemberList.parse(value) });
const refusal = (status: number, code: string, reason: string, error: string): Reply => ({ status, body: { error, code, reason } });

beforeAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(async () => {
  cleanup();
  await i18n.changeLanguage('en');
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the Team panel', () => {
  it('lists members with their role and "You", and pending invitations with their expiry', async () => {
    stubApi({ ['GET /api/members']: [list({ members: [owner, editor], invitations: [invitation] })] });
    renderPanel();
    const me = await screen.findByTestId(`team-member-${OWNER}`);
    expect(me.textContent).toContain('Olivia Owner');
    expect(me.textContent).toContain('olivia@acme.test');
    expect(me.textContent).toContain('You');
    expect((screen.getByTestId(`team-role-${EDITOR}`) as HTMLSelectElement).value).toBe('editor');
    expect(screen.getByTestId(`team-member-${EDITOR}`).textContent).not.toContain('You');
    const pending = screen.getByTestId(`team-invitation-${INVITE}`);
    expect(pending.textContent).toContain('vic@acme.test');
    expect(pending.textContent).toContain('Viewer');
    expect(pending.textContent).toContain('expires on 04/12/2026');
  });

  it('refuses a bad address in place, shows the server refusal translated, then sends a valid invitation', async () => {
    const calls = stubApi({
      ['GET /api/members']: [list({ members: [owner], invitations: [] }), list({ members: [owner], invitations: [invitation] })],
      ['POST /api/members/invitations']: [
        refusal(409, 'conflict', 'already_member', 'This person is already a member.'),
        { status: 201, body: invitation },
      ],
    });
    renderPanel();
    expect(await screen.findByTestId('team-invitations-empty')).toBeTruthy();
    const form = screen.getByTestId('team-invite');

    fireEvent.change(within(form).getByTestId('team-invite-email'), { target: { value: 'not-an-address' } });
    fireEvent.click(within(form).getByTestId('team-invite-submit'));
    expect(await within(form).findByText('Enter a valid e-mail address, like name@company.com.')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    fireEvent.change(within(form).getByTestId('team-invite-email'), { target: { value: ' Eddie@Acme.test ' } });
    fireEvent.click(within(form).getByTestId('team-invite-submit'));
    expect((await within(form).findByTestId('team-invite-error')).textContent).toBe('This person is already a member of this company.');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ email: 'eddie@acme.test', role: 'editor' });

    fireEvent.change(within(form).getByTestId('team-invite-email'), { target: { value: 'vic@acme.test' } });
    fireEvent.change(within(form).getByTestId('team-invite-role'), { target: { value: 'viewer' } });
    fireEvent.click(within(form).getByTestId('team-invite-submit'));
    await screen.findByTestId(`team-invitation-${INVITE}`);
    expect(calls.filter((c) => c.method === 'POST').at(-1)?.body).toEqual({ email: 'vic@acme.test', role: 'viewer' });
    expect((within(form).getByTestId('team-invite-email') as HTMLInputElement).value).toBe('');
    expect(within(form).queryByTestId('team-invite-error')).toBeNull();
  });

  it('sends an invitation again and cancels one after asking', async () => {
    const renewed = { ...invitation, expiresAt: '2026-12-06T10:00:00.000Z' };
    const calls = stubApi({
      ['GET /api/members']: [
        list({ members: [owner], invitations: [invitation] }),
        list({ members: [owner], invitations: [renewed] }),
        list({ members: [owner], invitations: [] }),
      ],
      [`POST /api/members/invitations/${INVITE}/resend`]: [{ status: 200, body: renewed }],
      [`DELETE /api/members/invitations/${INVITE}`]: [{ status: 204 }],
    });
    renderPanel();
    fireEvent.click(await screen.findByTestId(`team-resend-${INVITE}`));
    await waitFor(() => expect(screen.getByTestId(`team-invitation-${INVITE}`).textContent).toContain('expires on 06/12/2026'));
    expect(calls.filter((c) => c.path.endsWith('/resend'))).toHaveLength(1);

    fireEvent.click(screen.getByTestId(`team-cancel-${INVITE}`));
    const ask = await screen.findByTestId('team-cancel-dialog');
    expect(ask.textContent).toContain('Cancel the invitation to vic@acme.test?');
    fireEvent.click(within(ask).getByTestId('confirm-dialog-confirm'));
    expect(await screen.findByTestId('team-invitations-empty')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
  });

  it('changes a role, and shows the server reason when the last owner would be demoted', async () => {
    const calls = stubApi({
      ['GET /api/members']: [list({ members: [owner, editor], invitations: [] }), list({ members: [owner, { ...editor, role: 'viewer' }], invitations: [] })],
      [`PUT /api/members/${EDITOR}/role`]: [{ status: 204 }],
      [`PUT /api/members/${OWNER}/role`]: [refusal(409, 'conflict', 'last_owner', 'A company keeps one owner.')],
    });
    renderPanel();
    fireEvent.change(await screen.findByTestId(`team-role-${EDITOR}`), { target: { value: 'viewer' } });
    await waitFor(() => expect(screen.getByTestId(`team-member-${EDITOR}`).getAttribute('data-role')).toBe('viewer'));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ role: 'viewer' });

    fireEvent.change(screen.getByTestId(`team-role-${OWNER}`), { target: { value: 'editor' } });
    expect((await screen.findByTestId('team-members-alert')).textContent).toBe(
      'A company always keeps at least one owner: make someone else an owner first.',
    );
    // The list still says what the server holds.
    await waitFor(() => expect((screen.getByTestId(`team-role-${OWNER}`) as HTMLSelectElement).value).toBe('owner'));
  });

  it('removes a member after asking, and keeps the last owner with the server reason', async () => {
    const calls = stubApi({
      ['GET /api/members']: [list({ members: [owner, editor], invitations: [] }), list({ members: [owner], invitations: [] })],
      [`DELETE /api/members/${EDITOR}`]: [{ status: 204 }],
      [`DELETE /api/members/${OWNER}`]: [refusal(409, 'conflict', 'last_owner', 'A company keeps one owner.')],
    });
    renderPanel();
    fireEvent.click(await screen.findByTestId(`team-remove-${EDITOR}`));
    let ask = await screen.findByTestId('team-remove-dialog');
    expect(ask.textContent).toContain('Remove Eddie Editor?');
    fireEvent.click(within(ask).getByTestId('confirm-dialog-cancel'));
    await waitFor(() => expect(screen.queryByTestId('team-remove-dialog')).toBeNull());
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);

    fireEvent.click(screen.getByTestId(`team-remove-${EDITOR}`));
    fireEvent.click(within(await screen.findByTestId('team-remove-dialog')).getByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(screen.queryByTestId(`team-member-${EDITOR}`)).toBeNull());

    // The only owner leaving: the server refuses, and the dialog says why.
    expect(screen.getByTestId(`team-remove-${OWNER}`).textContent).toBe('Leave');
    fireEvent.click(screen.getByTestId(`team-remove-${OWNER}`));
    ask = await screen.findByTestId('team-remove-dialog');
    fireEvent.click(within(ask).getByTestId('confirm-dialog-confirm'));
    expect((await within(ask).findByTestId('team-remove-error')).textContent).toBe(
      'A company always keeps at least one owner: make someone else an owner first.',
    );
    expect(screen.getByTestId(`team-member-${OWNER}`)).toBeTruthy();
  });

  it('shows an error with a retry when the list cannot load, and speaks French', async () => {
    await i18n.changeLanguage('fr');
    stubApi({ ['GET /api/members']: [{ status: 500, body: { error: 'boom', code: 'internal' } }, list({ members: [owner], invitations: [invitation] })] });
    renderPanel();
    const failed = await screen.findByTestId('team-error');
    expect(failed.textContent).toContain('L’équipe n’a pas pu être chargée.');
    fireEvent.click(within(failed).getByRole('button'));
    const pending = await screen.findByTestId(`team-invitation-${INVITE}`);
    expect(pending.textContent).toContain('Lecteur');
    expect(pending.textContent).toContain('expire le 04/12/2026');
    expect(screen.getByTestId(`team-member-${OWNER}`).textContent).toContain('Vous');
    expect(screen.getByTestId('team-invite-submit').textContent).toBe('Envoyer l’invitation');
  });
});
