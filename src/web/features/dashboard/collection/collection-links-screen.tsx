import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { TCollectionLink, TCollectionLinkState } from '../../../../contract/api/collection.schema.js';
import { Badge } from '../../../components/badge';
import type { BadgeTone } from '../../../components/badge';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { CopyField } from '../../../components/copy-field';
import { ConfirmDialog } from '../../../components/dialog';
import { EmptyState } from '../../../components/empty-state';
import { ErrorState } from '../../../components/error-state';
import { DownloadIcon, LinkIcon, PencilIcon, PlusIcon, TrashIcon } from '../../../components/icons';
import { PageHeader } from '../../../components/page-header';
import { Seo } from '../../../components/seo';
import { Skeleton } from '../../../components/skeleton';
import { useAuth } from '../../../lib/auth-context';
import { useRole } from '../../../lib/use-role';
import { formatDate } from '../../../lib/format';
import { useQuestions } from '../api/list-questions';
import { downloadQr, useCollectionLinks, useDeleteLinkMutation } from './collection-api';
import { LinkFormDialog } from './link-form-dialog';

const STATE_TONE: Record<TCollectionLinkState, BadgeTone> = { open: 'completed', disabled: 'neutral', expired: 'expired', full: 'pending' };

/**
 * Collection links (issue 30): each link's public address with a copy button, its QR code to download
 * (SVG, PNG), its state and counts, and a dialog to create or change it.
 * Test ids: `collection-links`, `collection-link`, `link-url`, `qr-svg`, `qr-png`, `link-state`.
 */
export function CollectionLinksScreen() {
  const { t } = useTranslation();
  const { user } = useAuth();
  // A viewer sees the links and their QR codes; making and changing them is an editor's (issue 32).
  const canEdit = useRole().can('collectionLinks');
  const links = useCollectionLinks();
  const questions = useQuestions(user?.company_id ?? '');
  const [editing, setEditing] = useState<TCollectionLink | 'new' | null>(null);
  const [deleting, setDeleting] = useState<TCollectionLink | null>(null);
  const remove = useDeleteLinkMutation();
  const noQuestions = questions.isSuccess && questions.data.length === 0;

  const createButton = (
    <Button leadingIcon={<PlusIcon className="size-4" />} onClick={() => setEditing('new')} disabled={!questions.isSuccess || noQuestions} data-testid="new-link">
      {t('collectionLinks.create')}
    </Button>
  );

  return (
    <>
      <Seo title={t('collectionLinks.title')} description={t('collectionLinks.seoDescription')} robots="noindex" />
      <PageHeader title={t('collectionLinks.title')} description={t('collectionLinks.description')} actions={canEdit ? createButton : undefined} />
      {noQuestions && <p className="mb-4 text-sm text-gray-600">{t('collectionLinks.needQuestions')}</p>}
      {links.isPending ? (
        <div className="grid gap-4 lg:grid-cols-2" aria-busy="true">
          {[0, 1].map((i) => (
            <Card key={i} className="space-y-3">
              <Skeleton className="h-6 w-1/2" />
              <Skeleton className="h-10 w-full" />
              <Skeleton className="h-9 w-2/3" />
            </Card>
          ))}
        </div>
      ) : links.isError ? (
        <ErrorState message={t('collectionLinks.loadFailed')} onRetry={() => void links.refetch()} retrying={links.isFetching} />
      ) : links.data.length === 0 ? (
        <Card>
          <EmptyState icon={<LinkIcon className="size-6" />} title={t('collectionLinks.emptyTitle')} description={t('collectionLinks.emptyDescription')} action={noQuestions ? undefined : createButton} />
        </Card>
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2" data-testid="collection-links">
          {links.data.map((link) => (
            <li key={link.id}>
              <LinkCard link={link} onEdit={canEdit ? () => setEditing(link) : undefined} onDelete={canEdit ? () => setDeleting(link) : undefined} />
            </li>
          ))}
        </ul>
      )}
      {editing && questions.data && (
        <LinkFormDialog
          link={editing === 'new' ? null : editing}
          questions={questions.data}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            toast.success(t('collectionLinks.saved'));
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t('collectionLinks.deleteTitle')}
        description={t('collectionLinks.deleteDescription')}
        confirmLabel={t('collectionLinks.delete')}
        tone="danger"
        pending={remove.isPending}
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate(deleting.id, {
            onSuccess: () => {
              setDeleting(null);
              toast.success(t('collectionLinks.deleted'));
            },
          });
        }}
      />
    </>
  );
}

function LinkCard({ link, onEdit, onDelete }: { link: TCollectionLink; onEdit: (() => void) | undefined; onDelete: (() => void) | undefined }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<'svg' | 'png' | null>(null);
  const download = async (format: 'svg' | 'png') => {
    setBusy(format);
    try {
      await downloadQr(link, format);
    } catch {
      toast.error(t('collectionLinks.downloadFailed'));
    } finally {
      setBusy(null);
    }
  };
  const facts = [
    t('collectionLinks.questionCount', { count: link.question_ids.length }),
    link.language === 'french' ? t('collectionLinks.form.french') : t('collectionLinks.form.english'),
    link.expires_at ? t('collectionLinks.expires', { date: formatDate(link.expires_at) }) : t('collectionLinks.noExpiry'),
    ...(link.max_submissions !== null ? [t('collectionLinks.max', { count: link.max_submissions })] : []),
    ...(link.email_code_required ? [t('collectionLinks.codeOn')] : []),
  ];
  return (
    <Card className="flex h-full flex-col gap-4" data-testid="collection-link" data-slug={link.slug}>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between sm:gap-3">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <span aria-hidden="true" className="size-3 shrink-0 rounded-full border border-gray-200" style={{ backgroundColor: link.background_color }} />
            <h2 className="truncate text-base font-semibold text-gray-950">{link.name}</h2>
            <Badge tone={STATE_TONE[link.state]} dot data-testid="link-state" data-state={link.state}>
              {t(`collectionLinks.state.${link.state}`)}
            </Badge>
          </div>
          <p className="mt-1 text-sm text-gray-600">{facts.join(' · ')}</p>
        </div>
        <div className="flex items-baseline gap-2 sm:block sm:shrink-0 sm:text-right">
          <p className="text-lg font-semibold whitespace-nowrap text-gray-950 tabular-nums" data-testid="link-submissions">
            {t('collectionLinks.submissions', { count: link.submissions })}
          </p>
          <p className="text-xs text-gray-500">{t('collectionLinks.today', { count: link.submissions_today, cap: link.daily_cap })}</p>
        </div>
      </div>
      <CopyField label={t('collectionLinks.address')} hint={t('collectionLinks.addressHint')} value={link.url} copyLabel={t('collectionLinks.copy')} testId="link-url" copyTestId="copy-link-url" />
      <div className="mt-auto flex flex-wrap items-center gap-2 border-t border-gray-100 pt-4">
        <span className="mr-1 hidden text-sm font-medium text-gray-700 sm:inline">{t('collectionLinks.qr')}</span>
        <Button size="sm" variant="secondary" leadingIcon={<DownloadIcon className="hidden size-4 sm:block" />} loading={busy === 'svg'} onClick={() => void download('svg')} aria-label={t('collectionLinks.downloadSvgLabel', { name: link.name })} data-testid="qr-svg">
          <span className="sm:hidden">{t('collectionLinks.qrShort')}</span> {t('collectionLinks.downloadSvg')}
        </Button>
        <Button size="sm" variant="secondary" leadingIcon={<DownloadIcon className="hidden size-4 sm:block" />} loading={busy === 'png'} onClick={() => void download('png')} aria-label={t('collectionLinks.downloadPngLabel', { name: link.name })} data-testid="qr-png">
          <span className="sm:hidden">{t('collectionLinks.qrShort')}</span> {t('collectionLinks.downloadPng')}
        </Button>
        <span className="ml-auto" />
        {onEdit && onDelete && (
          <>
        <Button size="sm" variant="ghost" onClick={onEdit} aria-label={t('collectionLinks.editLabel', { name: link.name })} title={t('collectionLinks.edit')} data-testid="edit-link">
          <PencilIcon className="size-4" />
        </Button>
        <Button size="sm" variant="ghost" onClick={onDelete} aria-label={t('collectionLinks.deleteLabel', { name: link.name })} title={t('collectionLinks.delete')} data-testid="delete-link">
          <TrashIcon className="size-4" />
        </Button>
          </>
        )}
      </div>
    </Card>
  );
}
