import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAuth } from '../lib/auth-context';
import { cn } from '../lib/cn';
import { creditForm } from '../lib/credits';
import { paths } from '../lib/paths';
import { useRole } from '../lib/use-role';
import { ChevronDownIcon, CoinsIcon, SettingsIcon, SignOutIcon } from './icons';
import { LanguageRadioItems } from './language-menu';
import { Spinner } from './spinner';

/** The initial shown in the avatar when the stored user has no first name. */
export const FALLBACK_INITIAL = 'U';

const itemClass =
  'flex cursor-default items-center gap-2.5 rounded-control px-3 py-2 text-sm text-gray-800 outline-none select-none data-[highlighted]:bg-gray-100 data-[disabled]:opacity-50';

export interface UserMenuProps {
  /** Controlled open state (the onboarding tour opens the menu); uncontrolled when left out. */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /**
   * While the onboarding tour points at an entry of the menu: the menu stays open and is not modal,
   * so the tour's own buttons above the page remain usable.
   */
  pinned?: boolean;
  /**
   * Phones (spec §2): the credit balance and the language switch move into the menu. `credits` is
   * the balance when known; without `compact` neither shows.
   */
  compact?: boolean;
  credits?: number | undefined;
}

/**
 * The signed-in person's menu in the dashboard header (Radix dropdown): avatar initial and first name
 * (from the stored user; 'U' and 'User' without one), settings, sign out; on phones also the credits
 * and the language.
 * Test ids: the trigger `user-menu`, the items `user-menu-settings` and `sign-out`; on phones
 * `user-menu-credits`, `user-menu-buy-credits`, `user-menu-language-en` and `user-menu-language-fr`.
 */
export function UserMenu({ open, onOpenChange, pinned = false, compact = false, credits }: UserMenuProps = {}) {
  const { t } = useTranslation();
  const { user, signOut } = useAuth();
  const { can } = useRole();
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

  const controlled = open !== undefined ? { open: pinned ? true : open } : {};
  const keepOpen = (event: Event) => {
    if (pinned) event.preventDefault();
  };

  return (
    <DropdownMenu.Root {...controlled} onOpenChange={(next) => !pinned && onOpenChange?.(next)} modal={!pinned}>
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
          onInteractOutside={keepOpen}
          onEscapeKeyDown={keepOpen}
          onFocusOutside={keepOpen}
          data-testid="user-menu-content"
          className="z-50 max-h-[var(--radix-dropdown-menu-content-available-height)] min-w-56 overflow-y-auto rounded-card border border-gray-200 bg-white p-1 shadow-overlay data-[state=open]:animate-fade-in"
        >
          <DropdownMenu.Label className="px-3 pt-2 pb-2">
            <span className="block truncate text-sm font-medium text-gray-900">{fullName || name}</span>
            {user?.email && <span className="block truncate text-xs text-gray-500">{user.email}</span>}
          </DropdownMenu.Label>
          {compact && credits !== undefined && (
            <>
              <DropdownMenu.Separator className="my-1 h-px bg-gray-200" />
              <div className="flex items-center gap-2.5 px-3 py-2 text-sm text-gray-700" data-testid="user-menu-credits">
                <CoinsIcon className="size-4 text-gray-500" />
                <span className="tabular-nums">
                  {t(`dashboard.header.credits.${creditForm(credits)}`, { count: credits })}
                </span>
              </div>
              {can('buyCredits') && (
                <DropdownMenu.Item asChild className={itemClass}>
                  <Link to={paths.dashboard.payment} data-testid="user-menu-buy-credits" className="font-medium text-brand-800">
                    <span className="size-4" aria-hidden="true" />
                    {t('dashboard.header.buyCredits')}
                  </Link>
                </DropdownMenu.Item>
              )}
            </>
          )}
          {compact && (
            <>
              <DropdownMenu.Separator className="my-1 h-px bg-gray-200" />
              <DropdownMenu.Label className="px-3 pt-1.5 pb-1 text-xs font-medium text-gray-500">
                {t('language.label')}
              </DropdownMenu.Label>
              <LanguageRadioItems
                testIdPrefix="user-menu-language"
                itemClassName={cn(itemClass, 'justify-between data-[state=checked]:font-medium')}
              />
            </>
          )}
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
