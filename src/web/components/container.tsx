import type { HTMLAttributes } from 'react';
import { cn } from '../lib/cn';

export interface ContainerProps extends HTMLAttributes<HTMLDivElement> {
  /** Maximum width: 'lg' (1200 px) for page sections, 'md' (768 px) for text, 'sm' (448 px) for forms. */
  width?: 'sm' | 'md' | 'lg';
}

const widths = { sm: 'max-w-md', md: 'max-w-3xl', lg: 'max-w-6xl' } as const;

/** Centres content with the page gutters (16 px on phones, 24 px on tablets, 32 px on desktops). */
export function Container({ width = 'lg', className, ...props }: ContainerProps) {
  return <div className={cn('mx-auto w-full px-4 sm:px-6 lg:px-8', widths[width], className)} {...props} />;
}
