import { Component, lazy, StrictMode, Suspense, useState } from 'react';
import type { ErrorInfo, ReactNode } from 'react';
import { Button, ButtonLink } from '../components/button';
import { Card } from '../components/card';
import { AlertIcon, ArrowLeftIcon } from '../components/icons';
import { RecordingFrame } from '../features/recording/components/recording-frame';
import { RecordingHead } from '../features/recording/components/recording-head';
import { RecordingPage } from '../features/recording/recording-page';
import { RecordingI18nProvider, useRecordingT } from '../i18n/recording-i18n';
import type { RecordingLanguage } from '../i18n/recording-i18n';
import { paths } from '../lib/paths';
import { APP_ERROR_HEADING } from './app-error-heading';

/**
 * The customer's recording page as its own application (src/web/recording.tsx, docs/decisions/125):
 * the page, its translations and an error boundary. No router, no server-state cache, no toasts:
 * links are document links (lib/navigation.tsx), and the page makes its two public calls itself.
 * No i18next either: the page's own small translator (i18n/recording-i18n.ts, docs/decisions/139).
 */
export function RecordingApp({ token, slug = '', language }: { token: string; slug?: string; language: RecordingLanguage }) {
  return (
    <StrictMode>
      <RecordingI18nProvider initial={language}>
        <RecordingErrorBoundary>
          <LinkOrRequest token={token} slug={slug} />
        </RecordingErrorBoundary>
      </RecordingI18nProvider>
    </StrictMode>
  );
}

/** An open collection link's first step (issue 30): a chunk of its own, loaded only on /c/:slug. */
const CollectPage = lazy(() => import('../features/recording/collect/collect-page'));

/**
 * A customer's link, or an open collection link (/c/:slug): its first step makes a request, whose
 * recording page follows at its own address, exactly as for an invited customer.
 */
function LinkOrRequest({ token, slug }: { token: string; slug: string }) {
  const [started, setStarted] = useState(token);
  if (!started && slug) {
    return (
      <Suspense fallback={<RecordingFrame loading>{null}</RecordingFrame>}>
        <CollectPage
          slug={slug}
          onStarted={(next) => {
            // A reload or a return later continues this request (its answers are kept on the device).
            window.history.replaceState(null, '', paths.recording(next));
            setStarted(next);
          }}
        />
      </Suspense>
    );
  }
  return <RecordingPage token={started} />;
}

/** The slug of an open collection link's path (`/c/:slug`), or '' when there is none. */
export function slugFromPath(pathname: string): string {
  return /^\/c\/([a-z0-9-]{4,64})\/?$/.exec(pathname)?.[1] ?? '';
}

/** The token of a recording link's path (`/testimonial/submit/:token`), or '' when there is none. */
export function tokenFromPath(pathname: string): string {
  const match = /^\/testimonial\/submit\/([^/]+)\/?$/.exec(pathname);
  if (!match?.[1]) return '';
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return match[1];
  }
}

/** The app-level error page of this entry, as the app's own (app/error-page.tsx) reads. */
class RecordingErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(error, info.componentStack);
  }

  override render(): ReactNode {
    return this.state.failed ? <RecordingErrorPage /> : this.props.children;
  }
}

function RecordingErrorPage() {
  const { t } = useRecordingT();
  return (
    <RecordingFrame>
      <RecordingHead title={APP_ERROR_HEADING} />
      <div className="mx-auto w-full max-w-xl px-4 pt-10 sm:px-6">
        <Card padding="none">
          <div role="alert" className="flex flex-col items-center px-6 py-12 text-center">
            <div className="mb-6 flex size-12 items-center justify-center rounded-card border border-error-200 bg-error-50 text-error-700">
              <AlertIcon className="size-6" />
            </div>
            <h1 className="text-xl font-semibold tracking-tight text-gray-900" lang="en">
              {APP_ERROR_HEADING}
            </h1>
            <p className="mt-3 text-base text-gray-600">{t('errors.app.description')}</p>
            <div className="mt-8 flex flex-wrap items-center justify-center gap-3">
              <ButtonLink to={paths.home} variant="primary" leadingIcon={<ArrowLeftIcon className="size-4" />}>
                {t('common.backHome')}
              </ButtonLink>
              <Button variant="secondary" onClick={() => window.location.reload()}>
                {t('common.reload')}
              </Button>
            </div>
          </div>
        </Card>
      </div>
    </RecordingFrame>
  );
}
