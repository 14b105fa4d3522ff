import * as RadixTabs from '@radix-ui/react-tabs';
import type { ReactNode } from 'react';

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
}: {
  label: string;
  tabs: ReadonlyArray<{ id: Id; label: string; panel: ReactNode }>;
  value: Id;
  onChange: (id: Id) => void;
  className?: string;
}) {
  return (
    <RadixTabs.Root
      value={value}
      onValueChange={(next) => {
        const chosen = tabs.find((tab) => tab.id === next);
        if (chosen) onChange(chosen.id);
      }}
      className={className}
    >
      <RadixTabs.List className="tabs" aria-label={label}>
        {tabs.map((tab) => (
          <RadixTabs.Trigger key={tab.id} value={tab.id} className="tab">
            {tab.label}
          </RadixTabs.Trigger>
        ))}
      </RadixTabs.List>
      {tabs.map((tab) => (
        <RadixTabs.Content key={tab.id} value={tab.id}>
          {tab.panel}
        </RadixTabs.Content>
      ))}
    </RadixTabs.Root>
  );
}
