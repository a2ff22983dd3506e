import { createContext, useContext } from 'react';
import type { AnchorHTMLAttributes, ReactNode } from 'react';

/** An in-app link: a path of the app (lib/paths.ts) and the anchor's own attributes. */
export interface TAppLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: string;
  /** Replaces the current history entry (the router's; a document link ignores it). */
  replace?: boolean;
  /** Loads the target as a new document even inside the single-page app. */
  reloadDocument?: boolean;
}

export interface TNavigation {
  /** Renders an in-app link. */
  renderLink: (props: TAppLinkProps) => ReactNode;
  /** The path the router shows; null without a router (the document's own path is then the truth). */
  pathname: string | null;
}

/** A plain anchor: the browser loads the target as a new document. */
function documentLink({ to, replace: _replace, reloadDocument: _reload, ...props }: TAppLinkProps): ReactNode {
  return <a href={to} {...props} />;
}

/**
 * How shared components link and where they are, without importing a router. The single-page app
 * provides react-router's `Link` and location (app/root-layout.tsx); the customer's recording page,
 * its own entry with no router (docs/decisions/125), uses the default: document links and the
 * document's path. Shared pieces read this instead of react-router, so that the router stays out of
 * that entry's bundle.
 */
export const NavigationContext = createContext<TNavigation>({ renderLink: documentLink, pathname: null });

/** An in-app link: the router's in the app, a document link elsewhere. */
export function AppLink(props: TAppLinkProps): ReactNode {
  return useContext(NavigationContext).renderLink(props);
}

/** The current path: the router's in the app, the document's elsewhere. */
export function usePathname(): string {
  const { pathname } = useContext(NavigationContext);
  return pathname ?? (typeof window === 'undefined' ? '/' : window.location.pathname);
}
