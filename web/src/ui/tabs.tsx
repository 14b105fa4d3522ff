import * as RadixTabs from '@radix-ui/react-tabs';
import type { ReactElement, ReactNode } from 'react';

/**
 * Tabs (Radix Tabs): a tab list named `label`, arrow keys moving between the tabs (and choosing them), each panel
 * named by its tab; only the chosen panel is in the page.
 */
export function Tabs<Id extends string>({
  label,
  tabs,
  value,
  onChange,
  className,
  listClassName = 'tabs',
  panelClassName,
}: {
  label: string;
  tabs: ReadonlyArray<{ id: Id; label: string; panel: ReactNode }>;
  value: Id;
  onChange: (id: Id) => void;
  className?: string;
  listClassName?: string;
  panelClassName?: string;
}) {
  return (
    <TabsRoot ids={tabs.map((tab) => tab.id)} value={value} onChange={onChange} className={className}>
      <TabList label={label} tabs={tabs} className={listClassName} />
      {tabs.map((tab) => (
        <RadixTabs.Content key={tab.id} value={tab.id} className={panelClassName}>
          {tab.panel}
        </RadixTabs.Content>
      ))}
    </TabsRoot>
  );
}

/**
 * The same tabs when the tab list and the panel are apart on the page (the board page: the views in the top bar, the
 * view below): a root around both, the list, and one panel that shows the chosen tab.
 */
export function TabsRoot<Id extends string>({
  ids,
  value,
  onChange,
  className,
  children,
}: {
  ids: readonly Id[];
  value: Id;
  onChange: (id: Id) => void;
  className?: string;
  children: ReactNode;
}) {
  return (
    <RadixTabs.Root
      value={value}
      onValueChange={(next) => {
        const chosen = ids.find((id) => id === next);
        if (chosen) onChange(chosen);
      }}
      className={className}
    >
      {children}
    </RadixTabs.Root>
  );
}

export function TabList<Id extends string>({
  label,
  tabs,
  className = 'tabs',
}: {
  label: string;
  tabs: ReadonlyArray<{ id: Id; label: string }>;
  className?: string;
}) {
  return (
    <RadixTabs.List className={className} aria-label={label}>
      {tabs.map((tab) => (
        <RadixTabs.Trigger key={tab.id} value={tab.id} className="tab">
          {tab.label}
        </RadixTabs.Trigger>
      ))}
    </RadixTabs.List>
  );
}

/** The panel of the chosen tab, as the one element it wraps (a `<main>`, say), named by that tab. */
export function TabPanel({ value, children }: { value: string; children: ReactElement }) {
  return (
    <RadixTabs.Content value={value} asChild>
      {children}
    </RadixTabs.Content>
  );
}
