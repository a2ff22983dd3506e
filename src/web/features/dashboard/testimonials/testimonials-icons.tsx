import type { SVGProps } from "react";

/** Icons of the testimonials list, drawn like those of components/icons (24 px grid, 1.75 stroke). */
type IconProps = SVGProps<SVGSVGElement>;

/** An open padlock: a testimonial that has been paid for. */
export function UnlockIcon(props: IconProps) {
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
      <rect x="4.5" y="10.5" width="15" height="10" rx="2" />
      <path d="M8 10.5V7.5a4 4 0 0 1 7.7-1.5" />
    </svg>
  );
}
