import type { CredentialsReport } from './c2pa-signer.js';

/**
 * What a file's content credentials say, in a few fields a person reads: `canvas-mcp admin verify`
 * prints it, and a result's "Content credentials" in the canvas shows it.
 */

const DIGITAL_SOURCE = /digitalsourcetype\/([A-Za-z]+)/;

export interface CredentialsSummary {
  state: CredentialsReport['state'];
  failures: string[];
  made_by: string | null;
  source_type: string | null;
  signed_at: string | null;
  signer: string | null;
  generation: Record<string, unknown> | null;
  ingredients: Array<{ title: string | null; relationship: string | null }>;
}

export function credentialsSummary(found: CredentialsReport): CredentialsSummary {
  const actions = (found.manifest.assertions ?? []).find((assertion) => assertion.label.startsWith('c2pa.actions'));
  const first = (actions?.data as { actions?: Array<Record<string, unknown>> } | undefined)?.actions?.[0];
  const agent = first?.softwareAgent as { name?: string; version?: string } | string | undefined;
  const generation = (found.manifest.assertions ?? []).find((assertion) =>
    assertion.label.startsWith('com.canvas-mcp'),
  );
  return {
    state: found.state,
    failures: found.failures.map(
      (failure) => `${failure.code}${failure.explanation ? `: ${failure.explanation}` : ''}`,
    ),
    made_by:
      typeof agent === 'string'
        ? agent
        : agent?.name
          ? `${agent.name}${agent.version ? ` ${agent.version}` : ''}`
          : null,
    source_type: DIGITAL_SOURCE.exec(String(first?.digitalSourceType ?? ''))?.[1] ?? null,
    signed_at: found.manifest.signature_info?.time ?? null,
    signer: found.manifest.signature_info?.common_name ?? found.manifest.signature_info?.issuer ?? null,
    generation: (generation?.data as Record<string, unknown> | undefined) ?? null,
    ingredients: (found.manifest.ingredients ?? []).map((ingredient) => ({
      title: ingredient.title ?? null,
      relationship: ingredient.relationship ?? null,
    })),
  };
}
