import { z } from 'zod';

/** Building blocks shared by the node data shapes. */

export const NullableString = z.string().nullable();
export const NullableNumber = z.number().nullable();

/** "object (free-form)" in the spec: any JSON object. */
export const FreeFormObject = z.record(z.string(), z.unknown());

/** "any JSON value" in the spec. */
export const AnyJsonValue = z.unknown();

export const PositiveNumber = z.number().positive();

/** A point or vector in 3D: exactly three numbers. */
export const Vector3 = z.array(z.number()).length(3);

export const ImageSize = z.enum(['0.5K', '1K', '2K', '4K']);
export const GenerationMode = z.enum(['text_to_image', 'image_to_image', 'all_reference', 'image_reference']);

export const ExternalRunStatus = z.enum(['claimed', 'running', 'cancel_requested']);
export const RunTrigger = z.enum(['user', 'agent', 'system']);

/** Spec section "Fields common to every node data shape": all optional, present in every data shape. */
export const commonDataFields = {
  displayName: z.string().optional(),
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
