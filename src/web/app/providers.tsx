import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { ToastContainer } from 'react-toastify';
import 'react-toastify/dist/ReactToastify.css';
import { TIMINGS } from '../../contract/constants.js';
import i18n from '../i18n/i18n';
import { createQueryClient } from '../lib/query-client';

/** App-wide providers: translations, server state, and the one toast container. */
export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        {children}
        <ToastContainer position="top-right" autoClose={TIMINGS.toastAutoCloseMs} newestOnTop closeOnClick={false} />
      </QueryClientProvider>
    </I18nextProvider>
  );
}
