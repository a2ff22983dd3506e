import type { ReactNode, SVGProps } from 'react';

/** Icons of the testimonial detail page, drawn like those of components/icons (24 px grid, 1.75 stroke). */
type IconProps = SVGProps<SVGSVGElement>;

function Icon({ children, ...props }: IconProps & { children: ReactNode }) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      viewBox="0 0 24 24"
      width="24"
      height="24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.75}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      {children}
    </svg>
  );
}

export function DownloadIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M12 4v11M7.5 10.5 12 15l4.5-4.5" />
      <path d="M5 19h14" />
    </Icon>
  );
}

/** A phone-shaped frame with an arrow: a vertical export for social platforms. */
export function ExportIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <rect x="6.5" y="3" width="11" height="18" rx="2" />
      <path d="M12 14V8M9.5 10.5 12 8l2.5 2.5" />
    </Icon>
  );
}

/** Two stacked clips joining: the merged video. */
export function MergeIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <rect x="3" y="4" width="8" height="6" rx="1.5" />
      <rect x="13" y="4" width="8" height="6" rx="1.5" />
      <path d="M7 10v2.5a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2V10M12 14.5V20" />
    </Icon>
  );
}

/** A frame with two lines of text at its foot: subtitles. */
export function SubtitlesIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <path d="M7 12.5h4M13 12.5h4M7 15.5h7" />
    </Icon>
  );
}

/** A title card before a clip: the question intro. */
export function IntroIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <path d="M7.5 10h9M9.5 13.5h5" />
    </Icon>
  );
}

export function RegenerateIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M20 12a8 8 0 0 1-14.2 5M4 12a8 8 0 0 1 14.2-5" />
      <path d="M18.5 3.5V7H15M5.5 20.5V17H9" />
    </Icon>
  );
}

export function ExpandIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M14 4h6v6M10 20H4v-6M20 4l-7 7M4 20l7-7" />
    </Icon>
  );
}

export function ExternalIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M14 4h6v6M20 4l-9 9" />
      <path d="M18 14v4a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2h4" />
    </Icon>
  );
}
