import type { ReactNode, SVGProps } from 'react';

/** Inline 24 px stroke icons for the six feature cards. */
function FeatureIcon({ children, ...props }: SVGProps<SVGSVGElement> & { children: ReactNode }) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.75}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className="size-6"
      {...props}
    >
      {children}
    </svg>
  );
}

export function CollectionIcon() {
  return (
    <FeatureIcon>
      <rect x="2.5" y="6" width="13" height="12" rx="2.5" />
      <path d="m15.5 10.5 5-3v9l-5-3" />
      <circle cx="9" cy="12" r="2" />
    </FeatureIcon>
  );
}

export function EditingIcon() {
  return (
    <FeatureIcon>
      <path d="m4 20 10-10" />
      <path d="m12.5 8.5 3 3" />
      <path d="M17 3.5v3M15.5 5h3" />
      <path d="M19.5 10v2M18.5 11h2" />
      <path d="M9 3v2M8 4h2" />
    </FeatureIcon>
  );
}

export function AnalyticsIcon() {
  return (
    <FeatureIcon>
      <path d="M4 4v15a1 1 0 0 0 1 1h15" />
      <path d="M8 16v-3M12 16V9M16 16v-5M20 16V6" />
    </FeatureIcon>
  );
}

export function SharingIcon() {
  return (
    <FeatureIcon>
      <circle cx="18" cy="5.5" r="2.5" />
      <circle cx="6" cy="12" r="2.5" />
      <circle cx="18" cy="18.5" r="2.5" />
      <path d="m8.2 13.2 7.6 4.1M15.8 6.7l-7.6 4.1" />
    </FeatureIcon>
  );
}

export function MobileIcon() {
  return (
    <FeatureIcon>
      <rect x="6.5" y="2.5" width="11" height="19" rx="2.5" />
      <path d="M11 18.5h2" />
      <circle cx="12" cy="10" r="2.5" />
    </FeatureIcon>
  );
}

export function SecurityIcon() {
  return (
    <FeatureIcon>
      <path d="M12 3 19.5 6v5.5c0 4.4-3.1 8.3-7.5 9.5-4.4-1.2-7.5-5.1-7.5-9.5V6Z" />
      <path d="m9 12 2.2 2.2L15.5 10" />
    </FeatureIcon>
  );
}
