import * as RadixTabs from '@radix-ui/react-tabs';
import type { ComponentProps } from 'react';
import { cn } from '../lib/cn';

/**
 * Tabs (Radix): arrow keys move between triggers, the active panel follows. Use `Tabs` as the root,
 * `TabsList` with `TabsTrigger`s, then one `TabsContent` per value.
 */
export const Tabs = RadixTabs.Root;

export function TabsList({ className, ...props }: ComponentProps<typeof RadixTabs.List>) {
  return (
    <RadixTabs.List
      className={cn('flex gap-1 rounded-control border border-gray-200 bg-gray-100 p-1', className)}
      {...props}
    />
  );
}

export function TabsTrigger({ className, ...props }: ComponentProps<typeof RadixTabs.Trigger>) {
  return (
    <RadixTabs.Trigger
      className={cn(
        'inline-flex h-9 flex-1 items-center justify-center gap-2 rounded-[calc(var(--radius-control)-2px)] px-3 text-sm font-medium whitespace-nowrap text-gray-600 sm:flex-none sm:px-4',
        'transition-colors hover:text-gray-900 data-[state=active]:bg-white data-[state=active]:text-gray-950 data-[state=active]:shadow-sm',
        className,
      )}
      {...props}
    />
  );
}

export function TabsContent({ className, ...props }: ComponentProps<typeof RadixTabs.Content>) {
  return <RadixTabs.Content className={cn('mt-6 focus-visible:outline-offset-4', className)} {...props} />;
}
