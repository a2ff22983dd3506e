/**
 * The product's name as shown in the interface and page titles. The architecture makes the brand
 * configurable (BRAND_NAME on the server); the web app can only read VITE_* values at build time.
 */
export const BRAND_NAME: string = import.meta.env.VITE_BRAND_NAME || 'Vouchreel';
