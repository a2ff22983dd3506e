import { useTranslation } from 'react-i18next';
import { ButtonLink } from '../../../components/button';
import { Container } from '../../../components/container';
import { ArrowRightIcon } from '../../../components/icons';
import { paths } from '../../../lib/paths';

/** The closing free-trial call to action. */
export function FinalCta() {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="cta-title" className="render-when-visible pb-20 sm:pb-28">
      <Container>
        <div className="relative isolate overflow-hidden rounded-card bg-gray-950 px-6 py-16 text-center sm:px-16 sm:py-20">
          <div
            aria-hidden="true"
            className="absolute inset-0 -z-10 bg-[radial-gradient(ellipse_70%_80%_at_50%_0%,var(--color-gray-800),transparent)]"
          />
          <h2
            id="cta-title"
            className="mx-auto max-w-2xl text-xl font-semibold tracking-tight text-balance text-white sm:text-2xl"
          >
            {t('landing.cta.title')}
          </h2>
          <p className="mx-auto mt-4 max-w-xl text-base text-pretty text-gray-300">{t('landing.cta.subtitle')}</p>
          <div className="mt-8 flex flex-col items-stretch justify-center gap-3 sm:flex-row sm:items-center">
            <ButtonLink
              to={paths.signup}
              size="lg"
              variant="inverse"
              trailingIcon={<ArrowRightIcon className="size-4" />}
            >
              {t('landing.cta.button')}
            </ButtonLink>
            <ButtonLink to={paths.signin} size="lg" variant="ghost-inverse">
              {t('landing.cta.secondary')}
            </ButtonLink>
          </div>
        </div>
      </Container>
    </section>
  );
}
