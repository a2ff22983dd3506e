import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TIMINGS } from '../../../../contract/constants.js';
import { Alert } from '../../../components/alert';
import { Card } from '../../../components/card';
import { PageHeader } from '../../../components/page-header';
import { Seo } from '../../../components/seo';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/tabs';
import { useAuth } from '../../../lib/auth-context';
import { useRole } from '../../../lib/use-role';
import { MEDIA, useMediaQuery } from '../../../lib/use-media-query';
import type { TTestimonialRequestSafe } from '../../../../contract/api/testimonials.schema.js';
import { useQuestions } from '../api/list-questions';
import { useRequests } from '../api/list-requests';
import { LinkReady } from './link-ready';
import { RequestForm } from './request-form';
import { SentRequests } from './sent-requests';
import { INITIAL_STATUS_FILTER, matchesStatusFilter } from './status-filter';
import type { TStatusFilter } from './status-filter';

type TTab = 'new' | 'sent';

/** Wide screens show both panels stacked: plain sections, without the tab panels' role and tab stop. */
const STACKED_PANEL = { role: undefined, 'aria-labelledby': undefined, tabIndex: undefined, className: 'mt-0!' } as const;

/**
 * Requests (spec §2, §4, §8): the new-request form and the sent list. Below 768 px and from 768 to
 * 1024 px they are two tabs, 'new' and 'sent'; wider, both are stacked. After a send the success
 * message shows for 4 s (or, for a request whose link the company sends itself, the link until closed)
 * and the sent tab opens; on narrow screens the page scrolls to the list.
 * Test ids: `requests-tabs`, `requests-tab-new`, `requests-tab-sent`, `request-success`, `sent-requests`.
 */
export function RequestsScreen() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const companyId = user?.company_id ?? '';
  const companyName = user?.company?.name ?? '';
  // A viewer sends nothing (issue 32): only the sent list, without tabs.
  const canSend = useRole().can('sendRequest');
  const tabbed = useMediaQuery(MEDIA.drawer) && canSend;
  const questions = useQuestions(companyId);
  const requests = useRequests(companyId);
  const [tab, setTab] = useState<TTab>('new');
  const [filter, setFilter] = useState<TStatusFilter>(INITIAL_STATUS_FILTER);
  const [success, setSuccess] = useState(false);
  /** A request made to be sent by the company itself: its link shows until dismissed. */
  const [linkReady, setLinkReady] = useState<TTestimonialRequestSafe | null>(null);
  const sentSection = useRef<HTMLDivElement>(null);
  const [scrollRequest, setScrollRequest] = useState(0);

  useEffect(() => {
    if (questions.error) console.warn('GET /api/questions/list failed on the requests page.', questions.error);
  }, [questions.error]);
  useEffect(() => {
    if (requests.error) console.warn('GET /api/testimonials/requests failed.', requests.error);
  }, [requests.error]);

  // The success message stays 4 s (spec §9).
  useEffect(() => {
    if (!success) return;
    const timer = window.setTimeout(() => setSuccess(false), TIMINGS.requestSuccessMs);
    return () => window.clearTimeout(timer);
  }, [success]);

  // On narrow screens the page scrolls to the list once it is shown.
  useEffect(() => {
    if (scrollRequest === 0) return;
    sentSection.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }, [scrollRequest]);

  const onSent = (request: TTestimonialRequestSafe) => {
    if (request.delivery === 'link') {
      setSuccess(false);
      setLinkReady(request);
    } else {
      setLinkReady(null);
      setSuccess(true);
    }
    setTab('sent');
    // The new request is pending: make sure the filter shows it.
    if (!matchesStatusFilter({ status: 'pending' }, filter)) setFilter(INITIAL_STATUS_FILTER);
    if (tabbed) setScrollRequest((n) => n + 1);
  };

  const goToForm = () => {
    setTab('new');
    window.setTimeout(() => document.querySelector<HTMLInputElement>('[data-testid="request-form"] input[name="customer_name"]')?.focus(), 0);
  };

  const form = (
    <Card padding="none" className="p-4 sm:p-6">
      {!tabbed && <h2 className="mb-4 text-base font-semibold text-gray-950">{t('requests.form.title')}</h2>}
      <RequestForm
        companyName={companyName}
        questions={questions.data}
        questionsLoading={questions.isPending && Boolean(companyId)}
        questionsError={questions.isError}
        onRetryQuestions={() => void questions.refetch()}
        onSent={onSent}
      />
    </Card>
  );

  const sent = (
    <div ref={sentSection} className="scroll-mt-20" data-testid="sent-requests">
      {success && (
        <Alert tone="success" className="mb-4" data-testid="request-success">
          {t('requests.success')}
        </Alert>
      )}
      {linkReady && <LinkReady request={linkReady} companyName={companyName} onDismiss={() => setLinkReady(null)} />}
      <SentRequests
        companyId={companyId}
        companyName={companyName}
        requests={requests.data}
        loading={requests.isPending && Boolean(companyId)}
        error={requests.isError}
        retrying={requests.isFetching}
        onRetry={() => void requests.refetch()}
        filter={filter}
        onFilterChange={setFilter}
        onNewRequest={canSend ? goToForm : undefined}
        hideTitle={tabbed}
      />
    </div>
  );

  const pendingCount = (requests.data ?? []).filter((r) => r.status === 'pending').length;

  return (
    <>
      <Seo title={t('requests.title')} description={t('requests.description')} robots="noindex" />
      <PageHeader title={t('requests.title')} description={t('requests.description')} />
      {/* One tree for both layouts: only the tab list and the panels' tab roles come and go. A layout
          change (a window resized or a tablet turned across 1024 px, or Chromium's full-page capture,
          which briefly shrinks the viewport) must not remount the form and lose what was typed. */}
      <Tabs
        value={canSend ? tab : 'sent'}
        onValueChange={(value) => setTab(value === 'sent' ? 'sent' : 'new')}
        className={tabbed ? undefined : 'flex flex-col gap-10'}
        data-testid={tabbed ? 'requests-tabs' : undefined}
        data-layout={tabbed ? 'tabs' : 'stacked'}
      >
        {tabbed && (
          <TabsList aria-label={t('requests.title')} className="sm:inline-flex">
            <TabsTrigger value="new" data-testid="requests-tab-new">
              {t('requests.tabs.new')}
            </TabsTrigger>
            <TabsTrigger value="sent" data-testid="requests-tab-sent">
              {t('requests.tabs.sent')}
              {pendingCount > 0 && (
                <span className="rounded-full bg-gray-200 px-1.5 text-xs text-gray-700 tabular-nums">{pendingCount}</span>
              )}
            </TabsTrigger>
          </TabsList>
        )}
        {canSend && (
          <TabsContent value="new" forceMount hidden={tabbed && tab !== 'new'} {...(tabbed ? {} : STACKED_PANEL)}>
            {form}
          </TabsContent>
        )}
        <TabsContent
          value="sent"
          forceMount={tabbed ? undefined : true}
          {...(tabbed ? {} : { ...STACKED_PANEL, role: 'region', 'aria-label': t('requests.list.title') })}
        >
          {sent}
        </TabsContent>
      </Tabs>
    </>
  );
}
