import type { HTMLAttributes } from 'react';
import { cn } from '../lib/cn';

export interface CardProps extends HTMLAttributes<HTMLDivElement> {
  /** Inner spacing: none for media cards, md (24 px) by default, lg (32 px) for feature panels. */
  padding?: 'none' | 'sm' | 'md' | 'lg';
  /** A neutral or a highlighted (brand ring) border. */
  tone?: 'default' | 'muted' | 'highlight';
}

const paddings = { none: '', sm: 'p-4', md: 'p-6', lg: 'p-8' } as const;
const tones = {
  default: 'bg-white border border-gray-200',
  muted: 'bg-gray-50 border border-gray-200',
  highlight: 'bg-white border border-brand-600 ring-1 ring-brand-600',
} as const;

/** A bordered surface with the card radius. Shadows are kept for dialogs and menus. */
export function Card({ padding = 'md', tone = 'default', className, ...props }: CardProps) {
  return <div className={cn('rounded-card', tones[tone], paddings[padding], className)} {...props} />;
}
