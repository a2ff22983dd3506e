import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { useSwitchCompanyMutation } from '../lib/api/switch-company';
import { apiErrorMessage } from '../lib/api-error-message';
import { useAuth } from '../lib/auth-context';
import { cn } from '../lib/cn';
import { paths } from '../lib/paths';
import { updateTokens } from '../lib/session';
import { useRole } from '../lib/use-role';
import { CheckIcon, ChevronDownIcon } from './icons';
import { Spinner } from './spinner';

const itemClass =
  'flex cursor-default items-center gap-2.5 rounded-control px-3 py-2 text-sm text-gray-800 outline-none select-none data-[highlighted]:bg-gray-100 data-[disabled]:opacity-50';

/**
 * The company switcher of the dashboard header (issue 32, agencies; decision 219). Shown only to a
 * person who belongs to more than one company: lists them with the role in each; picking one asks the
 * server for a token naming it, stores it where the session lives, empties the whole query cache
 * (nothing of one company may stay on screen under another; the dashboard's content remounts on the
 * new company id) and opens the overview.
 * Test ids: the trigger `company-switcher`, the items `company-switcher-item` (data-company-id).
 */
export function CompanySwitcher({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const { user, updateUser } = useAuth();
  const { companies } = useRole();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const switching = useSwitchCompanyMutation();

  if (companies.length < 2) return null;
  const activeId = user?.company_id ?? null;
  const active = companies.find((company) => company.id === activeId);
  const activeName = active?.name ?? user?.company?.name ?? '';

  const onPick = (companyId: string) => {
    if (companyId === activeId || switching.isPending) return;
    const target = companies.find((company) => company.id === companyId);
    if (!target) return;
    switching.mutate(
      { companyId },
      {
        onSuccess: ({ token }) => {
          updateTokens({ token });
          queryClient.clear();
          updateUser((current) => ({
            ...current,
            company_id: companyId,
            company: { id: companyId, name: target.name },
          }));
          void navigate(paths.dashboard.root);
        },
        onError: (error) => toast.error(apiErrorMessage(error, t)),
      },
    );
  };

  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger
        data-testid="company-switcher"
        aria-label={t('companySwitcher.label', { name: activeName })}
        aria-busy={switching.isPending || undefined}
        className={cn(
          'inline-flex h-9 min-w-0 items-center gap-2 rounded-control border border-gray-200 bg-white px-2.5 text-sm font-medium text-gray-800',
          'transition-colors hover:bg-gray-50 data-[state=open]:bg-gray-50',
          compact ? 'max-w-36' : 'max-w-56',
        )}
      >
        <span
          aria-hidden="true"
          className="flex size-5 shrink-0 items-center justify-center rounded bg-gray-900 text-[10px] font-semibold text-white"
        >
          {switching.isPending ? <Spinner className="size-3" /> : (activeName.charAt(0) || '?').toUpperCase()}
        </span>
        <span className="truncate" data-testid="company-switcher-name">
          {activeName}
        </span>
        <ChevronDownIcon className="size-3.5 shrink-0 text-gray-500" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="start"
          sideOffset={6}
          collisionPadding={8}
          data-testid="company-switcher-content"
          className="z-50 max-h-[var(--radix-dropdown-menu-content-available-height)] w-72 max-w-[calc(100vw-16px)] overflow-y-auto rounded-card border border-gray-200 bg-white p-1 shadow-overlay data-[state=open]:animate-fade-in"
        >
          <DropdownMenu.Label className="px-3 pt-2 pb-1.5 text-xs font-medium text-gray-500">
            {t('companySwitcher.title')}
          </DropdownMenu.Label>
          <DropdownMenu.RadioGroup value={activeId ?? ''} onValueChange={onPick}>
            {companies.map((company) => (
              <DropdownMenu.RadioItem
                key={company.id}
                value={company.id}
                disabled={switching.isPending}
                data-testid="company-switcher-item"
                data-company-id={company.id}
                className={cn(itemClass, 'justify-between')}
              >
                <span className="flex min-w-0 flex-col">
                  <span className="truncate font-medium text-gray-900">{company.name}</span>
                  <span className="text-xs text-gray-500">{t(`companySwitcher.roles.${company.role}`)}</span>
                </span>
                <DropdownMenu.ItemIndicator>
                  <CheckIcon className="size-4 text-brand-700" />
                </DropdownMenu.ItemIndicator>
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
