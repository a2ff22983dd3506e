/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Overrides the product name shown in the interface (default 'Vouchreel'). */
  readonly VITE_BRAND_NAME?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

/**
 * A translation catalogue imported for the recording page's messages (i18n/recording-messages.*.ts):
 * the query makes it a module of its own, so that only the parts named there reach that page.
 */
declare module '*.json?recording' {
  type TCatalogueTree = { [key: string]: string | TCatalogueTree };
  export const common: TCatalogueTree;
  export const meta: TCatalogueTree;
  export const recording: TCatalogueTree;
  export const collectPage: TCatalogueTree;
  export const errors: { app: TCatalogueTree; reasons: TCatalogueTree };
}
