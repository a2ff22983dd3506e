import type { ReactNode } from 'react';
import { cn } from '../../../lib/cn';

export interface SectionHeadingProps {
  /** Id of the h2, for the section's aria-labelledby. */
  id: string;
  eyebrow: string;
  title: string;
  subtitle?: ReactNode;
  align?: 'center' | 'start';
}

/** The eyebrow, title and subtitle that open each landing section. */
export function SectionHeading({ id, eyebrow, title, subtitle, align = 'center' }: SectionHeadingProps) {
  return (
    <div className={cn('max-w-2xl', align === 'center' && 'mx-auto text-center')}>
      <p className="text-xs font-semibold tracking-wider text-gray-500 uppercase">{eyebrow}</p>
      <h2 id={id} className="mt-3 text-xl font-semibold tracking-tight text-balance text-gray-950 sm:text-2xl">
        {title}
      </h2>
      {subtitle && <p className="mt-4 text-base text-pretty text-gray-600 sm:text-lg">{subtitle}</p>}
    </div>
  );
}
