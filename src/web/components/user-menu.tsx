import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAuth } from '../lib/auth-context';
import { cn } from '../lib/cn';
import { paths } from '../lib/paths';
import { ChevronDownIcon, SettingsIcon, SignOutIcon } from './icons';
import { Spinner } from './spinner';

/** The initial shown in the avatar when the stored user has no first name. */
export const FALLBACK_INITIAL = 'U';

const itemClass =
  'flex cursor-default items-center gap-2.5 rounded-control px-3 py-2 text-sm text-gray-800 outline-none select-none data-[highlighted]:bg-gray-100 data-[disabled]:opacity-50';

/**
 * The signed-in person's menu in the dashboard header (Radix dropdown): avatar initial and first name
 * (from the stored user; 'U' and 'User' without one), settings, sign out.
 * Test ids: the trigger `user-menu`, the items `user-menu-settings` and `sign-out`.
 */
export function UserMenu() {
  const { t } = useTranslation();
  const { user, signOut } = useAuth();
  const [signingOut, setSigningOut] = useState(false);
  const firstname = user?.firstname.trim() ?? '';
  const name = firstname || t('userMenu.fallbackName');
  const initial = (firstname.charAt(0) || FALLBACK_INITIAL).toUpperCase();
  const fullName = user ? `${user.firstname} ${user.lastname}`.trim() : '';

  const onSignOut = () => {
    if (signingOut) return;
    setSigningOut(true);
    void signOut().finally(() => setSigningOut(false));
  };

  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger
        data-testid="user-menu"
        aria-label={t('userMenu.label', { name })}
        aria-busy={signingOut || undefined}
        className={cn(
          'inline-flex h-9 items-center gap-2 rounded-control pr-1.5 pl-1 text-sm font-medium text-gray-700 sm:pr-2',
          'transition-colors hover:bg-gray-100 hover:text-gray-900 data-[state=open]:bg-gray-100',
        )}
      >
        <span
          aria-hidden="true"
          className="flex size-7 items-center justify-center rounded-full bg-brand-100 text-xs font-semibold text-brand-800"
        >
          {signingOut ? <Spinner className="size-3.5" /> : initial}
        </span>
        <span className="max-w-32 truncate max-sm:hidden" data-testid="user-menu-name">
          {name}
        </span>
        <ChevronDownIcon className="size-3.5 text-gray-500 max-sm:hidden" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={6}
          className="z-50 min-w-56 rounded-card border border-gray-200 bg-white p-1 shadow-overlay data-[state=open]:animate-fade-in"
        >
          <DropdownMenu.Label className="px-3 pt-2 pb-2">
            <span className="block truncate text-sm font-medium text-gray-900">{fullName || name}</span>
            {user?.email && <span className="block truncate text-xs text-gray-500">{user.email}</span>}
          </DropdownMenu.Label>
          <DropdownMenu.Separator className="my-1 h-px bg-gray-200" />
          <DropdownMenu.Item asChild className={itemClass}>
            <Link to={paths.dashboard.settings} data-testid="user-menu-settings">
              <SettingsIcon className="size-4 text-gray-500" />
              {t('userMenu.settings')}
            </Link>
          </DropdownMenu.Item>
          <DropdownMenu.Item className={itemClass} disabled={signingOut} onSelect={onSignOut} data-testid="sign-out">
            <SignOutIcon className="size-4 text-gray-500" />
            {t('userMenu.signOut')}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
