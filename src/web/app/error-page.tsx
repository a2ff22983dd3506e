import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { Button, ButtonLink } from '../components/button';
import { Card } from '../components/card';
import { AlertIcon, ArrowLeftIcon } from '../components/icons';
import { PublicShell } from '../components/public-shell';
import { Seo } from '../components/seo';
import { paths } from '../lib/paths';
import { APP_ERROR_HEADING } from './app-error-heading';

/**
 * The app-level error page (the router's error element). The heading is fixed by the spec:
 * 'Unexpected Application Error!', in every language (app-error-heading.ts); the explanation below
 * it is translated.
 */

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

export function AppErrorPage() {
  const error = useRouteError();
  const { t } = useTranslation();
  const details = describe(error);

  return (
    <PublicShell>
      <Seo title={APP_ERROR_HEADING} robots="noindex" />
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
            <ButtonLink
              to={paths.home}
              reloadDocument
              variant="primary"
              leadingIcon={<ArrowLeftIcon className="size-4" />}
            >
              {t('common.backHome')}
            </ButtonLink>
            <Button variant="secondary" onClick={() => window.location.reload()}>
              {t('common.reload')}
            </Button>
          </div>
          {import.meta.env.DEV && (
            <details className="mt-8 w-full text-left">
              <summary className="cursor-pointer text-sm text-gray-500">{t('errors.app.details')}</summary>
              <pre className="mt-2 overflow-x-auto rounded-control bg-gray-100 p-3 font-mono text-xs text-gray-700">
                {details}
              </pre>
            </details>
          )}
        </div>
      </Card>
    </PublicShell>
  );
}
