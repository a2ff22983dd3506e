/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Overrides the product name shown in the interface (default 'Vouchreel'). */
  readonly VITE_BRAND_NAME?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
