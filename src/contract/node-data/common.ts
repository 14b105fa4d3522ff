import { z } from 'zod';
import { ARRAY_LIMITS, LIMITS } from '../limits.js';
import { codePointLength } from '../text.js';

/** Building blocks shared by the node data shapes. */

/**
 * A string of node or edge data: at most LIMITS.stringLength code points, the unit JSON Schema's maxLength counts.
 * Lone UTF-16 surrogates are kept as data: both stores keep the JSON text escaped (docs/contract.md).
 */
export const Str = z
  .string()
  .refine((value) => value.length <= LIMITS.stringLength || codePointLength(value) <= LIMITS.stringLength, {
    error: `must be at most ${LIMITS.stringLength} characters`,
  })
  .meta({ maxLength: LIMITS.stringLength });

export const NullableString = Str.nullable();
export const NullableNumber = z.number().nullable();

/** An array of node data, bounded (docs/contract.md, "Limits"). */
export function List<T extends z.ZodType>(item: T, max: number = ARRAY_LIMITS.items) {
  return z.array(item).max(max, { error: `must have at most ${max} items` });
}

/**
 * "__proto__" is the one key that JavaScript object handling silently turns into something else, so it is refused
 * everywhere (docs/contract.md); published as propertyNames so JSON Schema clients refuse it too.
 */
export const ObjectKey = z.string().regex(/^(?!__proto__$)/u, { error: '"__proto__" is a reserved key' });

/** "object (free-form)" in the spec: any JSON object. */
export const FreeFormObject = z.record(ObjectKey, z.unknown());

/** "any JSON value" in the spec. */
export const AnyJsonValue = z.unknown();

/**
 * A shape the spec does not give: any JSON object. The shape we recommend is published in the description, never
 * enforced (docs/contract.md, "Shapes the spec does not give").
 */
export function UnspecifiedObject(recommended: string) {
  return FreeFormObject.meta({
    description: `Any JSON object (the spec gives no shape). Suggested: ${recommended}`,
  });
}

export const PositiveNumber = z.number().positive();

/** A point or vector in 3D: exactly three numbers. */
export const Vector3 = z.array(z.number()).length(3);

export const ImageSize = z.enum(['0.5K', '1K', '2K', '4K']);
export const GenerationMode = z.enum(['text_to_image', 'image_to_image', 'all_reference', 'image_reference']);

export const ExternalRunStatus = z.enum(['claimed', 'running', 'cancel_requested']);
export const RunTrigger = z.enum(['user', 'agent', 'system']);

/** Spec section "Fields common to every node data shape": all optional, present in every data shape. */
export const commonDataFields = {
  displayName: Str.optional(),
  externalRunId: NullableString.optional(),
  externalRunStatus: ExternalRunStatus.nullable().optional(),
  externalRunTriggeredBy: RunTrigger.nullable().optional(),
  externalRunTriggeredByName: NullableString.optional(),
  gatewayTextModelId: NullableString.optional(),
  gatewayTextOperationId: NullableString.optional(),
  gatewayTextOperationAction: NullableString.optional(),
  generationErrorRequestId: NullableString.optional(),
  generationAttemptId: NullableString.optional(),
};

/** Fields of nodes that run a generation and report it on the node. */
export const generationProgressFields = {
  isGenerating: z.boolean().optional(),
  generationStartedAt: NullableNumber.optional(),
  generationDurationMs: z.number().optional(),
};
